"""Replay cost of refused events: must grow linearly with their number (issue 11).

Run by hand: ``.venv/bin/python benchmarks/bench_refused.py [--sizes 5000,10000,40000]``.

A bot-played hua-bao hand is replayed to its 60th event (mid-hand), then N refused events
follow (a draw out of turn, a Mahjong call with an incomplete hand and a tile from the river to
a meld strip, in turn), as JSON lines through the ``replay`` command's own path
(``parse_lines`` + ``summarize``, the violations listed in the output). Before the fix every
refusal copied the tuple of all earlier violations (quadratic: 40k took 6.9 s, 300k over 120 s).
Times are CPU time of this process; µs/event must stay flat.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.cli.replay_cmd import parse_lines, summarize  # noqa: E402
from controller.players.director import play_session  # noqa: E402

REFUSED = [
    {"move": {"tile": "1b", "from": "wall", "to": "rack:2"}},
    {"declare": {"seat": 3, "call": "mahjong"}},
    {"move": {"tile": "9c", "from": "river", "to": "melds:4"}},
]


def lines(n: int) -> list[str]:
    head = play_session("hua-bao", {}, 1, 3)[:60]
    body = [REFUSED[i % len(REFUSED)] for i in range(n)]
    return [json.dumps(e) for e in head + body]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="5000,10000,20000,40000,300000")
    args = parser.parse_args()
    print(f"{'refused':>8} {'seconds':>8} {'us/event':>9} {'violations':>11}")
    for n in (int(s) for s in args.sizes.split(",")):
        text = lines(n)
        start = time.process_time()
        out = summarize(parse_lines(text))
        spent = time.process_time() - start
        print(f"{n:>8} {spent:>8.2f} {spent / len(text) * 1e6:>9.1f} {len(out['violations']):>11}")


if __name__ == "__main__":
    main()
