"""The end of a hand as the players, the pages and the records see it (controller/game/
mahjong.py and endhand.py, issue 29's survivors of game-end-hand): every loser scored with
its own seat wind, sets and bonus tiles, the winner's tiles with the winning tile last, the mcr
minimum and settlement, the washout's empty result, and the words each end announces. The
expected figures are worked out by hand in each docstring from RULES.md."""

from __future__ import annotations

from typing import Any

import pytest

from controller.game import public_view, replay
from controller.game.state import GameState
from tests.game.logbuilder import Log
from tests.game.scenarios import JUNK, kongs_and_robbing
from tests.game.test_riichi_rules import several_rons


def _mcr_win(south: str, won: str, flower: bool = False) -> tuple[GameState, list[Any]]:
    """mcr: south chows east's 3b (1b 2b from the rack) and throws the 9b; west draws ``won``
    and throws it; south declares Mahjong and takes it. With ``flower`` south holds the 1f,
    lays it on the meld strip after the deal and draws the 9b as its replacement."""
    log = Log("mcr")
    log.deal({1: "1b 4b 7b 1c 6c 1d 4d ew sw ww nw rd gd 3b", 2: south,
              3: "2b 5b 8b 8c 8d ew sw ww nw rd gd wd wd",
              4: "2b 3b 5b 6b 8b 9b 1c 4c 9c 1d 4d wd wd"})
    if flower:
        log.move("1f", "rack:2", "melds:2")
        log.draw(2, "9b")
    log.discard(1, "3b").claim(2, "3b", "1b2b").discard(2, "9b")
    log.draw(3, won)
    log.discard(3, won).declare(2, "mahjong").move(won, "discard", "rack:2")
    return replay(log.events)


def test_an_mcr_win_on_a_discard_is_settled_with_the_discarder_paying_more() -> None:
    """RULES.md section 10: exposed 1b2b3b, 1c2c3c 1d2d3d 5c5c5c ewew won on west's 5c is
    Mixed Triple Chow alone, 8 fans (test_mcr_facts.py). The winner receives 8 + 8 = 16 from
    the discarder (west) and 8 from each of the others: south +32, west -16, east and north -8
    each. The score is in fans (the record says so: its unit), the winner's tiles are listed as
    held with the winning 5c last, the pad is empty (the 5c is in south's rack), and the table
    is told "South goes Mahjong on the 5c"."""
    state, outcomes = _mcr_win("1b 2b 1c2c3c 1d2d3d 5c5c ewew 9b", "5c")
    assert all(o.accepted for o in outcomes)
    result = state.hand.result
    assert result.scores == (0, 8, 0, 0)
    assert result.net == (-8, 32, -16, -8)
    assert result.discarder == 3 and result.win_source == "discard"
    assert result.details["2"]["score"]["unit"] == "fans"
    assert result.details["2"]["hand"][-1] == "5c"
    assert "South goes Mahjong on the 5c" in outcomes[-1].announcements
    assert state.hand.discard is None
    assert public_view(state)["hand"]["discard"] is None


def test_mcr_counts_the_eight_fans_without_the_flowers() -> None:
    """RULES.md section 10: a Mahjong needs 8 fans, flowers not counted. 2c3c4c 3d4d5d 9c9c9c
    ewew with the exposed 1b2b3b is 7 fans (Mixed Shifted Chows 6, Pung of Terminals 1,
    test_mcr_facts.py); the 1f on south's strip is a ninth point but no fan: refused, south
    named, the words giving the 7 fans and the 8 needed."""
    state, outcomes = _mcr_win("1b 2b 2c3c4c 3d4d5d 9c9c ewew 1f", "9c", flower=True)
    assert state.hand.seat(2).bonus == ("1f",)
    refused = [o.violation for o in outcomes if not o.accepted]
    assert [(v.rule, v.seat, v.message) for v in refused] == [
        ("mahjong_without_eight_fans", 2,
         "South's hand scores 7 fans without flowers: a Mahjong needs 8")]
    assert state.hand.result is None


def test_a_points_score_carries_no_unit() -> None:
    """hua-bao scores in points: the record's score has no ``unit`` (the pages say points)."""
    state, _ = replay(kongs_and_robbing().log.events)
    assert all("unit" not in d["score"] for d in state.hand.result.details.values())


def test_robbing_a_kong_lists_the_robbed_tile_last_and_scores_the_losers_sets() -> None:
    """scenarios.kongs_and_robbing: east robs north's added kong of 6c. East's tiles are listed
    as held with the robbed 6c last, and the table is told so. The losers score their exposed
    sets (RULES.md section 6): south's claimed kong of 5b 8, west's pung of 2d made a kong 8,
    north's pung of 6c (its kong robbed) 2; none holds a scoring pair or a doubling."""
    state, outcomes = replay(kongs_and_robbing().log.events)
    result = state.hand.result
    assert result.winner == 1 and result.win_source == "robbed_kong"
    assert result.details["1"]["hand"][-1] == "6c"
    assert sorted(result.details["1"]["hand"]) == sorted(
        "1c 2c 3c 4d 5d 6d ew ew 5c 7c 6c".split())
    assert result.scores[1:] == (8, 8, 2)
    assert "East robs the kong: Mahjong on the 6c" in outcomes[-1].announcements


def _west_holds_its_wind_and_flower() -> tuple[GameState, list[Any]]:
    """hua-bao with bonus tiles: east's first discard 9d goes to south for Mahjong
    (2c3c4c 5c6c7c 2d3d4d 5d6d7d 9d9d). West holds a concealed pung of its own wind and its own
    flower 3f in the rack (kept there: its replacement would be due only on the strip)."""
    log = Log("hua-bao", {"bonus_tiles": True})
    log.deal({1: "1b 4b 7b 1c 9c 1d 4d ew sw nw rd gd 9d wd",
              2: "2c3c4c 5c6c7c 2d3d4d 5d6d7d 9d",
              3: "ww ww ww 2b 5b 8b 8c 8d ew sw nw rd gd 3f",
              4: "2b 3b 5b 6b 8b 9b 1c 4c 9c 1d 4d wd wd"})
    log.discard(1, "9d").declare(2, "mahjong").move("9d", "discard", "rack:2")
    return replay(log.events)


