"""Scripted hands: each builds a table log and says what replaying it must give.

``python -m tests.game.scenarios`` writes them to tests/game/logs/NAME.jsonl; the tests check
that the files are up to date and replay them through the ``replay`` command's code.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.game.logbuilder import Log

LOGS = Path(__file__).parent / "logs"

#: Hands that make no sets with each other: east 14 tiles, the others 13.
JUNK = {
    1: "1b 4b 7b 1c 9c 1d 4d ew sw ww nw rd gd 9d",
    2: "2c3c4c 5c6c7c 2d3d4d 5d6d7d 9d",
    3: "2b 5b 8b 8c 8d ew sw ww nw rd gd wd wd",
    4: "2b 3b 5b 6b 8b 9b 1c 4c 9c 1d 4d wd wd",
}


@dataclass
class Scenario:
    log: Log
    #: (line, rule) of every violation, in order
    violations: list[tuple[int, str]] = field(default_factory=list)
    #: (result, winner) of every hand, in order (result None: still in play)
    hands: list[tuple[str | None, int | None]] = field(default_factory=list)
    #: more checks on the summary
    check: Callable[[dict[str, Any]], None] | None = None

    def bad(self, rule: str) -> None:
        """The event just added must be refused with ``rule``."""
        self.violations.append((len(self.log.events), rule))


def example_a() -> Scenario:
    """RULES.md worked example A played at the table: south wins with 3c from the wall."""
    log = Log("hua-bao", {"mahjong_bonus": 10, "limit": 500})
    log.deal({1: "5d 2b3b4b 6b7b8b 2d3d 7c8c9c 4c6c", 2: "5b5b 4d6d gdgdgd 1c2c ewew 3b 4c",
              3: "9d9d9d 5c6c7c 7d8d 3b4b 1d2d 5b", 4: "1b1b1b 9b9b9b 2c2c2c 4d 7b 6d 8c"})
    log.reserve("3d 3c")
    log.discard(1, "5d").claim(2, "5d", "4d6d").discard(2, "3b")
    log.draw(3, "3d")
    log.discard(3, "5b").claim(2, "5b", "5b5b", discard_first=False).discard(2, "4c")
    log.draw_discard(3)
    log.draw_discard(4)
    log.draw_discard(1)
    log.draw(2, "3c")
    log.declare(2, "mahjong")

    def check(s: dict[str, Any]) -> None:
        hand = s["hands"][0]
        assert hand["scores"] == {"1": 0, "2": 44, "3": 8, "4": 20}
        assert hand["net"] == {"1": -144, "2": 176, "3": -40, "4": 8}
        assert s["totals"] == hand["net"]

    return Scenario(log, hands=[("mahjong", 2)], check=check)


def example_b() -> Scenario:
    """RULES.md worked example B at the table (swedish): after a wind round of quick hands the
    prevailing wind is south; west wins with sw from the live wall: 3000 (the limit)."""
    log = Log("swedish")
    for dealer in (1, 2, 3, 4):  # each hand won by the seat after the dealer on the first discard
        log.new_hand()
        south, west, north = dealer % 4 + 1, (dealer + 1) % 4 + 1, (dealer + 2) % 4 + 1
        log.deal({dealer: "1b 4b 7b 1c 9c 1d 4d ew sw ww nw rd gd 8d",
                  south: "2c3c4c 5c6c7c 2d3d4d 5d6d7d 8d", west: JUNK[3], north: JUNK[4]})
        log.declare(south, "ready").discard(dealer, "8d").declare(south, "mahjong")
        log.move("8d", "discard", f"rack:{south}")
    log.new_hand()
    log.reserve("ww sw")
    log.deal({1: "8b 1b 4b 7b 1c 9c 1d 4d ew nw rd 9d 5c 6c",
              2: "2b 5b 9b 3c 4c 8c 2d 5d 8d ew nw rd wd",
              3: "ww ww ww 8b 8b gd gd sw sw 2c 2c 1c 3s",
              4: "gd 3b 6b 7c 9c 3d 6d 7d 9d ew nw rd wd"})
    log.move("3s", "rack:3", "melds:3").draw(3, "7b")
    log.discard(1, "8b").claim(3, "8b", "8b8b").discard(3, "1c")
    log.draw(4)
    log.discard(4, "gd").claim(3, "gd", "gdgd").discard(3, "7b")
    for seat in (4, 1, 2):
        log.draw_discard(seat)
    log.draw(3, "ww")
    for _ in range(4):
        log.move("ww", "rack:3", "melds:3")
    log.draw_discard(3)
    log.declare(3, "ready")
    for seat in (4, 1, 2):
        log.draw_discard(seat)
    log.draw(3, "sw")
    log.declare(3, "mahjong")

    def check(s: dict[str, Any]) -> None:
        last = s["hands"][-1]
        assert last["prevailing_wind"] == "south" and last["dealer"] == 1
        assert last["scores"]["3"] == 3000

    return Scenario(log, hands=[("mahjong", 2), ("mahjong", 3), ("mahjong", 4), ("mahjong", 1),
                                ("mahjong", 3)], check=check)


def claim_orders() -> Scenario:
    """Chows and pungs laid with the discard first and with the discard last."""
    log = Log()
    log.deal({1: "1b 4b 7b 1c 9c 1d 4d ew sw ww nw rd gd 5b",
              2: "4b 6b 2c 2c 7d 8d 9d 3c 3c 1d 9d wd wd",
              3: "7c 5d 6d 2b 3b 8b 9b 4c 6c 8c 3d ew sw",
              4: "7c 7c 1b 2b 3b 5c 6c 8c 9c 2d 3d ww nw"})
    log.reserve("2c")
    log.discard(1, "5b").claim(2, "5b", "4b6b", discard_first=False).discard(2, "9d")
    log.draw(3)
    log.discard(3, "7c").claim(4, "7c", "7c7c").discard(4, "nw")
    log.draw(1, "2c")
    log.discard(1, "2c").claim(2, "2c", "2c2c", discard_first=False).discard(2, "7d")
    log.claim(3, "7d", "5d6d").discard(3, "ew")

    def check(s: dict[str, Any]) -> None:
        assert s["state"] == {**s["state"], "hand_over": False, "turn": 4, "step": "draw"}

    return Scenario(log, hands=[(None, None)], check=check)


def bonus_chain() -> Scenario:
    """dmjl, 144 tiles: a bonus tile replaced by a bonus tile, one straight from the wall."""
    log = Log("dmjl")
    log.deal({1: "1b 4b 7b 1c 9c 1d 4d ew sw ww nw rd gd 9d",
              2: "2c3c4c 5c6c7c 2d3d4d 5d6d7d 1f",
              3: "2b 5b 8b 8c 8d ew sw ww nw rd gd wd",
              4: "2b 3b 5b 6b 8b 9b 1c 4c 9c 1d 4d 8d wd"})
    log.move("1f", "rack:2", "melds:2").draw(2, "2f")
    log.move("2f", "rack:2", "melds:2").draw(2, "3c")
    log.move("3s", "wall", "melds:3").draw(3, "3b")
    log.discard(1, "rd")
    log.move("4s", "wall", "rack:2")
    log.move("4s", "rack:2", "melds:2")
    log.draw(2, "9c")
    log.discard(2, "9c")
    log.draw_discard(3)
    return Scenario(log, hands=[(None, None)])


def kongs_and_robbing() -> Scenario:
    """Concealed kong, claimed kong (rack first), pung made kong, added kong robbed by east."""
    log = Log()
    log.deal({1: "9c9c9c9c 1c2c3c 4d5d6d ew ew 5c 5b",
              2: "5b 5b 5b 2d 1b 4b 7b 1d 9d sw ww nw rd",
              3: "2d 2d 2d 6c 3b 6b 9b 3d 7d 8d sw ww gd",
              4: "6c 6c 2b 3b 8b 2c 4c 8c 3d 7d nw rd gd"})
    log.reserve("7c 6c")
    for _ in range(4):
        log.move("9c", "rack:1", "melds:1")
    log.draw(1, "7c")
    log.discard(1, "5b").claim(2, "5b", "5b5b5b", discard_first=False)
    log.draw(2)
    log.discard(2, "2d").claim(3, "2d", "2d2d").move("2d", "rack:3", "melds:3")
    log.draw(3)
    log.discard(3, "6c").claim(4, "6c", "6c6c").discard(4, "rd")
    log.draw_discard(1, log.spare(avoid=["6c", "7c"]))
    log.draw_discard(2, log.spare(avoid=["6c"]))
    log.draw_discard(3, log.spare(avoid=["6c"]))
    log.draw(4, "6c")
    log.move("6c", "rack:4", "melds:4")
    log.declare(1, "mahjong")
    log.move("6c", "melds:4", "rack:1")

    def check(s: dict[str, Any]) -> None:
        assert s["hands"][0]["scores"]["1"] > 0

    return Scenario(log, hands=[("mahjong", 1)], check=check)


def washout() -> Scenario:
    """Nobody wins: the live wall runs out and the last discard goes to the river."""
    log = Log()
    log.deal(JUNK)
    log.discard(1, "rd")
    seat = 2
    for _ in range(122 - 53):
        log.draw_discard(seat)
        seat = seat % 4 + 1
    last = log.events[-1]["move"]["tile"]
    log.river(last)

    def check(s: dict[str, Any]) -> None:
        assert s["hands"][0]["net"] == {"1": 0, "2": 0, "3": 0, "4": 0}
        assert s["state"]["live_wall"] == 0 and s["state"]["dealer"] == 1

    return Scenario(log, hands=[("washout", None)], check=check)


def won_by_the_next_seat(log: Log, dealer: int) -> None:
    """A hand dealt by ``dealer`` whose first discard, 9d, the next seat takes for Mahjong."""
    log.new_hand()
    south, west, north = (dealer % 4 + 1, (dealer + 1) % 4 + 1, (dealer + 2) % 4 + 1)
    log.deal({dealer: JUNK[1], south: JUNK[2], west: JUNK[3], north: JUNK[4]})
    log.discard(dealer, "9d")
    log.declare(south, "mahjong")
    log.move("9d", "discard", f"rack:{south}")


def wind_round() -> Scenario:
    """Four hands, each won by the player after the dealer: the prevailing wind moves on."""
    log = Log()
    for dealer in (1, 2, 3, 4):
        won_by_the_next_seat(log, dealer)
        log.move("1c", f"rack:{dealer}", "wall")  # clearing the table changes nothing

    def check(s: dict[str, Any]) -> None:
        assert [h["dealer"] for h in s["hands"]] == [1, 2, 3, 4]
        assert s["state"]["prevailing_wind"] == "south" and s["state"]["dealer"] == 1
        for h in s["hands"]:
            assert sum(h["net"].values()) == 0
            assert h["scores"][str(h["winner"])] == 250  # earthly hand: half the limit

    return Scenario(log, hands=[("mahjong", 2), ("mahjong", 3), ("mahjong", 4), ("mahjong", 1)],
                    check=check)


def heavenly_hand() -> Scenario:
    """East is complete with the dealt tiles."""
    log = Log()
    log.deal({1: "1b2b3b 4b5b6b 7b8b9b 1c1c1c 9d9d", 2: JUNK[2], 3: JUNK[3], 4: JUNK[4]})
    log.declare(1, "mahjong")

    def check(s: dict[str, Any]) -> None:
        assert s["hands"][0]["scores"]["1"] == 500

    return Scenario(log, hands=[("mahjong", 1)], check=check)


def turn_violations() -> Scenario:
    """Draws and discards out of turn, missing tiles, a fifth copy, an incomplete Mahjong,
    a late claim; one put-back is in the log, one is left out."""
    sc = Scenario(Log(), hands=[(None, None)])
    log = sc.log
    log.deal(JUNK)
    log.discard(1, "rd")
    tile = log.draw(3)
    sc.bad("draw_out_of_turn")
    log.move(tile, "rack:3", "wall")
    log.out[tile] -= 1
    log.draw(2)
    log.discard(3, "8c")
    sc.bad("discard_out_of_turn")
    log.discard(2, "rd")
    sc.bad("tile_not_there")
    log.discard(2, "9d")
    log.draw(3, "wd")
    log.out["wd"] -= 1
    sc.bad("fifth_copy")
    log.draw(3)
    log.declare(3, "mahjong")
    sc.bad("mahjong_incomplete_hand")
    log.discard(3, "8c")  # the 8c comes from rack:3 where the game has it (put-back left out)
    log.draw(4)
    log.move("8c", "discard", "melds:2")
    sc.bad("claim_too_late")
    return sc


def claim_violations() -> Scenario:
    """Chow from the wrong seat, pair claim, outranked claim, kong on an exposed pung,
    a change to an exposed set."""
    sc = Scenario(Log(), hands=[(None, None)])
    log = sc.log
    log.deal({1: "1b 7b 1c 4c 7c 1d 4d 7d ew sw ww nw rd 5b",
              2: "3b 4b 2c 5c 8c 2d 5d 8d ew sw gd gd 9c",
              3: "4b 6b 5b 5b 9b 3c 6c 9c 3d 6d 9d ww wd",
              4: "5b 2b 8b 1c 3c 7c 8c 1d 2d 3d nw rd wd"})
    log.discard(1, "5b")
    log.move("4b", "rack:3", "melds:3")
    sc.bad("chow_not_from_previous")
    log.move("4b", "melds:3", "rack:3")
    log.move("5b", "discard", "melds:4")
    sc.bad("pair_claim_without_mahjong")
    log.move("5b", "melds:4", "discard")
    log.declare(2, "claim").declare(3, "claim")
    log.move("3b", "rack:2", "melds:2")
    sc.bad("claim_outranked")
    log.move("3b", "melds:2", "rack:2")
    log.claim(3, "5b", "5b5b").discard(3, "9b")
    log.draw(4)
    log.discard(4, "5b")
    log.move("5b", "discard", "melds:3")
    sc.bad("kong_claim_on_exposed_pung")
    log.move("5b", "melds:3", "discard")
    log.draw_discard(1)
    log.move("5b", "melds:3", "rack:3")
    sc.bad("exposed_set_changed")
    log.move("5b", "rack:3", "melds:3")
    return sc


def swedish_mahjong() -> Scenario:
    """swedish: Mahjong without a ready call, then without a doubling; then a valid one."""
    sc = Scenario(Log("swedish"), hands=[("mahjong", 3)])
    log = sc.log
    log.deal({1: "3b 1b 7b 1c 7c 1d 4d 7d ew sw ww nw rd wd",
              2: "2b 4b 3c4c5c 1d2d3d ewew 6d7d 9c",
              3: "1c2c3c 4c5c6c 7c8c9c 1d1d 6b7b",
              4: "2c 6c 8c 9b 8b 5b 6b 2d 8d 9d sw gd gd"})
    log.reserve("5d 8b")
    log.declare(3, "ready")
    log.discard(1, "3b").claim(2, "3b", "2b4b").discard(2, "9c")
    for seat in (3, 4):
        log.draw_discard(seat, log.spare(avoid=["5b", "8b", "5d", "8d"]))
    log.draw(1, "5d")
    log.discard(1, "5d")
    log.declare(2, "mahjong")
    sc.bad("mahjong_without_ready")
    log.declare(2, "ready")
    log.declare(2, "mahjong")
    sc.bad("mahjong_without_doubling")
    log.draw_discard(2, log.spare(avoid=["5b", "8b", "5d", "8d"]))
    log.draw(3, "8b")
    log.declare(3, "mahjong")
    return sc


def wrong_count() -> Scenario:
    """North is dealt 12 tiles: at east's first discard its hand is dead and its turns skipped."""
    sc = Scenario(Log("hua-bao", {"wrong_count": "dead_hand"}), hands=[(None, None)])
    log = sc.log
    log.deal({1: JUNK[1], 2: JUNK[2], 3: JUNK[3], 4: JUNK[4][:-3]})
    log.discard(1, "rd")
    sc.bad("wrong_tile_count")
    log.draw_discard(2)
    log.draw_discard(3)
    tile = log.draw(4)
    sc.bad("draw_out_of_turn")
    log.out[tile] -= 1
    log.draw_discard(1)

    def check(s: dict[str, Any]) -> None:
        assert s["state"]["turn"] == 2

    sc.check = check
    return sc


