"""The state records: evolve() copies with changes and refuses a field that does not exist."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.game.state import (
    Claim,
    GameState,
    Seat,
    TableSet,
    Trail,
    distance,
    evolve,
    new_hand,
)


def test_evolve_refuses_a_misspelled_field_and_names_it() -> None:
    seat = Seat(2)
    with pytest.raises(TypeError, match="Seat has no field.* raedy"):
        evolve(seat, raedy=True)
    with pytest.raises(TypeError, match="Hand has no field.* phsae"):
        evolve(new_hand(1, 1, "east", False), phsae="play")
    assert seat.ready is False  # the original is untouched


def test_evolve_refuses_a_misspelled_field_beside_good_ones() -> None:
    with pytest.raises(TypeError, match="no field.* turnn"):
        evolve(new_hand(1, 1, "east", False), phase="play", turnn=2)


@given(st.booleans(), st.integers(0, 4), st.sampled_from(("wall", "discard", None)))
def test_evolve_changes_exactly_the_fields_named(ready: bool, due: int, src: str | None) -> None:
    seat = Seat(3, rack=("1b", "2b"), melds=(TableSet(("5c",) * 3, "pung"),))
    new = evolve(seat, ready=ready, replacements_due=due, last_source=src)
    assert (new.ready, new.replacements_due, new.last_source) == (ready, due, src)
    assert (new.position, new.rack, new.melds) == (seat.position, seat.rack, seat.melds)
    assert type(new) is Seat and evolve(seat) == seat


def test_evolve_works_for_every_record_of_the_fold() -> None:
    claim = evolve(Claim(1, "5b", 4), discard_on_strip=True)
    assert claim == Claim(1, "5b", 4, True)
    state = evolve(GameState(), ruleset_name="dmjl", dealer=2)
    assert (state.ruleset_name, state.dealer, state.totals) == ("dmjl", 2, (0, 0, 0, 0))


def test_a_set_on_a_strip_shows_its_tiles_kind_and_concealment() -> None:
    kong = TableSet(("wd",) * 4, "kong", concealed=True)
    assert kong.to_json() == {"tiles": ["wd", "wd", "wd", "wd"], "kind": "kong",
                              "concealed": True}
    chow = TableSet(("3b", "4b", "5b"), "chow", claimed_from=4)
    assert chow.to_json() == {"tiles": ["3b", "4b", "5b"], "kind": "chow", "concealed": False}


def test_a_trail_is_its_items_oldest_first() -> None:
    trail = Trail().add("a").add("b").add("c")
    assert len(trail) == 3 and list(trail) == ["a", "b", "c"]
    assert trail == ("a", "b", "c") and trail == Trail().add("a").add("b").add("c")
    assert trail != ("a", "b") and trail != ("a", "b", "d") and trail != ("c", "b", "a")
    assert trail != ["a", "b", "c"]  # a list is not a trail: no equality by items
    assert hash(trail) == hash(("a", "b", "c")) and len(Trail()) == 0


def test_distance_counts_the_steps_in_turn_order() -> None:
    # RULES.md section 2: play passes east -> south -> west -> north; the seats are numbered
    # in that order (seat 1 -> 2 -> 3 -> 4 -> 1 whoever deals)
    assert [distance(1, to) for to in (1, 2, 3, 4)] == [0, 1, 2, 3]
    assert [distance(4, to) for to in (1, 2, 3, 4)] == [1, 2, 3, 0]
    assert distance(3, 1) == 2 and isinstance(distance(3, 1), int)


def test_evolve_names_every_unknown_field_and_the_fields_it_knows() -> None:
    with pytest.raises(TypeError) as caught:
        evolve(Claim(1, "5b", 4), zz=1, raedy=True)
    assert str(caught.value) == ("Claim has no field(s) raedy, zz: evolve() changes only "
                                 "discard_on_strip, discarder, seat, tile")
