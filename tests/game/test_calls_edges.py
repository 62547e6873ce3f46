"""Claims, ready calls and Mahjong takes at their edges, word for word (calls.py, melds.py;
issue 29: game-play-calls' survivors).

What each test expects comes from RULES.md section 4 (who may claim what, precedence, a
pair only for Mahjong, a chow only from the player before, no kong onto an exposed pung,
a kong's replacement), section 3 (a dead discard: the next player has drawn) and FORMATS.md
(a violation's rule and seat; the table log's order for a Mahjong take; `ready` needs 13
tiles that wait). A refusal's message is what the table shows the players, so it is compared
whole. The seats: position 1 is east in the first hand, 2 south, 3 west, 4 north.
"""

from __future__ import annotations

from typing import Any

from controller.game import GameState, apply, public_view, replay
from tests.game.logbuilder import Log
from tests.game.scenarios import JUNK

#: JUNK with two 9d for west: west may pung east's 9d; south (2c3c4c 5c6c7c 2d3d4d 5d6d7d
#: 9d) waits on the 9d for the pair, so south may go Mahjong on it. 9d: east 1, south 1,
#: west 2.
CLAIM = {**JUNK, 3: "9d 9d 8b 8c 8d ew sw ww nw rd gd wd wd"}

#: CLAIM with one tile (wd) short for west: at east's first discard west holds 12 tiles and
#: its hand is dead (RULES.md 4, with ``wrong_count = dead_hand``).
SHORT = {**CLAIM, 3: "9d 9d 8b 8c 8d ew sw ww nw rd gd wd"}


def _fold(events: list[dict[str, Any]]) -> GameState:
    state, outs = replay(events)
    refused = [o.violation for o in outs if not o.accepted]
    assert refused == [], refused
    return state


def _move(tile: str, src: str, dst: str) -> dict[str, Any]:
    return {"move": {"tile": tile, "from": src, "to": dst}}


def _declare(seat: int, call: str) -> dict[str, Any]:
    return {"declare": {"seat": seat, "call": call}}


def _words(state: GameState, event: dict[str, Any]) -> tuple[str, int | None, str]:
    out = apply(state, event)
    assert not out.accepted and out.violation is not None, out.announcements
    return out.violation.rule, out.violation.seat, out.violation.message


def _hand(state: GameState) -> dict[str, Any]:
    view: dict[str, Any] = public_view(state)["hand"]
    return view


def _discarded(deal: dict[int, str], tile: str = "9d", log: Log | None = None) -> Log:
    log = log or Log()
    log.deal(deal)
    log.discard(1, tile)
    return log


# --- a discard taken for Mahjong ------------------------------------------------------------

def test_after_the_discard_is_taken_for_mahjong_only_the_declaration_or_the_put_back() -> None:
    """FORMATS.md: Mahjong on a discard is the declaration and the discard moving into the
    winner's rack, in either order, "before anything else happens". South takes east's 9d
    first: another seat's claim or Mahjong is too late, and any other move is refused in
    south's name (the seat that must act), even a move of north's; putting the 9d back on the
    pad restores the hand as it was before the take."""
    log = _discarded(CLAIM)
    before = _fold(log.events)
    taken = _fold([*log.events, _move("9d", "discard", "rack:2")])
    assert _hand(taken)["discard"] is None
    assert _words(taken, _declare(3, "claim")) == (
        "claim_too_late", 3, "South took the discard for Mahjong")
    assert _words(taken, _declare(4, "mahjong")) == (
        "claim_too_late", 4, "South took the discard first")
    not_declared = "South took a tile for Mahjong: declare mahjong, or put the tile back"
    assert _words(taken, _move("9d", "rack:2", "melds:2")) == (
        "mahjong_not_declared", 2, not_declared)
    assert _words(taken, _move("2c", "rack:2", "discard")) == (
        "mahjong_not_declared", 2, not_declared)
    assert _words(taken, _move("9d", "rack:3", "discard")) == (
        "mahjong_not_declared", 2, not_declared)
    assert _words(taken, _move("2b", "rack:4", "melds:4")) == (
        "mahjong_not_declared", 2, not_declared)
    back = apply(taken, _move("9d", "rack:2", "discard"))
    assert back.accepted and back.announcements == ()
    assert back.state.hand == before.hand
    assert _hand(back.state)["discard"] == {"tile": "9d", "seat": 1}
    # and the put-back left the claim window open: west may pung the 9d now
    claimed = _fold([*log.events, _move("9d", "discard", "rack:2"),
                     _move("9d", "rack:2", "discard"), _move("9d", "discard", "melds:3"),
                     _move("9d", "rack:3", "melds:3"), _move("9d", "rack:3", "melds:3")])
    assert _hand(claimed)["seats"]["3"]["melds"] == [
        {"tiles": ["9d", "9d", "9d"], "kind": "pung", "concealed": False}]


# --- claims on a dead discard, the own discard, nothing ------------------------------------

def test_a_claim_on_a_discard_gone_to_the_river_is_too_late() -> None:
    """RULES.md 3.4: a discard nobody claims is dead for the rest of the hand. East's rd went
    to the river: west's claim (a declaration or a tile laid out) is too late and says so;
    east, whose discard it was, has no discard to claim; east's tile laid out off its turn is
    out of turn."""
    log = Log()
    log.deal(CLAIM)
    log.discard(1, "rd").river("rd")
    state = _fold(log.events)
    gone = "West may not claim the rd: it has gone to the river"
    assert _words(state, _declare(3, "claim")) == ("claim_too_late", 3, gone)
    assert _words(state, _move("8c", "rack:3", "melds:3")) == ("claim_too_late", 3, gone)
    assert _words(state, _declare(1, "claim")) == (
        "nothing_to_claim", 1, "there is no discard for East to claim")
    assert _words(state, _move("1b", "rack:1", "melds:1")) == (
        "meld_out_of_turn", 1, "East may lay tiles out only on the own turn or to claim a discard")


def test_a_claim_after_the_next_player_drew_is_too_late() -> None:
    """FORMATS.md: `claim_too_late` is "the next player had already drawn". South draws
    while east's rd is still on the pad; west then claims it, by declaration, by a rack tile
    laid out or by the rd itself, and is told south has drawn."""
    log = Log()
    log.deal(CLAIM)
    log.discard(1, "rd")
    log.draw(2, "1b")
    state = _fold(log.events)
    drawn = "West may not claim the rd: South has already drawn"
    assert _words(state, _declare(3, "claim")) == ("claim_too_late", 3, drawn)
    assert _words(state, _move("8c", "rack:3", "melds:3")) == ("claim_too_late", 3, drawn)
    assert _words(state, _move("rd", "discard", "melds:3")) == ("claim_too_late", 3, drawn)


