"""mcr facts the engine passes to the scorer: Last Tile from what lies visible on the table,
a bonus tile's replacement counted as a plain draw (docs/game.md, mcr in the game)."""

from __future__ import annotations

from typing import Any

from controller.game import replay
from controller.game.mahjong import mcr_flags
from controller.game.state import Hand, Seat, TableSet, evolve, new_hand
from tests.game.logbuilder import Log


def _hand(rivers: dict[int, tuple[str, ...]], melds: dict[int, tuple[TableSet, ...]],
          kong_chain: int = 0) -> Hand:
    seats = tuple(
        Seat(p, river=rivers.get(p, ()), melds=melds.get(p, ()),
             kong_chain=kong_chain if p == 2 else 0)
        for p in (1, 2, 3, 4)
    )
    return evolve(new_hand(1, 1, "east", True), seats=seats)  # type: ignore[no-any-return]


def test_last_of_kind_counts_discards_and_exposed_sets_of_every_seat() -> None:
    pung = TableSet(("5b", "5b", "5b"), "pung", claimed_from=1)
    assert mcr_flags(_hand({1: ("5b",), 3: ("5b", "5b")}, {}), 2, "5b", "discard") == (
        ["last_of_kind"], "discard")
    assert mcr_flags(_hand({}, {4: (pung,)}), 2, "5b", "wall")[0] == ["last_of_kind"]
    assert mcr_flags(_hand({1: ("5b",), 3: ("5b",)}, {}), 2, "5b", "wall")[0] == []


def test_a_concealed_kong_is_not_visible() -> None:
    hidden = TableSet(("5b",) * 4, "kong", concealed=True)
    assert mcr_flags(_hand({}, {4: (hidden,)}), 2, "5b", "wall")[0] == []


def test_replacement_after_a_bonus_tile_is_a_plain_draw() -> None:
    assert mcr_flags(_hand({}, {}), 2, "1c", "replacement")[1] == "wall"
    assert mcr_flags(_hand({}, {}, kong_chain=1), 2, "1c", "replacement")[1] == "replacement"


def _mcr_win(south: str, east: str, won: str) -> tuple[Any, list[Any]]:
    """South chows east's 3b (1b 2b from the rack), throws the 9b; west draws ``won`` and
    throws it, south declares Mahjong and takes it."""
    log = Log("mcr")
    log.deal({1: east, 2: south, 3: "2b 5b 8b 8c 8d ew sw ww nw rd gd wd wd",
              4: "2b 3b 5b 6b 8b 9b 1c 4c 9c 1d 4d wd wd"})
    log.discard(1, "3b").claim(2, "3b", "1b2b").discard(2, "9b")
    log.draw(3, won)
    log.discard(3, won).declare(2, "mahjong").move(won, "discard", "rack:2")
    return replay(log.events)


def test_a_mahjong_of_exactly_eight_fans_is_taken_and_seven_refused() -> None:
    """RULES.md section 10: a Mahjong needs at least 8 fans, flowers not counted. The fans are
    the Green Book's, checked with pymahjonggb: exposed 1b2b3b with 1c2c3c 1d2d3d 5c5c5c ewew
    on a discard is Mixed Triple Chow alone (8); 2c3c4c 3d4d5d 9c9c9c ewew is Mixed Shifted
    Chows (6) and a Pung of Terminals (1): 7."""
    state, outcomes = _mcr_win("1b 2b 1c2c3c 1d2d3d 5c5c ewew 9b",
                               "1b 4b 7b 1c 9c 1d 4d ew sw ww nw rd gd 3b", "5c")
    assert all(o.accepted for o in outcomes)
    assert state.hand.phase == "over" and state.hand.result.winner == 2
    assert state.hand.result.scores == (0, 8, 0, 0)
    state, outcomes = _mcr_win("1b 2b 2c3c4c 3d4d5d 9c9c ewew 9b",
                               "1b 4b 7b 1c 6c 1d 4d ew sw ww nw rd gd 3b", "9c")
    refused = [o.violation.rule for o in outcomes if not o.accepted]
    assert refused == ["mahjong_without_eight_fans"]
    assert state.hand.result is None
