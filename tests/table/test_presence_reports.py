"""What the tracker says and when, to the letter: ``describe`` in words, the operator's
anomaly messages, and the edges of its time rules (a quiet time, a silent reader), on a reader
clock far from zero as a board's is. Each time rule's edge is taken the way the rest of the
tracker takes it: ``absent_after`` and ``silent_after`` have passed once that long has gone
(``_gone``, ``reader_silent``), and ``ghost_quiet`` is a window a new report opens."""

from __future__ import annotations

from typing import Any

import pytest

from controller.table import PresenceTracker
from firmware_bridge.types import ChannelScan

CHANNELS = {"seat1/0": "rack:1", "seat2/0": "rack:2", "centre/0": "discard", "centre/r": "river"}
TILE, GHOST, OTHER_GHOST = "04:00:00:AA", "08:BA:D0:01", "08:BA:D0:02"
FIVES = [f"04:00:00:0{n}" for n in range(1, 6)]  # five tags coded 5b: one too many
FLOWER, FLOWER_TOO = "04:00:00:F1", "04:00:00:F2"  # two tags coded 1f: one too many
REGISTRY = {TILE: "7d", FLOWER: "1f", FLOWER_TOO: "1f", **{uid: "5b" for uid in FIVES}}
T0 = 1000.0  # a board's clock is seconds since it started, never near zero at a game


def tracker(**options: float) -> PresenceTracker:
    return PresenceTracker(CHANNELS, REGISTRY, **{"confirm_reads": 1, **options})


def scan(t: PresenceTracker, channel: str, uids: set[str], at: float) -> list[dict[str, Any]]:
    return t.scan(ChannelScan(channel, frozenset(uids), at))


def anomalies(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e["anomaly"] for e in events if "anomaly" in e]


# ------------------------------------------------------------------------------ describe


def test_describe_a_missing_tile_names_only_the_channel_that_held_it() -> None:
    t = tracker()
    scan(t, "seat1/0", {TILE}, T0)
    scan(t, "seat2/0", set(), T0 + 0.5)
    scan(t, "centre/0", set(), T0 + 0.5)
    assert anomalies(scan(t, "seat1/0", set(), T0 + 0.5)) == [{
        "kind": "tile_missing", "uid": TILE, "tile": "7d", "zone": "rack:1",
        "message": f"7d ({TILE}) left rack:1 and was not seen anywhere: put it back; the game "
                   "still has it in rack:1"}]
    # seat2/0 and centre/0 have scanned, but neither holds nor reads it: left out
    assert t.describe(TILE, T0 + 1.0) == (
        f"{TILE}: in rack:1; reported missing; seat1/0 (rack:1) last scanned 0.50 s ago, "
        "not reading it")


def test_describe_a_fifth_copy_says_it_is_quarantined_and_who_reads_it() -> None:
    t = tracker()
    events = scan(t, "seat1/0", set(FIVES), T0)
    fifth = FIVES[4]  # read in the order of the UIDs: the last is the fifth
    assert anomalies(events) == [{
        "kind": "fifth_copy", "uid": fifth, "tile": "5b", "zone": "rack:1",
        "message": f"a copy too many of 5b ({fifth}) in rack:1: ignored; take the tile off and "
                   "check the registry"}]
    assert t.describe(fifth, T0 + 0.25) == (
        f"{fifth}: in rack:1; quarantined as a fifth copy; seat1/0 (rack:1) last scanned "
        "0.25 s ago, reading it")


def test_describe_names_a_channel_that_reads_the_tile_though_it_does_not_hold_it() -> None:
    t = tracker(absent_after=0.5, move_window=2.0)
    scan(t, "seat1/0", {TILE}, T0)
    scan(t, "seat2/0", {TILE}, T0 + 0.25)  # read in both racks at once
    assert t.describe(TILE, T0 + 0.5) == (
        f"{TILE}: in rack:1; also read in rack:2 on seat2/0 0.25 s ago; "
        "seat1/0 (rack:1) last scanned 0.50 s ago, reading it; "
        "seat2/0 (rack:2) last scanned 0.25 s ago, reading it")


# ------------------------------------------------------------------------- the messages


def test_an_unmapped_channel_is_named_with_what_to_do() -> None:
    t = tracker()
    assert anomalies(scan(t, "seat9/0", {TILE}, T0)) == [{
        "kind": "unmapped_channel", "channel": "seat9/0",
        "message": "channel seat9/0 is not in the config's channel -> zone map: its scans are "
                   "ignored; add it under table.channels"}]


def test_a_first_ghost_report_has_no_count_of_held_back_reads() -> None:
    t = tracker()
    (report,) = anomalies(scan(t, "seat1/0", {GHOST}, T0))
    assert report == {
        "kind": "unknown_uid", "uid": GHOST, "zone": "rack:1", "held_back": 0,
        "message": f"tile {GHOST} is not in the registry: ignored (a ghost read from a "
                   "neighbouring antenna?); if it is a tile, run `mahjong-table enroll`"}