def contested_mahjong(tie: str) -> Scenario:
    """South and north both go Mahjong on east's 9d; who gets it depends on mahjong_tie."""
    sc = Scenario(Log("hua-bao", {"mahjong_tie": tie}))
    log = sc.log
    log.deal({1: "9d 1c 9c 1d 4b 5b 6b 7b 8b ew sw ww nw wd",
              2: "2c3c4c 5c6c7c 2d3d4d 5d6d7d 9d",
              3: "1c 8c 9c 6d 8d 9b 9b 3b ew sw ww nw wd",
              4: "gdgdgd rdrdrd 1b1b1b 2b3b4b 9d"})
    log.discard(1, "wd")
    for seat in (2, 3, 4):
        log.draw_discard(seat, log.spare(avoid=["9d"]))
    log.draw(1)
    log.discard(1, "9d")
    log.declare(4, "mahjong").declare(2, "mahjong")
    loser, winner = (4, 2) if tie == "turn_order" else (2, 4)
    log.move("9d", "discard", f"rack:{loser}")
    sc.bad("claim_outranked")
    log.move("9d", "discard", f"rack:{winner}")
    sc.hands = [("mahjong", winner)]
    return sc


def undo_and_corrections() -> Scenario:
    """undo with the physical put-back, a misread tile reassigned, the operator's washout."""
    sc = Scenario(Log(), hands=[("washout", None)])
    log = sc.log
    log.deal(JUNK)
    log.discard(1, "rd").undo(1)
    log.move("rd", "discard", "rack:1")  # the tile goes back physically: accepted, no change
    log.discard(1, "gd")
    log.draw(2, "9b")
    log.raw({"correct": {"reassign": {"zone": "rack:2", "tile": "9b", "as": "9c"}}})
    log.discard(2, "9c")
    log.raw({"correct": {"end_hand": "washout"}})
    return sc


