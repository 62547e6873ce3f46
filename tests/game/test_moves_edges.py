"""Draws, discards, the deal, the discard pad and corrected misreads at their edges, word for
word (moves.py, reassign.py; issue 29: game-play-moves' survivors).

What each test expects comes from RULES.md section 3 (the deal: 13 tiles each, east 14, east
discards first; a turn is a draw then a discard; a discard nobody claims is dead), section 4
(a wrong number of tiles), FORMATS.md (a violation's rule and seat; ``move`` zones; the
``reassign`` correction) and TABLE.md (the zones), or is worked out in each docstring. A
refusal's message is what the table shows the players, so it is compared whole. The seats:
position 1 is east in the first hand, 2 south, 3 west, 4 north.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from controller.game import GameState, apply, replay_summary
from controller.game.zones import differences, lying, physical_counts, zone_counts
from tests.game import test_riichi_rules as rr
from tests.game.logbuilder import Log
from tests.game.scenarios import JUNK
from tests.game.test_calls_edges import (
    CLAIM,
    ROB,
    SHORT,
    _added_kong_robbed_twice,
    _declare,
    _fold,
    _hand,
    _move,
    _timed,
    _words,
)


def _correct(zone: str, tile: str, as_: str) -> dict[str, Any]:
    return {"correct": {"reassign": {"zone": zone, "tile": tile, "as": as_}}}


def _dealt(deal: dict[int, str] | None = None, log: Log | None = None) -> tuple[Log, GameState]:
    log = log or Log()
    log.deal(deal or JUNK)
    return log, _fold(log.events)


# --- the deal ------------------------------------------------------------------------------

def test_the_deal_gives_thirteen_tiles_and_east_fourteen() -> None:
    """RULES.md 3.2: each seat is dealt 13 tiles, east 14. A 14th tile for south in the deal
    is refused in south's name, a 15th for east in east's; both are told to put it back.
    East's newest tile came ``dealt`` (docs/players.md: wall, replacement, or dealt for the
    dealer's first turn)."""
    _, state = _dealt()
    assert state.hand is not None and state.hand.seat(1).last_source == "dealt"
    assert _words(state, _move("1b", "wall", "rack:2")) == (
        "wrong_tile_count", 2, "South already holds 13 tiles: put the last tile back")
    assert _words(state, _move("1b", "wall", "rack:1")) == (
        "wrong_tile_count", 1, "East already holds 14 tiles: put the last tile back")
    short = _fold(Log().deal({**JUNK, 1: "1b 4b 7b 1c 9c 1d 4d ew sw ww nw rd gd"}).events)
    out = apply(short, _move("1b", "wall", "rack:1"))
    assert out.accepted and out.announcements == ()
    assert _hand(out.state)["seats"]["1"]["rack_count"] == 14


def test_only_east_discards_first() -> None:
    """RULES.md 3.3: east discards first. A discard of south's in the deal is refused in
    south's name, and the pad stays empty."""
    _, state = _dealt()
    assert _words(state, _move("9d", "rack:2", "discard")) == (
        "discard_out_of_turn", 2, "South may not discard: East discards first")


# --- a turn: draw then discard --------------------------------------------------------------

def test_draws_and_discards_out_of_turn_in_words() -> None:
    """RULES.md 3.3: after east's discard it is south's turn to draw. South discarding first
    must draw (or claim); west drawing is refused ("South's turn to draw"); west discarding is
    refused ("South's turn"). Once south drew, west's draw is told south has yet to discard,
    and south's second draw that it has drawn already."""
    log, state = _dealt()
    log.discard(1, "rd")
    state = _fold(log.events)
    assert _words(state, _move("2c", "rack:2", "discard")) == (
        "discard_out_of_turn", 2, "South must draw (or claim) before discarding")
    assert _words(state, _move("1b", "wall", "rack:3")) == (
        "draw_out_of_turn", 3, "West may not draw: it is South's turn to draw")
    assert _words(state, _move("8b", "rack:3", "discard")) == (
        "discard_out_of_turn", 3, "West may not discard: it is South's turn")
    log.draw(2, "1b")
    drawn = _fold(log.events)
    assert _words(drawn, _move("2b", "wall", "rack:3")) == (
        "draw_out_of_turn", 3, "West may not draw: South has yet to discard")
    assert _words(drawn, _move("2b", "wall", "rack:2")) == (
        "draw_out_of_turn", 2, "South has drawn already: discard a tile")
    assert _words(drawn, _move("8b", "rack:3", "discard")) == (
        "discard_out_of_turn", 3, "West may not discard: it is South's turn")


def test_a_turn_moves_the_tiles_and_the_turn() -> None:
    """RULES.md 3.3-3.4: east discards the rd: it lies on the pad as east's, the turn is
    south's to draw, east holds 13. South draws the 1b (the live wall one tile shorter,
    south 14 tiles) and discards it: east's rd goes to east's river (dead: south drew),
    the 1b is on the pad, west's turn."""
    log, _ = _dealt()
    log.discard(1, "rd")
    after = _fold(log.events)
    view = _hand(after)
    assert view["discard"] == {"tile": "rd", "seat": 1}
    assert (view["turn"], view["step"]) == (2, "draw")
    assert view["seats"]["1"]["rack_count"] == 13
    wall = view["live_wall"]
    log.draw(2, "1b")
    drawn = _fold(log.events)
    view = _hand(drawn)
    assert view["live_wall"] == wall - 1
    assert view["discard"] is None
    assert view["seats"]["1"]["river"] == ["rd"]
    assert (view["turn"], view["step"]) == (2, "discard")
    assert view["seats"]["2"]["rack_count"] == 14
    log.discard(2, "1b")
    view = _hand(_fold(log.events))
    assert view["discard"] == {"tile": "1b", "seat": 2}
    assert (view["turn"], view["step"]) == (3, "draw")
    assert view["seats"]["1"]["river"] == ["rd"]
    assert view["seats"]["2"]["river"] == []


def test_a_discard_with_a_set_half_laid_is_refused() -> None:
    """A set being formed on the strip must be completed or put back before the discard:
    east lays three 1b (it holds four: a kong may follow) and discards the 5b; refused,
    the tiles named."""
    log = Log()
    log.deal({**JUNK, 1: "1b1b1b1b 1c2c3c 4d5d6d ew ew 5c 5b"})
    for _ in range(3):
        log.move("1b", "rack:1", "melds:1")
    state = _fold(log.events)
    assert _words(state, _move("5b", "rack:1", "discard")) == (
        "set_incomplete", 1,
        "East has 1b 1b 1b on the meld strip that is not a set: complete it or put it back "
        "before discarding")


def test_a_bonus_tile_is_laid_not_discarded() -> None:
    """RULES.md (bonus tiles): a flower is laid on the own meld strip, never discarded. In
    dmjl (bonus tiles on) south draws the 1f and tries to discard it: refused, told to lay
    it on the strip."""
    log = Log("dmjl")
    log.deal(JUNK)
    log.discard(1, "rd")
    log.draw(2, "1f")
    state = _fold(log.events)
    assert _words(state, _move("1f", "rack:2", "discard")) == (
        "bonus_discard", 2, "lay the 1f on your meld strip instead")