# ------------------------------------------------------------------- ghosts and quiet time


def test_a_ghost_that_stays_is_one_appearance_not_reads_held_back() -> None:
    t = tracker(ghost_quiet=5.0)
    reports = []
    for n in range(60):  # the same garbled UID read every 100 ms for 6 s, the loop ticking
        reports += anomalies(scan(t, "seat1/0", {GHOST}, T0 + n / 10))
        reports += [a for a in anomalies(t.tick(T0 + n / 10)) if a["kind"] == "unknown_uid"]
    assert [(a["uid"], a["held_back"]) for a in reports] == [(GHOST, 0)]
    later = anomalies(scan(t, "seat1/0", {GHOST, OTHER_GHOST}, T0 + 6.0))
    assert [(a["uid"], a["held_back"]) for a in later] == [(OTHER_GHOST, 0)]


def test_a_ghost_unread_for_absent_after_is_a_new_appearance() -> None:
    t = tracker(absent_after=0.5, ghost_quiet=0.25)
    assert len(anomalies(scan(t, "seat1/0", {GHOST}, T0))) == 1
    assert anomalies(scan(t, "seat1/0", {GHOST}, T0 + 0.25)) == []  # still there
    assert anomalies(scan(t, "seat1/0", set(), T0 + 0.5)) == []
    again = anomalies(scan(t, "seat1/0", {GHOST}, T0 + 0.75))  # unread for 0.5 s: it left
    assert [(a["uid"], a["held_back"]) for a in again] == [(GHOST, 0)]


def test_the_quiet_time_is_a_window_opened_by_each_report() -> None:
    t = tracker(ghost_quiet=5.0)
    assert len(anomalies(scan(t, "seat1/0", {"08:00:00:01"}, T0))) == 1
    assert anomalies(scan(t, "seat1/0", {"08:00:00:02"}, T0 + 4.5)) == []  # held back
    (report,) = anomalies(scan(t, "seat1/0", {"08:00:00:03"}, T0 + 5.0))
    assert (report["uid"], report["held_back"]) == ("08:00:00:03", 1)
    assert report["message"].endswith(
        "run `mahjong-table enroll` (1 more unknown UIDs read there since the last report)")


# ------------------------------------------------------------------------ a silent reader


def test_a_reader_silent_for_silent_after_no_longer_holds_back_a_missing_tile() -> None:
    """The pad stops at T0; the tile leaves rack 1 at once. While the pad is less than
    ``silent_after`` (3 s) behind the newest scan it may yet report the tile; once it is
    3 s behind it is dead, as ``reader_silent`` would say, and the tile is missing."""
    t = tracker()
    scan(t, "centre/0", set(), T0)
    scan(t, "seat2/0", set(), T0)
    scan(t, "seat1/0", {TILE}, T0)
    for step in range(1, 6):  # T0 + 0.5 ... T0 + 2.5: the pad may be behind
        at = T0 + step / 2
        assert scan(t, "seat2/0", set(), at) + scan(t, "seat1/0", set(), at) == [], at
    events = scan(t, "seat2/0", set(), T0 + 3.0) + scan(t, "seat1/0", set(), T0 + 3.0)
    assert [a["kind"] for a in anomalies(events)] == ["tile_missing"]


def test_scans_takes_many_scans_as_scan_takes_each() -> None:
    batch = [ChannelScan("seat1/0", frozenset({TILE}), T0),
             ChannelScan("centre/0", frozenset({TILE}), T0 + 0.1),
             ChannelScan("seat1/0", frozenset(), T0 + 0.6),
             ChannelScan("centre/0", frozenset({TILE}), T0 + 0.7)]
    one_by_one = tracker()
    expected = [e for s in batch for e in one_by_one.scan(s)]
    assert expected[0] == {"move": {"tile": "7d", "from": "wall", "to": "rack:1", "uid": TILE}}
    assert tracker().scans(batch) == expected


# --------------------------------------------------------------------- read in two zones


def move(frm: str, to: str) -> dict[str, Any]:
    return {"move": {"tile": "7d", "from": frm, "to": to, "uid": TILE}}


def test_a_tile_slid_to_the_next_rack_then_discarded_moves_each_time_from_where_it_was() -> None:
    t = tracker(absent_after=0.5, move_window=2.0)
    events = scan(t, "seat1/0", {TILE}, T0) + scan(t, "seat2/0", {TILE}, T0)  # on the seam
    events += scan(t, "seat1/0", set(), T0 + 0.25)  # off rack 1: it is on rack 2
    events += scan(t, "centre/0", {TILE}, T0 + 0.5)  # over the pad, rack 2 not yet rescanned
    events += scan(t, "seat2/0", set(), T0 + 0.75)
    assert events == [move("wall", "rack:1"), move("rack:1", "rack:2"),
                      move("rack:2", "discard")]


