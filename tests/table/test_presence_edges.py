"""The presence tracker's edges that the tenth session's mutation run (issue 29) found
unpinned: each test states the rule it comes from (docs/table.md, TABLE.md, the tracker's
docstrings) and works its expected events out by hand, on a reader clock far from zero."""

from __future__ import annotations

from typing import Any

from controller.sources.table import follow_hand
from controller.table import PresenceTracker
from tests.table.test_presence_reports import scan

CHANNELS = {"seat1/0": "rack:1", "seat2/0": "rack:2", "centre/0": "discard", "centre/r": "river"}
TILE = "04:00:00:AA"
FIVES = [f"04:00:00:0{n}" for n in range(1, 6)]  # five tags coded 5b: one too many
REGISTRY = {TILE: "7d", **{uid: "5b" for uid in FIVES}}
T0 = 1000.0  # a board's clock; halves and quarters of a second are exact in binary


def tracker(channels: dict[str, str] | None = None, **options: float) -> PresenceTracker:
    return PresenceTracker(channels or CHANNELS, REGISTRY,
                           **{"confirm_reads": 1, "absent_after": 0.5, **options})


def move(frm: str, to: str, tile: str = "7d", uid: str = TILE) -> dict[str, Any]:
    return {"move": {"tile": tile, "from": frm, "to": to, "uid": uid}}


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["anomaly"]["kind"] for e in events if "anomaly" in e]


def test_a_tile_read_once_on_the_next_rack_is_not_missing_from_its_own() -> None:
    """docs/table.md: "While a tile's second read is pending it is not judged gone from where
    it was". confirm_reads 2: rack 1 takes 7d at its second read, T0 + 0.25; rack 2 reads it
    once at T0 + 0.75 (one of two); rack 1 then scans without it at T0 + 0.75, absent_after
    (0.5 s) after its last read, and every reader has spoken since: without the pending read
    it would be tile_missing. It is nothing yet; rack 2's second read at T0 + 1.0 is the one
    move rack:1 -> rack:2 (rack 1's latest scan no longer reads it)."""
    t = tracker(confirm_reads=2)
    events = scan(t, "seat1/0", {TILE}, T0) + scan(t, "seat1/0", {TILE}, T0 + 0.25)
    events += scan(t, "seat2/0", {TILE}, T0 + 0.75)  # the first of two reads
    events += scan(t, "centre/0", set(), T0 + 0.75)
    assert scan(t, "seat1/0", set(), T0 + 0.75) == []  # pending on rack 2: not gone
    events += scan(t, "seat2/0", {TILE}, T0 + 1.0)  # the second read
    assert events == [move("wall", "rack:1"), move("rack:1", "rack:2")]
    assert t.positions() == {TILE: "rack:2"}


def test_telling_the_tracker_a_hand_is_in_play_while_it_is_changes_nothing() -> None:
    """set_hand_over: only "a finished hand taken back (an operator's undo)" clears to the wall
    the tiles last read before it. Told "not over" while no hand was over, nothing was taken
    back: a tile last read at T0 and gone from rack 1 by T0 + 0.5 (absent_after), every reader
    having spoken at T0 + 0.5, is tile_missing, not a move to the wall."""
    t = tracker()
    scan(t, "seat1/0", {TILE}, T0)
    scan(t, "seat2/0", set(), T0 + 0.5)
    scan(t, "centre/0", set(), T0 + 0.5)
    assert t.set_hand_over(False) == []  # in play already: no undo
    events = scan(t, "seat1/0", set(), T0 + 0.5)
    assert kinds(events) == ["tile_missing"]
    assert [e for e in events if "move" in e] == []
    assert t.positions() == {TILE: "rack:1"}


class HandInPlay:
    """The part of the loop ``follow_hand`` reads: a hand in play (phase "play")."""

    def public_view(self) -> dict[str, Any]:
        return {"hand": {"phase": "play"}}


def test_a_tracker_adopting_a_hand_in_play_keeps_the_adoption_when_it_follows_the_hand() -> None:
    """adopt: "After a restart: ... A tile first read where the game has an unread copy of its
    code is taken as already there (no move)". The virtual table restarted during a hand builds
    a new tracker, adopts the game's zones (it tells the tracker nothing when the hand is in
    play) and then follows the hand each loop (controller/sources/virtual.py): a new tracker's
    hand is not over, so following a hand in play tells it nothing and the adoption stands;
    7d read on rack 1, where the game has it, makes no move."""
    t = tracker()
    t.adopt({"rack:1": ["7d"]})
    assert follow_hand(HandInPlay(), t) == []  # type: ignore[arg-type]
    assert scan(t, "seat1/0", {TILE}, T0) == []
    assert t.positions() == {TILE: "rack:1"}