def undo_identical_tiles() -> Scenario:
    """FORMATS.md "identical tiles": south's undone 5c still lies on the pad when east discards
    another 5c; ``5c discard -> river`` is east's discard going dead, and the put-back of
    south's 5c is still accepted after it."""
    sc = Scenario(Log(), hands=[(None, None)])
    log = sc.log
    log.reserve("5c 5c")
    log.deal(JUNK)
    log.discard(1, "rd").river("rd")
    log.draw(2)
    log.discard(2, "5c").undo(1)  # south's 5c stays on the pad: out of place, home rack:2
    log.discard(2, "9d").river("9d")
    for seat in (3, 4):
        log.river(log.draw_discard(seat))
    log.draw(1, "5c")
    log.discard(1, "5c")
    log.river("5c")  # east's 5c: the legal reading
    log.move("5c", "discard", "rack:2")  # south's undone 5c goes home at last
    log.draw_discard(2)
    return sc


def undo_after_clearing() -> Scenario:
    """The operator ends the hand as a washout, the players start clearing the table, then the
    operator takes the washout back: the cleared tiles are out of place until put back from
    the wall, and play goes on to the next discards."""
    sc = Scenario(Log(), hands=[("washout", None)])
    log = sc.log
    log.deal(JUNK)
    log.discard(1, "rd").river("rd")
    log.draw(2)
    log.discard(2, "9d")
    log.raw({"correct": {"end_hand": "washout"}})
    for tile in ("1b", "4b", "7b"):
        log.move(tile, "rack:1", "wall")
    log.move("9d", "discard", "wall").move("rd", "river", "wall")
    log.undo(1)
    for tile in ("1b", "4b", "7b"):  # the put-backs (raw: the wall count stays as it is)
        log.raw({"move": {"tile": tile, "from": "wall", "to": "rack:1"}})
    log.raw({"move": {"tile": "9d", "from": "wall", "to": "discard"}})
    log.river("9d")
    log.draw_discard(3)
    log.raw({"correct": {"end_hand": "washout"}})
    return sc


