"""Whole riichi hanchans of bots through the engine (RULES.md 11, FORMATS.md replay), checked
against the rule book and an independent reference: PyPI ``mahjong`` says whether each win
has a yaku and what each seat waits on (its Agari), the event log says what each seat
discarded and let pass (furiten); the points are summed from the hand records."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mahjong.agari import Agari
from riichi_oracle import code, estimate

from controller.game import apply, new_game
from controller.game.engine import replay
from controller.game.state import GameState
from controller.game.views import replay_summary
from controller.game.zones import zone_counts
from controller.players.director import Director
from controller.tiles import KINDS

START = 30_000
_AGARI = Agari()


def ref_waits(concealed: list[str], melded: list[str]) -> set[str]:
    """The kinds that complete the concealed tiles (the sets on the table apart), by mahjong's
    Agari; a kind the hand holds all four of does not count (RULES.md 11)."""
    counts = [0] * 34
    for t in concealed:
        counts[code(t)] += 1
    held = list(counts)
    for t in melded:
        held[code(t)] += 1
    out = set()
    for k in range(34):
        if held[k] >= 4:
            continue
        counts[k] += 1
        if _AGARI.is_agari(counts):
            out.add(KINDS_BY_CODE[k])
        counts[k] -= 1
    return out


KINDS_BY_CODE = {code(t): t for t in KINDS}


def seat_waits(state: GameState, pos: int) -> set[str]:
    """A seat's waits (empty unless it holds 13 tiles, sets counted as three)."""
    assert state.hand is not None
    seat = state.hand.seat(pos)
    if len(seat.rack) + 3 * len(seat.melds) != 13:
        return set()
    return ref_waits(list(seat.rack), [t for m in seat.melds for t in m.tiles])


class Watch:
    """What the log shows of one hand: own discards, riichi, tiles let pass."""

    def __init__(self) -> None:
        self.discards: dict[int, list[str]] = {p: [] for p in (1, 2, 3, 4)}
        self.riichi: set[int] = set()
        self.ready: set[int] = set()
        self.temp: set[int] = set()
        self.perm: set[int] = set()
        self.live: tuple[str, int] | None = None

    def before(self, state: GameState, event: dict[str, Any]) -> None:
        """A discard that goes by: whoever waits on it and does not win has let it pass."""
        if self.live is None or state.hand is None or state.hand.phase == "over":
            return
        move = event.get("move") or {}
        decl = event.get("declare") or {}
        frm, to = str(move.get("from")), str(move.get("to"))
        goes_by = (frm == "discard" and not to.startswith("rack")) or (
            frm == "wall" and to.startswith("rack"))
        if decl.get("call") == "mahjong" or not goes_by:
            return
        tile, discarder = self.live
        for q in (1, 2, 3, 4):
            if q != discarder and tile in seat_waits(state, q):
                self.temp.add(q)
                if q in self.riichi:
                    self.perm.add(q)
        self.live = None

    def after(self, state: GameState, event: dict[str, Any]) -> None:
        move = event.get("move") or {}
        decl = event.get("declare") or {}
        src, dst = str(move.get("from")), str(move.get("to"))
        if decl.get("call") == "ready":
            self.ready.add(int(decl["seat"]))
        if dst == "discard" and src.startswith("rack:"):
            pos = int(src[5:])
            self.discards[pos].append(move["tile"])
            self.live = (move["tile"], pos)
            if pos in self.ready:
                self.riichi.add(pos)
        if dst.startswith("rack:") and src == "wall":
            self.temp.discard(int(dst[5:]))
        if dst.startswith("melds:") and src == "discard":
            self.temp.discard(int(dst[6:]))


def check_win(before: GameState, after: GameState, watch: Watch) -> None:
    """Every win has a yaku (mahjong's calculator) and no ron is furiten (the log's discards
    and passes, waits by mahjong's Agari)."""
    assert after.hand is not None and after.hand.rh is not None
    for pos, inp in after.hand.rh.wins:
        answer = estimate(inp)
        assert answer.error is None, (pos, inp, answer.error)
        assert ("riichi" in inp.flags or "double_riichi" in inp.flags) == (pos in watch.riichi)
        if inp.win_source != "discard":
            continue
        thirteen = list(inp.hand)
        thirteen.remove(inp.winning_tile)
        waits = ref_waits(thirteen, [t for m in inp.melds for t in m.tiles])
        assert inp.winning_tile in waits
        assert not waits & set(watch.discards[pos]), ("furiten: own discards", pos)
        assert pos not in watch.temp and pos not in watch.perm, ("furiten: passed", pos)


