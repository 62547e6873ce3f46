"""Benchmark: the project's mcr scorer against pymahjonggb (C++ through its Python binding),
side by side in one run on the same random complete hands (every shape, melds, kongs, every
win source, flowers, the last_of_kind flag).

Run by hand:  .venv/bin/python benchmarks/bench_mcr.py [--hands 2000] [--rounds 3] [--profile]
Both sides get ready-made inputs (the project's HandInput, pymahjonggb's argument dict), so
the timings are the scorers alone (CPU time), on hands none of which was scored before, each
giving its whole answer (ours: to_json(), every number and item; pymahjonggb: verbose, every
fan named). "empty tables":
every cache and table is cleared before the round (a fresh process); "tables filled": first
as many other hands fill the tables that depend on parts of a hand only (a suit's counts, a
combination of chows or pungs, a meld), then every cache keyed by a whole hand is cleared
(scored hands, splits) and the new hands are timed (a service that has scored a few thousand
hands). "the same hands again" is the memo of scored hands (the game rescoring one hand).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "scoring"))

from hypothesis import HealthCheck, given, settings  # noqa: E402
from mcr_hands import winning_hands  # noqa: E402
from mcr_oracle import oracle_args  # noqa: E402

from controller.scoring import HandInput, get_ruleset, score_hand  # noqa: E402
from controller.scoring import mcr as mcr_package  # noqa: E402
from controller.scoring.engine import clear_caches as engine_clear_caches  # noqa: E402
from controller.scoring.mcr import scorer as mcr_scorer  # noqa: E402


def make_hands(n: int) -> list[HandInput]:
    out: list[HandInput] = []

    @settings(max_examples=n, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(winning_hands())
    def collect(inp: HandInput) -> None:
        out.append(inp)

    collect()
    rs = get_ruleset("mcr")
    return [HandInput(rs, i.seat_wind, i.prevailing_wind, i.melds, i.hand, i.bonus, True,
                      i.winning_tile, i.win_source, i.last_tile, False, i.flags) for i in out]


def key(h: HandInput) -> tuple[Any, ...]:
    return (h.seat_wind, h.prevailing_wind, tuple((tuple(m.tiles), m.concealed) for m in h.melds),
            tuple(h.hand), tuple(h.bonus), h.winning_tile, h.win_source, h.last_tile,
            tuple(h.flags))


def two_sets(n: int) -> tuple[list[HandInput], list[HandInput]]:
    """``n`` hands to fill the tables with, and up to ``n`` other hands, each new, to time."""
    hands = make_hands(2 * n)
    warm, timed, seen = hands[:n], [], {key(h) for h in hands[:n]}
    for h in hands[n:]:
        if key(h) not in seen:
            seen.add(key(h))
            timed.append(h)
    return warm, timed


def clear(tables: bool = True) -> None:
    """Forget the scored hands and every cache keyed by a whole hand's tiles; with ``tables``,
    the tables filled as hands come too (mcr's and the shared per-suit ones of arrange.py, the
    checked melds): a cold start."""
    mcr_scorer.clear_caches(tables)
    if tables:
        engine_clear_caches()


def time_ours(hands: list[HandInput]) -> float:
    """CPU seconds for the whole answer of each hand (every number and item, as `score`
    prints it, but the json.dumps)."""
    t = time.process_time()
    for h in hands:
        score_hand(h).to_json()
    return time.process_time() - t


def time_theirs(args: list[dict[str, Any]]) -> float:
    """CPU seconds for pymahjonggb's whole answer (verbose: each fan with its name)."""
    from MahjongGB import MahjongFanCalculator

    t = time.process_time()
    for a in args:
        MahjongFanCalculator(**a, verbose=True)
    return time.process_time() - t


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--hands", type=int, default=2000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--profile", action="store_true")
    a = p.parse_args()
    warm, hands = two_sets(a.hands)
    args = [oracle_args(h) for h in hands]
    gc.collect()
    gc.freeze()  # the inputs (and hypothesis' leftovers) are not rescanned by every collection
    n = len(hands)
    print(f"{n} new hands timed ({len(warm)} others fill the tables first), {a.rounds} rounds; "
          "microseconds per hand (best round)")
    print("mcr's modules: " + ("compiled (scripts/build_compiled.py; MAHJONG_TABLE_PURE=1 for "
                               "the pure ones)" if mcr_package.COMPILED else "pure Python"))
    cold, new, repeated, theirs = [], [], [], []
    for _ in range(a.rounds):
        clear()
        cold.append(time_ours(hands))
        clear()
        time_ours(warm)
        clear(tables=False)
        new.append(time_ours(hands))
        repeated.append(time_ours(hands))
        theirs.append(time_theirs(args))
    c, d, r, t = (min(x) / n * 1e6 for x in (cold, new, repeated, theirs))
    print(f"  project, new hands, empty tables      : {c:8.1f} us")
    print(f"  project, new hands, tables filled     : {d:8.1f} us")
    print(f"  project, the same hands again (memo)  : {r:8.1f} us")
    print(f"  pymahjonggb (C++ via binding)         : {t:8.1f} us")
    print(f"  ratio project/pymahjonggb             : new hands {c / t:.1f}x (empty tables), "
          f"{d / t:.1f}x (filled); repeated {r / t:.2f}x")
    if a.profile:
        clear()
        time_ours(warm)
        clear(tables=False)
        prof = cProfile.Profile(time.process_time)
        prof.enable()
        time_ours(hands)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
