"""The schema every club message must meet before anything acts on it (both sides).

``parse`` bounds the payload (size, JSON, nesting depth); the models bound each field (type,
range, string length, list length) in pydantic's strict mode: a text where a number belongs,
a list where names belong, a number where a name belongs are all refused, as is any field the
message should not have. A message that fails raises ``BadMessage`` with a one-line reason.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from controller.fields import PersonName

#: The broker's limit too (max_packet_size in the written mosquitto.conf). Above the largest
#: message the schema allows (a session's end with 200 penalties of 200-character reasons in
#: 4-byte characters is 415 KB; real ones are a few KB), so no real fact is ever refused.
MAX_BYTES = 512 * 1024
MAX_DEPTH = 6  # a session's end: message > penalties > penalty > payments > payment


class BadMessage(ValueError):
    """A message that is not what its topic carries; the text says why (one line)."""


def parse(payload: bytes) -> dict[str, Any]:
    """The payload as a JSON object within the size and depth limits, else BadMessage."""
    if len(payload) > MAX_BYTES:
        raise BadMessage(f"{len(payload)} bytes (at most {MAX_BYTES})")
    try:
        value = json.loads(payload.decode("utf-8"))
    except RecursionError:
        raise BadMessage(f"nested deeper than {MAX_DEPTH}") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise BadMessage(f"not JSON: {str(exc)[:80]}") from None
    if not isinstance(value, dict):
        raise BadMessage(f"a JSON {type(value).__name__}, not an object")
    depth_ok(value)
    return value


def depth_ok(value: Any) -> None:
    """Walks the value without recursion; BadMessage when nested deeper than MAX_DEPTH."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > MAX_DEPTH:
            raise BadMessage(f"nested deeper than {MAX_DEPTH}")
        stack.extend((child, depth + 1) for child in children)


# --- field types ------------------------------------------------------------------------------

TableId = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,32}$")]
Position = Annotated[int, Field(ge=0, le=2**53)]  # a fact's place in its table's stream
Seat = Annotated[int, Field(ge=1, le=4)]
Count = Annotated[int, Field(ge=0, le=1_000_000)]
Points = Annotated[int, Field(ge=-10**9, le=10**9)]
Time = Annotated[float, Field(ge=0, le=10**11)]
Short = Annotated[str, Field(max_length=40)]
Sig = Annotated[str, Field(max_length=100)]
Name = PersonName | None
Wind = Literal["east", "south", "west", "north"]
Seats = Literal["1", "2", "3", "4"]
BySeat = dict[Seats, Points]
Names = dict[Seats, Name]
Scalar = str | int | float | bool | None
NumberKey = Annotated[str, Field(pattern=r"^[1-9][0-9]{0,5}$")]  # a hand's number as a key


class Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False)


class Signed(Strict):
    sig: Sig | None = None  # required by the receiver's key check, not by the schema


class FromClub(Signed):
    issued: Time  # the club's clock: a table takes nothing older than what it holds


class Payment(Strict):
    from_: Seat = Field(alias="from")
    to: Seat
    amount: Points


class HandPayment(Payment):
    """A hand's payment: ``from`` 0 is the table (riichi: the deposits a winner takes)."""
    from_: Annotated[int, Field(ge=0, le=4)] = Field(alias="from")


class PenaltyBody(Strict):
    kind: Literal["transfer", "false_mahjong", "deduction", "chombo"]
    hand: Count
    seat: Seat | None = None
    amount: Points = 0
    reason: Annotated[str, Field(max_length=200)] | None = None
    payments: Annotated[list[Payment], Field(max_length=12)] = []
    names: Names = {}
    cancelled: bool = False
    line: Count | None = None


class FactHead(Signed):
    table: TableId
    session: Annotated[int, Field(ge=1, le=2**31)]
    pos: Annotated[int, Field(ge=1, le=2**53)]
    prev: Position


class SessionStart(FactHead):
    kind: Literal["session_start"]
    ruleset: Short
    options: Annotated[dict[Short, Scalar | dict[Short, Any]], Field(max_length=60)] = {}
    started: Time


class Players(FactHead):
    kind: Literal["players"]
    names: Names


class Hand(FactHead):
    kind: Literal["hand"]
    number: Annotated[int, Field(ge=1, le=100_000)]
    dealer: Seat
    prevailing_wind: Wind
    result: Literal["mahjong", "washout", "nagashi_mangan", "chombo"]  # the last two: riichi
    winner: Seat | None
    win_source: Literal["wall", "discard", "replacement", "robbed_kong", "dealt"] | None
    discarder: Seat | None
    scores: BySeat
    net: BySeat
    winds: dict[Seats, Wind]
    names: Names
    payments: Annotated[list[HandPayment], Field(max_length=12)]
    limit_hand: Annotated[str, Field(max_length=80)] | None  # a rule key (31 at most today)
    game_over: bool | None = None  # the game's own end came with this hand (issue 21)
    patterns: Annotated[list[Annotated[str, Field(max_length=80)]], Field(max_length=40)] = []