def test_a_flower_read_in_a_game_without_bonus_tiles() -> None:
    """hua-bao is played without bonus tiles: a flower read from the wall is a misread tile
    not in the set (``not_in_set``), the seat that reached for it named by its rack."""
    log, state = _dealt()
    log.discard(1, "rd")
    state = _fold(log.events)
    assert _words(state, _move("1f", "wall", "rack:2")) == (
        "not_in_set", 2, "this game is played without bonus tiles: a flower or season was "
        "read; take it off the table")


def test_a_dead_hand_draws_nothing() -> None:
    """RULES.md 4 with ``wrong_count = dead_hand``: west's 12 tiles make its hand dead at
    east's first discard; a draw of west's is then refused, saying so."""
    log = Log("hua-bao", {"wrong_count": "dead_hand"})
    log.deal(SHORT)
    log.discard(1, "rd")
    state = _fold(log.events)
    assert _words(state, _move("1b", "wall", "rack:3")) == (
        "draw_out_of_turn", 3, "West's hand is dead: no draws")


# --- tiles where they cannot go --------------------------------------------------------------

def test_tiles_that_do_not_move_so_in_words() -> None:
    """TABLE.md: the river holds dead tiles; a rack tile goes to the pad, the own strip or
    (repair) the wall; the discard goes to a strip, a rack or the river. Each other move is
    refused, the seat named by the zone it left (or reached)."""
    log, _ = _dealt()
    log.discard(1, "rd").river("rd")
    state = _fold(log.events)
    assert _words(state, _move("rd", "river", "rack:2")) == (
        "tile_out_of_place", 2, "the rd in the river is dead: leave it there")
    assert _words(state, _move("2c", "rack:2", "rack:3")) == (
        "tile_out_of_place", 2, "a tile does not move from rack:2 to rack:3 in play")
    assert _words(state, _move("2c", "rack:2", "wall")) == (
        "tile_out_of_place", 2,
        "the tile stays in the rack: tiles do not go back to the wall in play")
    assert _words(state, _move("1b", "rack:2", "discard")) == (
        "tile_not_there", 2, "South's rack holds no 1b: check the tile or its zone")
    assert _words(state, _move("1b", "rack:2", "melds:2")) == (
        "tile_not_there", 2, "South's rack holds no 1b: check the tile or its zone")
    assert _words(state, _move("1b", "rack:2", "wall")) == (
        "tile_not_there", 2, "South's rack holds no such tile: check the tile or its zone")
    log2, _ = _dealt()
    log2.discard(1, "rd")
    live = _fold(log2.events)
    assert _words(live, _move("rd", "discard", "wall")) == (
        "tile_out_of_place", None, "the discard rd goes to a meld strip, a rack or the river")
    assert _words(live, _move("gd", "discard", "river")) == (
        "tile_not_there", None, "the discard pad holds no gd")


def test_a_dead_discard_left_on_the_pad() -> None:
    """RULES.md 3.4: south drew, so east's rd is dead though it still lies on the pad. West
    laying it on its strip is too late; moved to the river it leaves the pad, east's river
    keeps it."""
    log, _ = _dealt()
    log.discard(1, "rd")
    log.draw(2, "1b")
    state = _fold(log.events)
    assert _hand(state)["seats"]["1"]["river"] == ["rd"]
    assert _words(state, _move("rd", "discard", "rack:3")) == (
        "claim_too_late", 3, "West may not claim the rd: South has already drawn")
    out = apply(state, _move("rd", "discard", "river"))
    assert out.accepted and out.announcements == ()
    assert _hand(out.state)["seats"]["1"]["river"] == ["rd"]
    assert _words(out.state, _move("rd", "discard", "river")) == (
        "tile_not_there", None, "the discard pad holds no rd")
    assert _words(state, _move("gd", "discard", "river")) == (
        "tile_not_there", None, "the discard pad holds no gd")


# --- a misread tile corrected (reassign) ----------------------------------------------------

def _wall(state: GameState, tile: str) -> int:
    """The copies of ``tile`` the game has in the wall (the set's copies less those out)."""
    assert state.hand is not None
    bonus = bool(state.ruleset.bonus_tiles) if state.ruleset is not None else False
    return int(zone_counts(state.hand, bonus)["wall"][tile])


def test_a_misread_rack_tile_corrected() -> None:
    """FORMATS.md ``reassign``: the tile the game has in a zone as ``tile`` is really
    ``as``. South's 2c read as 3c: south's rack holds 3c twice and no 2c, the wall the four
    2c and two 3c (of four: the other two in south's rack); the table told, without naming
    the tiles of a rack."""
    _, state = _dealt()
    out = apply(state, _correct("rack:2", "2c", "3c"))
    assert out.accepted and out.announcements == ("A misread tile in rack:2 is corrected",)
    assert out.state.hand is not None
    assert sorted(out.state.hand.seat(2).rack).count("3c") == 2
    assert "2c" not in out.state.hand.seat(2).rack
    assert (_wall(out.state, "2c"), _wall(out.state, "3c")) == (4, 2)


def test_a_correction_to_a_kind_all_out_already() -> None:
    """A fifth copy is judged by the tiles the sender can see: east holds three 1b; its 9b
    read as 1b makes four, accepted (the wall then holds no 1b, and three 9b: north holds
    the fourth); its 5b read as 1b as well would make five: refused,
    the rack named as where they lie."""
    deal = {**JUNK, 1: "1b 1b 1b 1c 2c 3c 4d 5d 6d ew ew 5c 5b 9b"}
    _, state = _dealt(deal)
    out = apply(state, _correct("rack:1", "9b", "1b"))
    assert out.accepted
    assert (_wall(out.state, "1b"), _wall(out.state, "9b")) == (0, 3)
    assert _words(out.state, _correct("rack:1", "5b", "1b")) == (
        "fifth_copy", None, "4 1b already lie open or in this rack: the 5b is not a 1b")


def test_a_misread_discard_corrected() -> None:
    """East's rd on the pad really is a gd: the pad shows the gd as east's, the table told
    which tile became which. Before, two rd (east's, west's) and two gd (the same) were out;
    after, one rd (west's) and three gd: the wall holds three rd and one gd. A correction
    naming a tile the pad does not hold, or a zone with nothing to correct, is refused."""
    log, _ = _dealt()
    log.discard(1, "rd")
    state = _fold(log.events)
    assert _words(state, _correct("discard", "wd", "gd")) == (
        "tile_not_there", None, "discard holds no wd that can be corrected")
    assert _words(state, _correct("river", "rd", "gd")) == (
        "tile_not_there", None, "river holds no rd that can be corrected")
    out = apply(state, _correct("discard", "rd", "gd"))
    assert out.accepted and out.announcements == ("The rd in discard is corrected to gd",)
    assert _hand(out.state)["discard"] == {"tile": "gd", "seat": 1}
    assert (_wall(out.state, "rd"), _wall(out.state, "gd")) == (3, 1)


