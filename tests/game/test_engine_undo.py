"""The undo's bookkeeping in the fold (engine.py; issue 29: game-play-engine's survivors), each
expectation from docs/game.md "Refused moves, put-backs, undo" and FORMATS.md "undo N": what an
undo takes back (every accepted event that changed the game, corrections such as a reassign and
the operator's washout included, never an undo), which tiles it leaves out of place and how
identical tiles are paired, what it keeps (the timers reported), and its refusal's words."""

from __future__ import annotations

from collections import Counter
from typing import Any

from controller.game import GameState, apply, due_timer_events, lying, replay
from tests.game.logbuilder import Log
from tests.game.scenarios import JUNK, SCENARIOS
from tests.game.test_engine_events import _timed
from tests.game.test_riichi_rules import _log as riichi_log
from tests.game.test_riichi_rules import _riichi_then_ron

UNDO = {"correct": {"undo": 1}}


def _last(events: list[dict[str, Any]]) -> tuple[GameState, Any]:
    state, outcomes = replay(events)
    return state, outcomes[-1]


def test_no_event_can_be_taken_back_right_after_the_session() -> None:
    state, out = _last([{"session": {"ruleset": "hua-bao", "options": {}}}, UNDO])
    v = out.violation
    assert not out.accepted and (v.rule, v.seat, v.message) == (
        "undo_too_far", None,
        "only 0 events can be taken back: an undo never takes back the start of the session")
    assert state.ruleset_name == "hua-bao"


def test_a_reassign_is_a_step_an_undo_takes_back() -> None:
    """A reassign changes the game (FORMATS.md: undo takes back accepted events that changed
    the game): undo 1 after it gives South's 2c back, not East's discard. The tiles lie as
    the reassign had them (docs/game.md: tiles that now lie elsewhere than the game has them
    are out of place): a 3c in South's rack, which the game has in the wall, and the other way
    round for the 2c."""
    log = Log()
    log.deal(JUNK)
    log.discard(1, "rd").river("rd")
    before, _ = replay(log.events)
    log.raw({"correct": {"reassign": {"zone": "rack:2", "tile": "2c", "as": "3c"}}})
    fixed, out = _last(log.events)
    assert out.accepted and fixed.hand.seat(2).rack.count("3c") == 2
    assert fixed.depth == before.depth + 1
    undone, out = _last([*log.events, UNDO])
    assert out.accepted and undone.hand == before.hand
    assert sorted(undone.misplaced) == [("2c", "wall", "rack:2"), ("3c", "rack:2", "wall")]


def test_an_undo_keeps_the_timers_reported() -> None:
    """A turn overrun is reported once (docs/game.md, timers): taking back a step made before
    it does not make it due again."""
    state = _timed()  # East's rd discarded at t = 200: South's turn runs to 210
    state = apply(state, {"move": {"tile": "rd", "from": "discard", "to": "river"}},
                  at=201.0).state
    state = apply(state, {"timer": {"seat": 2, "kind": "turn", "overrun": 1.0}}, at=211.0).state
    undone = apply(state, UNDO, at=212.0)  # the rd back on the pad; the overrun stays noted
    assert undone.accepted and undone.state.timers_noted == (("turn", 2, 210.0),)
    assert due_timer_events(undone.state, 214.0) == []


def test_a_bonus_tile_drawn_and_taken_back_is_out_of_place() -> None:
    """Swedish plays with the flowers and seasons: South's 1f drawn, then the draw taken back,
    lies in South's rack while the game has it in the wall."""
    log = Log("swedish")
    log.deal(JUNK)
    log.discard(1, "rd").river("rd")
    log.draw(2, "1f")
    state, out = _last([*log.events, UNDO])
    assert out.accepted and state.misplaced == (("1f", "rack:2", "wall"),)
    # the same back to before the first hand (no hand in the game: every tile in the wall)
    events = [{"session": {"ruleset": "swedish", "options": {}}},
              {"move": {"tile": "1f", "from": "wall", "to": "rack:1"}}, UNDO]
    state, out = _last(events)
    assert out.accepted and state.hand is None
    assert state.misplaced == (("1f", "rack:1", "wall"),)


