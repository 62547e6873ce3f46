"""The director's wall, deal order and claim precedence, without an engine."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from controller.players.bots import ClaimIntent
from controller.players.claims import claim_events, resolve
from controller.players.wall import (
    DEAL_SIZE,
    build_wall,
    deal_seat,
    next_dealer,
    turn_order,
    wall_cursor,
)
from controller.tiles import tile_set


@given(st.integers(0, 10**6), st.integers(1, 64), st.booleans())
def test_wall_is_a_full_set_and_repeatable(seed: int, number: int, bonus: bool) -> None:
    wall = build_wall(seed, number, bonus)
    assert Counter(wall) == Counter(tile_set(bonus))
    assert wall == build_wall(seed, number, bonus)


def test_walls_differ_between_hands_and_seeds() -> None:
    assert build_wall(1, 1, False) != build_wall(1, 2, False)
    assert build_wall(1, 1, False) != build_wall(2, 1, False)


@given(st.integers(1, 4))
def test_deal_gives_thirteen_each_and_fourteen_to_the_dealer(dealer: int) -> None:
    got = Counter(deal_seat(i, dealer) for i in range(DEAL_SIZE))
    assert got == {p: 14 if p == dealer else 13 for p in range(1, 5)}
    assert deal_seat(0, dealer) == dealer
    assert deal_seat(4, dealer) == turn_order(dealer)[1]


def test_dealership_passes_only_when_another_seat_wins() -> None:
    assert next_dealer(None) == 1
    assert next_dealer({"dealer": 2, "result": {"winner": 2}}) == 2
    assert next_dealer({"dealer": 2, "result": {"winner": None}}) == 2
    assert next_dealer({"dealer": 2, "result": {"winner": 1}}) == 3
    assert next_dealer({"dealer": 4, "result": {"winner": 3}}) == 1


def test_wall_cursor_counts_replacements_from_the_back() -> None:
    seats = {
        "1": {"bonus": ["1f", "2s"], "melds": [], "replacements_due": 1},
        "2": {"bonus": [], "melds": [{"tiles": ["5b"] * 4}], "replacements_due": 0},
        "3": {"bonus": [], "melds": [{"tiles": ["1c", "2c", "3c"]}], "replacements_due": 0},
        "4": {"bonus": [], "melds": [], "replacements_due": 0},
    }
    # 60 tiles have left the live count; two of them were replacements (one more is due).
    front, back = wall_cursor({"live_wall": 130 - 60, "seats": seats}, 144)
    assert (front, back) == (58, 2)


def test_mahjong_beats_pung_beats_chow() -> None:
    intents = {
        2: ClaimIntent("chow", ("3b", "4b")),
        3: ClaimIntent("pung", ("5b", "5b")),
        4: ClaimIntent("mahjong"),
    }
    assert resolve(intents, 1) == 4
    del intents[4]
    assert resolve(intents, 1) == 3


def test_a_chow_caller_holding_a_pair_ranks_as_a_pung() -> None:
    intents = {2: ClaimIntent("chow", ("3b", "4b")), 3: ClaimIntent("pung", ("5b", "5b"))}
    assert resolve(intents, 1, holds={2: 2, 3: 2}) == 2
    assert resolve(intents, 1, holds={2: 1, 3: 2}) == 3


def test_equal_claims_go_to_the_nearest_in_turn_order() -> None:
    intents = {1: ClaimIntent("mahjong"), 3: ClaimIntent("mahjong")}
    assert resolve(intents, 4) == 1
    assert resolve(intents, 2) == 3


def test_highest_value_mahjong_tie_asks_for_values() -> None:
    intents = {1: ClaimIntent("mahjong"), 3: ClaimIntent("mahjong")}
    values = {1: 40, 3: 120}
    assert resolve(intents, 4, "highest_value", values.__getitem__) == 3
    assert resolve(intents, 4, "turn_order", values.__getitem__) == 1
    # Equal values: turn order decides.
    assert resolve(intents, 4, "highest_value", {1: 50, 3: 50}.__getitem__) == 1


def test_contested_claim_declares_every_claimant_then_moves_the_winners_tiles() -> None:
    intents = {2: ClaimIntent("chow", ("3b", "4b")), 3: ClaimIntent("pung", ("5b", "5b"))}
    events = claim_events(intents, 1, 3, "5b", random.Random(1))
    assert events[:2] == [
        {"declare": {"seat": 2, "call": "claim"}},
        {"declare": {"seat": 3, "call": "claim"}},
    ]
    moves = [e["move"] for e in events[2:]]
    assert sorted((m["from"], m["to"]) for m in moves) == [
        ("discard", "melds:3"), ("rack:3", "melds:3"), ("rack:3", "melds:3"),
    ]


def test_claim_order_varies_with_the_random_stream() -> None:
    intents = {2: ClaimIntent("kong", ("5b", "5b", "5b"))}
    orders = {
        tuple(str(e) for e in claim_events(intents, 1, 2, "5b", random.Random(s)))
        for s in range(20)
    }
    assert len(orders) > 1
    assert all(len(o) == 4 for o in orders)


def test_single_mahjong_is_a_declaration_and_the_discard_to_the_rack() -> None:
    events = claim_events({3: ClaimIntent("mahjong")}, 2, 3, "9d", random.Random(0))
    assert sorted(map(str, events)) == sorted(
        map(str, [
            {"declare": {"seat": 3, "call": "mahjong"}},
            {"move": {"tile": "9d", "from": "discard", "to": "rack:3"}},
        ])
    )
