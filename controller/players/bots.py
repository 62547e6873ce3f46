"""Simulated players: decide discards, claims, kongs, ready calls and Mahjong from what a seat sees.

A bot reads only its own seat view (its rack, melds, bonus tiles, waits, ready flag) and the
public view inside it (discards, exposed sets, whose turn); never another seat's concealed
tiles. It steers by shanten (tiles short of ready) and useful-tile counts, and it declares
Mahjong only when ``players.judge`` says the engine will accept it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from controller.players import judge, riichi_bot
from controller.players.hand_eval import kind, shanten, to_counts, useful_tiles
from controller.scoring import RuleSet
from controller.tiles import (
    KIND_INDEX,
    is_bonus,
    is_dragon,
    is_honour,
    rank,
    wind_code,
)

View = Mapping[str, Any]
TurnKind = Literal["mahjong", "concealed_kong", "added_kong", "discard", "riichi",
                   "nine_terminals"]
ClaimKind = Literal["mahjong", "kong", "pung", "chow"]
#: How claims rank (RULES.md 4): Mahjong beats kong and pung, which beat chow.
CLAIM_RANK = {"mahjong": 3, "kong": 2, "pung": 2, "chow": 1}


@dataclass(frozen=True)
class TurnAction:
    """What a bot does on its own turn; ``tile`` is the discard or the kong's tile."""

    kind: TurnKind
    tile: str | None = None


@dataclass(frozen=True)
class ClaimIntent:
    """A claim on the discard; ``tiles`` are the claimant's own tiles that join it."""

    kind: ClaimKind
    tiles: tuple[str, ...] = ()


