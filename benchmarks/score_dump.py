"""The byte-identity harness for the scorer: every answer of ``score --jsonl`` (and of
arrangements() and waits()) for many deterministic hands of every rule set, dumped and compared.

Run by hand, once on the code to keep (any checkout: ``--src``), then after each change:

    python benchmarks/score_dump.py --src /tmp/orig --out /work/wt/_notes/speed_dump_before.jsonl.gz
    python benchmarks/score_dump.py --compare /work/wt/_notes/speed_dump_before.jsonl.gz

The hands come from hands.py (no project import), fed to ``python -m controller score --jsonl -``
run from ``--src`` (default: this checkout) as a user would; a second process prints, for each
hand of each rule set, its arrangements (a complete hand) or its waits (one tile short).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hands import RULESETS, hands  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

# Run inside --src: arrangements or waits of each input line, one JSON line each.
_SHAPES = r"""
import json, sys
from controller.scoring import arrangements, get_ruleset, is_complete, waits
from controller.tiles import Meld
for line in sys.stdin:
    o = json.loads(line)
    try:
        rs = get_ruleset(o["ruleset"])
        melds = [Meld(tuple(m["tiles"]), m["concealed"]) for m in o["melds"]]
        if o["mahjong"]:
            out = [[[list(g) for g in groups], name]
                   for groups, name in arrangements(o["hand"], melds, rs)]
            out = [is_complete(o["hand"], melds, rs), out]
        else:
            out = waits(o["hand"], melds, rs)
    except Exception as exc:
        out = {"error": type(exc).__name__ + ": " + str(exc)}
    print(json.dumps(out))
"""


def _run(src: Path, args: list[str], lines: str) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"}
    done = subprocess.run([sys.executable, *args], input=lines, capture_output=True, text=True,
                          env=env, cwd=src, check=False)
    if done.returncode != 0:
        sys.exit(f"{args} failed ({done.returncode}): {done.stderr[-2000:]}")
    return done.stdout.splitlines()


def dump(src: Path, n: int, seed: int, rulesets: tuple[str, ...] = RULESETS) -> list[str]:
    """Per input line: the input, the ``score --jsonl`` answer, the shapes answer."""
    inputs = [json.dumps(h) for h in hands(n * len(rulesets), seed, rulesets)]
    text = "\n".join(inputs) + "\n"
    t = time.process_time()
    scored = _run(src, ["-m", "controller", "score", "--jsonl", "-"], text)
    shapes = _run(src, ["-c", _SHAPES], text)
    print(f"{len(inputs)} hands scored ({time.process_time() - t:.1f} s CPU of this process)",
          file=sys.stderr)
    if not len(scored) == len(shapes) == len(inputs):
        sys.exit(f"line counts differ: {len(inputs)} in, {len(scored)} scored, {len(shapes)}")
    return [f"{i}\t{a}\t{s}" for i, a, s in zip(inputs, scored, shapes, strict=True)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", type=Path, default=ROOT, help="the project checkout to run")
    ap.add_argument("--hands", type=int, default=15000,
                    help="hands per rule set (5 rule sets: 75,000 hands by default)")
    ap.add_argument("--seed", type=int, default=27)
    ap.add_argument("--out", type=Path, help="write the dump here (.gz)")
    ap.add_argument("--compare", type=Path, help="compare with this dump, line by line")
    a = ap.parse_args()
    lines = dump(a.src.resolve(), a.hands, a.seed)
    if a.out:
        with gzip.open(a.out, "wt", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        print(f"wrote {len(lines)} lines to {a.out}")
    if a.compare:
        with gzip.open(a.compare, "rt", encoding="utf-8") as f:
            before = f.read().splitlines()
        differ = [i for i, (x, y) in enumerate(zip(before, lines, strict=False)) if x != y]
        if len(before) != len(lines) or differ:
            print(f"DIFFERENT: {len(differ)} of {len(lines)} lines ({len(before)} in the dump)")
            for i in differ[:3]:
                print(f"line {i + 1}\n  before: {before[i][:600]}\n  now:    {lines[i][:600]}")
            return 1
        print(f"identical: {len(lines)} lines, every answer byte for byte")
    return 0


if __name__ == "__main__":
    sys.exit(main())
