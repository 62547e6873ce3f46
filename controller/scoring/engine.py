"""The scorer: arranges a hand every way it can be, applies a rule set's items to each and
keeps the best (RULES.md section 5). Also waits() and is_complete()."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from operator import attrgetter

from controller.scoring import arrange as ar
from controller.scoring.arrange import Group
from controller.scoring.model import HandInput, ScoreItem, ScoreResult, ScoringError
from controller.scoring.patterns import HandFacts, HandView, Situation
from controller.scoring.rules import Rule, RuleSet
from controller.scoring.rulesets import get_ruleset
from controller.scoring.validate import CheckedHand, check_input, check_meld, checked_group
from controller.tiles import KIND_INDEX, KINDS, Meld, Tile, sort_tiles

# Sources after which the set the winning tile completes counts as exposed.
_TAKEN = ("discard", "robbed_kong")


def ruleset_of(inp: HandInput) -> RuleSet:
    if isinstance(inp.ruleset, RuleSet):
        return inp.ruleset
    return get_ruleset(inp.ruleset, inp.options)


def score_hand(inp: HandInput) -> ScoreResult:
    """Score one player's hand in its best arrangement; ScoringError names what is wrong."""
    rs = ruleset_of(inp)
    hand = check_input(inp, rs)
    facts = _facts(inp, hand, rs)
    melds = tuple(ar.meld_group(m) for m in hand.melds)
    split = split_rules(rs, inp.mahjong, situation_of(facts, hand.counts, bool(melds)))
    views = _winner_views(facts, melds, hand, rs) if inp.mahjong else _partial_views(facts, melds)
    best: _Scored | None = None
    best_rank: tuple[int, int, int] = (0, 0, 0)
    hand_tally: _Tally | None = None
    memo = group_memo(rs, inp.mahjong, facts)
    for view, leftover in views:
        if hand_tally is None:
            hand_tally = _run(rs, split.hand, view)
        scored = _evaluate(rs, view, hand_tally, split, memo)
        # higher score, then more base points, then (a loser) fewer tiles left over
        rank = (scored.score, scored.points, -len(leftover))
        if best is None or rank > best_rank:
            best, best_left, best_rank = scored, leftover, rank
    if best is None:
        raise ScoringError(_incomplete_message(hand))
    return best.result(best_left, hand)


def _incomplete_message(hand: CheckedHand) -> str:
    return (
        f"the winner's hand {' '.join(sort_tiles(hand.hand))} is not complete: it does not "
        "split into sets and a pair (or a special hand of the rule set)"
    )


@cache
def _needs_waits(name: str) -> bool:
    """Whether any item of the rule set looks at how many tile kinds the winner waited on."""
    return any(getattr(r.when, "needs_waits", False) for r in get_ruleset(name).rules)


_SUITS = {
    (b, c, d): frozenset(s for s, present in zip("bcd", (b, c, d), strict=True) if present)
    for b in (False, True) for c in (False, True) for d in (False, True)
}


_NO_FLAGS: frozenset[str] = frozenset()


def _facts(inp: HandInput, hand: CheckedHand, rs: RuleSet) -> HandFacts:
    c = hand.counts
    waits_before = 0
    if inp.mahjong and _needs_waits(rs.name):
        rest = hand.concealed_counts.copy()
        rest[KIND_INDEX[str(inp.winning_tile)]] -= 1
        waits_before = len(_wait_kinds(rest, c, bool(hand.melds), rs))
    tiles = list(hand.hand)
    for m in hand.melds:
        tiles.extend(m.tiles)
    tiles.sort(key=KIND_INDEX.__getitem__)
    ones_nines = c[0] + c[8] + c[9] + c[17] + c[18] + c[26]
    honours = sum(c[27:])
    return HandFacts(  # positional: this runs for every hand
        tuple(tiles),
        tuple(sort_tiles(hand.bonus)) if hand.bonus else (),
        hand.seat,
        hand.prevailing,
        inp.mahjong,
        inp.winning_tile,
        inp.win_source,
        bool(inp.last_tile),
        bool(inp.first_discard),
        frozenset(inp.flags) if inp.flags else _NO_FLAGS,
        waits_before,
        _SUITS[any(c[0:9]), any(c[9:18]), any(c[18:27])],
        honours > 0,
        any(not m.concealed for m in hand.melds),
        ones_nines + honours,
        ones_nines,
        len(tiles),
    )