def test_no_claim_during_the_deal_and_no_meld_off_the_own_turn() -> None:
    """RULES.md 3.2-3.3: the deal ends with east's first discard; before it there is no
    discard to claim, and only east (on its turn) may lay tiles out."""
    log = Log()
    log.deal(CLAIM)
    state = _fold(log.events)
    assert _words(state, _declare(3, "claim")) == (
        "nothing_to_claim", 3, "there is no discard for West to claim")
    assert _words(state, _move("8c", "rack:3", "melds:3")) == (
        "meld_out_of_turn", 3, "West may lay tiles out only on the own turn or to claim a discard")


def test_the_discarder_may_not_claim_or_take_back_the_own_discard() -> None:
    log = _discarded(CLAIM, "rd")
    state = _fold(log.events)
    assert _words(state, _declare(1, "claim")) == (
        "nothing_to_claim", 1, "East may not claim the own discard")
    back = "East may not take back the own discard"
    assert _words(state, _move("rd", "discard", "rack:1")) == ("discard_taken_back", 1, back)
    assert _words(state, _move("rd", "discard", "melds:1")) == ("discard_taken_back", 1, back)


def test_a_claim_with_nothing_the_discard_completes_is_refused() -> None:
    """West holds one rd: no pair to pung it with, no chow of an honour, no Mahjong."""
    state = _fold(_discarded(CLAIM, "rd").events)
    assert _words(state, _declare(3, "claim")) == (
        "invalid_claim", 3, "West holds nothing that the rd completes: no claim")


def test_a_dead_hand_neither_claims_nor_calls_ready_nor_wins() -> None:
    """RULES.md 4: a dead hand takes no further part in the hand and cannot win."""
    state = _fold(_discarded(SHORT, log=Log("hua-bao", {"wrong_count": "dead_hand"})).events)
    assert _hand(state)["seats"]["3"]["dead"] is True
    no_claims = "West's hand is dead: no claims"
    assert _words(state, _declare(3, "claim")) == ("dead_hand", 3, no_claims)
    assert _words(state, _move("9d", "discard", "melds:3")) == ("dead_hand", 3, no_claims)
    assert _words(state, _declare(3, "ready")) == ("dead_hand", 3, "West's hand is dead")
    assert _words(state, _declare(3, "mahjong")) == (
        "dead_hand", 3, "West's hand is dead: it cannot win")


# --- ready ----------------------------------------------------------------------------------

def test_ready_needs_thirteen_tiles_that_wait() -> None:
    """FORMATS.md: a seat may call ready whenever its 13 tiles wait on at least one tile; the
    call stands. In the deal east holds 14; after east's rd south (waiting on the 9d) is ready,
    and east's 13 tiles (1b 4b 7b 1c 9c 1d 4d ew sw ww nw gd 9d: no two alike, no run) wait on
    nothing."""
    log = Log()
    log.deal(CLAIM)
    dealt = _fold(log.events)
    assert _words(dealt, _declare(1, "ready")) == (
        "ready_not_waiting", 1, "East holds 14 tiles: call ready with 13 tiles (after discarding)")
    log.discard(1, "rd")
    state = _fold(log.events)
    assert _words(state, _declare(1, "ready")) == (
        "ready_not_waiting", 1, "East's hand does not wait on any tile yet")
    out = apply(state, _declare(2, "ready"))
    assert out.accepted and out.announcements == ("South is ready",)
    assert _hand(out.state)["seats"]["2"]["ready"] is True
    again = apply(out.state, _declare(2, "ready"))
    assert again.accepted and again.announcements == () and again.state == out.state


# --- a claim called, a claim forming, precedence ------------------------------------------

def test_a_called_claim_holds_the_discard_until_it_is_made_or_outranked() -> None:
    """FORMATS.md: several seats may call `claim`; the discard is awarded by precedence
    (RULES.md 4: Mahjong beats pung). West calls claim on east's 9d (west holds two: a
    pung): until west lays the set out nobody draws, the 9d goes nowhere else, and another
    seat's claim is outranked. South then declares Mahjong on the 9d (its pair): the 9d goes
    to south, and west may no longer take it."""
    state = _fold(_discarded(CLAIM).events)
    called = apply(state, _declare(3, "claim"))
    assert called.accepted and called.announcements == ()
    assert _hand(called.state)["claimants"] == [{"seat": 3, "call": "claim"}]
    state = called.state
    first = "West called claim on the 9d: the claim comes first"
    assert _words(state, _move("1b", "wall", "rack:2")) == ("claim_pending", 2, first)
    assert _words(state, _move("9d", "discard", "river")) == ("claim_pending", None, first)
    assert _words(state, _move("9d", "discard", "rack:2")) == (
        "claim_outranked", 2, "South may not take the 9d: it goes to West")
    assert _words(state, _move("2b", "rack:4", "melds:4")) == (
        "claim_outranked", 4, "North may not take the 9d: the claim went to West")
    again = apply(state, _declare(3, "claim"))
    assert again.accepted and again.state == state
    won = apply(state, _declare(2, "mahjong"))
    assert won.accepted and won.announcements == (
        "South declares Mahjong on the 9d", "The 9d goes to South (mahjong) over West (pung)")
    assert _hand(won.state)["claimants"] == [
        {"seat": 3, "call": "claim"}, {"seat": 2, "call": "mahjong"}]
    declared = "West may not take the 9d: South declared Mahjong on it"
    assert _words(won.state, _move("9d", "rack:3", "melds:3")) == (
        "claim_outranked", 3, declared)
    assert _words(won.state, _move("9d", "discard", "melds:3")) == (
        "claim_outranked", 3, declared)