def test_a_tile_not_in_the_zone_is_not_corrected() -> None:
    """A seat's rack or strip that holds no such tile: refused, the seat named."""
    _, state = _dealt()
    assert _words(state, _correct("rack:2", "1b", "2b")) == (
        "tile_not_there", 2, "rack:2 holds no 1b that can be corrected")
    assert _words(state, _correct("melds:3", "8b", "9b")) == (
        "tile_not_there", 3, "melds:3 holds no 8b that can be corrected")


def test_a_misread_tile_on_the_strip_corrected() -> None:
    """East laid three 1b; the second really is a 2b: east's strip holds 1b 1b 2b (forming),
    the table told."""
    log = Log()
    log.deal({**JUNK, 1: "1b1b1b1b 1c2c3c 4d5d6d ew ew 5c 5b"})
    for _ in range(3):
        log.move("1b", "rack:1", "melds:1")
    state = _fold(log.events)
    out = apply(state, _correct("melds:1", "1b", "2b"))
    assert out.accepted and out.announcements == ("The 1b in melds:1 is corrected to 2b",)
    assert out.state.hand is not None
    assert sorted(out.state.hand.seat(1).forming) == ["1b", "1b", "2b"]
    assert out.state.hand.seat(1).rack.count("1b") == 1


def test_a_misread_flower_on_the_strip_corrected() -> None:
    """dmjl (bonus tiles, one copy each): south's 1f laid on its strip really is the 2f:
    accepted, the strip holds the 2f; the 1f is in the wall again, the 2f out."""
    log = Log("dmjl")
    log.deal(JUNK)
    log.discard(1, "rd")
    log.draw(2, "1f")
    log.move("1f", "rack:2", "melds:2")
    state = _fold(log.events)
    out = apply(state, _correct("melds:2", "1f", "2f"))
    assert out.accepted and out.announcements == ("The 1f in melds:2 is corrected to 2f",)
    assert out.state.hand is not None and out.state.hand.seat(2).bonus == ("2f",)
    assert (_wall(out.state, "1f"), _wall(out.state, "2f")) == (1, 0)


def test_no_bonus_tile_to_correct_to_without_bonus_tiles() -> None:
    """hua-bao has no flowers: a tile corrected to one is refused."""
    _, state = _dealt()
    assert _words(state, _correct("rack:2", "2c", "1f")) == (
        "not_in_set", None, "this game is played without bonus tiles: no 1f")


def test_no_correction_without_a_hand_in_play() -> None:
    """Before the first hand, and after a hand has ended, there is no hand to correct in: a
    rack's reassign is refused ``no_hand``; the dora pad outside riichi holds nothing."""
    state = _fold(Log().events)
    assert _words(state, _correct("rack:2", "2c", "3c")) == (
        "no_hand", None, "no hand is in play")
    assert _words(state, _correct("dora", "2c", "3c")) == (
        "tile_not_there", None, "the dora pad is riichi's: no indicator lies there")
    log, _ = _dealt()
    log.raw({"correct": {"end_hand": "washout"}})
    over = _fold(log.events)
    assert over.hand is not None and over.hand.phase == "over"
    assert _words(over, _correct("rack:2", "2c", "3c")) == (
        "no_hand", None, "no hand is in play")
    _, dealt = _dealt()
    assert _words(dealt, _correct("dora", "2c", "3c")) == (
        "tile_not_there", None, "the dora pad is riichi's: no indicator lies there")


# --- where the tiles lie --------------------------------------------------------------------

def test_tiles_still_lying_out_after_an_undo_to_before_the_first_hand() -> None:
    """docs/game.md: an undo back to before the first hand while tiles lie out leaves them
    where they were put, on their way back to the wall. One 1b dealt to east, then undone:
    east's rack holds the 1b, the wall three 1b; hua-bao has no flowers in the wall, dmjl
    one of each."""
    for ruleset, flowers in (("hua-bao", 0), ("dmjl", 1)):
        log = Log(ruleset)
        log.move("1b", "wall", "rack:1").undo()
        state = _fold(log.events)
        assert state.hand is None
        zones = lying(state)
        assert zones["rack:1"]["1b"] == 1
        assert zones["wall"]["1b"] == 3
        assert zones["wall"]["1f"] == flowers
        assert sum(zones["wall"].values()) == 135 + 8 * flowers


# --- repairing a wrong tile count (``wrong_count = repair``, dmjl's default) ----------------

#: JUNK with a 1f after south's 13 tiles: a flower is not one of the 13 (RULES.md, bonus
#: tiles), so the deal takes it.
FLOWERED = {**JUNK, 2: "2c3c4c 5c6c7c 2d3d4d 5d6d7d 9d 1f"}


def test_a_seat_with_a_tile_too_many_returns_one_to_the_wall() -> None:
    """RULES.md 4 (repair): south's 1f was really a 1b, so south holds 14 tiles in the deal
    (13 is right for all but east). East's discard is refused in south's name; east, which
    holds the 14 it should, may not put a tile back in the wall; south may: the table is
    told, south holds 13 again, the wall has the 1b back (JUNK has one 1b out, east's), and
    east's discard then stands."""
    log = Log("dmjl")
    log.deal(FLOWERED)
    log.raw(_correct("rack:2", "1f", "1b"))
    state = _fold(log.events)
    assert _wall(state, "1b") == 2
    assert _words(state, _move("rd", "rack:1", "discard")) == (
        "wrong_tile_count", 2,
        "South holds 14 tiles, not 13: draw or return tiles to repair the hand")
    assert _words(state, _move("1b", "rack:1", "wall")) == (
        "tile_out_of_place", 1,
        "the tile stays in the rack: tiles do not go back to the wall in play")
    out = apply(state, _move("1b", "rack:2", "wall"))
    assert out.accepted
    assert out.announcements == ("South returns a tile to the wall to repair the hand",)
    assert out.state.hand is not None
    assert sorted(out.state.hand.seat(2).rack) == sorted(
        "2c 3c 4c 5c 6c 7c 2d 3d 4d 5d 6d 7d 9d".split())
    assert _hand(out.state)["seats"]["2"]["rack_count"] == 13
    assert _wall(out.state, "1b") == 3
    assert _hand(out.state)["live_wall"] == _hand(state)["live_wall"] + 1
    done = apply(out.state, _move("rd", "rack:1", "discard"))
    assert done.accepted and _hand(done.state)["discard"] == {"tile": "rd", "seat": 1}


