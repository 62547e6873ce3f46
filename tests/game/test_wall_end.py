"""The end of the live wall: a replacement that becomes due when no tile is left to draw (the
last live tile a bonus tile, a kong on the last tile) ends the hand as a washout at once."""

from __future__ import annotations

from controller.game import GameState, apply, public_view, replay
from controller.players.director import run_session
from controller.tiles import is_bonus
from tests.game.logbuilder import Log
from tests.game.scenarios import JUNK

#: JUNK with three 6c for south (position 2), who draws the last live tile.
KONG_JUNK = {**JUNK, 2: "6c6c6c 2c3c4c 2d3d4d 5d6d7d 9d"}

#: JUNK with three 6c for west (position 3), who may claim the last discard.
CLAIM_JUNK = {**JUNK, 2: "2c3c4c 5c7c7c 2d3d4d 5d6d7d 9d", 3: KONG_JUNK[2]}


def down_to_last_tile(log: Log, drawable: int) -> Log:
    """Draw and discard until one live tile is left; position 2 draws it (69 or 77 draws)."""
    log.discard(1, "rd")
    seat = 2
    for _ in range(drawable - 53 - 1):
        log.draw_discard(seat)
        seat = seat % 4 + 1
    assert seat == 2
    return log


def fold(log: Log) -> GameState:
    state, outcomes = replay(log.events)
    refused = [o.violation for o in outcomes if not o.accepted]
    assert refused == [], refused
    return state


def assert_washout(state: GameState) -> None:
    assert state.hand is not None and state.hand.phase == "over"
    assert [(h.result, h.winner, h.net) for h in state.hands] == [("washout", None, (0,) * 4)]
    assert state.dealer == 1  # a washout keeps the dealer
    view = public_view(state)
    assert view["hand"]["result"]["result"] == "washout"
    assert view["hand"]["live_wall"] == 0


def test_last_live_tile_a_bonus_tile_laid_from_the_rack() -> None:
    log = down_to_last_tile(Log("dmjl").reserve("1f").deal(JUNK), 130)
    log.draw(2, "1f")
    before = fold(log)
    assert before.hand is not None and before.hand.live_wall == 0
    assert before.hand.phase == "play"  # drawing the bonus tile alone ends nothing
    out = apply(before, {"move": {"tile": "1f", "from": "rack:2", "to": "melds:2"}})
    assert out.accepted
    assert any("washout" in note for note in out.announcements)
    assert_washout(out.state)
    assert out.state.hand is not None
    assert out.state.hand.result.details["2"]["bonus"] == ["1f"]  # type: ignore[union-attr]


def test_last_live_tile_a_bonus_tile_laid_straight_from_the_wall() -> None:
    log = down_to_last_tile(Log("dmjl").reserve("2s").deal(JUNK), 130)
    log.move("2s", "wall", "melds:2")
    assert_washout(fold(log))


def test_a_bonus_tile_before_the_last_is_replaced_as_usual() -> None:
    log = down_to_last_tile(Log("dmjl").reserve("1f").deal(JUNK), 130)
    log.events.pop()  # position 1's discard: position 1 has drawn the second-last live tile
    log.events.pop()
    log.draw(1, "1f")
    log.move("1f", "rack:1", "melds:1")
    state = fold(log)
    assert state.hand is not None and state.hand.phase == "play"
    assert state.hand.step == "replacement" and state.hand.live_wall == 1
    tile = log.spare()
    assert apply(state, {"move": {"tile": tile, "from": "wall", "to": "rack:1"}}).accepted


def test_concealed_kong_on_the_last_live_tile() -> None:
    log = down_to_last_tile(Log().reserve("6c").deal(KONG_JUNK), 122)
    log.draw(2, "6c")
    for _ in range(3):
        log.move("6c", "rack:2", "melds:2")
    state = fold(log)
    assert state.hand is not None and state.hand.phase == "play"  # three wait for the fourth
    out = apply(state, {"move": {"tile": "6c", "from": "rack:2", "to": "melds:2"}})
    assert out.accepted
    assert_washout(out.state)
    assert out.state.hand is not None
    kongs = out.state.hand.result.details["2"]["melds"]  # type: ignore[union-attr]
    assert [m["kind"] for m in kongs] == ["kong"]


def test_claimed_kong_on_the_last_discard() -> None:
    log = down_to_last_tile(Log().reserve("6c").deal(CLAIM_JUNK), 122)
    log.draw(2, "6c")
    log.discard(2, "6c").claim(3, "6c", "6c6c")
    state = fold(log)
    assert state.hand is not None and len(state.hand.seat(3).melds) == 1  # a pung so far
    out = apply(state, {"move": {"tile": "6c", "from": "rack:3", "to": "melds:3"}})
    assert out.accepted
    assert_washout(out.state)


def test_the_next_hand_deals_after_such_a_washout() -> None:
    log = down_to_last_tile(Log("dmjl").reserve("1f").deal(JUNK), 130)
    log.draw(2, "1f")
    log.move("1f", "rack:2", "melds:2")
    state = fold(log)
    out = apply(state, {"move": {"tile": "5b", "from": "wall", "to": "rack:1"}})
    assert out.accepted and out.state.hand is not None and out.state.hand.number == 2


def test_bots_play_through_a_bonus_tile_as_the_last_live_tile() -> None:
    """Seed 26's sixth swedish hand ends on a bonus tile drawn as the last live tile: the
    director asks for no correction; laying the tile ends the hand."""
    events, state = run_session("swedish", hands=6, seed=26)
    assert not any("correct" in e for e in events)
    assert state.hand is not None and state.hand.number == 6
    assert state.hands[-1].result == "washout" and state.hand.live_wall == 0
    last = [e for e in events if e.get("move", {}).get("to") != "wall"][-1]["move"]
    assert is_bonus(last["tile"]) and last["to"].startswith("melds:")
