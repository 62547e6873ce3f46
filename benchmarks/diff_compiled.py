"""The differential check of the optional compiled mcr scorer (issue 27): the same random hands
of every rule set through the pure-Python modules and through the compiled ones, every answer
compared byte for byte (``score --jsonl`` and arrangements()/waits(), as score_dump.py does).

Run by hand (never in CI), after ``.venv/bin/python scripts/build_compiled.py``:

    .venv/bin/python benchmarks/diff_compiled.py [--hands 20000] [--seed 2027]

``--hands`` per rule set: 5 rule sets, 100,000 hands by default (``--rulesets mcr --hands
100000``: 100,000 mcr hands), made by hands.py (winners of
every shape and source, hands one tile short, losers, bonus tiles, flags, bad inputs) from a
seed other than the byte-identity dump's. Exit status 1 when any answer differs.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hands import RULESETS  # noqa: E402
from score_dump import ROOT, dump  # noqa: E402

_WHICH = ("import controller.scoring.mcr as m\nfrom controller.scoring.mcr import scorer\n"
          "print(m.COMPILED, scorer.__file__.endswith('.py'))")


def _path_in_use(pure: bool) -> tuple[bool, bool]:
    """(COMPILED, scorer loaded from a .py) in a process with or without MAHJONG_TABLE_PURE."""
    env = {k: v for k, v in os.environ.items() if k != "MAHJONG_TABLE_PURE"}
    if pure:
        env["MAHJONG_TABLE_PURE"] = "1"
    out = subprocess.run([sys.executable, "-c", _WHICH], capture_output=True, text=True,
                         env=env, cwd=ROOT, check=True).stdout.split()
    return out[0] == "True", out[1] == "True"


def _answers(pure: bool, n: int, seed: int, rulesets: tuple[str, ...]) -> list[str]:
    os.environ.pop("MAHJONG_TABLE_PURE", None)
    if pure:
        os.environ["MAHJONG_TABLE_PURE"] = "1"
    try:
        return dump(ROOT, n, seed, rulesets)
    finally:
        os.environ.pop("MAHJONG_TABLE_PURE", None)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=20000, help="hands per rule set (5 rule sets)")
    ap.add_argument("--seed", type=int, default=2027)
    ap.add_argument("--rulesets", default=",".join(RULESETS),
                    help="comma-separated (default every one; only mcr is compiled)")
    a = ap.parse_args()
    if _path_in_use(pure=False) != (True, False):
        print("the compiled mcr modules are not in use: build them first with "
              ".venv/bin/python scripts/build_compiled.py (and check MAHJONG_TABLE_PURE is unset)")
        return 2
    if _path_in_use(pure=True) != (False, True):
        print("MAHJONG_TABLE_PURE=1 did not keep the pure-Python modules: nothing to compare")
        return 2
    rulesets = tuple(a.rulesets.split(","))
    pure = _answers(True, a.hands, a.seed, rulesets)
    compiled = _answers(False, a.hands, a.seed, rulesets)
    differ = [i for i, (x, y) in enumerate(zip(pure, compiled, strict=True)) if x != y]
    kinds = Counter(json.loads(line.split("\t", 1)[0])["ruleset"] for line in pure)
    print(f"{len(pure)} hands ({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))}): "
          "each answer through the pure-Python and the compiled mcr modules")
    if differ:
        print(f"DIFFERENT: {len(differ)} of {len(pure)} answers")
        for i in differ[:5]:
            print(f"line {i + 1}\n  pure:     {pure[i][:600]}\n  compiled: {compiled[i][:600]}")
        return 1
    winners = sum(1 for line in pure if '"mahjong": true' in line.split("\t", 1)[0])
    print(f"identical: all {len(pure)} answers byte for byte ({winners} of the inputs winners)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
