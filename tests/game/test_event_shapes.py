"""The shape checks of an event (controller/game/events.py), each refusal by its exact words:
they are the ``malformed_event`` violation's message a player, the operator's page and the API
answer show (engine.apply), so a changed word is a changed answer. Every message below is
written out from the rule it states (FORMATS.md "table log", docs/game.md's event table), not
read from the code; the limits (a name of 1-40 characters, a penalty of 1-1,000,000, a reason of
at most 200 characters) at both sides of each edge."""

from __future__ import annotations

from typing import Any

import pytest

from controller.game import EventError, apply, check_event, new_game

VALID_MOVE = {"tile": "5b", "from": "wall", "to": "rack:1"}
TILES = "1b-9b, 1c-9c, 1d-9d, ew sw ww nw, rd gd wd, 1f-4f, 1s-4s"
ZONES = "rack:N, melds:N (N 1-4), discard, river or wall"


def refusal(event: Any) -> str:
    with pytest.raises(EventError) as caught:
        check_event(event)
    return str(caught.value)


@pytest.mark.parametrize(("event", "message"), [
    ({"move": {"tile": "0b", "from": "wall", "to": "rack:1"}},
     f"unknown tile code '0b': use {TILES}"),
    ({"move": {"tile": "5b", "from": "table", "to": "rack:1"}},
     f"unknown zone 'table' in \"from\": use {ZONES}"),
    ({"move": {"tile": "5b", "from": "wall", "to": "rack:5"}},
     f"unknown zone 'rack:5' in \"to\": use {ZONES}"),
    ({"move": {"tile": "5b", "to": "rack:1"}},
     f"unknown zone None in \"from\": use {ZONES}"),
])
def test_a_move_names_the_unknown_tile_or_zone(event: dict[str, Any], message: str) -> None:
    """FORMATS.md: a move is one tile by its code, between the zones rack:N, melds:N,
    discard, river and wall; the refusal names the end ("from" or "to") that is wrong."""
    assert refusal(event) == message


def test_a_move_with_a_field_the_log_adds_is_checked_in_full_and_accepted() -> None:
    """FORMATS.md: the controller's own log "may add fields": a move beside another field is
    still a move (the long check, each end's zone looked up), and so is a move with a wrong end
    beside one."""
    assert check_event({"move": VALID_MOVE, "at": 12.5}) == ("move", VALID_MOVE)
    for end in ("from", "to"):
        bad = {**VALID_MOVE, end: "pad"}
        assert refusal({"move": bad, "at": 1.0}) == f"unknown zone 'pad' in \"{end}\": use {ZONES}"


@pytest.mark.parametrize(("body", "message"), [
    ({"undo": 0}, "undo needs a whole number of events >= 1, not 0"),
    ({"undo": True}, "undo needs a whole number of events >= 1, not True"),
    ({"undo": "2"}, "undo needs a whole number of events >= 1, not '2'"),
    ({"end_hand": "draw"}, 'end_hand takes "washout"'),
    ({"reassign": "9b"}, "correct takes undo, reassign, end_hand or holder"),
    ({}, "correct takes undo, reassign, end_hand or holder"),
    ({"reassign": {"zone": "rack:9", "tile": "9b", "as": "9c"}},
     'reassign needs a zone, a tile and the tile it really is ("as")'),
    ({"reassign": {"zone": "rack:2", "tile": "9x", "as": "9c"}},
     'reassign needs a zone, a tile and the tile it really is ("as")'),
    ({"reassign": {"zone": "rack:2", "tile": "9b", "as": "9x"}},
     'reassign needs a zone, a tile and the tile it really is ("as")'),
    ({"holder": 3}, 'holder takes {"seat", "name", "from"} (and "to")'),
    ({"holder": {"seat": 1, "name": "Ann Lee", "from": 0}},
     "holder's from is a hand number (1, 2, ...), not 0"),
    ({"holder": {"seat": 1, "name": "Ann Lee", "from": 2, "to": True}},
     "holder's to is a hand number (1, 2, ...), not True"),
    ({"holder": {"seat": 1, "name": "Ann Lee", "from": 5, "to": 4}},
     "holder's to comes at or after its from"),
])
def test_a_correction_names_what_is_wrong(body: dict[str, Any], message: str) -> None:
    """FORMATS.md: ``{"undo": N}`` takes back N >= 1 events (a whole number, not a flag);
    the operator's washout is ``{"end_hand": "washout"}``; a reassign names the zone, the tile
    read and the tile it really is; a holder names a seat, a name and the hand numbers it holds
    the seat from (and to, at or after from)."""
    assert refusal({"correct": body}) == message


