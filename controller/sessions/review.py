"""A stored session folded step by step for the review pages (issue 25): every stored event of
the table log replayed through the game engine, the states before and after each kept, and the
events grouped by hand as ``mahjong-table replay --db`` numbers its ``hands`` list (FORMATS.md).

The frames the pages show are the game's own views of these states (controller.web.review);
nothing here is a second game model. The fold reads what ``replay --db`` reads (the table-log
kinds: moves, declarations, corrections, names, penalties), applied the same way.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.analysis import Moments, Replayed
from controller.game import GameState, Violation, apply, new_game, replay_summary
from controller.store import DamagedLog, EventLog, SessionInfo, StoreError
from controller.store.tablelog import TABLE_LOG_KINDS

#: Sessions kept folded (each holds every state of its steps: a few MB for a long evening).
KEPT = 4


@dataclass(frozen=True)
class Step:
    """One stored event of a hand and what the engine made of it."""

    seq: int
    event: dict[str, Any]
    before: GameState
    after: GameState
    accepted: bool
    violation: Violation | None
    announcements: tuple[str, ...]


@dataclass
class SessionReview:
    """A session's fold: its steps by hand number, the state at the end, why it is damaged."""

    info: SessionInfo
    state: GameState
    seq: int = 0
    steps: dict[int, list[Step]] = field(default_factory=dict)
    damaged: str | None = None
    #: the discards that stand, for the discard analysis (controller.analysis): this fold's
    moments: Moments = field(default_factory=Moments)

    def feed(self, seq: int, event: dict[str, Any]) -> None:
        """Apply one stored event (the session line first, as ``replay --db`` does)."""
        self.seq = seq
        kind = next(iter(event), None)
        if kind not in TABLE_LOG_KINDS:
            return
        before = self.state
        outcome = apply(before, event)
        after = self.state = outcome.state
        self.moments.step(seq, event, before, after, outcome.accepted)
        hand = after.hand
        if hand is None or _clearing(before, event, outcome.accepted):
            return
        self.steps.setdefault(hand.number, []).append(Step(
            seq, event, before, after, outcome.accepted, outcome.violation,
            tuple(outcome.announcements)))

    def hands(self) -> list[dict[str, Any]]:
        """``replay``'s hands list (FORMATS.md): the finished hands, then one under way."""
        hands: list[dict[str, Any]] = replay_summary(self.state)["hands"]
        return hands

    def hand_steps(self, index: int) -> list[Step] | None:
        """The steps of the hand at 1-based ``index`` of :meth:`hands`, or None."""
        hands = self.hands()
        if not 1 <= index <= len(hands):
            return None
        return self.steps.get(int(hands[index - 1]["number"]), [])

    def replayed(self) -> Replayed:
        """The session's discards as the analysis reads them (``analysis.replay_session``'s
        answer, from this fold: nothing is replayed again)."""
        return self.moments.replayed(self.state)

    @property
    def ended(self) -> bool:
        """The session is over: ended at the table, or the game's own end (a hanchan)."""
        return self.info.ended_at is not None or bool(self.state.game_over)


def _clearing(before: GameState, event: dict[str, Any], accepted: bool) -> bool:
    """A tile going back to the wall after the hand ended: the table being cleared, which
    changes nothing (FORMATS.md); left out of the steps so the slider is the hand itself."""
    move = event.get("move")
    hand = before.hand
    return (accepted and isinstance(move, dict) and move.get("to") == "wall"
            and hand is not None and hand.phase == "over")


class Reviews:
    """The folds of a table's stored sessions, brought up to date as the log grows."""

    def __init__(self, db_path: Path) -> None:
        self.db_path = Path(db_path)
        self._folds: OrderedDict[int, SessionReview] = OrderedDict()
        self._lock = threading.Lock()

    def session(self, session_id: int) -> SessionReview | None:
        """The session's fold with every event stored so far; None when there is no such
        session. A damaged session keeps what could be read, with ``damaged`` saying why."""
        if not self.db_path.exists():
            return None
        with self._lock, EventLog.open(self.db_path, readonly=True) as log:
            info = next((s for s in log.sessions() if s.id == session_id), None)
            if info is None:
                return None
            fold = self._folds.get(session_id)
            if fold is None:
                fold = self._folds[session_id] = _start(info)
                while len(self._folds) > KEPT:
                    self._folds.popitem(last=False)
            self._folds.move_to_end(session_id)
            fold.info = info
            if fold.damaged is None:
                _read_on(log, fold)
            return fold

    def sessions(self) -> list[SessionInfo]:
        if not self.db_path.exists():
            return []
        try:
            with EventLog.open(self.db_path, readonly=True) as log:
                return log.sessions()
        except StoreError:
            return []


def _start(info: SessionInfo) -> SessionReview:
    fold = SessionReview(info, new_game())
    if info.damaged:
        fold.damaged = f"its start cannot be read ({info.damaged})"
        return fold
    fold.state = apply(fold.state, {"session": {"ruleset": info.ruleset,
                                                "options": info.options}}).state
    return fold


def _read_on(log: EventLog, fold: SessionReview) -> None:
    try:
        for record in log.records(fold.info.id, after=fold.seq):
            fold.feed(record.seq, record.event)
    except DamagedLog as exc:
        fold.damaged = exc.public
