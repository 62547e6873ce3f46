"""Random but legal table logs: a shuffled wall, deals, draws, discards, pung claims, self-drawn
Mahjong and washouts. For the property tests and the replay benchmark."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from controller.scoring import get_ruleset, is_complete
from controller.tiles import is_bonus, tile_set


class RandomTable:
    """Plays hands with a seeded shuffle; ``events`` is the table log so far."""

    def __init__(self, seed: int, ruleset: str = "hua-bao", claims: bool = True) -> None:
        self.rng = random.Random(seed)
        self.ruleset = get_ruleset(ruleset)
        self.events: list[dict[str, Any]] = [{"session": {"ruleset": ruleset, "options": {}}}]
        self.claims = claims
        self.dealer = 1

    def move(self, tile: str, src: str, dst: str) -> None:
        self.events.append({"move": {"tile": tile, "from": src, "to": dst}})

    def play_hand(self) -> str:
        """Play one hand to its end; returns 'mahjong' or 'washout'."""
        wall = tile_set(self.ruleset.bonus_tiles)
        self.rng.shuffle(wall)
        self.wall = wall[:130 if self.ruleset.bonus_tiles else 122]
        self.racks: dict[int, list[str]] = {p: [] for p in (1, 2, 3, 4)}
        self.melds: dict[int, list[tuple[str, ...]]] = {p: [] for p in (1, 2, 3, 4)}
        seats = [(self.dealer + i - 1) % 4 + 1 for i in range(4)]
        for p in seats:
            for _ in range(14 if p == self.dealer else 13):
                self.draw(p)
        turn = self.dealer
        while True:
            if self.complete(turn):
                self.events.append({"declare": {"seat": turn, "call": "mahjong"}})
                return self.finish(turn)
            tile = self.rng.choice(self.racks[turn])
            self.racks[turn].remove(tile)
            self.move(tile, f"rack:{turn}", "discard")
            claimer = self.claimer(turn, tile)
            if claimer is not None:
                self.move(tile, "discard", f"melds:{claimer}")
                for _ in range(2):
                    self.racks[claimer].remove(tile)
                    self.move(tile, f"rack:{claimer}", f"melds:{claimer}")
                self.melds[claimer].append((tile,) * 3)
                turn = claimer
                continue
            if not self.wall:
                self.move(tile, "discard", "river")
                return self.finish(None)
            if self.rng.random() < 0.5:
                self.move(tile, "discard", "river")
            turn = turn % 4 + 1
            self.draw(turn)

    def draw(self, p: int) -> None:
        tile = self.wall.pop()
        self.move(tile, "wall", f"rack:{p}")
        if is_bonus(tile):
            self.move(tile, f"rack:{p}", f"melds:{p}")
            self.draw(p)
        else:
            self.racks[p].append(tile)

    def claimer(self, discarder: int, tile: str) -> int | None:
        if not self.claims or not self.wall:
            return None
        for step in (1, 2, 3):
            p = (discarder + step - 1) % 4 + 1
            if Counter(self.racks[p])[tile] >= 2 and self.rng.random() < 0.7:
                return p
        return None

    def complete(self, p: int) -> bool:
        from controller.tiles import Meld

        melds = [Meld(m) for m in self.melds[p]]
        return is_complete(self.racks[p], melds, self.ruleset)

    def finish(self, winner: int | None) -> str:
        if winner is not None and winner != self.dealer:
            self.dealer = self.dealer % 4 + 1
        for p in (1, 2, 3, 4):  # clear the table
            for t in self.racks[p]:
                self.move(t, f"rack:{p}", "wall")
        return "washout" if winner is None else "mahjong"


def random_session(seed: int, hands: int, ruleset: str = "hua-bao") -> list[dict[str, Any]]:
    table = RandomTable(seed, ruleset)
    for _ in range(hands):
        table.play_hand()
    return table.events