def test_a_seat_a_tile_short_in_play_draws_one() -> None:
    """RULES.md 4 (repair): in play, west's 8b was really the 1f, so west holds 12 tiles
    that count. Out of turn (south's turn to draw) west may draw one from the wall to repair
    its hand: the table is told, west's 13 count again. South then draws (14 tiles); south's
    2c turns out to be the 2f, so south holds 13 on its own turn where 14 are right: it may
    draw once more to repair; a third draw is refused."""
    log = Log("dmjl")
    log.deal(JUNK)
    log.discard(1, "rd")
    log.raw(_correct("rack:3", "8b", "1f"))
    state = _fold(log.events)
    wall = _hand(state)["live_wall"]
    out = apply(state, _move("1b", "wall", "rack:3"))
    assert out.accepted
    assert out.announcements == ("West draws a tile to repair the hand",)
    assert out.state.hand is not None
    assert out.state.hand.seat(3).size() == 13
    assert out.state.hand.seat(3).rack.count("1b") == 1
    assert _hand(out.state)["live_wall"] == wall - 1
    assert (_hand(out.state)["turn"], _hand(out.state)["step"]) == (2, "draw")
    log.events.append(_move("1b", "wall", "rack:3"))
    log.draw(2, "2b")
    log.raw(_correct("rack:2", "2c", "2f"))
    short = _fold(log.events)
    again = apply(short, _move("3b", "wall", "rack:2"))
    assert again.accepted
    assert again.announcements == ("South draws a tile to repair the hand",)
    assert again.state.hand is not None and again.state.hand.seat(2).size() == 14
    assert _words(again.state, _move("4b", "wall", "rack:2")) == (
        "draw_out_of_turn", 2, "South has drawn already: discard a tile")


# --- timers ---------------------------------------------------------------------------------

def test_the_turn_and_claim_deadlines_of_a_discard() -> None:
    """docs/game.md "Timers": east's first turn runs 20 s from the last tile of the deal, a
    discard opens a claim window of 3 s and the next turn's 10 s. Dealt at 1.0 s: east's
    deadline 21.0; east's rd at 10.0 s: claim 13.0, turn 20.0; south's draw at 11.0 s, or
    the rd pushed to the river, ends the claim window. With the timers off nothing is timed,
    whatever the clock."""
    log = Log(table={"timers": True})
    log.deal(JUNK)
    state = _fold(log.events[:1])
    for event in log.events[1:]:
        state = apply(state, event, at=1.0).state
    assert _hand(state)["timers"] == {"claim_deadline": None, "turn_deadline": 21.0}
    state = apply(state, _move("rd", "rack:1", "discard"), at=10.0).state
    assert _hand(state)["timers"] == {"claim_deadline": 13.0, "turn_deadline": 20.0}
    drawn = apply(state, _move("1b", "wall", "rack:2"), at=11.0).state
    assert _hand(drawn)["timers"]["claim_deadline"] is None
    # the rd pushed to the river unclaimed ends the claim window too
    dead = apply(state, _move("rd", "discard", "river"), at=11.0).state
    assert _hand(dead)["timers"] == {"claim_deadline": None, "turn_deadline": 20.0}
    off = _fold(Log().events)
    for event in Log().deal(JUNK).events[1:]:
        off = apply(off, event, at=1.0).state
    assert _hand(off)["timers"] == {"claim_deadline": None, "turn_deadline": None}
    off = apply(off, _move("rd", "rack:1", "discard"), at=10.0).state
    assert _hand(off)["timers"] == {"claim_deadline": None, "turn_deadline": None}


# --- the end of the live wall ---------------------------------------------------------------

def _to_the_last_tile() -> Log:
    """As scenarios.washout: east's first discard, then 122 - 53 - 1 draws and discards in
    turn, so that south draws the live wall's last tile next; west holds a pair of 1b and one
    1b is kept back for south's last draw."""
    log = Log()
    log.reserve("1b")
    log.deal({**JUNK, 3: "1b 1b 8b 8c 8d ew sw ww nw rd gd wd wd"})
    log.discard(1, "rd")
    seat = 2
    for _ in range(122 - 53 - 1):
        log.draw_discard(seat)
        seat = seat % 4 + 1
    assert seat == 2
    return log


def test_the_live_wall_used_up_no_draw_and_a_washout() -> None:
    """RULES.md 3.5: the hand is a washout when the live wall is used up and the last discard
    goes unclaimed. Play to the last tile of the live wall (as scenarios.washout: 122 - 53
    draws after east's first discard, the last by south), west holding a pair of 1b and
    south drawing and discarding the last 1b. While west's claim called on it stands, west's
    draw is refused ("the live wall is used up"); with no call, the 1b to the river ends the
    hand, the table told why."""
    log = _to_the_last_tile()
    log.draw_discard(2, "1b")
    last, seat = "1b", 3
    state = _fold(log.events)
    assert _hand(state)["live_wall"] == 0
    spare = log.spare()
    called = apply(state, _declare(seat, "claim"))
    assert called.accepted, called.violation
    assert _words(called.state, _move(spare, "wall", f"rack:{seat}")) == (
        "wall_empty", seat, "the live wall is used up: no more draws this hand")
    out = apply(state, _move(last, "discard", "river"))
    assert out.accepted
    assert out.announcements[0] == (
        "The live wall is used up and the last discard went unclaimed: washout")
    assert out.state.hands[-1].result == "washout"


def test_a_seat_holding_fourteen_at_its_draw_discards_first() -> None:
    """A seat that already holds 14 tiles on its turn to draw must discard one: dmjl, south's
    1f (dealt after its 13) was really a 1b, found after east's discard; south's draw is
    refused, saying so."""
    log = Log("dmjl")
    log.deal(FLOWERED)
    log.discard(1, "rd")
    log.raw(_correct("rack:2", "1f", "1b"))
    state = _fold(log.events)
    assert _words(state, _move("2b", "wall", "rack:2")) == (
        "draw_out_of_turn", 2, "South has 14 tiles: discard one")


def test_a_wrong_count_found_at_a_discard_in_play() -> None:
    """RULES.md 4: south draws, then its 2c turns out to be the 2f: south holds 13 tiles that
    count where 14 are right for its discard. With ``repair`` (dmjl's default) the discard is
    refused in south's name; with ``dead_hand`` it stands, south's hand is dead and the table
    is told why, and the turn passes to west."""
    for options in ({}, {"wrong_count": "dead_hand"}):
        log = Log("dmjl", options)
        log.deal(JUNK)
        log.discard(1, "rd")
        log.draw(2, "2b")
        log.raw(_correct("rack:2", "2c", "2f"))
        state = _fold(log.events)
        if not options:
            assert _words(state, _move("9d", "rack:2", "discard")) == (
                "wrong_tile_count", 2,
                "South holds 13 tiles, not 14: draw or return tiles to repair the hand")
            continue
        out = apply(state, _move("9d", "rack:2", "discard"))
        assert out.accepted and out.violation is not None
        assert (out.violation.rule, out.violation.seat, out.violation.message) == (
            "wrong_tile_count", 2, "South holds 13 tiles, not 14: the hand is dead")
        assert out.announcements == ("South's hand is dead (South holds 13 tiles, not 14)",)
        view = _hand(out.state)
        assert view["seats"]["2"]["dead"] is True
        assert view["discard"] == {"tile": "9d", "seat": 2}
        assert (view["turn"], view["step"]) == (3, "draw")


