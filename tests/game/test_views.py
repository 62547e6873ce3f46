"""The views: a seat's view built on a public view the caller already has, and the director
building one public view per step."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.game import director as director_module
from controller.game import public_view, replay, seat_view
from controller.game import views as views_module
from controller.scoring import waits
from controller.tiles import Meld, sort_tiles
from tests.game.randomgame import random_session


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10_000), cut=st.floats(0.05, 1.0))
def test_seat_view_with_a_given_table_is_the_same_view(seed: int, cut: float) -> None:
    events = random_session(seed, 1, "dmjl")
    state, _ = replay(events[: max(2, int(len(events) * cut))])
    table = public_view(state, 5.0)
    for p in (1, 2, 3, 4):
        shared = seat_view(state, p, 5.0, table=table)
        assert shared == seat_view(state, p, 5.0)
        assert shared["table"] is table  # reused, not rebuilt


def test_the_director_builds_one_public_view_per_step(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = views_module.public_view

    def counting(state: Any, now: float | None = None) -> dict[str, Any]:
        calls.append(state.seq)
        return real(state, now)

    monkeypatch.setattr(views_module, "public_view", counting)
    monkeypatch.setattr(director_module, "public_view", counting)
    events, _ = director_module.run_session("swedish", hands=1, seed=5)
    # at most one per event asked for (queued events need none), never one per seat view
    assert 0 < len(calls) <= len(events) + 1
    assert len(calls) == len(set(calls))  # never twice for the same state


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10_000), cut=st.floats(0.05, 1.0))
def test_seat_view_waits_are_the_scorers_waits(seed: int, cut: float) -> None:
    """The waits cache never answers for other tiles or another rule set."""
    for ruleset in ("hua-bao", "swedish"):
        events = random_session(seed, 1, ruleset)
        state, _ = replay(events[: max(2, int(len(events) * cut))])
        hand = state.hand
        assert hand is not None
        for seat in hand.seats:
            expected: list[str] = []
            if seat.size() == 13 and hand.phase != "over":
                melds = [Meld(m.tiles, m.concealed) for m in seat.melds]
                tiles = seat.concealed() + list(seat.forming)
                expected = sort_tiles(waits(tiles, melds, state.ruleset))
            assert seat_view(state, seat.position)["waits"] == expected
