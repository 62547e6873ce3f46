"""The players under the operator's corrections and the seat pages' calls, in process: an undo
anywhere, a washout taken back while the table is being cleared, a reassigned tile, a claim
called for a seat. After each, every event the players make is accepted and play goes on."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.game import GameState, apply, lying, new_game, replay
from controller.game.state import CODE_INDEX
from controller.players.director import Director
from controller.tiles import KINDS, tile_set

Event = dict[str, Any]


class Table:
    """The engine and a director; every event (the players' and the operator's) is logged."""

    def __init__(self, ruleset: str = "hua-bao", hands: int = 2, seed: int = 1) -> None:
        self.director = Director(ruleset, {}, hands, seed, careful=False)
        self.state = new_game()
        self.log: list[Event] = []

    def apply(self, event: Event) -> bool:
        out = apply(self.state, event)
        self.state = out.state
        self.log.append(event)
        return out.accepted

    def play(self, until: Callable[[GameState], bool] | None = None, limit: int = 5000) -> int:
        """Let the players play; every event of theirs must be accepted. Returns their count."""
        for n in range(limit):
            if until is not None and until(self.state):
                return n
            event = self.director.next_action(self.state)
            if event is None:
                return n
            assert self.apply(event), (event, self.state.last_violation)
        raise AssertionError("the players did not get there")


def in_play(state: GameState) -> bool:
    return state.hand is not None and state.hand.phase == "play"


def conserved(state: GameState) -> bool:
    bonus = bool(state.ruleset.bonus_tiles)
    total: Counter[str] = Counter()
    for counts in lying(state).values():
        total.update(counts)
    return total == Counter(tile_set(bonus))


def finished(table: Table, hands: int) -> None:
    """The session ends with every hand played, nothing out of place, the log replaying."""
    table.play()
    assert len(table.state.hands) == hands and table.state.misplaced == ()
    assert all(sum(h.net) == 0 for h in table.state.hands)
    assert replay(table.log)[0] == table.state


def test_a_washout_taken_back_while_the_table_is_cleared() -> None:
    table = Table()
    table.play(lambda s: in_play(s) and s.hand is not None and s.hand.discards_total >= 6)
    assert table.apply({"correct": {"end_hand": "washout"}})
    for _ in range(12):  # the players start clearing the table
        event = table.director.next_action(table.state)
        assert event is not None and event["move"]["to"] == "wall"
        assert table.apply(event)
    assert table.apply({"correct": {"undo": 1}})
    assert table.state.hand is not None and table.state.hand.phase == "play"
    assert len(table.state.misplaced) == 12 and conserved(table.state)
    put_back = table.play(lambda s: not s.misplaced)
    assert put_back == 12 and list(table.state.violations) == []
    assert conserved(table.state)
    finished(table, 2)
    assert list(table.state.violations) == []


@settings(max_examples=12, deadline=None)
@given(cut=st.integers(5, 260), count=st.integers(1, 4), seed=st.integers(0, 50),
       ruleset=st.sampled_from(["hua-bao", "swedish", "dmjl"]))
def test_an_undo_anywhere_and_play_goes_on(cut: int, count: int, seed: int,
                                           ruleset: str) -> None:
    """Also a Mahjong call taken back after the discard went into the rack: the player calls
    again (or puts the tile back)."""
    table = Table(ruleset, hands=1, seed=seed)
    table.play(lambda s: len(table.log) >= cut or len(s.hands) == 1)
    if table.state.depth <= count:
        return
    assert table.apply({"correct": {"undo": count}})
    finished(table, 1)
    assert list(table.state.violations) == []


def test_a_reassigned_tile_and_play_goes_on() -> None:
    table = Table()
    table.play(lambda s: in_play(s) and s.hand is not None and s.hand.discards_total >= 4)
    hand = table.state.hand
    assert hand is not None
    seat = hand.seat(hand.turn)
    old = seat.rack[0]
    new = next(t for t in KINDS if hand.out[CODE_INDEX[t]] < 4 and t != old)  # a copy left
    zone = f"rack:{seat.position}"
    assert table.apply({"correct": {"reassign": {"zone": zone, "tile": old, "as": new}}})
    assert new in table.state.hand.seat(seat.position).rack  # type: ignore[union-attr]
    finished(table, 2)
    assert list(table.state.violations) == []


def test_a_claim_called_on_the_seat_page_is_made_by_the_seat() -> None:
    """A seat that could claim but whose player (the bot) would not: its person presses Claim;
    the seat's tiles and the discard go to its strip."""
    table = Table(hands=3, seed=2)
    called = None
    while called is None:
        table.play(lambda s: s.hand is not None and s.hand.phase == "play"
                   and s.hand.discard is not None and s.hand.claim is None)
        hand = table.state.hand
        assert hand is not None and hand.discard is not None, "no claimable discard found"
        for p in (1, 2, 3, 4):
            declare = {"declare": {"seat": p, "call": "claim"}}
            if p != hand.discard[1] and apply(table.state, declare).accepted:
                called = p
                break
        else:
            event = table.director.next_action(table.state)
            assert event is not None and table.apply(event)
    melds = len(hand.seat(called).melds)
    assert table.apply({"declare": {"seat": called, "call": "claim"}})
    table.play(lambda s: s.hand is not None and s.hand.discard is None)
    assert table.state.hand is not None
    assert len(table.state.hand.seat(called).melds) == melds + 1
    finished(table, 3)
    assert list(table.state.violations) == []


def test_a_mahjong_call_taken_back_after_the_take_is_made_again() -> None:
    table = Table(hands=1, seed=2)
    table.play(lambda s: s.hand is not None and s.hand.taken is not None)
    taker = table.state.hand.taken  # type: ignore[union-attr]
    event = table.director.next_action(table.state)
    assert event == {"declare": {"seat": taker, "call": "mahjong"}} and table.apply(event)
    assert table.apply({"correct": {"undo": 1}})
    assert table.director.next_action(table.state) == event  # called again
    finished(table, 1)


@settings(max_examples=10, deadline=None)
@given(dealt=st.integers(2, 52), seed=st.integers(0, 50),
       ruleset=st.sampled_from(["hua-bao", "swedish", "dmjl"]))
def test_an_undo_during_the_deal_while_a_tile_is_on_its_way(dealt: int, seed: int,
                                                            ruleset: str) -> None:
    """The operator's undo lands between the players' choice of the next dealt tile and its
    arrival (the in-process simulation's events queue behind the operator's): that tile arrives
    after the undo. The players put back the tile taken back, deal on from the seats' counts
    and play goes on; tiles conserved, the log replaying."""
    table = Table(ruleset, hands=1, seed=seed)
    table.play(lambda s: s.hand is not None and s.hand.drawn >= dealt)
    on_its_way = table.director.next_action(table.state)
    assert on_its_way is not None and on_its_way["move"]["from"] == "wall"
    assert table.apply({"correct": {"undo": 1}})
    assert table.state.hand is not None and table.state.hand.phase == "deal"
    assert table.apply(on_its_way)
    table.play(lambda s: not s.misplaced)
    assert conserved(table.state)
    finished(table, 1)
    assert list(table.state.violations) == []
