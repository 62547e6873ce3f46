"""`mahjong-table simulate`: whole hands through ptys, the bridge, presence and the service."""

import io
import json
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from controller.cli import main
from controller.game.engine import replay
from controller.game.views import replay_summary
from controller.players.director import play_session


def _simulate(tmp_path: Path, capsys: pytest.CaptureFixture[str], seed: int,
              *extra: str) -> dict:
    log = tmp_path / "table.jsonl"
    code = main(["simulate", "--hands", "1", "--seed", str(seed), "--quiet", "--log", str(log),
                 *extra])
    out = capsys.readouterr().out
    assert code == 0
    summary = json.loads(out)
    summary["_log"] = log
    return summary


@pytest.fixture(scope="module")
def hua_bao(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One `simulate` run (hua-bao, seed 13, one hand) for the two tests that read it: its
    summary and the log it wrote (each test played the same hand on its own before). Seed 13's
    hand is won on a discard, as seed 5's was, in 158 events with the table cleared (seed 5:
    202)."""
    log = tmp_path_factory.mktemp("hua-bao") / "table.jsonl"
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["simulate", "--hands", "1", "--seed", "13", "--quiet", "--log", str(log)])
    assert code == 0
    summary: dict[str, Any] = json.loads(out.getvalue())
    summary["_log"] = log
    return summary


def test_the_virtual_table_plays_the_same_game_as_the_director_in_process(
        hua_bao: dict[str, Any]) -> None:
    summary = hua_bao
    assert summary["violations"] == []
    assert summary["link"]["frames"] > 100 and summary["link"]["bad_frames"] == 0
    state = replay(play_session("hua-bao", {}, hands=1, seed=13))[0]
    expected = replay_summary(state)
    assert summary["hands"] == expected["hands"]
    assert summary["totals"] == expected["totals"]
    assert sum(summary["hands"][0]["net"].values()) == 0


def test_the_written_log_replays_to_the_same_hands(
        hua_bao: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    summary = hua_bao
    assert main(["replay", str(summary["_log"])]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["hands"] == summary["hands"]
    assert replayed["totals"] == summary["totals"]


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--hands", "0"], "--hands must be at least 1"),
     (["--noise", "0.9"], "bit-error rate"),
     (["--options", "{\"limit\": "], "--options is not JSON"),
     (["--options", "{\"no_such_option\": 1}"], "no_such_option")],
)
def test_bad_arguments_exit_2_with_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    code = main(["simulate", "--log", str(tmp_path / "x.jsonl"), *args])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1


def test_mcr_on_the_virtual_table_scores_fans_and_replays(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`simulate --ruleset mcr`: a hand won with at least 8 fans through the hardware path;
    the same game as in process; the written log replays to it. Seed 21: won on a discard
    with 10 fans, 206 events with the table cleared (seed 5: won from the wall, 282)."""
    log = tmp_path / "mcr.jsonl"
    code = main(["simulate", "--ruleset", "mcr", "--hands", "1", "--seed", "21", "--quiet",
                 "--log", str(log)])
    out = capsys.readouterr()
    summary = json.loads(out.out)
    # on a failure: the link's counters, the stalls and the warnings say whether the table's
    # pace (a move not registered in time) or the rules made a violation
    why = (summary["link"], summary["stalls"], out.err[-2000:])
    assert code == 0 and summary["violations"] == [] and summary["penalties"] == [], why
    assert summary["stalls"] == 0, why
    expected = replay_summary(replay(play_session("mcr", {}, hands=1, seed=21))[0])
    assert summary["hands"] == expected["hands"] and summary["totals"] == expected["totals"]
    hand = summary["hands"][0]
    assert hand["result"] == "mahjong"
    winner = str(hand["winner"])
    assert hand["scores"][winner] >= 8 and sum(hand["net"].values()) == 0
    assert main(["replay", str(log)]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["hands"] == summary["hands"] and replayed["totals"] == summary["totals"]


@pytest.mark.slow
def test_bmja_plays_on_the_virtual_table_and_its_log_replays(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The rule set bmja through the whole hardware path, as the director plays it alone.
    Seed 19: a ready hand and a win on a discard, so the nets' zero sum is about a payment,
    in 317 events with the table cleared (seed 5: a washout after a ready, 419)."""
    summary = _simulate(tmp_path, capsys, 19, "--ruleset", "bmja")
    assert summary["violations"] == []
    state = replay(play_session("bmja", {}, hands=1, seed=19))[0]
    assert summary["hands"] == replay_summary(state)["hands"]
    assert sum(summary["hands"][0]["net"].values()) == 0
    assert main(["replay", str(summary["_log"])]) == 0
    assert json.loads(capsys.readouterr().out)["hands"] == summary["hands"]