def test_a_claim_call_then_mahjong_by_the_same_seat_is_one_mahjong_call() -> None:
    """South calls claim on the 9d (its best claim is Mahjong, the pair), then declares
    Mahjong: the table lists one call of south's, the Mahjong."""
    state = _fold(_discarded(CLAIM).events)
    called = apply(state, _declare(2, "claim"))
    assert called.accepted and _hand(called.state)["claimants"] == [{"seat": 2, "call": "claim"}]
    won = apply(called.state, _declare(2, "mahjong"))
    assert won.accepted and won.announcements == ("South declares Mahjong on the 9d",)
    assert _hand(won.state)["claimants"] == [{"seat": 2, "call": "mahjong"}]
    assert _words(won.state, _move("9d", "discard", "melds:3")) == (
        "claim_outranked", 3, "West may not take the 9d: South declared Mahjong on it")


def test_a_claim_made_clears_the_calls_and_west_plays_on() -> None:
    """RULES.md 4: "play continues from the claimant". West called claim, then lays the pung
    out: no call is left on the table, it is west's turn to discard, and after west's discard
    north draws as usual."""
    state = _fold([*_discarded(CLAIM).events, _declare(3, "claim"),
                   _move("9d", "discard", "melds:3"), _move("9d", "rack:3", "melds:3")])
    out = apply(state, _move("9d", "rack:3", "melds:3"))
    assert out.accepted and out.announcements == ("West claims the 9d for a pung",)
    hand = _hand(out.state)
    assert (hand["claimants"], hand["claim"], hand["discard"]) == ([], None, None)
    assert (hand["turn"], hand["step"]) == (3, "discard")
    assert hand["seats"]["3"]["melds"] == [
        {"tiles": ["9d", "9d", "9d"], "kind": "pung", "concealed": False}]
    assert hand["seats"]["3"]["forming"] == []
    on = _fold([*_discarded(CLAIM).events, _declare(3, "claim"),
                _move("9d", "discard", "melds:3"), _move("9d", "rack:3", "melds:3"),
                _move("9d", "rack:3", "melds:3"), _move("8b", "rack:3", "discard"),
                _move("1b", "wall", "rack:4")])
    assert (_hand(on)["turn"], _hand(on)["step"]) == (4, "discard")


def test_a_claim_forming_holds_the_discard() -> None:
    """FORMATS.md: a claimed set forms on the claimant's strip, its tiles in any order. While
    west's 9d lies on west's strip nobody draws and another seat's claim is outranked."""
    log = _discarded(CLAIM)
    state = _fold([*log.events, _move("9d", "discard", "melds:3")])
    hand = _hand(state)
    assert hand["claim"] == {"seat": 3, "discard": {"tile": "9d", "seat": 1}, "on_strip": True}
    assert hand["seats"]["3"]["forming"] == ["9d"] and hand["discard"] is None
    assert _words(state, _move("1b", "wall", "rack:2")) == (
        "claim_pending", 2, "West is claiming the 9d: wait for the claim")
    assert _words(state, _move("2b", "rack:4", "melds:4")) == (
        "claim_outranked", 4, "North may not take the 9d: West is claiming it")


def test_the_discard_taken_back_off_the_strip_leaves_the_claim_waiting_for_it() -> None:
    """West lays the 9d and one of its own 9d, then puts the discard back on the pad: the
    claim stands (a 9d of west's is on the strip) and waits for the discard; west's second 9d
    makes no set without it; the discard laid again completes the pung."""
    log = _discarded(CLAIM)
    state = _fold([*log.events, _move("9d", "discard", "melds:3"),
                   _move("9d", "rack:3", "melds:3"), _move("9d", "melds:3", "discard")])
    hand = _hand(state)
    assert hand["claim"] == {"seat": 3, "discard": {"tile": "9d", "seat": 1}, "on_strip": False}
    assert hand["seats"]["3"]["forming"] == ["9d"]
    assert hand["discard"] == {"tile": "9d", "seat": 1}
    assert _words(state, _move("2b", "rack:4", "melds:4")) == (
        "claim_outranked", 4, "North may not take the 9d: West is claiming it")
    two = apply(state, _move("9d", "rack:3", "melds:3"))
    assert two.accepted and two.announcements == ()
    assert _hand(two.state)["seats"]["3"]["melds"] == []
    assert _hand(two.state)["seats"]["3"]["forming"] == ["9d", "9d"]
    done = apply(two.state, _move("9d", "discard", "melds:3"))
    assert done.accepted and done.announcements == ("West claims the 9d for a pung",)


def test_a_claim_of_the_discard_alone_taken_back_ends() -> None:
    """The discard alone laid on west's strip and put back: no claim is left."""
    log = _discarded(CLAIM)
    state = _fold([*log.events, _move("9d", "discard", "melds:3"),
                   _move("9d", "melds:3", "discard")])
    hand = _hand(state)
    assert hand["claim"] is None and hand["seats"]["3"]["forming"] == []
    assert apply(state, _move("1b", "wall", "rack:2")).accepted


def test_a_rack_tile_taken_back_off_a_forming_claim() -> None:
    """West's own 9d put back in the rack: with the discard still on the strip the claim
    stands; with two own 9d laid first (no discard yet) and one put back, it stands too, and
    the other 9d may not go onto the pad (it is west's, not the discard)."""
    log = _discarded(CLAIM)
    state = _fold([*log.events, _move("9d", "discard", "melds:3"),
                   _move("9d", "rack:3", "melds:3"), _move("9d", "melds:3", "rack:3")])
    hand = _hand(state)
    assert hand["claim"] == {"seat": 3, "discard": {"tile": "9d", "seat": 1}, "on_strip": True}
    assert hand["seats"]["3"]["forming"] == ["9d"]
    assert hand["seats"]["3"]["rack_count"] == 13
    assert _words(state, _move("1b", "wall", "rack:2")) == (
        "claim_pending", 2, "West is claiming the 9d: wait for the claim")
    rack_first = _fold([*log.events, _move("9d", "rack:3", "melds:3"),
                        _move("9d", "rack:3", "melds:3"), _move("9d", "melds:3", "rack:3")])
    hand = _hand(rack_first)
    assert hand["claim"] == {"seat": 3, "discard": {"tile": "9d", "seat": 1}, "on_strip": False}
    assert hand["seats"]["3"]["forming"] == ["9d"]
    assert hand["seats"]["3"]["rack_count"] == 12
    assert _words(rack_first, _move("1b", "wall", "rack:2")) == (
        "claim_pending", 2, "West is claiming the 9d: wait for the claim")
    assert _words(rack_first, _move("9d", "melds:3", "discard")) == (
        "exposed_set_changed", 3,
        "the 9d on West's meld strip is part of an exposed set or bonus tiles: exposed sets "
        "cannot be changed; put it back")