def test_a_cross_read_that_rack_two_no_longer_gives_is_no_place_to_move_to() -> None:
    """Read once on rack 2, which then scans for absent_after without it: rack 2 does not
    hold it. Lifted off rack 1 after that, it is missing, not moved to rack 2."""
    t = tracker(absent_after=0.5, move_window=2.0)
    scan(t, "seat1/0", {TILE}, T0)
    scan(t, "seat2/0", {TILE}, T0)
    assert scan(t, "seat2/0", set(), T0 + 0.5) == []
    events = scan(t, "seat1/0", set(), T0 + 0.5)
    assert [a["kind"] for a in anomalies(events)] == ["tile_missing"]
    assert [e for e in events if "move" in e] == []


def test_read_in_two_zones_for_move_window_is_reported_once_each_time_it_happens() -> None:
    t = tracker(absent_after=0.5, move_window=1.0)

    def both(at: float, second: set[str]) -> list[dict[str, Any]]:
        return anomalies(scan(t, "seat1/0", {TILE}, at) + scan(t, "seat2/0", second, at))

    assert both(T0, {TILE}) == []
    assert both(T0 + 0.5, set()) == []  # a cross-read that went away: forgotten
    assert both(T0 + 1.0, {TILE}) == []  # read in both again: a new start
    assert both(T0 + 1.5, {TILE}) == []
    assert t.tick(T0 + 1.5) == []  # a tick looks at the tile in two zones too
    assert both(T0 + 2.0, {TILE}) == [{  # 1.0 s (move_window) in both: reported
        "kind": "seen_in_two_zones", "uid": TILE, "tile": "7d", "zones": ["rack:1", "rack:2"],
        "message": f"7d ({TILE}) is read in rack:1 and rack:2 at once for 1.0 s: two tags "
                   "with one UID, or an antenna reading its neighbour; it stays in rack:1"}]
    assert both(T0 + 2.5, {TILE}) == []  # once


# ------------------------------------------------------------------ off the table's antennas


def test_a_discard_gone_to_the_river_is_believed_there_and_not_missing() -> None:
    t = tracker()
    events = scan(t, "centre/0", {TILE}, T0)
    events += scan(t, "seat1/0", set(), T0 + 0.5) + scan(t, "seat2/0", set(), T0 + 0.5)
    events += scan(t, "centre/0", set(), T0 + 0.5)  # the racks spoke once since: held
    assert events == [move("wall", "discard")]
    # twice since: a board shows a tile at its second read, so it would show a claim now
    events += scan(t, "seat1/0", set(), T0 + 0.55) + scan(t, "seat2/0", set(), T0 + 0.55)
    assert events == [move("wall", "discard"), move("discard", "river")]
    assert t.positions() == {TILE: "river"}
    assert t.describe(TILE, T0 + 1.0) == f"{TILE}: in river"


def test_a_tile_swept_off_after_the_hand_is_back_in_the_wall() -> None:
    t = tracker()
    scan(t, "seat1/0", {TILE}, T0)
    assert t.set_hand_over(True) == []
    assert scan(t, "seat1/0", set(), T0 + 0.5) == [move("rack:1", "wall")]
    assert t.positions() == {TILE: "wall"}
    assert t.zone_tiles() == {}
    assert t.describe(TILE, T0 + 1.0) == f"{TILE}: in wall"


def test_a_tile_still_read_when_the_hand_is_taken_back_is_in_play_again() -> None:
    """Read in the newest scan when an undo takes the finished hand back, the tile was on
    the table then: gone afterwards it is missing (the hand's tile), not cleared to the wall."""
    t = tracker()
    scan(t, "seat1/0", {TILE}, T0)
    t.set_hand_over(True)
    scan(t, "seat1/0", {TILE}, T0 + 0.25)
    assert t.set_hand_over(False) == []  # the undo, at the newest scan's time
    events = scan(t, "seat1/0", set(), T0 + 0.75)
    assert [a["kind"] for a in anomalies(events)] == ["tile_missing"]
    assert t.positions() == {TILE: "rack:1"}


