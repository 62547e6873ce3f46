"""What goes into and comes out of the scorer: HandInput, ScoreItem, ScoreResult, Settlement.

HandInput mirrors the ``score`` JSON of FORMATS.md; ScoreResult.to_json() gives its output.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeVar

from controller.tiles import Meld, Tile

if TYPE_CHECKING:
    from controller.scoring.rules import RuleSet

K = TypeVar("K")

WIN_SOURCES = ("wall", "discard", "replacement", "robbed_kong", "dealt")
FLAGS = ("original_call", "twofold_fortune", "last_of_kind")
#: the flags of rule set riichi (FORMATS.md): facts of the win the tiles cannot show
RIICHI_FLAGS = ("riichi", "double_riichi", "ippatsu", "first_turn")


class ScoringError(ValueError):
    """A hand, rule set or option the scorer cannot accept; the message names the culprit."""


@dataclass(frozen=True)
class HandInput:
    """One player's hand at the end of a hand, as the ``score`` command reads it.

    ``ruleset`` is a rule-set name (then ``options`` apply) or a RuleSet from get_ruleset().
    ``hand`` holds the concealed tiles, for the winner including the winning tile.
    """

    ruleset: str | RuleSet
    seat_wind: str = "east"
    prevailing_wind: str = "east"
    melds: Sequence[Meld] = ()
    hand: Sequence[Tile] = ()
    bonus: Sequence[Tile] = ()
    mahjong: bool = False
    winning_tile: Tile | None = None
    win_source: str | None = None
    last_tile: bool = False
    first_discard: bool = False
    flags: Sequence[str] = ()
    options: Mapping[str, Any] | None = None
    #: riichi only (FORMATS.md): the revealed dora indicators, the ura indicators of a winner
    #: in riichi, and the honba counter (shown, not part of the score)
    dora_indicators: Sequence[Tile] = ()
    ura_dora_indicators: Sequence[Tile] = ()
    honba: int = 0


class ScoreItem(NamedTuple):
    """One line of a score's explanation: base points, doublings, or a limit (in limits)."""

    name: str
    tiles: tuple[Tile, ...]
    points: int = 0
    doubles: int = 0
    limit: float = 0.0
    bonus: bool = False  # a bonus doubling (swedish): does not count for the minimum doubling

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "tiles": list(self.tiles)}
        if self.limit:
            out["limit"] = self.limit
        elif self.doubles:
            out["doubles"] = self.doubles
        else:
            out["points"] = self.points
        return out


#: makes a score's explained items and arrangement when first asked for
Explainer = Callable[[], "tuple[list[ScoreItem], list[list[Tile]]]"]


class ScoreResult:
    """A scored hand: base points X, doublings Y, score min(limit, X * 2^Y) or a limit hand.

    The numbers are computed at once; the explained ``items`` and the ``arrangement`` are made
    on first access by ``explain`` (most callers of a score look only at its numbers), and are
    then the same as if they had been given.
    """

    __slots__ = ("points", "doubles", "limit_hand", "score", "combination_doubles", "special",
                 "leftover", "_items", "_arrangement", "_explain")
    #: what ``points`` count: "points" (points and doublings) or "fans" (mcr); not part of the
    #: `score` contract's JSON (FORMATS.md), which stays exactly as written
    unit = "points"
    _items: list[ScoreItem] | None
    _arrangement: list[list[Tile]] | None

    def __init__(  # noqa: PLR0913 - the fields of a score, as FORMATS.md lists them
        self, points: int, doubles: int, limit_hand: str | None, score: int,
        items: list[ScoreItem] | None = None, arrangement: list[list[Tile]] | None = None,
        combination_doubles: int = 0, special: str | None = None,
        leftover: list[Tile] | None = None, explain: Explainer | None = None,
    ) -> None:
        self.points, self.doubles, self.limit_hand, self.score = points, doubles, limit_hand, score
        #: doublings that count for swedish's minimum-doubling rule: every doubling except the
        #: bonus ones; a limit item that is not a bonus item counts as one.
        self.combination_doubles = combination_doubles
        #: the rule-set special hand the arrangement is (``seven_pairs``, ...) or None
        self.special = special
        #: concealed tiles no set or pair took (non-winners only)
        self.leftover = [] if leftover is None else leftover
        self._explain = explain
        if explain is None:
            self._items, self._arrangement = items or [], arrangement or []
        else:
            self._items = self._arrangement = None

    def _explained(self) -> tuple[list[ScoreItem], list[list[Tile]]]:
        if self._items is None or self._arrangement is None:
            assert self._explain is not None  # set whenever the items are not
            self._items, self._arrangement = self._explain()
            self._explain = None
        return self._items, self._arrangement

    @property
    def items(self) -> list[ScoreItem]:
        return self._explained()[0]

    @items.setter
    def items(self, value: list[ScoreItem]) -> None:
        self._explained()
        self._items = value

    @property
    def arrangement(self) -> list[list[Tile]]:
        return self._explained()[1]

    @arrangement.setter
    def arrangement(self, value: list[list[Tile]]) -> None:
        self._explained()
        self._arrangement = value

    def _fields(self) -> tuple[object, ...]:
        return (self.points, self.doubles, self.limit_hand, self.score, self.items,
                self.arrangement, self.combination_doubles, self.special, self.leftover)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ScoreResult):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass it replaced

    def __repr__(self) -> str:
        names = ("points", "doubles", "limit_hand", "score", "items", "arrangement",
                 "combination_doubles", "special", "leftover")
        inner = ", ".join(f"{n}={v!r}" for n, v in zip(names, self._fields(), strict=True))
        return f"ScoreResult({inner})"

    def to_json(self) -> dict[str, Any]:
        return {
            "points": self.points,
            "doubles": self.doubles,
            "limit_hand": self.limit_hand,
            "score": self.score,
            "items": [i.to_json() for i in self.items],
            "arrangement": [list(g) for g in self.arrangement],
            "combination_doubles": self.combination_doubles,
            "special": self.special,
            "leftover": list(self.leftover),
        }


@dataclass
class Settlement(Generic[K]):
    """Who pays whom after a hand: payments (from, to, amount) and each player's net."""

    payments: list[tuple[K, K, int]]
    net: dict[K, int]

    def to_json(self) -> dict[str, Any]:
        return {
            "payments": [{"from": a, "to": b, "amount": n} for a, b, n in self.payments],
            "net": dict(self.net),
        }