def test_a_loser_scores_with_its_own_wind_and_the_bonus_tile_in_its_rack() -> None:
    """RULES.md section 6: west's concealed pung of ww is 8 points and a doubling (own wind);
    its own flower 3f, kept in the rack, is 4 points and a doubling (own tile): 12 x 2 x 2 = 48.
    North's pair of white dragons is 2. The record lists west's 3f among its bonus tiles, west's
    wind and that its hand is not dead. The winner south wins on east's first discard: an
    earthly hand, at least half the limit (250 of 500), more than its chows, pair of 9d and 10
    for going Mahjong."""
    state, outcomes = _west_holds_its_wind_and_flower()
    assert all(o.accepted for o in outcomes), [o.violation for o in outcomes if not o.accepted]
    result = state.hand.result
    assert result.winner == 2
    assert result.scores == (0, 250, 48, 2)
    west = result.details["3"]
    assert west["wind"] == "west" and west["dead"] is False
    assert west["bonus"] == ["3f"]
    assert west["score"]["score"] == 48


def test_a_washout_scores_nothing_and_keeps_a_seat_as_it_lies() -> None:
    """FORMATS.md: a washout's scores and nets are all 0. The record keeps each seat as it lies:
    its wind, its concealed tiles in order, no sets, the flower kept in south's rack (dmjl has
    bonus tiles), not dead, no score."""
    log = Log("dmjl")
    log.deal({**JUNK, 2: JUNK[2] + " 1f"})
    log.discard(1, "9d").raw({"correct": {"end_hand": "washout"}})
    state, outcomes = replay(log.events)
    assert all(o.accepted for o in outcomes), [o.violation for o in outcomes if not o.accepted]
    result = state.hand.result
    assert result.result == "washout"
    assert result.scores == (0, 0, 0, 0) and result.net == (0, 0, 0, 0)
    assert result.details["2"] == {
        "wind": "south",
        "hand": ["2c", "3c", "4c", "5c", "6c", "7c", "2d", "3d", "4d", "5d", "6d", "7d", "9d"],
        "melds": [], "bonus": ["1f"], "dead": False, "score": None,
    }


def test_a_washout_after_the_discard_was_taken_leaves_the_pad_empty() -> None:
    """The discard moved into south's rack (taken, no Mahjong declared yet), then the operator
    ends the hand as a washout: the tile lies in the rack, so the pad is empty in the game's
    eyes as on the table (test_end_hand_tiles.py's rule)."""
    log = Log().deal(JUNK)
    log.discard(1, "9d").move("9d", "discard", "rack:2").raw({"correct": {"end_hand": "washout"}})
    state, outcomes = replay(log.events)
    assert all(o.accepted for o in outcomes)
    assert state.hand.result.result == "washout"
    assert state.hand.discard is None
    assert public_view(state)["hand"]["discard"] is None
    assert state.hand.seat(2).rack.count("9d") == 2


def test_several_rons_are_announced_in_turn_order_from_the_discarder() -> None:
    """test_riichi_rules.several_rons: north's nw wins for south and west (multiple_ron all);
    the table is told both, in turn order from the discarder (south, then west)."""
    _, outcomes = replay(several_rons("all", (2, 3)).events)
    assert outcomes[-1].accepted
    assert "South and West win on the nw" in outcomes[-1].announcements


def _violations(log: Log) -> list[tuple[str, int | None, str]]:
    _, outcomes = replay(log.events)
    return [(o.violation.rule, o.violation.seat, o.violation.message)
            for o in outcomes if not o.accepted]


def test_an_incomplete_hand_is_refused_in_words_that_name_no_tile() -> None:
    """East declares Mahjong with the 14 dealt junk tiles: refused, east named, the tile count
    given and no tile of the hand (docs/game.md: the refusal must not show a concealed tile)."""
    log = Log().deal(JUNK).declare(1, "mahjong")
    assert _violations(log) == [
        ("mahjong_incomplete_hand", 1, "East's hand is not complete (14 tiles): play on")]


def test_mcr_refuses_a_hand_the_scorer_cannot_complete() -> None:
    """mcr leaves the shape to its scorer (special hands): 1b2b3b 1c2c3c 1d2d3d 5c5c5c with a
    single ew and a single nw is no hand of the Green Book; south's Mahjong on the 5c is refused
    as incomplete, in the scorer's words (no tile named) after "South's hand cannot win: "."""
    log = Log("mcr")
    log.deal({1: "1b 4b 7b 1c 6c 1d 4d ew sw ww nw rd gd 3b",
              2: "1b 2b 1c2c3c 1d2d3d 5c5c ew nw 9b",
              3: "2b 5b 8b 8c 8d ew sw ww nw rd gd wd wd",
              4: "2b 3b 5b 6b 8b 9b 1c 4c 9c 1d 4d wd wd"})
    log.discard(1, "3b").claim(2, "3b", "1b2b").discard(2, "9b")
    log.draw(3, "5c")
    log.discard(3, "5c").declare(2, "mahjong")
    [(rule, seat, message)] = _violations(log)
    assert (rule, seat) == ("mahjong_incomplete_hand", 2)
    assert message.startswith("South's hand cannot win: ")
    words = message.removeprefix("South's hand cannot win: ")
    assert words and words != "None"
    assert not any(t in words.split() for t in ("5c", "ew", "nw", "1b"))


