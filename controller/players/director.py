"""The director: plays whole sessions with four bots by telling the table what happens next.

It owns each hand's shuffled wall and, given the controller's current GameState, returns the
next table event (FORMATS.md's table-log lines) or None when the session is over. It reads the
state only through ``public_view`` and ``seat_view``; each bot sees only its own seat view.
``play_session`` runs director and engine in process and ``write_log`` stores the result.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from controller.game import GameState, apply, lying, new_game, public_view, put_backs, seat_view
from controller.players import judge, riichi_bot
from controller.players.bots import Bot, ClaimIntent
from controller.players.claims import Event, claim_events, declare, move, resolve
from controller.players.resume import resume_events
from controller.players.wall import (
    DEAD_WALL,
    DEAL_SIZE,
    build_wall,
    deal_seat,
    next_dealer,
    next_position,
    turn_order,
    wall_cursor,
)
from controller.scoring import get_ruleset
from controller.tiles import is_bonus

View = Mapping[str, Any]


class DirectorError(RuntimeError):
    """The engine refused an event the director produced, or a session did not finish."""


class Director:
    """Chooses every table event of a session: deal, draws, bots' moves, claims, clearing.

    Deterministic: the same seed and the same sequence of states give the same events. The
    caller applies each event and calls ``next_action`` again with the state that results.
    """

    def __init__(
        self,
        ruleset: str,
        options: Mapping[str, Any] | None = None,
        hands: int = 1,
        seed: int = 0,
        *,
        careful: bool = True,
        clear_table: bool = True,
        bots: Mapping[int, Bot] | None = None,
    ) -> None:
        self.ruleset_name = ruleset
        self.options = dict(options or {})
        self.ruleset = get_ruleset(ruleset, self.options)
        self.hands = hands
        self.seed = seed
        self.clear_table = clear_table
        self.total = 144 if self.ruleset.bonus_tiles else 136
        self.riichi = self.ruleset.name == "riichi"
        # ``bots`` replaces the players of some positions (a different policy, a spy in tests).
        self.bots = {p: Bot(p, self.ruleset, seed, careful) for p in range(1, 5)}
        self.bots.update(bots or {})
        self._queue: list[Event] = []
        self._session_sent = False
        self._cleared = 0  # number of the last hand whose table was cleared
        # Each seat's newest tile from the wall and its source, until that seat discards.
        self._drawn: dict[int, tuple[str, str]] = {}
        self._rngs: dict[int, random.Random] = {}
        self._walls: dict[int, list[str]] = {}
        self._table: tuple[GameState, dict[str, Any]] | None = None  # this step's public view
        self._corrections = 0  # the operator's corrections seen so far
        self._last: tuple[GameState, Event] | None = None  # the newest event and its state
        self._rob_asked: tuple[int, int, str] | None = None  # the added kong last offered

    # --- the one entry point ----------------------------------------------------------------------

    def next_action(self, state: GameState) -> Event | None:
        """The next table event given the controller's current state, or None when done.

        Tiles the controller asks to be put back are put back first. After an operator's
        correction the events already decided are dropped, unless the game is again the one
        they were decided for (an undo and the same event again).
        """
        if state.corrections != self._corrections:
            self._corrections = state.corrections
            if self._last is None or apply(*self._last).state != state:
                self._queue.clear()
        if state.misplaced and self._session_sent:
            # The table went elsewhere than the events decided ahead planned (a move refused,
            # a claim outranked, a tile read late): they are dropped, and the players decide
            # again from the table once the tiles are back. A put-back is decided from this
            # state, so nothing is decided ahead of the state that shows it (``pending``).
            self._queue.clear()
            return self._sent(state, put_backs(state)[0])  # one at a time, as the game says
        if self._queue:
            return self._sent(state, self._queue.pop(0))
        return self._sent(state, self._decide(state))

    def _sent(self, state: GameState, event: Event | None) -> Event | None:
        self._last = None if event is None else (state, event)
        return event

    def _decide(self, state: GameState) -> Event | None:
        view = public_view(state)
        self._table = (state, view)
        if not self._session_sent:
            self._session_sent = True
            # A director that joins a session in progress (a restart) starts none.
            if not (view.get("session") or {}).get("ruleset"):
                return {"session": {"ruleset": self.ruleset_name, "options": dict(self.options)}}
        hand = view.get("hand")
        if hand is None or hand.get("phase") == "over":
            return self._between_hands(state, view, hand)
        # a finished hand taken back (undo): it is to be cleared again when it ends
        self._cleared = min(self._cleared, int(hand["number"]) - 1)
        return self._in_hand(state, hand)

    def _seat(self, state: GameState, position: int) -> View:
        """The seat's own view, reusing this step's public view (built once per state)."""
        if self._table is None or self._table[0] is not state:
            self._table = (state, public_view(state))
        return seat_view(state, position, table=self._table[1])

    def pending(self) -> bool:
        """True while events already decided wait in the queue: the next ``next_action``
        hands one out whatever the state (a put-back due empties the queue first)."""
        return bool(self._queue)

    def _emit(self, events: list[Event]) -> Event | None:
        if not events:
            return None
        self._queue.extend(events[1:])
        return events[0]

    # --- between hands ----------------------------------------------------------------------------

    def _between_hands(self, state: GameState, view: View, hand: View | None) -> Event | None:
        finished = len(view.get("hands") or [])
        if self.riichi and hand is not None and int(hand["number"]) > self._cleared:
            ura = riichi_bot.indicator_event(view, self.wall(int(hand["number"])), self.total)
            if ura is not None:
                return ura
        if hand is not None and int(hand["number"]) > self._cleared:
            self._cleared = int(hand["number"])
            if self.clear_table and (event := self._emit(self._clearing(state))):
                return event
        if finished >= self.hands or (view.get("session") or {}).get("game_over"):
            return None  # the hands asked for are played, or four wind rounds are
        number = (int(hand["number"]) if hand else 0) + 1
        wall = self.wall(number)
        # The engine names the next dealer; the rules give the same answer (RULES.md 2).
        dealer = int((view.get("session") or {}).get("dealer") or next_dealer(hand))
        # The deal needs no decisions: all 53 tiles are queued at once.
        deal = [move(wall[i], "wall", f"rack:{deal_seat(i, dealer)}") for i in range(DEAL_SIZE)]
        self._drawn = {dealer: (wall[DEAL_SIZE - 1], "dealt")}
        return self._emit(deal)

    @staticmethod
    def _clearing(state: GameState) -> list[Event]:
        """Every tile on the table back to the wall, zone by zone, from where it lies (a tile
        may have left its zone already: pushed off the pad as the operator ended the hand)."""
        zones = lying(state)
        order = [z for p in range(1, 5) for z in (f"rack:{p}", f"melds:{p}")]
        return [move(t, zone, "wall") for zone in [*order, "discard", "river", "dora"]
                for t in zones.get(zone, Counter()).elements()]

    def wall(self, number: int) -> list[str]:
        """Hand ``number``'s shuffled wall (made from the seed on first use)."""
        if number not in self._walls:
            self._walls = {number: build_wall(self.seed, number, self.ruleset.bonus_tiles)}
            self._rngs = {number: random.Random(f"order/{self.seed}/{number}")}
        return self._walls[number]

    # --- during a hand ----------------------------------------------------------------------------

    def _in_hand(self, state: GameState, hand: View) -> Event | None:
        wall = self.wall(int(hand["number"]))
        front, back = wall_cursor(hand, self.total)
        dealer = int(hand["dealer"])
        if front < DEAL_SIZE and self._dealing(hand):
            tile, seat = self._next_dealt(state, hand, wall, dealer)
            return self._draw(tile, seat, "dealt" if seat == dealer else "")
        turn = int(hand.get("turn") or dealer)
        if self.riichi and self._table is not None:  # the dora pad: after the deal, each kong
            indicator = riichi_bot.indicator_event(self._table[1], wall, self.total)
            if indicator is not None:
                return indicator
        for p in turn_order(turn):
            if int(hand["seats"][str(p)].get("replacements_due", 0)) > 0:
                robbed = self._robbing(state, p)
                if robbed:
                    return self._emit(robbed)
                # With the live wall used up the engine ends the hand as soon as a replacement
                # becomes due (docs/game.md), so one is always there to draw here.
                return self._draw(wall[self.total - 1 - back], p, "replacement")
        if self._dealing(hand):
            for p in turn_order(dealer):
                if event := self._lay_bonus(self._seat(state, p), p):
                    return event
        if taken := self._taken(state):
            return taken
        half_done = resume_events(hand, lambda p: self._seat(state, p).get("hand", []))
        if half_done:
            return self._emit(half_done)
        if hand.get("discard"):
            return self._claim_window(state, hand)
        if hand.get("step") == "draw":
            return self._draw(wall[front], turn, "wall")
        return self._own_turn(state, turn)

    @staticmethod
    def _next_dealt(
        state: GameState, hand: View, wall: list[str], dealer: int
    ) -> tuple[str, int]:
        """The next tile of the deal and its seat, read from the table rather than counted: an
        undo may land while a dealt tile is on its way, so that tile arrives after the one taken
        back. The tiles out of the wall take the wall's places in order; the first place left is
        the next tile. The seat is the first in the deal order that holds fewer than it should."""
        out = Counter(wall) - lying(state).get("wall", Counter())
        tile = next(t for t in wall if not _take(out, t))
        held = {int(p): int(s["rack_count"]) + len(s.get("bonus", []))
                for p, s in hand["seats"].items()}
        due: Counter[int] = Counter()
        for i in range(DEAL_SIZE):
            seat = deal_seat(i, dealer)
            due[seat] += 1
            if due[seat] > held[seat]:
                return tile, seat
        return tile, deal_seat(DEAL_SIZE - 1, dealer)

    @staticmethod
    def _taken(state: GameState) -> Event | None:
        """A tile taken into a rack for Mahjong whose call is not (or no longer: undone) made:
        the player calls Mahjong, or puts the tile back where it came from if the game would
        refuse the call. The public view does not show this moment; the table sees it."""
        hand = state.hand
        if hand is None or (hand.taken is None and hand.rob_taken is None):
            return None
        taker = hand.taken if hand.taken is not None else hand.rob_taken
        assert taker is not None
        call = declare(taker, "mahjong")
        if apply(state, call).accepted:
            return call
        if hand.taken is not None and hand.discard is not None:
            return move(hand.discard[0], f"rack:{taker}", "discard")
        owner = hand.robbable[1] if hand.robbable is not None else taker
        return move(hand.seat(taker).rack[-1], f"rack:{taker}", f"melds:{owner}")

    @staticmethod
    def _dealing(hand: View) -> bool:
        """True until east's first discard: nothing discarded, claimed or on the pad yet."""
        return not hand.get("discard") and not any(
            s.get("river") or any(not m.get("concealed") for m in s.get("melds", []))
            for s in hand["seats"].values()
        ) and hand.get("phase") == "deal"

    def _draw(self, tile: str, position: int, source: str) -> Event:
        if source:
            self._drawn[position] = (tile, source)
        return move(tile, "wall", f"rack:{position}")

    @staticmethod
    def _lay_bonus(seat: View, position: int) -> Event | None:
        """A bonus tile in the rack goes to the meld strip (its replacement follows)."""
        bonus = sorted(t for t in seat.get("hand", []) if is_bonus(t))
        return move(bonus[0], f"rack:{position}", f"melds:{position}") if bonus else None

    def _own_turn(self, state: GameState, position: int) -> Event | None:
        seat = self._seat(state, position)
        if event := self._lay_bonus(seat, position):
            return event
        drawn, source = self._drawn.get(position, (None, None))
        if drawn not in seat.get("hand", []):  # taken back by an undo, or corrected
            drawn, source = None, None
        action = self.bots[position].on_turn(seat, drawn, source)
        rack, strip = f"rack:{position}", f"melds:{position}"
        if action.kind in ("mahjong", "nine_terminals"):
            return declare(position, action.kind)
        assert action.tile is not None
        if action.kind == "concealed_kong":
            return self._emit([move(action.tile, rack, strip)] * 4)
        if action.kind == "added_kong":
            return move(action.tile, rack, strip)
        self._drawn.pop(position, None)
        if action.kind == "riichi":
            return self._emit([declare(position, "ready"), move(action.tile, rack, "discard")])
        return move(action.tile, rack, "discard")

    # --- claims -----------------------------------------------------------------------------------

    def _claim_window(self, state: GameState, hand: View) -> Event | None:
        tile, discarder = hand["discard"]["tile"], int(hand["discard"]["seat"])
        needs_ready = self.ruleset.requires_ready
        if needs_ready and self.bots[discarder].wants_ready(self._seat(state, discarder)):
            return declare(discarder, "ready")
        intents: dict[int, ClaimIntent] = {}
        views: dict[int, View] = {}
        called = {int(c["seat"]) for c in hand.get("claimants", []) if c.get("call") == "claim"}
        for p in turn_order(discarder)[1:]:
            views[p] = self._seat(state, p)
            may_chow = p == next_position(discarder)
            bot = self.bots[p]
            # A seat whose player has called claim (the seat page) makes its best claim.
            intent = (bot.called_claim if p in called else bot.on_discard)(views[p], tile, may_chow)
            if intent is not None:
                intents[p] = intent
        if self.riichi and self._table is not None and (
                self._table[1].get("riichi") or {}).get("abortive_due"):
            intents = {p: i for p, i in intents.items() if i.kind == "mahjong"}
        if not intents:
            return move(tile, "discard", "river")
        rons = [p for p, i in intents.items() if i.kind == "mahjong"]
        if self.riichi and rons:
            multiple = str(self.ruleset.options.get("multiple_ron", "all"))
            return self._emit(riichi_bot.ron_events(rons, discarder, tile, multiple))

        def value(p: int) -> int:
            rack = list(views[p]["hand"]) + [tile]
            return judge.mahjong_value(self.ruleset, views[p], rack, tile, "discard")

        holds = {p: list(views[p]["hand"]).count(tile) for p in intents}
        winner = resolve(intents, discarder, self.ruleset.mahjong_tie, value, holds)
        rng = self._rngs[int(hand["number"])]
        return self._emit(claim_events(intents, discarder, winner, tile, rng))

    def _robbing(self, state: GameState, konger: int) -> list[Event]:
        """Mahjong by robbing the kong just added, if a bot can and wants to. The kong is
        the one the game has on the strip as robbable (not one the players remember adding:
        that move may have been refused, read late or undone)."""
        hand = state.hand
        if hand is None or hand.robbable is None or hand.robbable[1] != konger:
            return []
        tile = hand.robbable[0]
        if hand.robbers:  # declared already (the events after it dropped): the tile comes
            return [move(tile, f"melds:{konger}", f"rack:{hand.robbers[0]}")]
        if self._rob_asked == (hand.number, konger, tile):
            return []  # the players have been asked about this kong once
        self._rob_asked = (hand.number, konger, tile)
        robbers = {
            p: ClaimIntent("mahjong")
            for p in turn_order(konger)[1:]
            if self.bots[p].rob_kong(self._seat(state, p), tile)
        }
        if not robbers:
            return []
        winner = resolve(robbers, konger, "turn_order")
        return [declare(winner, "mahjong"), move(tile, f"melds:{konger}", f"rack:{winner}")]