def test_a_tile_whose_own_reader_lags_stays_until_that_reader_is_silent() -> None:
    """``_sees``: the tile's own zone still reads it on its channel's latest scan unless that
    channel has gone silent (``silent_after`` behind the newest scan, as ``_readers_behind``
    judges): read on rack 2 while rack 1's reader lags by more than ``move_window`` but less
    than ``silent_after``, the tile stays in rack 1 (a lagging board is waited for; loaded run
    21); once rack 1's reader is ``silent_after`` behind, the next read on rack 2 moves it.
    Rack 2 scans every half second meanwhile: the table is heard (a pause of the whole table
    would not count, ``_silence``)."""
    t = tracker(absent_after=0.5, move_window=1.0, silent_after=3.0)
    scan(t, "seat1/0", {TILE}, T0)
    assert scan(t, "seat2/0", set(), T0 + 0.5) == []
    assert scan(t, "seat2/0", {TILE}, T0 + 1.0) == []
    # read in both for move_window: reported (once), and it stays where it was
    events = [e for at in (1.5, 2.0, 2.5, 2.9) for e in scan(t, "seat2/0", {TILE}, T0 + at)]
    assert [a["kind"] for a in anomalies(events)] == ["seen_in_two_zones"]
    assert t.positions() == {TILE: "rack:1"}
    assert scan(t, "seat2/0", {TILE}, T0 + 3.0) == [move("rack:1", "rack:2")]


def test_a_tile_whose_own_reader_is_reported_silent_moves_at_once() -> None:
    t = tracker(absent_after=0.5, move_window=1.0, silent_after=3.0)
    scan(t, "seat1/0", {TILE}, T0)
    for at in (0.5, 1.0, 1.5, 2.0, 2.5):
        for channel in ("seat2/0", "centre/0", "centre/r"):
            scan(t, channel, set(), T0 + at)
    assert [a["channel"] for a in anomalies(t.tick(T0 + 2.5))] == []
    for channel in ("seat2/0", "centre/0", "centre/r"):
        scan(t, channel, set(), T0 + 3.0)
    assert [a["channel"] for a in anomalies(t.tick(T0 + 3.0))] == ["seat1/0"]
    assert scan(t, "seat2/0", {TILE}, T0 + 3.05) == [move("rack:1", "rack:2")]


def test_a_fifth_copy_taken_off_goes_quietly() -> None:
    t = tracker()
    events = scan(t, "seat1/0", set(FIVES), T0)
    fifth = anomalies(events)[0]["uid"]
    assert scan(t, "seat1/0", set(FIVES) - {fifth}, T0 + 0.5) == []  # no move, no anomaly
    assert t.describe(fifth, T0 + 1.0) == f"{fifth}: in wall"
    assert t.zone_tiles() == {"rack:1": ["5b"] * 4}


def test_a_claim_read_once_on_the_rack_holds_the_discard_back_from_the_river() -> None:
    """With two agreeing reads needed, the claimed discard read once on the claimer's rack
    is on its way there: the pad no longer reading it does not send it to the river."""
    t = tracker(confirm_reads=2)
    events = scan(t, "centre/0", {TILE}, T0)
    events += scan(t, "seat1/0", {TILE}, T0 + 0.5) + scan(t, "seat2/0", set(), T0 + 0.5)
    events += scan(t, "centre/0", set(), T0 + 0.5)
    events += scan(t, "seat1/0", {TILE}, T0 + 0.75)
    assert events == [move("wall", "discard"), move("discard", "rack:1")]


def test_a_reader_that_scanned_absent_after_later_has_spoken_since() -> None:
    t = tracker(absent_after=0.5)
    scan(t, "seat1/0", {TILE}, T0)
    events = scan(t, "seat2/0", set(), T0 + 0.5) + scan(t, "centre/0", set(), T0 + 0.5)
    events += scan(t, "seat1/0", set(), T0 + 0.5)
    assert [a["kind"] for a in anomalies(events)] == ["tile_missing"]


def test_each_tile_due_back_in_the_wall_accounts_for_one_copy() -> None:
    """Two undone draws of 5b to rack 1: two 5b leaving it go back to the wall; a third
    leaving is missing."""
    t = tracker()
    scan(t, "seat1/0", set(FIVES[:3]), T0)
    t.expect_to_wall([("rack:1", "5b"), ("rack:1", "5b")])
    first = scan(t, "seat1/0", set(FIVES[1:3]), T0 + 0.5)
    second = scan(t, "seat1/0", {FIVES[2]}, T0 + 1.0)
    third = scan(t, "seat1/0", set(), T0 + 1.5)
    assert first == [{"move": {"tile": "5b", "from": "rack:1", "to": "wall", "uid": FIVES[0]}}]
    assert second == [{"move": {"tile": "5b", "from": "rack:1", "to": "wall", "uid": FIVES[1]}}]
    assert [(a["kind"], a["uid"]) for a in anomalies(third)] == [("tile_missing", FIVES[2])]


