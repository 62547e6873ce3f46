"""The fold's own bookkeeping (engine.py; issue 29: game-play-engine's survivors), each
expectation from the contracts in docs/game.md and FORMATS.md: a timer event marks its
deadline reported (each deadline is reported once, also when the event does not carry it); an
undo is no event that can itself be undone; the operator's washout; the refusals that name no
seat; ``replay_lines`` reports the log's own line numbers and feeds each event its time; a
refused correction leaves the table's last violation a player's; an event that is no JSON
object is refused, never a crash."""

from __future__ import annotations

from typing import Any

from controller.game import apply, due_timer_events, new_game, replay, replay_lines
from controller.game.state import GameState
from tests.game.logbuilder import Log
from tests.game.scenarios import JUNK


def _timed(table: dict[str, Any] | None = None) -> GameState:
    """A dealt hua-bao hand with the call timers on, then East's rd discarded at t = 200."""
    log = Log(table={"timers": True, **(table or {})})
    log.deal(JUNK)
    state = new_game()
    for i, event in enumerate(log.events):
        state = apply(state, event, at=100.0 + i * 0.01).state
    discard = {"move": {"tile": "rd", "from": "rack:1", "to": "discard"}}
    return apply(state, discard, at=200.0).state


def test_a_timer_event_without_its_deadline_marks_the_hands_own() -> None:
    """South's turn runs to 210 (10 s after the discard, docs/game.md); a timer event that
    does not say its deadline marks the hand's turn deadline reported, so it is not due again;
    one that names another deadline does not."""
    state = _timed()
    assert state.hand is not None and state.hand.turn_deadline == 210.0
    assert len(due_timer_events(state, 211.0)) == 1
    noted = apply(state, {"timer": {"seat": 2, "kind": "turn", "overrun": 1.0}}, at=211.0)
    assert noted.accepted and noted.state.timers_noted == (("turn", 2, 210.0),)
    assert due_timer_events(noted.state, 212.0) == []
    other = apply(state, {"timer": {"seat": 2, "kind": "turn", "deadline": 99.0}}, at=211.0)
    assert other.state.timers_noted == (("turn", 2, 99.0),)
    assert len(due_timer_events(other.state, 212.0)) == 1
    # a claim timer without its deadline: the claim window's, 3 s after the discard
    claim = apply(state, {"timer": {"kind": "claim"}}, at=204.0).state
    assert claim.timers_noted == (("claim", 0, 203.0),)


def test_timer_and_anomaly_events_before_a_hand_note_nothing() -> None:
    state = apply(new_game(), {"session": {"ruleset": "hua-bao", "table": {"timers": True}}},
                  at=1.0).state
    for event in ({"timer": {"seat": 1, "kind": "turn", "deadline": 5.0}},
                  {"anomaly": {"kind": "ghost", "tile": "1b"}}):
        out = apply(state, event, at=6.0)
        assert out.accepted and out.state.timers_noted == ()
        assert out.state.depth == state.depth  # nothing to take back
    out = apply(_timed(), {"anomaly": {"kind": "ghost", "tile": "1b"}}, at=201.0)
    assert out.accepted and out.state.timers_noted == ()


def _three_discards() -> tuple[Log, list[str]]:
    """East's rd, South's draw and its 1b."""
    log = Log()
    log.deal(JUNK)
    log.discard(1, "rd")
    log.draw(2, "1b")
    log.discard(2, "1b")
    return log, ["rd", "1b"]


def test_an_undo_is_not_itself_undone() -> None:
    """FORMATS.md / engine.py: undo N steps back N states; corrections are not undoable. Two
    undos of one step each go back two events (not forth again)."""
    log, _ = _three_discards()
    full, _ = replay(log.events)
    before_draw, _ = replay(log.events[:-2])
    twice, outcomes = replay([*log.events, {"correct": {"undo": 1}}, {"correct": {"undo": 1}}])
    assert outcomes[-1].accepted and outcomes[-1].announcements == ("1 event(s) taken back",)
    assert twice.hand == before_draw.hand and twice.depth == before_draw.depth
    assert full.depth == before_draw.depth + 2


def test_the_operators_washout() -> None:
    log, _ = _three_discards()
    state, outcomes = replay([*log.events, {"correct": {"end_hand": "washout"}}])
    assert outcomes[-1].accepted
    assert outcomes[-1].announcements[0] == "The operator ends the hand as a washout"
    assert state.hands[-1].result == "washout" and state.hand is not None
    assert state.hand.phase == "over" and state.corrections == 1
    # now, and before the first deal, there is no hand to end
    for events in ([*log.events, {"correct": {"end_hand": "washout"}}],
                   log.events[:1]):
        _, outcomes = replay([*events, {"correct": {"end_hand": "washout"}}])
        v = outcomes[-1].violation
        assert (v.rule, v.seat, v.message) == ("no_hand", None, "no hand is in play to end")


def test_corrections_before_the_session() -> None:
    out = apply(new_game(), {"correct": {"holder": {"seat": 1, "name": "Ann", "from": 1}}})
    v = out.violation
    assert not out.accepted and (v.rule, v.seat, v.message) == (
        "no_session", None, "no session yet: start one with a session event")


def test_a_refused_correction_leaves_the_players_violation_shown() -> None:
    log, _ = _three_discards()
    events = [*log.events, {"move": {"tile": "9b", "from": "rack:3", "to": "discard"}}]
    state, outcomes = replay(events)
    players = outcomes[-1].violation
    assert players is not None and state.last_violation == players
    state, outcomes = replay([*events, {"correct": {"undo": 500}}])
    assert outcomes[-1].violation.rule == "undo_too_far"
    assert state.last_violation == players  # told to whoever sent the undo, not the table


