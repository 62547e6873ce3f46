"""Benchmark: our arrangements and scoring against the PyPI ``mahjong`` package, side by side.

Run by hand:  .venv/bin/pip install mahjong && .venv/bin/python benchmarks/bench_scoring.py
Random complete hands (ambiguous runs like 1b1b1b2b2b2b3b3b3b, seven pairs, exposed sets and
kongs) are timed (a) all arrangements per hand vs HandDivider.divide_hand and (b) a score per
hand and rule set vs HandCalculator.estimate_hand_value. Tile kind k is the same index in both
libraries' 34-kind order (suits, then honours), so both see the same shapes.

Rows (CPU time, best of --rounds, each round from empty tables on both sides):
- new: both sides score --warm other hands first (a table's evening so far: our tables keyed
  by a suit's counts, a group, a situation fill; mahjong's lru_cache keeps 128 hands), then
  --hands new hands once each, none repeated and none among the others;
- repeated: the same new hands again, every table warm.
Our answer is the whole one, as `score` prints it (to_json(): every number, every explained
item, the arrangement), unless --numbers-only; mahjong's has its han, fu, cost and yaku list.
The last row is mcr against pymahjonggb (C++), timed as bench_mcr.py does (the whole answer on
both sides). docs/performance.md has the figures.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from controller.scoring import (
    HandInput,
    arrangements,
    get_ruleset,
    is_complete,
    score_hand,
)
from controller.scoring.engine import clear_caches
from controller.tiles import KINDS, Meld, Tile

try:
    from mahjong.hand_calculating.divider import HandDivider
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.meld import Meld as MjMeld
except ImportError:  # pragma: no cover - a message for people, not a test path
    HandDivider = None  # type: ignore[assignment,misc]


@dataclass
class Case:
    """One hand in both libraries' forms."""

    concealed: list[Tile]
    melds: list[Meld]
    winning_tile: Tile
    tiles_34: list[int]
    tiles_136: list[int]
    win_136: int
    mj_melds: list[Any]  # mahjong.meld.Meld


def _set_kinds(rng: random.Random, used: list[int]) -> tuple[str, int] | None:
    """A random set (chow, pung or kong) that fits the four copies of each kind."""
    shape = rng.choices(("chow", "pung", "kong"), (5, 4, 1))[0]
    k = rng.randrange(34)
    if shape == "chow":
        if k >= 27 or k % 9 > 6 or any(used[k + i] >= 4 for i in range(3)):
            return None
    elif used[k] > 4 - (3 if shape == "pung" else 4):
        return None
    return shape, k


def _standard(rng: random.Random) -> tuple[list[Tile], list[Meld]] | None:
    used = [0] * 34
    concealed: list[Tile] = []
    melds: list[Meld] = []
    for _ in range(4):
        got = None
        while got is None:
            got = _set_kinds(rng, used)
        shape, k = got
        kinds = [k, k + 1, k + 2] if shape == "chow" else [k] * (3 if shape == "pung" else 4)
        for i in kinds:
            used[i] += 1
        tiles = tuple(KINDS[i] for i in kinds)
        if shape == "kong":
            melds.append(Meld(tiles, concealed=rng.random() < 0.5))
        elif rng.random() < 0.3:
            melds.append(Meld(tiles))
        else:
            concealed.extend(tiles)
    pair = rng.choice([i for i in range(34) if used[i] <= 2])
    concealed += [KINDS[pair]] * 2
    return concealed, melds


def _seven_pairs(rng: random.Random) -> tuple[list[Tile], list[Meld]]:
    kinds = rng.sample(range(34), 7)
    return [KINDS[k] for k in kinds for _ in range(2)], []


def _ambiguous(rng: random.Random) -> tuple[list[Tile], list[Meld]]:
    s = rng.choice("bcd")
    start = rng.randrange(1, 8)
    run = [f"{start + i}{s}" for i in range(3) for _ in range(3)]
    other, pair = rng.sample([k for k in KINDS if k[1] != s], 2)
    return run + [other] * 3 + [pair] * 2, []


def make_cases(n: int, seed: int) -> list[Case]:
    rng = random.Random(seed)
    cases: list[Case] = []
    while len(cases) < n:
        r = rng.random()
        made = _seven_pairs(rng) if r < 0.1 else _ambiguous(rng) if r < 0.25 else _standard(rng)
        if made is not None and _ok(*made):
            cases.append(_case(rng, *made))
    return cases