def test_an_undone_draw_goes_back_where_it_came_from_and_a_note_stays_its_own() -> None:
    """West's 8c lies on the pad, refused (it is South's turn); South draws another 8c, and
    the draw is taken back. Two 8c lie out of place: West's keeps its note (home: West's
    rack), the drawn one goes back to the wall (docs/game.md: identical tiles are paired so
    that a tile keeps the note it had and an undone move's tile goes back where that move
    took it from)."""
    log = Log()
    log.deal(JUNK)
    log.discard(1, "rd").river("rd")
    log.move("8c", "rack:3", "discard")  # refused: not West's turn
    log.draw(2, "8c")
    state, out = _last([*log.events, UNDO])
    assert out.accepted
    assert sorted(state.misplaced) == [("8c", "discard", "rack:3"), ("8c", "rack:2", "wall")]


def test_an_undo_into_a_finished_hand_counts_each_cleared_tile_once() -> None:
    """East holds one 1b when the operator ends the hand; it is cleared to the wall, hand 2
    begins with East's 2b, and that draw is taken back: the finished hand again, its table
    cleared with the 1b moved once, and the tiles lying where they are (every tile in the
    wall but hand 2's 2b in East's rack)."""
    log = Log()
    log.deal(JUNK)
    log.discard(1, "rd")
    log.raw({"correct": {"end_hand": "washout"}})
    log.move("1b", "rack:1", "wall")
    log.draw(1, "2b")
    state, out = _last([*log.events, UNDO])
    assert out.accepted and state.hand is not None and state.hand.phase == "over"
    assert state.misplaced == ()
    assert state.cleared.count(("1b", "rack:1", "wall")) == 1
    where = lying(state)
    assert {z: +c for z, c in where.items() if z != "wall" and +c} == {"rack:1": {"2b": 1}}
    assert sum(where["wall"].values()) == 136 - 1  # hua-bao: no bonus tiles


def test_the_washout_of_a_used_up_wall_is_a_step_of_its_own() -> None:
    """The live wall used up and the last discard unclaimed: clearing the table ends the hand
    as a washout (announced), and undo 1 takes back only that: the hand is in play again
    with its last discard on the pad, and the cleared tile lies out of place."""
    events = SCENARIOS["washout"]().log.events[:-1]  # the last discard not pushed to the river
    before, _ = replay(events)
    assert before.hand is not None and before.hand.live_wall == 0
    cleared = [*events, {"move": {"tile": "1b", "from": "rack:1", "to": "wall"}}]
    state, out = _last(cleared)
    assert out.accepted and out.announcements == (
        "The live wall is used up and the last discard went unclaimed: washout",)
    assert state.hands[-1].result == "washout" and state.cleared == (("1b", "rack:1", "wall"),)
    undone, out = _last([*cleared, UNDO])
    assert out.accepted and undone.hand == before.hand
    assert undone.misplaced == (("1b", "wall", "rack:1"),)


def test_the_ura_indicator_is_a_step_of_its_own() -> None:
    """Riichi (RULES.md 11): the ura indicator laid after a riichi win takes a tile from the
    wall and raises the score; undo 1 takes back only the indicator (the win stands)."""
    log = _riichi_then_ron(riichi_log())
    won, _ = replay(log.events)
    log.move("4c", "wall", "dora")
    state, out = _last(log.events)
    assert out.accepted and state.hand.rh.ura == ("4c",)
    assert sum(lying(state)["wall"].values()) == sum(lying(won)["wall"].values()) - 1
    assert lying(state)["dora"] == Counter({"9b": 1, "4c": 1})
    undone, out = _last([*log.events, UNDO])
    assert out.accepted and undone.hand == won.hand and undone.hands == won.hands


def test_a_noten_declaration_is_a_step_an_undo_takes_back() -> None:
    """Riichi's exhaustive draw (RULES.md 11): West, tenpai, declares noten and the payments
    change; undo 1 takes back that declaration alone."""
    from tests.game.test_riichi_rules import _burn

    west = "1b2b3b 4b5b6b 7b8b9b 5d6d gdgd"
    north = "5d 6b 7c 8c 9b9b nwnw 3d 8d 2c 6c 9c"
    log = riichi_log(west=west, north=north).declare(1, "ready").discard(1, "nw")
    _burn(log, 2, "1d 4d 7d 3d")
    drawn, _ = replay(log.events)
    log.declare(3, "noten")
    declared, out = _last(log.events)
    assert out.accepted and declared.hands != drawn.hands
    assert declared.depth == drawn.depth + 1
    undone, out = _last([*log.events, UNDO])
    assert out.accepted and undone.hands == drawn.hands