def test_an_exposed_set_stays_on_its_strip() -> None:
    """RULES.md 4: claimed sets are exposed at once and cannot be changed or taken back."""
    state = _fold([*_discarded(CLAIM).events, _move("9d", "discard", "melds:3"),
                   _move("9d", "rack:3", "melds:3"), _move("9d", "rack:3", "melds:3")])
    changed = ("exposed_set_changed", 3,
               "the 9d on West's meld strip is part of an exposed set or bonus tiles: exposed "
               "sets cannot be changed; put it back")
    assert _words(state, _move("9d", "melds:3", "rack:4")) == changed
    assert _words(state, _move("9d", "melds:3", "rack:3")) == changed
    assert _words(state, _move("9d", "melds:3", "discard")) == changed


def test_mahjong_outranks_a_forming_claim_in_words() -> None:
    """West's pung forming (the 9d and one own 9d on the strip) loses to south's Mahjong: the
    table says who gets the 9d over whom, and that west's tiles go back; west's strip is
    empty in the game, the own 9d back in the rack."""
    state = _fold([*_discarded(CLAIM).events, _move("9d", "discard", "melds:3"),
                   _move("9d", "rack:3", "melds:3")])
    out = apply(state, _declare(2, "mahjong"))
    assert out.accepted and out.announcements == (
        "South declares Mahjong on the 9d",
        "The 9d goes to South (mahjong) over West (pung)",
        "West's claim is outranked: put those tiles back",
    )
    hand = _hand(out.state)
    assert hand["seats"]["3"]["forming"] == [] and hand["seats"]["3"]["rack_count"] == 13
    assert hand["claim"] is None


# --- kongs --------------------------------------------------------------------------------

#: JUNK with three rd for west (rd: east 1, west 3); the rest of west's tiles make nothing.
KONG3 = {**JUNK, 3: "rd rd rd 8b 8c 8d ew sw ww nw 2b gd wd"}


def test_a_pung_claimed_then_made_a_kong_is_a_claimed_kong() -> None:
    """RULES.md 4: "a claimed pung becomes a claimed kong when the claimant adds the fourth
    tile from the rack before discarding" (FORMATS.md); it is not an added kong, so nobody
    may rob it; after every kong the player draws a replacement first."""
    log = _discarded(KONG3, "rd")
    log.claim(3, "rd", "rd rd")
    state = _fold(log.events)
    out = apply(state, _move("rd", "rack:3", "melds:3"))
    assert out.accepted and out.announcements == ("West makes a claimed kong of rd",)
    hand = _hand(out.state)
    assert hand["seats"]["3"]["melds"] == [
        {"tiles": ["rd", "rd", "rd", "rd"], "kind": "kong", "concealed": False}]
    assert (hand["turn"], hand["step"], hand["seats"]["3"]["replacements_due"]) == (
        3, "replacement", 1)
    assert out.state.hand is not None and out.state.hand.robbable is None
    assert _words(out.state, _declare(4, "mahjong")) == (
        "mahjong_incomplete_hand", 4,
        "North holds 13 tiles and has no tile to win on: not a complete hand")
    assert _words(out.state, _move("8b", "rack:3", "discard")) == (
        "discard_out_of_turn", 3, "West must first draw a replacement tile")


def test_a_kong_claimed_from_the_discard_draws_a_replacement() -> None:
    """West lays its three rd, then east's rd: a kong from a discard (RULES.md 4), play goes
    on from west, who draws a replacement before discarding."""
    log = _discarded(KONG3, "rd")
    log.claim(3, "rd", "rd rd rd", discard_first=False)
    events = log.events
    state = _fold(events[:-1])
    assert _hand(state)["seats"]["3"]["melds"] == []
    out = apply(state, events[-1])
    assert out.accepted and out.announcements == ("West claims the rd for a kong",)
    hand = _hand(out.state)
    assert hand["seats"]["3"]["melds"] == [
        {"tiles": ["rd", "rd", "rd", "rd"], "kind": "kong", "concealed": False}]
    assert (hand["turn"], hand["step"], hand["seats"]["3"]["replacements_due"]) == (
        3, "replacement", 1)
    assert (hand["claimants"], hand["claim"], hand["discard"]) == ([], None, None)
    assert _words(out.state, _move("8b", "rack:3", "discard")) == (
        "discard_out_of_turn", 3, "West must first draw a replacement tile")
    drawn = apply(out.state, _move("1b", "wall", "rack:3"))
    assert drawn.accepted and _hand(drawn.state)["step"] == "discard"


def test_kongs_on_the_own_turn_in_words() -> None:
    """The kongs scenario (tests/game/scenarios.py): east's four 9c laid in the deal are a
    concealed kong; north's fourth 6c added to its exposed pung is an added kong, which east
    robs (RULES.md 4)."""
    from tests.game.scenarios import SCENARIOS

    events = SCENARIOS["kongs_and_robbing"]().log.events
    fourth = 57  # the session, 53 tiles dealt, then east's four 9c
    assert events[fourth] == _move("9c", "rack:1", "melds:1")
    out = apply(_fold(events[:fourth]), events[fourth])
    assert out.accepted and out.announcements == ("East declares a concealed kong",)
    assert _hand(out.state)["seats"]["1"]["melds"] == [
        {"tiles": ["9c"] * 4, "kind": "kong", "concealed": True}]
    added = apply(_fold(events[:-3]), events[-3])
    assert added.accepted and added.announcements == ("North makes an added kong of 6c",)
    robbed = apply(added.state, events[-2])
    assert robbed.accepted and robbed.announcements == (
        "East declares Mahjong on the 6c: robbing the kong",)


def test_the_added_kongs_tile_taken_by_a_seat_that_did_not_declare() -> None:
    """South moves north's added 6c into its own rack (no Mahjong declared yet): east's
    Mahjong is then too late, south's 6c may not go onto its own strip (south has no pung of
    6c), and south may put it back onto north's pung, which is an added kong again."""
    from tests.game.scenarios import SCENARIOS

    events = SCENARIOS["kongs_and_robbing"]().log.events[:-2]
    before = _fold(events)
    taken = _fold([*events, _move("6c", "melds:4", "rack:2")])
    assert _hand(taken)["seats"]["4"]["melds"][-1]["kind"] == "pung"
    assert _words(taken, _declare(1, "mahjong")) == (
        "claim_too_late", 1, "South robbed the kong first")
    assert _words(taken, _move("6c", "rack:2", "melds:2")) == (
        "mahjong_not_declared", 2,
        "South took a tile for Mahjong: declare mahjong, or put the tile back")
    back = apply(taken, _move("6c", "rack:2", "melds:4"))
    assert back.accepted and back.state.hand == before.hand


