"""Each riichi refusal names its rule, the seat that broke it and, in words, that seat's wind
(RULES.md section 2: with seat 1 dealing, seat 1 is East and seat 2 South) and what was refused
(RULES.md section 11: riichi only with a concealed hand waiting, with a discard that keeps the
wait, and the hand locked after it)."""

from __future__ import annotations

from typing import Any

from tests.game.test_riichi_rules import _last, _log


def _refusal(out: Any) -> tuple[str, int | None, str]:
    assert not out.accepted and out.violation is not None
    return out.violation.rule, out.violation.seat, out.violation.message


def test_a_riichi_discard_off_the_wait_and_a_changed_locked_hand_are_east_s() -> None:
    rule, seat, message = _refusal(_last(_log().declare(1, "ready").discard(1, "2d"))[1])
    assert (rule, seat) == ("riichi_not_ready", 1) and "East's hand not waiting" in message
    log = _log().declare(1, "ready").discard(1, "nw")
    for s, tile in ((2, "1c"), (3, "2c"), (4, "3c")):
        log.draw(s, tile)
        log.discard(s, tile)
    log.draw(1, "9c")
    rule, seat, message = _refusal(_last(log.discard(1, "5b"))[1])
    assert (rule, seat) == ("riichi_hand_changed", 1) and "East" in message