def test_a_scan_at_the_sweeps_own_time_counts_as_since_the_sweep() -> None:
    """cleared_since(t): "every reader read nothing in a scan since t". The virtual table reads
    the sweep's time after it has emptied the table (controller/sources/virtual.py, _sweep:
    world.reset(), then swept_at), so a scan stamped at that very time is of the swept table;
    the tracker's other edges count so too (absent_after has passed once that long has gone)."""
    t = tracker()
    scan(t, "seat1/0", {TILE}, T0)
    scan(t, "seat2/0", set(), T0)
    scan(t, "centre/0", set(), T0)
    swept = T0 + 0.5
    for channel in ("seat1/0", "seat2/0", "centre/0"):
        assert not t.cleared_since(swept)
        scan(t, channel, set(), swept)
    assert t.cleared_since(swept)


def test_a_reader_silent_after_behind_the_newest_scan_reads_nothing_for_a_late_scan() -> None:
    """_sees: "A channel gone silent (reported, or silent_after behind the newest scan) reads
    nothing". Rack 1 last read 7d at T0; rack 2's board has scanned every half second up
    to T0 + 10 (the newest scan); then the pad's board's scan stamped T0 + 1, sent late,
    reads 7d. Rack 1 is 10 s behind the newest scan, more than silent_after (3 s): it no
    longer holds the tile, which moves to the pad with that scan (judged by the late scan's
    own time, rack 1 would be only 1 s behind and the tile wait as if read in two
    zones)."""
    t = tracker(silent_after=3.0, move_window=1.0)
    scan(t, "seat1/0", {TILE}, T0)
    for n in range(1, 21):  # rack 2 scans every half second: the table is heard
        assert scan(t, "seat2/0", set(), T0 + n / 2) == []
    assert scan(t, "centre/0", {TILE}, T0 + 1.0) == [move("rack:1", "discard")]
    assert t.positions() == {TILE: "discard"}


def test_a_rack_reader_that_scanned_twice_from_absent_after_on_has_been_read_since() -> None:
    """docs/table.md, "A discard leaving the pad while a reader is down": to the river once
    every rack and meld-strip reader has scanned twice, "both scans at least absent_after after
    the tile was last seen on the pad". Last seen at T0, absent_after 0.5: scans at exactly
    T0 + 0.5 and T0 + 0.75 are both at least that late, so the pad's empty scan at T0 + 0.75
    sends the discard to the river at once."""
    t = tracker()
    events = scan(t, "centre/0", {TILE}, T0)
    events += scan(t, "centre/0", set(), T0 + 0.25)  # the pad's next scan misses it, as a
    # board's would well within absent_after (its departure is not later than that)
    for at in (T0 + 0.5, T0 + 0.75):
        events += scan(t, "seat1/0", set(), at) + scan(t, "seat2/0", set(), at)
    assert events == [move("wall", "discard")]
    assert scan(t, "centre/0", set(), T0 + 0.75) == [move("discard", "river")]


def test_a_discard_waits_for_a_meld_strip_reader_that_is_behind() -> None:
    """The same rule for a meld strip (a claim to a pung or chow goes there, RULES.md section
    4): the rack has scanned twice since the tile left the pad, the strip only once before:
    the pad's empty scan moves nothing; the strip's late scan reading it is the claim, one move
    discard -> melds:1 (never "to river" and then "from wall")."""
    t = tracker({"seat1/0": "rack:1", "seat1/m": "melds:1", "centre/0": "discard"})
    events = scan(t, "centre/0", {TILE}, T0) + scan(t, "seat1/m", set(), T0)
    events += scan(t, "centre/0", set(), T0 + 0.25)  # the pad's next scan misses it
    for at in (T0 + 0.5, T0 + 0.75):
        events += scan(t, "seat1/0", set(), at)
    events += scan(t, "centre/0", set(), T0 + 0.75)  # gone from the pad: the strip is behind
    assert events == [move("wall", "discard")]
    assert scan(t, "seat1/m", {TILE}, T0 + 1.0) == [move("discard", "melds:1")]


