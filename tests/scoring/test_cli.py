"""The score and settle commands: FORMATS.md answers, exit status 2 and one error line."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from controller.cli import main
from tests.formats_examples import SCORE_EXAMPLE_A

EXAMPLE_A = SCORE_EXAMPLE_A


def run(argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_score_example_a(monkeypatch: pytest.MonkeyPatch,
                         capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["score", "-"], json.dumps(EXAMPLE_A), monkeypatch, capsys)
    answer = json.loads(out)
    assert code == 0
    assert (answer["points"], answer["doubles"], answer["score"]) == (22, 1, 44)
    assert answer["limit_hand"] is None
    assert {"name": "pung of dragons", "tiles": ["gd", "gd", "gd"], "doubles": 1} in answer["items"]
    assert answer["arrangement"][-1] == ["ew", "ew"]


#: FORMATS.md's `score` input example, verbatim: a shape, not a hand to score (docs/scoring.md,
#: reading 23): hua-bao without bonus tiles, and 5 concealed tiles beside 2 melds.
FORMATS_INPUT = """{
  "ruleset": "hua-bao",
  "options": {"mahjong_bonus": 10, "limit": 500},
  "seat_wind": "south",
  "prevailing_wind": "east",
  "melds": [
    {"tiles": ["5b", "5b", "5b"], "concealed": false},
    {"tiles": ["gd", "gd", "gd", "gd"], "concealed": true}
  ],
  "hand": ["1c", "2c", "3c", "wd", "wd"],
  "bonus": ["2s"],
  "mahjong": true,
  "winning_tile": "wd",
  "win_source": "wall",
  "last_tile": false,
  "first_discard": false,
  "flags": []
}"""


def test_the_formats_input_example_is_refused_with_one_line_naming_the_first_problem(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["score", "-"], FORMATS_INPUT, monkeypatch, capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "bonus tile 2s in rule set hua-bao played without bonus tiles" in err
    with_bonus = json.loads(FORMATS_INPUT)
    with_bonus["options"]["bonus_tiles"] = True
    code, out, err = run(["score", "-"], json.dumps(with_bonus), monkeypatch, capsys)
    assert code == 2 and "holds 5 concealed tiles; with 2 melds it must hold 8" in err


def test_score_reads_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(EXAMPLE_A))
    code, out, _ = run(["score", str(path)], "", monkeypatch, capsys)
    assert code == 0 and json.loads(out)["score"] == 44


def _with(**changes: Any) -> str:
    obj = dict(EXAMPLE_A)
    obj.update(changes)
    return json.dumps(obj)


BAD = [
    ("{not json", "malformed JSON"),
    (_with(ruleset="mahjongg"), "unknown rule set 'mahjongg'"),
    (_with(options={"limitt": 1}), "unknown option 'limitt'"),
    (_with(seat_wind="up"), "seat_wind 'up'"),
    (_with(hand=["gd", "gd", "gd", "1c", "2c", "3c", "ew", "nw"]), "not complete"),
    (_with(hand=["gd", "gd", "gd", "1c", "2c", "3c", "ew"]), "holds 7 concealed tiles"),
    (_with(hand=["gd", "gd", "gd", "1c", "2c", "3c", "ew", "xx"]), "'xx'"),
    (_with(melds=[{"tiles": ["5b", "6b", "8b"], "concealed": False},
                  {"tiles": ["gd", "gd", "gd"], "concealed": False}]), "meld 5b6b8b is not a set"),
    (_with(melds=[{"tiles": ["5b", "5b", "5b"], "concealed": True},
                  {"tiles": ["4d", "5d", "6d"], "concealed": False}]), "not a kong"),
    (_with(melds=[{"tiles": ["gd", "gd", "gd"], "concealed": False},
                  {"tiles": ["4d", "5d", "6d"], "concealed": False}]), "6 copies of gd"),
    (_with(bonus=["2s"]), "bonus tile 2s"),
    (_with(win_source="sky"), "win_source 'sky'"),
    (_with(winning_tile="9c"), "winning_tile 9c"),
    (_with(flags=["lucky"]), "unknown flag 'lucky'"),
    (_with(colour="red"), "unknown field 'colour'"),
    (_with(mahjong="yes"), "field 'mahjong'"),
]


@pytest.mark.parametrize(("text", "message"), BAD, ids=[m for _, m in BAD])
def test_score_errors_are_one_line(text: str, message: str, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["score", "-"], text, monkeypatch, capsys)
    assert code == 2 and out == ""
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_jsonl_answers_every_line(monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    lines = [json.dumps(EXAMPLE_A), "{bad", _with(ruleset="nope"), json.dumps(EXAMPLE_A)]
    code, out, _ = run(["score", "--jsonl", "-"], "\n".join(lines), monkeypatch, capsys)
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(answers) == 4
    assert answers[0]["score"] == 44 and answers[3]["score"] == 44
    assert "malformed JSON" in answers[1]["error"] and "nope" in answers[2]["error"]


def test_jsonl_unreadable_file_fails(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["score", "--jsonl", "/nonexistent/hands.jsonl"], "", monkeypatch, capsys)
    assert code == 2 and "cannot read" in err


def test_people_form_prints_a_table(monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["score", "--hand", "[5b5b5b] [4d5d6d] gdgdgd 1c2c3c ewew", "--ruleset", "hua-bao",
            "--seat", "south", "--prevailing", "east", "--won", "wall", "--winning-tile", "3c"]
    code, out, _ = run(argv, "", monkeypatch, capsys)
    assert code == 0
    assert "score 44" in out and "\U0001f005" in out  # the green dragon's glyph
    assert "pung of dragons" in out


def test_people_form_errors(monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["score", "--hand", "[5b5b6b] 1c", "--won", "wall"], "", monkeypatch, capsys)
    assert code == 2 and "5b5b6b" in err
    code, _, err = run(["score", "--hand", "1c1c", "--option", "x=1"], "", monkeypatch, capsys)
    assert code == 2 and "unknown option 'x'" in err


def test_settle_example_a(monkeypatch: pytest.MonkeyPatch,
                          capsys: pytest.CaptureFixture[str]) -> None:
    obj = {"ruleset": "hua-bao", "options": {}, "dealer": "east", "winner": "south",
           "scores": {"east": 0, "south": 44, "west": 8, "north": 20}}
    code, out, _ = run(["settle", "-"], json.dumps(obj), monkeypatch, capsys)
    answer = json.loads(out)
    assert code == 0
    assert answer["net"] == {"east": -144, "south": 176, "west": -40, "north": 8}
    assert {"from": "east", "to": "south", "amount": 88} in answer["payments"]


@pytest.mark.parametrize(("obj", "message"), [
    ({"ruleset": "hua-bao", "dealer": "east", "scores": {}}, "'winner' is missing"),
    ({"ruleset": "hua-bao", "dealer": "east", "winner": "south", "scores": {"east": 1}},
     "four players"),
    ({"ruleset": "swedish", "options": {"bonus": 1}, "dealer": "east", "winner": None,
      "scores": {}}, "unknown option 'bonus'"),
])
def test_settle_errors(obj: dict[str, Any], message: str, monkeypatch: pytest.MonkeyPatch,
                       capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["settle", "-"], json.dumps(obj), monkeypatch, capsys)
    assert code == 2 and message in err and err.count("\n") == 1


def test_installed_command_exit_status() -> None:
    proc = subprocess.run([sys.executable, "-m", "controller", "score", "-"], input="[1, 2",
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.startswith("mahjong-table score: error: malformed JSON")
    assert proc.stderr.count("\n") == 1