def _complete_splits(
    c: list[int], has_melds: bool, rs: RuleSet
) -> Iterator[tuple[list[Group], str | None]]:
    for groups in ar.complete_arrangements(c):
        yield groups, None
    if not has_melds and "seven_pairs" in rs.specials and ar.is_seven_pairs(c):
        yield ar.seven_pairs_groups(c), "seven_pairs"
    if not has_melds and "thirteen_orphans" in rs.specials and ar.is_thirteen_orphans(c):
        yield [ar.thirteen_orphans_group(c)], "thirteen_orphans"


def _winner_views(
    facts: HandFacts, melds: tuple[Group, ...], hand: CheckedHand, rs: RuleSet
) -> Iterator[tuple[HandView, list[Tile]]]:
    """Every complete arrangement, with every choice of the group the winning tile completed."""
    wt = facts.winning_tile
    taken = facts.win_source in _TAKEN
    for groups, special in _complete_splits(hand.concealed_counts, bool(melds), rs):
        seen: list[tuple[str, tuple[Tile, ...]]] = []
        for i, g in enumerate(groups):
            if wt not in g.tiles or (g.kind, g.tiles) in seen:
                continue
            seen.append((g.kind, g.tiles))
            won = Group(g.kind, g.tiles, g.concealed and not taken, g.melded, True)
            yield HandView(facts, (*melds, *groups[:i], won, *groups[i + 1 :]), special), []


def _partial_views(
    facts: HandFacts, melds: tuple[Group, ...]
) -> Iterator[tuple[HandView, list[Tile]]]:
    concealed = [t for t in facts.tiles]
    for m in melds:
        for t in m.tiles:
            concealed.remove(t)
    for groups, left in ar.partial_arrangements(ar.counts_of(concealed)):
        yield HandView(facts, (*melds, *groups), None), left


@dataclass
class _Scored:
    view: HandView
    items: list[ScoreItem]
    points: int
    doubles: int
    limit_hand: str | None
    score: int
    combination: int

    def result(self, leftover: list[Tile], hand: CheckedHand) -> ScoreResult:
        return ScoreResult(
            points=self.points,
            doubles=self.doubles,
            limit_hand=self.limit_hand,
            score=self.score,
            items=sorted(self.items, key=_POINTS_FIRST),
            arrangement=_arrangement(self.view.groups, hand),
            combination_doubles=self.combination,
            special=self.view.special,
            leftover=leftover,
        )


@dataclass
class _Tally:
    """Items and sums for part of a hand."""

    items: list[ScoreItem]
    points: int = 0
    doubles: int = 0
    combination: int = 0
    limit: float = 0.0
    limit_key: str | None = None

    def add(self, rs: RuleSet, rule: Rule, hits: list[tuple[Tile, ...]]) -> None:
        if rule.limit:
            value = rs.limit_value(rule)
            if value <= 0:
                return
            self.items.extend(ScoreItem(rule.name, t, limit=value, bonus=rule.bonus) for t in hits)
            self.combination += 0 if rule.bonus else 1
            if value > self.limit:
                self.limit, self.limit_key = value, rule.key
            return
        pts = rs.options[rule.points] if isinstance(rule.points, str) else rule.points
        self.items.extend(
            ScoreItem(rule.name, t, points=pts, doubles=rule.doubles, bonus=rule.bonus)
            for t in hits
        )
        self.points += pts * len(hits)
        self.doubles += rule.doubles * len(hits)
        self.combination += 0 if rule.bonus else rule.doubles * len(hits)

    def merge(self, other: _Tally) -> None:
        if not other.items:
            return
        self.items.extend(other.items)
        self.points += other.points
        self.doubles += other.doubles
        self.combination += other.combination
        if other.limit > self.limit:
            self.limit, self.limit_key = other.limit, other.limit_key