def dmjl_win_on_a_kong_replacement(second_kong: bool) -> Log:
    """dmjl: east declares a concealed kong of 1b and wins on the replacement 9d; with
    ``second_kong`` the first replacement is 7b, making a second kong, and the next one is 9d."""
    log = Log("dmjl")
    log.reserve("7b 9d")
    log.deal({1: "1b1b1b1b 7b7b7b 3c4c5c 6d7d8d 9d", 2: JUNK[2][:-2] + "ew",
              3: JUNK[3], 4: JUNK[4]})
    for _ in range(4):
        log.move("1b", "rack:1", "melds:1")
    if second_kong:
        log.draw(1, "7b")
        for _ in range(4):
            log.move("7b", "rack:1", "melds:1")
    log.draw(1, "9d")
    log.declare(1, "mahjong")
    return log


SCENARIOS: dict[str, Callable[[], Scenario]] = {
    "example_a": example_a,
    "example_b": example_b,
    "claim_orders": claim_orders,
    "bonus_chain": bonus_chain,
    "kongs_and_robbing": kongs_and_robbing,
    "washout": washout,
    "wind_round": wind_round,
    "heavenly_hand": heavenly_hand,
    "turn_violations": turn_violations,
    "claim_violations": claim_violations,
    "swedish_mahjong": swedish_mahjong,
    "wrong_count": wrong_count,
    "mahjong_tie_turn_order": lambda: contested_mahjong("turn_order"),
    "mahjong_tie_highest_value": lambda: contested_mahjong("highest_value"),
    "undo_and_corrections": undo_and_corrections,
    "undo_identical_tiles": undo_identical_tiles,
    "undo_after_clearing": undo_after_clearing,
}


def write_all() -> None:
    LOGS.mkdir(exist_ok=True)
    for name, build in SCENARIOS.items():
        (LOGS / f"{name}.jsonl").write_text(build().log.jsonl(), encoding="utf-8")


if __name__ == "__main__":
    write_all()
    sys.exit(0)
