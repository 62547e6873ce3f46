"""Property: settling after a scan only the tiles that scan can change (PresenceTracker._settle)
gives exactly what settling every tile gives, whatever the readers say and in whatever order:
the same moves and anomalies, in the same order, the same beliefs afterwards."""

from __future__ import annotations

from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from controller.table import PresenceTracker
from firmware_bridge.types import ChannelScan
from tests.budget import examples

CHANNELS = {
    "seat1/0": "rack:1", "seat1/1": "rack:1", "seat1/m": "melds:1", "seat2/0": "rack:2",
    "seat3/m": "melds:3", "centre/0": "discard", "centre/r": "river",
}
UIDS = [f"04:00:00:{n:02X}" for n in range(1, 10)]
# five 5b: one copy too many (quarantine); 9th UID unknown to the registry (a ghost)
REGISTRY = dict(zip(UIDS[:8], ["5b", "5b", "ew", "5b", "5b", "5b", "gd", "1c"], strict=True))


class EverySettle(PresenceTracker):
    """The reference: every settling looks at every tile, as the tracker did before."""

    def _settle(self, now: float, scanned: str | None = None) -> list[dict[str, Any]]:
        return super()._settle(now)


def _tracker(cls: type[PresenceTracker]) -> PresenceTracker:
    return cls(CHANNELS, REGISTRY, absent_after=0.3, move_window=0.5, silent_after=1.5,
               ghost_quiet=1.0)


# A channel keeps what lies on it: each scan op re-reads a channel after maybe putting a tile
# on it or taking one off (tiles stay put between scans, as on a table, so tiles are read in
# two zones, gone but held back, and so on, for long enough to matter).
scan_op = st.tuples(st.just("scan"), st.sampled_from(sorted(CHANNELS)),
                    st.sampled_from([None, None, *UIDS]), st.booleans(),
                    st.sampled_from([0.0, 0.05, 0.1, 0.2]))
operations = st.lists(st.one_of(
    scan_op, scan_op, scan_op, scan_op, scan_op, scan_op,
    st.tuples(st.just("tick"), st.floats(0.0, 0.6)),
    st.tuples(st.just("hand_over"), st.booleans()),
    st.tuples(st.just("to_wall"), st.sampled_from(sorted(set(CHANNELS.values()))),
              st.sampled_from(["5b", "ew", "gd"])),
), min_size=10, max_size=150)


def _index_of(tracker: PresenceTracker) -> dict[str, set[str]]:
    on: dict[str, set[str]] = {}
    for uid, track in tracker._tracks.items():
        if track.channel is not None:
            on.setdefault(track.channel, set()).add(uid)
    return on


A, B = UIDS[2], UIDS[3]


@settings(max_examples=examples(400), deadline=None)
@given(operations)
# ew leaves rack 1 while rack 2's reader is behind: held back, then missing once rack 2 speaks
@example([("scan", "seat1/0", A, True, 0.0), ("scan", "seat2/0", None, True, 0.0),
          ("scan", "seat1/0", A, False, 0.1), ("scan", "seat1/0", None, True, 0.4),
          ("scan", "seat2/0", None, True, 0.1), ("scan", "seat1/0", None, True, 0.1)])
# a 5b lies on the pad and is read on meld strip 3 too, for longer than the move window
@example([("scan", "centre/0", B, True, 0.0), ("scan", "seat3/m", B, True, 0.05)]
         + [("scan", "centre/0", None, True, 0.1), ("scan", "seat1/m", None, True, 0.0)] * 7)
def test_settling_only_what_a_scan_can_change_is_settling_everything(ops: list[Any]) -> None:
    quick, full = _tracker(PresenceTracker), _tracker(EverySettle)
    t = 100.0
    lying: dict[str, set[str]] = {channel: set() for channel in CHANNELS}
    for op in ops:
        kind = op[0]
        if kind == "scan":
            _, channel, uid, put, dt = op
            if uid is not None:
                (lying[channel].add if put else lying[channel].discard)(uid)
            t += dt
            scan = ChannelScan(channel, frozenset(lying[channel]), t)
            got, want = quick.scan(scan), full.scan(scan)
        elif kind == "tick":
            got, want = quick.tick(t + op[1]), full.tick(t + op[1])
        elif kind == "hand_over":
            got, want = quick.set_hand_over(op[1]), full.set_hand_over(op[1])
        else:
            quick.expect_to_wall([(op[1], op[2])])
            full.expect_to_wall([(op[1], op[2])])
            got = want = []
        assert got == want, op
        assert quick.positions() == full.positions()
        # the index: every channel's tiles; every tile that must be looked at each time is
        on = {channel: uids for channel, uids in quick._on.items() if uids}
        assert on == _index_of(quick)
        assert {uid for uid, track in quick._tracks.items() if quick._watched(track)} \
            <= quick._watch
    assert quick.zone_tiles() == full.zone_tiles()
