"""Response and request models. The public view is passed through :class:`PublicView`, which
keeps only the fields of Contract 4: a second guard, so a stray engine field never leaks.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field


class _Open(BaseModel):
    model_config = ConfigDict(extra="ignore")


class _In(BaseModel):
    """A request body: unknown fields refused, and strict types (no 1 for true, no "1" or true
    for 1, no NaN: 422)."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


#: A tile code of RULES.md (suits 1-9 b/c/d, winds, dragons, flowers f1-f4, seasons s1-s4).
TILE = r"^([1-9][bcd]|[eswn]w|[rgw]d|[1-4][fs])$"  # flowers 1f-4f, seasons 1s-4s


class MeldOut(_Open):
    tiles: list[str]
    kind: str | None = None
    concealed: bool = False


class SeatPublic(_Open):
    position: int
    wind: str | None = None
    name: str | None = None
    concealed_count: int = 0
    rack_count: int | None = None
    melds: list[MeldOut] = Field(default_factory=list)
    forming: list[str] = Field(default_factory=list)
    bonus: list[str] = Field(default_factory=list)
    river: list[str] = Field(default_factory=list)
    ready: bool = False
    dead: bool = False
    replacements_due: int = 0


class DiscardOut(_Open):
    tile: str
    seat: int | None = None


class ClaimantOut(_Open):
    seat: int
    call: str | None = None


class ClaimOut(_Open):
    """A claim forming on ``seat``'s strip; on_strip: its discard lies there (not on the pad)."""

    seat: int
    discard: DiscardOut
    on_strip: bool = False


class OutOfPlaceOut(_Open):
    """A tile to put back; ``tile`` is null when naming it would reveal a concealed tile."""

    tile: str | None = None
    zone: str
    back_to: str


class ViolationOut(_Open):
    line: int | None = None
    seat: int | None = None
    rule: str | None = None
    message: str | None = None


class HandPublic(_Open):
    number: int | None = None
    dealer: int | None = None
    prevailing_wind: str | None = None
    phase: str | None = None
    turn: int | None = None
    step: str | None = None
    discard: DiscardOut | None = None
    claim_window: bool = False
    claimants: list[ClaimantOut] = Field(default_factory=list)
    claim: ClaimOut | None = None
    live_wall: int | None = None
    dead_wall: int | None = None
    seats: dict[str, SeatPublic] = Field(default_factory=dict)
    timers: dict[str, float | None] = Field(default_factory=dict)
    last_violation: ViolationOut | None = None
    out_of_place: list[OutOfPlaceOut] = Field(default_factory=list)
    # Shown only once the hand is over (the engine sets it then): every hand with its score.
    result: dict[str, Any] | None = None


class HandSummary(_Open):
    number: int | None = None
    dealer: int | None = None
    prevailing_wind: str | None = None
    result: str | None = None
    winner: int | None = None
    scores: dict[str, int] = Field(default_factory=dict)
    net: dict[str, int] = Field(default_factory=dict)
    win_source: str | None = None  # wall, discard, replacement, robbed_kong, dealt
    discarder: int | None = None  # whose discard or robbed kong gave the Mahjong
    winds: dict[str, str] = Field(default_factory=dict)  # each seat's wind in THAT hand
    names: dict[str, str | None] = Field(default_factory=dict)  # who sat where in that hand
    # riichi only (FORMATS.md replay): the counters, indicators, winners, tenpai seats, points
    honba: int | None = None
    riichi_sticks: int | None = None
    riichi: list[int] | None = None
    dora_indicators: list[str] | None = None
    ura_dora_indicators: list[str] | None = None
    winners: list[int] | None = None
    tenpai: list[int] | None = None
    points: dict[str, int] | None = None
    chombo: int | None = None
    #: an abortive draw (option abortive_draws): nine_terminals, four_winds_discarded, four_riichi,
    #: four_kongs_several_seats or three_rons; the result is a washout with no tenpai read
    abortive: str | None = None


class PaymentOut(_Open):
    from_: int = Field(alias="from", serialization_alias="from")
    to: int
    amount: int


class PenaltyOut(_Open):
    kind: str
    hand: int
    seat: int | None = None
    amount: int = 0
    reason: str | None = None
    payments: list[PaymentOut] = Field(default_factory=list)
    names: dict[str, str | None] = Field(default_factory=dict)
    cancelled: bool = False
    line: int | None = None


class RoundOut(_Open):
    """The club's tournament round (from the broker): when it ends, this table's seating."""

    round: int | None = None
    started: float | None = None
    ends_at: float | None = None
    seating: list[str] | None = None
    time_up: bool = False


class SessionOut(_Open):
    ruleset: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    active: bool = False
    dealer: int | None = None
    prevailing_wind: str | None = None
    game_over: bool = False
    timers: bool = False


class ServiceStatus(_Open):
    accepting_moves: bool
    halted: str | None = None
    session_active: bool
    server_time: float
    timers: bool = False
    claim_seconds: float | None = None
    turn_seconds: float | None = None


class RiichiFinal(_Open):
    points: dict[str, int]
    uma: dict[str, float]
    penalties: dict[str, int]
    deposits: int = 0
    result: dict[str, float]


class RiichiPublic(_Open):
    """Riichi's board (controller.game.riichi_views): no concealed tile; after an exhaustive
    draw each seat only "tenpai" or "noten"."""

    honba: int = 0
    riichi_sticks: int = 0
    points: dict[str, int] = Field(default_factory=dict)
    riichi: list[int] = Field(default_factory=list)
    double_riichi: list[int] = Field(default_factory=list)
    riichi_discard: dict[str, int | None] = Field(default_factory=dict)
    riichi_river: dict[str, int | None] = Field(
        default_factory=dict, description="the riichi discard's place in the seat's river "
        "(drawn sideways); null while it is on the pad")
    dora_indicators: list[str] = Field(default_factory=list)
    ura_dora_indicators: list[str] = Field(default_factory=list)
    ura_due: bool = False
    tenpai: dict[str, Literal["tenpai", "noten"]] | None = None
    abortive: str | None = None  # the hand just ended in this abortive draw
    abortive_due: str | None = None  # this abortive draw ends the hand unless the discard wins
    chombo: list[int] = Field(default_factory=list)
    final: RiichiFinal | None = None


