"""Scans -> presence -> moves, scenario by scenario (TABLE.md "From scans to moves")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from controller.table import PresenceTracker
from firmware_bridge.types import ChannelScan

CHANNELS = {
    "seat1/0": "rack:1", "seat1/1": "rack:1", "seat1/m": "melds:1",
    "seat3/0": "rack:3", "seat3/m": "melds:3", "centre/0": "discard",
}
REGISTRY = {
    "04:00:00:01": "5b", "04:00:00:02": "5b", "04:00:00:03": "5b", "04:00:00:04": "5b",
    "04:00:00:05": "ew", "04:00:00:06": "4c", "04:00:00:07": "6c",
}
A5B, B5B, C5B, D5B, EW, C4, C6 = sorted(REGISTRY)
PERIOD = 0.1  # every channel scanned every 100 ms; absent after 0.4 s, moves within 1.0 s


class Table:
    """Drives a tracker the way the readers do: every channel, every period."""

    def __init__(self, registry: Mapping[str, str] = REGISTRY, **options: float) -> None:
        self.tracker = PresenceTracker(CHANNELS, registry, **{"confirm_reads": 1, **options})
        self.t = 0.0

    def cycle(self, seen: Mapping[str, set[str]], order: list[str] | None = None,
              times: int = 1) -> list[dict[str, Any]]:
        events = []
        for _ in range(times):
            for channel in order or list(CHANNELS):
                uids = frozenset(seen.get(channel, set()))
                events += self.tracker.scan(ChannelScan(channel, uids, self.t))
            self.t += PERIOD
        return events


def move(uid: str, frm: str, to: str) -> dict[str, Any]:
    return {"move": {"tile": REGISTRY[uid], "from": frm, "to": to, "uid": uid}}


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["anomaly"]["kind"] for e in events if "anomaly" in e]


def test_a_tile_appearing_in_a_rack_comes_from_the_wall_at_its_first_read() -> None:
    table = Table()
    assert table.cycle({"seat1/0": {A5B}}) == [move(A5B, "wall", "rack:1")]
    assert table.cycle({"seat1/0": {A5B}}, times=10) == []


def test_flicker_of_a_missed_read_or_two_makes_no_move() -> None:
    table = Table()
    table.cycle({"seat1/0": {A5B, EW}})
    pattern = [set(), {A5B}, set(), set(), {A5B}, {A5B}, set(), {A5B}]
    events = []
    for reads in pattern * 3:
        events += table.cycle({"seat1/0": reads | {EW}})
    assert events == []
    assert table.tracker.positions() == {A5B: "rack:1", EW: "rack:1"}


def test_rack_to_discard_is_one_move_emitted_at_the_first_read_on_the_pad() -> None:
    table = Table()
    table.cycle({"seat1/0": {A5B, EW}})
    table.cycle({"seat1/0": {EW}})  # lifted: the rack misses it once
    events = table.cycle({"seat1/0": {EW}, "centre/0": {A5B}})
    assert events == [move(A5B, "rack:1", "discard")]
    # not waiting for the rack's absence debounce: with one of 100 s it comes just as soon
    slow = Table(absent_after=100.0)
    slow.cycle({"seat1/0": {A5B, EW}})
    slow.cycle({"seat1/0": {EW}})
    assert slow.cycle({"seat1/0": {EW}, "centre/0": {A5B}}) == [move(A5B, "rack:1", "discard")]
    assert table.cycle({"seat1/0": {EW}, "centre/0": {A5B}}, times=20) == []


def test_pad_scanned_before_the_rack_notices_moves_once_the_rack_misses_it() -> None:
    table = Table()
    order = ["centre/0", *[c for c in CHANNELS if c != "centre/0"]]
    table.cycle({"seat1/0": {A5B}}, order=order)
    events = table.cycle({"centre/0": {A5B}}, order=order)
    assert events == [move(A5B, "rack:1", "discard")]


def test_sliding_between_slots_of_one_rack_is_no_move() -> None:
    table = Table()
    table.cycle({"seat1/0": {A5B}})
    assert table.cycle({"seat1/1": {A5B}}, times=10) == []
    assert table.tracker.positions() == {A5B: "rack:1"}


def test_discard_then_claimed_to_the_meld_strip() -> None:
    table = Table()
    table.cycle({"seat1/0": {C5B}, "seat3/0": {A5B, B5B}})
    table.cycle({"centre/0": {C5B}, "seat3/0": {A5B, B5B}}, times=3)
    events = table.cycle({"seat3/m": {C5B}, "seat3/0": {A5B, B5B}}, times=2)
    events += table.cycle({"seat3/m": {A5B, B5B, C5B}}, times=10)
    assert events == [move(C5B, "discard", "melds:3"), move(A5B, "rack:3", "melds:3"),
                      move(B5B, "rack:3", "melds:3")]
    assert table.tracker.zone_tiles() == {"melds:3": ["5b", "5b", "5b"]}


def test_a_discard_that_disappears_goes_to_the_river_once() -> None:
    table = Table()
    table.cycle({"seat1/0": {EW}})
    table.cycle({"centre/0": {EW}}, times=2)
    events = table.cycle({}, times=3)
    assert events == []  # still within the debounce
    events = table.cycle({}, times=10)
    assert events == [move(EW, "discard", "river")]
    assert table.tracker.positions() == {EW: "river"}


def test_ghost_uids_are_reported_once_and_never_move_anything() -> None:
    table = Table(ghost_quiet=0.5)
    ghost = "08:BA:D0:00"
    events = table.cycle({"seat1/0": {A5B, ghost}}, times=5)
    assert events[0] == move(A5B, "wall", "rack:1")
    assert kinds(events) == ["unknown_uid"]
    anomaly = events[1]["anomaly"]
    assert anomaly["uid"] == ghost and anomaly["zone"] == "rack:1"
    assert "not in the registry" in anomaly["message"] and "enroll" in anomaly["message"]
    table.cycle({"seat1/0": {A5B}}, times=10)
    assert kinds(table.cycle({"seat1/0": {A5B, ghost}})) == ["unknown_uid"]  # a new appearance
    assert table.tracker.positions() == {A5B: "rack:1"}


def test_bursts_of_garbled_uids_are_reported_at_most_once_per_quiet_time_per_zone() -> None:
    table = Table(ghost_quiet=5.0)
    events = []
    for n in range(30):  # 30 different garbled UIDs in 3 s, on the rack; one on the pad
        events += table.cycle({"seat1/0": {f"08:00:00:{n:02X}"}, "centre/0": {"09:00:00:00"}})
    assert [(e["anomaly"]["zone"], e["anomaly"]["held_back"]) for e in events] == [
        ("rack:1", 0), ("discard", 0)]
    table.cycle({}, times=25)
    later = table.cycle({"seat1/0": {"08:00:00:FF"}})
    assert [(e["anomaly"]["zone"], e["anomaly"]["held_back"]) for e in later] == [("rack:1", 29)]
    assert "29 more unknown UIDs" in later[0]["anomaly"]["message"]


def test_a_tile_leaving_a_rack_for_nowhere_is_an_anomaly_not_a_move() -> None:
    table = Table()
    table.cycle({"seat1/0": {A5B, EW}})
    events = table.cycle({"seat1/0": {EW}}, times=20)
    assert kinds(events) == ["tile_missing"] and not [e for e in events if "move" in e]
    assert events[0]["anomaly"]["zone"] == "rack:1"
    assert table.tracker.positions()[A5B] == "rack:1"
    assert table.cycle({"seat1/0": {EW}, "centre/0": {A5B}}) == [move(A5B, "rack:1", "discard")]


def test_a_tile_read_in_two_zones_beyond_a_move_is_an_anomaly_and_stays_put() -> None:
    table = Table()
    table.cycle({"seat1/0": {A5B}})
    events = table.cycle({"seat1/0": {A5B}, "centre/0": {A5B}}, times=15)
    assert kinds(events) == ["seen_in_two_zones"]
    assert events[0]["anomaly"]["zones"] == ["rack:1", "discard"]
    assert table.tracker.positions() == {A5B: "rack:1"}
    # The rack lets go of it: now it has moved.
    assert table.cycle({"centre/0": {A5B}}) == [move(A5B, "rack:1", "discard")]


def test_a_silent_channel_is_reported_and_its_tiles_stay() -> None:
    table = Table(silent_after=2.0)
    table.cycle({"seat1/0": {A5B}, "seat3/0": {EW}})
    quiet = [c for c in CHANNELS if c != "seat1/0"]
    events = []
    for _ in range(30):
        events += table.cycle({"seat3/0": {EW}}, order=quiet)
        events += table.tracker.tick(table.t)
    assert kinds(events) == ["reader_silent"]
    assert events[0]["anomaly"]["channel"] == "seat1/0"
    assert table.tracker.positions() == {A5B: "rack:1", EW: "rack:3"}
    assert table.cycle({"seat1/0": {A5B}, "seat3/0": {EW}}) == []


def test_a_channel_that_never_scans_is_reported_silent() -> None:
    tracker = PresenceTracker({"seat1/0": "rack:1"}, REGISTRY, silent_after=3.0, confirm_reads=1)
    assert tracker.tick(10.0) == []
    assert kinds(tracker.tick(13.0)) == ["reader_silent"]
    assert tracker.tick(14.0) == []


def test_a_board_being_resynchronised_is_not_silent_until_silent_after_from_its_resync() -> None:
    """A board whose frames show a gap holds back its channels' scans until its snapshot has
    come (firmware_bridge.serial_backend: a stale channel is not posted; the link asks again
    every 50 ms), while the other boards' scans move the readers' clock on. A board that is
    resynchronising is talking: its channels are not silent before ``silent_after`` has passed
    since the resync began; after that they are, however often it is asked again. Loaded runs
    15, 18 and 19 of issue 22: one seat1 channel "silent" right after a held-up event loop,
    whose last scan of it was from before the hold-up."""
    table = Table(silent_after=2.0)
    seat1 = [c for c in CHANNELS if c.startswith("seat1/")]
    quiet = [c for c in CHANNELS if c not in seat1]
    table.cycle({"seat1/0": {A5B}, "seat3/0": {EW}})  # every channel at t=0
    events = []
    for _ in range(5):  # 0.5 s of every reader, then seat1's frames show a gap
        events += table.cycle({"seat1/0": {A5B}, "seat3/0": {EW}})
    last_scan, began = table.t - PERIOD, table.t + 1.0  # the loop held up for a second
    table.t = began
    while table.t < began + 1.95:  # its snapshot is late: asked for again, the others scan on
        table.tracker.resyncing("seat1", table.t)
        events += table.cycle({"seat3/0": {EW}}, order=quiet)
        events += table.tracker.tick(table.t)
    assert table.t - last_scan > table.tracker.silent_after + 1.0  # its last scan: long ago
    assert kinds(events) == []
    while table.t < began + 2.25:  # still no snapshot: now it is silent, once
        table.tracker.resyncing("seat1", table.t)
        events += table.cycle({"seat3/0": {EW}}, order=quiet)
        events += table.tracker.tick(table.t)
    assert sorted(e["anomaly"]["channel"] for e in events) == sorted(seat1)
    said = events[0]["anomaly"]["message"]  # the time since its last scan, not its resync
    assert float(said.split("no scan for ")[1].split(" s")[0]) >= 3.0, said
    assert table.tracker.positions() == {A5B: "rack:1", EW: "rack:3"}
    # the snapshot comes: heard again; a resync 1.5 s later counts from its own start
    events = table.cycle({"seat1/0": {A5B}, "seat3/0": {EW}})
    snapshot = table.t - PERIOD
    while table.t < snapshot + 3.45:
        if table.t >= snapshot + 1.5:
            table.tracker.resyncing("seat1", table.t)
        events += table.cycle({"seat3/0": {EW}}, order=quiet)
        events += table.tracker.tick(table.t)
    assert kinds(events) == []
    while table.t < snapshot + 3.75:
        events += table.cycle({"seat3/0": {EW}}, order=quiet)
        events += table.tracker.tick(table.t)
    assert sorted(e["anomaly"]["channel"] for e in events) == sorted(seat1)


def test_a_resync_of_another_board_gives_no_grace() -> None:
    table = Table(silent_after=2.0)
    table.cycle({"seat1/0": {A5B}, "seat3/0": {EW}})
    quiet = [c for c in CHANNELS if c != "seat1/0"]
    events = []
    for _ in range(25):
        events += table.cycle({"seat3/0": {EW}}, order=quiet)
        table.tracker.resyncing("seat3", table.t)
        table.tracker.resyncing("seat1/0", table.t)  # a channel's name is not a board's
        events += table.tracker.tick(table.t)
    assert [e["anomaly"]["channel"] for e in events] == ["seat1/0"]


def test_a_channel_whose_scan_waits_in_the_queue_is_not_silent() -> None:
    """A loop held up gets to the readers' backlog late, and may tick between its first scans
    (the readers' clock jumps to now) and its last (still queued): those channels have spoken,
    their scans wait. ``tick`` is told which (firmware_bridge.readers.LatestScans.waiting);
    one that is not waiting is judged as before. Here seat1's board had lagged 1.6 s behind
    the others before the loop was held up for 0.5 s (less than a pause of the whole table,
    ``silent_after / 3``): its channels are 2.1 s behind, past ``silent_after``."""
    table = Table(silent_after=2.0)
    table.cycle({"seat1/0": {A5B}, "seat3/0": {EW}})
    seat1 = [c for c in CHANNELS if c.startswith("seat1/")]
    others = [c for c in CHANNELS if c not in seat1]
    while table.t < 1.6:
        assert table.cycle({"seat3/0": {EW}}, order=others) == []
    table.t += 0.5  # the loop held up
    first = ["seat3/0", "seat3/m", "centre/0"]  # the burst's first scans, taken
    table.cycle({"seat3/0": {EW}}, order=first)
    rest = [c for c in CHANNELS if c not in first]  # seat1's three
    assert rest == seat1 and table.t - PERIOD > table.tracker.silent_after
    assert kinds(table.tracker.tick(table.t, waiting=frozenset(rest))) == []
    # its board's resync report waits: its channels' scans wait for the snapshot
    assert kinds(table.tracker.tick(table.t, waiting=frozenset({"seat1"}))) == []
    events = table.tracker.tick(table.t, waiting=frozenset(rest[1:] + ["seat3"]))
    assert [e["anomaly"]["channel"] for e in events] == rest[:1]
    # the first channel's scan waits now, the others' not: they are judged all the same
    events = table.tracker.tick(table.t, waiting=frozenset(rest[:1]))
    assert [e["anomaly"]["channel"] for e in events] == rest[1:]


def test_a_pause_of_the_whole_table_is_no_channels_silence() -> None:
    """Loaded run 25 (issue 22): the virtual boards' process got no CPU for 3.3 s; the first
    board heard after it moved the readers' clock on, and every channel of the other boards
    was reported silent before its own scan came. No channel of the table scanned for
    ``silent_after / 3`` or more: that time is taken off every channel's count. seat1 then
    stays quiet while the others scan: it is silent ``silent_after`` of heard time after its
    last scan, not sooner."""
    table = Table(silent_after=3.0)
    table.cycle({"seat1/0": {A5B}, "seat3/0": {EW}}, times=5)
    last = table.t - PERIOD  # every channel's last scan before the pause
    table.t = last + 3.3  # nothing from any board for 3.3 s
    seat1 = [c for c in CHANNELS if c.startswith("seat1/")]
    others = [c for c in CHANNELS if c not in seat1]
    events = table.cycle({"seat3/0": {EW}}, order=others)  # seat3 and the pad first
    events += table.tracker.tick(table.t)
    assert kinds(events) == []
    resumed = last + 3.3
    while table.t < resumed + 2.95:  # seat1 still quiet: 2.95 s of heard time, not 6.25 s
        events += table.cycle({"seat3/0": {EW}}, order=others)
        events += table.tracker.tick(table.t)
    assert kinds(events) == []
    while table.t < resumed + 3.15:
        events += table.cycle({"seat3/0": {EW}}, order=others)
        events += table.tracker.tick(table.t)
    assert sorted(e["anomaly"]["channel"] for e in events) == sorted(seat1)
    assert table.tracker.positions() == {A5B: "rack:1", EW: "rack:3"}


def test_a_pause_takes_off_only_its_own_length_from_a_channel_quiet_before_it() -> None:
    """seat1 had been quiet for 2 s of heard time when the whole table paused for 5 s: it has
    1 s left after the pause; a gap shorter than ``silent_after / 3`` is no pause."""
    table = Table(silent_after=3.0)
    table.cycle({"seat1/0": {A5B}, "seat3/0": {EW}})
    seat1 = [c for c in CHANNELS if c.startswith("seat1/")]
    others = [c for c in CHANNELS if c not in seat1]
    last = table.t - PERIOD
    events: list[dict[str, Any]] = []
    while table.t < last + 2.0:
        events += table.cycle({"seat3/0": {EW}}, order=others)
    table.t += 5.0
    resumed = table.t
    while table.t < resumed + 0.95:
        events += table.cycle({"seat3/0": {EW}}, order=others)
        events += table.tracker.tick(table.t)
    assert kinds(events) == []
    table.t += 0.8  # a gap of 0.9 s, under silent_after / 3 (1 s), counts as heard
    events += table.cycle({"seat3/0": {EW}}, order=others)
    events += table.tracker.tick(table.t)
    assert sorted(e["anomaly"]["channel"] for e in events) == sorted(seat1)


def test_a_loop_that_gets_to_the_scans_late_sees_no_silence() -> None:
    """Issue 11: under load the loop ticked with its own clock while the scans waited in a
    queue, so every reader looked silent (33,131 reader_silent in 50 s). Silence is judged by
    the reader's clock (the scans' own times): a loop 5 s behind sees none; a channel that
    really stopped is still reported, once."""
    table = Table(silent_after=3.0)
    events = []
    for _ in range(100):
        events += table.cycle({"seat1/0": {A5B}, "seat3/0": {EW}})
        events += table.tracker.tick(table.t + 5.0)  # the loop, 5 s late
    assert kinds(events) == []
    quiet = [c for c in CHANNELS if c != "seat1/0"]
    for _ in range(100):
        events += table.cycle({"seat3/0": {EW}}, order=quiet)
        events += table.tracker.tick(table.t + 5.0)
    assert kinds(events) == ["reader_silent"]
    assert [e["anomaly"]["channel"] for e in events if "anomaly" in e] == ["seat1/0"]


def test_a_fifth_copy_is_reported_and_makes_no_move() -> None:
    registry = dict(REGISTRY, **{"04:00:00:99": "5b"})
    table = Table(registry)
    events = table.cycle({"seat1/0": {A5B, B5B, C5B}, "seat3/0": {D5B}})
    assert len([e for e in events if "move" in e]) == 4
    events = table.cycle({"seat1/0": {A5B, B5B, C5B}, "seat3/0": {D5B, "04:00:00:99"}},
                         times=3)
    assert kinds(events) == ["fifth_copy"] and not [e for e in events if "move" in e]
    events = table.cycle({"seat1/0": {A5B, B5B, C5B}, "centre/0": {"04:00:00:99"},
                          "seat3/0": {D5B}}, times=3)
    assert events == []
    assert "04:00:00:99" not in table.tracker.positions()


def test_when_the_hand_is_over_tiles_leaving_go_back_to_the_wall() -> None:
    table = Table()
    table.cycle({"seat1/0": {A5B, EW}})
    table.cycle({"seat1/0": {EW}}, times=10)  # A5B went missing during the hand
    events = table.tracker.set_hand_over(True)
    assert events == [move(A5B, "rack:1", "wall")]
    events = table.cycle({}, times=10)
    assert events == [move(EW, "rack:1", "wall")]
    table.tracker.set_hand_over(False)
    assert table.cycle({"seat3/0": {EW}}) == [move(EW, "wall", "rack:3")]


def test_unmapped_channel_is_reported_once() -> None:
    tracker = PresenceTracker(CHANNELS, REGISTRY, confirm_reads=1)
    first = tracker.scan(ChannelScan("seat9/0", frozenset({A5B}), 0.0))
    assert kinds(first) == ["unmapped_channel"]
    assert tracker.scan(ChannelScan("seat9/0", frozenset({A5B}), 0.1)) == []
    assert tracker.positions() == {}


def test_a_bad_zone_in_the_channel_map_is_refused() -> None:
    with pytest.raises(ValueError, match="zone 'table' is not rack:N"):
        PresenceTracker({"x/0": "table"}, REGISTRY)


def test_after_a_restart_tiles_where_the_game_has_them_are_adopted_without_moves() -> None:
    table = Table()
    table.tracker.adopt({"rack:1": ["5b", "5b", "ew"], "discard": ["4c"], "melds:3": []})
    events = table.cycle({"seat1/0": {A5B, EW}, "centre/0": {C4}}, times=5)
    assert events == []
    assert table.tracker.positions() == {A5B: "rack:1", EW: "rack:1", C4: "discard"}
    # The other 5b the game has in rack:1 turns up on a meld strip: it moved from the rack.
    events = table.cycle({"seat1/0": {A5B, EW}, "centre/0": {C4}, "seat1/m": {B5B}})
    assert events == [move(B5B, "rack:1", "melds:1")]
    # A tile the game does not have on the table comes from the wall.
    events = table.cycle({"seat1/0": {A5B, EW, C6}, "centre/0": {C4}, "seat1/m": {B5B}})
    assert events == [move(C6, "wall", "rack:1")]


def test_adoption_ends_when_the_hand_is_over() -> None:
    table = Table()
    table.tracker.adopt({"rack:1": ["5b"]})
    table.tracker.set_hand_over(True)
    table.tracker.set_hand_over(False)
    assert table.cycle({"seat1/0": {A5B}}) == [move(A5B, "wall", "rack:1")]


def test_a_claim_onto_an_unplugged_seat_board_is_not_taken_for_the_river() -> None:
    """Seat 3's board is down while the discard goes to its meld strip: no river guess."""
    table = Table()
    table.cycle({"seat3/0": {C4, C6}, "centre/0": {A5B}}, times=2)
    up = [c for c in CHANNELS if not c.startswith("seat3")]
    events = table.cycle({}, order=up, times=10)  # the pad is empty; seat 3 says nothing
    assert events == []
    back = table.cycle({"seat3/m": {A5B}, "seat3/0": {C4, C6}}, times=2)
    assert back == [move(A5B, "discard", "melds:3")]


