"""The players after the table went elsewhere than they planned (issue 22, the virtual table's
WorldError "no 4c in melds:1"): a claimed discard that the readers saw late.

On a loaded host the claimant's board can report the discard on its meld strip after the pad
has reported it gone: the tracker then takes it to the river (accepted: nobody called) and, when
the strip's board speaks, from the wall to the strip (refused: out of place). The players must
put that tile back once, drop the claim's other tiles decided before, and play on with every
move one their table can make. Before the fix the director kept the claim's tiles queued, so the
virtual table took the put-back for a sweep and asked for it twice on the same state.
"""

from __future__ import annotations

from collections import Counter
from itertools import islice
from typing import Any

from controller.game import GameState, apply, lying, new_game
from controller.players.director import Director

Event = dict[str, Any]
OFF = ("wall", "river")


class Table:
    """The physical table as the players' hands move it: tile counts per zone (the wall and
    the river are one heap, no reader sees either). A move needs its tile where it says."""

    def __init__(self) -> None:
        self.zones: dict[str, Counter[str]] = {}

    def move(self, event: Event) -> None:
        tile, src, dst = event["tile"], event["from"], event["to"]
        src, dst = ("off" if src in OFF else src), ("off" if dst in OFF else dst)
        if src != "off":
            here = self.zones.setdefault(src, Counter())
            assert here[tile] > 0, f"no {tile} in {src} on the table: {event}"
            here[tile] -= 1
        if dst != "off":
            self.zones.setdefault(dst, Counter())[tile] += 1

    def on_table(self) -> dict[str, Counter[str]]:
        return {z: +c for z, c in self.zones.items() if +c}


def late_claim(seed: int) -> tuple[Director, GameState, Table, Event] | None:
    """Play ``seed`` until a claimed discard goes to a meld strip with the claim's other tiles
    still to come; there the table reads it late. None when no such claim comes first."""
    director = Director("hua-bao", {}, hands=1, seed=seed)
    state, table = new_game(), Table()
    while (event := director.next_action(state)) is not None:
        move = event.get("move")
        if move and move["from"] == "discard" and move["to"].startswith("melds:") \
                and director.pending():
            passed = apply(state, {"move": {**move, "to": "river"}})
            if passed.accepted:  # nobody had called: the pad's "gone" is a pass
                table.move(move)  # the tile does lie on the strip
                late = apply(passed.state, {"move": {**move, "from": "wall"}})
                assert not late.accepted  # from the wall to a strip: out of place
                return director, late.state, table, move
        outcome = apply(state, event)
        assert outcome.accepted, (event, outcome.violation)
        state = outcome.state
        if "move" in event:
            table.move(event["move"])
    return None


def test_a_claimed_tile_read_late_is_put_back_once_and_play_goes_on() -> None:
    # the first two seeds that make such a claim (seed 2 does, at its 101st event)
    found = list(islice((c for c in map(late_claim, range(1, 30)) if c is not None), 2))
    assert len(found) == 2, "too few seeds made such a claim: widen the range"
    for director, state, table, move in found:
        put_back = director.next_action(state)
        # the game asks for the tile back where it lies (the strip) to where it has it
        assert put_back == {"move": {"tile": move["tile"], "from": move["to"], "to": "wall"}}
        # The virtual table asks again without waiting while ``pending`` (a table being
        # cleared): the events still queued must need no newer state.
        assert not director.pending()
        table.move(put_back["move"])
        outcome = apply(state, put_back)
        assert outcome.accepted, outcome.violation
        state = outcome.state
        assert state.misplaced == ()
        refused = []
        while (event := director.next_action(state)) is not None:
            if "move" in event:
                table.move(event["move"])  # raises when the players' table cannot do it
            outcome = apply(state, event)
            if not outcome.accepted:
                refused.append((event, outcome.violation))
            state = outcome.state
            if state.hands:  # the hand is over: compared before the table is cleared
                break
        assert refused == []  # none of the claim's other tiles went to the strip
        assert table.on_table() == {z: +c for z, c in lying(state).items()
                                    if z not in OFF and +c}