def test_the_swedish_refusals_name_the_seat_and_the_missing_call() -> None:
    """RULES.md section 7: a swedish Mahjong needs a ready call made beforehand and a
    combination doubling (scenarios.swedish_mahjong: south tries without the call, then with
    it but without a doubling)."""
    from tests.game.scenarios import swedish_mahjong
    assert _violations(swedish_mahjong().log)[:2] == [
        ("mahjong_without_ready", 2, "South did not call ready before going Mahjong"),
        ("mahjong_without_doubling", 2,
         "South's hand has no combination doubling: Mahjong needs at least one"),
    ]


def test_a_riichi_win_without_a_yaku_is_refused_in_words() -> None:
    """RULES.md (riichi): a win needs a yaku, and dora are none. South's 1c2c3c 7d8d9d 1b1b1b
    4b5b ewew on west's 3b has none (test_riichi_rules.test_a_win_without_a_yaku_is_refused)."""
    from tests.game.test_riichi_rules import _log
    log = _log(south="1c2c3c 7d8d9d 1b1b1b 4b5b ewew")
    log.discard(1, "nw")
    log.draw(2, "1d")
    log.discard(2, "1d")
    log.draw(3, "3b")
    log.discard(3, "3b").declare(2, "mahjong")
    assert _violations(log) == [
        ("mahjong_without_yaku", 2, "South's hand has no yaku (dora are not yaku): no win")]


def test_the_winners_own_flower_kept_in_the_rack_scores() -> None:
    """hua-bao with bonus tiles: south keeps its own flower 2f in the rack and wins on east's
    second discard, 9d (no earthly hand): 2c3c4c 5c6c7c 2d3d4d 5d6d7d 9d9d is chows and a pair
    that scores nothing, 10 for going Mahjong and 4 for the flower, doubled once for its own
    flower (RULES.md section 6): 14 x 2 = 28."""
    log = Log("hua-bao", {"bonus_tiles": True})
    log.reserve("9d")
    log.deal({1: "1b 4b 7b 1c 9c 1d 4d ew sw ww nw rd gd 9b",
              2: "2c3c4c 5c6c7c 2d3d4d 5d6d7d 9d 2f",
              3: JUNK[3], 4: JUNK[4]})
    log.discard(1, "9b")
    for seat in (2, 3, 4):
        log.draw_discard(seat, log.spare(avoid=["9d", "2f"]))
    log.draw(1, "9d")
    log.discard(1, "9d").declare(2, "mahjong").move("9d", "discard", "rack:2")
    state, outcomes = replay(log.events)
    assert all(o.accepted for o in outcomes), [o.violation for o in outcomes if not o.accepted]
    result = state.hand.result
    assert result.winner == 2 and result.scores[1] == 28
    assert result.details["2"]["bonus"] == ["2f"]


def test_a_win_on_a_kongs_replacement_in_play_is_a_replacement_win() -> None:
    """South draws the fourth 1b, lays the concealed kong and wins on its replacement 9d
    (1b1b1b1b 7b7b7b 3c4c5c 6d7d8d 9d9d): the record's win source is "replacement" (FORMATS.md
    win sources), not a discard."""
    log = Log()
    log.reserve("1b 9d")
    log.deal({1: "4b 7b 1c 9c 1d 4d ew sw ww nw rd gd 9b 2c",
              2: "1b1b1b 7b7b7b 3c4c5c 6d7d8d 9d",
              3: JUNK[3], 4: JUNK[4]})
    log.discard(1, "9b")
    log.draw(2, "1b")
    for _ in range(4):
        log.move("1b", "rack:2", "melds:2")
    log.draw(2, "9d")
    log.declare(2, "mahjong")
    state, outcomes = replay(log.events)
    assert all(o.accepted for o in outcomes), [o.violation for o in outcomes if not o.accepted]
    assert state.hand.result.winner == 2
    assert state.hand.result.win_source == "replacement"


@pytest.mark.parametrize("dead", [3, 4])
def test_a_dead_hand_scores_nothing_however_its_tiles_would(dead: int) -> None:
    """RULES.md section 4: a dead hand (``wrong_count = dead_hand``) "scores nothing". The dead
    seat is dealt 12 tiles with a concealed pung of white dragons (8 points and a doubling were
    it scored); south wins on east's first discard 9d (an earthly hand: half the limit, 250).
    The dead seat's score is 0 and its record shows no score at all; the others hold nothing
    that scores."""
    junk = {3: "2b 5b 8b 8c 8d ew sw ww nw rd gd 7c 7d",
            4: "2b 3b 5b 6b 8b 9b 1c 4c 9c 1d 4d rd gd"}
    deal = {1: JUNK[1], 2: JUNK[2], **junk,
            dead: "wd wd wd 2b 5b 8b 8c 8d ew sw ww nw" if dead == 3
            else "wd wd wd 2b 3b 5b 6b 8b 9b 1c 4c 9c"}
    log = Log("hua-bao", {"wrong_count": "dead_hand"}).deal(deal)
    log.discard(1, "9d").declare(2, "mahjong").move("9d", "discard", "rack:2")
    state, outcomes = replay(log.events)
    assert [o.violation.rule for o in outcomes if o.violation] == ["wrong_tile_count"]
    result = state.hand.result
    assert state.hand.seat(dead).dead
    assert result.winner == 2 and result.scores == (0, 250, 0, 0)
    assert result.details[str(dead)]["dead"] is True
    assert result.details[str(dead)]["score"] is None
    assert all(result.details[str(p)]["score"] is not None for p in (1, 2, 3, 4) if p != dead)


