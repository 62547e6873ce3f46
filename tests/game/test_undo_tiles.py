"""Undo and the tiles on the table (FORMATS.md "undo N" and "identical tiles"): the tiles of
undone moves are out of place, moves after a hand ended are counted, the legal reading of an
identical tile is taken."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.game import GameState, apply, lying, public_view, put_backs, replay
from controller.game.zones import physical_counts
from controller.tiles import tile_set
from tests.game.logbuilder import Log
from tests.game.randomgame import random_session
from tests.game.scenarios import JUNK, SCENARIOS


def fold(events: list[dict[str, Any]]) -> GameState:
    state, outcomes = replay(events)
    return state


def lying_conserved(state: GameState) -> bool:
    """Every tile of the set lies somewhere, once (the game's zones moved by the notes)."""
    assert state.hand is not None
    bonus = bool(state.ruleset.bonus_tiles)
    total: Counter[str] = Counter()
    for counts in lying(state).values():
        total.update(counts)
    return total == Counter(tile_set(bonus))


def test_the_legal_reading_of_an_identical_tile_is_taken() -> None:
    events = SCENARIOS["undo_identical_tiles"]().log.events
    at = next(i for i, e in enumerate(events) if e.get("move") == {
        "tile": "5c", "from": "discard", "to": "river"})
    before = fold(events[:at])
    assert ("5c", "discard", "rack:2") in before.misplaced
    out = apply(before, events[at])
    assert out.accepted and out.violation is None
    assert out.state.hand is not None and out.state.hand.seat(1).river[-1] == "5c"
    assert out.state.misplaced == before.misplaced  # south's 5c still waits to go home
    home = apply(out.state, events[at + 1])
    assert home.accepted and home.state.misplaced == () and home.state == out.state


def test_when_no_reading_is_legal_the_rule_of_play_is_named() -> None:
    log = Log()
    log.reserve("5c")
    log.deal(JUNK)
    log.discard(1, "rd").river("rd")
    log.draw(2)
    log.discard(2, "5c").undo(1)  # south's 5c lies on the pad, the game has it in the rack
    state = fold(log.events)
    # West takes "the 5c" from the pad: south's own tile (out of place) cannot go to west's
    # strip, and the pad holds no live 5c in the game either: where it is, is the rule.
    out = apply(state, {"move": {"tile": "5c", "from": "discard", "to": "melds:3"}})
    assert not out.accepted and out.violation is not None
    assert out.violation.rule == "tile_out_of_place"
    assert out.state.misplaced == (("5c", "melds:3", "rack:2"),)
    # South moves a 5c (its own, or the one out of place) from the rack to the pad out of
    # turn... the tile lies on the pad already: the put-back first, then the rule of play.
    state = apply(state, {"move": {"tile": "5c", "from": "discard", "to": "rack:2"}}).state
    assert state.misplaced == ()
    out = apply(state, {"move": {"tile": "5c", "from": "rack:2", "to": "melds:3"}})
    assert out.violation is not None and out.violation.rule == "tile_out_of_place"


def test_undo_after_the_table_was_partly_cleared() -> None:
    events = SCENARIOS["undo_after_clearing"]().log.events
    undo_at = next(i for i, e in enumerate(events) if "correct" in e and "undo" in e["correct"])
    washout_at = next(i for i, e in enumerate(events) if "correct" in e)
    before_washout = fold(events[:washout_at])
    undone = fold(events[: undo_at + 1])
    assert sorted(undone.misplaced) == [
        ("1b", "wall", "rack:1"), ("4b", "wall", "rack:1"), ("7b", "wall", "rack:1"),
        ("9d", "wall", "discard"),
    ]  # rd went from the river to the wall: both off the table, nothing to put back
    view = public_view(undone)["hand"]["out_of_place"]
    assert {"tile": None, "zone": "wall", "back_to": "rack:1"} in view  # a rack tile: unnamed
    assert {"tile": "9d", "zone": "wall", "back_to": "discard"} in view
    assert undone == before_washout and lying_conserved(undone)
    state = undone
    for event in put_backs(undone):
        out = apply(state, event)
        assert out.accepted and out.violation is None
        state = out.state
    assert state.misplaced == () and state == before_washout


def test_undo_keeps_the_tiles_already_out_of_place() -> None:
    log = Log()
    log.deal(JUNK)
    log.discard(1, "rd")
    log.move("8c", "rack:3", "discard")  # refused: out of turn; 8c lies on the pad
    log.draw(2)
    log.undo(1)  # the draw: its tile lies in south's rack, home the wall
    state = fold(log.events)
    assert ("8c", "discard", "rack:3") in state.misplaced
    assert len(state.misplaced) == 2 and lying_conserved(state)
    for event in put_backs(state):
        state = apply(state, event).state
    assert state.misplaced == ()


def test_undo_into_a_finished_hand_counts_tiles_off_as_cleared() -> None:
    log = Log()
    log.deal(JUNK)
    log.discard(1, "rd")
    log.raw({"correct": {"end_hand": "washout"}})
    log.move("1b", "rack:1", "wall")
    log.draw(1, "2b")  # hand 2 begins: its first tile
    state = fold(log.events)
    undone = apply(state, {"correct": {"undo": 1}}).state  # back to the finished hand
    assert undone.hand is not None and undone.hand.phase == "over"
    assert undone.misplaced == () and ("1b", "rack:1", "wall") in undone.cleared
    # A new hand starts with every tile in the wall: what lies on the table is hand 2's 2b.
    lying = physical_counts(undone.hand, False, undone.misplaced, undone.cleared)
    assert {z: +c for z, c in lying.items() if z != "wall" and +c} == {"rack:1": {"2b": 1}}
    assert undone.corrections == state.corrections + 1


def test_corrections_are_counted() -> None:
    log = Log()
    log.deal(JUNK)
    log.discard(1, "rd").undo(1)
    log.raw({"correct": {"reassign": {"zone": "rack:2", "tile": "9d", "as": "8d"}}})
    log.raw({"correct": {"undo": 99}})  # refused: not counted
    assert fold(log.events).corrections == 2


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(1, 250), k=st.integers(1, 12),
       cleared=st.integers(0, 20))
