"""The game state: immutable records (frozen, slotted dataclasses and tuples) the fold passes on.

Only the fields that change are rebuilt per event; everything else is shared with the previous
state, so a state per event is cheap and undo can simply step back along ``GameState.prev``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from controller.tiles import ALL_CODES, BONUS_CODES, WINDS, Tile

_BONUS = frozenset(BONUS_CODES)

CODE_INDEX = {code: i for i, code in enumerate(ALL_CODES)}

#: Where a hand is: dealing (tiles leave the wall for the racks), play, over (a result).
Phase = Literal["deal", "play", "over"]
#: What the player to move does next in play.
Step = Literal["draw", "discard", "replacement"]
#: A set on a meld strip.
SetKind = Literal["chow", "pung", "kong"]
#: How a hand ended.
HandEnd = Literal["mahjong", "washout", "nagashi_mangan", "chombo"]

T = TypeVar("T")
_Evolver = Callable[[Any, Mapping[str, Any]], Any]
_EVOLVERS: dict[type, tuple[_Evolver, frozenset[str]]] = {}


def _make_evolver(cls: type) -> tuple[_Evolver, frozenset[str]]:
    """Generate a copy-with-changes function for one slotted frozen dataclass (the fold's hot
    path: a generated function is several times faster than dataclasses.replace()), with the
    names of its fields."""
    slots: tuple[str, ...] = cls.__slots__  # type: ignore[attr-defined]
    lines = ["def evolve(obj, ch):", "    new = NEW(cls)"]
    for name in slots:
        lines.append(f"    SET(new, {name!r}, ch[{name!r}] if {name!r} in ch else obj.{name})")
    lines.append("    return new")
    namespace: dict[str, Any] = {"NEW": object.__new__, "SET": object.__setattr__, "cls": cls}
    exec("\n".join(lines), namespace)  # noqa: S102 - generated from the class's own slot names
    return namespace["evolve"], frozenset(slots)


def evolve(obj: T, **changes: Any) -> T:
    """A copy of a slotted frozen dataclass with some fields changed; a name that is not one of
    its fields is a TypeError (as for the class itself), never silently ignored."""
    cls = type(obj)
    made = _EVOLVERS.get(cls)  # pragma: no mutate - a miss makes the same function again
    if made is None:
        made = _EVOLVERS[cls] = _make_evolver(cls)  # pragma: no mutate - as above
    fn, names = made
    if not names.issuperset(changes):
        unknown = ", ".join(sorted(set(changes) - names))
        raise TypeError(f"{cls.__name__} has no field(s) {unknown}: evolve() changes only "
                        f"{', '.join(sorted(names))}")
    new: T = fn(obj, changes)
    return new


@dataclass(frozen=True, slots=True)
class TableSet:
    """A set on a meld strip: a claimed chow/pung/kong, an added or a declared concealed kong."""

    tiles: tuple[Tile, ...]
    kind: SetKind
    concealed: bool = False
    claimed_from: int | None = None  # the discarder's position, for claimed sets
    added: bool = False  # an exposed pung that became a kong with a self-drawn tile

    def to_json(self) -> dict[str, Any]:
        return {"tiles": list(self.tiles), "kind": self.kind, "concealed": self.concealed}


@dataclass(frozen=True, slots=True)
class Seat:
    """One physical seat's tiles and standing in the current hand."""

    position: int
    rack: tuple[Tile, ...] = ()  # concealed tiles (a bonus tile may sit here too)
    melds: tuple[TableSet, ...] = ()
    forming: tuple[Tile, ...] = ()  # own tiles on the meld strip that are not a set yet
    bonus: tuple[Tile, ...] = ()  # bonus tiles laid on the meld strip
    river: tuple[Tile, ...] = ()  # own discards that went dead
    ready: bool = False
    dead: bool = False
    replacements_due: int = 0
    discards: int = 0
    ready_at: int | None = None  # own discards made when ready was called (original call)
    last_source: str | None = None  # how the newest tile came: wall, replacement, discard
    last_tile: Tile | None = None
    kong_chain: int = 0  # kongs declared in a row, each on the previous kong's replacement

    def size(self) -> int:
        """Tiles that count toward the hand: 13, or 14 during the own turn."""
        return len(self.forming) + 3 * len(self.melds) + sum(
            1 for t in self.rack if t not in _BONUS
        )

    def concealed(self) -> list[Tile]:
        return [t for t in self.rack if t not in _BONUS]


