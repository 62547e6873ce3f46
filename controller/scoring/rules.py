"""What a rule set is made of: Rule (one line of a score table) and RuleSet (rules plus options).

A rule set module lists its Rules as data; the engine in ``engine.py`` applies any of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any, Literal

from controller.scoring.model import ScoringError
from controller.scoring.special import SpecialHand, special_hands

if TYPE_CHECKING:
    from controller.scoring.view import HandView, Shape, Situation

#: What a pattern answers: the tiles each occurrence is for (one tuple per occurrence).
Hit = list[tuple[str, ...]]
#: How much of a hand a pattern looks at (see Pattern.scope).
Scope = Literal["view", "group", "hand"]


@dataclass(frozen=True, slots=True)
class Pattern:
    """A hand pattern and what the engine may know of it without calling it.

    ``fn`` answers the tiles each occurrence is for (empty: none). The other fields are made by
    the pattern helpers (patterns.py) and read once, when a rule table is compiled (tally.py):

    - ``gate``: a necessary condition over the hand's Situation (never tried when it fails);
    - ``shape_gate``: a necessary condition over an arrangement's Shape;
    - ``one_hit``: once its gates pass, the pattern answers exactly one occurrence;
    - ``scope``: ``view`` (one arrangement), ``group`` (one set or pair and the winds: the same
      answer wherever the group appears) or ``hand`` (the HandFacts only);
    - ``test``: one occurrence exactly when ``test`` passes (the scorer need not make tiles);
    - ``needs_waits``: it looks at how many kinds the winner waited on;
    - ``needs_calling``: it looks at what a non-winner's hand was calling for (bmja).
    """

    fn: Callable[[HandView], Hit]
    gate: Callable[[Situation], bool] | None = None
    shape_gate: Callable[[Shape], bool] | None = None
    one_hit: bool = False
    scope: Scope = "view"
    test: Callable[[HandView], bool] | None = None
    needs_waits: bool = False
    needs_calling: bool = False

    def __call__(self, view: HandView) -> Hit:
        return self.fn(view)


PATTERN_FIELDS = frozenset(f.name for f in fields(Pattern))


def with_meta(pattern: Pattern, **meta: Any) -> Pattern:
    """``pattern`` with some of its metadata changed; an unknown field is an error at once."""
    unknown = set(meta) - PATTERN_FIELDS
    if unknown:
        raise ValueError(f"unknown pattern field(s) {', '.join(sorted(unknown))}: the fields are "
                         + ", ".join(sorted(PATTERN_FIELDS)))
    return replace(pattern, **meta)


@dataclass(frozen=True)
class Rule:
    """One scoring item: base points (an int, or the name of the option that holds them),
    doublings, or a limit (its value in limits; ``key`` is its name in ``limit_hands``)."""

    name: str
    when: Pattern
    points: int | str = 0
    doubles: int = 0
    limit: float = 0.0
    key: str | None = None
    winner_only: bool = False
    bonus: bool = False  # a bonus doubling: does not count as a combination doubling


def winner(rule: Rule) -> Rule:
    """The same rule, for the winner only."""
    return Rule(
        rule.name, rule.when, rule.points, rule.doubles, rule.limit, rule.key, True, rule.bonus
    )


@dataclass(frozen=True)
class Option:
    """A rule-set option: its default and a check that returns the value or raises."""

    default: Any
    check: Callable[[str, Any], Any]


@dataclass(frozen=True)
class RuleSetSpec:
    """A rule set as its module declares it."""

    name: str
    rules: tuple[Rule, ...]
    options: Mapping[str, Option]
    settlement: str  # "winner_paid" (hua-bao, dmjl) or "pairwise" (swedish)
    specials: frozenset[str] = frozenset()  # names of special.SPECIAL_HANDS it counts complete
    requires_ready: bool = False
    notes: str = ""
    #: a non-winner's concealed tiles may hold any number of pairs, each scored (dmjl, bmja)
    loser_pairs: bool = False
    #: the most chows a complete standard hand holds, melds included (bmja: 1); None: any
    max_chows: int | None = None
    #: the game plays it (sessions, `serve`, `simulate`, `replay`); False: scored and settled
    #: only (riichi, until the game knows its play: docs/scoring.md)
    playable: bool = True

    def __post_init__(self) -> None:
        for rule in self.rules:
            check_pattern(self.name, rule)
        special_hands(self.specials)  # an unknown special hand is an error here


def check_pattern(ruleset: str, rule: Rule) -> Pattern:
    """A rule's pattern as a Pattern record; ValueError for anything else, or for metadata the
    engine cannot honour (a gated per-group item: its answer is kept per group and winds)."""
    p = rule.when
    if not isinstance(p, Pattern):
        raise ValueError(f"rule {rule.name!r} of {ruleset}: its pattern {p!r} is not a "
                         "Pattern (make it with the helpers of patterns.py)")
    if p.scope == "group" and p.gate is not None:
        raise ValueError(f"rule {rule.name!r} of {ruleset}: a per-group item cannot be gated "
                         "(its answer is kept per group and winds)")
    return p


@dataclass(frozen=True)
class RuleSet:
    """A rule set with its options resolved; what get_ruleset() returns.

    The values the scorer reads for every hand (name, cache_key, specials, max_chows,
    special_hands, needs_waits, needs_calling) are worked out once, when the rule set is made,
    and kept as plain attributes: an attribute behind a property or a cached_property costs
    five times as much to read on CPython 3.11, and a score reads a dozen of them."""

    spec: RuleSetSpec
    options: dict[str, Any] = field(default_factory=dict)
    name: str = field(init=False, repr=False, compare=False)
    #: the rule set's name and options, for caches of what they decide
    cache_key: tuple[str, str] = field(init=False, repr=False, compare=False)
    specials: frozenset[str] = field(init=False, repr=False, compare=False)
    #: the most chows a complete standard hand holds (bmja); None: any
    max_chows: int | None = field(init=False, repr=False, compare=False)
    #: the rule set's special hands from special.SPECIAL_HANDS, in that table's order
    special_hands: tuple[SpecialHand, ...] = field(init=False, repr=False, compare=False)
    #: whether any item looks at how many tile kinds the winner waited on
    needs_waits: bool = field(init=False, repr=False, compare=False)
    #: whether any item looks at what a non-winner's hand was calling for
    needs_calling: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        spec = self.spec
        derived = {
            "name": spec.name,
            "cache_key": (spec.name, repr(sorted(self.options.items()))),
            "specials": spec.specials,
            "max_chows": spec.max_chows,
            "special_hands": special_hands(spec.specials),
            "needs_waits": any(r.when.needs_waits for r in spec.rules),
            "needs_calling": any(r.when.needs_calling for r in spec.rules),
        }
        for key, value in derived.items():
            object.__setattr__(self, key, value)  # frozen: set once, here

    @property
    def rules(self) -> tuple[Rule, ...]:
        return self.spec.rules

    @property
    def bonus_tiles(self) -> bool:
        return bool(self.options["bonus_tiles"])

    @property
    def limit(self) -> int:
        """The limit in points (what a limit hand scores)."""
        return int(self.options["limit"])

    @property
    def cap(self) -> int | None:
        """The most an ordinary hand scores; None when the roof is off (dmjl ``roof_off``)."""
        return None if self.options.get("roof_off") else self.limit

    @property
    def wrong_count(self) -> str:
        return str(self.options["wrong_count"])

    @property
    def mahjong_tie(self) -> str:
        return str(self.options["mahjong_tie"])

    @property
    def requires_ready(self) -> bool:
        return self.spec.requires_ready

    @property
    def settlement(self) -> str:
        return self.spec.settlement

    def limit_value(self, rule: Rule) -> float:
        """A limit rule's value in limits after the ``limit_hands`` option (0 switches it off)."""
        overrides: Mapping[str, float] = self.options.get("limit_hands") or {}
        if rule.key is not None and rule.key in overrides:
            return float(overrides[rule.key])
        return rule.limit