@pytest.mark.parametrize("body", [
    {"undo": 1}, {"undo": 3}, {"end_hand": "washout"},
    {"reassign": {"zone": "rack:2", "tile": "9b", "as": "9c"}},
    {"holder": {"seat": 1, "name": "Ann Lee", "from": 2}},
    {"holder": {"seat": 1, "name": "Ann Lee", "from": 2, "to": 2}},  # one hand: to == from
    {"holder": {"seat": 4, "name": None, "from": 7, "to": 9}},
])
def test_a_well_formed_correction_passes(body: dict[str, Any]) -> None:
    assert check_event({"correct": body}) == ("correct", body)


@pytest.mark.parametrize(("body", "message"), [
    ({"seat": 1, "name": "x" * 41}, "a player's name is 1-40 characters (null clears the seat)"),
    ({"seat": 1, "name": "   "}, "a player's name is 1-40 characters (null clears the seat)"),
    ({"seat": 1, "name": ""}, "a player's name is 1-40 characters (null clears the seat)"),
    ({"seat": 1, "name": 7}, "a player's name is 1-40 characters (null clears the seat)"),
    ({"seat": 1, "name": "Ann\nLee"}, "a player's name must not hold control characters"),
    ({"seat": 0, "name": "Ann"}, "seat must be a seat 1-4, not 0"),
])
def test_a_player_event_names_what_is_wrong(body: dict[str, Any], message: str) -> None:
    """A player's name is 1-40 printable characters, not blank; null clears the seat."""
    assert refusal({"player": body}) == message


@pytest.mark.parametrize("body", [
    {"seat": 2, "name": "x" * 40}, {"seat": 2, "name": "A"}, {"seat": 3, "name": None},
    {"seat": 3},
])
def test_a_player_name_of_1_to_40_characters_or_null_passes(body: dict[str, Any]) -> None:
    assert check_event({"player": body}) == ("player", body)


@pytest.mark.parametrize(("body", "message"), [
    ({"cancel": 0}, "cancel names a penalty by its number (1, 2, ...), not 0"),
    ({"cancel": False}, "cancel names a penalty by its number (1, 2, ...), not False"),
    ({"cancel": "1"}, "cancel names a penalty by its number (1, 2, ...), not '1'"),
    ({"kind": "deduction", "seat": 1, "amount": 0},
     "a penalty's amount is a whole number 1-1000000"),
    ({"kind": "deduction", "seat": 1, "amount": 1_000_001},
     "a penalty's amount is a whole number 1-1000000"),
    ({"kind": "deduction", "seat": 1, "amount": True},
     "a penalty's amount is a whole number 1-1000000"),
    ({"kind": "deduction", "seat": 1, "amount": 2.5},
     "a penalty's amount is a whole number 1-1000000"),
    ({"kind": "transfer", "from": 2, "to": 2, "amount": 10},
     "a transfer goes from one seat to another"),
    ({"kind": "transfer", "from": 2, "to": 3}, "a transfer needs an amount"),
    ({"kind": "deduction", "seat": 1}, "a deduction needs an amount"),
    ({"kind": "fine", "seat": 1},
     "a penalty's kind is transfer, false_mahjong, deduction or chombo (riichi)"),
    ({"kind": "chombo", "seat": 1, "reason": "x" * 201},
     "a penalty's reason is a text of at most 200 characters"),
    ({"kind": "chombo", "seat": 1, "reason": 5},
     "a penalty's reason is a text of at most 200 characters"),
])
def test_a_penalty_names_what_is_wrong(body: dict[str, Any], message: str) -> None:
    """A penalty: a cancel by its number (1, 2, ...), or a transfer between two seats, a
    deduction (each with a whole amount 1-1,000,000), a false Mahjong or a chombo, with an
    optional reason of at most 200 characters."""
    assert refusal({"penalty": body}) == message