@dataclass(frozen=True, slots=True)
class Claim:
    """A claim forming on ``seat``'s meld strip: its own tiles are in Seat.forming."""

    seat: int
    tile: Tile
    discarder: int
    discard_on_strip: bool = False


@dataclass(frozen=True, slots=True)
class Result:
    """How a hand ended and what it paid."""

    result: HandEnd
    winner: int | None
    scores: tuple[int, int, int, int]
    net: tuple[int, int, int, int]
    details: dict[str, Any] = field(default_factory=dict, compare=False)
    payments: tuple[tuple[int, int, int], ...] = ()
    win_source: str | None = None  # wall, discard, replacement, robbed_kong, dealt
    discarder: int | None = None  # whose discard (or robbed kong) gave the Mahjong


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand from the first tile off the wall to Mahjong or washout."""

    number: int
    dealer: int
    prevailing_wind: str
    seats: tuple[Seat, Seat, Seat, Seat]
    out: tuple[int, ...]  # copies of each code (ALL_CODES order) that have left the wall
    drawable: int  # 122 with 136 tiles, 130 with 144
    phase: Phase = "deal"
    turn: int = 0
    step: Step | None = None
    drawn: int = 0
    discard: tuple[Tile, int] | None = None  # the live discard and its discarder
    pad_dead: tuple[tuple[Tile, int], ...] = ()  # dead discards still lying on the pad
    died: tuple[Tile, int] | None = None  # the newest discard the next draw made dead
    discards_total: int = 0
    claim: Claim | None = None
    claimants: tuple[tuple[int, str], ...] = ()  # (seat, claim|mahjong) declared on the discard
    awarded: int | None = None
    taken: int | None = None  # a seat took the live discard into its rack (Mahjong)
    robbable: tuple[Tile, int] | None = None  # an added kong's tile until its replacement
    robbers: tuple[int, ...] = ()
    rob_taken: int | None = None
    fresh_claim: tuple[int, int] | None = None  # (seat, meld index) of a pung claimed this turn
    result: Result | None = None
    claim_deadline: float | None = None
    turn_deadline: float | None = None
    late_claim: tuple[int, float, float] | None = None  # (seat, overrun, deadline): a late claim
    rh: Any = None  # riichi only: the hand's riichi facts (controller.game.riichi.RiichiHand)

    @property
    def live_wall(self) -> int:
        return self.drawable - self.drawn

    def seat(self, position: int) -> Seat:
        return self.seats[position - 1]

    def with_seat(self, seat: Seat, **changes: Any) -> Hand:
        i = seat.position - 1
        changes["seats"] = self.seats[:i] + (seat,) + self.seats[i + 1 :]
        return evolve(self, **changes)

    def wind_of(self, position: int) -> str:
        return WINDS[(position - self.dealer) % 4]


@dataclass(frozen=True, slots=True)
class Violation:
    """A refused event (or an accepted one that broke a rule): the rule's stable name."""

    rule: str
    seat: int | None
    message: str
    line: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "seat": self.seat, "rule": self.rule, "message": self.message}


