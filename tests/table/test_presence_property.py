"""Property: whatever the tiles really do, flicker shorter than the debounce never fools the moves.

The moves emitted, applied to the start positions, give the true final positions; every move
starts where the tile was (tiles conserved); and each tile's moves are exactly those of a simple
model written here (Life.seen_moves: one move per change of zone the readers could see).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.table import PresenceTracker
from firmware_bridge.types import ChannelScan
from tests.budget import examples

CHANNELS = {
    "seat1/0": "rack:1", "seat1/1": "rack:1", "seat1/m": "melds:1",
    "seat3/0": "rack:3", "seat3/m": "melds:3", "centre/0": "discard",
}
ZONE_CHANNELS = {zone: [c for c, z in CHANNELS.items() if z == zone] for zone in CHANNELS.values()}
ZONES = sorted(ZONE_CHANNELS)
UIDS = [f"04:00:00:{n:02X}" for n in range(1, 9)]
REGISTRY = dict(zip(UIDS, ["5b", "5b", "ew", "gd", "1c", "9d", "5b", "ew"], strict=True))
PERIOD, DEBOUNCE_SCANS = 0.1, 4  # absent after 0.4 s
GONE = "gone"


@dataclass
class Life:
    """One tile's true story: a while in the wall, then (channel, scans) stays, maybe gone."""

    uid: str
    delay: int
    stays: list[tuple[str, int]]
    gone: bool

    def where(self, scan: int) -> str | None:
        """The channel holding the tile at this scan cycle; None: wall; GONE: off the table."""
        if scan < self.delay:
            return None
        n = self.delay
        for channel, length in self.stays:
            n += length
            if scan < n:
                return channel
        return GONE if self.gone else self.stays[-1][0]

    @property
    def end(self) -> int:
        return self.delay + sum(length for _, length in self.stays)

    def final_zone(self) -> str:
        last = CHANNELS[self.stays[-1][0]]
        return "river" if self.gone else last

    def changes(self) -> int:
        zones = [CHANNELS[c] for c, _ in self.stays]
        return 1 + sum(a != b for a, b in zip(zones, zones[1:], strict=False)) + self.gone

    def seen_moves(self, misses: list[bool]) -> list[tuple[str, str]]:
        """The model: the moves a reader that only knows what it read must report, written
        here from TABLE.md, not from the tracker. A stay counts if the tile was read at least
        once during it (flicker may hide a short one); each change of zone between the stays
        read is one move, from the wall at first, and to the river when it left the pad."""
        zones: list[str] = []
        start = self.delay
        for n, (channel, length) in enumerate(self.stays):
            last = n == len(self.stays) - 1 and not self.gone  # read on and on after the end
            scans = range(start, start + length)
            if last or any(i >= len(misses) or not misses[i] for i in scans):
                if not zones or zones[-1] != CHANNELS[channel]:
                    zones.append(CHANNELS[channel])
            start += length
        if self.gone:
            zones.append("river")
        return list(zip(["wall", *zones], zones, strict=False))


@st.composite
def lives(draw: st.DrawFn, uid: str) -> Life:
    index = draw(st.integers(0, len(ZONES) - 1))
    zones = [ZONES[index]]
    for step in draw(st.lists(st.integers(1, len(ZONES) - 1), max_size=4)):
        index = (index + step) % len(ZONES)  # always another zone than the one before
        zones.append(ZONES[index])
    stays = [(draw(st.sampled_from(ZONE_CHANNELS[z])), draw(st.integers(1, 8))) for z in zones]
    gone = zones[-1] == "discard" and draw(st.booleans())
    return Life(uid, draw(st.integers(0, 6)), stays, gone)


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[Life], dict[str, list[bool]]]:
    uids = draw(st.lists(st.sampled_from(UIDS), min_size=1, max_size=len(UIDS), unique=True))
    table = [draw(lives(uid)) for uid in uids]
    length = max(life.end for life in table) + 2
    flicker = {}
    for life in table:
        missed = draw(st.sets(st.integers(0, length - 1), max_size=length // 2))
        misses = [i in missed for i in range(length)]
        run = 0
        for i, miss in enumerate(misses):  # a run of misses stays shorter than the debounce
            run = run + 1 if miss else 0
            if run > DEBOUNCE_SCANS - 2 or (life.gone and i == life.end - 1):
                misses[i], run = False, 0
        flicker[life.uid] = misses
    return table, flicker


def _run(table: list[Life], flicker: dict[str, list[bool]],
         rng: random.Random) -> list[dict[str, object]]:
    tracker = PresenceTracker(CHANNELS, REGISTRY, confirm_reads=1,
                              absent_after=DEBOUNCE_SCANS * PERIOD,
                              move_window=1.0, silent_after=60.0)
    length = len(next(iter(flicker.values())))
    events: list[dict[str, object]] = []
    for scan in range(length + 3 * DEBOUNCE_SCANS):  # then a quiet while to settle
        seen: dict[str, set[str]] = {c: set() for c in CHANNELS}
        for life in table:
            channel = life.where(scan)
            noisy = scan < length and flicker[life.uid][scan]
            if channel not in (None, GONE) and not noisy:
                seen[channel].add(life.uid)
        order = list(seen)
        rng.shuffle(order)  # boards report in any order within a cycle
        for channel in order:  # and a little late (at most 30 ms)
            t = scan * PERIOD + rng.uniform(0.0, 0.03)
            events += tracker.scan(ChannelScan(channel, frozenset(seen[channel]), t))
        events += tracker.tick(scan * PERIOD)
    return events


@settings(max_examples=examples(200))
@given(tables(), st.randoms(use_true_random=False))
def test_moves_applied_to_the_start_give_the_true_final_positions(
    case: tuple[list[Life], dict[str, list[bool]]], rng: random.Random,
) -> None:
    table, flicker = case
    events = _run(table, flicker, rng)
    assert [e for e in events if "anomaly" in e] == []
    positions: dict[str, str] = {}
    for event in events:
        move = event["move"]
        assert isinstance(move, dict)
        uid = move["uid"]
        assert move["tile"] == REGISTRY[uid]
        assert move["from"] == positions.get(uid, "wall"), f"phantom move {move}"
        assert move["to"] != move["from"]
        positions[uid] = move["to"]
    assert positions == {life.uid: life.final_zone() for life in table}
    for life in table:
        made = [(e["move"]["from"], e["move"]["to"]) for e in events  # type: ignore[index]
                if e["move"]["uid"] == life.uid]  # type: ignore[index]
        assert len(made) <= life.changes()
        assert made == life.seen_moves(flicker[life.uid]), life