def test_the_riichi_operators_washout_is_the_exhaustive_draw() -> None:
    """RULES.md 11: an exhaustive draw pays 3,000 from the noten seats to the tenpai ones.
    East in riichi (tenpai) and the others noten when the operator ends the hand: 1,000 from
    each to East, whose riichi stick stays on the table."""
    log = riichi_log().declare(1, "ready").discard(1, "nw")
    state, out = _last([*log.events, {"correct": {"end_hand": "washout"}}])
    assert out.accepted and out.announcements[0] == "The operator ends the hand as a washout"
    assert state.hands[-1].result == "washout"
    assert state.hands[-1].net == (0, -3000, 1000, 1000)




def test_a_move_from_where_the_game_has_the_tile_clears_its_note() -> None:
    """docs/game.md: a log may leave the put-back out; a later move of the tile from where
    the game has it (South's rack) clears the note (no other 5c lies in that rack)."""
    log = Log()
    log.deal(JUNK)
    log.discard(1, "rd").river("rd")
    log.draw(2, "1b")
    log.discard(2, "5c").undo(1)
    undone, _ = replay(log.events)
    assert undone.misplaced == (("5c", "discard", "rack:2"),)
    state, out = _last([*log.events, {"move": {"tile": "5c", "from": "rack:2", "to": "discard"}}])
    assert out.accepted and state.misplaced == ()
    assert state.hand.discard == ("5c", 2)


def test_a_refused_move_from_where_the_game_has_the_tile_keeps_the_note() -> None:
    """docs/game.md: a refused move of a tile whose put-back the log may have left out
    assumes nothing: the earlier note stays, and the refused tile is out of place too."""
    log = Log()
    log.deal(JUNK)
    log.discard(1, "rd").river("rd")
    log.draw(2, "1b")
    log.discard(2, "5c").undo(1)
    state, out = _last([*log.events, {"move": {"tile": "5c", "from": "rack:2", "to": "melds:3"}}])
    assert not out.accepted
    assert sorted(state.misplaced) == [("5c", "discard", "rack:2"), ("5c", "melds:3", "rack:2")]


def test_a_copy_from_the_wall_is_not_the_one_out_of_place() -> None:
    """docs/game.md (issue 22): three 3b drawn to East's rack and taken back to the start lie
    there on their way to the wall; a 3b that comes from the wall to South's rack is the
    fourth copy, still in the wall, and the three notes stay."""
    events: list[dict[str, Any]] = [{"session": {"ruleset": "hua-bao", "options": {}}}]
    events += [{"move": {"tile": "3b", "from": "wall", "to": "rack:1"}}] * 3
    events += [{"correct": {"undo": 3}}]
    start, out = _last(events)
    assert out.accepted and start.hand is None
    assert start.misplaced == (("3b", "rack:1", "wall"),) * 3
    state, out = _last([*events, {"move": {"tile": "3b", "from": "wall", "to": "rack:2"}}])
    assert out.accepted and state.misplaced == (("3b", "rack:1", "wall"),) * 3
    assert state.hand is not None and state.hand.seat(2).rack == ("3b",)


def test_when_no_reading_is_legal_the_rule_of_play_is_reported() -> None:
    """docs/game.md: South's undone 5c lies on the pad beside West's live 5c discard. East
    moving "the 5c" to its strip is refused in both readings: South's tile is out of place
    there, and West's discard claimed for a pair is against the rules; the refusal reported is
    the one that names a rule of play, the tile out of place as the first reading has it."""
    log = Log()
    log.reserve("5c 5c")
    log.deal(JUNK)
    log.discard(1, "rd").river("rd")
    log.draw(2, "1b")
    log.discard(2, "5c").undo(1)
    log.discard(2, "9d").river("9d")
    log.draw(3, "5c")
    log.discard(3, "5c")
    state, out = _last([*log.events, {"move": {"tile": "5c", "from": "discard", "to": "melds:1"}}])
    assert not out.accepted
    assert (out.violation.rule, out.violation.seat) == ("pair_claim_without_mahjong", 1)
    assert state.misplaced == (("5c", "melds:1", "rack:2"),)