def test_a_contested_mahjong_goes_to_the_seat_nearest_the_discarder_in_turn_order() -> None:
    """RULES.md section 4 (``mahjong_tie`` turn_order): south and north both go Mahjong on
    west's 9d; north plays next after west, south third: the 9d is north's. South taking it is
    refused as outranked (the seat numbers alone would put south first)."""
    log = Log("hua-bao", {"mahjong_tie": "turn_order"})
    log.deal({1: "1b 4b 7b 1c 9c 1d 4d ew sw ww nw wd wd 5b",
              2: "2c3c4c 5c6c7c 2d3d4d 5d6d7d 9d",
              3: "1c 8c 9c 6d 8d 9b 9b 3b ew sw ww nw 9d",
              4: "gdgdgd rdrdrd 1b1b1b 2b3b4b 9d"})
    log.discard(1, "5b")
    log.draw_discard(2, log.spare(avoid=["9d"]))
    log.draw(3, log.spare(avoid=["9d"]))
    log.discard(3, "9d").declare(4, "mahjong").declare(2, "mahjong")
    log.move("9d", "discard", "rack:2").move("9d", "discard", "rack:4")
    state, outcomes = replay(log.events)
    assert [(o.violation.rule, o.violation.seat) for o in outcomes if not o.accepted] == [
        ("claim_outranked", 2)]
    assert state.hand.result.winner == 4 and state.hand.result.discarder == 3


def test_rons_are_taken_in_turn_order_from_the_discarder_not_by_seat_number() -> None:
    """Riichi, multiple_ron all: east and west both wait on nw (each ittsu, single wait, as in
    test_riichi_rules.several_rons); south discards it. West plays next after south, east
    third: the table is told "West and East win on the nw", in that order."""
    from tests.game.test_riichi_rules import _log
    log = _log({"multiple_ron": "all"}, east="1d2d3d 4d5d6d 7d8d9d 1b2b3b nw wd",
               south="1b1b 5b5b 6d6d 9b 8b gdgd rdrd 3d",
               west="1c2c3c 4c5c6c 7c8c9c 2b3b4b nw",
               north="5d5d 6b6b 7c 8c 9b9b swsw 3d 3b 4b")
    log.discard(1, "wd")
    log.draw(2, "nw")
    log.discard(2, "nw").declare(1, "mahjong").declare(3, "mahjong")
    log.move("nw", "discard", "rack:3")
    state, outcomes = replay(log.events)
    assert all(o.accepted for o in outcomes), [o.violation for o in outcomes if not o.accepted]
    assert "West and East win on the nw" in outcomes[-1].announcements


def test_a_finished_hand_shows_no_step_no_claimant_and_no_running_timer() -> None:
    """docs/game.md "Timers": the claim window closes 3 s after a discard and each turn has
    its deadline; once the hand is over nothing is due. West (``WAITING`` of
    test_timers_context.py: 9d 1b1b1b 2b3b4b 5c6c7c 2d3d4d) declares Mahjong on east's 9d at
    14.25 s, after the window closed (13 s), and takes it: the public view of the finished hand
    has no step to play, no claimant left and no deadline."""
    from controller.game import apply, new_game
    from tests.game.test_timers_context import WAITING
    log = Log(table={"timers": True})
    log.deal({**JUNK, 3: WAITING})
    state = new_game()
    for event in log.events:
        state = apply(state, event, at=1.0).state
    for event, at in (({"move": {"tile": "9d", "from": "rack:1", "to": "discard"}}, 10.0),
                      ({"declare": {"seat": 3, "call": "mahjong"}}, 14.25),
                      ({"move": {"tile": "9d", "from": "discard", "to": "rack:3"}}, 14.75)):
        outcome = apply(state, event, at=at)
        assert outcome.accepted, outcome.violation
        state = outcome.state
    view = public_view(state)["hand"]
    assert view["phase"] == "over" and view["result"]["winner"] == 3
    assert view["step"] is None and view["claimants"] == [] and view["claim"] is None
    assert view["timers"]["claim_deadline"] is None
    assert view["timers"]["turn_deadline"] is None


@pytest.mark.parametrize(("ruleset", "dealer"), [("mcr", 2), ("hua-bao", 1), ("dmjl", 1)])
def test_after_a_washout_the_deal_passes_only_in_mcr(ruleset: str, dealer: int) -> None:
    """RULES.md section 10: in mcr the deal passes to the next seat after every hand, whoever
    won; section 2: elsewhere east stays dealer after a washout. The operator ends the first
    hand as a washout after east's first discard: the session's dealer is then seat 2 in mcr
    and seat 1 otherwise, with the game not over (false, not unknown) and no totals moved."""
    log = Log(ruleset).deal(JUNK)
    log.discard(1, "9d").raw({"correct": {"end_hand": "washout"}})
    state, outcomes = replay(log.events)
    assert all(o.accepted for o in outcomes), [o.violation for o in outcomes if not o.accepted]
    session = public_view(state)["session"]
    assert session["dealer"] == dealer and session["prevailing_wind"] == "east"
    assert session["game_over"] is False
    assert state.totals == (0, 0, 0, 0)


def _north_claims_before_two_mahjongs(mahjongs: tuple[int, ...]) -> tuple[GameState, list[Any]]:
    """hua-bao: west discards the 9d. North, whose hand it completes (gdgdgd rdrdrd 1b1b1b
    2b3b4b 9d9d), calls a plain ``claim``; the seats in ``mahjongs`` (east 1b2b3b 4b5b6b
    7b8b9b 1d1d1d 9d, south 2c3c4c 5c6c7c 2d3d4d 5d6d7d 9d, each waiting on the 9d too) declare
    Mahjong on it. North takes the 9d into its rack and declares Mahjong."""
    log = Log("hua-bao", {"mahjong_tie": "turn_order"})
    log.deal({1: "1b2b3b 4b5b6b 7b8b9b 1d1d1d 9d wd",
              2: "2c3c4c 5c6c7c 2d3d4d 5d6d7d 9d",
              3: "1c 8c 9c 6d 8d 9b 9b 3b ew sw ww nw 9d",
              4: "gdgdgd rdrdrd 1b1b1b 2b3b4b 9d"})
    log.discard(1, "wd")
    log.draw_discard(2, log.spare(avoid=["9d"]))
    log.draw(3, log.spare(avoid=["9d"]))
    log.discard(3, "9d").declare(4, "claim")
    for seat in mahjongs:
        log.declare(seat, "mahjong")
    log.move("9d", "discard", "rack:4").declare(4, "mahjong")
    return replay(log.events)


