"""The independent referee of the exported riichi logs: PyPI ``riichienv`` (a Rust riichi engine
with the mjai protocol, not this project's) replays an mjai export event by event. Before each
action of a seat it asks riichienv for that seat's legal actions and requires the exported one
among them (a discard from the hand, a call the seat may make, a riichi, a win with a yaku and
no furiten). Each win is valued by riichienv's HandEvaluator on the tiles riichienv holds at that
moment; the deltas follow RULES.md 11's payments from that value (not from the exported score);
the counters and the next hand's start scores are carried along from the log itself.

Where the EMA's rules (RULES.md 11) and riichienv's (Tenhou's) differ, the referee takes the
EMA's: 13 han or more without a yakuman is a sanbaiman (kazoe option's default)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from riichienv import Conditions, HandEvaluator, RiichiEnv, calculate_score

ACTIONS = frozenset({"dahai", "chi", "pon", "daiminkan", "kakan", "ankan", "reach", "hora"})
WINDS = {"E": 0, "S": 1, "W": 2, "N": 3}
LIVE_DRAWS = 70  # RULES.md 11: the live wall's draws, kong replacements included


class Refused(AssertionError):
    """riichienv does not accept the log: the event's number, the event, why."""


@dataclass
class Hand:
    """What the referee tracks of the hand in play, from the log's own events."""

    start: dict[str, Any]
    reach: set[int] = field(default_factory=set)
    ippatsu: set[int] = field(default_factory=set)
    double: set[int] = field(default_factory=set)
    discarded: set[int] = field(default_factory=set)
    called: bool = False
    draws: int = 0
    kongs: int = 0
    after_kong: int | None = None
    kakan: int | None = None
    last_dahai: tuple[int, str] | None = None  # a kakan's tile too (chankan)
    deltas: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    declared: int | None = None
    accepted: set[int] = field(default_factory=set)
    winners: list[int] = field(default_factory=list)