class Holders(FactHead):
    """A seat-holder correction at the table: the names of the hands and penalties it changed,
    by number and index."""

    kind: Literal["holders"]
    hands: Annotated[dict[NumberKey, Names], Field(max_length=500)] = {}  # within MAX_BYTES
    penalties: Annotated[dict[NumberKey, Names], Field(max_length=200)] = {}


class HandUndone(FactHead):
    kind: Literal["hand_undone"]
    number: Annotated[int, Field(ge=1, le=100_000)]


class Penalty(FactHead):
    kind: Literal["penalty"]
    penalty: PenaltyBody
    index: Annotated[int, Field(ge=1, le=10_000)]


class PenaltyUndone(FactHead):
    kind: Literal["penalty_undone"]
    index: Annotated[int, Field(ge=1, le=10_000)]


class SessionEnd(FactHead):
    kind: Literal["session_end"]
    ended: Time
    ruleset: Short
    hands: Count
    totals: BySeat
    deductions: BySeat
    final: BySeat
    names: Names
    penalties: Annotated[list[PenaltyBody], Field(max_length=200)]


FactModel = Annotated[SessionStart | Players | Hand | Holders | HandUndone | Penalty
                      | PenaltyUndone | SessionEnd, Field(discriminator="kind")]


Tile = Annotated[str, Field(pattern=r"^(?:[1-9][bcd]|[eswn]w|[rgw]d|[1-4][fs])$")]
Tiles = Annotated[list[Tile], Field(max_length=40)]


class OpenSeat(Strict):
    """One seat's open tiles: river, sets (``concealed``: which are declared concealed
    kongs), forming tiles, bonus tiles; the rack only as a count."""
    river: Tiles = []
    melds: Annotated[list[Annotated[list[Tile], Field(min_length=2, max_length=4)]],
                     Field(max_length=8)] = []
    concealed: Annotated[list[Annotated[int, Field(ge=0, le=7)]], Field(max_length=8)] = []
    forming: Tiles = []
    bonus: Tiles = []
    concealed_count: Annotated[int, Field(ge=0, le=40)] = 0


class LiveDiscard(Strict):
    tile: Tile
    seat: Seat


class Status(Signed):
    """A table's retained status (everything but ``table``, ``online``, ``last_pos`` and ``at``
    is absent before the table's first session)."""

    table: TableId
    online: bool
    last_pos: Position
    at: Time
    session: Annotated[int, Field(ge=1, le=2**31)] | None = None
    ruleset: Short | None = None
    active: bool | None = None
    hand: Count | None = None
    phase: Literal["deal", "play", "over"] | None = None
    wall: Annotated[int, Field(ge=0, le=200)] | None = None
    turn: Seat | None = None
    turn_wind: Wind | None = None
    dealer: Seat | None = None
    prevailing_wind: Wind | None = None
    names: Names | None = None
    totals: BySeat | None = None
    final: BySeat | None = None
    hands: Count | None = None
    board: dict[Seats, OpenSeat] | None = None
    discard: LiveDiscard | None = None
    url: Annotated[str, Field(pattern=r"^https?://[^\s\"'<>]{1,200}$")] | None = None


class Online(Signed):
    table: TableId
    online: bool
    at: Time


class Round(FromClub):
    """The club's tournament round; ``round`` null: no round (a new tournament)."""

    round: Annotated[int, Field(ge=1, le=20)] | None
    started: Time | None = None
    ends_at: Time | None = None
    seating: Annotated[dict[TableId, Annotated[list[Name], Field(max_length=4)]],
                       Field(max_length=100)] = {}
    tournament: Short | None = None


class Roster(FromClub):
    players: Annotated[list[PersonName], Field(max_length=500)]


class Resend(FromClub):
    table: TableId
    after: Position


_FACT: TypeAdapter[Any] = TypeAdapter(FactModel)
_MODELS: dict[str, type[Strict]] = {"status": Status, "online": Online, "round": Round,
                                    "roster": Roster, "resend": Resend}


def _reason(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "the message"
    return f"{where}: {err['msg']}"[:160]


def check(what: str, message: dict[str, Any]) -> dict[str, Any]:
    """The message, unchanged, when it meets the schema of ``what`` ("fact", "status",
    "online", "round", "roster", "resend"); else BadMessage."""
    try:
        if what == "fact":
            _FACT.validate_python(message)
        else:
            _MODELS[what].model_validate(message)
    except ValidationError as exc:
        raise BadMessage(_reason(exc)) from None
    if what == "fact" and message["prev"] >= message["pos"]:
        raise BadMessage(f"prev {message['prev']} is not before pos {message['pos']}")
    if what == "round" and message.get("round") is not None and not (
            isinstance(message.get("started"), float | int)
            and isinstance(message.get("ends_at"), float | int)
            and message["ends_at"] >= message["started"]):
        raise BadMessage("a round needs started and an ends_at not before it")
    return message