def test_a_tile_pushed_off_the_river_antenna_stays_in_the_river() -> None:
    t = tracker()
    scan(t, "centre/0", {TILE}, T0)
    scan(t, "centre/0", set(), T0 + 0.1)  # the pad scanning on: it left by then
    for at in (T0 + 0.45, T0 + 0.5):  # the racks read twice since: no claim (see above)
        scan(t, "seat1/0", set(), at)
        scan(t, "seat2/0", set(), at)
    assert scan(t, "centre/0", set(), T0 + 0.5) == [move("discard", "river")]
    assert scan(t, "centre/r", {TILE}, T0 + 0.75) == []  # read on the river: it is there
    assert scan(t, "centre/r", set(), T0 + 1.25) == []  # pushed off its antenna: no move
    assert t.positions() == {TILE: "river"}
    assert t.describe(TILE, T0 + 1.5) == f"{TILE}: in river"


def test_the_readers_clock_counts_until_it_has_stood_still_ten_silent_afters() -> None:
    """tick: the newest scan's time is the clock, unless it has stood still for
    10 * silent_after (30 s): from then the tick's own time counts and the readers are
    silent."""
    t = tracker()
    scan(t, "seat1/0", {TILE}, T0)
    assert t.tick(T0 + 29.5) == []
    silent = anomalies(t.tick(T0 + 30.0))
    assert sorted((a["kind"], a["channel"]) for a in silent) == [
        ("reader_silent", c) for c in sorted(CHANNELS)]
    rack = next(a for a in silent if a["channel"] == "seat1/0")
    assert rack == {"kind": "reader_silent", "channel": "seat1/0", "zone": "rack:1",
                    "message": "channel seat1/0 (rack:1) has sent no scan for 30.0 s: check "
                               "its reader and cable; its tiles stay where they were"}


@pytest.mark.parametrize("late", ["tick", "scan"])
def test_an_undo_after_a_late_tick_or_scan_still_clears_what_left_during_the_hand_over(
    late: str,
) -> None:
    """A tick whose time is behind the readers' (the loop late), or a scan that arrives late
    from another board, does not move the tracker's time back: the undo's moment is the
    newest scan's."""
    t = tracker()
    scan(t, "seat1/0", {TILE}, T0)
    t.set_hand_over(True)
    scan(t, "seat1/0", {TILE}, T0 + 0.25)
    scan(t, "seat1/0", set(), T0 + 0.5)  # lifted during the hand over, not yet gone
    if late == "tick":
        assert t.tick(T0 + 0.1) == []
    else:
        assert scan(t, "seat2/0", set(), T0 + 0.1) == []
    t.set_hand_over(False)
    if late == "tick":
        assert scan(t, "seat1/0", set(), T0 + 0.75) == [move("rack:1", "wall")]
        return
    # seat2's board has not reported since the tile left (its last scan is the late one): the
    # tile may be on its way there, so the tracker waits for that board (as during play)
    assert scan(t, "seat1/0", set(), T0 + 0.75) == []
    assert scan(t, "seat2/0", set(), T0 + 0.75) == [move("rack:1", "wall")]


def test_tiles_that_leave_at_once_are_reported_in_the_order_they_came() -> None:
    """Settling goes through the tiles in the order the tracker first read them."""
    t = tracker()
    came = [FIVES[3], TILE, FIVES[0], FIVES[2], FIVES[1]]  # no order of their UIDs
    for n in range(len(came)):
        scan(t, "seat1/0", set(came[:n + 1]), T0 + n / 4)
    missing = anomalies(scan(t, "seat1/0", set(), T0 + 2.0))
    assert [a["uid"] for a in missing] == came


def test_a_tile_unread_in_the_river_and_then_read_on_a_rack_comes_from_the_wall() -> None:
    """``_appear``: read while off the table, or unread in the river, it comes from the wall."""
    t = tracker()
    scan(t, "centre/0", {TILE}, T0)
    scan(t, "centre/0", set(), T0 + 0.1)  # the pad scanning on: it left by then
    for at in (T0 + 0.45, T0 + 0.5):  # the racks read twice since: no claim (see above)
        scan(t, "seat1/0", set(), at)
        scan(t, "seat2/0", set(), at)
    assert scan(t, "centre/0", set(), T0 + 0.5) == [move("discard", "river")]
    assert scan(t, "seat2/0", {TILE}, T0 + 0.75) == [move("wall", "rack:2")]


def test_a_second_copy_of_a_flower_is_a_copy_too_many() -> None:
    """The set holds one of each flower and season (RULES.md section 1)."""
    t = tracker()
    events = scan(t, "seat1/0", {FLOWER}, T0) + scan(t, "seat2/0", {FLOWER_TOO}, T0)
    assert events[0] == {"move": {"tile": "1f", "from": "wall", "to": "rack:1", "uid": FLOWER}}
    assert [(a["kind"], a["uid"]) for a in anomalies(events)] == [("fifth_copy", FLOWER_TOO)]


