"""After a riichi hand: noten, the ura indicators and chombo as the table says and records them
(issue 29: game-end-riichi's survivors). The refusals with their rule, seat and whole sentence
(FORMATS.md: a violation's message is what the table shows); what each accepted act changes,
from RULES.md section 11: a seat not in riichi may declare noten after an exhaustive draw (and
only then), before the table is cleared; the ura indicators are laid only after a riichi
winner's win, as many as the indicators, and count for the winners in riichi alone; a chombo
voids the hand under way or just ended, which is replayed with the counters unchanged."""

from __future__ import annotations

from collections import Counter
from typing import Any

from controller.game import public_view, replay_summary
from controller.game.state import GameState
from controller.game.zones import zone_counts
from controller.tiles import KINDS
from tests.game import test_riichi_abortive as abortive
from tests.game.logbuilder import Log
from tests.game.test_riichi_rules import (
    Log_copy,
    _burn,
    _last,
    _log,
    _riichi_go_around,
    _riichi_then_ron,
    several_rons,
)


def _refusal(log: Log) -> tuple[str, int | None, str]:
    _, out = _last(log)
    assert not out.accepted and out.violation is not None
    return out.violation.rule, out.violation.seat, out.violation.message


def _taken(log: Log) -> tuple[GameState, tuple[str, ...]]:
    state, out = _last(log)
    assert out.accepted, out.violation
    return state, out.announcements


def _drawn() -> Log:
    """East in riichi and tenpai, West tenpai (not in riichi), South and North noten; the live
    wall used up: an exhaustive draw (test_riichi_rules' hand)."""
    west = "1b2b3b 4b5b6b 7b8b9b 5d6d gdgd"
    north = "5d 6b 7c 8c 9b9b nwnw 3d 8d 2c 6c 9c"
    log = _log(west=west, north=north).declare(1, "ready").discard(1, "nw")
    return _burn(log, 2, "1d 4d 7d 3d")


# --- noten ------------------------------------------------------------------------------------


def test_noten_only_after_an_exhaustive_draw() -> None:
    before_any_hand = Log("riichi", {"bonus_tiles": False}).declare(2, "noten")
    assert _refusal(before_any_hand) == (
        "no_hand", 2, "seat 2 may declare noten only after an exhaustive draw")
    assert _refusal(_log().declare(2, "noten")) == (
        "no_hand", 2, "South may declare noten only after an exhaustive draw")
    after_a_win = several_rons().declare(4, "noten")
    assert _refusal(after_a_win) == (
        "no_hand", 4, "North may declare noten only after an exhaustive draw")


def test_noten_after_an_abortive_draw_changes_nothing() -> None:
    log = abortive._log(abortive.ON).discard(1, "nw")
    log.draw(2, "3b")
    log.declare(2, "nine_terminals")
    assert _refusal(log.declare(3, "noten")) == (
        "no_hand", 3,
        "the hand ended in an abortive draw: West's noten changes nothing (no tenpai payments)")


def test_noten_words_at_the_exhaustive_draw() -> None:
    log = _drawn()
    assert _refusal(Log_copy(log).declare(1, "noten")) == (
        "riichi_hand_changed", 1, "East is in riichi: it cannot declare noten")
    state, said = _taken(log.declare(3, "noten"))
    assert said == ("West declares noten",)
    assert public_view(state)["riichi"]["tenpai"] == {
        "1": "tenpai", "2": "noten", "3": "noten", "4": "noten"}
    assert _refusal(Log_copy(log).declare(3, "noten")) == (
        "no_hand", 3, "the table is being cleared: West counts as read")


def test_noten_once_the_table_is_being_cleared() -> None:
    """A tile moved off the table after the draw: the racks have been read."""
    log = _drawn().move("gd", "rack:3", "wall")
    assert _refusal(log.declare(3, "noten")) == (
        "no_hand", 3, "the table is being cleared: West counts as read")


