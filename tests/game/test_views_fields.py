"""The views field by field (issue 29: game-views' surviving mutants): every field of the public
view, a seat's view, the ``replay`` summary and the table's zones, with the expected values
written from the log (which tile went where, at what time) and from the rule book (RULES.md:
14 tiles in the dead wall, hua bao's payments with east paying double; the call timers of rules
003 at docs/service.md's defaults, 3 s to claim and 10 s a turn), never read back from the code.
"""

from __future__ import annotations

from typing import Any

import pytest

from controller.game import GameState, apply, new_game, public_view, replay, seat_view
from controller.game.views import replay_summary, table_zones
from tests.game.logbuilder import Log
from tests.game.scenarios import JUNK, example_a

#: every option of hua bao given in the log, so the view's options are the log's
OPTIONS = {"limit": 500, "bonus_tiles": False, "wrong_count": "repair",
           "mahjong_tie": "turn_order", "limit_hands": {}, "mahjong_bonus": 10}
#: West holds a pair of 9d, which east discards
WEST_9D = "9d 9d 8b 8c 8d ew sw ww nw rd gd wd wd"
NOBODY = {"1": None, "2": None, "3": None, "4": None}
ZEROS = {"1": 0, "2": 0, "3": 0, "4": 0}
#: hua bao without bonus tiles: 136 tiles, 14 of them the dead wall (RULES.md section 2)
LIVE = 136 - 14


def timed(log: Log, at: float) -> GameState:
    state = new_game()
    for event in log.events:
        state = apply(state, event, at=at).state
    return state


def seat(position: int, wind: str, tiles: int, river: list[str] | None = None) -> dict[str, Any]:
    return {"position": position, "wind": wind, "concealed_count": tiles, "rack_count": tiles,
            "melds": [], "forming": [], "bonus": [], "river": river or [], "ready": False,
            "dead": False, "replacements_due": 0}


def claim_window() -> tuple[Log, GameState]:
    """Dealt at t=100, east discards 9d at t=200 and west calls a claim at t=201."""
    log = Log("hua-bao", OPTIONS, table={"timers": True})
    log.deal({**JUNK, 3: WEST_9D})
    state = timed(log, 100.0)
    state = apply(state, {"move": {"tile": "9d", "from": "rack:1", "to": "discard"}},
                  at=200.0).state
    state = apply(state, {"declare": {"seat": 3, "call": "claim"}}, at=201.0).state
    return log, state


def test_the_public_view_in_a_claim_window_field_by_field() -> None:
    log, state = claim_window()
    expected_hand = {
        "number": 1, "dealer": 1, "prevailing_wind": "east", "phase": "play",
        "turn": 2, "step": "draw",  # south is next, to draw
        "discard": {"tile": "9d", "seat": 1}, "claim_window": True,
        "claimants": [{"seat": 3, "call": "claim"}], "claim": None,
        "live_wall": LIVE - 53, "dead_wall": 14,
        "seats": {"1": seat(1, "east", 13), "2": seat(2, "south", 13),
                  "3": seat(3, "west", 13), "4": seat(4, "north", 13)},
        # the claim window closes 3 s after the discard, south's turn 10 s after it
        "timers": {"claim_deadline": 203.0, "turn_deadline": 210.0,
                   "claim_remaining": 2.75, "turn_remaining": 9.75},
        "last_violation": None, "out_of_place": [], "result": None,
    }
    assert public_view(state, 200.25) == {
        "seq": len(log.events) + 2,
        "session": {"ruleset": "hua-bao", "options": OPTIONS, "active": True, "dealer": 1,
                    "prevailing_wind": "east", "game_over": False, "timers": True},
        "hand": expected_hand, "hands": [], "totals": ZEROS, "names": NOBODY,
        "penalties": [], "deductions": ZEROS,
    }
    timers = public_view(state, 200.0004)["hand"]["timers"]  # rounded to the millisecond
    assert (timers["claim_remaining"], timers["turn_remaining"]) == (3.0, 10.0)
    assert public_view(state)["hand"]["timers"] == {"claim_deadline": 203.0,
                                                    "turn_deadline": 210.0}


def test_a_seats_own_view_and_the_view_before_a_hand() -> None:
    _, state = claim_window()
    table = public_view(state)
    assert seat_view(state, 3, table=table) == {
        "position": 3, "wind": "west",
        "hand": ["8b", "8c", "8d", "9d", "9d", "ew", "sw", "ww", "nw", "rd", "gd", "wd", "wd"],
        "melds": [], "bonus": [], "waits": [], "ready": False, "table": table}
    south = seat_view(state, 2, table=table)  # 2c-7c, 2d-7d and 9d: waiting on the 9d
    assert (south["wind"], south["waits"]) == ("south", ["9d"])
    before = replay(Log().events)[0]  # a session and no hand yet
    assert seat_view(before, 3, table={}) == {
        "position": 3, "wind": None, "hand": [], "melds": [], "bonus": [], "waits": [],
        "ready": False, "table": {}}
    assert table_zones(before) == {}