@pytest.mark.parametrize("mahjongs", [(2,), (1, 2)])
def test_a_claim_that_is_a_mahjong_keeps_the_discard_over_two_declared_mahjongs(
        mahjongs: tuple[int, ...]) -> None:
    """FORMATS.md (``declare``): of several seats calling for one discard, the controller works
    out the best claim each could make and awards the discard by precedence; RULES.md section 4:
    Mahjong beats the rest and equal claims go to the claimant nearest in turn order from the
    discarder. North's best claim on west's 9d is Mahjong and north plays next after west (then
    east, then south), so the 9d is north's whether one or two other seats declared Mahjong on
    it, and north's Mahjong with it stands: north wins, west the discarder.

    A bug until the twelfth session: with two other Mahjongs declared, ``win_on_discard``
    weighed only the declared ones, gave the 9d to east and refused north's Mahjong ("North may
    not take the 9d: Mahjong goes to East") after the table had been told the 9d was north's
    (and with the 9d awarded to north, east may not take it either)."""
    state, outcomes = _north_claims_before_two_mahjongs(mahjongs)
    assert all(o.accepted for o in outcomes), [o.violation for o in outcomes if not o.accepted]
    assert state.hand.result.winner == 4 and state.hand.result.discarder == 3
    assert "North goes Mahjong on the 9d" in outcomes[-1].announcements


def test_the_dealer_with_no_tile_yet_is_refused_a_mahjong_in_words() -> None:
    """The deal has begun (south holds its first tile) and east, the dealer, holds nothing yet:
    east's Mahjong is refused as an incomplete hand, east named, "East holds no tiles", and the
    hand goes on (still in the deal, nothing scored)."""
    log = Log().move("1b", "wall", "rack:2").declare(1, "mahjong")
    state, outcomes = replay(log.events)
    assert [(o.violation.rule, o.violation.seat, o.violation.message)
            for o in outcomes if not o.accepted] == [
        ("mahjong_incomplete_hand", 1, "East holds no tiles")]
    assert state.hand.phase == "deal" and state.hand.result is None


#: a waiting hand: 1b2b3b 4b5b6b 7b8b9b 1c2c3c and a single 9d, complete with the 9d
WAITING_9D = "1b2b3b 4b5b6b 7b8b9b 1c2c3c 9d"
#: three hands that wait on nothing (no 9d among them), for the seats that do not win
LOSERS = ("1b 4b 7b 1c 9c 1d 4d ew sw ww nw rd gd", JUNK[3], JUNK[4])


def _self_drawn_hand(log: Log, dealer: int, winner: int,
                     hands: dict[int, str] | None = None) -> Log:
    """One hand: ``winner`` holds WAITING_9D, the others LOSERS (or ``hands``); the dealer's
    14th tile is a 5c, its first discard. The seats after the dealer draw and discard a spare
    tile until it is ``winner``'s turn; ``winner`` draws the 9d and declares Mahjong."""
    log.new_hand()
    log.reserve("9d")
    losers = iter(LOSERS)
    deal = {p: WAITING_9D if p == winner else next(losers) for p in (1, 2, 3, 4)}
    deal.update(hands or {})
    deal[dealer] += " 5c"
    log.deal(deal)
    log.discard(dealer, "5c")
    seat = dealer % 4 + 1
    while seat != winner:
        log.draw_discard(seat, log.spare(avoid=["9d"]))
        seat = seat % 4 + 1
    log.draw(winner, "9d")
    return log.declare(winner, "mahjong")


def test_dmjl_counts_nine_in_a_row_afresh_for_each_dealer() -> None:
    """RULES.md section 8 (dmjl): east winning nine hands in a row scores a limit (500) and
    the winds rotate; section 2: when another seat wins, the seats rotate. Seat 1, the first
    east, wins once; seat 2 wins (seat 2 becomes east, its run starts at nothing, seat 1's win
    not counted); seat 2 wins eight more as east: none is a limit and seat 2 stays dealer.
    Its ninth in a row is the limit, the table is told "East wins the ninth hand in a row: a
    limit, and the winds rotate" (that Mahjong only), and seat 3 deals next."""
    log = Log("dmjl")
    hands = [(1, 1), (1, 2)] + [(2, 2)] * 9
    for dealer, winner in hands:
        _self_drawn_hand(log, dealer, winner)
    state, outcomes = replay(log.events)
    assert all(o.accepted for o in outcomes), [o.violation for o in outcomes if not o.accepted]
    assert [(h.dealer, h.winner) for h in state.hands] == hands
    assert all(h.scores[1] < 500 for h in state.hands[2:10])
    assert state.hands[10].scores[1] == 500
    assert state.dealer == 3
    note = "East wins the ninth hand in a row: a limit, and the winds rotate"
    told = [i for i, o in enumerate(outcomes) if note in o.announcements]
    assert told == [len(outcomes) - 1]


