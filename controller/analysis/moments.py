"""The moments a review looks at: each discard of a stored session, replayed through the game
engine itself (``controller.game.apply``), with the state before and after it.

A hand is numbered as ``mahjong-table replay --db`` lists the session's hands (FORMATS.md): the
1-based index among the hands that stand at the end of the log. Discards that a correction took
back (``undo``) are dropped with the states they made, so a hand's moments are the discards of
the game as it finally stood.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from controller.game import GameState, apply, new_game


@dataclass(frozen=True)
class Moment:
    """A seat's discard: ``seq`` is the stored event's number; ``before`` the state the seat
    discarded from (its 14 tiles), ``after`` the state with the tile on the pad."""

    seq: int
    hand: int
    seat: int
    tile: str
    before: GameState
    after: GameState
    depth: int


@dataclass(frozen=True)
class Replayed:
    """A whole session replayed: its moments in order, the final state and the hand count."""

    moments: tuple[Moment, ...]
    state: GameState
    hands: int

    @property
    def live(self) -> int | None:
        """The number (as ``replay`` lists the hands) of the hand still being played, if any."""
        return self.hands if _under_way(self.state) else None


def _discard(event: dict[str, Any]) -> tuple[int, str] | None:
    """(seat, tile) when the event moves a tile from a rack to the discard pad."""
    move = event.get("move")
    if not isinstance(move, dict) or move.get("to") != "discard":
        return None
    kind, _, pos = str(move.get("from", "")).partition(":")
    if kind != "rack" or pos not in ("1", "2", "3", "4"):
        return None
    return int(pos), str(move.get("tile"))


def _is_discard(before: GameState, after: GameState, seat: int, tile: str) -> bool:
    """The engine took the move as the seat's discard (not a put-back or a misplaced tile)."""
    hand, was = after.hand, before.hand
    return (hand is not None and was is not None and hand.discard == (tile, seat)
            and was.seat(seat).size() == 14 and after.depth == before.depth + 1)


class Moments:
    """The discards that still stand, kept as a fold of the session goes: each applied event is
    told with the states before and after it (``replay_session`` here, the review's own fold
    in ``controller.sessions.review``), so a session is folded once for both."""

    def __init__(self) -> None:
        self.kept: list[Moment] = []

    def step(self, seq: int, event: dict[str, Any], before: GameState, after: GameState,
             accepted: bool) -> None:
        if after.depth < before.depth:  # an undo: the discards it took back go too
            self.kept = [m for m in self.kept if m.depth <= after.depth]
        found = _discard(event) if accepted else None
        if found is not None and _is_discard(before, after, *found):
            seat, tile = found
            self.kept.append(
                Moment(seq, len(before.hands) + 1, seat, tile, before, after, after.depth))

    def replayed(self, state: GameState) -> Replayed:
        """The moments so far, with the state the fold has reached."""
        return Replayed(tuple(self.kept), state, _hand_count(state))


def replay_session(records: Iterable[tuple[int, dict[str, Any]]]) -> Replayed:
    """Fold ``(seq, event)`` records (a session's table log, its ``session`` line first) and
    keep every discard that still stands at the end."""
    state = new_game()
    moments = Moments()
    for seq, event in records:
        outcome = apply(state, event, None, line=seq)
        moments.step(seq, event, state, outcome.state, outcome.accepted)
        state = outcome.state
    return moments.replayed(state)


def _hand_count(state: GameState) -> int:
    """Hands as ``replay`` lists them: the finished ones and one still under way."""
    return len(state.hands) + _under_way(state)


def _under_way(state: GameState) -> bool:
    return state.hand is not None and state.hand.phase != "over"
