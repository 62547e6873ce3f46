"""The review pages' cost (issue 25, docs/review.md): folding a stored session for review, one
hand's frames for each viewer, the answer's size, and the memory a kept fold holds.

Run by hand: ``.venv/bin/python benchmarks/bench_review.py [--ruleset hua-bao] [--hands 8]``.

A session is played by the bots with the test helper's careless table (refused calls, undos:
``tests/web/review_support.record``), stored in a real SQLite event log, then folded by
``controller.sessions.review.Reviews`` (every stored event through the engine, each step's
states kept) and each hand's frames made by ``controller.web.review.review`` for the public, a
seat and the operator. Times are CPU time of this process (a busy machine distorts them
little); memory is what tracemalloc counts for the fold (the states it keeps).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.sessions.review import Reviews  # noqa: E402
from controller.web.review import Viewer, review  # noqa: E402
from tests.web.review_support import record  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ruleset", default="hua-bao")
    ap.add_argument("--hands", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        sid = record(Path(tmp), args.ruleset, args.hands, args.seed)
        tracemalloc.start()
        t0 = time.process_time()
        fold = Reviews(Path(tmp) / "events.sqlite").session(sid)
        fold_s = time.process_time() - t0
        held = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        assert fold is not None
        steps = sum(len(s) for s in fold.steps.values())
        print(f"{args.ruleset}: {len(fold.hands())} hands, {fold.seq} stored events, "
              f"{steps} steps")
        print(f"fold: {fold_s:.3f} s CPU ({fold_s / max(fold.seq, 1) * 1e3:.3f} ms per "
              f"stored event); the fold holds {held / 1e6:.1f} MB")
        for viewer in (Viewer(), Viewer("seat", 2), Viewer("operator")):
            times, sizes, frames = [], [], 0
            for index in range(1, len(fold.hands()) + 1):
                t0 = time.process_time()
                answer = review(fold, index, viewer)
                times.append(time.process_time() - t0)
                assert answer is not None
                frames += len(answer["frames"])
                sizes.append(len(json.dumps(answer)))
            print(f"{viewer.role:9} frames: {sum(times) / len(times) * 1e3:.0f} ms per hand "
                  f"({sum(times) / frames * 1e3:.2f} ms per frame), answer "
                  f"{sum(sizes) / len(sizes) / 1e3:.0f} KB per hand (JSON, before gzip)")


if __name__ == "__main__":
    main()