def test_after_a_restart_a_tile_read_where_the_game_has_it_makes_no_move() -> None:
    """``adopt``: read where the game has an unread copy of its code, the tile is already
    there (that zone first); read elsewhere, it moves from a zone where the game has one; each
    copy the game has is taken once; the rest come from the wall. Adopted tiles are followed
    like any other: lifted, one is missing."""
    t = tracker()
    t.adopt({"rack:2": ["5b"], "rack:1": ["5b", "5b"]})
    events = scan(t, "seat1/0", set(FIVES[:4]), T0)
    assert events == [
        {"move": {"tile": "5b", "from": "rack:2", "to": "rack:1", "uid": FIVES[2]}},
        {"move": {"tile": "5b", "from": "wall", "to": "rack:1", "uid": FIVES[3]}}]
    lifted = scan(t, "seat1/0", set(FIVES[1:4]), T0 + 0.5)
    assert [(a["kind"], a["uid"]) for a in anomalies(lifted)] == [("tile_missing", FIVES[0])]


def test_a_channel_that_never_scans_is_silent_silent_after_past_the_first_scan() -> None:
    t = tracker()
    for step in range(7):  # rack 1 scans from T0 to T0 + 3.0; nobody else ever does
        scan(t, "seat1/0", set(), T0 + step / 2)
    assert t.tick(T0 + 2.5) == []  # the readers' clock: T0 + 2.5 at most
    silent = anomalies(t.tick(T0 + 3.0))
    assert sorted(a["channel"] for a in silent) == ["centre/0", "centre/r", "seat2/0"]


def test_by_default_ghosts_are_reported_at_most_once_in_five_seconds_per_zone() -> None:
    """docs/table.md: at most once per zone every ``ghost_quiet`` (5 s)."""
    t = PresenceTracker(CHANNELS, REGISTRY)
    assert len(anomalies(scan(t, "centre/0", {"08:00:00:01"}, T0))) == 1
    assert anomalies(scan(t, "centre/0", {"08:00:00:02"}, T0 + 4.5)) == []
    assert len(anomalies(scan(t, "centre/0", {"08:00:00:03"}, T0 + 5.0))) == 1


def test_a_zone_that_is_none_of_the_four_kinds_is_refused_with_the_kinds() -> None:
    with pytest.raises(ValueError) as refused:
        PresenceTracker({"x/0": "table"}, REGISTRY)
    assert str(refused.value) == ("channel 'x/0': zone 'table' is not rack:N, melds:N, discard "
                                  "or river")


def test_a_late_scan_does_not_set_the_readers_clock_back() -> None:
    t = tracker()
    for step in range(7):  # rack 1 scans from T0 to T0 + 3.0
        scan(t, "seat1/0", set(), T0 + step / 2)
    scan(t, "seat2/0", set(), T0 + 0.5)  # rack 2's board, its scan from long ago arriving now
    silent = anomalies(t.tick(T0 + 3.0))
    assert sorted(a["channel"] for a in silent) == ["centre/0", "centre/r"]


def test_a_claim_the_rack_then_misses_is_no_longer_on_its_way() -> None:
    """Read once on rack 1, then rack 1's channel scans without it: the count starts again
    and the tile is not on its way there; the pad no longer reading it, it goes to the river."""
    t = tracker(confirm_reads=2)
    events = scan(t, "centre/0", {TILE}, T0)
    events += scan(t, "seat1/0", {TILE}, T0 + 0.25)
    events += scan(t, "centre/0", set(), T0 + 0.3)  # the pad scanning on: it left by then
    events += scan(t, "seat1/0", set(), T0 + 0.45) + scan(t, "seat2/0", set(), T0 + 0.45)
    events += scan(t, "seat1/0", set(), T0 + 0.5) + scan(t, "seat2/0", set(), T0 + 0.5)
    events += scan(t, "centre/0", set(), T0 + 0.5)
    assert events == [move("wall", "discard"), move("discard", "river")]


def test_only_the_channel_that_read_it_last_starts_the_count_again() -> None:
    """confirm_reads: a scan of the channel that read it last, without it, starts the count
    again; another channel of the same rack missing it does not."""
    t = PresenceTracker({"seat1/0": "rack:1", "seat1/1": "rack:1", "centre/0": "discard"},
                        REGISTRY, confirm_reads=3)
    events = scan(t, "centre/0", {TILE}, T0)
    events += scan(t, "seat1/0", {TILE}, T0 + 0.1)  # 1
    events += scan(t, "seat1/1", {TILE}, T0 + 0.2)  # 2, on the rack's other coil
    events += scan(t, "seat1/0", set(), T0 + 0.3)  # not the channel that read it last
    events += scan(t, "centre/0", set(), T0 + 0.35)
    events += scan(t, "seat1/1", {TILE}, T0 + 0.4)  # 3
    assert events == [move("wall", "discard"), move("discard", "rack:1")]


