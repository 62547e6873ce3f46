"""A claim laid out on the meld strip after the claim window is noted as late, as a called one
is (docs/game.md "Timers"; a product bug found in issue 29's game-play-calls session: the note
of a claim by tiles was computed and dropped)."""

from __future__ import annotations

from typing import Any

from controller.game import apply, due_timer_events, new_game
from tests.game.logbuilder import Log
from tests.game.test_calls_edges import CLAIM, _hand


def _move(tile: str, src: str, dst: str) -> dict[str, Any]:
    return {"move": {"tile": tile, "from": src, "to": dst}}


def test_a_claim_laid_out_after_the_claim_window_is_noted_as_late() -> None:
    """docs/game.md "Timers": the claim window closes 3 s after a discard, and "a claim or a
    Mahjong call after the claim deadline is noted"; FORMATS.md: a claim needs no
    declaration, the tiles moving to the meld strip are the claim. East discards its 9d at
    10.0 s (deadline 13.0 s); west lays the 9d on its strip at 14.25 s: a claim overrun of
    1.25 s, due once, also after the pung is complete (west's own 9d at 14.5 and 14.75 s).
    A claim laid at 12.5 s, inside the window, is not noted."""
    log = Log(table={"timers": True})
    log.deal(CLAIM)
    state = new_game()
    for event in log.events:
        state = apply(state, event, at=1.0).state
    state = apply(state, _move("9d", "rack:1", "discard"), at=10.0).state
    late = {"timer": {"seat": 3, "kind": "claim", "overrun": 1.25, "deadline": 13.0}}
    laid = apply(state, _move("9d", "discard", "melds:3"), at=14.25)
    assert laid.accepted
    assert due_timer_events(laid.state, 14.3) == [late]
    done = laid.state
    for at in (14.5, 14.75):
        out = apply(done, _move("9d", "rack:3", "melds:3"), at=at)
        assert out.accepted
        done = out.state
    assert len(_hand(done)["seats"]["3"]["melds"]) == 1
    assert due_timer_events(done, 15.0) == [late]
    noted = apply(done, late, at=15.0).state
    assert due_timer_events(noted, 15.5) == []
    in_time = apply(state, _move("9d", "discard", "melds:3"), at=12.5).state
    assert due_timer_events(in_time, 12.75) == []
