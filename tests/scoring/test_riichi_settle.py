"""riichi's settle (FORMATS.md, RULES.md section 11 "Payments"), and the score and settle
commands for riichi. Amounts are worked out in the comments from the rule book."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_mcr import _run

from controller.scoring import ScoringError
from controller.scoring.jsonio import settle_json

SEATS = ("east", "south", "west", "north")


def settle(**kw: Any) -> tuple[list[tuple[str, str, int]], dict[str, int]]:
    obj = {"ruleset": "riichi", "options": {}, "dealer": "east", "discarder": None,
           "winners": [], "honba": 0, "riichi_sticks": 0, "riichi": [], "tenpai": []} | kw
    s = settle_json(obj)
    return s.payments, s.net


def w(seat: str, han: int = 0, fu: int = 0, limit: str | None = None, **kw: Any) -> dict[str, Any]:
    return {"seat": seat, "doubles": han, "points": fu, "limit_hand": limit, "pao": None} | kw


def test_the_formats_example() -> None:
    # 3 han 40 fu: base 1280, a non-dealer's ron 5120 -> 5200, + 300 for the honba; the two
    # deposits go to the winner from the table
    payments, net = settle(discarder="west", winners=[w("south", 3, 40)], honba=1,
                           riichi_sticks=2, riichi=["south"])
    assert payments == [("west", "south", 5500), ("table", "south", 2000)]
    assert net == {"east": 0, "south": 7500, "west": -5500, "north": 0}
    assert sum(net.values()) == 2000  # 1,000 x the sticks taken


def test_a_dealers_tsumo_with_honba() -> None:
    # 4 han 30 fu: base 1920, 2 x base = 3840 -> 3900 from each, + 100 per honba each
    payments, net = settle(winners=[w("east", 4, 30)], honba=2)
    assert sorted(payments) == [("north", "east", 4100), ("south", "east", 4100),
                                ("west", "east", 4100)]
    assert net["east"] == 12300 and sum(net.values()) == 0


def test_a_non_dealers_tsumo() -> None:
    # mangan: the dealer 4000, the others 2000, + 100 honba each
    _, net = settle(winners=[w("west", 5, 30, "mangan")], honba=1)
    assert net == {"east": -4100, "south": -2100, "west": 8300, "north": -2100}


def test_pao_on_a_tsumo_pays_the_whole_value() -> None:
    # a non-dealer's yakuman tsumo 16000 + 8000 + 8000, honba 300: all from the liable seat
    payments, net = settle(winners=[w("north", 13, 30, "yakuman", pao="west")], honba=1)
    assert payments == [("west", "north", 32300)]
    assert net["north"] == 32300 and net["east"] == 0


def test_pao_on_a_ron_pays_half() -> None:
    # a non-dealer's yakuman ron 32000: half from the liable seat, half and the honba from
    # the discarder
    payments, _ = settle(discarder="south", winners=[w("north", 13, 30, "yakuman",
                                                       pao="west")], honba=2)
    assert payments == [("west", "north", 16000), ("south", "north", 16600)]


def test_several_rons_and_the_deposits() -> None:
    # north discards; east (dealer, 2 han 30 fu: 480 x 6 = 2880 -> 2900) and west (1 han
    # 30 fu: 960 -> 1000) win, each with the honba (300). Three sticks: east and west take
    # back their own, the third goes to east, first in turn order from north.
    payments, net = settle(discarder="north", winners=[w("west", 1, 30), w("east", 2, 30)],
                           honba=1, riichi_sticks=3, riichi=["west", "east"])
    assert ("north", "east", 3200) in payments and ("north", "west", 1300) in payments
    assert ("table", "east", 2000) in payments and ("table", "west", 1000) in payments
    assert net == {"east": 5200, "south": 0, "west": 2300, "north": -4500}


@pytest.mark.parametrize(("tenpai", "net"), [
    (["south"], {"east": -1000, "south": 3000, "west": -1000, "north": -1000}),
    (["south", "north"], {"east": -1500, "south": 1500, "west": -1500, "north": 1500}),
    (["east", "south", "west"], {"east": 1000, "south": 1000, "west": 1000, "north": -3000}),
    ([], dict.fromkeys(SEATS, 0)),
    (list(SEATS), dict.fromkeys(SEATS, 0)),
])
def test_the_tenpai_payments_of_an_exhaustive_draw(tenpai: list[str],
                                                    net: dict[str, int]) -> None:
    payments, got = settle(tenpai=tenpai, riichi_sticks=2, honba=3)
    assert got == net
    assert all(a != "table" for a, _, _ in payments)  # the deposits stay on the table


def test_nagashi_mangan_needs_its_option_and_is_a_mangan_tsumo_without_honba() -> None:
    winner = w("east", limit="mangan", nagashi=True)
    with pytest.raises(ScoringError, match="nagashi_mangan"):
        settle(winners=[winner])
    _, net = settle(winners=[winner], honba=2, riichi_sticks=1,
                    options={"nagashi_mangan": True})
    assert net == {"east": 12000, "south": -4000, "west": -4000, "north": -4000}


@pytest.mark.parametrize(("kw", "message"), [
    ({"winners": [w("south", 5, 30)]}, "must say \"mangan\""),
    ({"winners": [w("south", 4, 40)]}, "must say \"mangan\""),
    ({"winners": [w("south", 2, 30), w("west", 1, 30)]}, "one winner"),
    ({"discarder": "north", "winners": [w("south", 2, 30), w("west", 1, 30)],
      "options": {"multiple_ron": "head_bump"}}, "head_bump"),
    ({"discarder": "south", "winners": [w("south", 2, 30)]}, "never the discarder"),
    ({"winners": [w("sud", 2, 30)]}, "not a seat"),
    ({"winners": [w("south", 2, 30, "mangan-ish")]}, "limit_hand"),
    ({"winners": [w("south", 0, 30)]}, "doubles"),
    ({"riichi_sticks": 0, "riichi": ["east"], "winners": [w("south", 2, 30)]}, "riichi_sticks"),
    ({"scores": {}}, "unknown field 'scores'"),
])
def test_settle_errors_are_one_line(kw: dict[str, Any], message: str) -> None:
    with pytest.raises(ScoringError, match=message) as exc:
        settle(**kw)
    assert "\n" not in str(exc.value)


def test_the_commands(monkeypatch: pytest.MonkeyPatch,
                      capsys: pytest.CaptureFixture[str]) -> None:
    hand = {"ruleset": "riichi", "seat_wind": "south", "prevailing_wind": "east",
            "melds": [], "hand": "2c 3c 4c 7c 8c 9c 1d 2d 3d 6d 6d 4d 5d 6d".split(),
            "mahjong": True, "winning_tile": "6d", "win_source": "wall", "flags": ["riichi"],
            "dora_indicators": ["5d"], "ura_dora_indicators": ["1b"], "honba": 1}
    code, out, _ = _run(["score", "-"], json.dumps(hand), monkeypatch, capsys)
    answer = json.loads(out)
    # riichi, menzen tsumo, pinfu, dora 6d x3: 6 han, haneman: 6000 + 3000 x 2
    assert code == 0 and (answer["doubles"], answer["points"]) == (6, 20)
    assert (answer["score"], answer["limit_hand"]) == (12000, "haneman")
    assert answer["payments"] == {"dealer": 6100, "each_other": 3100}
    no_yaku = hand | {"flags": [], "win_source": "discard", "ura_dora_indicators": []}
    no_yaku["hand"] = "2c 2c 2c 5d 5d 5d 3c 4c 5c 9d 9d 7b 7b 7b".split()
    no_yaku["winning_tile"] = "7b"
    code, out, err = _run(["score", "--jsonl", "-"], f"{json.dumps(hand)}\n"
                          f"{json.dumps(no_yaku)}\n", monkeypatch, capsys)
    lines = [json.loads(x) for x in out.splitlines()]
    assert lines[0]["score"] == 12000 and lines[1]["error"].startswith("no yaku")
    code, _, err = _run(["score", "-"], json.dumps(no_yaku), monkeypatch, capsys)
    assert code == 2 and "no yaku" in err and len(err.strip().splitlines()) == 1
    settle_in = {"ruleset": "riichi", "dealer": "east", "discarder": None,
                 "winners": [{"seat": "south", "doubles": answer["doubles"],
                              "points": answer["points"], "limit_hand": answer["limit_hand"],
                              "pao": None}], "honba": 1, "riichi_sticks": 1, "riichi": ["south"]}
    code, out, _ = _run(["settle", "-"], json.dumps(settle_in), monkeypatch, capsys)
    assert code == 0 and json.loads(out)["net"]["south"] == 12000 + 300 + 1000


def test_score_help_and_the_peoples_form(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["score", "--help"], "", monkeypatch, capsys)  # main returns its 0
    assert code == 0
    from controller.scoring.rulesets import RULESETS

    assert len(RULESETS) >= 6  # RULES.md's six: hua-bao, swedish, dmjl, bmja, mcr, riichi
    for name in RULESETS:
        assert name in " ".join(out.split()), name
    code, out, _ = _run(["score", "--ruleset", "riichi", "--hand",
                         "2c3c4c 7c8c9c 1d2d3d 6d6d 4d5d6d", "--seat", "south", "--won", "wall",
                         "--flag", "riichi", "--dora", "5d", "--honba", "1"], "",
                        monkeypatch, capsys)
    assert code == 0 and "han 6, fu 20: haneman" in out and "score 12000" in out
    code, _, err = _run(["score", "--hand", "2c3c4c", "--dora", "5d"], "", monkeypatch, capsys)
    assert code == 2 and "--ruleset riichi only" in err


LIMITS = (None, "mangan", "haneman", "baiman", "sanbaiman", "yakuman", "double yakuman")


@st.composite
def settle_inputs(draw: st.DrawFn) -> dict[str, Any]:
    """A hand's end: a tsumo, one or several rons, or an exhaustive draw."""
    kind = draw(st.sampled_from(("tsumo", "ron", "draw")))
    seats = list(SEATS)
    riichi = draw(st.lists(st.sampled_from(seats), unique=True))
    out: dict[str, Any] = {"dealer": draw(st.sampled_from(seats)), "honba": draw(
        st.integers(0, 8)), "riichi": riichi, "riichi_sticks": len(riichi) + draw(
        st.integers(0, 3))}
    if kind == "draw":
        return out | {"tenpai": draw(st.lists(st.sampled_from(seats), unique=True))}
    discarder = draw(st.sampled_from(seats)) if kind == "ron" else None
    others = [s for s in seats if s != discarder]
    n = draw(st.integers(1, 3)) if kind == "ron" else 1
    winners = []
    for seat in draw(st.permutations(others))[:n]:
        limit = draw(st.sampled_from(LIMITS))
        han, fu = (draw(st.integers(1, 4)), draw(st.sampled_from((20, 25, 30, 40, 50)))) \
            if limit is None else (5, 30)
        if limit is None and fu * 2 ** (han + 2) > 2000:
            han, fu = 1, 30
        pao = draw(st.sampled_from([None] + [s for s in seats if s != seat])) \
            if limit == "yakuman" else None
        winners.append(w(seat, han, fu, limit, pao=pao))
    return out | {"discarder": discarder, "winners": winners}


@settings(deadline=None)  # a busy machine may take long over one example: no wall clock
@given(settle_inputs())
def test_the_nets_sum_to_the_deposits_taken_and_each_winner_gains(obj: dict[str, Any]) -> None:
    payments, net = settle(**obj)
    taken = sum(n for a, _, n in payments if a == "table")
    assert sum(net.values()) == taken
    assert taken in (0, 1000 * obj["riichi_sticks"])
    assert taken == (1000 * obj["riichi_sticks"] if obj.get("winners") else 0)
    liable = {x["pao"] for x in obj.get("winners", [])}
    for winner in obj.get("winners", []):  # (a winner liable for another's yakuman may lose)
        assert winner["seat"] in liable or net[winner["seat"]] > 0
    assert all(n > 0 and n % 50 == 0 for _, _, n in payments)


def test_the_table_plays_riichi(monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    from controller.scoring import PLAYABLE, RULESETS

    assert "riichi" in RULESETS and "riichi" in PLAYABLE
    log = json.dumps({"session": {"ruleset": "riichi", "options": {}}}) + "\n"
    code, out, _ = _run(["replay", "-"], log, monkeypatch, capsys)
    assert code == 0 and json.loads(out)["hands"] == []
