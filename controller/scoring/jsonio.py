"""The JSON forms of FORMATS.md: a ``score`` input object -> HandInput, a ``settle`` input ->
its parts. Wrong types and unknown fields raise ScoringError naming the field."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from controller.scoring.model import HandInput, ScoringError, Settlement
from controller.scoring.rules import RuleSet
from controller.scoring.rulesets import get_ruleset
from controller.scoring.settlement import settle
from controller.tiles import Meld

if TYPE_CHECKING:  # riichi's settlement is imported when a riichi settle is read, not for score
    from controller.scoring.riichi.settle import Winner

SCORE_FIELDS = (
    "ruleset", "options", "seat_wind", "prevailing_wind", "melds", "hand", "bonus", "mahjong",
    "winning_tile", "win_source", "last_tile", "first_discard", "flags",
    "dora_indicators", "ura_dora_indicators", "honba",
)
#: the fields only rule set riichi reads (FORMATS.md)
RIICHI_FIELDS = ("dora_indicators", "ura_dora_indicators", "honba")
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
    rs = _ruleset(obj["ruleset"], obj.get("options"))
    extra = [k for k in RIICHI_FIELDS if k in obj and rs.name != "riichi"]
    if extra:
        raise ScoringError(f"field {extra[0]!r} is for rule set riichi only")
    return HandInput(
        ruleset=rs,
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
        dora_indicators=_list_of_str(obj, "dora_indicators"),
        ura_dora_indicators=_list_of_str(obj, "ura_dora_indicators"),
        honba=0 if obj.get("honba") is None else obj["honba"],
    )


def settle_json(obj: Any) -> Settlement[str]:
    """Run the ``settle`` input object: ruleset, options, dealer, winner (null: washout), scores."""
    if not isinstance(obj, dict):
        raise ScoringError(f"the input must be a JSON object, not {type(obj).__name__}")
    if obj.get("ruleset") == "riichi":
        return riichi_settle_json(obj)
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


RIICHI_SETTLE_FIELDS = ("ruleset", "options", "dealer", "discarder", "winners", "honba",
                        "riichi_sticks", "riichi", "tenpai")
_WINNER_FIELDS = ("seat", "doubles", "points", "limit_hand", "pao", "nagashi")


def _count(obj: Mapping[str, Any], key: str, default: int = 0) -> int:
    value = obj.get(key, default)
    if value is None:
        value = default
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ScoringError(f"field {key!r} must be a whole number >= 0, not {value!r}")
    return value


def _seat_or_null(obj: Mapping[str, Any], key: str) -> str | None:
    value = obj.get(key)
    if value is not None and not isinstance(value, str):
        raise ScoringError(f"field {key!r} must name a seat (a string) or be null, not {value!r}")
    return value


def _winner(i: int, w: Any) -> Winner:
    from controller.scoring.riichi.settle import Winner

    if not isinstance(w, dict) or "seat" not in w:
        raise ScoringError(f"winner {i} must be an object with seat, doubles, points, "
                           f"limit_hand, pao, not {w!r}")
    unknown = [k for k in w if k not in _WINNER_FIELDS]
    if unknown:
        raise ScoringError(f"winner {i}: unknown field {unknown[0]!r}: the fields are "
                           + ", ".join(_WINNER_FIELDS))
    limit = w.get("limit_hand")
    if limit is not None and not isinstance(limit, str):
        raise ScoringError(f"winner {i}: limit_hand must be null or a limit's name")
    nagashi = _opt_bool(w, "nagashi")
    if nagashi:
        limit = limit or "mangan"
    if limit is None and (_count(w, "doubles") < 1 or _count(w, "points") < 20):
        raise ScoringError(f"winner {i}: doubles (han) must be >= 1 and points (fu) >= 20")
    return Winner(str(_seat_or_null(w, "seat")), _count(w, "doubles"), _count(w, "points"),
                  limit, _seat_or_null(w, "pao"), nagashi)


def _seats(obj: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = obj.get(key) or []
    if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
        raise ScoringError(f"field {key!r} must be a list of seats, not {value!r}")
    return tuple(value)


def riichi_settle_json(obj: Mapping[str, Any]) -> Settlement[str]:
    """FORMATS.md's riichi ``settle``: the winners' han, fu and limits, what lies on the table."""
    unknown = [k for k in obj if k not in RIICHI_SETTLE_FIELDS]
    if unknown:
        raise ScoringError(f"unknown field {unknown[0]!r} for riichi: the fields are "
                           + ", ".join(RIICHI_SETTLE_FIELDS))
    if obj.get("dealer") is None:
        raise ScoringError("field 'dealer' is missing")
    if not isinstance(obj.get("winners"), list):
        raise ScoringError("field 'winners' must be a list (empty for an exhaustive draw)")
    from controller.scoring.riichi.settle import Table, settle_riichi

    rs = get_ruleset("riichi", obj.get("options"))
    winners = [_winner(i, w) for i, w in enumerate(obj["winners"], 1)]
    table = Table(_count(obj, "honba"), _count(obj, "riichi_sticks"), _seats(obj, "riichi"),
                  _seats(obj, "tenpai"))
    return settle_riichi(rs, str(_seat_or_null(obj, "dealer")),
                         _seat_or_null(obj, "discarder"), winners, table)
