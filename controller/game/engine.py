"""The fold: apply(state, event, at) -> Outcome. Pure; time comes in as ``at``, never from a clock.

Accepted events that change the game push the state they replaced onto ``GameState.prev``, so
``undo N`` steps back N states; refused events, notes and corrections are not undoable.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from controller.game import calls, endhand, moves, people
from controller.game.context import Ctx, Refused, name
from controller.game.events import EventError, check_event
from controller.game.state import (
    CODE_INDEX,
    GameState,
    Hand,
    Outcome,
    TableOptions,
    Violation,
    evolve,
    new_hand,
)
from controller.game.zones import misplaced_after_undo
from controller.scoring import ScoringError, get_ruleset

_NO_TRACE = ("tile_not_there", "fifth_copy", "not_in_set", "malformed_event", "no_session")


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
        refusal = Refused(
            "engine_error", None,
            f"the engine could not apply this event ({type(exc).__name__}: {exc}): "
            "please report it with the log",
        )
        return _refused(ctx, state, {}, refusal, seq, line or seq)
    violations = state.violations
    flagged = tuple(evolve(v, line=line or seq) for v in ctx.flagged)
    if flagged:
        violations += flagged
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
            if pos and kind in ("rack", "melds"):
                seat = int(pos)
                break
    v = Violation(exc.rule, seat, exc.message, line)
    misplaced = state.misplaced
    if isinstance(move, dict) and exc.rule not in _NO_TRACE and state.hand is not None:
        src = ctx.resolved_src if ctx.resolved_src else str(move.get("from"))
        if move.get("to") != src:
            misplaced = tuple(ctx.base_misplaced) + ((str(move["tile"]), str(move["to"]), src),)
    new = evolve(state, seq=seq, violations=state.violations + (v,), last_violation=v,
                 misplaced=misplaced)
    return Outcome(False, new, v, tuple(ctx.notes))


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
        table_opts = TableOptions(**table)
    except ScoringError as exc:
        raise Refused("bad_session", None, str(exc)) from None
    except TypeError:
        raise Refused("bad_session", None, f"unknown table options in {table!r}") from None
    return evolve(
        GameState(), ruleset_name=str(name_), options=dict(ruleset.options), ruleset=ruleset,
        table=table_opts,
    )


Entry = tuple[str, str, str]


def _sources(ctx: Ctx, tile: str, src: str, dst: str) -> list[tuple[Entry | None, str]] | None:
    """None for a put-back; else the zones the move may really start from in the game, each
    with the out-of-place note it settles (several when identical tiles lie out of place)."""
    mis = ctx.misplaced
    for entry in mis:
        if entry == (tile, src, dst):
            mis.remove(entry)
            return None
    found: list[tuple[Entry | None, str]] = [(e, e[2]) for e in mis if e[:2] == (tile, src)]
    if found:
        return found
    for entry in mis:
        if entry[0] == tile and entry[2] == src:
            mis.remove(entry)  # the log left the put-back out: the tile moves on from where it is
            break
    return [(None, src)]


def _move(
    ctx: Ctx, state: GameState, tile: str, src: str, dst: str
) -> tuple[GameState | Hand, bool]:
    sources = _sources(ctx, tile, src, dst)
    if sources is None:
        ctx.base_misplaced = list(ctx.misplaced)
        return state, False
    first: Refused | None = None
    for entry, source in sources:
        if entry is not None:
            ctx.misplaced.remove(entry)
        ctx.base_misplaced = list(ctx.misplaced)
        try:
            return _move_from(ctx, state, tile, source, dst)
        except Refused as exc:
            first = first or exc
            if entry is not None:
                ctx.misplaced.append(entry)
    assert first is not None
    raise first


def _move_from(
    ctx: Ctx, state: GameState, tile: str, resolved: str, dst: str
) -> tuple[GameState | Hand, bool]:
    ctx.resolved_src = resolved
    hand = state.hand
    if hand is None and resolved != "wall":
        raise Refused("tile_not_there", None, f"no hand has begun: {resolved} holds no {tile}")
    changed = False
    if hand is not None and _washout_due(hand, resolved, dst):
        ctx.notes.append("The live wall is used up and the last discard went unclaimed: washout")
        closed = endhand.close(state, endhand.finish_washout(ctx, moves.bury_discard(hand)))
        state, hand, changed = closed, closed.hand, True
    if hand is None or hand.phase == "over":
        if resolved != "wall" or dst == "wall":
            return state, changed  # table clearing between hands
        if state.game_over:
            raise Refused("session_over", None, "four wind rounds are played: the game is over")
        bonus = bool(state.ruleset.bonus_tiles)
        hand = new_hand(len(state.hands) + 1, state.dealer, state.prevailing_wind, bonus)
        ctx.notes.append(f"Hand {hand.number} begins; dealer: seat {hand.dealer}")
    result = _with_hand(state, hand, moves.route(ctx, hand, tile, resolved, dst))
    if changed and isinstance(result, Hand):  # the washout changed the state itself
        result = evolve(state, hand=result)
    return result, True


def _washout_due(hand: Hand, src: str, dst: str) -> bool:
    """With the live wall used up and the last discard unclaimed, the table being cleared (or
    the next deal starting) ends the hand as a washout even if the discard was not pushed to
    the river first."""
    return (
        hand.phase == "play" and hand.live_wall <= 0 and hand.discard is not None
        and hand.claim is None and not hand.claimants and hand.taken is None
        and (src == "wall" or dst == "wall")
    )


def _with_hand(state: GameState, old: Hand | None, hand: Hand) -> GameState | Hand:
    """The new hand, or the whole new state when the hand has just ended."""
    if hand.phase == "over" and (old is None or old.phase != "over"):
        return endhand.close(state, hand)
    return hand


def _declare(ctx: Ctx, state: GameState, pos: int, call: str) -> tuple[GameState | Hand, bool]:
    hand = state.hand
    if hand is None or hand.phase == "over":
        raise Refused("no_hand", pos, f"no hand is in play: seat {pos}'s {call} changes nothing")
    new = calls.declare(ctx, hand, pos, call)
    if new is hand:
        return state, False
    return _with_hand(state, hand, new), True


def _correct(
    ctx: Ctx, state: GameState, body: dict[str, Any]
) -> tuple[GameState | Hand, bool]:
    if "undo" in body:
        return _undo(ctx, state, int(body["undo"])), False
    if "end_hand" in body:
        hand = state.hand
        if hand is None or hand.phase == "over":
            raise Refused("no_hand", None, "no hand is in play to end")
        ctx.notes.append("The operator ends the hand as a washout")
        return _with_hand(state, hand, endhand.finish_washout(ctx, hand)), True
    return _reassign(ctx, state, body["reassign"]), True


def _undo(ctx: Ctx, state: GameState, n: int) -> GameState:
    target = state
    for _ in range(n):
        if target.prev is None:
            raise Refused("undo_too_far", None, f"only {state.depth} events can be taken back")
        target = target.prev
    bonus = bool(state.ruleset.bonus_tiles) if state.ruleset is not None else False
    ctx.misplaced = misplaced_after_undo(state.hand, target.hand, bonus)
    ctx.notes.append(f"{n} event(s) taken back")
    return evolve(target, violations=state.violations, timers_noted=state.timers_noted,
                  names=state.names)


def _reassign(ctx: Ctx, state: GameState, body: dict[str, Any]) -> GameState:
    """A misread tile: the tile the game has in ``zone`` as ``tile`` is really ``as``."""
    hand = state.hand
    if hand is None or hand.phase == "over":
        raise Refused("no_hand", None, "no hand is in play")
    zone, old, new = str(body["zone"]), str(body["tile"]), str(body["as"])
    i = CODE_INDEX[old]
    out = list(hand.out)
    out[i] -= 1
    hand = evolve(hand, out=tuple(out))
    out = list(moves.take_from_wall(ctx, hand, new))
    hand = evolve(hand, out=tuple(out))
    kind, pos = moves.parse_zone(zone)
    if kind == "rack" or kind == "melds":
        seat = hand.seat(pos)
        field = "rack" if kind == "rack" else ("forming" if old in seat.forming else "bonus")
        tiles = list(getattr(seat, field))
        if old not in tiles:
            raise Refused("tile_not_there", pos, f"{zone} holds no {old} that can be corrected")
        tiles[tiles.index(old)] = new
        hand = hand.with_seat(evolve(seat, **{field: tuple(tiles)}))
    elif kind == "discard" and hand.discard is not None and hand.discard[0] == old:
        hand = evolve(hand, discard=(new, hand.discard[1]))
    else:
        raise Refused("tile_not_there", None, f"{zone} holds no {old} that can be corrected")
    ctx.notes.append(f"The {old} in {zone} is corrected to {new}")
    return evolve(state, hand=hand)


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