def test_tiles_that_cannot_become_a_kong_on_the_own_turn() -> None:
    """RULES.md 4: on the own turn only a kong may be laid out (four identical tiles). East
    holds one 1b: refused at once; east's four 9c (kongs scenario's deal), the first laid
    and then a 5c, are refused at the 5c, naming both."""
    log = Log()
    log.deal(CLAIM)
    assert _words(_fold(log.events), _move("1b", "rack:1", "melds:1")) == (
        "not_a_set", 1,
        "1b on East's meld strip cannot become a kong (four identical tiles): put it back")
    from tests.game.scenarios import SCENARIOS

    events = SCENARIOS["kongs_and_robbing"]().log.events[:55]
    assert events[-1] == _move("9c", "rack:1", "melds:1")
    assert _words(_fold(events), _move("5c", "rack:1", "melds:1")) == (
        "not_a_set", 1,
        "9c 5c on East's meld strip cannot become a kong (four identical tiles): put it back")


# --- refused claims by their words ----------------------------------------------------------

#: JUNK with one 9d for west (9d: east 1, south 1, west 1).
PAIR = {**JUNK, 3: "9d 2b 8b 8c 8d ew sw ww nw rd gd wd wd"}


def test_a_pair_claim_and_a_claim_of_no_set() -> None:
    """RULES.md 4: a discard may be claimed for a pair only to go Mahjong. West (one 9d)
    lays its 9d for east's 9d: refused at that move. West (two 9d) lays a 9d, then an 8c:
    8c 9d with the 9d makes no set."""
    assert _words(_fold(_discarded(PAIR).events), _move("9d", "rack:3", "melds:3")) == (
        "pair_claim_without_mahjong", 3,
        "West may claim the 9d for a pair only to go Mahjong: declare mahjong, "
        "or put the tiles back")
    state = _fold([*_discarded(CLAIM).events, _move("9d", "rack:3", "melds:3")])
    assert _words(state, _move("8c", "rack:3", "melds:3")) == (
        "not_a_set", 3, "8c 9d with the 9d makes no chow, pung or kong: put them back")


def test_a_discard_may_not_make_an_exposed_pung_a_kong() -> None:
    """RULES.md 4: "a discard may never be claimed to turn an exposed pung into a kong". West
    pungs east's 9d; later south discards the fourth 9d, which west lays on its strip."""
    log = _discarded(CLAIM)
    log.claim(3, "9d", "9d 9d")
    log.discard(3, "8b")
    log.draw_discard(4)
    log.draw_discard(1)
    log.draw(2)
    log.discard(2, "9d")
    state = _fold(log.events)
    assert _words(state, _move("9d", "discard", "melds:3")) == (
        "kong_claim_on_exposed_pung", 3,
        "West may not claim the 9d to make the exposed pung a kong")


def test_mahjong_off_the_own_turn_with_no_tile_to_win_on() -> None:
    """A seat may go Mahjong on its own turn (self-drawn) or on a live discard. South has
    drawn east's turn over: west, and east (the dealer, but the deal is over), have no tile
    to win on."""
    log = Log()
    log.deal(CLAIM)
    log.discard(1, "rd")
    log.draw(2, "1b")
    state = _fold(log.events)
    assert _words(state, _declare(3, "mahjong")) == (
        "mahjong_incomplete_hand", 3,
        "West holds 13 tiles and has no tile to win on: not a complete hand")
    assert _words(state, _declare(1, "mahjong")) == (
        "mahjong_incomplete_hand", 1,
        "East holds 13 tiles and has no tile to win on: not a complete hand")


# --- who may chow, what a claim call is worth ----------------------------------------------

#: South holds 2b 3b and 7b 8b (chows of 1b-2b-3b and 7b-8b-9b), no pair, no waiting hand;
#: east holds a 9b instead of JUNK's 9d. 2b: south, west, north; 7b: east, south; 9b: east,
#: north; 8b: south, west, north.
ENDS = {**JUNK, 1: "1b 4b 7b 1c 9c 1d 4d ew sw ww nw rd gd 9b",
        2: "2b 3b 7b 8b 2c3c4c 5c6c7c 2d3d4d"}


def test_the_next_player_may_chow_at_either_end_of_a_suit() -> None:
    """RULES.md 4: a chow is three consecutive tiles of a suit; 1-2-3 and 7-8-9 are chows.
    South, who plays after east, may claim east's 1b with its 2b 3b and east's 9b with its
    7b 8b."""
    for tile in ("1b", "9b"):
        state = _fold(_discarded(ENDS, tile).events)
        out = apply(state, _declare(2, "claim"))
        assert out.accepted and _hand(out.state)["claimants"] == [{"seat": 2, "call": "claim"}]


def test_only_the_next_player_may_call_a_chow_and_only_with_a_chow() -> None:
    """East discards its 4b (JUNK). North holds 2b 3b and 5b 6b (two chows with a 4b) but
    does not play after east: no claim; south, who does, holds no bamboo: no claim."""
    state = _fold(_discarded(JUNK, "4b").events)
    assert _words(state, _declare(4, "claim")) == (
        "invalid_claim", 4, "North holds nothing that the 4b completes: no claim")
    assert _words(state, _declare(2, "claim")) == (
        "invalid_claim", 2, "South holds nothing that the 4b completes: no claim")


#: East discards a 5b; south (next) holds 4b 6b: a chow; west holds three 5b: a kong.
KONG_OVER_CHOW = {
    1: "5b 1b 7b 1c 9c 1d 4d ew sw ww nw rd gd 9d",
    2: "4b 6b 2c 3c 4c 5c 6c 7c 2d 3d 4d 9d nw",
    3: "5b 5b 5b 8b 8c 8d ew sw ww rd gd wd wd",
    4: "2b 3b 6b 8b 9b 1c 4c 9c 1d 4d wd wd 3d",
}


