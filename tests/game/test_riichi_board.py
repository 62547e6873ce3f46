"""The riichi board's facts in the public view field by field (issue 29: game-views' surviving
mutants), written from RULES.md section 11 and the log: everyone starts with 30,000; a riichi
puts a 1,000 stick on the table; a riichi with the seat's first discard, nobody having called,
is a double riichi; the log's indicator is 9b; after an exhaustive draw the tenpai seats are
paid 3,000 in all by the noten ones, a dealer in tenpai keeps the deal with one more honba."""

from __future__ import annotations

from controller.game import public_view, replay, seat_view
from tests.game.test_riichi_rules import _burn, _log
from tests.game.test_riichi_seat_view import WEST_ITTSU

UNPLAYED = {"ura_dora_indicators": [], "ura_due": False, "final": None,
            "chombo": [0, 0, 0, 0], "dora_indicators": ["9b"]}


def test_the_board_after_easts_riichi_on_the_pad_and_in_the_river() -> None:
    log = _log().declare(1, "ready").discard(1, "nw")
    board = public_view(replay(log.events)[0])["riichi"]
    assert board == {
        "honba": 0, "riichi_sticks": 1,
        "points": {"1": 29_000, "2": 30_000, "3": 30_000, "4": 30_000},
        "riichi": [1], "double_riichi": [1], **UNPLAYED,
        "riichi_discard": {"1": 0},  # its first discard lies sideways
        "riichi_river": {"1": None},  # still on the pad
    }
    log.draw(2, "1c")  # the nw passed to East's river, first in it
    assert public_view(replay(log.events)[0])["riichi"]["riichi_river"] == {"1": 0}


def test_the_board_after_an_exhaustive_draw() -> None:
    """East (in riichi) and West are tenpai, South and North noten: 1,500 to each tenpai seat
    from the noten ones; East's stick stays on the table (net +500); East keeps the deal with
    one honba."""
    west = "1b2b3b 4b5b6b 7b8b9b 5d6d gdgd"
    north = "5d 6b 7c 8c 9b9b nwnw 3d 8d 2c 6c 9c"
    log = _log(west=west, north=north).declare(1, "ready").discard(1, "nw")
    _burn(log, 2, "1d 4d 7d 3d")
    board = public_view(replay(log.events)[0])["riichi"]
    assert board == {
        "honba": 1, "riichi_sticks": 1,
        "points": {"1": 30_500, "2": 28_500, "3": 31_500, "4": 28_500},
        "riichi": [1], "double_riichi": [], **UNPLAYED,
        "riichi_discard": {"1": 0}, "riichi_river": {"1": 0},
        "tenpai": {"1": "tenpai", "2": "noten", "3": "tenpai", "4": "noten"},
    }


def test_a_seats_riichi_facts_whole() -> None:
    """East, the dealer, before its first discard: riichi possible only by throwing the nw
    (1c2c3c 4c5c6c 2b3b4b 2d3d 5b5b then waits on 1d/4d; any other discard leaves two
    unfinished groups). West (a pure straight, waiting on 4d/7d) when South's 4d lies on the
    pad: a ron with a yaku, nothing else."""
    nothing = {"in_riichi": False, "declared": False, "dead": False, "kuikae": [],
               "furiten": False, "ron_on": [], "no_yaku": [], "can_riichi": False,
               "riichi_discards": [], "tsumo": False, "drawn": None}
    east = seat_view(replay(_log().events)[0], 1)["riichi"]
    assert east == {**nothing, "can_riichi": True, "riichi_discards": ["nw"]}
    log = _log(west=WEST_ITTSU).discard(1, "nw")
    log.draw(2, "4d")
    log.discard(2, "4d")
    west = seat_view(replay(log.events)[0], 3)["riichi"]
    assert west == {**nothing, "ron_on": ["4d"]}