def _run(rs: RuleSet, rules: Sequence[Rule], view: HandView) -> _Tally:
    tally = _Tally([])
    for rule in rules:
        hits = rule.when(view)
        if hits:
            tally.add(rs, rule, hits)
    return tally


# What a group earns depends only on the group and the two winds (group items are never gated
# and their points never come from options), so it is computed once and kept per rule set,
# player kind and winds: the domain is small (kinds x shapes x exposure).
_GROUP_MEMO: dict[tuple[str, bool, Tile, Tile], dict[Group, _Tally]] = {}


def group_memo(rs: RuleSet, is_winner: bool, facts: HandFacts) -> dict[Group, _Tally]:
    return _GROUP_MEMO.setdefault((rs.name, is_winner, facts.seat, facts.prevailing), {})


def _evaluate(
    rs: RuleSet, view: HandView, hand_tally: _Tally, split: _Split, memo: dict[Group, _Tally]
) -> _Scored:
    """Apply the rule set's items to one arrangement (the hand-level ones are in hand_tally)."""
    tally = _run(rs, split.view, view)
    tally.merge(hand_tally)
    for g in view.groups:
        known = memo.get(g)
        if known is None:
            known = memo[g] = _run(rs, split.group, HandView(view.facts, (g,), None))
        tally.merge(known)
    points, doubles = tally.points, tally.doubles
    score = points << doubles if doubles >= 0 else points
    if rs.cap is not None and score > rs.cap:
        score = rs.cap
    if tally.limit:
        limit_score = round(tally.limit * rs.limit)
        if limit_score >= score:
            return _Scored(view, tally.items, points, doubles, tally.limit_key, limit_score,
                           tally.combination)
    return _Scored(view, tally.items, points, doubles, None, score, tally.combination)


def _arrangement(groups: Sequence[Group], hand: CheckedHand) -> list[list[Tile]]:
    """Melds first as given, then concealed sets in the order their tiles were written, pairs
    last."""
    where = hand.hand.index
    melds = [list(g.tiles) for g in groups if g.melded]
    rest = sorted((g for g in groups if not g.melded),
                  key=lambda g: (g.kind == "pair", where(g.tiles[0])))
    return melds + [list(g.tiles) for g in rest]


# Items are listed points first, then doublings (a stable sort keeps the table's order within).
_POINTS_FIRST = attrgetter("doubles")


@dataclass(frozen=True)
class _Split:
    group: tuple[Rule, ...]
    hand: tuple[Rule, ...]
    view: tuple[Rule, ...]


_SPLITS: dict[tuple[str, bool, Situation], _Split] = {}


def split_rules(rs: RuleSet, is_winner: bool, situation: Situation) -> _Split:
    """The rules worth trying for this player in this situation (their gates pass), by how
    much of the hand their pattern looks at. Situations take few values: kept per rule set."""
    key = (rs.name, is_winner, situation)
    split = _SPLITS.get(key)
    if split is None:
        rules = [
            r for r in rs.rules
            if (is_winner or not r.winner_only) and getattr(r.when, "gate", _always)(situation)
        ]
        by = {s: tuple(r for r in rules if getattr(r.when, "scope", "view") == s)
              for s in ("group", "hand", "view")}
        split = _SPLITS[key] = _Split(by["group"], by["hand"], by["view"])
    return split


def _always(situation: Situation) -> bool:
    return True


