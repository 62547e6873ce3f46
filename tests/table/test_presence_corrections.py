"""The tracker and the operator's corrections: an undone washout, an undone draw's put-back to
the wall, a misread tile relabelled."""

from __future__ import annotations

from tests.table.test_presence import A5B, B5B, C4, EW, Table, kinds, move


def test_a_tile_cleared_just_before_an_undo_of_the_washout_goes_to_the_wall() -> None:
    """The players start clearing, the operator takes the washout back before the tracker has
    noticed the tile gone: it was cleared while the hand was over, it is not missing."""
    table = Table()
    table.cycle({"seat1/0": {A5B, EW}})
    table.tracker.set_hand_over(True)
    table.cycle({"seat1/0": {EW}})  # A5B lifted off the rack, not yet absent long enough
    table.tracker.set_hand_over(False)  # the undo: the hand is in play again
    events = table.cycle({"seat1/0": {EW}}, times=10)
    assert events == [move(A5B, "rack:1", "wall")]
    # a tile taken off later, in play, is missing again
    events = table.cycle({}, times=10)
    assert kinds(events) == ["tile_missing"]


def test_a_put_back_to_the_wall_is_a_move_not_a_missing_tile() -> None:
    table = Table()
    table.cycle({"seat1/0": {A5B, EW, C4}})
    table.tracker.expect_to_wall([("rack:1", "5b")])  # an undone draw of a 5b
    events = table.cycle({"seat1/0": {EW, C4}}, times=10)
    assert events == [move(A5B, "rack:1", "wall")]
    events = table.cycle({"seat1/0": {C4}}, times=10)  # only one was due: the ew is missing
    assert kinds(events) == ["tile_missing"]


def test_a_relabelled_misread_moves_under_its_right_code() -> None:
    registry = {A5B: "5b", B5B: "5b", EW: "ew"}
    table = Table(registry)
    table.cycle({"seat1/0": {A5B}})
    table.cycle({"seat1/0": {A5B, B5B}})  # B5B's tag is enrolled as 5b; the tile is a 6b
    assert table.tracker.relabel("rack:1", "5b", "6b") == B5B  # the newest arrival of the two
    assert table.tracker.relabel("rack:3", "5b", "6b") is None
    events = table.cycle({"seat1/0": {A5B}, "centre/0": {B5B}})
    assert events == [{"move": {"tile": "6b", "from": "rack:1", "to": "discard", "uid": B5B}}]
