"""The fold's refusals and announcements word for word, and the steps around a hand (engine.py;
issue 29: game-play-engine's survivors). Expectations from docs/game.md (seats, dealer,
rounds; refused moves; the violation names) and FORMATS.md: a violation's rule, seat and
message are what the table shows."""

from __future__ import annotations

from typing import Any

from controller.game import GameState, replay, replay_lines
from tests.game.logbuilder import Log
from tests.game.scenarios import JUNK, won_by_the_next_seat
from tests.game.test_riichi_rules import _log as riichi_log
from tests.game.test_riichi_rules import _riichi_then_ron

SESSION = {"session": {"ruleset": "hua-bao", "options": {}}}


def _last(events: list[dict[str, Any]]) -> tuple[GameState, Any]:
    state, outcomes = replay(events)
    return state, outcomes[-1]


def _words(events: list[dict[str, Any]]) -> tuple[str, int | None, str]:
    _, out = _last(events)
    assert not out.accepted and out.violation is not None
    return out.violation.rule, out.violation.seat, out.violation.message


def _dealt() -> Log:
    log = Log()
    log.deal(JUNK)
    log.discard(1, "rd").river("rd")
    return log


def test_a_second_session_before_play_replaces_the_first_and_after_it_is_refused() -> None:
    """docs/game.md: a second session line *after play began* is refused."""
    state, out = _last([SESSION, {"session": {"ruleset": "mcr", "options": {}}}])
    assert out.accepted and state.ruleset_name == "mcr"
    assert _words([*_dealt().events, {"session": {"ruleset": "mcr"}}]) == (
        "session_in_progress", None, "a session is under way: one log, one session")


def test_unknown_table_options_are_a_bad_session() -> None:
    assert _words([{"session": {"ruleset": "hua-bao", "table": {"clock": 1}}}]) == (
        "bad_session", None, "unknown table options in {'clock': 1}")


def test_moves_before_the_first_deal() -> None:
    """Before a hand begins only the wall holds tiles; a rack's refusal names its seat and
    not the tile (a rack is concealed), the pad's names the tile."""
    assert _words([SESSION, {"move": {"tile": "5b", "from": "rack:1", "to": "discard"}}]) == (
        "tile_not_there", 1, "no hand has begun: rack:1 holds no such tile")
    assert _words([SESSION, {"move": {"tile": "5b", "from": "discard", "to": "river"}}]) == (
        "tile_not_there", None, "no hand has begun: discard holds no 5b")
    _, out = _last([SESSION, {"move": {"tile": "5b", "from": "wall", "to": "rack:1"}}])
    assert out.accepted and out.announcements == ("Hand 1 begins; dealer: seat 1",)


def test_a_move_to_where_the_tile_already_is_leaves_nothing_out_of_place() -> None:
    state, out = _last([*_dealt().events,
                        {"move": {"tile": "2c", "from": "rack:2", "to": "rack:2"}}])
    assert not out.accepted and out.violation.rule == "tile_out_of_place"
    assert state.misplaced == ()


def test_a_tile_put_on_a_meld_strip_names_that_seat() -> None:
    """A tile from the wall laid on West's strip out of turn: the refusal names West (the
    seat whose strip the tile reached), and the tile is out of place there."""
    state, out = _last([*_dealt().events,
                        {"move": {"tile": "9b", "from": "wall", "to": "melds:3"}}])
    assert (out.violation.rule, out.violation.seat) == ("tile_out_of_place", 3)
    assert state.misplaced == (("9b", "melds:3", "wall"),)


def test_clearing_the_table_after_a_hand_changes_nothing_but_is_counted() -> None:
    """docs/game.md: moves after the hand ended are the table being cleared (counted in
    ``cleared``); a tile lifted from the wall and put back begins no hand; the next hand's
    first draw starts it afresh, the count emptied."""
    log = _dealt()
    log.raw({"correct": {"end_hand": "washout"}})
    over, _ = replay(log.events)
    log.move("1b", "rack:1", "river")
    log.move("5b", "wall", "wall")
    state, out = _last(log.events)
    assert out.accepted and state.hand == over.hand and len(state.hands) == 1
    assert state.cleared == (("1b", "rack:1", "river"), ("5b", "wall", "wall"))
    assert state.depth == over.depth  # nothing an undo could take back
    log.draw(1, "2b")
    state, out = _last(log.events)
    assert out.announcements == ("Hand 2 begins; dealer: seat 1",)  # a washout: East again
    assert state.cleared == () and state.hand.number == 2


