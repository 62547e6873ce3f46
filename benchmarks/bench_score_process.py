"""Benchmark: whole ``mahjong-table score`` processes, from the process start to the answer.

Run by hand:  .venv/bin/python benchmarks/bench_score_process.py [--before DIR] [--runs 15]

Rows (CPU time of the child process, user + system, median of the runs, and the wall time):
- one hand of each rule set, ``python -m controller score FILE``: this checkout, and with
  ``--before DIR`` a checkout of older code (``git archive c936721 controller | tar -x -C DIR``)
  run side by side, the runs alternating;
- 2,000 mcr winners (bench_mcr.py's hands) as JSON lines: ``score --jsonl`` against a Python
  script that reads the same lines and calls pymahjonggb (C++) on each, printing its fans as
  JSON (what a user of pymahjonggb would write);
- when the optional compiled mcr modules are built (scripts/build_compiled.py), the mcr rows
  also with ``MAHJONG_TABLE_PURE=1`` (the pure-Python modules), in turn with the others.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ONE = {
    "hua-bao": {"ruleset": "hua-bao", "seat_wind": "south", "prevailing_wind": "east",
                "melds": [{"tiles": ["5b", "5b", "5b"], "concealed": False}],
                "hand": ["1c", "2c", "3c", "wd", "wd", "4d", "5d", "6d", "gd", "gd", "gd"],
                "mahjong": True, "winning_tile": "wd", "win_source": "wall"},
    "mcr": {"ruleset": "mcr", "seat_wind": "south", "prevailing_wind": "east", "melds": [],
            "hand": ["1c", "2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "2d", "2d", "2d",
                     "ew", "ew"],
            "mahjong": True, "winning_tile": "5c", "win_source": "discard"},
}

# A user's script: FORMATS.md JSON lines in, pymahjonggb's fans out as JSON lines.
PYMAHJONGGB_SCRIPT = r'''
import json, sys
from MahjongGB import MahjongFanCalculator
SUIT = {"c": "W", "b": "T", "d": "B"}
HONOUR = {"ew": "F1", "sw": "F2", "ww": "F3", "nw": "F4", "rd": "J1", "gd": "J2", "wd": "J3"}
WIND = {"east": 0, "south": 1, "west": 2, "north": 3}
ORDER = {f"{n}{s}": i for i, (s, n) in enumerate((s, n) for s in "bcd" for n in range(1, 10))}
def code(t):
    return HONOUR.get(t) or SUIT[t[1]] + t[0]
for line in open(sys.argv[1]):
    o = json.loads(line)
    packs = []
    for m in o.get("melds", []):
        t = m["tiles"]
        if len(t) == 4:
            packs.append(("GANG", code(t[0]), 0 if m["concealed"] else 1))
        elif t[0] == t[1]:
            packs.append(("PENG", code(t[0]), 1))
        else:
            packs.append(("CHI", code(sorted(t, key=ORDER.get)[1]), 1))
    hand = list(o["hand"])
    hand.remove(o["winning_tile"])
    src = o["win_source"]
    try:
        fans = MahjongFanCalculator(
            pack=tuple(packs), hand=tuple(code(t) for t in hand), winTile=code(o["winning_tile"]),
            flowerCount=len(o.get("bonus", [])),
            isSelfDrawn=src in ("wall", "replacement", "dealt"),
            is4thTile="last_of_kind" in o.get("flags", []),
            isAboutKong=src in ("replacement", "robbed_kong"), isWallLast=o.get("last_tile", False),
            seatWind=WIND[o["seat_wind"]], prevalentWind=WIND[o["prevailing_wind"]], verbose=True)
        out = {"fans": [[v, n, en] for v, n, _zh, en in fans]}
    except Exception as exc:
        out = {"error": str(exc)}
    print(json.dumps(out))
'''


def _env(src: Path, pyc: bool) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    if pyc:  # as installed: the modules' compiled files are there and used
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _timed(cmd: list[str], src: Path, pyc: bool) -> tuple[float, float]:
    """(CPU seconds of the child, user + system; wall seconds) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run(cmd, cwd=src, env=_env(src, pyc), stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, check=False)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        sys.exit(f"{cmd} failed: {done.stderr.decode()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


Cases = dict[str, tuple[list[str], Path]]


def _rows(runs: int, cases: Cases, pyc: bool) -> dict[str, tuple[float, float]]:
    """Median (CPU, wall) of each command, the commands run in turn ``runs`` times."""
    got: dict[str, list[tuple[float, float]]] = {k: [] for k in cases}
    for _ in range(runs):
        for label, (cmd, src) in cases.items():
            got[label].append(_timed(cmd, src, pyc))
    return {k: (statistics.median(c for c, _ in v), statistics.median(w for _, w in v))
            for k, v in got.items()}


def _mcr_lines(n: int) -> str:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_mcr import make_hands

    out = []
    for h in make_hands(n):
        out.append(json.dumps({
            "ruleset": "mcr", "seat_wind": h.seat_wind, "prevailing_wind": h.prevailing_wind,
            "melds": [{"tiles": list(m.tiles), "concealed": m.concealed} for m in h.melds],
            "hand": list(h.hand), "bonus": list(h.bonus), "mahjong": True,
            "winning_tile": h.winning_tile, "win_source": h.win_source,
            "last_tile": h.last_tile, "flags": list(h.flags)}))
    return "\n".join(out) + "\n"


def _args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", type=Path, help="a checkout of the code to compare with")
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--mcr-hands", type=int, default=2000)
    ap.add_argument("--no-pyc", action="store_true",
                    help="compile every module in every run (PYTHONDONTWRITEBYTECODE=1, as on "
                    "some hosts); by default the compiled files are made first and used, as "
                    "an installed package's are")
    return ap.parse_args()


def _cases(tmp: Path, before: Path | None, n: int) -> Cases:
    py = sys.executable
    cases: Cases = {}
    for name, obj in ONE.items():
        f = tmp / f"{name}.json"
        f.write_text(json.dumps(obj))
        cases[f"one {name} hand, now"] = ([py, "-m", "controller", "score", str(f)], ROOT)
        if before:
            cases[f"one {name} hand, before"] = ([py, "-m", "controller", "score", str(f)],
                                                 before.resolve())
    lines = tmp / "mcr.jsonl"
    lines.write_text(_mcr_lines(n))
    script = tmp / "pymahjonggb_score.py"
    script.write_text(PYMAHJONGGB_SCRIPT)
    cases[f"{n} mcr hands, score --jsonl"] = (
        [py, "-m", "controller", "score", "--jsonl", str(lines)], ROOT)
    cases[f"{n} mcr hands, pymahjonggb script"] = ([py, str(script), str(lines)], ROOT)
    if _compiled():  # the compiled mcr modules are built: the pure ones too, in turn with them
        pure = ["env", "MAHJONG_TABLE_PURE=1", py, "-m", "controller", "score"]
        cases["one mcr hand, now, pure Python"] = ([*pure, str(tmp / "mcr.json")], ROOT)
        cases[f"{n} mcr hands, score --jsonl, pure Python"] = (
            [*pure, "--jsonl", str(lines)], ROOT)
    return cases


def _compiled() -> bool:
    """Whether this checkout's `score` uses the compiled mcr modules (scripts/build_compiled.py)."""
    done = subprocess.run([sys.executable, "-c", "import controller.scoring.mcr as m; "
                           "print(m.COMPILED)"], cwd=ROOT, env=_env(ROOT, True),
                          capture_output=True, text=True, check=True)
    return done.stdout.strip() == "True"


def main() -> int:
    a = _args()
    pyc = not a.no_pyc
    if pyc:
        for src in (ROOT, a.before) if a.before else (ROOT,):
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(src / "controller")],
                           env=_env(src, True), check=True)
    with tempfile.TemporaryDirectory() as tmp:
        cases = _cases(Path(tmp), a.before, a.mcr_hands)
        print(f"median of {a.runs} runs, the commands in turn; CPU = user + system of the "
              f"process; {'compiled files used' if pyc else 'every module compiled every run'}")
        result = _rows(a.runs, cases, pyc)
    for label, (cpu, wall) in result.items():
        print(f"  {label:36} CPU {cpu * 1e3:7.1f} ms   wall {wall * 1e3:7.1f} ms")
    for name in ONE:
        if a.before:
            now, old = result[f"one {name} hand, now"], result[f"one {name} hand, before"]
            print(f"  one {name} hand: {old[0] / now[0]:.2f}x quicker in CPU, "
                  f"{old[1] / now[1]:.2f}x in wall time than before")
    n = a.mcr_hands
    ours = result[f"{n} mcr hands, score --jsonl"]
    theirs = result[f"{n} mcr hands, pymahjonggb script"]
    print(f"  {n} mcr hands: score --jsonl / pymahjonggb script = {ours[0] / theirs[0]:.2f} "
          f"(CPU), {ours[1] / theirs[1]:.2f} (wall)")
    pure = result.get(f"{n} mcr hands, score --jsonl, pure Python")
    if pure:
        print(f"  {n} mcr hands, pure Python: score --jsonl / pymahjonggb script = "
              f"{pure[0] / theirs[0]:.2f} (CPU); compiled {pure[0] / ours[0]:.2f}x quicker")
        one, one_pure = result["one mcr hand, now"], result["one mcr hand, now, pure Python"]
        print(f"  one mcr hand: compiled {one_pure[0] / one[0]:.2f}x quicker in CPU than pure")
    return 0


if __name__ == "__main__":
    sys.exit(main())