def _ok(concealed: list[Tile], melds: list[Meld]) -> bool:
    from collections import Counter

    c = Counter(concealed + [t for m in melds for t in m.tiles])
    return all(v <= 4 for v in c.values())


def _case(rng: random.Random, concealed: list[Tile], melds: list[Meld]) -> Case:
    copy = [0] * 34
    ids: list[int] = []

    def take(t: Tile) -> int:
        k = KINDS.index(t)
        copy[k] += 1
        return k * 4 + copy[k] - 1

    mj_melds: list[Any] = []
    for m in melds:
        mids = [take(t) for t in m.tiles]
        ids += mids
        kind = MjMeld.KAN if len(m.tiles) == 4 else (
            MjMeld.PON if m.tiles[0] == m.tiles[1] else MjMeld.CHI)
        mj_melds.append(MjMeld(kind, mids, opened=not m.concealed))
    hand_ids = [take(t) for t in concealed]
    ids += hand_ids
    win = rng.randrange(len(concealed))
    t34 = [0] * 34
    for i in ids:
        t34[i // 4] += 1
    return Case(concealed, melds, concealed[win], t34, ids, hand_ids[win], mj_melds)


def _per_hand(fn: Callable[[Case], object], cases: list[Case]) -> float:
    t0 = time.process_time()
    for c in cases:
        fn(c)
    return (time.process_time() - t0) / len(cases) * 1e6


def _cold() -> None:
    """Empty both libraries' caches and tables: a fresh process for each."""
    clear_caches()
    HandDivider._divide_hand_impl.cache_clear()


@dataclass
class Row:
    """One row: our full answer and mahjong's for the same hands (``warm``: others first)."""

    label: str
    ours: Callable[[Case], object]
    theirs: Callable[[Case], object]
    warm: list[Case]
    new: list[Case]


def _round(row: Row) -> tuple[float, float, float, float]:
    """(ours new, theirs new, ours repeated, theirs repeated) in CPU µs per hand. New: both
    sides start empty, score the ``warm`` hands (a table's evening so far), then the new hands
    once each; repeated: the same new hands again, every table and cache warm. Ours and theirs
    alternate so that a busy machine slows both alike."""
    _cold()
    _per_hand(row.ours, row.warm)
    _per_hand(row.theirs, row.warm)
    ours_new = _per_hand(row.ours, row.new)
    theirs_new = _per_hand(row.theirs, row.new)
    return ours_new, theirs_new, _per_hand(row.ours, row.new), _per_hand(row.theirs, row.new)


def _ruleset_row(name: str, warm: list[Case], new: list[Case], theirs: Callable[[Case], object],
                 numbers_only: bool) -> Row:
    rs = get_ruleset(name)
    # a discard win by south in an east round; seven pairs only where the rule set has it
    keep = [c for c in warm + new if is_complete(c.concealed, c.melds, rs)]
    # each side gets its input ready-made (mahjong's tiles_136, win_136 and melds are made in
    # make_cases), so both time the scoring only
    inputs = {id(c): HandInput(rs, "south", "east", c.melds, c.concealed, (), True,
                               c.winning_tile, "discard") for c in keep}

    def ours(c: Case) -> object:  # the whole answer, as `score` prints it (but the json.dumps)
        return score_hand(inputs[id(c)]).to_json()

    def ours_numbers(c: Case) -> object:
        return score_hand(inputs[id(c)]).score

    fn = ours_numbers if numbers_only else ours
    return Row(f"score {name}", fn, theirs, [c for c in warm if id(c) in inputs],
               [c for c in new if id(c) in inputs])


def _distinct(cases: list[Case]) -> list[Case]:
    """Each hand once (tiles, melds and winning tile): a new hand is never a repeat."""
    seen: set[object] = set()
    out = []
    for c in cases:
        key = (tuple(sorted(c.concealed)), tuple((m.tiles, m.concealed) for m in c.melds),
               c.winning_tile)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def _args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=2000, help="new hands timed per row")
    ap.add_argument("--warm", type=int, default=2000,
                    help="other hands each side scores first (a table's evening so far)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--rounds", type=int, default=3,
                    help="rounds per row, each from empty tables; the best round is kept")
    ap.add_argument("--numbers-only", action="store_true",
                    help="our score's numbers only, not the explained items and arrangement")
    ap.add_argument("--profile", metavar="ROW", help="cProfile our new-hand pass of this row "
                    "(arrangements, swedish, hua-bao, dmjl, bmja)")
    ap.add_argument("--sort", default="tottime", help="the profile's order (pstats' keys)")
    ap.add_argument("--no-mcr", action="store_true", help="leave out the mcr row (pymahjonggb)")
    return ap.parse_args()