def test_waits_are_asked_only_of_thirteen_tiles_in_play() -> None:
    """South (2c-7c, 2d-7d, 9d) waits on the 9d; with a fourteenth tile drawn it has no waits
    to show, and once the hand is over (north wins first) neither has anyone."""
    log = Log().deal({**JUNK, 4: "1b2b3b 4b5b6b 7b8b9b 1c2c3c 5d"})
    log.discard(1, "ew")
    state = replay(log.events)[0]
    assert seat_view(state, 2)["waits"] == ["9d"] and seat_view(state, 4)["waits"] == ["5d"]
    log.draw(2, "8d")
    assert seat_view(replay(log.events)[0], 2)["waits"] == []  # 14 tiles
    log.discard(2, "8d").draw(3, "5d")
    log.declare(3, "mahjong")  # west has no Mahjong: refused, play goes on
    log.discard(3, "5d").declare(4, "mahjong").move("5d", "discard", "rack:4")
    over = replay(log.events)[0]
    assert over.hand is not None and over.hand.phase == "over"
    assert [seat_view(over, p)["waits"] for p in (1, 2, 3, 4)] == [[], [], [], []]
    assert public_view(over)["hand"]["turn"] is None


def test_a_finished_hand_shows_its_result_and_hua_baos_payments() -> None:
    """RULES.md worked example A: south wins from the wall with 44, west holds 8 and north 20;
    east, the dealer, pays and is paid double: 88 to south, 16 to west, 40 to north; west pays
    north the difference of 12 (net: -144, 176, -40, 8)."""
    sc = example_a()
    state = replay(sc.log.events)[0]
    hand = public_view(state)["hand"]
    result = hand["result"]
    assert {k: v for k, v in result.items() if k not in ("payments", "details")} == {
        "result": "mahjong", "winner": 2, "win_source": "wall", "discarder": None,
        "scores": {"1": 0, "2": 44, "3": 8, "4": 20},
        "net": {"1": -144, "2": 176, "3": -40, "4": 8}}
    assert sorted((p["from"], p["to"], p["amount"]) for p in result["payments"]) == [
        (1, 2, 88), (1, 3, 16), (1, 4, 40), (3, 2, 44), (3, 4, 12), (4, 2, 44)]
    assert set(result["details"]) == {"1", "2", "3", "4"}
    drawn = sum(1 for e in sc.log.events if "move" in e and e["move"]["from"] == "wall")
    assert (hand["phase"], hand["turn"], hand["live_wall"]) == ("over", None, LIVE - drawn)


def test_the_replay_summary_in_play_and_after_the_hand() -> None:
    sc = example_a()
    winds = {"1": "east", "2": "south", "3": "west", "4": "north"}
    net = {"1": -144, "2": 176, "3": -40, "4": 8}
    drawn = sum(1 for e in sc.log.events if "move" in e and e["move"]["from"] == "wall")
    assert replay_summary(replay(sc.log.events)[0]) == {
        "hands": [{"number": 1, "dealer": 1, "prevailing_wind": "east", "result": "mahjong",
                   "winner": 2, "scores": {"1": 0, "2": 44, "3": 8, "4": 20}, "net": net,
                   "win_source": "wall", "discarder": None, "winds": winds,
                   "names": NOBODY}],
        "totals": net, "violations": [],
        # east did not win: the deal passes to south (RULES.md section 2)
        "state": {"hand_over": True, "turn": None, "live_wall": LIVE - drawn, "step": None,
                  "dealer": 2, "prevailing_wind": "east"},
        "names": NOBODY, "penalties": [], "deductions": ZEROS,
    }
    log = Log().deal(JUNK)
    log.discard(1, "rd").draw(2, "5b")
    assert replay_summary(replay(log.events)[0]) == {
        "hands": [{"number": 1, "dealer": 1, "prevailing_wind": "east", "result": None,
                   "winner": None, "scores": ZEROS, "net": ZEROS, "win_source": None,
                   "discarder": None, "winds": winds, "names": NOBODY}],
        "totals": ZEROS, "violations": [],
        "state": {"hand_over": False, "turn": 2, "live_wall": LIVE - 54, "step": "discard",
                  "dealer": 1, "prevailing_wind": "east"},
        "names": NOBODY, "penalties": [], "deductions": ZEROS,
    }


def test_tiles_out_of_place_are_named_only_where_they_came_from_the_open() -> None:
    """A tile put where it may not go is to be put back; the view names it only when it came
    from the open (the river, the pad) and went to the open: never one from a rack or the
    wall, nor one put into a rack."""
    log = Log().deal(JUNK)
    log.discard(1, "rd").river("rd").draw(2, "5b")  # the rd passed: it lies in the river
    state = replay(log.events)[0]
    cases = [
        ({"tile": "8b", "from": "rack:3", "to": "river"},
         {"tile": None, "zone": "river", "back_to": "rack:3"}),
        ({"tile": "gd", "from": "wall", "to": "river"},
         {"tile": None, "zone": "river", "back_to": "wall"}),
        ({"tile": "rd", "from": "river", "to": "rack:4"},
         {"tile": None, "zone": "rack:4", "back_to": "river"}),
        ({"tile": "rd", "from": "river", "to": "melds:4"},
         {"tile": "rd", "zone": "melds:4", "back_to": "river"}),
    ]
    for move, shown in cases:
        before = state
        outcome = apply(before, {"move": move})
        assert not outcome.accepted, move
        hand = public_view(outcome.state)["hand"]
        assert hand["out_of_place"] == [shown], move
        violation = hand["last_violation"]
        assert violation["rule"] == "tile_out_of_place" and violation["line"] == \
            outcome.state.seq, move