# --- the ura indicators -----------------------------------------------------------------------


NOT_DUE = ("tile_out_of_place", None, "no ura indicator is due: put the tile back")


def test_no_ura_for_a_win_without_riichi_nor_once_all_are_laid() -> None:
    assert _refusal(several_rons().move("4c", "wall", "dora")) == NOT_DUE
    log = _riichi_then_ron(_log())
    state, said = _taken(log.move("4c", "wall", "dora"))
    assert said == ("Ura dora indicator 1: 4c",)
    assert not public_view(state)["riichi"]["ura_due"]
    assert _refusal(log.move("5c", "wall", "dora")) == NOT_DUE


def test_the_ura_indicator_leaves_the_wall() -> None:
    state, _ = _taken(_riichi_then_ron(_log()).move("4c", "wall", "dora"))
    zones = zone_counts(state.hand, False)
    assert zones["dora"] == Counter({"9b": 1, "4c": 1})
    total: Counter[str] = Counter()
    for counts in zones.values():
        total.update(counts)
    assert total == Counter({t: 4 for t in KINDS})  # every tile once, the 4c not in the wall too


def test_what_came_after_the_win_stays_when_the_ura_is_laid() -> None:
    """Laying the ura settles the hand again from the state it was closed on: a tile cleared,
    a player seated and a penalty given since then stay."""
    log = _riichi_then_ron(_log())
    log.move("9c", "river", "wall")
    log.raw({"player": {"seat": 3, "name": "Ann"}})
    log.raw({"penalty": {"kind": "deduction", "seat": 4, "amount": 500}})
    state, _ = _taken(log.move("4c", "wall", "dora"))
    assert state.cleared == (("9c", "river", "wall"),)
    assert state.names == (None, None, "Ann", None)
    assert [(p.kind, p.seat, p.amount) for p in state.penalties] == [("deduction", 4, 500)]
    assert replay_summary(state)["hands"][0]["net"]["1"] == 11_600  # the ura counted


def _riichi_and_plain_ron() -> Log:
    """several_rons' hands, South in (double) riichi with its first discard: North's nw is won
    on by South (in riichi) and West (not)."""
    south, west = "1d2d3d 4d5d6d 7d8d9d 1b2b3b nw", "1c2c3c 4c5c6c 7c8c9c 2b3b4b nw"
    east = "1b1b 5b5b 6d6d 9b 8b gdgd rdrd wd 3d"
    log = _log(east=east, south=south, west=west, north="5d5d 6b6b 7c 8c 9b9b nwnw 3d 3b 4b")
    log.discard(1, "wd")
    log.draw(2, "1c")
    log.declare(2, "ready").discard(2, "1c")
    for seat, tile in ((3, "ew"), (4, "sw")):
        log.draw(seat, tile)
        if seat < 4:
            log.discard(seat, tile)
    log.discard(4, "nw").declare(2, "mahjong").declare(3, "mahjong")
    return log.move("nw", "discard", "rack:2")


def test_the_ura_counts_for_the_winner_in_riichi_alone() -> None:
    """The ura indicator 3b makes 4b an ura dora: West holds one but is not in riichi. South:
    double riichi 2, ippatsu 1, ittsu 2, the dora 1b 1: 6 han, haneman, 4 x 3,000 from North,
    and its own stick back; West: ittsu 2, 40 fu (single wait): 40 x 16 x 4 = 2,560 -> 2,600."""
    log = _riichi_and_plain_ron()
    state, _ = _taken(log)
    assert public_view(state)["riichi"]["ura_due"]
    expected = {"1": 0, "2": 12_000, "3": 2600, "4": -14_600}
    assert replay_summary(state)["hands"][0]["net"] == expected
    state, _ = _taken(log.move("3b", "wall", "dora"))
    record = replay_summary(state)["hands"][0]
    assert record["ura_dora_indicators"] == ["3b"] and record["net"] == expected