def test_a_discard_left_unclaimed_goes_to_the_river_once_every_board_has_spoken() -> None:
    table = Table()
    table.cycle({"seat3/0": {C4}, "centre/0": {A5B}}, times=2)
    up = [c for c in CHANNELS if not c.startswith("seat3")]
    assert table.cycle({}, order=up, times=10) == []
    assert table.cycle({"seat3/0": {C4}}, times=6) == [move(A5B, "discard", "river")]


def test_a_leftover_adoption_does_not_hide_the_next_deal() -> None:
    """A finished hand laid out after a restart is adopted; a tile of it swept before it was
    read must not make the next hand's deal of that code silent."""
    table = Table()
    table.tracker.set_hand_over(True)
    table.tracker.adopt({"rack:1": ["5b"]})  # never read: swept off before the first scan
    table.tracker.set_hand_over(False)  # the next hand begins
    assert table.cycle({"seat1/0": {A5B}}) == [move(A5B, "wall", "rack:1")]


def test_describe_says_where_a_tile_is_believed_and_who_reads_it() -> None:
    """For the warning when a move is not registered: the tracker's belief, in words, without
    the tile's code (it may be concealed)."""
    tracker = PresenceTracker({"seat2/0": "rack:2", "centre/0": "discard"}, {"04:AA": "7d"},
                              confirm_reads=1)
    tracker.scan(ChannelScan("seat2/0", frozenset({"04:AA"}), 10.0))
    tracker.scan(ChannelScan("centre/0", frozenset({"04:AA"}), 10.1))  # moving: read in both
    text = tracker.describe("04:AA", 10.3)
    assert text.startswith("04:AA: in rack:2")
    assert "also read in discard on centre/0 0.20 s ago" in text
    assert "seat2/0 (rack:2) last scanned 0.30 s ago, reading it" in text
    assert "7d" not in text
    assert tracker.describe("04:BB", 10.3) == "04:BB: never read"


