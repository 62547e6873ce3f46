"""A seat's own riichi facts in its view (issue 29), written from RULES.md section 11: riichi
with a closed hand that waits after the discard, furiten when a wait lies among the seat's own
discards, a ron only on a wait with a yaku, a tsumo on a drawn tile that completes the hand."""

from __future__ import annotations

from controller.game import replay, seat_view
from tests.game.test_riichi_rules import _log

#: West waits on 4d/7d with a pure straight (ittsu): a yaku on any win
WEST_ITTSU = "1b2b3b 4b5b6b 7b8b9b 5d6d gdgd"
#: South waits on 3b/6b with no yaku (RULES.md: no ron without one)
SOUTH_NO_YAKU = "1c2c3c 7d8d9d 1b1b1b 4b5b ewew"


def _riichi(log: object, pos: int) -> dict[str, object]:
    return seat_view(replay(log.events)[0], pos)["riichi"]  # type: ignore[attr-defined]


def test_the_dealers_riichi_declared_then_standing() -> None:
    own = _riichi(_log(), 1)  # East: 14 tiles, closed, 1d/4d after the nw
    assert own["tsumo"] is False and own["drawn"] is None
    # the dealer may declare riichi with its first discard (RULES.md 11): the view says so
    assert own["can_riichi"] is True and "nw" in own["riichi_discards"]
    assert own["in_riichi"] is False and own["declared"] is False and own["dead"] is False
    assert own["furiten"] is False and own["ron_on"] == [] and own["no_yaku"] == []
    declared = _riichi(_log().declare(1, "ready"), 1)
    assert declared["declared"] is True and declared["in_riichi"] is False
    after = _riichi(_log().declare(1, "ready").discard(1, "nw"), 1)
    assert after["in_riichi"] is True and after["can_riichi"] is False
    assert after["riichi_discards"] == [] and after["furiten"] is False


def test_a_wait_on_the_pad_is_a_ron_with_a_yaku_and_none_without() -> None:
    log = _log(west=WEST_ITTSU).discard(1, "nw")
    log.draw(2, "4d")
    log.discard(2, "4d")
    west = _riichi(log, 3)
    assert west["ron_on"] == ["4d"] and west["no_yaku"] == []
    # the wait lies on the pad, not passed: no furiten yet (RULES.md 11), and the ron stands
    assert west["furiten"] is False
    assert _riichi(log, 4)["ron_on"] == []  # North does not wait on it
    log = _log(south=SOUTH_NO_YAKU).discard(1, "nw")
    log.draw(2, "2c")
    log.discard(2, "2c")
    log.draw(3, "3b")
    log.discard(3, "3b")
    south = _riichi(log, 2)
    assert south["ron_on"] == [] and south["no_yaku"] == ["3b"]


def test_a_wait_among_the_seats_own_discards_is_furiten() -> None:
    log = _log(west=WEST_ITTSU).discard(1, "nw")
    log.draw(2, "1c")
    log.discard(2, "1c")
    log.draw(3, "7d")
    log.discard(3, "7d")
    west = _riichi(log, 3)
    assert west["furiten"] is True
    assert _riichi(log, 4)["furiten"] is False


def test_a_drawn_tile_that_completes_the_hand_is_a_tsumo() -> None:
    log = _log(west=WEST_ITTSU).discard(1, "nw")
    log.draw(2, "1c")
    log.discard(2, "1c")
    log.draw(3, "4d")
    west = _riichi(log, 3)
    assert west["tsumo"] is True and west["drawn"] == "4d"
    assert west["kuikae"] == []
    log = _log(west=WEST_ITTSU).discard(1, "nw")
    log.draw(2, "1c")
    log.discard(2, "1c")
    log.draw(3, "9c")
    west = _riichi(log, 3)
    assert west["tsumo"] is False and west["drawn"] == "9c"
    assert "9c" in west["riichi_discards"] and west["can_riichi"] is True