def test_a_loser_scores_the_pung_of_the_prevailing_wind_in_a_later_round() -> None:
    """RULES.md section 2: the prevailing wind advances when the dealership has passed all the
    way round: seats 2, 3, 4 and then 1 win a hand each (each win by a non-dealer passes the
    deal), so the fifth hand is in the south round, seat 1 dealing. West (seat 3) loses with a
    concealed pung of sw, the prevailing wind, and single tiles: section 6 scores the pung 8
    and a doubling (a pung of the prevailing wind), 16 in all."""
    log = Log("hua-bao")
    for dealer, winner in ((1, 2), (2, 3), (3, 4), (4, 1)):
        _self_drawn_hand(log, dealer, winner)
    _self_drawn_hand(log, 1, 1, {3: "swswsw 2b 5b 8b 8c 8d ew ww nw rd gd"})
    state, outcomes = replay(log.events)
    assert all(o.accepted for o in outcomes), [o.violation for o in outcomes if not o.accepted]
    assert [h.winner for h in state.hands] == [2, 3, 4, 1, 1]
    assert state.hands[4].prevailing_wind == "south"
    assert state.hands[4].scores[2] == 16


def _wall_end_win(winner: int) -> tuple[GameState, list[Any]]:
    """dmjl (144 tiles, 14 in the dead wall: 130 live, 77 left after the deal): ``winner``
    holds WAITING_9D; east throws the 5c, then draws and discards run on (75 or 76 of them)
    until ``winner`` draws the 9d with 1 tile left behind it (east, 2nd-last) or none (south,
    the last), and declares Mahjong."""
    log = Log("dmjl")
    log.reserve("9d")
    losers = iter(LOSERS)
    deal = {p: WAITING_9D if p == winner else next(losers) for p in (1, 2, 3, 4)}
    deal[1] += " 5c"
    log.deal(deal).discard(1, "5c")
    seat = 2
    for _ in range(75 if winner == 1 else 76):
        log.draw_discard(seat, log.spare(avoid=["9d"]))
        seat = seat % 4 + 1
    assert seat == winner
    log.draw(winner, "9d")
    return replay(log.declare(winner, "mahjong").events)


@pytest.mark.parametrize(("winner", "last"), [(1, False), (2, True)])
def test_only_the_last_live_tile_is_the_last_tile(winner: int, last: bool) -> None:
    """docs/game.md: ``last_tile`` is set when the live wall is 0 at the win; dmjl (RULES.md
    section 8 as bmja) doubles "winning tile is the last tile of the live wall". Winning on
    the last live tile counts it; on the second-last (one tile still to draw) it does not."""
    state, outcomes = _wall_end_win(winner)
    assert all(o.accepted for o in outcomes), [o.violation for o in outcomes if not o.accepted]
    assert state.hand.result.winner == winner and state.hand.live_wall == (0 if last else 1)
    items = [i["name"] for i in state.hand.result.details[str(winner)]["score"]["items"]]
    assert ("winning tile is the last tile of the live wall" in items) is last


def _east_calls_ready_then(kong: str) -> list[str]:
    """dmjl: east holds 1b1b1b 4b5b6b 7b8b9b 1c1c1c 9d and the rd, throws the rd and calls
    ready with it (waiting on the 9d). ``kong`` "concealed": east later draws the fourth 1b
    and declares a concealed kong; "claimed": south throws the fourth 1c and east claims it
    for a kong; "late": east calls ready only with its second discard, no kong. East then
    draws the 9d (the replacement after a kong) and goes Mahjong. Returns east's items."""
    log = Log("dmjl")
    log.reserve("1b 1c 9d")
    log.deal({1: "1b1b1b 4b5b6b 7b8b9b 1c1c1c 9d rd", 2: JUNK[2][:-2] + "ew",
              3: JUNK[3], 4: "2b 3b 5b 6b 8b 9b 6c 4c 9c 1d 4d wd wd"})
    log.discard(1, "rd")
    if kong != "late":
        log.declare(1, "ready")
    if kong == "claimed":
        log.draw(2, "1c")
        log.discard(2, "1c").claim(1, "1c", "1c1c1c")
    else:
        for seat in (2, 3, 4):
            log.draw_discard(seat, log.spare(avoid=["1b", "1c", "9d"]))
    if kong == "concealed":
        log.draw(1, "1b")
        for _ in range(4):
            log.move("1b", "rack:1", "melds:1")
    if kong == "late":
        log.draw_discard(1, log.spare(avoid=["1b", "1c", "9d"]))
        log.declare(1, "ready")
        for seat in (2, 3, 4):
            log.draw_discard(seat, log.spare(avoid=["1b", "1c", "9d"]))
    log.draw(1, "9d")
    state, outcomes = replay(log.declare(1, "mahjong").events)
    assert all(o.accepted for o in outcomes), [o.violation for o in outcomes if not o.accepted]
    assert state.hand.result.winner == 1
    return [i["name"] for i in state.hand.result.details["1"]["score"]["items"]]


@pytest.mark.parametrize(("kong", "original"),
                         [("concealed", True), ("claimed", False), ("late", False)])
def test_the_original_call_needs_the_first_discard_and_no_claimed_set(
        kong: str, original: bool) -> None:
    """docs/game.md: ``original_call`` when the winner called ready before or with its own
    first discard and has no claimed set (dmjl: "Mahjong with original call", a doubling,
    RULES.md section 8 as bmja). East's concealed kong is no claimed set: the original call
    stands; a kong claimed from south's discard ends it, and so does a ready call made only
    with the second discard."""
    assert ("Mahjong with original call" in _east_calls_ready_then(kong)) is original


