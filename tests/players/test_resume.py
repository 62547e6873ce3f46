"""Finishing half-made claims and kongs from the public view (a director started mid-hand)."""

from __future__ import annotations

from typing import Any

from controller.players.resume import finish_set, resume_events


def moves(events: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [(e["move"]["tile"], e["move"]["from"], e["move"]["to"]) for e in events]


def test_discard_still_on_the_pad_joins_the_chow() -> None:
    got = finish_set(2, ["4b"], {"tile": "3b", "seat": 1}, ["1c", "5b", "9d"], own_turn=False)
    assert moves(got) == [("3b", "discard", "melds:2"), ("5b", "rack:2", "melds:2")]


def test_discard_already_on_the_strip_needs_only_rack_tiles() -> None:
    got = finish_set(3, ["7d", "8d"], None, ["6d", "9d", "ew"], own_turn=False)
    # 6d-7d-8d is the first set that fits (sets are tried from the lowest tile).
    assert moves(got) == [("6d", "rack:3", "melds:3")]
    assert finish_set(3, ["7d", "8d"], None, ["9d"], own_turn=False) == [
        {"move": {"tile": "9d", "from": "rack:3", "to": "melds:3"}}
    ]


def test_three_rack_tiles_first_make_a_kong_with_the_discard() -> None:
    got = finish_set(4, ["5b", "5b", "5b"], {"tile": "5b", "seat": 2}, ["1c"], own_turn=False)
    assert moves(got) == [("5b", "discard", "melds:4")]


def test_a_concealed_kong_on_the_own_turn_gets_its_missing_tiles() -> None:
    got = finish_set(1, ["gd", "gd"], None, ["gd", "gd", "1b"], own_turn=True)
    assert moves(got) == [("gd", "rack:1", "melds:1")] * 2


def test_a_declared_mahjong_takes_the_discard() -> None:
    hand = {"discard": {"tile": "9c", "seat": 1}, "claimants": [{"seat": 3, "call": "mahjong"}],
            "seats": {}}
    assert moves(resume_events(hand, lambda p: [])) == [("9c", "discard", "rack:3")]


def test_nothing_half_done_gives_nothing() -> None:
    hand = {"discard": None, "claimants": [],
            "seats": {str(p): {"forming": []} for p in range(1, 5)}}
    assert resume_events(hand, lambda p: []) == []