def test_a_tile_is_not_missing_while_a_reader_that_may_hold_it_is_behind() -> None:
    """Under load one board's link can deliver its scans late: the pad's read of the tile
    arrives after the rack has long stopped reading it. It is a move, not a missing tile."""
    table = Table()
    table.cycle({"seat1/0": {A5B, EW}}, times=2)
    pad_behind = table.t - PERIOD  # the pad's last scan reached the tracker at this time
    up = [c for c in CHANNELS if c != "centre/0"]
    events = table.cycle({"seat1/0": {EW}}, order=up, times=8)  # 0.8 s; the pad says nothing
    assert events == []
    late = table.tracker.scan(ChannelScan("centre/0", frozenset({A5B}), pad_behind + 0.05))
    events = late + table.cycle({"seat1/0": {EW}, "centre/0": {A5B}}, times=2)
    assert events == [move(A5B, "rack:1", "discard")]


def test_a_tile_is_missing_once_the_late_reader_has_spoken_without_it() -> None:
    table = Table()
    table.cycle({"seat1/0": {A5B, EW}}, times=2)
    up = [c for c in CHANNELS if c != "centre/0"]
    assert table.cycle({"seat1/0": {EW}}, order=up, times=8) == []
    events = table.cycle({"seat1/0": {EW}}, times=2)  # the pad speaks: the tile is nowhere
    assert kinds(events) == ["tile_missing"]


def test_a_dead_reader_does_not_hold_back_a_missing_tile() -> None:
    table = Table()
    table.cycle({"seat1/0": {A5B, EW}}, times=2)
    up = [c for c in CHANNELS if c != "centre/0"]
    # the pad dead: no verdict while it might only be behind, the verdict once it is too far
    # behind to be live (silent_after, 3 s)
    assert table.cycle({"seat1/0": {EW}}, order=up, times=25) == []
    assert kinds(table.cycle({"seat1/0": {EW}}, order=up, times=10)) == ["tile_missing"]