def test_mcr_scores_last_tile_when_the_other_three_lie_in_the_rivers() -> None:
    """RULES.md section 10: "Last Tile" (4 fans) when the winning tile is the last of its kind,
    the other three visible. mcr: south chows east's 3b (1b 2b from the rack) and holds
    1c2c3c 1d2d 5c5c5c ewew, waiting on the 3d alone. West, north and east each throw a 3d
    (south lets them pass); west draws the fourth and throws it; south goes Mahjong on it:
    its fans include Last Tile (the three others lie in the rivers, none in south's hand)."""
    log = Log("mcr")
    log.reserve("3d")
    log.deal({1: "1b 4b 7b 1c 6c 1d 3d ew sw ww nw rd gd 3b",
              2: "1b 2b 1c2c3c 1d2d 5c5c5c ewew 9b",
              3: "2b 5b 8b 8c 8d ew sw ww nw rd gd wd 3d",
              4: "2b 3b 5b 6b 8b 9b 1c 4c 9c 1d 4d wd 3d"})
    log.discard(1, "3b").claim(2, "3b", "1b2b").discard(2, "9b")
    for seat in (3, 4, 1):
        log.draw(seat, log.spare(avoid=["3d"]))
        log.discard(seat, "3d")
    log.draw_discard(2, log.spare(avoid=["3d"]))
    log.draw(3, "3d")
    log.discard(3, "3d").declare(2, "mahjong").move("3d", "discard", "rack:2")
    state, outcomes = replay(log.events)
    assert all(o.accepted for o in outcomes), [o.violation for o in outcomes if not o.accepted]
    assert state.hand.result.winner == 2
    items = state.hand.result.details["2"]["score"]["items"]
    assert "Last Tile" in [i["name"] for i in items], items


def test_robbing_a_kong_leaves_the_owners_other_added_kong_standing() -> None:
    """RULES.md section 4: a robbed added kong is a pung again; nothing else of its owner's
    changes. hua-bao: south pungs west's 2b and, later, west's 6c; it draws the fourth 2b and
    adds it (an added kong nobody robs, then its replacement), and then the fourth 6c, which
    east (1c2c3c 4d5d6d 7d8d9d ewew 5c 7c, waiting on the 6c) robs. South's sets in the record:
    the kong of 2b, then the pung of 6c."""
    log = Log()
    log.reserve("2b 6c")
    log.deal({1: "1c2c3c 4d5d6d 7d8d9d ewew 5c 7c 1b",
              2: "2b2b 6c6c 3b 9b 1d 4b 7b sw ww nw rd",
              3: "2b 6c 8b 8c 8d ew sw ww nw rd gd wd wd",
              4: "3b 5b 6b 8b 9b 1c 4c 9c 4d wd wd 3d gd"})
    avoid = ["2b", "6c"]
    log.discard(1, "1b")
    log.draw_discard(2, log.spare(avoid=avoid))
    log.draw(3, log.spare(avoid=avoid))
    log.discard(3, "2b").claim(2, "2b", "2b2b").discard(2, "3b")
    log.draw(3, log.spare(avoid=avoid))
    log.discard(3, "6c").claim(2, "6c", "6c6c").discard(2, "9b")
    for seat in (3, 4, 1):
        log.draw_discard(seat, log.spare(avoid=avoid))
    log.draw(2, "2b")
    log.move("2b", "rack:2", "melds:2")
    log.draw(2, log.spare(avoid=avoid))
    log.discard(2, "1d")
    for seat in (3, 4, 1):
        log.draw_discard(seat, log.spare(avoid=avoid))
    log.draw(2, "6c")
    log.move("6c", "rack:2", "melds:2")
    log.declare(1, "mahjong").move("6c", "melds:2", "rack:1")
    state, outcomes = replay(log.events)
    assert all(o.accepted for o in outcomes), [o.violation for o in outcomes if not o.accepted]
    result = state.hand.result
    assert result.winner == 1 and result.win_source == "robbed_kong" and result.discarder == 2
    melds = result.details["2"]["melds"]
    assert [(m["kind"], m["tiles"]) for m in melds] == [
        ("kong", ["2b", "2b", "2b", "2b"]), ("pung", ["6c", "6c", "6c"])], melds


@pytest.mark.parametrize(("dead", "winner"), [(1, 2), (2, 3)])
def test_a_dead_east_or_south_scores_nothing(dead: int, winner: int) -> None:
    """RULES.md section 4: a dead hand scores nothing. East dealt 13 tiles (it needs 14) or
    south dealt 12 is dead at east's first discard (``wrong_count = dead_hand``); the other
    of south and west holds 2c3c4c 5c6c7c 2d3d4d 5d6d7d 9d and wins on east's first discard,
    the 9d: an earthly hand, half the limit (250, RULES.md section 6). The dead seat's score
    is 0 and its record has none; the two others hold nothing that scores."""
    east = "1b 4b 7b 1c 9c 1d 4d ew sw ww nw rd gd 9d"
    junk = ("2b 5b 8b 8c 8d ew sw ww nw rd gd 7c 7d", "2b 3b 5b 6b 8b 9b 1c 4c 9c 1d 4d rd gd")
    waiting = "2c3c4c 5c6c7c 2d3d4d 5d6d7d 9d"
    if dead == 1:  # east short of its gd
        deal = {1: east.replace("gd ", ""), 2: waiting, 3: junk[0], 4: junk[1]}
    else:  # south short of its gd
        deal = {1: east, 2: junk[1].removesuffix(" gd"), 3: waiting, 4: junk[0]}
    log = Log("hua-bao", {"wrong_count": "dead_hand"}).deal(deal)
    log.discard(1, "9d").declare(winner, "mahjong").move("9d", "discard", f"rack:{winner}")
    state, outcomes = replay(log.events)
    assert [o.violation.rule for o in outcomes if o.violation] == ["wrong_tile_count"]
    result = state.hand.result
    assert state.hand.seat(dead).dead
    expected = [0, 0, 0, 0]
    expected[winner - 1] = 250
    assert result.winner == winner and result.scores == tuple(expected)
    assert result.details[str(dead)]["score"] is None