# --- replacements -----------------------------------------------------------------------------

def test_the_kongs_replacement_waits_while_it_is_being_robbed() -> None:
    """RULES.md 4: a player may rob an added kong to win. West adds its drawn 5c to its
    pung; east declares Mahjong on it: west's replacement draw is refused in west's name,
    east and the tile named (the robbing scenario of tests/game/test_calls_edges.py)."""
    log = _added_kong_robbed_twice()
    log.declare(1, "mahjong")
    state = _fold(log.events)
    assert _words(state, _move(log.spare(), "wall", "rack:3")) == (
        "claim_pending", 3, "East declared Mahjong on the 5c: it is being robbed")


# --- the dora pad (riichi) --------------------------------------------------------------------

def test_a_misread_dora_indicator_corrected_in_words() -> None:
    """TABLE.md ``dora``: the operator corrects a misread indicator. The 9b read on the pad
    (tests/game/test_riichi_rules.py's hand) really is the 8b: the table is told, the 9b is
    back among the wall's tiles and one 8b fewer there; a tile not on the pad is refused."""
    state = _fold(rr._log().events)
    nine, eight = _wall(state, "9b"), _wall(state, "8b")
    assert _words(state, _correct("dora", "5c", "8b")) == (
        "tile_not_there", None, "no 5c lies on the dora pad")
    out = apply(state, _correct("dora", "9b", "8b"))
    assert out.accepted
    assert out.announcements == ("The 9b on the dora pad is corrected to 8b",)
    assert (_wall(out.state, "9b"), _wall(out.state, "8b")) == (nine + 1, eight - 1)


def test_a_flower_laid_in_the_deal_is_replaced() -> None:
    """RULES.md (bonus tiles): a flower dealt is laid on the strip and replaced from the wall.
    dmjl: east's 14th tile is the 1f; laid, one replacement is due (east holds 13 that
    count); the 9d drawn is that replacement: none due, 14 count, and east discards."""
    log = Log("dmjl")
    log.deal({**JUNK, 1: "1b 4b 7b 1c 9c 1d 4d ew sw ww nw rd gd 1f"})
    log.move("1f", "rack:1", "melds:1")
    laid = _fold(log.events)
    assert _hand(laid)["seats"]["1"]["replacements_due"] == 1
    assert _hand(laid)["seats"]["1"]["bonus"] == ["1f"]
    log.draw(1, "9d")
    drawn = _fold(log.events)
    assert _hand(drawn)["seats"]["1"]["replacements_due"] == 0
    assert drawn.hand is not None and drawn.hand.seat(1).size() == 14
    assert drawn.hand.seat(1).last_source == "replacement"
    log.discard(1, "9d")
    assert _hand(_fold(log.events))["discard"] == {"tile": "9d", "seat": 1}


# --- the end of the live wall: the last discard buried --------------------------------------

def test_the_table_cleared_after_the_last_discard_buries_it() -> None:
    """RULES.md 3.5 and docs/game.md: with the live wall used up and the last discard
    unclaimed, the table being cleared ends the hand as a washout even though the discard was
    not pushed to the river first. The washout of the test above: south's last 1b lies on the
    pad; west puts a wd back in the wall. The hand is over (a washout, the table told), the 1b
    counts as dead: it is in south's river (the view's last river tile), no live discard is
    left, and where the tiles lie the pad holds that 1b once (it stays there, none in the
    river pile) and west's rack one of its two wd."""
    log = _to_the_last_tile()
    log.draw_discard(2, "1b")
    state = _fold(log.events)
    assert _hand(state)["discard"] == {"tile": "1b", "seat": 2}
    river = _hand(state)["seats"]["2"]["river"]
    out = apply(state, _move("wd", "rack:3", "wall"))
    assert out.accepted
    assert out.announcements == (
        "The live wall is used up and the last discard went unclaimed: washout",)
    view = _hand(out.state)
    assert view["result"]["result"] == "washout"
    assert view["discard"] is None
    assert view["seats"]["2"]["river"] == [*river, "1b"]
    zones = lying(out.state)
    assert zones["discard"]["1b"] == 1
    assert zones["river"]["1b"] == 0
    assert zones["rack:3"]["wd"] == 1


# --- the dora pad after the hand ------------------------------------------------------------

def test_a_misread_ura_indicator_corrected_after_the_win() -> None:
    """TABLE.md ``dora``: after the hand ended the operator may correct an indicator, the ura
    too, and the win is scored and settled again with it. The riichi ron of
    tests/game/test_riichi_rules.py (double riichi 2 + pinfu 1 = 3 han 30 fu: the dealer's
    ron 5,800; with the ura 4c, dora 5c, one in the hand: 4 han, 11,600). The 4c was really
    the 8b (dora 9b: none in east's 1c2c3c 4c5c6c 2b3b4b 1d2d3d 5b5b): the table is told,
    the record shows the 8b and east's ron is 5,800 again (30,000 + 5,800 = 35,800; south
    24,200)."""
    log = rr._riichi_then_ron(rr._log())
    log.move("4c", "wall", "dora")
    state = _fold(log.events)
    assert replay_summary(state)["hands"][0]["net"]["1"] == 11_600
    out = apply(state, _correct("dora", "4c", "8b"))
    assert out.accepted
    assert out.announcements == ("The 4c on the dora pad is corrected to 8b",)
    record = replay_summary(out.state)["hands"][0]
    assert record["ura_dora_indicators"] == ["8b"] and record["dora_indicators"] == ["9b"]
    assert record["net"] == {"1": 5800, "2": -5800, "3": 0, "4": 0}
    assert record["points"] == {"1": 35_800, "2": 24_200, "3": 30_000, "4": 30_000}


# --- how the put-backs pair identical tiles (zones.differences) -------------------------------

def _zones(**zones: dict[str, int]) -> dict[str, Counter[str]]:
    """Zones as ``zone_counts`` gives them (``rack_1`` for ``rack:1``), the wall and the
    river empty unless given."""
    out = {z.replace("_", ":"): Counter(c) for z, c in zones.items()}
    out.setdefault("wall", Counter())
    out.setdefault("river", Counter())
    return out


def test_identical_tiles_in_several_zones_pair_in_zone_order() -> None:
    """docs/game.md (an undo: every tile lying elsewhere than the game has it is out of
    place, each with the zone it belongs in). Four 1b lie east 2, south 1, west 1; the game
    has them east 1, south 2, north 1. East and west each hold one too many, south and north
    one too few: the extra ones, east's first, go to the short zones in order (south first):
    east's to south, west's to north, one put-back each, never two to one zone."""
    lies = _zones(rack_1={"1b": 2}, rack_2={"1b": 1}, rack_3={"1b": 1}, rack_4={})
    wanted = _zones(rack_1={"1b": 1}, rack_2={"1b": 2}, rack_3={}, rack_4={"1b": 1})
    assert differences(lies, wanted) == [("1b", "rack:1", "rack:2"), ("1b", "rack:3", "rack:4")]


