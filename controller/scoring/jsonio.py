"""The JSON forms of FORMATS.md: a ``score`` input object -> HandInput, a ``settle`` input ->
its parts. Wrong types and unknown fields raise ScoringError naming the field."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from controller.scoring.model import HandInput, ScoringError, Settlement
from controller.scoring.rules import RuleSet
from controller.scoring.rulesets import get_ruleset
from controller.scoring.settlement import settle
from controller.tiles import Meld

SCORE_FIELDS = (
    "ruleset", "options", "seat_wind", "prevailing_wind", "melds", "hand", "bonus", "mahjong",
    "winning_tile", "win_source", "last_tile", "first_discard", "flags",
)
_REQUIRED = ("ruleset", "seat_wind", "prevailing_wind", "hand", "mahjong")


def _list_of_str(obj: Mapping[str, Any], key: str) -> list[str]:
    value = obj.get(key)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise ScoringError(f"field {key!r} must be a list of tile codes (strings), not {value!r}")
    return value


def _opt_bool(obj: Mapping[str, Any], key: str) -> bool:
    value = obj.get(key)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ScoringError(f"field {key!r} must be true or false, not {value!r}")
    return value


def _melds(obj: Mapping[str, Any]) -> list[Meld]:
    value = obj.get("melds")
    if value is None:
        return []
    if not isinstance(value, list):
        raise ScoringError(f"field 'melds' must be a list of sets, not {value!r}")
    out = []
    for i, m in enumerate(value, 1):
        if not isinstance(m, dict) or set(m) - {"tiles", "concealed"} or "tiles" not in m:
            raise ScoringError(
                f"meld {i} must be an object {{\"tiles\": [...], \"concealed\": false}}, not {m!r}"
            )
        tiles = _list_of_str(m, "tiles")
        out.append(Meld(tuple(tiles), _opt_bool(m, "concealed")))
    return out


_RULESETS: dict[tuple[str, str], RuleSet] = {}


def _ruleset(name: Any, options: Any) -> RuleSet:
    """get_ruleset(name, options), made once per name and options (some 25 µs each): the lines
    of a batch name a few. A RuleSet is not changed once made; a bad one raises each time."""
    if not isinstance(name, str):
        return get_ruleset(name, options)
    try:
        key = (name, "" if options is None else json.dumps(options, sort_keys=True))
    except (TypeError, ValueError):  # not JSON's values: made each time, get_ruleset judges
        return get_ruleset(name, options)
    rs = _RULESETS.get(key)
    if rs is None:
        if len(_RULESETS) >= 64:  # many different options: keep the memo small
            _RULESETS.clear()
        rs = _RULESETS[key] = get_ruleset(name, options)
    return rs


def hand_input(obj: Any) -> HandInput:
    """The ``score`` input object as a HandInput (values are checked later by the scorer)."""
    if not isinstance(obj, dict):
        raise ScoringError(f"the input must be a JSON object, not {type(obj).__name__}")
    unknown = [k for k in obj if k not in SCORE_FIELDS]
    if unknown:
        known = ", ".join(SCORE_FIELDS)
        raise ScoringError(f"unknown field {unknown[0]!r}: the fields are {known}")
    missing = [k for k in _REQUIRED if obj.get(k) is None]
    if missing:
        raise ScoringError(f"field {missing[0]!r} is missing")
    for key in ("ruleset", "seat_wind", "prevailing_wind", "winning_tile", "win_source"):
        if obj.get(key) is not None and not isinstance(obj[key], str):
            raise ScoringError(f"field {key!r} must be a string, not {obj[key]!r}")
    if not isinstance(obj["mahjong"], bool):
        raise ScoringError(f"field 'mahjong' must be true or false, not {obj['mahjong']!r}")
    return HandInput(
        ruleset=_ruleset(obj["ruleset"], obj.get("options")),
        seat_wind=obj["seat_wind"],
        prevailing_wind=obj["prevailing_wind"],
        melds=_melds(obj),
        hand=_list_of_str(obj, "hand"),
        bonus=_list_of_str(obj, "bonus"),
        mahjong=obj["mahjong"],
        winning_tile=obj.get("winning_tile"),
        win_source=obj.get("win_source"),
        last_tile=_opt_bool(obj, "last_tile"),
        first_discard=_opt_bool(obj, "first_discard"),
        flags=_list_of_str(obj, "flags"),
    )


def settle_json(obj: Any) -> Settlement[str]:
    """Run the ``settle`` input object: ruleset, options, dealer, winner (null: washout), scores."""
    if not isinstance(obj, dict):
        raise ScoringError(f"the input must be a JSON object, not {type(obj).__name__}")
    fields = ("ruleset", "options", "dealer", "winner", "scores", "discarder")
    unknown = [k for k in obj if k not in fields]
    if unknown:
        raise ScoringError(f"unknown field {unknown[0]!r}: the fields are {', '.join(fields)}")
    for key in ("ruleset", "dealer", "scores"):
        if obj.get(key) is None:
            raise ScoringError(f"field {key!r} is missing")
    if "winner" not in obj:
        raise ScoringError("field 'winner' is missing (null for a washout)")
    for key in ("dealer", "winner", "discarder"):
        if key == "discarder" and obj.get(key) is None:
            continue
        if obj[key] is not None and not isinstance(obj[key], str):
            raise ScoringError(f"field {key!r} must name a player (a string), not {obj[key]!r}")
    rs: RuleSet = get_ruleset(obj["ruleset"], obj.get("options"))
    scores = obj["scores"]
    if not isinstance(scores, dict):
        raise ScoringError(f"field 'scores' must map each player to a score, not {scores!r}")
    return settle(rs, obj["dealer"], obj["winner"], scores, obj.get("discarder"))