class SeatRiichi(_Open):
    """A seat's own riichi facts (its own tiles only)."""

    in_riichi: bool = False
    declared: bool = False
    dead: bool = False
    furiten: bool | None = False
    kuikae: list[str] = Field(default_factory=list)
    ron_on: list[str] = Field(default_factory=list)
    no_yaku: list[str] = Field(default_factory=list)
    can_riichi: bool | None = False
    riichi_discards: list[str] = Field(default_factory=list)
    tsumo: bool | None = False
    nine_terminals: bool | None = False  # may declare nine terminals now (abortive_draws)
    drawn: str | None = None


class PublicView(_Open):
    seq: int = 0
    session: SessionOut = Field(default_factory=SessionOut)
    hand: HandPublic | None = None
    hands: list[HandSummary] = Field(default_factory=list)
    totals: dict[str, int] = Field(default_factory=dict)
    service: ServiceStatus | None = None
    players: dict[str, str] = Field(default_factory=dict)
    names: dict[str, str | None] = Field(default_factory=dict)  # seated by name (log events)
    penalties: list[PenaltyOut] = Field(default_factory=list)
    deductions: dict[str, int] = Field(default_factory=dict)  # kept apart from the totals
    round: RoundOut | None = None
    riichi: RiichiPublic | None = None  # riichi only


class HandRecord(HandSummary):
    details: dict[str, Any] = Field(default_factory=dict)
    payments: list[dict[str, Any]] = Field(default_factory=list)


class PlayerStats(_Open):
    won: int
    self_drawn: int
    dealt_in: int
    largest: int
    limit_hands: int
    balance: list[int]


class HolderPart(_Open):
    name: str | None  # None: an anonymous seat
    label: str
    hands: int
    numbers: list[int]
    score: int
    points: float | None  # None while the session is under way (provisional)


class PlaceOut(_Open):
    seat: str
    place: int
    score: int
    points: float | None  # riichi: the result once finished (docs/club.md "Riichi sessions")
    holders: list[HolderPart]
    #: riichi only: the result in thousands (uma and chombo included; provisional while under
    #: way), the points with the deposits left to first place, the uma, the chombo penalty
    result: float | None = None
    final_points: int | None = None
    uma: float | None = None
    chombo: int | None = None


class SeatedOut(_Open):
    name: str | None  # None: an anonymous seat
    label: str
    score: int  # the person's whole session (every part they held); an anonymous seat's part


class HandsOut(_Open):
    hands: list[HandRecord]
    totals: dict[str, int]
    statistics: dict[str, PlayerStats]
    #: the session's four places, each holder's part (controller.sessions.places)
    places: list[PlaceOut] = Field(default_factory=list)
    finished: bool = False
    #: who sits at each seat now and their score in the session (controller.sessions.places)
    seated: dict[str, SeatedOut] = Field(default_factory=dict)


class SeatView(_Open):
    position: int
    wind: str | None = None
    hand: list[str]
    melds: list[MeldOut] = Field(default_factory=list)
    bonus: list[str] = Field(default_factory=list)
    waits: list[str] = Field(default_factory=list)
    waits_shown: bool = Field(default=True, description="false: the table hides waits "
                              "([table] show_waits = false, for competitive play)")
    ready: bool = False
    riichi: SeatRiichi | None = None  # riichi only
    table: PublicView


class Health(_Open):
    ok: bool
    accepting_moves: bool
    halted: str | None
    session_active: bool
    seq: int
    queue_depth: int
    clients: int
    readers: dict[str, dict[str, Any]]
    push: dict[str, int] = Field(default_factory=dict)
    uptime: float
    club: dict[str, Any] | None = None  # the club link (serve --club-broker), else null


class DeclareIn(_In):
    # noten: riichi, after a draw; nine_terminals: riichi, an abortive draw (its option)
    call: Literal["claim", "ready", "mahjong", "noten", "nine_terminals"]


class EventResult(_Open):
    accepted: bool
    seq: int | None
    violation: ViolationOut | None = None


class SessionIn(_In):
    ruleset: Literal["hua-bao", "swedish", "dmjl", "bmja", "mcr"] = "hua-bao"
    options: dict[str, Any] = Field(default_factory=dict)


def _whole(value: Any) -> Any:
    """1.0 is the integer 1 in JSON (JSON Schema agrees); true, "1" and NaN stay refused."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


class UndoIn(_In):
    count: Annotated[int, BeforeValidator(_whole)] = Field(default=1, ge=1, le=50)


class ReassignIn(_In):
    """The operator's correction: public zones only (a rack's tiles are its player's to
    correct, on the seat page)."""

    zone: str = Field(pattern=r"^(melds:[1-4]|discard|river|dora)$")  # dora: riichi's pad
    tile: str = Field(pattern=TILE)
    as_: str = Field(alias="as", pattern=TILE)


class SeatReassignIn(_In):
    """A player's correction of a misread tile in their own rack (the seat page: tap the tile,
    choose what it really is)."""

    tile: str = Field(pattern=TILE)
    as_: str = Field(alias="as", pattern=TILE)


class EndHandIn(_In):
    result: Literal["washout"] = "washout"


class Message(_Open):
    detail: str