def resolve_options(spec: RuleSetSpec, given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Defaults overlaid with ``given``; an unknown option or a bad value raises ScoringError."""
    if given is not None and not isinstance(given, Mapping):
        raise ScoringError(f"options must be an object, not {given!r}")
    out = {k: o.default for k, o in spec.options.items()}
    for key, value in (given or {}).items():
        if key not in spec.options:
            known = ", ".join(sorted(spec.options))
            raise ScoringError(
                f"unknown option {key!r} for rule set {spec.name}: the options are {known}"
            )
        out[key] = spec.options[key].check(key, value)
    return out


# --- option checks ------------------------------------------------------------------------------


def check_bool(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ScoringError(f"option {key!r} must be true or false, not {value!r}")
    return value


def check_positive_int(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ScoringError(f"option {key!r} must be a positive whole number, not {value!r}")
    return value


def check_choice(*choices: str) -> Callable[[str, Any], str]:
    def check(key: str, value: Any) -> str:
        if value not in choices:
            raise ScoringError(f"option {key!r} must be one of {', '.join(choices)}, not {value!r}")
        return str(value)

    return check


def check_limit_hands(keys: frozenset[str]) -> Callable[[str, Any], dict[str, float]]:
    """The ``limit_hands`` option: a mapping from a limit hand's name to its value in limits."""

    def check(key: str, value: Any) -> dict[str, float]:
        if not isinstance(value, Mapping):
            raise ScoringError(f"option {key!r} must map limit-hand names to values in limits")
        out: dict[str, float] = {}
        for name, v in value.items():
            if name not in keys:
                raise ScoringError(
                    f"unknown limit hand {name!r} in option {key!r}: the names are "
                    + ", ".join(sorted(keys))
                )
            if isinstance(v, bool) or not isinstance(v, int | float) or v < 0:
                raise ScoringError(f"limit hand {name!r} needs a value >= 0 in limits, not {v!r}")
            out[name] = float(v)
        return out

    return check


def common_options(
    rules: tuple[Rule, ...], *, limit: int, bonus_tiles: bool, wrong_count: str
) -> dict[str, Option]:
    """Options every rule set has: limit, bonus_tiles, wrong_count, mahjong_tie, limit_hands."""
    keys = frozenset(r.key for r in rules if r.key)
    return {
        "limit": Option(limit, check_positive_int),
        "bonus_tiles": Option(bonus_tiles, check_bool),
        "wrong_count": Option(wrong_count, check_choice("dead_hand", "repair")),
        "mahjong_tie": Option("turn_order", check_choice("turn_order", "highest_value")),
        "limit_hands": Option({}, check_limit_hands(keys)),
    }
