"""Two agreeing reads before a rack or meld strip takes a tile (docs/table.md): one cross-read
from a neighbouring coil is no move; the discard pad still moves a tile at its first read."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from controller.table import PresenceTracker
from firmware_bridge.types import ChannelScan

from .test_presence import A5B, CHANNELS, REGISTRY, move

PERIOD = 0.1


def play(reads: list[tuple[str, set[str]]]) -> list[dict[str, Any]]:
    """Scans in this order, one every PERIOD, by a tracker with the default confirm_reads."""
    tracker = PresenceTracker(CHANNELS, REGISTRY)
    events: list[dict[str, Any]] = []
    for i, (channel, uids) in enumerate(reads):
        events += tracker.scan(ChannelScan(channel, frozenset(uids), i * PERIOD))
    return events


def test_a_tile_drawn_into_a_rack_moves_at_its_second_read_in_a_row() -> None:
    assert play([("seat1/0", {A5B})]) == []
    assert play([("seat1/0", {A5B}), ("seat1/0", {A5B})]) == [move(A5B, "wall", "rack:1")]


def test_a_read_missed_between_two_reads_starts_the_count_again() -> None:
    reads = [("seat1/0", {A5B}), ("seat1/0", set()), ("seat1/0", {A5B})]
    assert play(reads) == []
    assert play([*reads, ("seat1/0", {A5B})]) == [move(A5B, "wall", "rack:1")]


def test_a_single_cross_read_from_a_meld_strip_moves_nothing() -> None:
    """Rack 1 holds the tile; its meld strip's coil reads it once (a neighbour's field)."""
    steady = [("seat1/0", {A5B}), ("seat1/0", {A5B})]
    assert play(steady) == [move(A5B, "wall", "rack:1")]
    events = play([*steady, ("seat1/m", {A5B}), ("seat1/0", {A5B}), ("seat1/m", set()),
                   ("seat1/0", {A5B})])
    assert events == [move(A5B, "wall", "rack:1")]


def test_the_discard_pad_takes_a_tile_at_its_first_read() -> None:
    steady = [("seat1/0", {A5B}), ("seat1/0", {A5B})]
    events = play([*steady, ("centre/0", {A5B}), ("seat1/0", set())])
    assert events == [move(A5B, "wall", "rack:1"), move(A5B, "rack:1", "discard")]


def test_a_claim_onto_a_meld_strip_needs_two_reads_there() -> None:
    reads = [("centre/0", {A5B}), ("centre/0", set()), ("seat3/m", {A5B})]
    assert play(reads) == [move(A5B, "wall", "discard")]
    assert play([*reads, ("seat3/m", {A5B})])[-1] == move(A5B, "discard", "melds:3")


@given(st.lists(st.booleans(), min_size=1, max_size=30))
def test_reads_never_two_in_a_row_never_move_a_tile_into_a_rack(seen: list[bool]) -> None:
    """Property: a rack channel that never reads the tile twice in a row makes no move; one
    that does makes exactly one, at the second of the first such pair."""
    events = [e for e in play([("seat1/0", {A5B} if hit else set()) for hit in seen])
              if "move" in e]  # a tile gone long enough is also reported missing
    pairs = [i for i in range(1, len(seen)) if seen[i] and seen[i - 1]]
    assert events == ([move(A5B, "wall", "rack:1")] if pairs else [])


def test_a_claimed_tile_read_once_on_the_strip_does_not_go_to_the_river_meanwhile() -> None:
    """The pad's absence verdict waits while the strip has read the tile once: a claim is one
    move discard -> melds, never discard -> river then wall -> melds."""
    reads = [("centre/0", {A5B}), ("centre/0", set()), ("seat3/m", {A5B})]
    reads += [("centre/0", set())] * 8  # well past absent_after on the pad
    events = play([*reads, ("seat3/m", {A5B})])
    assert events == [move(A5B, "wall", "discard"), move(A5B, "discard", "melds:3")]
