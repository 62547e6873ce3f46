"""The privacy words on their own (issue 29): a public word names a tile only where it lies in
view (docs/game.md: "the public view names a tile only where it lies in view"; issue 22), and
every tile is named once the hand is over. Expected words are written from that rule: a tile
lying open keeps its name, any other becomes "a tile" with its article."""

from __future__ import annotations

from controller.game import replay
from controller.game.privacy import keep_shown, public_violation, shown_codes, unnamed
from tests.game.logbuilder import Log
from tests.game.scenarios import JUNK, SCENARIOS


def _two_discards() -> Log:
    """East discards the rd (it goes to East's river), South draws and discards the 5b (on the
    pad); every other tile is in a rack or the wall."""
    log = Log().deal(JUNK)
    log.discard(1, "rd")
    log.draw(2, "5b")
    log.discard(2, "5b")
    return log


def test_the_open_tiles_are_the_discard_and_the_river() -> None:
    state = replay(_two_discards().events)[0]
    assert shown_codes(state) == frozenset({"rd", "5b"})


def test_before_a_hand_nothing_is_shown_and_after_it_everything() -> None:
    assert shown_codes(None) == frozenset()
    assert shown_codes(replay(Log().events)[0]) == frozenset()
    over = replay(SCENARIOS["kongs_and_robbing"]().log.events)[0]
    assert shown_codes(over) is None


def test_a_word_keeps_an_open_tile_and_hides_the_others_with_their_article() -> None:
    shown = frozenset({"5b", "rd"})
    assert keep_shown("South discards the 5b", shown) == "South discards the 5b"
    assert keep_shown("the rd and the 7c", shown) == "the rd and a tile"
    assert keep_shown("an 8b, a 9d or 2c", shown) == "a tile, a tile or a tile"
    assert keep_shown("no tile named here", frozenset()) == "no tile named here"
    assert keep_shown("", shown) == ""


def test_once_everything_is_shown_a_word_is_unchanged() -> None:
    assert keep_shown("West held the 7c and the 8b", None) == "West held the 7c and the 8b"


def test_words_from_a_concealed_hand_name_no_tile_at_all() -> None:
    assert unnamed("no set for the 5b; an 8b is missing") == "no set for a tile; a tile is missing"
    assert unnamed("East") == "East"


def test_a_violation_names_only_the_tiles_lying_open() -> None:
    state = replay(_two_discards().events)[0]
    violation = {"rule": "x", "seat": 1, "message": "East may not take the 5b for the 9d"}
    assert public_violation(violation, state) == {
        "rule": "x", "seat": 1, "message": "East may not take the 5b for a tile"}
    assert public_violation(None, state) is None
    assert public_violation({}, state) == {}
    no_words = {"rule": "x", "message": None}
    assert public_violation(no_words, state) == no_words
    over = replay(SCENARIOS["kongs_and_robbing"]().log.events)[0]
    said = {"rule": "x", "message": "North held the 9d"}
    assert public_violation(said, over) == said
