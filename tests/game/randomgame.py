"""Random but legal table logs: a shuffled wall, deals, draws, discards, pung claims, self-drawn
Mahjong and washouts. For the property tests and the replay benchmark."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from controller.scoring import HandInput, get_ruleset, score_hand
from controller.tiles import Meld, is_bonus, next_wind, tile_set
from tests.scoring.brute import complete as brute_complete
from tests.scoring.brute import waits as brute_waits


class RandomTable:
    """Plays hands with a seeded shuffle; ``events`` is the table log so far."""

    def __init__(self, seed: int, ruleset: str = "hua-bao", claims: bool = True) -> None:
        self.rng = random.Random(seed)
        self.ruleset = get_ruleset(ruleset)
        self.events: list[dict[str, Any]] = [{"session": {"ruleset": ruleset, "options": {}}}]
        self.claims = claims
        self.dealer = 1
        self.wind = "east"
        self.passes = 0
        self.source = "dealt"  # how the newest tile came, as the engine's win_source names it

    def move(self, tile: str, src: str, dst: str) -> None:
        self.events.append({"move": {"tile": tile, "from": src, "to": dst}})

    def play_hand(self) -> str:
        """Play one hand to its end; returns 'mahjong' or 'washout'."""
        wall = tile_set(self.ruleset.bonus_tiles)
        self.rng.shuffle(wall)
        self.wall = wall[:130 if self.ruleset.bonus_tiles else 122]
        self.racks: dict[int, list[str]] = {p: [] for p in (1, 2, 3, 4)}
        self.melds: dict[int, list[tuple[str, ...]]] = {p: [] for p in (1, 2, 3, 4)}
        self.ready: set[int] = set()
        seats = [(self.dealer + i - 1) % 4 + 1 for i in range(4)]
        for p in seats:
            for _ in range(14 if p == self.dealer else 13):
                self.draw(p)
        self.source = "dealt"  # bonus replacements in the deal still count as dealt
        turn = self.dealer
        while True:
            if self.complete(turn):
                self.events.append({"declare": {"seat": turn, "call": "mahjong"}})
                return self.finish(turn)
            tile = self.pick_discard(turn)
            self.racks[turn].remove(tile)
            self.move(tile, f"rack:{turn}", "discard")
            self.maybe_ready(turn)
            claimer = self.claimer(turn, tile)
            if claimer is not None:
                self.pung(claimer, tile)
                turn = claimer
                continue
            if not self.wall:
                self.move(tile, "discard", "river")
                return self.finish(None)
            if self.rng.random() < 0.5:
                self.move(tile, "discard", "river")
            turn = turn % 4 + 1
            if not self.draw(turn):
                return self.finish(None)  # the last live tile was a bonus tile: washout

    def pung(self, claimer: int, tile: str) -> None:
        self.move(tile, "discard", f"melds:{claimer}")
        for _ in range(2):
            self.racks[claimer].remove(tile)
            self.move(tile, f"rack:{claimer}", f"melds:{claimer}")
        self.melds[claimer].append((tile,) * 3)
        self.source = "discard"

    def pick_discard(self, p: int) -> str:
        """A loose tile: few copies and few neighbours (ties broken at random)."""
        rack = self.racks[p]
        counts = Counter(rack)

        def keep(t: str) -> float:
            near = 0
            if t[0].isdigit():
                n, s = int(t[0]), t[1]
                near = sum(counts[f"{n + d}{s}"] for d in (-2, -1, 1, 2) if 1 <= n + d <= 9)
            return 3 * counts[t] + near + self.rng.random()

        return min(rack, key=keep)

    def draw(self, p: int, source: str = "wall") -> bool:
        """Draw for ``p`` (bonus tiles laid and replaced); False when a replacement is due but
        the live wall is used up, which ends the hand as a washout."""
        tile = self.wall.pop()
        self.move(tile, "wall", f"rack:{p}")
        if is_bonus(tile):
            self.move(tile, f"rack:{p}", f"melds:{p}")
            return bool(self.wall) and self.draw(p, "replacement")
        self.racks[p].append(tile)
        self.source = source
        return True

    def claimer(self, discarder: int, tile: str) -> int | None:
        if not self.claims or not self.wall:
            return None
        for step in (1, 2, 3):
            p = (discarder + step - 1) % 4 + 1
            if Counter(self.racks[p])[tile] >= 2 and self.rng.random() < 0.7:
                return p
        return None

    def maybe_ready(self, p: int) -> None:
        """swedish: call ready as soon as the 13 tiles wait on something."""
        if self.ruleset.requires_ready and p not in self.ready:
            if brute_waits(self.racks[p], [Meld(m) for m in self.melds[p]], self.ruleset.name):
                self.ready.add(p)
                self.events.append({"declare": {"seat": p, "call": "ready"}})

    def complete(self, p: int) -> bool:
        melds = [Meld(m) for m in self.melds[p]]
        if not brute_complete(self.racks[p], melds, self.ruleset.name):
            return False
        if not self.ruleset.requires_ready:
            return True
        if p not in self.ready:
            return False
        seat_wind = ("east", "south", "west", "north")[(p - self.dealer) % 4]
        result = score_hand(HandInput(
            ruleset=self.ruleset, seat_wind=seat_wind, prevailing_wind=self.wind, melds=melds,
            hand=self.racks[p], mahjong=True, winning_tile=self.racks[p][-1],
            win_source=self.source,
        ))
        return result.combination_doubles >= 1

    def finish(self, winner: int | None) -> str:
        if winner is not None and winner != self.dealer:
            self.dealer = self.dealer % 4 + 1
            self.passes += 1
            if self.passes == 4:
                self.passes = 0
                self.wind = next_wind(self.wind)
        for p in (1, 2, 3, 4):  # clear the table
            for t in self.racks[p]:
                self.move(t, f"rack:{p}", "wall")
        return "washout" if winner is None else "mahjong"


def random_session(seed: int, hands: int, ruleset: str = "hua-bao") -> list[dict[str, Any]]:
    table = RandomTable(seed, ruleset)
    for _ in range(hands):
        table.play_hand()
    return table.events