def test_a_kong_call_outranks_a_chow_call() -> None:
    """RULES.md 4: kong and pung beat chow. South calls claim (a chow), then west (a kong,
    holding three 5b): the 5b goes to west, and the table says so."""
    state = _fold([*_discarded(KONG_OVER_CHOW, "5b").events, _declare(2, "claim")])
    out = apply(state, _declare(3, "claim"))
    assert out.accepted and out.announcements == (
        "The 5b goes to West (kong) over South (chow)",)
    assert _words(out.state, _move("5b", "discard", "rack:2")) == (
        "claim_outranked", 2, "South may not take the 5b: it goes to West")


# --- robbing a kong with two seats waiting -------------------------------------------------

#: West pungs east's first discard, the 5c, and later adds the fourth 5c; north (3c 4c) and
#: east (6c 7c) both wait on the 5c, so both may rob the kong.
ROB = {
    1: "5c 6c 7c 1b1b1b 2b3b4b 7d8d9d 9b 9b",
    2: "1c 4c 9c 1d 4d ew sw ww nw rd gd wd 3d",
    3: "5c 5c 1d 4d ew sw ww nw rd gd wd 3d 5d",
    4: "3c 4c 2d2d2d 5b6b7b 8b8b8b 6d 6d",
}


def _added_kong_robbed_twice() -> Log:
    log = Log()
    log.reserve("5c").deal(ROB)
    log.discard(1, "5c").claim(3, "5c", "5c5c").discard(3, "5d")
    log.draw_discard(4, log.spare(avoid=["5c", "2c"]))
    log.draw_discard(1, log.spare(avoid=["5c", "8c"]))
    log.draw_discard(2, log.spare(avoid=["5c"]))
    log.draw(3, "5c")
    log.move("5c", "rack:3", "melds:3")
    return log


def test_of_two_robbers_the_nearer_in_turn_order_from_the_kong_takes_the_tile() -> None:
    """RULES.md 4: equal claims go to the claimant nearest in turn order from the discarder;
    here from west, whose kong it is: north (the next seat) before east. East declares
    first; north then; east's move of the 5c is refused, north's wins."""
    log = _added_kong_robbed_twice()
    log.declare(1, "mahjong").declare(4, "mahjong")
    state, outs = replay(log.events)
    assert all(o.accepted for o in outs), [o.violation for o in outs if not o.accepted]
    assert outs[-2].announcements == ("East declares Mahjong on the 5c: robbing the kong",)
    assert outs[-1].announcements == ("North declares Mahjong on the 5c: robbing the kong",)
    assert _words(state, _move("5c", "melds:3", "rack:1")) == (
        "claim_outranked", 1, "North robs this kong")
    won = apply(state, _move("5c", "melds:3", "rack:4"))
    assert won.accepted and won.state.hands[-1].winner == 4



# --- kongs after other sets, pair claims beside an exposed pung -----------------------------

def _west_pungs_9d_and_wd() -> Log:
    """West pungs east's 9d, then north's wd (RULES.md 4: any player may claim a pung; play
    continues from the claimant, the players between skipped); the fourth 9d stays in the
    wall for west to draw."""
    log = Log()
    log.reserve("9d")
    log.deal({**CLAIM, 2: "2c3c4c 5c6c7c 2d3d4d 5d6d7d 1b"})
    log.discard(1, "9d").claim(3, "9d", "9d 9d").discard(3, "8b")
    log.draw(4, log.spare(avoid=["9d"]))
    log.discard(4, "wd").claim(3, "wd", "wd wd").discard(3, "8c")
    return log


def test_an_added_kong_keeps_the_seats_other_sets() -> None:
    """West's fourth 9d, drawn, added to its first pung (RULES.md 4: the only change allowed
    to an exposed set): the 9d kong and the wd pung both stay on the strip."""
    log = _west_pungs_9d_and_wd()
    for seat in (4, 1, 2):
        log.draw_discard(seat, log.spare(avoid=["9d"]))
    log.draw(3, "9d")
    log.move("9d", "rack:3", "melds:3")
    state = _fold(log.events)
    assert _hand(state)["seats"]["3"]["melds"] == [
        {"tiles": ["9d"] * 4, "kind": "kong", "concealed": False},
        {"tiles": ["wd"] * 3, "kind": "pung", "concealed": False},
    ]


def test_a_pair_claim_beside_an_exposed_pung_of_another_tile() -> None:
    """West has exposed pungs of 9d and wd; east discards its ew and west lays its one ew: a
    pair claim (refused: not for Mahjong), not a kong onto an exposed pung."""
    log = _west_pungs_9d_and_wd()
    log.draw_discard(4, log.spare(avoid=["9d", "ew"]))
    log.draw(1, log.spare(avoid=["9d", "ew"]))
    log.discard(1, "ew")
    assert _words(_fold(log.events), _move("ew", "rack:3", "melds:3")) == (
        "pair_claim_without_mahjong", 3,
        "West may claim the ew for a pair only to go Mahjong: declare mahjong, "
        "or put the tiles back")


def test_mahjong_after_claiming_a_set_is_a_win_on_that_discard() -> None:
    """South, who has drawn before, claims east's 7d for the chow 5d6d7d and then declares
    Mahjong with the 14 tiles (2c3c4c 5c6c7c 2d3d4d 9d9d and the chow): the winning tile came
    from east's discard, so the win is on a discard by east (FORMATS.md win sources), not
    self-drawn from south's earlier draw."""
    log = Log()
    log.reserve("7d")
    log.deal({**JUNK, 2: "2c3c4c 5c6c7c 2d3d4d 5d 6d 9d 9d"})
    log.discard(1, "rd")
    for seat in (2, 3, 4):
        log.draw_discard(seat, log.spare(avoid=["7d", "4d", "9d"]))
    log.draw(1, "7d")
    log.discard(1, "7d").claim(2, "7d", "5d 6d")
    log.declare(2, "mahjong")
    state = _fold(log.events)
    result = _hand(state)["result"]
    assert (result["winner"], result["win_source"], result["discarder"]) == (2, "discard", 1)


def test_one_kong_then_a_win_on_its_replacement_is_no_twofold_fortune() -> None:
    """RULES.md 8 (dmjl): twofold fortune is a kong, a kong again with the replacement, and
    the win on the second replacement. East's one concealed kong of 1b and a win on its
    replacement is not it."""
    from tests.game.scenarios import dmjl_win_on_a_kong_replacement

    state = _fold(dmjl_win_on_a_kong_replacement(second_kong=False).events)
    score = _hand(state)["result"]["details"]["1"]["score"]
    assert score["limit_hand"] != "twofold_fortune"


