"""Deterministic random ``score`` inputs (FORMATS.md JSON objects) of every rule set: winners
of every shape (sets with claimed and concealed melds and kongs, ambiguous runs, one suit,
honours, seven pairs, thirteen orphans, mcr's knitted shapes), hands one tile short (losers
calling), random losers, bonus tiles, flags, options and a few bad inputs. Used by
score_dump.py (the byte-identity dump) and the benchmarks; it imports nothing of the project,
so the same hands come out of any version of it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

SUITS = ("b", "c", "d")
HONOURS = ("ew", "sw", "ww", "nw", "rd", "gd", "wd")
KINDS = tuple(f"{n}{s}" for s in SUITS for n in range(1, 10)) + HONOURS
ORPHANS = ("1b", "9b", "1c", "9c", "1d", "9d", *HONOURS)
BONUS = ("1f", "2f", "3f", "4f", "1s", "2s", "3s", "4s")
WINDS = ("east", "south", "west", "north")
RULESETS = ("hua-bao", "swedish", "dmjl", "bmja", "mcr")
SOURCES = ("wall", "discard", "replacement", "robbed_kong", "dealt")
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "hua-bao": [{"mahjong_bonus": 20}, {"limit": 300}],
    "swedish": [{"limit": 500}],
    "dmjl": [{"roof_off": True}, {"limit": 2000}],
    "bmja": [{"roof_off": True}],
    "mcr": [],
}
FLAGS = {
    "hua-bao": ("original_call",), "swedish": ("original_call",),
    "dmjl": ("original_call", "twofold_fortune"), "bmja": ("original_call",),
    "mcr": ("last_of_kind",),
}

Shape = tuple[list[str], list[tuple[list[str], bool]]]  # concealed tiles, (meld tiles, concealed)


def _a_set(rng: random.Random, used: dict[str, int], pool: list[str]) -> list[str] | None:
    shape = rng.choices(("chow", "pung", "kong"), (5, 4, 1))[0]
    k = rng.choice(pool)
    if shape == "chow":
        if k in HONOURS or int(k[0]) > 7:
            return None
        tiles = [f"{int(k[0]) + i}{k[1]}" for i in range(3)]
    else:
        tiles = [k] * (3 if shape == "pung" else 4)
    if any(used.get(t, 0) + tiles.count(t) > 4 for t in set(tiles)):
        return None
    for t in tiles:
        used[t] = used.get(t, 0) + 1
    return tiles


def _standard(rng: random.Random) -> Shape:
    r = rng.random()  # one suit (and honours), honours only, or anything
    if r < 0.15:
        s = rng.choice(SUITS)
        pool = [f"{n}{s}" for n in range(1, 10)] + (list(HONOURS) if rng.random() < 0.5 else [])
    elif r < 0.2:
        pool = list(HONOURS) + list(ORPHANS[:6])
    else:
        pool = list(KINDS)
    used: dict[str, int] = {}
    concealed: list[str] = []
    melds: list[tuple[list[str], bool]] = []
    for _ in range(4):
        tiles = None
        while tiles is None:
            tiles = _a_set(rng, used, pool)
        if len(tiles) == 4:
            melds.append((tiles, rng.random() < 0.4))
        elif rng.random() < 0.3:
            melds.append((tiles, False))
        else:
            concealed += tiles
    pair = rng.choice([k for k in pool if used.get(k, 0) <= 2])
    return concealed + [pair, pair], melds


def _ambiguous(rng: random.Random) -> Shape:
    s = rng.choice(SUITS)
    start = rng.randrange(1, 8)
    run = [f"{start + i}{s}" for i in range(3) for _ in range(3)]
    other, pair = rng.sample([k for k in KINDS if k[1] != s], 2)
    return run + [other] * 3 + [pair] * 2, []


def _seven_pairs(rng: random.Random) -> Shape:
    return [k for k in rng.sample(KINDS, 7) for _ in range(2)], []


def _orphans(rng: random.Random) -> Shape:
    return [*ORPHANS, rng.choice(ORPHANS)], []


def _knitted(rng: random.Random) -> Shape:
    """mcr's knitted shapes: a knitted straight with a set and a pair, or with honours."""
    order = rng.sample(SUITS, 3)
    knit = [f"{n}{s}" for s, start in zip(order, (1, 2, 3), strict=True) for n in (start, start + 3,
                                                                                    start + 6)]
    if rng.random() < 0.5:
        rest = rng.sample(knit, 9 - rng.randrange(2)) + rng.sample(HONOURS, 5)
        return (rest + rng.sample(HONOURS, 14 - len(rest)))[:14], []
    k = rng.choice([x for x in KINDS if x not in knit])
    p = rng.choice([x for x in KINDS if x not in knit and x != k])
    return knit + [k] * 3 + [p] * 2, []


def _shape(rng: random.Random) -> Shape:
    r = rng.random()
    if r < 0.08:
        return _seven_pairs(rng)
    if r < 0.18:
        return _ambiguous(rng)
    if r < 0.20:
        return _orphans(rng)
    if r < 0.23:
        return _knitted(rng)
    return _standard(rng)


def hand(rng: random.Random, ruleset: str) -> dict[str, Any]:
    """One ``score`` input object of ``ruleset``."""
    concealed, melds = _shape(rng)
    kind = rng.random()
    obj: dict[str, Any] = {
        "ruleset": ruleset, "seat_wind": rng.choice(WINDS), "prevailing_wind": rng.choice(WINDS),
        "melds": [{"tiles": t, "concealed": c} for t, c in melds],
    }
    rng.shuffle(concealed)
    if kind < 0.7:  # a winner
        win = rng.choice(concealed)
        source = rng.choices(SOURCES, (10, 10, 2, 1, 0.3))[0]
        if source == "replacement" and not melds and ruleset != "mcr":
            source = "wall"
        if source == "dealt" and rng.random() < 0.8:
            obj["seat_wind"] = "east"
        obj.update(hand=concealed[:], mahjong=True, winning_tile=win, win_source=source)
        if rng.random() < 0.05:
            obj["last_tile"] = True
        if rng.random() < 0.02:
            obj["first_discard"] = True
    elif kind < 0.9:  # one tile short: a hand calling, or not
        obj.update(hand=concealed[1:], mahjong=False)
    else:  # random tiles
        obj["melds"] = obj["melds"][: rng.randrange(2)]
        n = 13 - 3 * len(obj["melds"])
        obj.update(hand=rng.sample([k for k in KINDS for _ in range(3)], n), mahjong=False)
    if OPTIONS[ruleset] and rng.random() < 0.1:
        obj["options"] = dict(rng.choice(OPTIONS[ruleset]))
    if rng.random() < 0.3:
        obj["bonus"] = rng.sample(BONUS, rng.randrange(1, 4))
        if ruleset == "hua-bao" and rng.random() < 0.9:  # played without them by default
            obj["options"] = {**obj.get("options", {}), "bonus_tiles": True}
    if rng.random() < 0.05:
        obj["flags"] = [rng.choice(FLAGS[ruleset])]
    if rng.random() < 0.003:  # a bad input: an answer {"error": ...} too
        obj["hand"] = [*obj["hand"][:-1], "xx"]
    return obj


def hands(n: int, seed: int, rulesets: tuple[str, ...] = RULESETS) -> Iterator[dict[str, Any]]:
    """``n`` input objects, the rule sets in turn."""
    rng = random.Random(seed)
    for i in range(n):
        yield hand(rng, rulesets[i % len(rulesets)])