def test_after_the_north_round_a_move_from_the_wall_is_refused() -> None:
    """docs/game.md: after four passes of the deal the prevailing wind advances; after the
    north round the game is over (a move from the wall is then refused). Sixteen hands, each
    won by the seat after the dealer, so the deal passes every hand."""
    log = Log()
    for _ in range(4):
        for dealer in (1, 2, 3, 4):
            won_by_the_next_seat(log, dealer)
    state, _ = replay(log.events)
    assert state.game_over and len(state.hands) == 16
    assert _words([*log.events, {"move": {"tile": "5b", "from": "wall", "to": "rack:1"}}]) == (
        "session_over", 1, "four wind rounds are played: the game is over")


def test_a_mahjong_declared_too_late_in_riichi_leaves_the_hand_alive() -> None:
    """RULES.md 11: a Mahjong refused for no yaku, furiten or an incomplete hand makes the
    hand dead; one refused because another seat took the discard first does not: West may
    still win later."""
    log = _riichi_then_ron(riichi_log())
    events = [*log.events[:-2], {"move": {"tile": "1d", "from": "discard", "to": "rack:1"}},
              {"declare": {"seat": 3, "call": "mahjong"}}]
    state, out = _last(events)
    assert (out.violation.rule, out.violation.seat) == ("claim_too_late", 3)
    assert state.hand.rh.dead == ()


def test_a_short_hand_at_easts_first_discard_is_dead_and_the_discard_stands() -> None:
    """The option ``wrong_count: dead_hand``: West dealt 12 tiles; East's first
    discard is accepted, West's hand dead, and the violation reported on that discard's line,
    the event's number in a replay and the file's line in ``replay_lines``."""
    log = Log("hua-bao", {"wrong_count": "dead_hand"})
    log.deal({**JUNK, 3: "2b 5b 8b 8c 8d ew sw ww nw rd gd wd"})
    events = [*log.events, {"move": {"tile": "rd", "from": "rack:1", "to": "discard"}}]
    state, out = _last(events)
    expected = ("wrong_tile_count", 3, "West holds 12 tiles, not 13: the hand is dead")
    assert out.accepted and out.violation is not None
    assert (out.violation.rule, out.violation.seat, out.violation.message) == expected
    assert out.violation.line == len(events) and state.last_violation == out.violation
    assert state.hand.seat(3).dead and state.hand.discard == ("rd", 1)
    from_file = replay_lines((100 + i, e, None) for i, e in enumerate(events))
    assert from_file.last_violation is not None
    assert from_file.last_violation.line == 100 + len(events) - 1


def test_a_timer_event_with_no_seat_number_or_time_is_malformed() -> None:
    """docs/architecture.md: ``{"timer": {"seat": 2, "kind": "turn", "overrun": 1.5}}``, with
    a ``deadline`` in seconds. Anything else is a malformed event with a clear reason (it
    once reached the engine and was refused as ``engine_error``)."""
    events = _dealt().events
    assert _words([*events, {"timer": {"seat": "x", "kind": "turn"}}]) == (
        "malformed_event", None, "seat must be a seat 1-4, not 'x'")
    assert _words([*events, {"timer": {"kind": "turn", "deadline": "soon"}}]) == (
        "malformed_event", None, "a timer event's deadline is a time in seconds, not 'soon'")
    assert _words([*events, {"timer": {"kind": "claim", "deadline": True}}])[0] == (
        "malformed_event")
    _, out = _last([*events, {"timer": {"seat": 2, "kind": "turn", "deadline": 210}}])
    assert out.accepted


def test_a_player_or_a_penalty_before_the_session_is_refused() -> None:
    for event in ({"player": {"seat": 1, "name": "Ann"}},
                  {"penalty": {"kind": "transfer", "from": 1, "to": 2, "amount": 5}}):
        assert _words([event]) == (
            "no_session", None, "no session yet: start one with a session event")