# --- bonus tiles, the end of the wall --------------------------------------------------------

def test_a_bonus_tile_laid_off_the_own_turn_leaves_the_turn_as_it_is() -> None:
    """FORMATS.md: a bonus tile may sit in the rack; its replacement is due when it is laid
    on the strip. West lays its 1f while south, having drawn, is to discard: west's
    replacement is due, and it is still south's turn to discard."""
    log = Log("dmjl")
    log.deal({**JUNK, 3: JUNK[3] + " 1f"})
    log.discard(1, "rd")
    log.draw(2, "1b")
    out = apply(_fold(log.events), _move("1f", "rack:3", "melds:3"))
    assert out.accepted
    hand = _hand(out.state)
    assert (hand["turn"], hand["step"]) == (2, "discard")
    assert hand["seats"]["3"]["bonus"] == ["1f"] and hand["seats"]["3"]["replacements_due"] == 1


def test_no_replacement_can_come_at_the_end_of_the_live_wall_in_words() -> None:
    """FORMATS.md: a replacement that falls due when the live wall is used up cannot be
    drawn; the hand ends at once as a washout, and the table says what needed it."""
    from tests.game.test_wall_end import CLAIM_JUNK, KONG_JUNK, down_to_last_tile

    log = down_to_last_tile(Log().reserve("6c").deal(KONG_JUNK), 122)
    log.draw(2, "6c")
    for _ in range(4):
        log.move("6c", "rack:2", "melds:2")
    state, outs = replay(log.events)
    assert outs[-1].accepted and state.hands[-1].result == "washout"
    assert "The live wall is used up: no replacement for the kong can come; washout" in (
        outs[-1].announcements)
    log = down_to_last_tile(Log().reserve("6c").deal(CLAIM_JUNK), 122)
    log.draw(2, "6c")
    log.discard(2, "6c").claim(3, "6c", "6c6c")
    log.move("6c", "rack:3", "melds:3")
    state, outs = replay(log.events)
    assert outs[-1].accepted and state.hands[-1].result == "washout"
    assert "The live wall is used up: no replacement for the kong can come; washout" in (
        outs[-1].announcements)
    log = down_to_last_tile(Log().reserve("6c").deal(CLAIM_JUNK), 122)
    log.draw(2, "6c")
    log.discard(2, "6c").claim(3, "6c", "6c6c6c", discard_first=False)
    state, outs = replay(log.events)
    assert outs[-1].accepted and state.hands[-1].result == "washout"
    assert outs[-1].announcements[:2] == (
        "West claims the 6c for a kong",
        "The live wall is used up: no replacement for the kong can come; washout")
    log = down_to_last_tile(Log("dmjl").reserve("1f").deal(JUNK), 130)
    log.draw(2, "1f")
    log.move("1f", "rack:2", "melds:2")
    state, outs = replay(log.events)
    assert outs[-1].accepted and state.hands[-1].result == "washout"
    assert "The live wall is used up: no replacement for the 1f can come; washout" in (
        outs[-1].announcements)


def test_the_ready_button_as_nine_terminals_says_so() -> None:
    """docs/game.md "Abortive draws": READY with no riichi possible declares nine terminals;
    the table is told why."""
    from tests.game.test_riichi_abortive import ON
    from tests.game.test_riichi_abortive import _log as abortive_log

    log = abortive_log(ON).discard(1, "nw")
    log.draw(2, "3b")
    out = apply(_fold(log.events), _declare(2, "ready"))
    assert out.accepted
    assert out.announcements[0] == "South presses READY with no riichi possible: nine terminals"


# --- timers: calls after the claim window ---------------------------------------------------

def _timed(deal: dict[int, str], options: dict[str, Any] | None = None,
           timers: bool = True) -> GameState:
    """East's 9d discarded at 10.0 s: the claim window closes at 13.0 s (docs/game.md)."""
    from controller.game import new_game

    log = Log(options=options, table={"timers": True} if timers else None)
    log.deal(deal)
    state = new_game()
    for event in log.events:
        state = apply(state, event, at=1.0).state
    return apply(state, _move("9d", "rack:1", "discard"), at=10.0).state


def test_a_call_at_the_claim_deadline_is_in_time_and_the_first_late_call_is_noted() -> None:
    """docs/game.md "Timers": a claim or a Mahjong call *after* the claim deadline is noted,
    each overrun once. West's claim at 13.0 s exactly is in time; west's at 14.25 s is 1.25 s
    late, and south's Mahjong call after it (14.5 s) does not replace that note. When west's
    pung is made the window is closed (no claim deadline shown)."""
    from controller.game import due_timer_events

    state = _timed(CLAIM)
    assert _hand(state)["timers"]["claim_deadline"] == 13.0
    on_time = apply(state, _declare(3, "claim"), at=13.0)
    assert on_time.accepted and due_timer_events(on_time.state, 13.5) == []
    late = apply(state, _declare(3, "claim"), at=14.25)
    west = {"timer": {"seat": 3, "kind": "claim", "overrun": 1.25, "deadline": 13.0}}
    assert due_timer_events(late.state, 14.3) == [west]
    south = apply(late.state, _declare(2, "mahjong"), at=14.5)
    assert south.accepted and due_timer_events(south.state, 14.6) == [west]
    made = on_time.state
    for event in (_move("9d", "discard", "melds:3"), _move("9d", "rack:3", "melds:3"),
                  _move("9d", "rack:3", "melds:3")):
        made = apply(made, event, at=13.5).state
    assert len(_hand(made)["seats"]["3"]["melds"]) == 1
    assert _hand(made)["timers"]["claim_deadline"] is None


def test_with_timers_off_a_timed_call_notes_nothing() -> None:
    """Timers are a table option, off by default: events may still carry times."""
    from controller.game import due_timer_events

    state = _timed(CLAIM, timers=False)
    out = apply(state, _declare(3, "claim"), at=20.0)
    assert out.accepted and due_timer_events(out.state, 21.0) == []


def test_a_discard_that_ends_the_hand_in_an_abortive_draw_is_laid_out_only_to_win() -> None:
    """docs/game.md "Abortive draws" (riichi, with the option): the fourth ew discarded in
    the first go-round ends the hand unless it is won on; a seat laying it on its strip for a
    set is refused in its own name, as a declared claim is."""
    from tests.game.test_riichi_abortive import ON, _four_winds

    state = _fold(_four_winds(ON).events)
    for seat, wind in ((1, "East"), (2, "South")):
        assert _words(state, _move("ew", "discard", f"melds:{seat}")) == (
            "abortive_draw", seat,
            f"the hand ends in an abortive draw (four winds): {wind} may take the discard "
            "only to win")