class Referee:
    """Feed it the export's events in order (``feed``); ``hands`` counts the hands checked."""

    def __init__(self) -> None:
        self.env = RiichiEnv(game_mode="4p-red-half")
        self.hand: Hand | None = None
        self.scores: list[int] | None = None
        self.sticks = 0
        self.honba = 0
        self.hands = 0
        self.wins = 0
        self.checked = 0
        self.upcoming: list[int] = []

    def feed(self, n: int, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "hora" and self.hand is not None and self.hand.winners:
            pass  # a second ron on the same discard: checked with the first (referee())
        elif kind in ACTIONS:
            self._legal(n, event)
        if kind == "start_kyoku":
            self._start(n, event)
        elif kind == "hora":
            self._hora(n, event)
        try:
            self.env.apply_event(event)
        except Exception as exc:  # riichienv refuses the event outright
            raise Refused(f"event {n} {event}: riichienv: {exc}") from exc
        self._track(event)
        if kind == "ryukyoku":
            self._ryukyoku(n, event)
        elif kind == "end_kyoku":
            self._end(n)

    def _legal(self, n: int, event: dict[str, Any]) -> None:
        h = self.hand
        if event["type"] == "hora" and h is not None and event["actor"] == event["target"] == (
                h.after_kong):
            # riichienv's event replay does not mark a kong's replacement draw (its
            # is_rinshan_flag stays false), so it offers no win there: the win is checked by
            # its HandEvaluator with rinshan set instead (_hora: no yaku, no win)
            return
        obs = self.env.get_observation(event["actor"])
        action = obs.select_action_from_mjai(event) if obs is not None else None
        if action is None:
            legal = [a.to_mjai() for a in obs.legal_actions()] if obs is not None else []
            raise Refused(f"event {n} {event} is not legal in riichienv; legal: {legal}")
        self.checked += 1

    def _start(self, n: int, event: dict[str, Any]) -> None:
        if self.scores is not None:
            expected = (self.scores, self.honba, self.sticks)
            got = (list(event["scores"]), event["honba"], event["kyotaku"])
            if got != expected:
                raise Refused(f"event {n}: start_kyoku {got} but the log so far gives {expected}")
        self.scores = list(event["scores"])
        self.sticks = event["kyotaku"]
        self.honba = event["honba"]
        self.hand = Hand(event)

    def _track(self, event: dict[str, Any]) -> None:
        h, kind = self.hand, event["type"]
        if h is None:
            return
        actor = event.get("actor")
        if kind == "tsumo":
            h.draws += 1
        elif kind == "dahai":
            h.ippatsu.discard(actor)
            if h.declared == actor:  # the riichi discard: ippatsu until the seat's next one
                h.ippatsu.add(actor)
                if actor not in h.discarded and not h.called:
                    h.double.add(actor)
                h.declared = None
            h.discarded.add(actor)
            h.last_dahai = (actor, event["pai"])
            h.after_kong, h.kakan = None, None
        elif kind == "reach":
            h.reach.add(actor)
            h.declared = actor
        elif kind == "reach_accepted":
            assert self.scores is not None
            self.scores[actor] -= 1000
            self.sticks += 1
            h.accepted.add(actor)
        elif kind in ("chi", "pon", "daiminkan", "ankan", "kakan"):
            h.called = True
            h.ippatsu.clear()
            if kind in ("daiminkan", "ankan", "kakan"):
                h.kongs += 1
                h.after_kong = actor
            h.kakan = actor if kind == "kakan" else None
            if kind == "kakan":
                h.last_dahai = (actor, event["pai"])

    def _hora(self, n: int, event: dict[str, Any]) -> None:
        """Value the win with riichienv's evaluator and pay it as RULES.md 11 says."""
        h = self.hand
        assert h is not None and h.last_dahai is not None or event["actor"] == event["target"]
        assert h is not None
        actor, target = event["actor"], event["target"]
        tsumo = actor == target
        tiles = list(self.env.hands[actor])
        if tsumo:
            win = self.env.drawn_tile if self.env.drawn_tile is not None else tiles[-1]
        else:
            assert h.last_dahai is not None
            win = _tile_id(h.last_dahai[1], tiles)
            tiles.append(win)
        oya = h.start["oya"]
        rinshan = tsumo and h.after_kong == actor
        cond = Conditions(
            tsumo=tsumo, riichi=actor in h.reach and actor not in h.double,
            double_riichi=actor in h.double, ippatsu=actor in h.ippatsu,
            haitei=tsumo and h.draws >= LIVE_DRAWS and not rinshan,
            houtei=not tsumo and h.kakan is None and h.draws >= LIVE_DRAWS,
            rinshan=rinshan, chankan=h.kakan is not None and not tsumo,
            tsumo_first_turn=tsumo and actor not in h.discarded and not h.called,
            player_wind=(actor - oya) % 4, round_wind=WINDS[h.start["bakaze"]],
            honba=self.honba, riichi_sticks=self.sticks)
        ura = [_tile_id(t) for t in event.get("ura_markers") or []] if (
            actor in h.reach) else []
        result = HandEvaluator(tiles, list(self.env.melds[actor])).calc(
            win, dora_indicators=list(self.env.dora_indicators), ura_indicators=ura,
            conditions=cond)
        if not result.is_win:
            raise Refused(f"event {n} {event}: riichienv values no win for these tiles")
        deltas = self._pay(result, actor, target, oya, tsumo)
        if list(event["deltas"]) != deltas:
            raise Refused(f"event {n}: hora deltas {event['deltas']} but riichienv's value "
                          f"({result.han} han {result.fu} fu, yaku {result.yaku}) pays {deltas}")
        h.deltas = [a + b for a, b in zip(h.deltas, deltas, strict=True)]
        h.winners.append(actor)
        self.wins += 1

    def _pay(self, result: Any, actor: int, target: int, oya: int, tsumo: bool) -> list[int]:
        """RULES.md 11's payments of the value, honba to each winner; the deposits: each winner
        whose riichi stood takes its own stick back, the rest go to the first winner."""
        h = self.hand
        assert h is not None
        han = result.han if result.yakuman or result.han < 13 else 12  # EMA kazoe: sanbaiman
        score = calculate_score(han, result.fu, actor == oya, tsumo, 0)
        honba = self.honba
        deltas = [0, 0, 0, 0]
        if not tsumo:
            deltas[target] -= score.pay_ron + 300 * honba
            deltas[actor] += score.pay_ron + 300 * honba
        else:
            for p in range(4):
                if p != actor:
                    pay = (score.pay_tsumo_oya if p == oya else score.pay_tsumo_ko) + 100 * honba
                    deltas[p] -= pay
                    deltas[actor] += pay
        others_own = [w for w in self.upcoming[1:] if w in h.accepted]
        if not h.winners:  # the first winner
            deltas[actor] += 1000 * (self.sticks - len(others_own))
        elif actor in h.accepted:
            deltas[actor] += 1000
        return deltas

    def _ryukyoku(self, n: int, event: dict[str, Any]) -> None:
        """An exhaustive draw: 3,000 from the seats riichienv reads noten to those it reads
        tenpai (RULES.md 11)."""
        h = self.hand
        assert h is not None
        h.deltas = [a + b for a, b in zip(h.deltas, event["deltas"], strict=True)]
        tenpai = [HandEvaluator(list(self.env.hands[p]), list(self.env.melds[p])).is_tenpai()
                  for p in range(4)]
        t = sum(tenpai)
        expected = [0, 0, 0, 0] if t in (0, 4) else [
            3000 // t if tenpai[p] else -3000 // (4 - t) for p in range(4)]
        if list(event["deltas"]) != expected:
            raise Refused(f"event {n}: ryukyoku deltas {event['deltas']} but riichienv reads "
                          f"tenpai {tenpai}: {expected}")

    def _end(self, n: int) -> None:
        h = self.hand
        assert h is not None and self.scores is not None
        self.scores = [s + d for s, d in zip(self.scores, h.deltas, strict=True)]
        if h.winners:
            self.sticks = 0
            self.honba = self.honba + 1 if h.start["oya"] in h.winners else 0
        else:
            self.honba += 1
        self.hands += 1
        self.hand = None


KINDS = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + list("ESWNPFC")
RED = (16, 52, 88)  # riichienv's ids of the red fives, which the table does not have


def _tile_id(pai: str, hand: list[int] | tuple[()] = ()) -> int:
    """A 136-id for a tile of kind ``pai`` (never a red five) not in the hand already."""
    kind = KINDS.index(pai)
    ids = [i for i in range(kind * 4, kind * 4 + 4) if i not in RED]
    return next((i for i in ids if i not in hand), ids[0])


def referee(lines: list[dict[str, Any]]) -> Referee:
    """Replay a whole mjai export through riichienv; Refused names the first problem."""
    ref = Referee()
    for n, event in enumerate(lines, start=1):
        if event["type"] == "hora" and ref.hand is not None and not ref.hand.winners:
            ref.upcoming = _consecutive(lines, n - 1)
            for i in range(1, len(ref.upcoming)):  # every ron on the discard, before any is
                ref._legal(n + i, lines[n - 1 + i])  # applied (riichienv ends the hand then)
        ref.feed(n, event)
    return ref


def _consecutive(lines: list[dict[str, Any]], i: int) -> list[int]:
    out = []
    while i < len(lines) and lines[i]["type"] == "hora":
        out.append(lines[i]["actor"])
        i += 1
    return out