def _rows(warm: list[Case], new: list[Case], numbers_only: bool) -> list[Row]:
    swedish = get_ruleset("swedish")  # seven pairs count, as in mahjong's divider

    def ours_divide(c: Case) -> object:
        return arrangements(c.concealed, c.melds, swedish)

    def theirs_divide(c: Case) -> object:
        return HandDivider.divide_hand(c.tiles_34, c.mj_melds)

    def theirs_score(c: Case) -> object:
        return HandCalculator.estimate_hand_value(c.tiles_136, c.win_136, c.mj_melds)

    rows = [Row("arrangements", ours_divide, theirs_divide, warm, new)]
    return rows + [_ruleset_row(n, warm, new, theirs_score, numbers_only)
                   for n in ("swedish", "hua-bao", "dmjl", "bmja")]


def main() -> int:
    args = _args()
    if HandDivider is None:
        print("The PyPI package 'mahjong' is missing: .venv/bin/pip install mahjong "
              "(for this benchmark only; it is not a project dependency)")
        return 1
    cases = _distinct(make_cases(2 * (args.warm + args.hands), args.seed))
    warm, new = cases[:args.warm], cases[args.warm:args.warm + args.hands]
    rows = _rows(warm, new, args.numbers_only)
    if args.profile:
        return _profile(next(r for r in rows if r.label.endswith(args.profile)), args.sort)
    answer = ("numbers only" if args.numbers_only
              else "the whole answer (numbers, items, arrangement)")
    print(f"CPU µs per hand, best of {args.rounds} rounds; ours: {answer}; mahjong: "
          "estimate_hand_value (divide_hand for arrangements)\n"
          f"new: {args.hands} hands never scored before, after {args.warm} other hands from "
          "empty tables (a table's evening); repeated: the same hands again, tables warm")
    for row in rows:
        best = [min(x) for x in zip(*(_round(row) for _ in range(args.rounds)), strict=True)]
        on, tn, orep, trep = best
        print(f"{row.label:15} new: ours {on:6.1f} mahjong {tn:6.1f} ratio {tn / on:4.2f}x   "
              f"repeated: ours {orep:6.1f} mahjong {trep:6.1f} ratio {trep / orep:4.2f}x   "
              f"({len(row.new)} hands)")
    if not args.no_mcr:
        _mcr_row(args.warm, args.hands, args.rounds)
    return 0


def _mcr_row(warm_n: int, n: int, rounds: int) -> None:
    """mcr against pymahjonggb, the same way (bench_mcr.py's hands and timings: the whole
    answer on both sides, the new hands after ``warm_n`` others from empty tables)."""
    import bench_mcr as bm  # beside this file; it needs hypothesis and pymahjonggb

    warm, hands = bm.two_sets(max(warm_n, n))
    hands = hands[:n]
    args = [bm.oracle_args(h) for h in hands]
    new, repeated, theirs = [], [], []
    for _ in range(rounds):
        bm.clear()
        bm.time_ours(warm[:warm_n])
        new.append(bm.time_ours(hands))
        theirs.append(bm.time_theirs(args))
        repeated.append(bm.time_ours(hands))
    o, t, r = (min(x) / len(hands) * 1e6 for x in (new, theirs, repeated))
    print(f"{'score mcr':15} new: ours {o:6.1f} pymahjonggb {t:5.1f}, ours {o / t:4.1f}x slower   "
          f"repeated (memo): ours {r:5.1f}, {r / t:4.2f}x   ({len(hands)} hands, "
          f"{'compiled' if bm.mcr_package.COMPILED else 'pure Python'} mcr modules)")


def _profile(row: Row, sort: str) -> int:
    import cProfile
    import pstats

    _cold()
    _per_hand(row.ours, row.warm)
    prof = cProfile.Profile(time.process_time)
    prof.enable()
    _per_hand(row.ours, row.new)
    prof.disable()
    pstats.Stats(prof).sort_stats(sort).print_stats(40)
    return 0


if __name__ == "__main__":
    sys.exit(main())
