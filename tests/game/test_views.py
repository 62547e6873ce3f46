"""The views: a seat's view built on a public view the caller already has, and the director
building one public view per step, and every tile listed once (a discard on a claimant's strip)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.game import GameState, apply, new_game, public_view, replay, seat_view
from controller.game import views as views_module
from controller.players import director as director_module
from controller.scoring import waits
from controller.tiles import Meld, sort_tiles
from tests.game.logbuilder import Log
from tests.game.randomgame import random_session
from tests.game.scenarios import JUNK, SCENARIOS

#: West (position 3) holds a pair of 5b.
PAIR_JUNK = {**JUNK, 3: "5b 5b 8b 8c 8d ew sw ww nw rd gd wd wd"}


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


def _tiles_shown(state: GameState) -> int:
    """Tiles the views list on the table: racks (seat views), strips, rivers and the pad."""
    view = public_view(state)
    hand = view["hand"]
    count = 1 if hand["discard"] else 0
    for p in (1, 2, 3, 4):
        seat = hand["seats"][str(p)]
        count += len(seat_view(state, p, table=view)["hand"])
        count += sum(len(m["tiles"]) for m in seat["melds"])
        count += len(seat["forming"]) + len(seat["bonus"]) + len(seat["river"])
    return count


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_every_tile_off_the_wall_is_listed_once(seed: int) -> None:
    state = new_game()
    for event in random_session(seed, 1, "dmjl"):
        state = apply(state, event).state
        if state.hand is not None and state.hand.phase != "over":
            assert _tiles_shown(state) == sum(state.hand.out), event


def test_a_discard_on_the_claimants_strip_is_listed_there_only() -> None:
    log = Log().deal(PAIR_JUNK)
    log.discard(1, "rd")
    log.draw(2, "5b")
    log.discard(2, "5b")
    log.move("5b", "discard", "melds:3")
    state = replay(log.events)[0]
    hand = public_view(state)["hand"]
    assert hand["discard"] is None and hand["claim_window"] is True
    assert hand["seats"]["3"]["forming"] == ["5b"]
    assert hand["claim"] == {"seat": 3, "discard": {"tile": "5b", "seat": 2}, "on_strip": True}
    state = apply(state, {"move": {"tile": "5b", "from": "melds:3", "to": "discard"}}).state
    hand = public_view(state)["hand"]  # taken back to the pad: no claim is left
    assert hand["discard"] == {"tile": "5b", "seat": 2} and hand["claim"] is None
    assert hand["seats"]["3"]["forming"] == []


def test_a_claim_with_rack_tiles_first_shows_the_discard_on_the_pad() -> None:
    log = Log().deal(PAIR_JUNK)
    log.discard(1, "rd")
    log.draw(2, "5b")
    log.discard(2, "5b")
    log.move("5b", "rack:3", "melds:3")
    hand = public_view(replay(log.events)[0])["hand"]
    assert hand["discard"] == {"tile": "5b", "seat": 2}
    assert hand["claim"] == {"seat": 3, "discard": {"tile": "5b", "seat": 2}, "on_strip": False}
    log.move("5b", "discard", "melds:3")
    hand = public_view(replay(log.events)[0])["hand"]
    assert hand["discard"] is None and hand["claim"]["on_strip"] is True
    assert hand["seats"]["3"]["forming"] == ["5b", "5b"]
    log.move("5b", "rack:3", "melds:3")
    hand = public_view(replay(log.events)[0])["hand"]
    assert hand["claim"] is None and hand["discard"] is None
    assert [m["tiles"] for m in hand["seats"]["3"]["melds"]] == [["5b", "5b", "5b"]]


def test_the_web_model_passes_the_claim_and_the_win_facts_on() -> None:
    """/api/table and /ws send the public view through PublicView (unknown fields dropped)."""
    from controller.web.models import PublicView

    log = Log().deal(PAIR_JUNK)
    log.discard(1, "rd")
    log.draw(2, "5b")
    log.discard(2, "5b")
    log.move("5b", "discard", "melds:3")
    view = public_view(replay(log.events)[0])
    sent = PublicView.model_validate(view).model_dump(mode="json")
    assert sent["hand"]["claim"] == view["hand"]["claim"] is not None
    over = public_view(replay(SCENARIOS["kongs_and_robbing"]().log.events)[0])
    sent = PublicView.model_validate(over).model_dump(mode="json")
    assert sent["hand"]["result"]["win_source"] == "robbed_kong"
    assert sent["hands"][0]["discarder"] == 4
