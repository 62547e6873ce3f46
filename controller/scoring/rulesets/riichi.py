"""Rule set ``riichi`` (RULES.md section 11: the EMA's Riichi Competition Rules, with the options
other clubs play); the yaku are in controller.scoring.riichi."""

from __future__ import annotations

from typing import Any

from controller.scoring.model import ScoringError
from controller.scoring.rules import Option, RuleSetSpec, check_bool, check_choice

#: the points every player starts a hanchan with, and a riichi deposit
START_POINTS = 30_000
RIICHI_DEPOSIT = 1_000


def _not_riichi(default: Any) -> Any:
    """The options of the other rule sets that mean nothing in riichi: an error, not ignored
    (their default passes: a session's resolved options name it)."""

    def check(key: str, value: Any) -> Any:
        if value != default:
            raise ScoringError(
                f"option {key!r} does not apply to rule set riichi (RULES.md section 11)")
        return default

    return check


def _no_bonus(key: str, value: Any) -> bool:
    if value is not False:
        raise ScoringError("rule set riichi is played with 136 tiles: bonus_tiles must be false")
    return False


def _wind_pair_fu(key: str, value: Any) -> int:
    if value not in (2, 4) or isinstance(value, bool):
        raise ScoringError(f"option {key!r} must be 4 or 2, not {value!r}")
    return int(value)


OPTIONS: dict[str, Option] = {
    # what the scorer reads (FORMATS.md: the riichi options of `score`)
    "kazoe": Option("sanbaiman", check_choice("sanbaiman", "yakuman")),
    "double_yakuman": Option(False, check_bool),
    "multiple_yakuman": Option(False, check_bool),
    "renhou": Option("mangan", check_choice("mangan", "yakuman", "off")),
    "kiriage": Option(False, check_bool),
    "double_wind_pair_fu": Option(4, _wind_pair_fu),
    # what the game and the settlement read
    "multiple_ron": Option("all", check_choice("all", "head_bump")),
    "kuikae_allowed": Option(False, check_bool),
    "abortive_draws": Option(False, check_bool),
    "nagashi_mangan": Option(False, check_bool),
    "pao": Option(True, check_bool),
    # the options every rule set has, as riichi fixes them
    "bonus_tiles": Option(False, _no_bonus),
    "wrong_count": Option("dead_hand", check_choice("dead_hand", "repair")),
    "mahjong_tie": Option("turn_order", check_choice("turn_order")),
    "limit": Option(8000, _not_riichi(8000)),
    "limit_hands": Option({}, _not_riichi({})),
}

#: the options RULES.md 11 gives riichi, the ones a new session's form offers (the operator
#: page); the others below are the ones every rule set has, as riichi fixes them (a log or the
#: API may still name them: wrong_count's repair is a table's choice, not the rule book's)
OFFERED = ("kazoe", "double_yakuman", "multiple_yakuman", "renhou", "kiriage",
           "double_wind_pair_fu", "multiple_ron", "kuikae_allowed", "abortive_draws",
           "nagashi_mangan", "pao")

SPEC = RuleSetSpec(
    name="riichi",
    rules=(),
    options=OPTIONS,
    settlement="riichi",
    specials=frozenset({"seven_pairs", "thirteen_orphans"}),
    notes="han and fu: scored by controller.scoring.riichi",
    playable=True,
)
