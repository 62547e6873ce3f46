"""Invariants over random legal sessions: tiles conserved, no false violations, nets sum to
zero, undo after any prefix, a public view that does not depend on the concealed tiles."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.game import GameState, apply, new_game, public_view, replay
from controller.game.state import evolve
from controller.game.zones import zone_counts
from controller.tiles import tile_set
from tests.game.randomgame import random_session

RULESETS = st.sampled_from(["hua-bao", "dmjl", "swedish", "bmja"])
SEEDS = st.integers(0, 2**32 - 1)


def _conserved(state: GameState) -> bool:
    hand = state.hand
    if hand is None:
        return True
    bonus = bool(state.ruleset.bonus_tiles)
    total: Counter[str] = Counter()
    for counts in zone_counts(hand, bonus).values():
        total.update(counts)
    return total == Counter(tile_set(bonus))


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, ruleset=st.sampled_from(["hua-bao", "dmjl", "bmja"]))
def test_legal_play_is_accepted_and_conserves_every_tile(seed: int, ruleset: str) -> None:
    state = new_game()
    for event in random_session(seed, 2, ruleset):
        out = apply(state, event)
        assert out.accepted and out.violation is None, (event, out.violation)
        state = out.state
        assert _conserved(state)
    assert len(state.hands) == 2
    for record in state.hands:
        assert sum(record.net) == 0
        assert record.result in ("mahjong", "washout")
    assert sum(state.totals) == 0


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, cut=st.integers(1, 250), k=st.integers(1, 12))
def test_undo_after_any_prefix_restores_the_state(seed: int, cut: int, k: int) -> None:
    events = random_session(seed, 2)
    before, _ = replay(events[:cut])
    after, _ = replay(events[: cut + k])
    taken = after.depth - before.depth
    if taken == 0:
        return
    undone = apply(after, {"correct": {"undo": taken}})
    assert undone.accepted
    assert undone.state == before
    assert _conserved(undone.state)


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, cut=st.integers(60, 300), filler=st.sampled_from(["1b", "wd", "9c"]))
def test_public_view_does_not_depend_on_concealed_tiles(seed: int, cut: int, filler: str) -> None:
    state, _ = replay(random_session(seed, 1)[:cut])
    hand = state.hand
    if hand is None or hand.phase == "over":
        return
    seats = tuple(evolve(s, rack=(filler,) * len(s.rack)) for s in hand.seats)
    masked = evolve(state, hand=evolve(hand, seats=seats))
    assert public_view(masked) == public_view(state)


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, ruleset=RULESETS)
def test_summaries_balance(seed: int, ruleset: str) -> None:
    from controller.game import replay_summary

    state, _ = replay(random_session(seed, 1, ruleset))
    summary = replay_summary(state)
    for hand in summary["hands"]:
        assert sum(hand["net"].values()) == 0
    assert summary["state"]["hand_over"] is True