def test_riichi_robbing_a_kong_is_paid_by_the_kongs_owner_alone() -> None:
    """test_riichi_calls_kongs._to_added_kong: west robs east's added kong of 7d (chankan).
    docs/game.md: the owner of the robbed kong is the discarder; RULES.md section 11: a ron is
    paid by the discarder alone. East pays west the whole win; south and north pay nothing."""
    from tests.game.test_riichi_calls_kongs import _to_added_kong
    log = _to_added_kong("ew").declare(3, "mahjong").move("7d", "melds:1", "rack:3")
    state, outcomes = replay(log.events)
    assert all(o.accepted for o in outcomes), [o.violation for o in outcomes if not o.accepted]
    record = state.hands[-1]
    assert record.winner == 3 and record.win_source == "robbed_kong" and record.discarder == 1
    east, south, west, north = record.net
    assert south == 0 and north == 0 and west > 0 and east == -west


def test_three_rons_abort_with_the_pad_empty() -> None:
    """test_riichi_abortive._three_rons: three rons on north's nw end the hand as an abortive
    draw (``abortive_draws`` on). East has taken the nw into its rack, so the pad is empty in
    the game's eyes as on the table (test_end_hand_tiles.py's rule)."""
    from tests.game.test_riichi_abortive import ON, _three_rons
    state, outcomes = replay(_three_rons(ON).events)
    assert outcomes[-1].accepted, outcomes[-1].violation
    assert state.hands[-1].result == "washout"
    assert state.hand.discard is None
    assert public_view(state)["hand"]["discard"] is None


def test_a_losers_declared_concealed_kong_scores_as_concealed() -> None:
    """RULES.md section 6: a kong of terminals scores 16 exposed and 32 concealed; a declared
    concealed kong stays concealed (section 4). East lays out a concealed kong of 1b in the
    deal, draws its replacement (the 6c) and throws the 9d; south (2c3c4c 5c6c7c 2d3d4d 5d6d7d
    9d) wins on it. East's 4b 7b 1d 4d ew sw ww nw 3c 6c hold no pair and no set: 32 in all."""
    log = Log()
    log.reserve("6c")
    log.deal({1: "1b1b1b1b 4b 7b 1d 4d ew sw ww nw 9d 3c", 2: JUNK[2], 3: JUNK[3],
              4: JUNK[4]})
    for _ in range(4):
        log.move("1b", "rack:1", "melds:1")
    log.draw(1, "6c")
    log.discard(1, "9d").declare(2, "mahjong").move("9d", "discard", "rack:2")
    state, outcomes = replay(log.events)
    assert all(o.accepted for o in outcomes), [o.violation for o in outcomes if not o.accepted]
    result = state.hand.result
    assert result.winner == 2
    assert result.details["1"]["melds"][0]["tiles"] == ["1b", "1b", "1b", "1b"]
    assert result.scores[0] == 32


def test_a_furiten_seat_may_still_win_on_its_own_draw() -> None:
    """RULES.md section 11: furiten forbids a win on a discard or a robbed kong, not on the
    seat's own draw. West (1b2b3b 4b5b6b 7b8b9b 5d6d gdgd, waiting on 4d/7d: ittsu) throws a 7d,
    its own wait (furiten for good); a go-around later it draws the 4d and declares Mahjong:
    a self-drawn win (win source wall), accepted."""
    from tests.game.test_riichi_rules import _log
    log = _log(west="1b2b3b 4b5b6b 7b8b9b 5d6d gdgd")
    log.discard(1, "nw")
    log.draw(2, "1c")
    log.discard(2, "1c")
    log.draw(3, "7d")
    log.discard(3, "7d")
    for seat in (4, 1, 2):
        log.draw_discard(seat, log.spare(avoid=["4d", "7d"]))
    log.draw(3, "4d")
    state, outcomes = replay(log.declare(3, "mahjong").events)
    assert all(o.accepted for o in outcomes), [o.violation for o in outcomes if not o.accepted]
    assert state.hands[-1].winner == 3 and state.hands[-1].win_source == "wall"


def test_mcr_a_win_on_a_flowers_replacement_is_self_drawn() -> None:
    """docs/scoring.md (mcr, the Green Book): Out with Replacement Tile is a kong's replacement
    only; a bonus tile's replacement is Self-Drawn, and the game passes it as ``wall``. mcr:
    south chows east's 3b (1b 2b) and throws the 9b, holding 1c2c3c 1d2d3d 5c5c ewew; on its
    next turn it draws the 2f, lays it on its strip, draws the 5c as the replacement and goes
    Mahjong: the record's win source is ``wall`` and the fans count Self-Drawn."""
    log = Log("mcr")
    log.reserve("2f 5c")
    log.deal({1: "1b 4b 7b 1c 6c 1d 4d ew sw ww nw rd gd 3b",
              2: "1b 2b 1c2c3c 1d2d3d 5c5c ewew 9b",
              3: "2b 5b 8b 8c 8d ew sw ww nw rd gd wd wd",
              4: "2b 3b 5b 6b 8b 9b 1c 4c 9c 1d 4d wd wd"})
    log.discard(1, "3b").claim(2, "3b", "1b2b").discard(2, "9b")
    for seat in (3, 4, 1):
        log.draw_discard(seat, log.spare(avoid=["5c", "ew"]))
    log.draw(2, "2f")
    log.move("2f", "rack:2", "melds:2")
    log.draw(2, "5c")
    state, outcomes = replay(log.declare(2, "mahjong").events)
    assert all(o.accepted for o in outcomes), [o.violation for o in outcomes if not o.accepted]
    result = state.hand.result
    assert result.winner == 2 and result.win_source == "wall"
    names = [i["name"] for i in result.details["2"]["score"]["items"]]
    assert "Self-Drawn" in names and "Out with Replacement Tile" not in names, names