def conserved(state: GameState) -> None:
    if state.hand is None:
        return
    total: Counter[str] = Counter()
    for counts in zone_counts(state.hand, False).values():
        total.update(counts)
    assert total == Counter({t: 4 for t in KINDS})


def play(seed: int, options: dict[str, Any]) -> tuple[list[dict[str, Any]], GameState]:
    """One hanchan, every event checked as it is applied."""
    director = Director("riichi", options, hands=10**6, seed=seed, careful=False)
    state, events, watch = new_game(), [], Watch()
    while (event := director.next_action(state)) is not None:
        if state.hand is not None and state.hand.phase == "over" and event.get("move", {}).get(
                "from") == "wall" and event["move"]["to"].startswith("rack"):
            watch = Watch()  # the next hand begins
        watch.before(state, event)
        outcome = apply(state, event)
        assert outcome.accepted, (len(events), event, outcome.violation)
        old, state = state, outcome.state
        events.append(event)
        watch.after(state, event)
        conserved(state)
        ended = state.hand is not None and state.hand.phase == "over" and (
            old.hand is not None and old.hand.phase != "over")
        if ended and state.hand.result.result == "mahjong":  # type: ignore[union-attr]
            check_win(old, state, watch)
        assert len(events) < 40_000
    return events, state


def check_points(state: GameState) -> None:
    """Each hand's nets and the deposits it took from or left on the table sum to zero;
    the points start at 30,000 and are the running sum of the nets; the final adds the
    deposits left to first place and the uma (RULES.md 11)."""
    hands = [h for h in replay_summary(state)["hands"]]
    running = {str(p): START for p in (1, 2, 3, 4)}
    for i, h in enumerate(hands):
        after = hands[i + 1]["riichi_sticks"] if i + 1 < len(hands) else \
            state.rt.final["deposits"] // 1000
        assert sum(h["net"].values()) + 1000 * (after - h["riichi_sticks"]) == 0, h
        for p in running:
            running[p] += h["net"][p]
        assert h["points"] == running
    final = state.rt.final
    assert sum(final["points"].values()) == 4 * START
    assert sorted(final["uma"].values()) == [-15, -5, 5, 15] or len(set(
        final["points"].values())) < 4
    for p, pts in final["points"].items():
        assert final["result"][p] == pytest.approx((pts - START) / 1000 + final["uma"][p])


def check_rounds(state: GameState) -> None:
    """Dealer repeats and honba (RULES.md 11): the hanchan ends after south's fourth dealer."""
    hands = replay_summary(state)["hands"]
    assert hands[0]["prevailing_wind"] == "east" and hands[-1]["prevailing_wind"] == "south"
    for a, b in zip(hands, hands[1:], strict=False):
        stays = a["dealer"] in a["winners"] or (a["result"] == "washout" and
                                                 a["dealer"] in a["tenpai"]) or (
            a.get("abortive") is not None)  # an abortive draw: the dealer repeats (docs/game.md)
        assert (b["dealer"] == a["dealer"]) == stays
        won_off = a["result"] == "mahjong" and a["dealer"] not in a["winners"]
        assert b["honba"] == (0 if won_off else a["honba"] + 1)
    assert state.game_over


@settings(max_examples=3, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000),
       options=st.sampled_from([{}, {"multiple_ron": "head_bump"}, {"kuikae_allowed": True},
                                {"nagashi_mangan": True}]))
def test_whole_hanchans_of_bots(seed: int, options: dict[str, Any]) -> None:
    events, live = play(seed, options)
    check_points(live)
    check_rounds(live)
    again, _ = replay(events)
    assert again == live
    assert replay_summary(again) == replay_summary(live)


def test_a_hanchan_with_abortive_draws() -> None:
    """``abortive_draws: true``: the bots declare nine terminals when they may (seed 4 deals
    two such hands); the same checks, and replay equals live."""
    events, live = play(4, {"abortive_draws": True})
    hands = replay_summary(live)["hands"]
    aborted = [h for h in hands if h.get("abortive")]
    assert [h["abortive"] for h in aborted] == ["nine_terminals", "nine_terminals"]
    for h in aborted:  # no payment but the riichi deposits of the hand
        assert sum(h["net"].values()) == -1000 * len(h["riichi"]) and h["tenpai"] == []
    check_points(live)
    check_rounds(live)
    again, _ = replay(events)
    assert again == live and replay_summary(again) == replay_summary(live)
