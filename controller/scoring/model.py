"""What goes into and comes out of the scorer: HandInput, ScoreItem, ScoreResult, Settlement.

HandInput mirrors the ``score`` JSON of FORMATS.md; ScoreResult.to_json() gives its output.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeVar

from controller.tiles import Meld, Tile

if TYPE_CHECKING:
    from controller.scoring.rules import RuleSet

K = TypeVar("K")

WIN_SOURCES = ("wall", "discard", "replacement", "robbed_kong", "dealt")
FLAGS = ("original_call", "twofold_fortune")


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


@dataclass(slots=True)
class ScoreResult:
    """A scored hand: base points X, doublings Y, score min(limit, X * 2^Y) or a limit hand."""

    points: int
    doubles: int
    limit_hand: str | None
    score: int
    items: list[ScoreItem] = field(default_factory=list)
    arrangement: list[list[Tile]] = field(default_factory=list)
    #: doublings that count for swedish's minimum-doubling rule: every doubling except the bonus
    #: ones; a limit item that is not a bonus item counts as one.
    combination_doubles: int = 0
    #: the rule-set special hand the arrangement is (``seven_pairs``, ``thirteen_orphans``) or None
    special: str | None = None
    #: concealed tiles no set or pair took (non-winners only)
    leftover: list[Tile] = field(default_factory=list)

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