def test_replay_lines_reports_the_logs_lines_and_times() -> None:
    """``replay FILE``: violations carry the file's line numbers; each event its own time (the
    claim window closes 3 s after the discard's time)."""
    log = Log(table={"timers": True})
    log.deal(JUNK)
    events = [*log.events, {"move": {"tile": "rd", "from": "rack:1", "to": "discard"}},
              {"move": {"tile": "9b", "from": "rack:3", "to": "discard"}}]
    lines = [(10 * (i + 1), e, 50.0 + i) for i, e in enumerate(events)]
    state = replay_lines(lines)
    assert state.hand is not None and state.hand.claim_deadline == 50.0 + len(events) - 2 + 3
    assert state.last_violation is not None and state.last_violation.line == 10 * len(events)
    assert state.seq == len(events)


def _refused(events: list[Any]) -> tuple[str, int | None, str]:
    _, outcomes = replay(events)
    v = outcomes[-1].violation
    assert not outcomes[-1].accepted and v is not None
    return v.rule, v.seat, v.message


def test_what_is_no_event_is_refused_not_a_crash() -> None:
    log, _ = _three_discards()
    rule, seat, message = _refused([*log.events, ["move", "rd"]])
    assert (rule, seat) == ("malformed_event", None) and "JSON object" in message
    # a zone with a flipped bit names no seat
    rule, seat, _ = _refused([*log.events, {"move": {"tile": "9b", "from": "rack:<",
                                                     "to": "discard"}}])
    assert (rule, seat) == ("malformed_event", None)


def test_a_refused_draw_names_the_rack_it_went_to() -> None:
    """A fifth copy drawn (RULES.md 1: four of each kind) is refused; the refusal names the
    seat whose rack the tile went to, East's and North's alike."""
    for seat in (1, 4):
        log = Log()
        log.deal(JUNK)
        log.discard(1, "rd")
        if seat == 4:
            for s in (2, 3):
                log.draw(s, "3c")
                log.discard(s, "3c")
        # West and North hold two wd each: all four are out
        rule, who, _ = _refused([*log.events, {"move": {"tile": "wd", "from": "wall",
                                                        "to": f"rack:{seat}"}}])
        assert (rule, who) == ("fifth_copy", seat)


def test_declarations_with_no_hand_or_the_wrong_rule_set() -> None:
    session = [{"session": {"ruleset": "hua-bao", "options": {}}}]
    assert _refused([*session, {"declare": {"seat": 2, "call": "mahjong"}}]) == (
        "no_hand", 2, "no hand is in play: seat 2's mahjong changes nothing")
    log, _ = _three_discards()
    over = [*log.events, {"correct": {"end_hand": "washout"}}]
    assert _refused([*over, {"declare": {"seat": 3, "call": "claim"}}]) == (
        "no_hand", 3, "no hand is in play: seat 3's claim changes nothing")
    assert _refused([*log.events, {"declare": {"seat": 4, "call": "noten"}}]) == (
        "malformed_event", 4, "noten is a riichi declaration")


def test_only_a_declaration_that_changes_the_game_can_be_undone() -> None:
    """Riichi (RULES.md 11): East's READY is an event an undo takes back; a second READY
    changes nothing and is no step of its own."""
    log = Log("riichi", {"bonus_tiles": False})
    log.deal({1: "1c2c3c 4c5c6c 2b3b4b 2d3d 5b5b nw", 2: "1d 9d9d 1b1b 7b8b ewew swsw wwww",
              3: "6d6d 7d7d 8d8d 3c3c gdgd rdrd wd", 4: "5d5d 6b6b 7c7c 8c8c 9b9b nwnw 3d"})
    log.move("9b", "wall", "dora")
    ready = {"declare": {"seat": 1, "call": "ready"}}
    once, _ = replay([*log.events, ready])
    twice, _ = replay([*log.events, ready, ready])
    assert once.hand is not None and once.hand.rh.pending == 1
    assert twice.depth == once.depth
    undone, _ = replay([*log.events, ready, {"correct": {"undo": 1}}])
    assert undone.hand is not None and undone.hand.rh.pending is None
    assert undone.hand.rh.dora == ("9b",)  # the indicator laid before stays


def test_an_undo_too_far_says_how_far_it_may_go_and_keeps_the_record() -> None:
    """Three draws after the session: three events can be taken back, never the session's
    start. An undo keeps the refusals, the timers reported and the players' names."""
    events: list[dict[str, Any]] = [{"session": {"ruleset": "hua-bao", "options": {}}}]
    events += [{"move": {"tile": t, "from": "wall", "to": "rack:1"}} for t in ("1b", "2b")]
    events += [{"move": {"tile": "9c", "from": "rack:2", "to": "discard"}},  # refused
               {"player": {"seat": 3, "name": "Ann"}},
               {"move": {"tile": "3b", "from": "wall", "to": "rack:1"}}]
    assert _refused([*events, {"correct": {"undo": 4}}]) == (
        "undo_too_far", None,
        "only 3 events can be taken back: an undo never takes back the start of the session")
    state, outcomes = replay([*events, {"correct": {"undo": 2}}])
    assert outcomes[-1].accepted
    assert state.violations.size == 1 and state.violations.last.rule == "tile_not_there"
    assert state.names[2] == "Ann"


def test_mcr_false_mahjong_is_announced() -> None:
    """RULES.md 10: a false Mahjong costs 10 to each other player, and play goes on."""
    log = Log("mcr")
    log.deal(JUNK)
    log.discard(1, "rd")
    _, outcomes = replay([*log.events, {"declare": {"seat": 2, "call": "mahjong"}}])
    assert outcomes[-1].announcements == (
        "South declared a false Mahjong: pays 10 to each other player; play goes on",)
