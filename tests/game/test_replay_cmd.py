"""``mahjong-table replay``: JSON out, exit status 2 with the line number for malformed input."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from controller.cli import main
from tests.game.scenarios import LOGS


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_replays_example_a_from_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["replay", str(LOGS / "example_a.jsonl")], capsys)
    assert code == 0 and err == ""
    summary = json.loads(out)
    assert summary["totals"] == {"1": -144, "2": 176, "3": -40, "4": 8}
    assert summary["state"]["hand_over"] is True and summary["state"]["turn"] is None
    assert summary["hands"][0]["dealer"] == 1 and summary["hands"][0]["prevailing_wind"] == "east"


def test_reads_standard_input(capsys: pytest.CaptureFixture[str],
                              monkeypatch: pytest.MonkeyPatch) -> None:
    text = (LOGS / "washout.jsonl").read_text(encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    code, out, _ = run(["replay", "-"], capsys)
    assert code == 0 and json.loads(out)["hands"][0]["result"] == "washout"


@pytest.mark.parametrize(
    ("line3", "needle"),
    [
        ("{not json", "line 3: malformed JSON"),
        ('{"move": {"tile": "xx", "from": "wall", "to": "rack:1"}}', "line 3: unknown tile code"),
        ('{"move": {"tile": "5b", "from": "wall", "to": "rack:9"}}', "line 3: unknown zone"),
        ('{"declare": {"seat": 5, "call": "claim"}}', "line 3: declare needs a seat"),
        ('{"shout": {}}', "line 3: an event has exactly one of"),
    ],
)
def test_malformed_input_exits_2_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line3: str, needle: str
) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text(
        '{"session": {"ruleset": "hua-bao", "options": {}}}\n'
        '{"move": {"tile": "5b", "from": "wall", "to": "rack:1"}}\n' + line3 + "\n",
        encoding="utf-8",
    )
    code, out, err = run(["replay", str(log)], capsys)
    assert code == 2 and out == ""
    assert needle in err and err.count("\n") == 1


def test_unknown_rule_set_or_option_exits_2(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text('{"session": {"ruleset": "hua-bao", "options": {"colour": 1}}}\n')
    code, _, err = run(["replay", str(log)], capsys)
    assert code == 2 and "line 1:" in err and "colour" in err


def test_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["replay", str(tmp_path / "none.jsonl")], capsys)
    assert code == 2 and "cannot read" in err


def test_blank_lines_keep_line_numbers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "gaps.jsonl"
    log.write_text(
        '{"session": {"ruleset": "hua-bao", "options": {}}}\n\n'
        '{"move": {"tile": "5b", "from": "rack:2", "to": "discard"}}\n',
        encoding="utf-8",
    )
    code, out, _ = run(["replay", str(log)], capsys)
    assert code == 0
    assert [v["line"] for v in json.loads(out)["violations"]] == [3]


def test_a_reader_that_leaves_early_gets_no_traceback(tmp_path: Path) -> None:
    """`replay log | head`: the reader goes away before the answer is written."""
    import subprocess
    import sys

    log = next(LOGS.glob("*.jsonl"))
    proc = subprocess.Popen([sys.executable, "-m", "controller", "replay", str(log)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # nobody reads standard output
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 141
    assert "Traceback" not in err and "BrokenPipe" not in err, err