def test_put_backs_after_any_undo_restore_the_game(seed: int, cut: int, k: int,
                                                   cleared: int) -> None:
    """Any prefix, a washout, some of the table cleared, then undo: putting back what the
    game lists as out of place gives the game before, with every tile lying once."""
    events = random_session(seed, 2)
    before, _ = replay(events[:cut])
    after, _ = replay(events[: cut + k])
    taken = after.depth - before.depth
    hand = after.hand
    if taken == 0 or hand is None:
        return
    state = after
    if hand.phase != "over":
        state = apply(state, {"correct": {"end_hand": "washout"}}).state
        taken += 1
    racks = [(t, f"rack:{s.position}") for s in hand.seats for t in s.rack]
    for tile, zone in racks[:cleared]:
        state = apply(state, {"move": {"tile": tile, "from": zone, "to": "wall"}}).state
    undone = apply(state, {"correct": {"undo": taken}})
    assert undone.accepted and undone.state == before
    state = undone.state
    if state.hand is not None and state.hand.phase != "over":
        assert lying_conserved(state)
    for event in put_backs(undone.state):
        out = apply(state, event)
        assert out.accepted and out.violation is None, event
        state = out.state
    assert state == before and state.misplaced == ()


def test_two_identical_tiles_moved_off_in_play_are_both_out_of_place() -> None:
    """North's two wd leave the rack for the wall in play (a table cleared too early): both
    are refused and both are to be put back; the first note is not taken for a put-back left
    out of the log."""
    log = Log()
    log.deal(JUNK)
    log.discard(1, "rd")
    state = fold(log.events)
    off = {"move": {"tile": "wd", "from": "rack:4", "to": "wall"}}
    for _ in range(2):
        out = apply(state, off)
        assert not out.accepted
        state = out.state
    assert state.misplaced == (("wd", "wall", "rack:4"),) * 2 and lying_conserved(state)


START = {"session": {"ruleset": "hua-bao", "options": {}}}


def _move(tile: str, src: str, dst: str) -> dict[str, Any]:
    return {"move": {"tile": tile, "from": src, "to": dst}}


def test_a_tile_from_the_wall_is_a_copy_that_lay_there_not_the_one_out_of_place() -> None:
    """Issue 22's loaded run: undone to the session's start, a 3b dealt lies in rack:1 on its
    way back to the wall, and the players deal another 3b from the wall to rack:2. That tile
    came from the wall, where three copies lie; the one in rack:1 was never touched. Before,
    the game read the move as rack:1's 3b moving on (its put-back left out of the log), lost
    it from rack:1 and the virtual players waited for ever for the game to show it."""
    state = fold([START, _move("3b", "wall", "rack:1"), {"correct": {"undo": 1}}])
    assert state.hand is None and state.misplaced == (("3b", "rack:1", "wall"),)
    out = apply(state, _move("3b", "wall", "rack:2"))
    assert out.accepted
    assert lying(out.state)["rack:1"]["3b"] == 1 and lying(out.state)["rack:2"]["3b"] == 1
    assert out.state.misplaced == (("3b", "rack:1", "wall"),)  # still to go back
    assert lying_conserved(out.state)


def test_the_last_copy_from_the_wall_is_the_one_out_of_place_moving_on() -> None:
    """All four 3b are out; one is undone and lies in rack:4 on its way to the wall. A 3b
    "from the wall" can only be that one: its put-back was left out (FORMATS.md)."""
    deal = [_move("3b", "wall", f"rack:{p}") for p in range(1, 5)]
    state = fold([START, *deal, {"correct": {"undo": 1}}])
    assert state.misplaced == (("3b", "rack:4", "wall"),)
    out = apply(state, _move("3b", "wall", "rack:1"))
    assert out.accepted and out.state.misplaced == ()
    assert lying(out.state)["rack:1"]["3b"] == 2 and lying(out.state)["rack:4"]["3b"] == 0
    assert lying_conserved(out.state)