def test_a_verdict_comes_with_the_scan_that_makes_it_true_whichever_channel_that_is() -> None:
    """Held back while the pad was behind, the missing tile is reported by the pad's own
    scan; a tile read in two racks is reported by the pad's scan once move_window is up."""
    t = tracker()
    scan(t, "seat1/0", {TILE}, T0)
    scan(t, "centre/0", set(), T0)
    assert scan(t, "seat1/0", set(), T0 + 0.5) == []  # the pad may have it: held back
    assert [a["kind"] for a in anomalies(scan(t, "centre/0", set(), T0 + 0.5))] == [
        "tile_missing"]
    t = tracker(move_window=1.0)
    scan(t, "seat1/0", {TILE}, T0)
    scan(t, "seat2/0", {TILE}, T0)
    scan(t, "seat1/0", {TILE}, T0 + 0.5)
    scan(t, "seat2/0", {TILE}, T0 + 0.5)
    assert [a["kind"] for a in anomalies(scan(t, "centre/0", set(), T0 + 1.0))] == [
        "seen_in_two_zones"]


def test_a_discard_waits_for_a_rack_reader_that_is_behind() -> None:
    """A tile that leaves the pad goes to the river only when every rack and meld strip that
    it could have been claimed to has been read since (RULES.md section 4: claims)."""
    t = tracker()
    events = scan(t, "centre/0", {TILE}, T0) + scan(t, "seat1/0", set(), T0)
    events += scan(t, "seat2/0", set(), T0 + 0.5) + scan(t, "centre/0", set(), T0 + 0.5)
    events += scan(t, "seat1/0", {TILE}, T0 + 0.6)  # rack 1's board, late: it was claimed
    assert events == [move("wall", "discard"), move("discard", "rack:1")]


def test_a_claimed_discard_read_late_on_the_strip_is_not_taken_to_the_river() -> None:
    """The claimant's board sends a scan between its first read of the claimed tile and the
    second (a board late by a sweep: its thread starved on a loaded host, or its frames read
    late): that scan does not show the tile, the next one does. The tile goes from the pad
    to that zone; before the fix it went "to river" (a pass) and then "from wall"."""
    t = tracker()
    events = scan(t, "centre/0", {TILE}, T0)
    events += scan(t, "seat1/0", set(), T0 + 0.1) + scan(t, "seat2/0", set(), T0 + 0.1)
    events += scan(t, "centre/0", set(), T0 + 0.5)  # gone from the pad
    events += scan(t, "seat1/0", set(), T0 + 0.5)  # seat 1: spoke since, no claim there
    events += scan(t, "seat2/0", set(), T0 + 0.5)  # seat 2: read once, not reported yet
    events += scan(t, "seat1/0", set(), T0 + 0.55)
    events += scan(t, "seat2/0", {TILE}, T0 + 0.55)  # the second read: reported
    assert events == [move("wall", "discard"), move("discard", "rack:2")]
    assert t.positions() == {TILE: "rack:2"}


def test_the_table_is_swept_once_every_reader_has_read_nothing_since() -> None:
    """cleared_since: the virtual table's players start a new session's tracker once every
    reader has reported its antennas empty after the sweep, not after a fixed pause (a
    loaded host delivered the old table's scans later than the pause, issue 22)."""
    t = tracker()
    scan(t, "seat1/0", {TILE}, T0)
    scan(t, "seat2/0", set(), T0)
    scan(t, "centre/0", set(), T0)
    swept = T0 + 0.1
    assert not t.cleared_since(swept)  # nobody has spoken since the sweep
    scan(t, "centre/0", set(), T0 + 0.2)
    scan(t, "seat1/0", {TILE}, T0 + 0.2)  # a scan from before the sweep, read late
    assert not t.cleared_since(swept)
    scan(t, "seat1/0", set(), T0 + 0.3)
    assert not t.cleared_since(swept)  # seat 2's reader has not spoken since
    scan(t, "seat2/0", set(), T0 + 0.3)
    assert t.cleared_since(swept)  # (the river reader never scanned: it holds nothing back)
    # a reader that goes silent (its board unplugged for good) does not hold the sweep back
    u = tracker()
    scan(u, "seat1/0", set(), T0)
    scan(u, "seat2/0", set(), T0)
    for n in range(1, 9):  # seat 1 scans on every half second: the table is heard
        scan(u, "seat1/0", set(), T0 + n / 2)
    assert not u.cleared_since(T0 + 1.0)
    u.tick(T0 + 4.0)  # seat 2 silent for 4 s: reported
    assert u.cleared_since(T0 + 1.0)


