"""Helpers for the scoring tests: hands written in the people's notation."""

from __future__ import annotations

from typing import Any

from controller.scoring import HandInput, ScoreResult, score_hand
from controller.tiles import parse_hand


def play(
    ruleset: str,
    text: str,
    won: str | None = "wall",
    tile: str | None = None,
    seat: str = "south",
    prevailing: str = "east",
    options: dict[str, Any] | None = None,
    **kw: Any,
) -> ScoreResult:
    """Score ``text`` (``[..]`` exposed, ``{..}`` concealed kong); ``won`` None: not the winner.
    The winning tile is the last concealed tile written unless ``tile`` is given."""
    h = parse_hand(text)
    opts = dict(options or {})
    if h.bonus and ruleset == "hua-bao":
        opts.setdefault("bonus_tiles", True)
    mahjong = won is not None
    if mahjong and tile is None:
        tile = h.concealed[-1]
    return score_hand(
        HandInput(
            ruleset, seat, prevailing, h.melds, h.concealed, h.bonus, mahjong,
            tile if mahjong else None, won, options=opts, **kw,
        )
    )


def names(result: ScoreResult) -> list[str]:
    return [i.name for i in result.items]