def test_a_preferred_pairing_comes_first_and_only_where_it_fits() -> None:
    """zones.differences: the pairs given as preferred (a tile's earlier note) come first,
    each only while its zone has a tile too many and its home one too few; the rest pair in
    zone order. The tiles of the test above (pairs east->south, west->north):

    - preferring east->south changes nothing (it is the pair anyway), and the next pair is
      west->north, not a second one from east or to south;
    - preferring south->north (south holds none too many) or east->west (west lacks none)
      is ignored;
    - preferring west->south gives west->south, then east->north."""
    lies = _zones(rack_1={"1b": 2}, rack_2={"1b": 1}, rack_3={"1b": 1}, rack_4={})
    wanted = _zones(rack_1={"1b": 1}, rack_2={"1b": 2}, rack_3={}, rack_4={"1b": 1})
    plain = [("1b", "rack:1", "rack:2"), ("1b", "rack:3", "rack:4")]
    assert differences(lies, wanted, [("1b", "rack:1", "rack:2")]) == plain
    assert differences(lies, wanted, [("1b", "rack:2", "rack:4")]) == plain
    assert differences(lies, wanted, [("1b", "rack:1", "rack:3")]) == plain
    assert differences(lies, wanted, [("1b", "rack:3", "rack:2")]) == [
        ("1b", "rack:3", "rack:2"), ("1b", "rack:1", "rack:4")]


def test_the_wall_and_the_river_are_one_place_for_the_put_backs() -> None:
    """zones.differences: the wall and the river count as one place (no reader tells them
    apart), named by where the difference lies. A 1b lies in east's rack and one in the wall
    where the game has them in south's and west's racks: east's goes to south, the wall's to
    west. A note that the wall's 1b belongs in south's rack comes first: the wall's to south,
    east's to west."""
    lies = _zones(rack_1={"1b": 1}, rack_2={}, rack_3={}, wall={"1b": 1})
    wanted = _zones(rack_1={}, rack_2={"1b": 1}, rack_3={"1b": 1})
    assert differences(lies, wanted) == [("1b", "rack:1", "rack:2"), ("1b", "wall", "rack:3")]
    assert differences(lies, wanted, [("1b", "wall", "rack:2")]) == [
        ("1b", "wall", "rack:2"), ("1b", "rack:1", "rack:3")]


def test_a_tile_in_the_river_pile_is_named_so() -> None:
    """zones.differences: an off-table tile is named by where the difference lies. South's
    5c lies on the river pile (the game has it in south's rack; three more in the wall):
    it goes from the river to south's rack. The other way round (the game has it in the river
    and it lies in south's rack) it goes to the river. With it in the river and three in the
    wall, the off-table place holds four where the game has three there: one put-back, not
    none."""
    lies = _zones(rack_2={}, river={"5c": 1}, wall={"5c": 3})
    wanted = _zones(rack_2={"5c": 1}, river={}, wall={"5c": 3})
    assert differences(lies, wanted) == [("5c", "river", "rack:2")]
    assert differences(wanted, lies) == [("5c", "rack:2", "river")]


def test_a_copy_too_many_pairs_what_it_can() -> None:
    """zones.differences: a rack may hold a copy the game does not count (a misread corrected
    to a kind whose other copies lie in other racks: reassign judges by what the sender can
    see). East holds two 1b where the game has one in south's rack: the one pair east->south
    is given and the copy without a home is left for its seat to correct, no error."""
    lies = _zones(rack_1={"1b": 2}, rack_2={})
    wanted = _zones(rack_1={}, rack_2={"1b": 1})
    assert differences(lies, wanted) == [("1b", "rack:1", "rack:2")]


def test_a_note_for_a_zone_the_hand_has_not_or_a_tile_not_there_moves_nothing() -> None:
    """zones.physical_counts: each out-of-place note moves its tile from the zone the game
    has it in to where it was put, when both zones exist and the tile is there. JUNK, no
    riichi: a 1b noted as put on the dora pad (no such zone) and a 5c noted as put in south's
    rack from east's (east holds no 5c) change nothing: east keeps its one 1b, south its 5c."""
    _, state = _dealt()
    assert state.hand is not None
    plain = zone_counts(state.hand, False)
    noted = physical_counts(state.hand, False, [("1b", "dora", "rack:1"),
                                                ("5c", "rack:2", "rack:1")])
    assert noted == plain
    assert noted["rack:1"]["1b"] == 1 and noted["rack:2"]["5c"] == 1


# --- a kong's chain and the discard count -----------------------------------------------------

def test_a_kong_claimed_after_a_discard_starts_a_new_chain() -> None:
    """docs/game.md: ``twofold_fortune`` when the winning replacement came after two kongs in
    a row, each declared on the previous one's replacement (RULES.md 8, dmjl). East declares a
    concealed kong of 1b, draws the 2b as its replacement and discards it: the chain ends
    there. South discards a 7b and east claims it for a kong (its second kong, but on a
    discard, not on a replacement), draws the 9d and wins on it: a win on a kong's replacement,
    not twofold fortune (no limit hand)."""
    log = Log("dmjl")
    log.reserve("2b 7b 9d")
    log.deal({1: "1b1b1b1b 7b7b7b 3c4c5c 6d7d8d 9d", 2: JUNK[2][:-2] + "ew",
              3: JUNK[3], 4: JUNK[4]})
    for _ in range(4):
        log.move("1b", "rack:1", "melds:1")
    log.draw(1, "2b")
    log.discard(1, "2b")
    log.draw(2, "7b")
    log.discard(2, "7b")
    log.claim(1, "7b", "7b 7b 7b", discard_first=False)
    log.draw(1, "9d")
    log.declare(1, "mahjong")
    result = _hand(_fold(log.events))["result"]
    assert (result["winner"], result["win_source"]) == (1, "replacement")
    score = result["details"]["1"]["score"]
    assert score["limit_hand"] is None
    assert "winning tile from the dead wall" in [i["name"] for i in score["items"]]


def test_a_ready_call_after_the_second_discard_is_no_original_call() -> None:
    """docs/game.md: ``original_call`` when the winner called ready before or with the own
    first discard (RULES.md 8, dmjl: Mahjong with original call, 1 doubling). As
    tests/game/test_engine.py's original call, but east calls ready only after its second
    discard (the 5b it drew): its win on the 9d has no original call, the rest the same
    (going Mahjong, the pair, the only possible tile, drawn, zero-point hand, only concealed
    sets)."""
    log = Log("dmjl")
    log.reserve("9d 5b")
    log.deal({1: "1b2b3b 4b5b6b 7b8b9b 1c2c3c 9d rd", 2: JUNK[2][:-2] + "ew",
              3: JUNK[3], 4: JUNK[4]})
    log.discard(1, "rd")
    for seat in (2, 3, 4):
        log.draw_discard(seat, log.spare(avoid=["9d", "5b"]))
    log.draw(1, "5b")
    log.discard(1, "5b")
    log.declare(1, "ready")
    for seat in (2, 3, 4):
        log.draw_discard(seat, log.spare(avoid=["9d"]))
    log.draw(1, "9d")
    log.declare(1, "mahjong")
    score = _hand(_fold(log.events))["result"]["details"]["1"]["score"]
    names = [i["name"] for i in score["items"]]
    assert "Mahjong with original call" not in names
    assert "going Mahjong" in names and "only concealed sets" in names