def _take(out: Counter[str], tile: str) -> bool:
    """Count one ``tile`` as already out of the wall, if one still is uncounted."""
    if out[tile] > 0:
        out[tile] -= 1
        return True
    return False


# --- in-process sessions --------------------------------------------------------------------------


def run_session(
    ruleset: str,
    options: Mapping[str, Any] | None = None,
    hands: int = 1,
    seed: int = 0,
    *,
    careful: bool = True,
    clear_table: bool = True,
) -> tuple[list[Event], GameState]:
    """Play a session with the engine in process: the events and the final state."""
    director = Director(
        ruleset, options, hands, seed, careful=careful, clear_table=clear_table
    )
    state = new_game()
    events: list[Event] = []
    limit = 2000 * (hands + 1)
    while (event := director.next_action(state)) is not None:
        outcome = apply(state, event)
        if not outcome.accepted:
            raise DirectorError(
                f"the engine refused event {len(events) + 1} {json.dumps(event)}: "
                f"{outcome.violation}"
            )
        state = outcome.state
        events.append(event)
        if len(events) > limit:
            raise DirectorError(f"session did not finish within {limit} events")
    return events, state


def play_session(
    ruleset: str, options: Mapping[str, Any] | None = None, hands: int = 1, seed: int = 0
) -> list[Event]:
    """Play ``hands`` hands with four bots; the table events, session line first."""
    return run_session(ruleset, options, hands, seed)[0]


def write_log(events: Iterable[Mapping[str, Any]], path: str | Path) -> None:
    """Write the events as a FORMATS.md table log (JSON lines) that ``replay`` reads."""
    with Path(path).open("w", encoding="utf-8") as out:
        for event in events:
            out.write(json.dumps(event, separators=(", ", ": ")) + "\n")


__all__ = ["DEAD_WALL", "Director", "DirectorError", "play_session", "run_session", "write_log"]