def test_a_copy_in_the_river_is_out_of_play_so_a_new_copy_is_no_fifth() -> None:
    """TABLE.md: the river holds "tiles no longer in play"; docs/table.md: fifth_copy is "a
    tile entering play while all copies of its code are in play". Three 5b on rack 1, the
    fourth discarded, gone to the river and read on the river antenna: three are in play, so
    a 5b read on rack 2 enters play from the wall (not quarantined)."""
    t = tracker()
    events = scan(t, "seat1/0", set(FIVES[:3]), T0) + scan(t, "centre/0", {FIVES[3]}, T0)
    for at in (T0 + 0.5, T0 + 0.75):  # the racks read twice since: no claim
        events += scan(t, "seat1/0", set(FIVES[:3]), at) + scan(t, "seat2/0", set(), at)
    events += scan(t, "centre/0", set(), T0 + 0.75)
    events += scan(t, "centre/r", {FIVES[3]}, T0 + 1.0)  # on the river antenna
    assert events[-1] == move("discard", "river", "5b", FIVES[3])
    assert t.zone_tiles() == {"rack:1": ["5b"] * 3, "river": ["5b"]}
    assert scan(t, "seat2/0", {FIVES[4]}, T0 + 1.25) == [move("wall", "rack:2", "5b", FIVES[4])]
    assert t.zone_tiles() == {"rack:1": ["5b"] * 3, "rack:2": ["5b"], "river": ["5b"]}


def test_the_index_of_what_each_channel_holds_follows_a_tile_from_channel_to_channel() -> None:
    """_place: "Set the channel that holds the tile, and the index of what each channel
    holds" (``_on``: channel -> the UIDs of the tiles it holds, which settling after a scan
    reads; tests/table/test_presence_settle.py checks it against every tile's channel with
    random scans, and this is one fixed case). 7d slid from rack 1 to rack 2 is held by
    seat2/0 alone; discarded and gone to the river (no antenna reads it there), by none."""
    t = tracker()

    def index() -> dict[str, set[str]]:
        return {channel: uids for channel, uids in t._on.items() if uids}

    events = scan(t, "seat1/0", {TILE}, T0) + scan(t, "seat2/0", {TILE}, T0)  # on the seam
    events += scan(t, "seat1/0", set(), T0 + 0.25)
    assert events[-1] == move("rack:1", "rack:2")
    assert index() == {"seat2/0": {TILE}}
    events = scan(t, "centre/0", {TILE}, T0 + 0.5)
    events += scan(t, "seat2/0", set(), T0 + 0.5)
    assert events == [move("rack:2", "discard")]
    assert index() == {"centre/0": {TILE}}
    scan(t, "centre/0", set(), T0 + 0.75)  # the pad's next scan misses it
    for at in (T0 + 1.0, T0 + 1.25):  # the racks read twice since: no claim
        scan(t, "seat1/0", set(), at)
        scan(t, "seat2/0", set(), at)
    assert scan(t, "centre/0", set(), T0 + 1.25) == [move("discard", "river")]
    assert index() == {}


def test_a_discard_missed_early_still_waits_absent_after_for_the_other_readers() -> None:
    """docs/table.md, "A discard leaving the pad while a reader is down": the other readers'
    two scans must be "both at least absent_after after the tile was last seen on the pad,
    and no earlier than the pad's first scan that missed it" (the later of the two, never the
    earlier). The pad reads 7d at T0 and misses it at T0 + 0.1; the rack and the strip scan at
    T0 + 0.2 and T0 + 0.3, after that miss but before T0 + absent_after (0.5): not read since.
    The pad's empty scan at T0 + 0.6 moves nothing; the strip reading it at T0 + 0.7 is the
    claim, discard -> melds:1 (never "to river" and then "from wall")."""
    t = tracker({"seat1/0": "rack:1", "seat1/m": "melds:1", "centre/0": "discard"})
    events = scan(t, "centre/0", {TILE}, T0) + scan(t, "seat1/m", set(), T0)
    events += scan(t, "centre/0", set(), T0 + 0.1)
    for at in (T0 + 0.2, T0 + 0.3):
        events += scan(t, "seat1/0", set(), at) + scan(t, "seat1/m", set(), at)
    events += scan(t, "centre/0", set(), T0 + 0.6)
    assert events == [move("wall", "discard")]
    assert scan(t, "seat1/m", {TILE}, T0 + 0.7) == [move("discard", "melds:1")]
