"""Benchmark: the project's riichi scorer against PyPI ``mahjong``'s
``HandCalculator.estimate_hand_value``, side by side in one run on the same random complete
hands (every shape, open and closed, kongs, every win source, riichi flags, dora 1-5).

Run by hand:  .venv/bin/python benchmarks/bench_riichi.py [--hands 2000] [--rounds 5]
Both sides get ready-made inputs (the project's HandInput; mahjong's 136-format tiles, melds,
indicators and HandConfig), so the timings are the scorers alone. Ours is the whole answer:
``score_hand(...).to_json()`` (every yaku explained with its tiles and han, the arrangement, the
payments); mahjong's is its HandResponse (han, fu, cost, its yaku list). No hand is scored twice
in a round. "empty tables": before the round every cache and table of the scorer is emptied,
as in a fresh process. "tables filled": first as many other hands are scored, then every cache
keyed by more than a part of a hand is emptied (the parts' splits as sets, the checked melds);
the tables keyed by one part of a hand (a suit's counts, the facts that gate the yaku) stay
filled, as in a service that has scored a few thousand hands. mahjong's own cache of divided
hands is emptied before each of its rounds. Each figure is the best of the rounds (CPU time per
hand); the rounds alternate between the sides.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "scoring"))

from hypothesis import HealthCheck, given, settings  # noqa: E402
from mahjong.hand_calculating.divider import HandDivider  # noqa: E402
from mahjong.hand_calculating.hand import HandCalculator  # noqa: E402
from riichi_hands import winning_hands  # noqa: E402
from riichi_oracle import config, estimate  # noqa: E402

from controller.scoring import (  # noqa: E402
    HandInput,
    get_ruleset,
    score_hand,
    validate,  # noqa: E402
)
from controller.scoring.riichi import scorer as riichi_scorer  # noqa: E402


def make_hands(n: int) -> list[HandInput]:
    """``n`` different hands that both scorers accept (a hand with no yaku is left out)."""
    out: list[HandInput] = []
    seen: set[Any] = set()

    @settings(max_examples=3 * n, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(winning_hands())
    def collect(inp: HandInput) -> None:
        key = repr(inp)
        if key in seen or len(out) >= n:
            return
        seen.add(key)
        if estimate(inp).error is None:
            out.append(inp)

    collect()
    return out


def theirs_args(inp: HandInput) -> tuple[Any, ...]:
    """mahjong's arguments, made before timing (estimate() builds them the same way)."""
    captured: dict[str, Any] = {}
    real = HandCalculator.estimate_hand_value

    def spy(tiles: Any, win: Any, melds: Any = None, dora_indicators: Any = None,
            config: Any = None, ura_dora_indicators: Any = None) -> Any:
        captured.update(args=(tiles, win, melds, dora_indicators, ura_dora_indicators))
        return real(tiles, win, melds=melds, dora_indicators=dora_indicators, config=config,
                    ura_dora_indicators=ura_dora_indicators)

    HandCalculator.estimate_hand_value = staticmethod(spy)  # type: ignore[method-assign]
    try:
        estimate(inp)
    finally:
        HandCalculator.estimate_hand_value = staticmethod(real)  # type: ignore[method-assign]
    return captured["args"]


def clear(tables: bool = True) -> None:
    riichi_scorer.clear_caches(tables)
    validate._meld_and_group.cache_clear()
    validate._checked_meld.cache_clear()


def time_ours(hands: list[HandInput], fill: list[HandInput] | None = None) -> float:
    clear()
    if fill:
        for inp in fill:
            score_hand(inp).to_json()
        clear(tables=False)
    gc.collect()
    t0 = time.process_time()
    for inp in hands:
        score_hand(inp).to_json()
    return (time.process_time() - t0) / len(hands) * 1e6


def time_theirs(args: list[tuple[Any, ...]], configs: list[Any]) -> float:
    HandDivider._divide_hand_impl.cache_clear()
    gc.collect()
    estimate_hand_value = HandCalculator.estimate_hand_value
    t0 = time.process_time()
    for (tiles, win, melds, dora, ura), cfg in zip(args, configs, strict=True):
        estimate_hand_value(tiles, win, melds=melds, dora_indicators=dora, config=cfg,
                            ura_dora_indicators=ura)
    return (time.process_time() - t0) / len(args) * 1e6


def _ready(hands: list[HandInput]) -> list[HandInput]:
    """The inputs with the rule set resolved once per options, as the game holds it."""
    rs: dict[str, Any] = {}
    out = []
    for h in hands:
        key = repr(sorted((h.options or {}).items()))
        rs.setdefault(key, get_ruleset("riichi", h.options))
        out.append(HandInput(
            rs[key], h.seat_wind, h.prevailing_wind, h.melds, h.hand, h.bonus, True,
            h.winning_tile, h.win_source, h.last_tile, h.first_discard, h.flags,
            dora_indicators=h.dora_indicators, ura_dora_indicators=h.ura_dora_indicators))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    both = make_hands(2 * a.hands)
    fill, hands = _ready(both[: len(both) // 2]), both[len(both) // 2:]
    ready = _ready(hands)
    args = [theirs_args(h) for h in hands]
    empty: list[float] = []
    filled: list[float] = []
    theirs: list[float] = []
    for _ in range(a.rounds):
        empty.append(time_ours(ready))
        # a HandConfig is changed by the calculator (its yaku han): a new one each round
        theirs.append(time_theirs(args, [config(h) for h in hands]))
        filled.append(time_ours(ready, fill))
    print(f"{len(hands)} riichi hands, CPU us per hand, best of {a.rounds} alternating rounds")
    for name, times in (("ours, empty tables", empty), ("ours, tables filled", filled),
                        ("mahjong", theirs)):
        print(f"{name:20} " + " ".join(f"{x:6.1f}" for x in times))
    best = min(theirs)
    print(f"ratio (mahjong / ours): empty tables {best / min(empty):4.2f}x, "
          f"tables filled {best / min(filled):4.2f}x")


if __name__ == "__main__":
    main()
