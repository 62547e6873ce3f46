"""The fold: apply(state, event, at) -> Outcome. Pure; time comes in as ``at``, never from a clock.

Accepted events that change the game push the state they replaced onto ``GameState.prev``, so
``undo N`` steps back N states; refused events, notes and undos are not undoable (the other
corrections are steps like any change).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from controller.game import calls, endhand, holders, moves, people, riichi, riichi_abort, riichi_end
from controller.game.context import Ctx, Refused, name
from controller.game.events import EventError, check_event
from controller.game.reassign import reassign
from controller.game.state import (
    GameState,
    Hand,
    Outcome,
    TableOptions,
    Violation,
    evolve,
    new_hand,
)
from controller.game.zones import (
    OFF_TABLE,
    differences,
    physical_counts,
    same_place,
    zone_counts,
)
from controller.scoring import PLAYABLE, ScoringError, get_ruleset
from controller.scoring.rulesets.mcr import FALSE_MAHJONG_PENALTY

_NO_TRACE = ("tile_not_there", "fifth_copy", "not_in_set", "malformed_event", "no_session")
#: the refusal of an event the engine failed on (a bug): the table goes on
_BUG_WORDS = "the engine could not apply this event ({}): please report it with the log"


def new_game() -> GameState:
    return GameState()


def apply(state: GameState, event: dict[str, Any], at: float | None = None, *,
          line: int | None = None) -> Outcome:
    """Apply one event; ``line`` (default: the event's number) is what violations report."""
    seq = state.seq + 1
    ctx = Ctx(state, at, misplaced=list(state.misplaced))
    try:
        kind, body = check_event(event)
        new, changed = _dispatch(ctx, state, kind, body)
    except (Refused, EventError) as exc:
        if isinstance(exc, EventError):
            exc = Refused("malformed_event", None, str(exc))
        return _refused(ctx, state, event, exc, seq, line or seq)
    except Exception as exc:  # a bug must not stop the table: refuse the event, keep the game
        # No valid or malformed event reaches this (each is checked first): no test can, so
        # its three lines are not mutated (docs/testing.md).
        what = _BUG_WORDS.format(f"{type(exc).__name__}: {exc}")  # pragma: no mutate
        bug = Refused("engine_error", None, what)  # pragma: no mutate
        return _refused(ctx, state, {}, bug, seq, line or seq)  # pragma: no mutate
    violations = state.violations
    flagged = tuple(evolve(v, line=line or seq) for v in ctx.flagged)
    for v in flagged:
        violations = violations.add(v)
    misplaced = tuple(ctx.misplaced)
    extra: dict[str, Any] = {"prev": state, "depth": state.depth + 1} if changed else {}
    if isinstance(new, Hand):  # the common case: only the hand changed, one copy of the state
        extra["hand"] = new
        new = state
    new = evolve(
        new, seq=seq, violations=violations, misplaced=misplaced,
        last_violation=flagged[0] if flagged else None, **extra,
    )
    return Outcome(True, new, flagged[0] if flagged else None, tuple(ctx.notes))


def _refused(ctx: Ctx, state: GameState, event: dict[str, Any], exc: Refused, seq: int,
             line: int) -> Outcome:
    move = event.get("move") if isinstance(event, dict) else None
    seat = exc.seat
    if seat is None and isinstance(move, dict):  # name the seat whose zone the tile left or reached
        for zone in (move.get("from"), move.get("to")):
            kind, _, pos = str(zone).partition(":")
            if pos in ("1", "2", "3", "4") and kind in ("rack", "melds"):  # a malformed event's
                seat = int(pos)  # zone ("rack:<", a flipped bit in the log) names no seat
                break
    v = Violation(exc.rule, seat, exc.message, line)
    misplaced = state.misplaced
    if isinstance(move, dict) and exc.rule not in _NO_TRACE and state.hand is not None:
        src = ctx.resolved_src if ctx.resolved_src else str(move.get("from"))
        if move.get("to") != src:
            misplaced = tuple(ctx.base_misplaced) + ((str(move["tile"]), str(move["to"]), src),)
    # A refused correction (the operator's, or a seat fixing its own rack) is told to whoever
    # sent it; the table's last violation stays a player's (issue 11).
    shown = state.last_violation if isinstance(event, dict) and "correct" in event else v
    new = evolve(state, seq=seq, violations=state.violations.add(v), last_violation=shown,
                 misplaced=misplaced)
    if _false_mahjong(state, event, exc):
        new = _penalise(ctx, new, exc.seat, line)  # type: ignore[arg-type]  # checked there
    elif _refused_riichi_win(state, event, exc):
        assert new.hand is not None and exc.seat is not None
        new = evolve(new, hand=riichi.make_dead(ctx, new.hand, exc.seat, exc.rule))
    return Outcome(False, new, v, tuple(ctx.notes))


_FALSE_MAHJONG = ("mahjong_incomplete_hand", "mahjong_without_eight_fans")
_RIICHI_REFUSED_WIN = ("mahjong_incomplete_hand", "mahjong_without_yaku", "furiten")


def _refused_riichi_win(state: GameState, event: dict[str, Any], exc: Refused) -> bool:
    """A riichi Mahjong refused for no yaku, furiten or an incomplete hand: the hand is dead
    (RULES.md 11, EMA 5.1.2)."""
    declare = event.get("declare") if isinstance(event, dict) else None
    return (
        state.rt is not None and exc.rule in _RIICHI_REFUSED_WIN and exc.seat is not None
        and isinstance(declare, dict) and declare.get("call") == "mahjong"
        and state.hand is not None and state.hand.rh is not None
    )


def _false_mahjong(state: GameState, event: dict[str, Any], exc: Refused) -> bool:
    """An mcr Mahjong declared with a hand that is not complete or has fewer than 8 fans. (A
    Mahjong declared with no hand in play is refused as ``no_hand`` before, in neither list.)"""
    declare = event.get("declare") if isinstance(event, dict) else None
    return (
        state.ruleset_name == "mcr" and exc.rule in _FALSE_MAHJONG and exc.seat is not None
        and isinstance(declare, dict) and declare.get("call") == "mahjong"
        and state.hand is not None
    )


def _penalise(ctx: Ctx, state: GameState, seat: int, line: int) -> GameState:
    """The EMA's false-Mahjong penalty (RULES.md 10): the declarer pays 10 to each other
    player; play goes on (the event itself stays refused)."""
    each = FALSE_MAHJONG_PENALTY
    assert state.hand is not None
    ctx.notes.append(f"{name(state.hand, seat)} declared a false Mahjong: pays {each} to each "
                     "other player; play goes on")
    return people.false_mahjong(state, seat, each, reason="false Mahjong", line=line)


def _dispatch(
    ctx: Ctx, state: GameState, kind: str, body: Any
) -> tuple[GameState | Hand, bool]:
    if kind in ("anomaly", "timer"):
        return _note(state, kind, body), False
    if kind == "session":
        return _session(state, body), True
    if kind in ("player", "penalty"):
        if state.ruleset_name is None:
            raise Refused("no_session", None, "no session yet: start one with a session event")
        if kind == "player":
            return people.seat_player(ctx, state, body), False
        return people.penalise(ctx, state, body), True
    if kind == "correct":
        return _correct(ctx, state, body)
    if state.ruleset_name is None:
        raise Refused("no_session", None, "no session yet: start one with a session event")
    if kind == "move":
        return _move(ctx, state, body["tile"], body["from"], body["to"])
    return _declare(ctx, state, int(body["seat"]), str(body["call"]))


def _note(state: GameState, kind: str, body: dict[str, Any]) -> GameState:
    """Anomalies and timer overruns are recorded; a timer event marks its deadline as noted."""
    if kind != "timer" or state.hand is None:
        return state
    hand = state.hand
    timer_kind = str(body.get("kind"))
    deadline = body.get("deadline")
    if deadline is None:
        deadline = hand.turn_deadline if timer_kind == "turn" else hand.claim_deadline
    mark = (timer_kind, int(body.get("seat", 0)), float(deadline or 0.0))
    return evolve(state, timers_noted=state.timers_noted + (mark,))


def _session(state: GameState, body: dict[str, Any]) -> GameState:
    if state.ruleset_name is not None and (state.hands or state.hand is not None):
        raise Refused("session_in_progress", None, "a session is under way: one log, one session")
    name_ = body.get("ruleset")
    options = dict(body.get("options") or {})
    table = body.get("table") or {}
    try:
        ruleset = get_ruleset(str(name_), options)
        if not ruleset.spec.playable:
            raise ScoringError(f"rule set {name_} is scored and settled (`score`, `settle`) "
                               "but not yet played by the table: use one of "
                               + ", ".join(PLAYABLE))
        table_opts = TableOptions(**table)
    except ScoringError as exc:
        raise Refused("bad_session", None, str(exc)) from None
    except TypeError:
        raise Refused("bad_session", None, f"unknown table options in {table!r}") from None
    return evolve(
        GameState(), ruleset_name=str(name_), options=dict(ruleset.options), ruleset=ruleset,
        table=table_opts, rt=riichi_end.RiichiTable() if ruleset.name == "riichi" else None,
    )


Entry = tuple[str, str, str]
_WHERE_RULES = ("tile_not_there", "tile_out_of_place")


Reading = tuple[Entry | None, str, bool]


def _sources(ctx: Ctx, tile: str, src: str, dst: str) -> list[Reading] | None:
    """None for a put-back; else the readings of the move: (the out-of-place note it settles,
    the zone it starts from in the game, whether a refusal moves that note's tile). First an
    out-of-place tile lying in ``src`` (several when identical tiles lie out of place), then
    the game's own tile in ``src``."""
    mis = ctx.misplaced
    for entry in mis:
        if entry[0] == tile and same_place(entry[1], src) and same_place(entry[2], dst):
            mis.remove(entry)
            return None
    found: list[Reading] = [(e, e[2], True) for e in mis if e[0] == tile and same_place(e[1], src)]
    if found:
        return [*found, (None, src, False)]
    for entry in mis:
        if entry[0] == tile and entry[2] == src:
            # The log left the put-back out: the tile moves on from where it is. If the move
            # is refused, nothing is assumed: the note stays. But while another copy lies in
            # ``src`` the move is that copy's first (the tracker saw a tile come from the wall:
            # the one out of place still lies where it was put; issue 22's undo to the start).
            if _lies_in(ctx, tile, src):
                return [(None, src, False), (entry, src, False)]
            return [(entry, src, False)]
    return [(None, src, False)]


def _lies_in(ctx: Ctx, tile: str, zone: str) -> bool:
    """Whether a ``tile`` lies in ``zone`` on the table (off the table: in the wall or the
    river pile), the tiles out of place where they were put."""
    state = ctx.state
    bonus = bool(state.ruleset.bonus_tiles) if state.ruleset is not None else False
    hand = state.hand or new_hand(0, state.dealer, state.prevailing_wind, bonus)
    zones = physical_counts(hand, bonus, ctx.misplaced, state.cleared if state.hand else ())
    places = OFF_TABLE if zone in OFF_TABLE else (zone,)
    return sum(zones.get(z, Counter())[tile] for z in places) > 0


def _move(
    ctx: Ctx, state: GameState, tile: str, src: str, dst: str
) -> tuple[GameState | Hand, bool]:
    """A move; with identical tiles out of place the reading that is legal is taken
    (FORMATS.md). When none is, the first refusal that names a rule of play is reported
    (else the first), with the tile's bookkeeping of the first reading."""
    sources = _sources(ctx, tile, src, dst)
    if sources is None:
        ctx.base_misplaced = list(ctx.misplaced)
        return state, False
    refusals: list[tuple[Refused, str, list[Entry]]] = []
    for entry, source, moves_note in sources:
        if entry is not None:
            ctx.misplaced.remove(entry)
        ctx.base_misplaced = list(ctx.misplaced)
        try:
            return _move_from(ctx, state, tile, source, dst)
        except Refused as exc:
            if entry is not None:
                ctx.misplaced.append(entry)
            refusals.append((exc, source, ctx.base_misplaced if moves_note else
                             list(ctx.misplaced)))
    first = refusals[0]
    named = [r for r in refusals if r[0].rule not in _WHERE_RULES]
    ctx.resolved_src, ctx.base_misplaced = first[1], first[2]
    raise (named[0] if named else first)[0]


def _move_from(
    ctx: Ctx, state: GameState, tile: str, resolved: str, dst: str
) -> tuple[GameState | Hand, bool]:
    hand = state.hand
    if hand is None and resolved != "wall":
        what = "such tile" if resolved.startswith("rack") else tile
        raise Refused("tile_not_there", None, f"no hand has begun: {resolved} holds no {what}")
    changed = False
    if hand is not None and _washout_due(hand, resolved, dst):
        if riichi_abort.due(hand):
            ended = riichi_abort.end(ctx, moves.bury_discard(hand), str(hand.rh.abort))
        else:
            ctx.notes.append("The live wall is used up and the last discard went unclaimed: "
                             "washout")
            ended = endhand.finish_washout(ctx, moves.bury_discard(hand))
        closed = endhand.close(state, ended)
        state, hand, changed = closed, closed.hand, True
    if hand is not None and hand.phase == "over" and resolved == "wall" and dst == "dora":
        return riichi_end.lay_ura(ctx, state, tile, moves.take_from_wall(ctx, hand, tile)), True
    if hand is None or hand.phase == "over":
        if resolved != "wall" or dst == "wall":  # table clearing between hands: noted only
            return evolve(state, cleared=state.cleared + ((tile, resolved, dst),)), changed
        if state.game_over:
            raise Refused("session_over", None, "four wind rounds are played: the game is over")
        bonus = bool(state.ruleset.bonus_tiles)
        hand = new_hand(len(state.hands) + 1, state.dealer, state.prevailing_wind, bonus)
        if state.rt is not None:
            hand = evolve(hand, rh=riichi.RiichiHand())
        ctx.notes.append(f"Hand {hand.number} begins; dealer: seat {hand.dealer}")
        state, changed = evolve(state, cleared=()), True
    result = _with_hand(state, moves.route(ctx, hand, tile, resolved, dst))
    if changed and isinstance(result, Hand):  # the state itself changed too
        result = evolve(state, hand=result)
    return result, True


def _washout_due(hand: Hand, src: str, dst: str) -> bool:
    """With the live wall used up and the last discard unclaimed, the table being cleared (or
    the next deal starting) ends the hand as a washout even if the discard was not pushed to
    the river first."""
    return (
        hand.phase == "play" and (hand.live_wall <= 0 or riichi_abort.due(hand))
        and hand.discard is not None
        and hand.claim is None and not hand.claimants and hand.taken is None
        and (src == "wall" or dst == "wall")
    )


def _with_hand(state: GameState, hand: Hand) -> GameState | Hand:
    """The new hand, or the whole new state when the hand has just ended (every caller passes
    a hand that was in play before the event)."""
    if hand.phase == "over":
        return endhand.close(state, hand)
    return hand


def _declare(ctx: Ctx, state: GameState, pos: int, call: str) -> tuple[GameState | Hand, bool]:
    hand = state.hand
    if call == "noten":
        if state.rt is None:
            raise Refused("malformed_event", pos, "noten is a riichi declaration")
        return riichi_end.noten(ctx, state, pos), True
    if hand is None or hand.phase == "over":
        raise Refused("no_hand", pos, f"no hand is in play: seat {pos}'s {call} changes nothing")
    new = calls.declare(ctx, hand, pos, call)
    if new is hand:
        return state, False
    return _with_hand(state, new), True


def _correct(ctx: Ctx, state: GameState, body: dict[str, Any]) -> tuple[GameState, bool]:
    """Each correction gives a whole state (the operator's washout always ends the hand)."""
    if "undo" in body:
        new, changed = _undo(ctx, state, int(body["undo"])), False
    elif "end_hand" in body:
        hand = state.hand
        if hand is None or hand.phase == "over":
            raise Refused("no_hand", None, "no hand is in play to end")
        ctx.notes.append("The operator ends the hand as a washout")
        new, changed = endhand.close(state, endhand.finish_washout(ctx, hand)), True
    elif "holder" in body:
        if state.ruleset_name is None:
            raise Refused("no_session", None, "no session yet: start one with a session event")
        new, changed = holders.hold_seat(ctx, state, body["holder"]), True
    else:
        new, changed = reassign(ctx, state, body["reassign"]), True
    return evolve(new, corrections=state.corrections + 1), changed


def _undo(ctx: Ctx, state: GameState, n: int) -> GameState:
    """Step back ``n`` states. Every tile that now lies elsewhere than the game has it is out
    of place (tiles moved after the hand ended included); undone into a finished hand, tiles
    off their zones count as the table being cleared."""
    target = state
    for _ in range(n):
        if target.prev is None or target.prev.ruleset_name is None:  # never the session start
            raise Refused("undo_too_far", None,
                          f"only {max(state.depth - 1, 0)} events can be taken back: an undo "
                          "never takes back the start of the session")
        target = target.prev
    bonus = bool(state.ruleset.bonus_tiles) if state.ruleset is not None else False
    empty = new_hand(0, state.dealer, state.prevailing_wind, bonus)
    lying = physical_counts(state.hand or empty, bonus, state.misplaced, state.cleared)
    then = target.hand or empty
    undone = differences(zone_counts(state.hand or empty, bonus), zone_counts(then, bonus))
    known = [*state.misplaced, *((t, put, src) for t, src, put in state.cleared), *undone]
    apart = differences(lying, physical_counts(then, bonus, (), target.cleared), known)
    cleared = target.cleared
    if then.phase == "over":  # the table may be cleared: nothing is out of place
        ctx.misplaced, cleared = [], cleared + tuple((t, home, put) for t, put, home in apart)
    else:
        ctx.misplaced = apart
    ctx.notes.append(f"{n} event(s) taken back")
    # the refusals are the fold's (``apply`` keeps them across every event)
    return evolve(target, timers_noted=state.timers_noted, cleared=cleared, names=state.names)


def replay(events: Iterable[dict[str, Any]]) -> tuple[GameState, list[Outcome]]:
    """Fold a whole log; returns the final state and every event's outcome."""
    state = new_game()
    outcomes = []
    for event in events:
        outcome = apply(state, event)
        outcomes.append(outcome)
        state = outcome.state
    return state, outcomes


def replay_lines(lines: Iterable[tuple[int, dict[str, Any], float | None]]) -> GameState:
    """Fold (line number, event, time) triples; violations report those line numbers.

    The hook for ``replay FILE`` and for replaying a stored session (``--db``).
    """
    state = new_game()
    for line, event, at in lines:
        state = apply(state, event, at, line=line).state
    return state


__all__ = ["apply", "new_game", "replay", "replay_lines", "name"]