@pytest.mark.parametrize("body", [
    {"cancel": 1},
    {"kind": "deduction", "seat": 1, "amount": 1},
    {"kind": "deduction", "seat": 1, "amount": 1_000_000},
    {"kind": "transfer", "from": 1, "to": 2, "amount": 5},
    {"kind": "false_mahjong", "seat": 4, "reason": "x" * 200},
    {"kind": "chombo", "seat": 1, "reason": "a riichi with no wait"},
])
def test_a_well_formed_penalty_passes(body: dict[str, Any]) -> None:
    assert check_event({"penalty": body}) == ("penalty", body)


def test_a_timer_event_of_another_kind_is_refused_in_words() -> None:
    assert refusal({"timer": {"kind": "hand"}}) == "a timer event's kind is turn or claim"


def test_a_malformed_event_is_a_violation_carrying_the_same_words() -> None:
    """What the table's players and the API see: the refused event's violation."""
    outcome = apply(new_game(), {"correct": {"end_hand": "draw"}})
    assert not outcome.accepted
    assert outcome.violation is not None
    assert outcome.violation.rule == "malformed_event"
    assert outcome.violation.message == 'end_hand takes "washout"'


def test_an_event_is_one_object_of_exactly_one_kind() -> None:
    """FORMATS.md: each line is one JSON object holding one event; a move beside a declaration
    is no event (the quick check of the common move must not take it), and a kind's body is an
    object."""
    assert refusal([{"move": VALID_MOVE}]) == 'an event is a JSON object such as {"move": {...}}'
    assert refusal({"move": VALID_MOVE, "declare": {"seat": 2, "call": "claim"}}) == (
        "an event has exactly one of session, move, declare, correct, anomaly, timer, player, "
        "penalty; got move, declare")
    assert refusal({"move": ["5b", "wall", "rack:1"]}) == "move must be an object"


#: RULES.md and FORMATS.md: the six rule sets by name
RULE_SETS = "hua-bao, swedish, dmjl, bmja, mcr, riichi"


@pytest.mark.parametrize(("event", "message"), [
    ({"declare": {"seat": 2, "call": "pung"}},
     "unknown call 'pung': use claim, ready or mahjong (riichi: noten, nine_terminals)"),
    ({"declare": {"seat": 2}},
     "unknown call None: use claim, ready or mahjong (riichi: noten, nine_terminals)"),
    ({"session": {}}, f"session needs a ruleset: one of {RULE_SETS}"),
    ({"session": {"ruleset": 3}}, f"session needs a ruleset: one of {RULE_SETS}"),
    ({"session": {"ruleset": "mcr", "options": []}}, "session options must be an object"),
    ({"session": {"ruleset": "mcr", "table": "fast"}},
     "session table options must be an object"),
])
def test_a_declaration_or_session_names_what_is_wrong(event: dict[str, Any], message: str) -> None:
    """FORMATS.md's calls (claim, ready, mahjong; riichi's noten and nine_terminals) and a
    session line's fields: a rule set by name (every one of the six, not the first three the
    words once named), options and table options as objects."""
    assert refusal(event) == message


@pytest.mark.parametrize("event", [
    {"declare": {"seat": 4, "call": "nine_terminals"}},
    {"session": {"ruleset": "riichi", "options": {"pao": False}, "table": {}}},
])
def test_a_well_formed_declaration_or_session_passes(event: dict[str, Any]) -> None:
    [(kind, body)] = event.items()
    assert check_event(event) == (kind, body)