def _riichi_kong_then_ron() -> Log:
    """East's double riichi (waiting on 1d/4d), a concealed kong of 1c after one go-around (the
    waits stay) with its indicator 2c and a replacement draw, then South's 1d: East's ron with
    two dora indicators, so two ura indicators are due."""
    log = _riichi_go_around("1c1c1c 4c5c6c 2b3b4b 2d3d 5b5b nw", "1c")
    for _ in range(4):
        log.move("1c", "rack:1", "melds:1")
    log.move("2c", "wall", "dora")  # the kong's indicator: two dora indicators now
    replacement = log.spare(avoid=["1d", "4d"])
    log.draw(1, replacement)
    log.discard(1, replacement)
    log.draw(2, log.spare(avoid=["1d", "4d"]))
    return log.discard(2, "1d").declare(1, "mahjong").move("1d", "discard", "rack:1")


def test_two_ura_indicators_score_once_both_are_laid() -> None:
    """East: 1c kong (concealed) 4c5c6c 2b3b4b 5b5b and 2d3d + 1d. Double riichi 2 han (the
    kong ended ippatsu; no pinfu with a kong; no dora: 1b and 3c); fu 20 + 10 (concealed ron)
    + 32 (a concealed kong of terminals), the 1d an open wait: 62 -> 70. 70 x 2^4 = 1,120, a
    dealer's ron 6 x 1,120 = 6,720 -> 6,800. The first ura indicator 4b makes the pair 5b5b two
    ura dora, but the hand is scored only once the second is laid: 6,800 still, the second due;
    the second, 7d (ura dora 8d, none in the hand): 4 han 70 fu, a mangan: a dealer's 12,000."""
    log = _riichi_kong_then_ron()
    state, _ = _taken(log)
    before = {"1": 6800, "2": -6800, "3": 0, "4": 0}
    assert replay_summary(state)["hands"][0]["net"] == before
    state, said = _taken(log.move("4b", "wall", "dora"))
    assert said == ("Ura dora indicator 1: 4b",)
    board = public_view(state)["riichi"]
    assert board["ura_due"] and board["ura_dora_indicators"] == ["4b"]  # one more to lay
    record = replay_summary(state)["hands"][0]
    assert record["ura_dora_indicators"] == ["4b"]  # recorded at once
    assert record["net"] == before  # scored once both are laid
    state, said = _taken(log.move("7d", "wall", "dora"))
    assert said[0] == "Ura dora indicator 2: 7d"
    assert not public_view(state)["riichi"]["ura_due"]
    record = replay_summary(state)["hands"][0]
    assert record["ura_dora_indicators"] == ["4b", "7d"]
    assert record["net"] == {"1": 12_000, "2": -12_000, "3": 0, "4": 0}
    assert _refusal(log.move("5c", "wall", "dora")) == NOT_DUE  # none due after the two


# --- chombo -----------------------------------------------------------------------------------


def test_chombo_needs_a_hand() -> None:
    log = Log("riichi", {"bonus_tiles": False}).raw({"penalty": {"kind": "chombo", "seat": 2}})
    assert _refusal(log) == (
        "no_hand", 2, "no hand to void: chombo is given during or after a hand")


def _chombo_record(**changes: Any) -> dict[str, Any]:
    """A chombo's hand record (RULES.md 11: no payments, the counters unchanged)."""
    record = {
        "number": 1, "dealer": 1, "prevailing_wind": "east", "result": "chombo",
        "winner": None, "scores": {"1": 0, "2": 0, "3": 0, "4": 0},
        "net": {"1": 0, "2": 0, "3": 0, "4": 0}, "win_source": None, "discarder": None,
        "winds": {"1": "east", "2": "south", "3": "west", "4": "north"},
        "names": {"1": None, "2": None, "3": None, "4": None}, "honba": 0,
        "riichi_sticks": 0, "riichi": [], "dora_indicators": ["9b"],
        "ura_dora_indicators": [], "winners": [], "tenpai": [],
        "points": {"1": 30_000, "2": 30_000, "3": 30_000, "4": 30_000}}
    return {**record, **changes}


