"""Builds table logs for tests: deal given tiles to seats, draw, discard, claim, declare.

A log keeps track of the tiles it took from the wall, so ``spare()`` can hand out tiles that
are still there (for filler draws) and a washout takes a few lines to write.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from typing import Any

from controller.tiles import BONUS_CODES, KINDS, parse_tiles


class Log:
    def __init__(self, ruleset: str = "hua-bao", options: dict[str, Any] | None = None,
                 table: dict[str, Any] | None = None) -> None:
        session: dict[str, Any] = {"ruleset": ruleset, "options": options or {}}
        if table:
            session["table"] = table
        self.events: list[dict[str, Any]] = [{"session": session}]
        self.bonus = bool((options or {}).get("bonus_tiles", ruleset != "hua-bao"))
        self.out: Counter[str] = Counter()
        self.reserved: Counter[str] = Counter()

    # --- raw events --------------------------------------------------------------------------
    def move(self, tile: str, src: str, dst: str) -> Log:
        if src == "wall":
            self.out[tile] += 1
        self.events.append({"move": {"tile": tile, "from": src, "to": dst}})
        return self

    def declare(self, seat: int, call: str) -> Log:
        self.events.append({"declare": {"seat": seat, "call": call}})
        return self

    def undo(self, n: int = 1) -> Log:
        self.events.append({"correct": {"undo": n}})
        return self

    def raw(self, event: dict[str, Any]) -> Log:
        self.events.append(event)
        return self

    # --- the game's steps --------------------------------------------------------------------
    def new_hand(self) -> Log:
        """Start counting the wall afresh (after a hand has ended)."""
        self.out = Counter()
        return self

    def deal(self, hands: dict[int, str]) -> Log:
        """Deal the given tiles (hand strings) from the wall, round-robin like a real deal."""
        lists = {seat: parse_tiles(text) for seat, text in hands.items()}
        for lst in lists.values():
            self.reserved.update(lst)
        longest = max(len(v) for v in lists.values())
        for i in range(longest):
            for seat in sorted(lists):
                if i < len(lists[seat]):
                    tile = lists[seat][i]
                    self.reserved[tile] -= 1
                    self.move(tile, "wall", f"rack:{seat}")
        return self

    def reserve(self, text: str) -> Log:
        """Keep tiles out of spare() (tiles the script draws later)."""
        self.reserved.update(parse_tiles(text))
        return self

    def draw(self, seat: int, tile: str | None = None) -> str:
        if tile is None:
            tile = self.spare()
        else:
            self.reserved[tile] -= 1 if self.reserved[tile] > 0 else 0
        self.move(tile, "wall", f"rack:{seat}")
        return tile

    def discard(self, seat: int, tile: str) -> Log:
        return self.move(tile, f"rack:{seat}", "discard")

    def river(self, tile: str) -> Log:
        return self.move(tile, "discard", "river")

    def draw_discard(self, seat: int, tile: str | None = None) -> str:
        """Draw a tile (a spare one by default) and discard it at once."""
        tile = self.draw(seat, tile)
        self.discard(seat, tile)
        return tile

    def claim(self, seat: int, discard: str, rack_tiles: str, discard_first: bool = True) -> Log:
        """Lay a claimed set: the discard and the rack tiles onto the seat's meld strip."""
        if discard_first:
            self.move(discard, "discard", f"melds:{seat}")
        for t in parse_tiles(rack_tiles):
            self.move(t, f"rack:{seat}", f"melds:{seat}")
        if not discard_first:
            self.move(discard, "discard", f"melds:{seat}")
        return self

    def spare(self, avoid: Iterable[str] = ()) -> str:
        """A tile still in the wall and not reserved (no bonus tile unless only those are left)."""
        avoid = set(avoid)
        for kind in KINDS:
            if kind in avoid:
                continue
            if self.out[kind] + max(self.reserved[kind], 0) < 4:
                return kind
        for kind in BONUS_CODES if self.bonus else ():
            if self.out[kind] + max(self.reserved[kind], 0) < 1:
                return kind
        raise AssertionError("the wall is empty")

    def terminals_to_the_end(self, seat: int, turns: int, honours: Iterable[str],
                             avoid: Iterable[str], river: int = 4) -> str:
        """``turns`` draws and discards from ``seat`` on: seat ``river`` draws and throws the
        next of ``honours`` it has a copy left of (a nagashi river), the others a spare tile not
        in ``avoid``. Returns the last tile discarded."""
        avoid, honours = list(avoid), iter(honours)
        tile = ""
        for _ in range(turns):
            if seat == river:
                tile = next(honours)
                while self.out[tile] >= 4:
                    tile = next(honours)
            else:
                tile = self.spare(avoid=avoid)
            self.draw(seat, tile)
            self.discard(seat, tile)
            seat = seat % 4 + 1
        return tile

    # --- output ------------------------------------------------------------------------------
    def jsonl(self) -> str:
        return "".join(json.dumps(e) + "\n" for e in self.events)

    def __len__(self) -> int:
        return len(self.events)