@pytest.mark.parametrize("claimant", ["unplugged too", "read a moment later"])
def test_a_discard_that_left_while_the_pads_board_was_out_waits_for_scans_since_it_was_missed(
    claimant: str,
) -> None:
    """The centre board is unplugged just after the pad read the discard at T0; the racks go
    on scanning every 0.1 s, the tile still on the pad. While the centre is out the tile is
    claimed to rack 2 (T0 + 0.65, or T0 + 0.75). The pad's first scan after the board is back
    (T0 + 0.8) misses it, and that is all the tracker learns of when the tile left: some time
    in (T0, T0 + 0.8]. Rack 2's scans of T0 + 0.5 .. 0.7 are at least ``absent_after`` (0.4)
    after T0 and two of them are empty, yet the tile was still on the pad then: they say
    nothing of a claim. The claimant's rack has its say once it has scanned after T0 + 0.8:
    its board was unplugged from T0 + 0.6 (back at T0 + 1.2), or its scan of T0 + 0.8, holding
    the tile, is taken just after the pad's. Either way the tile goes from the pad to rack 2
    (RULES.md section 4: a claimed discard never passes through the river). Before the fix
    it went "to river" at T0 + 0.8 (refused as claim_pending in loaded run 24) and then
    "from wall"."""
    t = tracker()
    events = scan(t, "centre/0", {TILE}, T0)
    events += scan(t, "seat1/0", set(), T0) + scan(t, "seat2/0", set(), T0)
    for step in range(1, 7):  # T0 + 0.1 .. 0.6: the centre board is out, the tile on the pad
        events += scan(t, "seat1/0", set(), T0 + step / 10)
        events += scan(t, "seat2/0", set(), T0 + step / 10)
    events += scan(t, "seat1/0", set(), T0 + 0.7)
    if claimant == "read a moment later":
        events += scan(t, "seat2/0", set(), T0 + 0.7)
    events += scan(t, "centre/0", set(), T0 + 0.8)  # back: the pad is empty
    assert events == [move("wall", "discard")]  # not "to river": rack 2 has not spoken since
    if claimant == "unplugged too":
        for step in range(8, 12):  # the pad and rack 1 go on; rack 2's board is out
            events += scan(t, "seat1/0", set(), T0 + step / 10)
            events += scan(t, "centre/0", set(), T0 + step / 10 + 0.05)
        events += scan(t, "seat2/0", {TILE}, T0 + 1.2)  # back, with the claimed tile
    else:
        events += scan(t, "seat2/0", {TILE}, T0 + 0.8)
    assert events == [move("wall", "discard"), move("discard", "rack:2")]
    assert t.positions() == {TILE: "rack:2"}


def test_a_rack_tile_that_left_while_its_board_was_out_is_not_missing_before_others_speak(
) -> None:
    """The same for a tile leaving a rack: rack 1's board is out from just after T0, the tile
    is moved to rack 2 at T0 + 0.75, rack 1's first scan after its board is back (T0 + 0.8)
    misses it and rack 2's scan of T0 + 0.8, holding it, is taken just after. Rack 2's empty
    scans of T0 + 0.5 .. 0.7 came before the tile left: no ``tile_missing`` (before the fix
    one was reported, then the move came with rack 2's scan)."""
    t = tracker()
    events = scan(t, "seat1/0", {TILE}, T0) + scan(t, "seat2/0", set(), T0)
    events += scan(t, "centre/0", set(), T0)
    for step in range(1, 8):  # T0 + 0.1 .. 0.7: rack 1's board is out
        events += scan(t, "seat2/0", set(), T0 + step / 10)
        events += scan(t, "centre/0", set(), T0 + step / 10)
    events += scan(t, "seat1/0", set(), T0 + 0.8)  # back: the tile has left
    events += scan(t, "seat2/0", {TILE}, T0 + 0.8)
    assert events == [move("wall", "rack:1"), move("rack:1", "rack:2")]


def test_a_gap_of_exactly_silent_after_over_three_is_a_pause_of_the_whole_table() -> None:
    """docs/table.md: "When no channel of the table has scanned for `silent_after / 3` or
    more" (1 s here), the gap is taken off every channel's count. Every reader scans at T0,
    then none until T0 + 1 (exactly 1 s: a pause); rack 1 stays quiet while the others scan
    every half second. At T0 + 3.5 rack 1 has 2.5 s of heard time, not 3.5: not silent yet;
    at T0 + 4 it has 3 s: silent."""
    t = tracker(silent_after=3.0)
    for channel in CHANNELS:
        scan(t, channel, set(), T0)
    others = [c for c in CHANNELS if c != "seat1/0"]
    for at in (1.0, 1.5, 2.0, 2.5, 3.0, 3.5):
        for channel in others:
            scan(t, channel, set(), T0 + at)
    assert anomalies(t.tick(T0 + 3.5)) == []
    for channel in others:
        scan(t, channel, set(), T0 + 4.0)
    assert [a["channel"] for a in anomalies(t.tick(T0 + 4.0))] == ["seat1/0"]
