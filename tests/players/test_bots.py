"""Bot decisions on hand-made seat views (the shape of Contract 4's seat view)."""

from __future__ import annotations

from typing import Any

from controller.players.bots import Bot
from controller.scoring import get_ruleset, waits
from controller.tiles import Meld, parse_hand


def seat(
    text: str,
    ruleset: str = "hua-bao",
    wind: str = "south",
    ready: bool = False,
    live_wall: int = 50,
    river: tuple[str, ...] = (),
) -> dict[str, Any]:
    """A seat view for the hand string ``text`` (rack, melds, bonus) at a quiet table."""
    parsed = parse_hand(text)
    melds = [
        {"tiles": list(m.tiles), "kind": "pung" if len(set(m.tiles)) == 1 else "chow",
         "concealed": m.concealed}
        for m in parsed.melds
    ]
    rs = get_ruleset(ruleset)
    rack = parsed.concealed
    seat_waits = waits(rack, parsed.melds, rs) if len(rack) + 3 * len(melds) == 13 else []
    seats = {
        str(p): {"position": p, "melds": melds if p == 2 else [], "bonus": [], "forming": [],
                 "river": list(river) if p == 3 else [], "ready": False, "dead": False,
                 "replacements_due": 0, "concealed_count": 13}
        for p in range(1, 5)
    }
    table = {"hand": {"number": 1, "dealer": 1, "prevailing_wind": "east", "phase": "play",
                      "live_wall": live_wall, "seats": seats, "discard": None}}
    return {"position": 2, "wind": wind, "hand": rack, "melds": melds, "bonus": parsed.bonus,
            "waits": seat_waits, "ready": ready, "table": table}


def bot(ruleset: str = "hua-bao") -> Bot:
    return Bot(2, get_ruleset(ruleset), seed=1)


def test_discards_the_isolated_tile() -> None:
    view = seat("1b2b3b 4c5c6c 7d8d9d 2b2b 5c6c nw")
    action = bot().on_turn(view, "nw", "wall")
    assert (action.kind, action.tile) == ("discard", "nw")


def test_keeps_the_ready_shape_and_throws_the_stray() -> None:
    view = seat("1b2b3b 4c5c6c 7d8d9d 2b2b 6c7c 1d")
    assert bot().on_turn(view, "1d", "wall").tile == "1d"


def test_declares_a_self_drawn_mahjong() -> None:
    view = seat("1b2b3b 4c5c6c 7d8d9d 2b2b 6c7c8c")
    action = bot().on_turn(view, "8c", "wall")
    assert action.kind == "mahjong"


def test_swedish_needs_the_ready_call_before_mahjong() -> None:
    hand = "1b2b3b 4c5c6c 7d8d9d 2b2b 6c7c8c"
    assert bot("swedish").on_turn(seat(hand, "swedish"), "8c", "wall").kind == "discard"
    # Ready, concealed and drawn from the live wall: the concealed-hand doubling allows it.
    assert bot("swedish").on_turn(seat(hand, "swedish", ready=True), "8c", "wall").kind == "mahjong"


def test_swedish_refuses_mahjong_without_a_combination_doubling() -> None:
    # An exposed chow, a discard win on a single wait, terminals present: no doubling at all.
    view = seat("[1b2b3b] 4c5c6c 7d8d9d 2b2b 6c8c", "swedish", ready=True)
    assert view["waits"] == ["7c"]
    assert bot("swedish").on_discard(view, "7c", may_chow=False) is None
    # The same wait on two tile types makes it a worthless hand with a doubling.
    view = seat("[1b2b3b] 4c5c6c 7d8d9d 2b2b 6c7c", "swedish", ready=True)
    intent = bot("swedish").on_discard(view, "8c", may_chow=False)
    assert intent is not None and intent.kind == "mahjong"


def test_claims_mahjong_on_a_discard_it_waits_on() -> None:
    view = seat("1b2b3b 4c5c6c 7d8d9d 2b2b 6c7c")
    intent = bot().on_discard(view, "5c", may_chow=False)
    assert intent is not None and intent.kind == "mahjong"


def test_claims_a_pung_that_brings_the_hand_closer() -> None:
    view = seat("1b2b3b 4c5c6c gdgd 2b2b 7d9d nw")
    intent = bot().on_discard(view, "gd", may_chow=False)
    assert intent is not None and (intent.kind, intent.tiles) == ("pung", ("gd", "gd"))


def test_chow_only_from_the_previous_seat() -> None:
    view = seat("1b2b3b 4c5c6c 7d8d 2b2b ewswnw rd")
    assert bot().on_discard(view, "9d", may_chow=False) is None
    intent = bot().on_discard(view, "9d", may_chow=True)
    assert intent is not None and intent.kind == "chow" and sorted(intent.tiles) == ["7d", "8d"]


def test_swedish_stays_concealed_for_plain_sets_but_takes_dragon_pungs() -> None:
    view = seat("1b2b3b 4c5c6c 7d7d gdgd 3b4b nw", "swedish")
    assert bot("swedish").on_discard(view, "7d", may_chow=False) is None
    intent = bot("swedish").on_discard(view, "gd", may_chow=False)
    assert intent is not None and intent.kind == "pung"


def test_declares_a_concealed_kong_that_costs_nothing() -> None:
    view = seat("5d5d5d5d 1b2b3b 4c5c6c 7b8b ewew")
    action = bot().on_turn(view, "5d", "wall")
    assert (action.kind, action.tile) == ("concealed_kong", "5d")


def test_no_kong_when_the_live_wall_is_empty() -> None:
    view = seat("5d5d5d5d 1b2b3b 4c5c6c 7b8b ewew", live_wall=0)
    assert bot().on_turn(view, "5d", "wall").kind == "discard"


def test_adds_the_fourth_tile_to_an_exposed_pung() -> None:
    view = seat("[3c3c3c] 1b2b3b 4d5d6d 7b8b ewew 3c")
    action = bot().on_turn(view, "3c", "wall")
    assert (action.kind, action.tile) == ("added_kong", "3c")


def test_robs_a_kong_it_can_win_with() -> None:
    view = seat("1b2b3b 4c5c6c 7d8d9d 2b2b 6c7c")
    assert bot().rob_kong(view, "8c")
    assert not bot().rob_kong(view, "9c")


def test_ready_call_only_where_the_rule_set_needs_it() -> None:
    ready_hand = "1b2b3b 4c5c6c 7d8d9d 2b2b 6c7c"
    assert bot("swedish").wants_ready(seat(ready_hand, "swedish"))
    assert not bot("swedish").wants_ready(seat(ready_hand, "swedish", ready=True))
    assert not bot("hua-bao").wants_ready(seat(ready_hand))
    assert not bot("swedish").wants_ready(seat("1b2b3b 4c5c6c 7d8d 2b2b ewswnw rd", "swedish"))


def test_the_same_seed_decides_the_same_way() -> None:
    view = seat("1b3b5b7b9b 1c3c5c 2d4d ewsw rd")
    picks = {Bot(2, get_ruleset("hua-bao"), seed=5).on_turn(view, "rd", "wall") for _ in range(3)}
    assert len(picks) == 1


def test_melds_helper_builds_scorer_melds() -> None:
    assert parse_hand("[3c3c3c] 1b").melds == [Meld(("3c", "3c", "3c"))]
