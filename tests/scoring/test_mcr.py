"""mcr (RULES.md section 10): fans of worked hands, the readings of docs/scoring.md (each
against pymahjonggb, which scores them otherwise), settlement, and the score/settle commands."""

from __future__ import annotations

import io
import json
import sys
from collections import Counter

import pytest
from mcr_oracle import oracle_fans

from controller.cli import main
from controller.scoring import (
    HandInput,
    ScoringError,
    get_ruleset,
    is_complete,
    score_hand,
    settle,
    waits,
)
from controller.tiles import Meld


def hand(tiles: str, melds: tuple[tuple[str, bool], ...] = (), wt: str | None = None,
         src: str = "discard", **kw: object) -> HandInput:
    t = tiles.split()
    return HandInput("mcr", melds=[Meld(tuple(m.split()), c) for m, c in melds], hand=t,
                     mahjong=True, winning_tile=wt or t[-1], win_source=src, **kw)  # type: ignore[arg-type]


def fans(inp: HandInput) -> Counter[str]:
    out: Counter[str] = Counter()
    for item in score_hand(inp).items:
        out[item.name] += item.points
    return out


def test_account_once_mixed_straight_leaves_one_more_chow_fan() -> None:
    # 123b 456c 789d 789b ew-ew: Mixed Straight, and 789b adds one fan only (mixed double
    # chow with 789d or two terminal chows with 123b, not both)
    f = fans(hand("1b 2b 3b 4c 5c 6c 7d 8d 9d 7b 8b 9b ew ew", wt="5c"))
    assert f["Mixed Straight"] == 8
    assert f["Mixed Double Chow"] + f["Two Terminal Chows"] == 1


def test_non_repeat_four_concealed_pungs_not_all_pungs() -> None:
    f = fans(hand("1b 1b 1b 5c 5c 5c 9d 9d 9d rd rd rd ew ew", wt="ew", src="wall"))
    assert f["Four Concealed Pungs"] == 64
    assert "All Pungs" not in f and "Fully Concealed Hand" not in f
    assert f["Self-Drawn"] == 1  # four concealed pungs implies concealment, not the draw


def test_last_of_kind_flag_and_flowers_apart() -> None:
    inp = hand("1b 2b 3b 4c 5c 6c 7d 8d 9d 2b 3b 4b 5d 5d", wt="9d", flags=["last_of_kind"],
               bonus=["1f", "3s"])
    r = score_hand(inp)
    names = [i.name for i in r.items]
    assert "Last Tile" in names and names[-1] == "Flower Tiles"
    assert r.items[-1].points == 2 and r.items[-1].tiles == ("1f", "3s")
    assert r.points == r.score == sum(i.points for i in r.items) == oracle_fans(inp)[0]


def test_every_item_names_its_tiles_and_the_table_value() -> None:
    r = score_hand(hand("1b 2b 3b 4b 5b 6b 7b 8b 9b 2c 3c 4c 5d 5d"))
    assert {(i.name, i.points) for i in r.items} >= {("Pure Straight", 16)}
    assert all(i.tiles for i in r.items)
    assert r.to_json()["doubles"] == 0 and r.to_json()["limit_hand"] is None


def test_not_complete_and_non_winner() -> None:
    with pytest.raises(ScoringError, match="not complete"):
        score_hand(hand("1b 2b 4b 4c 5c 6c 7d 8d 9d 2b 3b 4b 5d 5d"))
    r = score_hand(HandInput("mcr", hand=["1b", "2b"], mahjong=False))
    assert r.score == 0 and r.items == []


# --- readings (docs/scoring.md, "mcr readings"): where pymahjonggb scores otherwise ---------


def test_reading_melded_and_concealed_kong_is_three_fans() -> None:
    inp = hand("4b 3b 5b 7d 7d", melds=(("1d 1d 1d 1d", True), ("7c 8c 9c", False),
                                         ("3d 3d 3d 3d", False)), wt="3b")
    ours = fans(inp)
    assert ours["Melded Kong"] == 1 and ours["Concealed Kong"] == 2
    theirs = oracle_fans(inp)[1]
    assert theirs["Concealed Kong and Melded Kong"] == 5
    assert score_hand(inp).points == oracle_fans(inp)[0] - 2


def test_reading_two_concealed_kongs_is_six() -> None:
    inp = hand("1b 2b 3b 8d 7d 9d 9d 6d", melds=(("4d 4d 4d 4d", True), ("nw nw nw nw", True)),
               wt="9d")
    assert fans(inp)["Two Concealed Kongs"] == 6 == oracle_fans(inp)[1]["Two Concealed Kongs"]