def test_a_flowers_replacement_after_a_draw_is_an_ordinary_self_drawn_tile() -> None:
    """docs/game.md (mcr): a replacement after a bonus tile is passed as ``wall``, only one
    after a kong as ``replacement`` (the Green Book's Out with Replacement Tile is not a
    flower's replacement, docs/scoring.md). South, waiting on 4d or 7d with 1b-9b, 2c2c,
    5d6d, draws the 1f on its turn, lays it and wins on its replacement 7d: self-drawn
    from the wall: Pure Straight 16, Fully Concealed Hand 4, All Chows 2, the flower 1 = 23;
    each other seat pays 8 + 23 = 31, south gets 93."""
    log = Log("mcr")
    log.reserve("1f 7d")
    log.deal({**JUNK, 2: "1b2b3b 4b5b6b 7b8b9b 2c2c 5d6d"})
    log.discard(1, "rd")
    log.draw(2, "1f")
    log.move("1f", "rack:2", "melds:2")
    log.draw(2, "7d")
    log.declare(2, "mahjong")
    result = _hand(_fold(log.events))["result"]
    assert (result["winner"], result["win_source"]) == (2, "wall")
    score = result["details"]["2"]["score"]
    assert [(i["name"], i["points"]) for i in score["items"]] == [
        ("Pure Straight", 16), ("Fully Concealed Hand", 4), ("All Chows", 2),
        ("Flower Tiles", 1)]
    assert result["net"] == {"1": -31, "2": 93, "3": -31, "4": -31}


def test_a_correction_on_the_strip_is_not_judged_by_the_rack() -> None:
    """reassign.py and issue 22: a correction in an open zone is judged by the open tiles
    only, never by a rack (a refusal would tell the table what the rack holds). East holds
    four 1b and four 7b and lays three 1b; the operator corrects the second to a 7b: the
    open tiles show one 7b, so it is accepted, though east's rack holds four more."""
    log = Log()
    log.deal({**JUNK, 1: "1b1b1b1b 7b7b7b7b 1c2c3c 4d5d6d"})
    for _ in range(3):
        log.move("1b", "rack:1", "melds:1")
    out = apply(_fold(log.events), _correct("melds:1", "1b", "7b"))
    assert out.accepted and out.announcements == ("The 1b in melds:1 is corrected to 7b",)


# --- replacements for bonus tiles -------------------------------------------------------------

def test_while_a_replacement_is_due_another_seat_may_not_discard() -> None:
    """FORMATS.md: a bonus tile's replacement is due when it is laid. dmjl: south draws the
    1f on its turn and lays it: south's step is its replacement. West's discard is refused
    as out of turn (south's turn), not told to draw a replacement; south's own discard is
    told to draw its replacement first."""
    log = Log("dmjl")
    log.reserve("1f")
    log.deal(JUNK)
    log.discard(1, "rd")
    log.draw(2, "1f")
    log.move("1f", "rack:2", "melds:2")
    state = _fold(log.events)
    assert (_hand(state)["turn"], _hand(state)["step"]) == (2, "replacement")
    assert _words(state, _move("8b", "rack:3", "discard")) == (
        "discard_out_of_turn", 3, "West may not discard: it is South's turn")
    assert _words(state, _move("9d", "rack:2", "discard")) == (
        "discard_out_of_turn", 2, "South must first draw a replacement tile")


def test_the_turn_waits_for_every_replacement_of_the_seat_on_turn() -> None:
    """FORMATS.md: each bonus tile laid makes a replacement due; the seat on turn discards
    once its replacements are drawn. dmjl: south holds the 2f from the deal, draws the 1f on
    its turn and lays both: two due, the step is the replacement. After the first one
    south still owes one: the step stays. West lays its 3f out of turn and draws its own
    replacement: south's is still due, the step stays. South's second replacement: the step
    is the discard."""
    log = Log("dmjl")
    log.reserve("1f 2f 3f")
    log.deal({**JUNK, 2: JUNK[2] + " 2f", 3: JUNK[3] + " 3f"})
    log.discard(1, "rd")
    log.draw(2, "1f")
    log.move("1f", "rack:2", "melds:2")
    log.move("2f", "rack:2", "melds:2")

    def now(seat: int) -> tuple[int, str, int]:
        view = _hand(_fold(log.events))
        return view["turn"], view["step"], view["seats"][str(seat)]["replacements_due"]

    assert now(2) == (2, "replacement", 2)
    log.draw(2)
    assert now(2) == (2, "replacement", 1)
    log.move("3f", "rack:3", "melds:3")
    assert now(3) == (2, "replacement", 1)
    log.draw(3)
    assert now(3) == (2, "replacement", 0)
    log.draw(2)
    assert now(2) == (2, "discard", 0)


def test_two_flowers_laid_in_the_deal_are_replaced_one_at_a_time() -> None:
    """RULES.md (bonus tiles): each flower dealt is laid and replaced. dmjl: east's last two
    tiles are the 1f and the 2f; both laid, two replacements are due; the first tile drawn
    leaves one due, the second none."""
    log = Log("dmjl")
    log.deal({**JUNK, 1: "1b 4b 7b 1c 9c 1d 4d ew sw ww nw rd 1f 2f"})
    log.move("1f", "rack:1", "melds:1")
    log.move("2f", "rack:1", "melds:1")

    def due() -> int:
        return int(_hand(_fold(log.events))["seats"]["1"]["replacements_due"])

    assert due() == 2
    log.draw(1, "9d")
    assert due() == 1
    log.draw(1, "gd")
    assert due() == 0


def test_a_win_on_the_tile_drawn_to_repair_the_hand_is_self_drawn() -> None:
    """RULES.md 4 (repair) and docs/game.md (``win_source``: ``wall`` for a tile drawn from
    the live wall). dmjl: south draws the 9d on its turn (2c3c4c 5c6c7c 2d3d4d 5d6d7d 9d9d:
    complete); its 2c turns out to be the 2f, so south holds 13 that count; it draws the 2c
    from the wall to repair the hand and declares Mahjong: south wins, self-drawn from the
    wall."""
    log = Log("dmjl")
    log.reserve("9d 2c")
    log.deal(JUNK)
    log.discard(1, "rd")
    log.draw(2, "9d")
    log.raw(_correct("rack:2", "2c", "2f"))
    log.move("2c", "wall", "rack:2")
    log.declare(2, "mahjong")
    result = _hand(_fold(log.events))["result"]
    assert (result["result"], result["winner"], result["win_source"]) == ("mahjong", 2, "wall")