def test_the_table_zones_are_where_the_log_put_each_tile() -> None:
    """What the readers should see after a restart: every rack as dealt, the pad, an empty
    river; the wall is not listed."""
    log = Log().deal(JUNK)
    log.discard(1, "rd")
    zones = table_zones(replay(log.events)[0])
    assert zones == {
        "rack:1": ["1b", "4b", "7b", "1c", "9c", "1d", "4d", "9d", "ew", "sw", "ww", "nw", "gd"],
        "rack:2": ["2c", "3c", "4c", "5c", "6c", "7c", "2d", "3d", "4d", "5d", "6d", "7d", "9d"],
        "rack:3": ["2b", "5b", "8b", "8c", "8d", "ew", "sw", "ww", "nw", "rd", "gd", "wd", "wd"],
        "rack:4": ["2b", "3b", "5b", "6b", "8b", "9b", "1c", "4c", "9c", "1d", "4d", "wd", "wd"],
        "discard": ["rd"], "river": [],
    }


def test_a_violation_in_the_view_keeps_the_name_of_a_tile_lying_open() -> None:
    """docs/game.md: the public view names a tile where it lies in view: the 9d on the pad."""
    _, state = claim_window()
    outcome = apply(state, {"move": {"tile": "9d", "from": "discard", "to": "melds:4"}})
    violation = public_view(outcome.state)["hand"]["last_violation"]
    assert violation["rule"] == "claim_outranked" and violation["seat"] == 4
    assert "the 9d" in violation["message"]


def test_a_bonus_tile_in_a_rack_is_no_concealed_tile_and_a_drawn_turn_no_claim_window() -> None:
    log = Log("dmjl")
    log.deal({1: "1b 4b 7b 1c 9c 1d 4d ew sw ww nw rd gd 9d",
              2: "2c3c4c 5c6c7c 2d3d4d 5d6d7d 1f",
              3: "2b 5b 8b 8c 8d ew sw ww nw rd gd wd",
              4: "2b 3b 5b 6b 8b 9b 1c 4c 9c 1d 4d 8d wd"})
    south = public_view(replay(log.events)[0])["hand"]["seats"]["2"]
    assert (south["concealed_count"], south["rack_count"]) == (12, 13)  # the 1f is no hand tile
    log = Log().deal(JUNK)
    log.discard(1, "rd").draw(2, "5b")  # south drew: its turn to discard, nothing to claim
    assert public_view(replay(log.events)[0])["hand"]["claim_window"] is False


def test_the_replay_summary_carries_the_hanchans_final() -> None:
    """FORMATS.md replay: a riichi game's summary has ``final`` once the hanchan is over, and
    none before (hua bao has none at all)."""
    from controller.game.riichi_end import RiichiTable
    from controller.game.state import evolve

    final = {"points": {"1": 40_000}, "uma": {}, "penalties": {}, "result": {"1": 30.0}}
    over = evolve(new_game(), rt=RiichiTable(final=final))
    assert replay_summary(over)["final"] == final
    assert "final" not in replay_summary(evolve(new_game(), rt=RiichiTable()))
    assert "final" not in replay_summary(new_game())


def test_a_seats_waits_are_worked_out_once_for_the_same_tiles(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """views.py keeps each seat's waits by rule set and tiles (a seat's tiles stay the same for
    most views asked of it): asked again, no new work; another rule set's own; at most
    ``_WAITS_SIZE`` kept."""
    from controller.game import mahjong
    from controller.game import views as views_module

    calls: list[str] = []
    real = mahjong.waits_of

    def counting(ctx: Any, seat: Any) -> Any:
        calls.append(ctx.state.ruleset_name)
        return real(ctx, seat)

    monkeypatch.setattr(mahjong, "waits_of", counting)
    monkeypatch.setattr(views_module, "_WAITS", {})
    states = {}
    for ruleset in ("hua-bao", "dmjl"):
        log = Log(ruleset, {"bonus_tiles": False}).deal(JUNK)
        log.discard(1, "rd")
        states[ruleset] = replay(log.events)[0]
    for ruleset in ("hua-bao", "dmjl", "hua-bao", "dmjl"):
        assert seat_view(states[ruleset], 2)["waits"] == ["9d"]  # 2c-7c 2d-7d 9d
    assert sorted(calls) == ["dmjl", "hua-bao"]
    monkeypatch.setattr(views_module, "_WAITS_SIZE", 2)
    views_module._WAITS.clear()
    for position in (1, 2, 3, 4):
        seat_view(states["hua-bao"], position)
        assert len(views_module._WAITS) <= 2