def test_reading_a_kind_held_four_times_is_no_wait() -> None:
    # 1111b 3456789b 999b won on 2b: the only wait (a fifth 1b does not exist): Closed Wait
    inp = hand("1b 1b 1b 1b 3b 4b 5b 6b 7b 8b 9b 9b 9b 2b", wt="2b")
    assert fans(inp)["Closed Wait"] == 1
    assert "Closed Wait" not in oracle_fans(inp)[1]
    assert score_hand(inp).points == oracle_fans(inp)[0] + 1


# --- settlement ----------------------------------------------------------------------------


def test_settle_mcr_discard_and_self_drawn() -> None:
    rs = get_ruleset("mcr")
    scores = {"east": 0, "south": 12, "west": 0, "north": 0}
    s = settle(rs, "east", "south", scores, discarder="west")
    assert s.net == {"east": -8, "south": 36, "west": -20, "north": -8}
    s = settle(rs, "east", "south", scores)
    assert s.net == {"east": -20, "south": 60, "west": -20, "north": -20}
    assert settle(rs, "east", None, scores).net == dict.fromkeys(scores, 0)


def _run(argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch,
         capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_score_and_settle_mcr(monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    obj = {"ruleset": "mcr", "seat_wind": "south", "prevailing_wind": "east",
           "melds": [{"tiles": ["rd", "rd", "rd"], "concealed": False}],
           "hand": ["1b", "2b", "3b", "4c", "5c", "6c", "7d", "8d", "9d", "gd", "gd"],
           "bonus": ["2s"], "mahjong": True, "winning_tile": "gd", "win_source": "discard",
           "flags": ["last_of_kind"]}
    code, out, _ = _run(["score", "-"], json.dumps(obj), monkeypatch, capsys)
    answer = json.loads(out)
    assert code == 0 and answer["doubles"] == 0 and answer["score"] == answer["points"]
    assert answer["points"] == sum(i["points"] for i in answer["items"])
    code, out, _ = _run(["score", "--jsonl", "-"], json.dumps(obj) + "\n{}\n", monkeypatch,
                        capsys)
    lines = [json.loads(x) for x in out.splitlines()]
    assert lines[0]["points"] == answer["points"] and "error" in lines[1]
    settle_in = {"ruleset": "mcr", "dealer": "east", "winner": "south", "discarder": "north",
                 "scores": {"east": 0, "south": answer["points"], "west": 0, "north": 0}}
    code, out, _ = _run(["settle", "-"], json.dumps(settle_in), monkeypatch, capsys)
    net = json.loads(out)["net"]
    assert code == 0 and net["north"] == -(8 + answer["points"]) and net["east"] == -8
    settle_in["discarder"] = "south"
    code, _, err = _run(["settle", "-"], json.dumps(settle_in), monkeypatch, capsys)
    assert code == 2 and "discarder" in err and len(err.strip().splitlines()) == 1


def test_waits_and_completeness_know_mcrs_special_shapes() -> None:
    rs = get_ruleset("mcr")
    knitted = "1b 4b 7b 2c 5c 8c 3d 6d 9d".split()
    # a knitted straight, a chow and a single: waits on the pair
    assert waits([*knitted, "1c", "2c", "3c", "ew"], [], rs) == ["ew"]
    # lesser honours and knitted tiles missing one tile: any honour or knitted tile not held
    honours = waits([*knitted[:8], "ew", "sw", "ww", "rd", "gd"], [], rs)
    assert set(honours) == {"9d", "nw", "wd"}
    assert is_complete([*knitted, "ew", "sw", "ww", "rd", "gd"], [], rs)
    assert not is_complete([*knitted, "ew", "sw", "ww", "rd", "gd"], [],
                           get_ruleset("dmjl"))
    # with one meld: the knitted straight and a pair
    meld = [Meld(("5b", "5b", "5b"), False)]
    assert waits([*knitted, "rd"], meld, rs) == ["rd"]


def test_cli_score_hand_mcr_shows_fans_and_flowers(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["score", "--ruleset", "mcr", "--hand",
                         "[rdrdrd] 1b2b3b 4c5c6c 7d8d9d gdgd 2s", "--won", "discard",
                         "--winning-tile", "gd"], "", monkeypatch, capsys)
    assert code == 0
    assert "Mixed Straight" in out and "fans 11 + flowers 1" in out and "score 12" in out
    assert "doublings" not in out