def test_the_deal_shows_no_step_before_or_after_the_dealers_kong() -> None:
    """FORMATS.md: the deal is the moves into the racks before east's first discard, in any
    order: it has no turn steps (the table shows none), a kong laid in it included; its
    replacement is due all the same."""
    from tests.game.scenarios import SCENARIOS

    events = SCENARIOS["kongs_and_robbing"]().log.events
    for n in (56, 58):
        hand = _hand(_fold(events[:n]))
        assert (hand["phase"], hand["step"]) == ("deal", None)
    assert _hand(_fold(events[:58]))["seats"]["1"]["replacements_due"] == 1


def test_a_discard_taken_for_mahjong_does_not_go_onto_anothers_pung() -> None:
    """West has punged east's first 5b; east later draws and discards the fourth 5b, which
    south (4b 6b 2c3c4c 5c6c7c 2d3d4d 9d9d: the 5b completes it) takes into its rack. Laying
    it on west's pung would be a kong by a discard onto an exposed pung (RULES.md 4: never);
    it is refused as any move but the declaration or the put-back is."""
    log = Log()
    log.reserve("5b")
    log.deal({**KONG_OVER_CHOW, 2: "4b 6b 2c3c4c 5c6c7c 2d3d4d 9d 9d",
              3: "5b 5b 8b 8c 8d ew sw ww rd gd wd wd 3d"})
    log.discard(1, "5b").claim(3, "5b", "5b 5b").discard(3, "8b")
    log.draw_discard(4, log.spare(avoid=["5b"]))
    log.draw(1, "5b")
    log.discard(1, "5b").move("5b", "discard", "rack:2")
    state = _fold(log.events)
    assert _words(state, _move("5b", "rack:2", "melds:3")) == (
        "mahjong_not_declared", 2,
        "South took a tile for Mahjong: declare mahjong, or put the tile back")
    won = apply(state, _declare(2, "mahjong"))
    assert won.accepted and won.state.hands[-1].winner == 2


# --- three claimants, a robbed tile put back beside another pung, a wrong count -----------

#: East discards a 5b: south (next) may chow it (4b 6b), west pung it (5b 5b), north go
#: Mahjong on it (5b 6d6d6d 7d8d9d 2b2b2b 6b7b8b: the 5b pairs its 5b).
THREE = {**KONG_OVER_CHOW, 3: "5b 5b 8b 8c 8d ew sw ww rd gd wd wd 3d",
         4: "5b 6d6d6d 7d8d9d 2b2b2b 6b7b8b"}


def test_three_calls_on_one_discard_in_words() -> None:
    """RULES.md 4: Mahjong beats pung, which beats chow. South calls (a chow), west calls (a
    pung: the 5b goes to west over south), north declares Mahjong: the 5b goes to north over
    both, named in the order they called."""
    state = _fold([*_discarded(THREE, "5b").events, _declare(2, "claim")])
    west = apply(state, _declare(3, "claim"))
    assert west.accepted and west.announcements == (
        "The 5b goes to West (pung) over South (chow)",)
    north = apply(west.state, _declare(4, "mahjong"))
    assert north.accepted and north.announcements == (
        "North declares Mahjong on the 5b",
        "The 5b goes to North (mahjong) over South (chow), West (pung)",
    )


def test_a_robbed_tile_put_back_goes_onto_its_own_pung_not_an_earlier_one() -> None:
    """West pungs north's wd, then east's 9d, then adds its drawn fourth 9d: an added kong
    beside the wd pung. South takes the 9d off west's strip without declaring Mahjong and
    puts it back: the 9d kong stands again and the wd pung is as it was."""
    log = Log()
    log.reserve("9d")
    log.deal({**CLAIM, 2: "2c3c4c 5c6c7c 2d3d4d 5d6d7d 1b"})
    log.discard(1, "rd")
    log.draw_discard(2, log.spare(avoid=["9d", "wd"]))
    log.draw_discard(3, log.spare(avoid=["9d", "wd"]))
    log.draw(4, log.spare(avoid=["9d", "wd"]))
    log.discard(4, "wd").claim(3, "wd", "wd wd").discard(3, "8b")
    log.draw_discard(4, log.spare(avoid=["9d", "wd"]))
    log.draw(1, log.spare(avoid=["9d", "wd"]))
    log.discard(1, "9d").claim(3, "9d", "9d 9d").discard(3, "8c")
    for seat in (4, 1, 2):
        log.draw_discard(seat, log.spare(avoid=["9d", "wd"]))
    log.draw(3, "9d")
    log.move("9d", "rack:3", "melds:3")
    before = _fold(log.events)
    assert [m["kind"] for m in _hand(before)["seats"]["3"]["melds"]] == ["pung", "kong"]
    taken = _fold([*log.events, _move("9d", "melds:3", "rack:2")])
    back = apply(taken, _move("9d", "rack:2", "melds:3"))
    assert back.accepted and back.state.hand == before.hand


def test_a_wrong_tile_count_at_the_first_discard_in_words() -> None:
    """RULES.md 4: a wrong number of tiles is a faulty hand; with ``wrong_count = repair``
    (hua-bao's default here) east's first discard is refused in west's name until west
    repairs its 12 tiles; with ``dead_hand`` the discard stands and west's hand is dead, the
    table told why."""
    state = _fold(Log().deal(SHORT).events)
    assert _words(state, _move("9d", "rack:1", "discard")) == (
        "wrong_tile_count", 3,
        "West holds 12 tiles, not 13: draw or return tiles to repair the hand")
    dead = _fold(Log("hua-bao", {"wrong_count": "dead_hand"}).deal(SHORT).events)
    out = apply(dead, _move("9d", "rack:1", "discard"))
    assert out.accepted and out.violation is not None
    assert (out.violation.rule, out.violation.seat, out.violation.message) == (
        "wrong_tile_count", 3, "West holds 12 tiles, not 13: the hand is dead")
    assert out.announcements == ("West's hand is dead (West holds 12 tiles, not 13)",)
    assert _hand(out.state)["seats"]["3"]["dead"] is True