class Bot:
    """A shanten-driven player for one physical seat position.

    ``careful`` spends more time on useful-tile counts when several discards tie; the fast
    policy (``careful=False``) compares useful tiles only among the closest few candidates.
    """

    def __init__(self, position: int, ruleset: RuleSet, seed: int, careful: bool = True) -> None:
        self.position = position
        self.ruleset = ruleset
        self.careful = careful
        self.rng = random.Random(f"bot/{seed}/{position}")
        self.seven_pairs = "seven_pairs" in ruleset.spec.specials
        #: chows the hand may still hold (None: any); bmja's hands hold one at most, so the
        #: bot aims at pungs and one chow (set from the seat's melds at each decision)
        self.chows: int | None = None
        self.swedish = ruleset.requires_ready
        #: mcr needs 8 fans: lean to one suit (half or full flush) on otherwise equal discards
        self.flush = ruleset.name == "mcr"

    # --- own turn -------------------------------------------------------------------------------

    def on_turn(self, seat: View, drawn: str | None, source: str | None) -> TurnAction:
        """Choose Mahjong, a kong or a discard for a 14-tile rack (bonus tiles already laid)."""
        self.chows = self._chows_left(seat)
        rack = [t for t in seat["hand"] if not is_bonus(t)]
        if seat.get("riichi") is not None:  # riichi: the engine's own facts of the seat decide
            what, tile = riichi_bot.on_turn(self, seat, rack)
            return TurnAction(what, tile)  # type: ignore[arg-type]  # a TurnKind
        if drawn is not None and source is not None:
            if judge.may_go_mahjong(self.ruleset, seat, rack, drawn, source):
                return TurnAction("mahjong", drawn)
        live = _hand(seat).get("live_wall", 0)
        kong = self._kong_choice(seat, rack) if live > 0 else None
        if kong is not None:
            return kong
        return TurnAction("discard", self.choose_discard(seat, rack))

    def _kong_choice(self, seat: View, rack: list[str]) -> TurnAction | None:
        counts = to_counts(rack)
        exposed = len(seat.get("melds", []))
        fours = sorted(k for k, c in enumerate(counts) if c == 4)
        pungs = sorted(
            m["tiles"][0]
            for m in seat.get("melds", [])
            if len(m["tiles"]) == 3 and len(set(m["tiles"])) == 1 and not m.get("concealed")
            and counts[KIND_INDEX[m["tiles"][0]]]
        )
        if not fours and not pungs:
            return None
        keep = self._best_discard_shanten(counts, exposed)
        for i in fours:
            counts[i] -= 4
            after = shanten(counts, exposed + 1, chows=self.chows)
            counts[i] += 4
            if after <= keep:
                return TurnAction("concealed_kong", kind(i))
        for t in pungs:
            i = KIND_INDEX[t]
            counts[i] -= 1
            after = shanten(counts, exposed, self._pairs_ok(exposed), self.chows)
            counts[i] += 1
            if after <= keep:
                return TurnAction("added_kong", t)
        return None

    def choose_discard(self, seat: View, rack: Sequence[str], only: Sequence[str] = ()) -> str:
        """The tile to throw: lowest shanten, then most useful tiles, then least value kept;
        ``only``: the kinds allowed (riichi: kuikae, the riichi discards), all when empty."""
        counts = to_counts(rack)
        exposed = len(seat.get("melds", []))
        pairs_ok = self._pairs_ok(exposed)
        options: list[tuple[int, int, str]] = []
        for i in sorted(k for k, c in enumerate(counts) if c and (not only or kind(k) in only)):
            counts[i] -= 1
            after = shanten(counts, exposed, pairs_ok, self.chows)
            counts[i] += 1
            options.append((after, -self._keep_value(seat, counts, i), kind(i)))
        options.sort()
        best = options[0][0]
        ties = [o for o in options if o[0] == best]
        if len(ties) == 1:
            return ties[0][2]
        if not self.careful:
            # Fast policy: shape and value decide far from ready; near it, wait quality.
            if best > 1:
                return ties[0][2]
            ties = ties[:3]
        unseen = self._unseen(seat, counts)
        ranked = []
        for _, value, t in ties:
            i = KIND_INDEX[t]
            counts[i] -= 1
            useful = useful_tiles(counts, exposed, unseen, pairs_ok, self.chows)
            ranked.append((-useful, value, self.rng.random(), t))
            counts[i] += 1
        return min(ranked)[3]

    def _best_discard_shanten(self, counts: list[int], exposed: int) -> int:
        best = 99
        for i in [k for k, c in enumerate(counts) if c]:
            counts[i] -= 1
            best = min(best, shanten(counts, exposed, self._pairs_ok(exposed), self.chows))
            counts[i] += 1
        return best

    def _pairs_ok(self, exposed: int) -> bool:
        return self.seven_pairs and exposed == 0

    def _keep_value(self, seat: View, counts: Sequence[int], i: int) -> int:
        """How much a tile is worth keeping beyond shape: copies and suit neighbours held,
        honours whose pung scores a doubling, middle tiles over terminals."""
        t = kind(i)
        held = 2 * (counts[i] - 1)
        flush = self._flush_value(seat, counts, i) if self.flush else 0
        if is_honour(t):
            return held + flush + (3 if self._valuable_honour(seat, t) else 0)
        r = rank(t) or 5
        lo, hi = i - r + 1, i - r + 9
        near = sum(counts[k] for k in range(max(lo, i - 2), min(hi, i + 2) + 1) if k != i)
        return held + near + flush + (1 if 3 <= r <= 7 else 0)

    def _flush_value(self, seat: View, counts: Sequence[int], i: int) -> int:
        """mcr: a tile of the suit the seat holds most of (melds too) is worth 4 more, an
        honour 1 (a half flush); tiles of the other suits are the first to go."""
        per_suit = [sum(counts[s * 9 : s * 9 + 9]) for s in range(3)]
        for m in seat.get("melds", []):
            k = KIND_INDEX[m["tiles"][0]]
            if k < 27:
                per_suit[k // 9] += 3
        if i >= 27:
            return 1
        return 4 if per_suit[i // 9] == max(per_suit) else 0

    def _valuable_honour(self, seat: View, t: str) -> bool:
        """Dragons, the own wind and the prevailing wind: their pungs give doublings."""
        if is_dragon(t):
            return True
        prevailing = _hand(seat).get("prevailing_wind", "east")
        return t in (wind_code(seat["wind"]), wind_code(prevailing))

    def _unseen(self, seat: View, counts: Sequence[int]) -> list[int]:
        """Copies of each kind this seat cannot see: 4 minus its rack and every visible tile."""
        unseen = [4 - c for c in counts]
        for t in _visible_tiles(seat.get("table", {})):
            i = KIND_INDEX.get(t)
            if i is not None:
                unseen[i] -= 1
        return unseen

    # --- another seat's discard -----------------------------------------------------------------

    def on_discard(self, seat: View, tile: str, may_chow: bool) -> ClaimIntent | None:
        """Whether (and how) to claim a discard; Mahjong whenever the engine would accept it."""
        if seat.get("dead"):
            return None
        self.chows = self._chows_left(seat)
        rack = [t for t in seat["hand"] if not is_bonus(t)]
        r = seat.get("riichi")
        if r is not None:
            if tile in r["ron_on"]:
                return ClaimIntent("mahjong")
            if r["in_riichi"] or r["dead"] or _hand(seat).get("live_wall", 0) <= 0:
                return None  # the last discard may be claimed only to win
        elif tile in seat.get("waits", []):
            if judge.may_go_mahjong(self.ruleset, seat, rack + [tile], tile, "discard"):
                return ClaimIntent("mahjong")
        counts = to_counts(rack)
        i = KIND_INDEX.get(tile)
        if i is None:
            return None
        may_chow = may_chow and self.chows != 0
        options = self._set_options(counts, i, may_chow, _hand(seat).get("live_wall", 0) > 0)
        if not options:
            return None
        exposed = len(seat.get("melds", []))
        now = shanten(counts, exposed, self._pairs_ok(exposed), self.chows)
        best: tuple[int, int, ClaimIntent] | None = None
        for intent in options:
            after = self._after_claim(counts, intent, exposed)
            if not self._worth_it(seat, tile, intent, now, after):
                continue
            key = (after, -CLAIM_RANK[intent.kind], intent)
            if best is None or key[:2] < best[:2]:
                best = key
        if best is not None and r is not None and riichi_bot.kuikae_only(
                rack, tile, best[2].kind, best[2].tiles):
            return None
        return None if best is None else best[2]

    def called_claim(self, seat: View, tile: str, may_chow: bool) -> ClaimIntent | None:
        """The seat has called claim (its player pressed Claim on the seat page): the bot's own
        choice if it has one, else the set that leaves the hand closest to ready."""
        intent = self.on_discard(seat, tile, may_chow)
        i = KIND_INDEX.get(tile)
        if intent is not None or i is None or seat.get("dead"):
            return intent
        counts = to_counts([t for t in seat["hand"] if not is_bonus(t)])
        may_chow = may_chow and self.chows != 0  # set by on_discard
        options = self._set_options(counts, i, may_chow, _hand(seat).get("live_wall", 0) > 0)
        exposed = len(seat.get("melds", []))
        return min(options, default=None, key=lambda o: (
            self._after_claim(counts, o, exposed), -CLAIM_RANK[o.kind]))

    def _chows_left(self, seat: View) -> int | None:
        """How many more chows a complete hand may hold (None: any; bmja: one in all)."""
        most = self.ruleset.spec.max_chows
        if most is None:
            return None
        return max(0, most - sum(1 for m in seat.get("melds", []) if m.get("kind") == "chow"))

    def _set_options(
        self, counts: list[int], i: int, may_chow: bool, kong_ok: bool
    ) -> list[ClaimIntent]:
        t = kind(i)
        out = []
        if counts[i] >= 3 and kong_ok:
            out.append(ClaimIntent("kong", (t, t, t)))
        if counts[i] >= 2:
            out.append(ClaimIntent("pung", (t, t)))
        if may_chow and i < 27:
            r = i % 9
            for lo in (r - 2, r - 1, r):
                if lo < 0 or lo + 2 > 8:
                    continue
                others = [i - r + k for k in (lo, lo + 1, lo + 2) if k != r]
                if all(counts[k] for k in others):
                    out.append(ClaimIntent("chow", tuple(kind(k) for k in others)))
        return out

    def _after_claim(self, counts: list[int], intent: ClaimIntent, exposed: int) -> int:
        """Shanten once the set is exposed (and, for a pung or chow, the best discard made)."""
        idx = [KIND_INDEX[t] for t in intent.tiles]
        for k in idx:
            counts[k] -= 1
        if intent.kind == "kong":
            after = shanten(counts, exposed + 1, chows=self.chows)
        else:
            after = self._best_discard_shanten(counts, exposed + 1)
        for k in idx:
            counts[k] += 1
        return after

    def _worth_it(self, seat: View, tile: str, intent: ClaimIntent, now: int, after: int) -> bool:
        valuable = is_honour(tile) and self._valuable_honour(seat, tile)
        if self.swedish and not valuable and not self._has_open_doubling(seat):
            # Staying concealed keeps the concealed-hand doubling that swedish Mahjong needs.
            return False
        if intent.kind == "kong":
            return after <= now
        return after < now or (valuable and after <= now)

    def _has_open_doubling(self, seat: View) -> bool:
        """An exposed pung or kong of a valuable honour already guarantees a doubling."""
        return any(
            is_honour(m["tiles"][0]) and self._valuable_honour(seat, m["tiles"][0])
            for m in seat.get("melds", [])
            if len(set(m["tiles"])) == 1
        )

    # --- robbing a kong, ready --------------------------------------------------------------------

    def rob_kong(self, seat: View, tile: str) -> bool:
        """Go Mahjong on the tile another seat adds to its pung, when that is legal."""
        if seat.get("dead") or tile not in seat.get("waits", []) or seat.get("riichi"):
            return False  # riichi: the bots do not rob kongs (furiten and yaku unread here)
        rack = [t for t in seat["hand"] if not is_bonus(t)]
        return judge.may_go_mahjong(self.ruleset, seat, rack + [tile], tile, "robbed_kong")

    def wants_ready(self, seat: View) -> bool:
        """Call ready as soon as the hand waits, where the rule set needs the call (swedish)."""
        return self.swedish and not seat.get("ready") and bool(seat.get("waits"))


def _hand(view: View) -> Mapping[str, Any]:
    table = view.get("table", view)
    return table.get("hand") or {}


def _visible_tiles(table: View) -> list[str]:
    hand = table.get("hand") or {}
    out: list[str] = []
    for seat in (hand.get("seats") or {}).values():
        for m in seat.get("melds", []):
            out.extend(m["tiles"])
        out.extend(seat.get("river", []))
        out.extend(seat.get("forming", []))
    if hand.get("discard"):
        out.append(hand["discard"]["tile"])
    return out
