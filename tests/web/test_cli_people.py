"""The command line as people meet it: `score --hand` says when --won is missing, `tokens --urls`
prints the seat links (and says when no phone can open them), the start banner names a command
that works outside the venv, and `simulate` prints the same JSON form as `replay`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from controller.cli import command_name, main

WON_HAND = "[5b5b5b] [4d5d6d] gdgdgd 1c2c3c ewew"


def test_score_hand_without_won_hints_at_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--hand", WON_HAND]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "add --won wall|discard" in err
    assert main(["score", "--hand", WON_HAND, "--won", "wall"]) == 0
    assert "--won" not in capsys.readouterr().err
    # A hand that did not win (13 tiles, not complete) gets no hint.
    assert main(["score", "--hand", "[5b5b5b] [4d5d6d] gdgdgd 1c2c ewew"]) == 0
    assert capsys.readouterr().err == ""
    # A winning tile named without --won: scored, with the hint.
    assert main(["score", "--hand", "[5b5b5b] [4d5d6d] gdgdgd 1c2c ewew",
                 "--winning-tile", "ew"]) == 0
    assert "note: without --won" in capsys.readouterr().err


def test_tokens_prints_the_seat_urls(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    assert main(["tokens", "--data-dir", str(data), "--create", "--json"]) == 0
    tokens = json.loads(capsys.readouterr().out)
    assert main(["tokens", "--data-dir", str(data), "--urls", "--port", "9000"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines == [f"seat {p}  http://127.0.0.1:9000/seat/{p}#token={tokens['seats'][str(p)]}"
                     for p in (1, 2, 3, 4)] + [
        f"operator  http://127.0.0.1:9000/operator#token={tokens['admin']}"]
    # issue 24: plain `tokens` prints the operator page's link too (the page's login hint)
    assert main(["tokens", "--data-dir", str(data), "--port", "9000"]) == 0
    assert (f"operator  http://127.0.0.1:9000/operator#token={tokens['admin']}"
            in capsys.readouterr().out.splitlines())
    assert "--host 0.0.0.0" in err and "public_url" in err
    config = tmp_path / "table.toml"
    config.write_text('[server]\npublic_url = "http://pi.local:8080"\n')
    assert main(["tokens", "--data-dir", str(data), "--urls", "--config", str(config)]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0].startswith("seat 1  http://pi.local:8080/seat/1#token=")
    assert err == ""


def test_the_banner_command_works_outside_the_venv() -> None:
    name = command_name()
    first = name.split()[0]
    # Either on PATH, or a path that exists (the venv's script or its Python).
    assert name == "mahjong-table" or Path(first).exists()
    if name != "mahjong-table":
        assert Path(first).is_absolute() and (name.endswith("mahjong-table")
                                              or name.endswith("-m controller"))
    assert sys.executable  # the fallback names this Python


def test_simulate_prints_the_same_json_form_as_replay(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "table.jsonl"
    # seed 13: a hand won on a discard, as seed 3's, in 158 events (seed 3: 234)
    assert main(["simulate", "--hands", "1", "--seed", "13", "--quiet", "--log", str(log)]) == 0
    simulated = capsys.readouterr().out
    assert main(["replay", str(log)]) == 0
    replayed = capsys.readouterr().out
    summary = json.loads(simulated)
    assert set(summary) - set(json.loads(replayed)) == {"link", "unplugs", "stalls"}
    assert summary["stalls"] == 0  # README: 0 on a healthy run
    without = {k: v for k, v in summary.items() if k not in ("link", "unplugs", "stalls")}
    # Same keys in the same order, same layout: one line of JSON each.
    assert simulated.count("\n") == replayed.count("\n") == 1
    assert json.dumps(without, ensure_ascii=False) + "\n" == replayed