def test_chombo_after_a_win_voids_the_win() -> None:
    """East's riichi ron is just over (the ura not laid yet); a chombo of West: the win and
    its payments are void, East deals the hand again, nothing on the table changes."""
    log = _riichi_then_ron(_log())
    state, said = _taken(log.raw({"penalty": {"kind": "chombo", "seat": 3}}))
    assert said == ("Chombo: West pays 20 from the result; the hand is replayed",)
    assert replay_summary(state)["hands"] == [_chombo_record(chombo=3)]
    assert state.totals == (0, 0, 0, 0) and state.rt.chombo == (0, 0, 1, 0)
    assert (state.dealer, state.rt.honba, state.rt.sticks) == (1, 0, 0)
    state, _ = _taken(log.raw({"penalty": {"kind": "chombo", "seat": 4}}))
    assert state.rt.chombo == (0, 0, 1, 1)


def test_chombo_in_play_keeps_the_deposits_already_on_the_table() -> None:
    """A hand with a deposit left from an earlier draw: the chombo's record shows it, and it
    stays (the hand's own riichi are returned)."""
    log = _drawn().new_hand()
    log.deal({1: "1c2c3c 4c5c6c 2b3b4b 2d3d 5b5b nw", 2: "1d 9d9d 1b1b 7b8b ewew swsw wwww",
              3: "6d6d 7d7d 8d8d 3c3c gdgd rdrd wd", 4: "5d5d 6b6b 7c7c 8c8c 9b9b nwnw 3d"})
    log.move("9b", "wall", "dora")
    log.declare(1, "ready").discard(1, "nw")
    state, _ = _taken(log.raw({"penalty": {"kind": "chombo", "seat": 2}}))
    record = replay_summary(state)["hands"][1]
    # the first hand: East (riichi) and West tenpai, 1,500 from each of the two others;
    # East's stick on the table, honba 1, East stays
    assert record == _chombo_record(
        number=2, honba=1, riichi_sticks=1, chombo=2,
        points={"1": 30_500, "2": 28_500, "3": 31_500, "4": 28_500})
    assert (state.dealer, state.rt.honba, state.rt.sticks) == (1, 1, 1)


def test_what_came_after_the_win_stays_when_a_chombo_voids_it() -> None:
    log = _riichi_then_ron(_log())
    log.move("9c", "river", "wall")
    log.raw({"player": {"seat": 3, "name": "Ann"}})
    state, _ = _taken(log.raw({"penalty": {"kind": "chombo", "seat": 2}}))
    assert state.cleared == (("9c", "river", "wall"),)
    assert state.names == (None, None, "Ann", None)
    assert [(p.kind, p.seat) for p in state.penalties] == [("chombo", 2)]


def test_the_ura_counts_for_a_plain_riichi_too() -> None:
    """East declares riichi with its second discard (riichi, not double) and wins on South's
    1d: riichi 1 + ippatsu 1 + pinfu 1, 30 fu: 5,800; the ura indicator 4c makes its 5c an ura
    dora: 4 han 30 fu, 1,920 x 6 = 11,520 -> 11,600."""
    log = _log().discard(1, "nw")
    for seat, tile in ((2, "1c"), (3, "2c"), (4, "3c")):
        log.draw(seat, tile)
        log.discard(seat, tile)
    log.draw(1, "9c")
    log.declare(1, "ready").discard(1, "9c")
    log.draw(2, "4b")
    log.discard(2, "1d").declare(1, "mahjong").move("1d", "discard", "rack:1")
    state, _ = _taken(log.move("4c", "wall", "dora"))
    assert replay_summary(state)["hands"][0]["scores"]["1"] == 11_600
