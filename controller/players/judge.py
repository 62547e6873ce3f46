"""Whether a bot may go Mahjong: the scorer decides completeness and swedish's minimum doubling.

A bot only ever declares what this module allows, so the engine never has to refuse a bot's
Mahjong (``mahjong_incomplete_hand``, ``mahjong_without_ready``, ``mahjong_without_doubling``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from controller.players.hand_eval import shanten, to_counts
from controller.scoring import (
    HandInput,
    RuleSet,
    ScoreResult,
    ScoringError,
    is_complete,
    score_hand,
)
from controller.scoring.rulesets.mcr import MINIMUM_FANS
from controller.tiles import Meld, Tile, is_bonus, is_terminal_or_honour


def view_melds(seat: Mapping[str, Any]) -> list[Meld]:
    """The seat's sets on the table as scorer melds."""
    return [Meld(tuple(m["tiles"]), bool(m.get("concealed"))) for m in seat.get("melds", [])]


def _maybe_complete(concealed: Sequence[Tile], melds: Sequence[Meld]) -> bool:
    """A cheap pre-check so the scorer is asked only about hands that might be complete."""
    counts = to_counts(concealed)
    if shanten(counts, len(melds), seven_pairs=True) < 0:
        return True
    # Thirteen orphans: 14 terminals and honours with no sets on the table.
    return not melds and all(is_terminal_or_honour(t) for t in concealed)


def complete(concealed: Sequence[Tile], melds: Sequence[Meld], ruleset: RuleSet) -> bool:
    """True when the concealed tiles and the melds form a complete hand in this rule set."""
    if not _maybe_complete(concealed, melds):
        return False
    try:
        return is_complete(list(concealed), list(melds), ruleset)
    except ScoringError:
        return False


def _score(
    ruleset: RuleSet, seat_view: Mapping[str, Any], concealed: Sequence[Tile], winning_tile: Tile,
    win_source: str,
) -> ScoreResult | None:
    table = seat_view.get("table", {})
    hand = table.get("hand") or {}
    try:
        return score_hand(
            HandInput(
                ruleset=ruleset,
                seat_wind=seat_view["wind"],
                prevailing_wind=hand.get("prevailing_wind", "east"),
                melds=view_melds(seat_view),
                hand=list(concealed),
                bonus=list(seat_view.get("bonus", [])),
                mahjong=True,
                winning_tile=winning_tile,
                win_source=win_source,
                last_tile=hand.get("live_wall") == 0 and win_source == "wall",
            )
        )
    except ScoringError:
        return None


def may_go_mahjong(
    ruleset: RuleSet,
    seat_view: Mapping[str, Any],
    concealed: Sequence[Tile],
    winning_tile: Tile,
    win_source: str,
) -> bool:
    """Whether declaring Mahjong with these concealed tiles (winning tile included) is legal."""
    concealed = [t for t in concealed if not is_bonus(t)]
    if ruleset.name == "mcr":  # the scorer knows mcr's shapes and counts its fans
        # a replacement may follow a bonus tile: count it as drawn (never more than the engine)
        source = "wall" if win_source == "replacement" else win_source
        result = _score(ruleset, seat_view, concealed, winning_tile, source)
        fans = 0 if result is None else result.points - len(seat_view.get("bonus", []))
        return fans >= MINIMUM_FANS
    if not complete(concealed, view_melds(seat_view), ruleset):
        return False
    if not ruleset.requires_ready:
        return True
    if not seat_view.get("ready"):
        return False
    result = _score(ruleset, seat_view, concealed, winning_tile, win_source)
    return result is not None and result.combination_doubles > 0


def mahjong_value(
    ruleset: RuleSet,
    seat_view: Mapping[str, Any],
    concealed: Sequence[Tile],
    winning_tile: Tile,
    win_source: str,
) -> int:
    """What the Mahjong would score (for a contested Mahjong under ``highest_value``)."""
    concealed = [t for t in concealed if not is_bonus(t)]
    result = _score(ruleset, seat_view, concealed, winning_tile, win_source)
    return 0 if result is None else result.score
