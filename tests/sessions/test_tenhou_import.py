"""``mahjong-table import --format tenhou`` (issue 25): tenhou.net/6 logs become the table's own
log and are replayed through the engine. Simulated hanchans go round trip (export, import, export
again: the same log); real Tenhou games (tests/sessions/tenhou_logs/SOURCE.md) are checked against
Tenhou's own results: each winner's han (less the red fives the table does not have) and fu, and
the deltas of every hand that counts no red five."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.game import apply, new_game
from controller.players.director import Director
from controller.sessions import mjai, tenhou
from controller.sessions.kyoku import trace
from controller.sessions.tenhou_import import ImportRefused, convert
from tests.sessions.referee import referee
from tests.sessions.test_riichi_logs import SHORT, hanchan

LOGS = Path(__file__).parent / "tenhou_logs"
REAL = ("ranked_game", "chankan", "complex_nakis_1", "suukantsu_1")


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((LOGS / f"{name}.json").read_text(encoding="utf-8"))
    return data


def round_trip(events: list[dict[str, Any]]) -> None:
    log = json.loads(json.dumps(tenhou.export(trace(events)), ensure_ascii=False))
    imported, differences = convert(log)
    assert differences == []
    again = tenhou.export(trace(imported))
    assert again["log"] == log["log"]


def test_round_trip_of_simulated_hands() -> None:
    round_trip(list(hanchan(*SHORT)))


@pytest.mark.slow
def test_round_trip_of_a_hanchan() -> None:
    round_trip(list(hanchan(1)))


@pytest.mark.slow
def test_round_trip_of_twenty_hanchans() -> None:
    for seed in range(1, 21):
        round_trip(list(hanchan(seed)))


def _han(detail: list[Any]) -> tuple[int, int, int | None]:
    """(han of the yaku and dora, han of the red fives, fu or None) from Tenhou's words."""
    han = red = 0
    for word in detail[4:]:
        m = re.search(r"\((\d+)飜\)", word)
        n = int(m.group(1)) if m else 13
        han += n
        red += n if word.startswith("赤ドラ") else 0
    fu = re.match(r"(\d+)符", detail[3])
    return han, red, int(fu.group(1)) if fu else None


@pytest.mark.parametrize("name", REAL)
def test_real_games_score_as_tenhou_did(name: str) -> None:
    log = load(name)
    events, differences = convert(log)
    kyokus = trace(events).kyokus
    assert len(kyokus) == len(log["log"])
    exact = 0
    for k, entry in zip(kyokus, log["log"], strict=True):
        result = entry[16]
        if result[0] != "和了":
            continue
        wins = {w["pos"] - 1: w for w in k.end["wins"]}
        reds = 0
        for detail in result[2::2]:
            han, red, fu = _han(detail)
            score = wins[detail[0]]["score"]
            assert score["doubles"] == han - red, (name, detail, score)
            if fu is not None and han - red < 5:
                assert score["points"] == fu, (name, detail, score)
            reds += red
        if reds == 0 and len(result) == 3:  # no red five, one winner: Tenhou's deltas
            assert wins[result[2][0]]["deltas"] == dict(zip((1, 2, 3, 4), result[1],
                                                            strict=True))
            exact += 1
    assert len(differences) <= len(log["log"]) - exact


def test_a_game_that_starts_midway_is_refused() -> None:
    with pytest.raises(ImportRefused, match="middle of a game"):
        convert(load("ryukyoku"))


def test_an_abortive_draw_is_refused() -> None:
    log = load("kyushukyuhai")
    entry = log["log"][0]
    entry[0] = [0, 0, 0]  # played as the first hand of the game
    with pytest.raises(ImportRefused, match="abortive draw"):
        convert(log)


def test_a_call_that_does_not_match_is_refused() -> None:
    log = load("suukantsu_1")
    takes = log["log"][0][8]  # the second seat's draws: its first becomes a chi of 1m
    log["log"][0][8] = ["c111213", *takes[1:]]
    with pytest.raises(ImportRefused, match="does not match the discard"):
        convert(log)


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The command in a process of its own (as a user runs it)."""
    return subprocess.run([sys.executable, "-m", "controller", *args], input=stdin,
                          capture_output=True, text=True, timeout=300, check=False)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """The command in this process (cheap): exit status, standard output and error."""
    from controller.cli import main

    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_import_to_stdout_and_into_the_event_log(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tenhou.export(trace(list(hanchan(*SHORT))))
    log["log"] = log["log"][:2]
    src = tmp_path / "game.json"
    src.write_text(json.dumps(log, ensure_ascii=False), encoding="utf-8")
    out = cli("import", "--format", "tenhou", str(src))  # as a user runs it
    assert out.returncode == 0, out.stderr
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    assert lines[0]["session"]["ruleset"] == "riichi"
    table_log = tmp_path / "game.jsonl"
    table_log.write_text(out.stdout, encoding="utf-8")
    code, replayed, _ = run(capsys, "replay", str(table_log))
    assert code == 0 and len(json.loads(replayed)["hands"]) == 2
    db = tmp_path / "events.sqlite"
    code, _, err = run(capsys, "import", "--format", "tenhou", str(src), "--db", str(db))
    assert code == 0 and "session 1" in err, err
    code, again, err = run(capsys, "export", "--db", str(db), "--format", "tenhou")
    assert code == 0, err
    assert json.loads(again)["log"] == json.loads(json.dumps(log))["log"]
    code, _, err = run(capsys, "import", "--format", "tenhou", str(src), "--db", str(db))
    assert code == 0 and "session 2" in err  # a second game: a session of its own


def test_cli_refusals_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    err = ""
    for args in (("import", "--format", "tenhou", str(bad)),
                 ("import", "--format", "tenhou", str(LOGS / "ryukyoku.json")),
                 ("import", "--format", "tenhou", str(LOGS / "ranked_game.json"))):
        code, out, err = run(capsys, *args)
        assert code == 2 and out == ""
        assert len(err.strip().splitlines()) == 1, err
    assert "red fives" in err and "--allow-differences" in err


def test_cli_export_of_another_rule_set_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from controller.store import EventLog

    db = tmp_path / "events.sqlite"
    with EventLog.open(db) as log:
        log.start_session("hua-bao", {}, 0.0)
    for fmt in ("tenhou", "mjai"):
        code, out, err = run(capsys, "export", "--db", str(db), "--format", fmt)
        assert code == 2 and out == ""
        assert err.count("\n") == 1 and "riichi" in err, err
    code, out, err = run(capsys, "export", "--db", str(db), "--format", "jsonl")
    assert code == 0
    assert json.loads(out.splitlines()[0]) == {"session": {"ruleset": "hua-bao", "options": {}}}


@settings(max_examples=2, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(100, 10_000),
       options=st.sampled_from([{"multiple_ron": "head_bump"}, {}]))
def test_any_two_hands_replay_in_riichienv_and_round_trip(seed: int,
                                                          options: dict[str, Any]) -> None:
    """Invariants of any bots' hands under any of these options: riichienv accepts the mjai
    export, and tenhou export -> import -> export is the identity."""
    director = Director("riichi", options, hands=2, seed=seed, careful=False)
    state, events = new_game(), []
    while (event := director.next_action(state)) is not None:
        state = apply(state, event).state
        events.append(event)
    referee(list(mjai.events(trace(events))))
    log = json.loads(json.dumps(tenhou.export(trace(events))))
    imported, differences = convert(log)
    assert not differences or options  # head bump: only the first ron scores at the table
    if not differences:
        assert tenhou.export(trace(imported))["log"] == log["log"]