@dataclass(frozen=True, slots=True)
class TableOptions:
    """Table options (not rule-set options): the call timers of rules 003."""

    timers: bool = False
    claim_seconds: float = 3.0
    turn_seconds: float = 10.0
    first_turn_seconds: float = 20.0


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A finished hand as the replay output and the public view list it."""

    number: int
    dealer: int
    prevailing_wind: str
    result: HandEnd
    winner: int | None
    scores: tuple[int, int, int, int]
    net: tuple[int, int, int, int]
    win_source: str | None = None
    discarder: int | None = None
    names: tuple[str | None, ...] = (None, None, None, None)  # who sat where in this hand
    riichi: Any = field(default=None, compare=False)  # riichi only: the hand's record fields


@dataclass(frozen=True, slots=True)
class Penalty:
    """An operator's penalty: a transfer between players (sums to zero) or a deduction from
    one player's score (shown apart from the totals). ``hand``: the hand in play or last
    finished when it was given."""

    kind: str  # transfer | false_mahjong | deduction
    hand: int
    payments: tuple[tuple[int, int, int], ...] = ()  # (from, to, amount) of a transfer
    seat: int | None = None  # who is penalised
    amount: int = 0
    reason: str | None = None
    names: tuple[str | None, ...] = (None, None, None, None)
    cancelled: bool = False  # taken back by the operator ({"penalty": {"cancel": N}})
    line: int | None = None  # the log line of a penalty the rules gave (a false Mahjong)


@dataclass(frozen=True, slots=True, eq=False)
class Trail:
    """An append-only sequence that states share: adding is O(1) (a tuple copy per refused
    event made replay quadratic in refused events), reading walks it once, oldest first."""

    last: Any = None
    rest: Trail | None = None
    size: int = 0

    def add(self, item: Any) -> Trail:
        return Trail(item, self, self.size + 1)

    def __len__(self) -> int:
        return self.size

    def __eq__(self, other: object) -> bool:  # equal to the tuple of its items (or a Trail)
        if isinstance(other, Trail | tuple):
            return len(other) == self.size and tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __iter__(self) -> Iterator[Any]:
        items: list[Any] = []
        node: Trail | None = self
        while node is not None and node.size:
            items.append(node.last)
            node = node.rest
        return iter(items[::-1])


NO_TRAIL = Trail()


@dataclass(frozen=True, slots=True)
class GameState:
    """A session: its rule set, the hand in play, finished hands and totals, plus bookkeeping.

    Fields marked compare=False are bookkeeping (history, violations, tiles out of place);
    two states that compare equal describe the same game.
    """

    ruleset_name: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    ruleset: Any = field(default=None, compare=False)
    table: TableOptions = TableOptions()
    hand: Hand | None = None
    hands: tuple[HandRecord, ...] = ()
    totals: tuple[int, int, int, int] = (0, 0, 0, 0)
    dealer: int = 1
    prevailing_wind: str = "east"
    passes: int = 0  # dealership passes in the current wind round
    streak: int = 0  # consecutive wins of the current dealer
    game_over: bool = False
    deal_at: float | None = None
    seq: int = field(default=0, compare=False)
    prev: GameState | None = field(default=None, compare=False, repr=False)
    depth: int = field(default=0, compare=False)  # accepted game-changing events so far
    violations: Trail = field(default=NO_TRAIL, compare=False)  # of Violation
    last_violation: Violation | None = field(default=None, compare=False)
    misplaced: tuple[tuple[Tile, str, str], ...] = field(default=(), compare=False)
    timers_noted: tuple[tuple[str, int, float], ...] = field(default=(), compare=False)
    # Who plays at each position (``player`` events); an undo keeps them.
    names: tuple[str | None, ...] = (None, None, None, None)
    penalties: tuple[Penalty, ...] = ()
    deductions: tuple[int, int, int, int] = (0, 0, 0, 0)
    #: moves of tiles after the hand ended (the table being cleared): (tile, from, to)
    cleared: tuple[tuple[Tile, str, str], ...] = field(default=(), compare=False)
    #: riichi only: the counters on the table (controller.game.riichi.RiichiTable)
    rt: Any = None
    #: accepted corrections so far (undo, reassign, end_hand): players who planned ahead
    #: see from it that the game changed under them
    corrections: int = field(default=0, compare=False)

    @property
    def active(self) -> bool:
        return self.ruleset_name is not None and not self.game_over


@dataclass(frozen=True, slots=True)
class Outcome:
    """What apply() returns: whether the event was taken, the state after it, any violation."""

    accepted: bool
    state: GameState
    violation: Violation | None = None
    announcements: tuple[str, ...] = ()


def new_hand(number: int, dealer: int, prevailing_wind: str, bonus_tiles: bool) -> Hand:
    """An empty table with every tile in the wall."""
    seats = (Seat(1), Seat(2), Seat(3), Seat(4))
    return Hand(
        number=number,
        dealer=dealer,
        prevailing_wind=prevailing_wind,
        seats=seats,
        out=(0,) * len(ALL_CODES),
        drawable=130 if bonus_tiles else 122,
        turn=dealer,
    )


def next_position(position: int) -> int:
    return position % 4 + 1


def next_live(hand: Hand, position: int) -> int:
    """The next seat in turn order whose hand is not dead."""
    nxt = next_position(position)
    for _ in range(3):
        if not hand.seats[nxt - 1].dead:
            return nxt
        nxt = next_position(nxt)
    return nxt


def distance(from_position: int, to_position: int) -> int:
    """Steps in turn order from one seat to another (1..3 for another seat)."""
    return (to_position - from_position) % 4
