"""GET /api/tiles: the tile codes in their order and their names, for the pages (the one source
of truth is ``controller.tiles``; the pages do not keep a copy)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from controller import tiles

router = APIRouter(tags=["tiles"])


@router.get("/api/tiles")
def tile_set() -> dict[str, Any]:
    """``order``: every code as hands are sorted (suits, winds, dragons, flowers, seasons);
    ``names``: each code in words; ``groups``: the codes by kind, for a tile picker."""
    return {
        "order": list(tiles.ALL_CODES),
        "names": {code: tiles.tile_name(code) for code in tiles.ALL_CODES},
        "groups": {
            "bamboo": [f"{n}b" for n in range(1, 10)],
            "characters": [f"{n}c" for n in range(1, 10)],
            "dots": [f"{n}d" for n in range(1, 10)],
            "winds": list(tiles.WIND_CODES),
            "dragons": list(tiles.DRAGON_CODES),
            "flowers": list(tiles.FLOWERS),
            "seasons": list(tiles.SEASONS),
        },
    }


@router.get("/api/rulesets")
def rule_sets() -> dict[str, Any]:
    """The rule sets the table plays, each with the options a new session may set and their
    defaults (the operator's new-session form is made from them)."""
    from controller.scoring.rulesets import PLAYABLE, RULESETS
    from controller.scoring.rulesets.riichi import OFFERED

    def offered(name: str) -> dict[str, Any]:
        # riichi: RULES.md 11's options only, not the others' that it fixes (and refuses)
        options = RULESETS[name].options
        keys = OFFERED if name == "riichi" else tuple(options)
        return {k: options[k].default for k in keys}

    return {"rulesets": {name: {"options": offered(name)} for name in PLAYABLE}}