def test_a_deal_tile_logged_without_a_time_keeps_east_s_deadline() -> None:
    """docs/game.md "Timers": east's first turn runs 20 s from the deal's tiles. Every tile
    of the deal at 1.0 s but the last, which comes without a time (FORMATS.md: a line *may*
    carry ``at``): east's deadline stays 21.0."""
    log = Log(table={"timers": True})
    log.deal(JUNK)
    state = _fold(log.events[:1])
    for event in log.events[1:-1]:
        state = apply(state, event, at=1.0).state
    state = apply(state, log.events[-1]).state
    assert _hand(state)["timers"] == {"claim_deadline": None, "turn_deadline": 21.0}


# --- what a draw and the dora pad leave as they were ------------------------------------------

def test_a_discard_gone_to_the_river_stays_too_late_after_the_next_draw() -> None:
    """RULES.md 3.4: a discard nobody claims is dead for the rest of the hand. East's rd goes
    to the river and south draws: west's claim is still too late for the rd (it went to the
    river), not a claim with nothing to claim."""
    log = Log()
    log.deal(CLAIM)
    log.discard(1, "rd").river("rd")
    log.draw(2, "1b")
    assert _words(_fold(log.events), _declare(3, "claim")) == (
        "claim_too_late", 3, "West may not claim the rd: it has gone to the river")


def test_a_wall_tile_goes_to_the_dora_pad_only() -> None:
    """TABLE.md: in a riichi hand a tile from the wall goes to a rack, or to the dora pad as
    an indicator; to the discard pad or the river it is out of place in play, as in any other
    game (tests/game/test_riichi_rules.py's hand, its one indicator laid)."""
    state = _fold(rr._log().events)
    for zone in ("discard", "river"):
        assert _words(state, _move("5c", "wall", zone)) == (
            "tile_out_of_place", None, f"a tile does not move from wall to {zone} in play")


def test_the_wall_holds_the_bonus_tiles_of_a_game_played_with_them() -> None:
    """TABLE.md's zones and RULES.md (bonus tiles): dmjl plays with one copy of each flower
    and season; after the deal of JUNK (no bonus tile dealt) each lies in the wall where the
    tiles lie (``lying``), as in the game's own counts."""
    _, state = _dealt(log=Log("dmjl"))
    zones = lying(state)
    assert [zones["wall"][t] for t in ("1f", "4f", "1s", "4s")] == [1, 1, 1, 1]


# --- what a discard clears, what another seat's replacement leaves ----------------------------

def test_a_late_claim_on_the_next_discard_is_noted_too() -> None:
    """docs/game.md "Timers": a claim after the claim window's deadline is noted, each
    overrun once. East's 9d at 10.0 s (window to 13.0 s): west claims it at 14.25 s (late,
    noted), makes the pung at 14.5 s and discards a wd at 15.0 s (window to 18.0 s). North,
    holding two wd, claims it at 19.0 s: 1.0 s late, and that is the overrun reported now
    (west's was for the earlier discard)."""
    from controller.game import due_timer_events

    state = apply(_timed(CLAIM), _declare(3, "claim"), at=14.25).state
    for event in (_move("9d", "discard", "melds:3"), _move("9d", "rack:3", "melds:3"),
                  _move("9d", "rack:3", "melds:3")):
        state = apply(state, event, at=14.5).state
    state = apply(state, _move("wd", "rack:3", "discard"), at=15.0).state
    assert _hand(state)["timers"] == {"claim_deadline": 18.0, "turn_deadline": 25.0}
    late = apply(state, _declare(4, "claim"), at=19.0)
    assert late.accepted
    assert due_timer_events(late.state, 19.5) == [
        {"timer": {"seat": 4, "kind": "claim", "overrun": 1.0, "deadline": 18.0}}]


def test_after_a_claim_there_is_nothing_left_to_claim() -> None:
    """RULES.md 3.4 and 4: east's rd died when south drew; south's 9d is claimed by west for
    a pung. North's claim then has no discard to claim (the rd east discarded earlier is not
    the discard now: it is not "too late" for it)."""
    log = Log()
    log.deal(CLAIM)
    log.discard(1, "rd")
    log.draw(2, "1b")
    log.discard(2, "9d")
    log.claim(3, "9d", "9d 9d")
    state = _fold(log.events)
    assert (_hand(state)["turn"], _hand(state)["step"]) == (3, "discard")
    assert _words(state, _declare(4, "claim")) == (
        "nothing_to_claim", 4, "there is no discard for North to claim")


def test_an_added_kong_stays_robbable_while_another_seat_draws_a_replacement() -> None:
    """RULES.md 4: a player may rob an added kong to win, until the kong's replacement is
    drawn. dmjl, the robbing hand of tests/game/test_calls_edges.py with a 1f kept in south's
    rack: west adds its drawn 5c to its pung; before west's replacement, south lays its 1f
    and draws its own replacement. East may still rob the 5c: the table is told."""
    log = Log("dmjl")
    log.reserve("5c 1f").deal({**ROB, 2: ROB[2] + " 1f"})
    log.discard(1, "5c").claim(3, "5c", "5c5c").discard(3, "5d")
    log.draw_discard(4, log.spare(avoid=["5c", "2c"]))
    log.draw_discard(1, log.spare(avoid=["5c", "8c"]))
    log.draw_discard(2, log.spare(avoid=["5c"]))
    log.draw(3, "5c")
    log.move("5c", "rack:3", "melds:3")
    log.move("1f", "rack:2", "melds:2")
    log.draw(2)
    state = _fold(log.events)
    assert (_hand(state)["turn"], _hand(state)["step"]) == (3, "replacement")
    assert _hand(state)["seats"]["2"]["replacements_due"] == 0
    out = apply(state, _declare(1, "mahjong"))
    assert out.accepted
    assert out.announcements == ("East declares Mahjong on the 5c: robbing the kong",)


def test_a_dora_indicator_corrected_after_an_abortive_draw_settles_nothing_again() -> None:
    """RULES.md 11: an abortive draw pays nothing, the dealer repeats and the honba goes up;
    a dora indicator plays no part in it. East (the dealer) declares nine terminals in the
    deal (the hand of tests/game/test_riichi_abort_words.py); the 9b on the dora pad is then
    corrected to the 8b: the table is told, and the hand still paid nothing (30,000 each),
    east still deals, one honba."""
    from tests.game import test_riichi_abortive as ab

    log = ab._log(ab.ON, east="1c 9c 1d 9d 1b ew sw ww gd 4d5d6d7d nw",
                  south="1d2d3d 4d5d6d 7d8d9d 1b2b3b nw")
    log.declare(1, "nine_terminals")
    out = apply(_fold(log.events), _correct("dora", "9b", "8b"))
    assert out.accepted
    assert out.announcements == ("The 9b on the dora pad is corrected to 8b",)
    record = replay_summary(out.state)["hands"][0]
    assert record["net"] == {"1": 0, "2": 0, "3": 0, "4": 0}
    assert record["points"] == {"1": 30_000, "2": 30_000, "3": 30_000, "4": 30_000}
    assert out.state.dealer == 1 and out.state.rt.honba == 1
