"""What an event handler needs besides the hand: the session, the event time, its announcements,
and the Refused exception that turns a broken rule into a violation."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from controller.game.state import GameState, Hand, Violation
from controller.tiles import copies_allowed, is_bonus


class Refused(Exception):
    """The event breaks a rule: it changes nothing in the game."""

    def __init__(self, rule: str, seat: int | None, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.seat = seat
        self.message = message


@dataclass(slots=True)
class Ctx:
    """Per-event context: the state before the event, its time and what it announces."""

    state: GameState
    at: float | None = None
    notes: list[str] = field(default_factory=list)
    #: a rule broken by an event that is still accepted (wrong_tile_count with dead_hand)
    flagged: list[Violation] = field(default_factory=list)
    #: tiles the game moved back while they still lie elsewhere: (tile, physical zone, game zone)
    misplaced: list[tuple[str, str, str]] = field(default_factory=list)
    #: the misplaced list after a move's own put-back bookkeeping, and the zone it starts from
    base_misplaced: list[tuple[str, str, str]] = field(default_factory=list)
    resolved_src: str | None = None

    @property
    def ruleset(self) -> Any:
        return self.state.ruleset

    @property
    def bonus_tiles(self) -> bool:
        rs = self.state.ruleset
        if rs is not None:
            return bool(rs.bonus_tiles)
        return bool(self.state.options.get("bonus_tiles", False))

    def option(self, name: str, default: Any) -> Any:
        """A rule-set option as the session resolved it: the session line keeps the rule set's
        options, its defaults filled in, as ``state.options`` (engine.py), which is what the
        rule set's own attributes read too."""
        return self.state.options.get(name, default)


def name(hand: Hand, position: int) -> str:
    """A seat as players say it: its wind this hand, capitalised (``West``)."""
    return hand.wind_of(position).capitalize()


def copies_in_set(tile: str, bonus_tiles: bool) -> int:
    if is_bonus(tile) and not bonus_tiles:
        return 0
    return copies_allowed(tile)
