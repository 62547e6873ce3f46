"""`mahjong-table score` starts quickly (issue 27): it loads its own subcommand only, not the
service's modules, and mcr's scorer only for an mcr hand; a batch's answers are those of one
hand at a time."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HUA_BAO = {"ruleset": "hua-bao", "seat_wind": "south", "prevailing_wind": "east",
           "melds": [{"tiles": ["5b", "5b", "5b"], "concealed": False}],
           "hand": ["1c", "2c", "3c", "wd", "wd", "4d", "5d", "6d", "gd", "gd", "gd"],
           "mahjong": True, "winning_tile": "wd", "win_source": "wall"}
MCR = {"ruleset": "mcr", "seat_wind": "south", "prevailing_wind": "east",
       "hand": ["1c", "2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "2d", "2d", "2d",
                "ew", "ew"],
       "mahjong": True, "winning_tile": "5c", "win_source": "discard"}

# Runs the command in a fresh interpreter, then prints which of the named modules it loaded.
_PROBE = """
import json, sys
from controller.cli import main
code = main(sys.argv[2:])
names = json.loads(sys.argv[1])
waits = sys.modules.get("controller.scoring.mcr.waits")
loaded = [n for n in names if n in sys.modules]
if waits is not None and waits._MADE:
    loaded.append("mcr's wait table")
print(json.dumps([code, loaded]), file=sys.stderr)
"""
# shutil (argparse sizes its help with it) loads the compression modules; riichi's scorer and
# settlement are riichi's; mcr's wait table is built for a batch, not for one hand
HEAVY = ["asyncio", "threading", "fastapi", "sqlite3", "controller.cli.serve_cmd",
         "controller.cli.simulate_cmd", "controller.scoring.mcr.scorer", "shutil",
         "controller.scoring.riichi", "controller.scoring.riichi.settle"]


def _run(tmp_path: Path, obj: dict[str, object]) -> tuple[int, list[str], str]:
    f = tmp_path / "hand.json"
    f.write_text(json.dumps(obj))
    done = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(HEAVY), "score", str(f)],
                          capture_output=True, text=True, timeout=120, check=False)
    code, loaded = json.loads(done.stderr.strip().splitlines()[-1])
    return code, loaded, done.stdout


def test_scoring_one_hand_loads_no_service_module(tmp_path: Path) -> None:
    code, loaded, out = _run(tmp_path, HUA_BAO)
    assert code == 0
    assert json.loads(out)["score"] == 44  # FORMATS.md's example answer
    assert loaded == []


def test_an_mcr_hand_loads_the_mcr_scorer_only_then(tmp_path: Path) -> None:
    code, loaded, out = _run(tmp_path, MCR)
    assert code == 0
    # Pure Straight 16, Concealed Hand 2, One Voided Suit 1, Closed Wait 1 (the 5c between
    # 4c and 6c): 20 fans (Green Book)
    assert json.loads(out)["points"] == 20
    assert loaded == ["controller.scoring.mcr.scorer"]


def test_a_batch_answers_as_single_hands_do(tmp_path: Path) -> None:
    """The rule set made once per name and options, the encoder once: each line's answer is
    the one `score` gives that hand alone, options and errors included."""
    lines = [HUA_BAO, {**HUA_BAO, "options": {"limit": 30}}, MCR, HUA_BAO,
             {**HUA_BAO, "options": {"limit": 30}}, {**HUA_BAO, "options": {"limit": -5}},
             {**HUA_BAO, "options": {"limit": 30, "mahjong_bonus": 20}}]
    batch = tmp_path / "batch.jsonl"
    batch.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    cmd = [sys.executable, "-m", "controller", "score"]
    got = subprocess.run([*cmd, "--jsonl", str(batch)], capture_output=True, text=True,
                         timeout=120, check=True).stdout.splitlines()
    one = []
    for i, x in enumerate(lines):
        f = tmp_path / f"{i}.json"
        f.write_text(json.dumps(x))
        done = subprocess.run([*cmd, str(f)], capture_output=True, text=True, timeout=120,
                              check=False)
        one.append(done.stdout.strip() if done.returncode == 0
                   else json.dumps({"error": done.stderr.split("error: ", 1)[1].strip()}))
    assert got == one
    assert json.loads(got[1])["score"] == 30  # the limit option applied (44 over 30)
    assert json.loads(got[6])["score"] == 30
    assert "limit" in json.loads(got[5])["error"]


def test_scoring_in_process_leaves_garbage_collection_as_it_was(tmp_path: Path) -> None:
    """`score` turns collection off while it loads the scorer; a caller in the same process
    (a test, a script calling main) gets it back on, a batch's gc.freeze() undone too."""
    import gc

    from controller.cli import main

    f = tmp_path / "hand.json"
    f.write_text(json.dumps(MCR))
    lines = tmp_path / "hands.jsonl"
    lines.write_text(json.dumps(HUA_BAO) + "\n")
    assert gc.isenabled()
    try:
        assert main(["score", str(f)]) == 0
        assert gc.isenabled()
        assert main(["score", "--jsonl", str(lines)]) == 0
        assert gc.isenabled()
        gc.disable()  # and off stays off
        assert main(["score", str(f)]) == 0
        assert not gc.isenabled()
    finally:
        gc.enable()
        gc.unfreeze()
