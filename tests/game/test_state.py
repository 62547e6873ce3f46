"""The state records: evolve() copies with changes and refuses a field that does not exist."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.game.state import Claim, GameState, Seat, TableSet, evolve, new_hand


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