def situation_of(f: HandFacts, c: Sequence[int], melds: bool) -> Situation:
    return Situation(  # positional, in field order: this runs for every hand
        f.win_source if f.mahjong else None,
        bool(f.bonus),
        f.last_tile,
        f.first_discard,
        f.flags,
        f.seat == "ew",
        melds,
        f.exposed_melds,
        f.suits,
        f.honours,
        f.majors == 0,
        f.majors == f.size,
        f.ones_nines == f.size,
        c[1] + c[2] + c[3] + c[5] + c[7] + c[32] == f.size,  # 2b 3b 4b 6b 8b gd
        c[31] + c[32] + c[33],
        c[27] + c[28] + c[29] + c[30],
        f.waits_before == 1,
        f.waits_before >= 2,
    )


# --- waits and completeness ---------------------------------------------------------------------


def _checked(concealed: Sequence[Tile], melds: Sequence[Meld]) -> tuple[list[int], list[Meld]]:
    """Counts of the concealed tiles over the 34 kinds, and the melds checked."""
    try:
        c = ar.counts_of(concealed)
    except (KeyError, TypeError):
        bad = next(t for t in concealed if t not in KIND_INDEX)
        raise ScoringError(f"concealed tile {bad!r} is not one of the 34 kinds") from None
    return c, [check_meld(m) for m in melds]


def _complete(c: list[int], has_melds: bool, rs: RuleSet) -> bool:
    if ar.is_standard_complete(c):
        return True
    if has_melds:
        return False
    return ("seven_pairs" in rs.specials and ar.is_seven_pairs(c)) or (
        "thirteen_orphans" in rs.specials and ar.is_thirteen_orphans(c)
    )


def arrangements(
    concealed: Sequence[Tile], melds: Sequence[Meld], ruleset: RuleSet
) -> list[tuple[list[Group], str | None]]:
    """Every way a complete hand splits into sets and a pair (or a special hand of the rule
    set), declared melds fixed and first: a list of (groups, special hand name or None)."""
    c = [0] * 34
    try:
        for t in concealed:
            c[KIND_INDEX[t]] += 1
        fixed = [checked_group(tuple(m.tiles), bool(m.concealed)) for m in melds]
    except (KeyError, TypeError):
        _checked(concealed, melds)  # names the culprit
        raise
    out: list[tuple[list[Group], str | None]] = [
        (groups, None) for groups in ar.complete_arrangements(c, fixed)
    ]
    if not fixed and ruleset.specials:
        if "seven_pairs" in ruleset.specials and ar.is_seven_pairs(c):
            out.append((ar.seven_pairs_groups(c), "seven_pairs"))
        if "thirteen_orphans" in ruleset.specials and ar.is_thirteen_orphans(c):
            out.append(([ar.thirteen_orphans_group(c)], "thirteen_orphans"))
    return out


def is_complete(concealed: Sequence[Tile], melds: Sequence[Meld], ruleset: RuleSet) -> bool:
    """True if the concealed tiles and melds make a complete hand (14 tiles plus one per kong)."""
    c, ms = _checked(concealed, melds)
    if sum(c) != 14 - 3 * len(ms):
        return False
    return _complete(c, bool(ms), ruleset)


def waits(concealed: Sequence[Tile], melds: Sequence[Meld], ruleset: RuleSet) -> list[Tile]:
    """The tile kinds that complete a 13-tile hand (plus one per kong), in KINDS order; a kind
    of which the hand already holds all four copies is no wait."""
    c, ms = _checked(concealed, melds)
    if sum(c) != 13 - 3 * len(ms):
        return []
    held = ar.counts_of([*concealed, *(t for m in ms for t in m.tiles)])
    return [KINDS[k] for k in _wait_kinds(c, held, bool(ms), ruleset)]


def _wait_kinds(c: list[int], held: Sequence[int], has_melds: bool, rs: RuleSet) -> list[int]:
    """Kinds completing concealed counts ``c``, leaving out kinds ``held`` four times."""
    kinds = ar.standard_waits(c)
    if not has_melds and rs.specials:
        kinds = sorted(set(kinds) | ar.special_waits(c, rs.specials))
    return [k for k in kinds if held[k] < 4]
