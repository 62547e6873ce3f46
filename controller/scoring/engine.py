"""The scorer: arranges a hand every way it can be, applies a rule set's items to each and
keeps the best (RULES.md section 5). Also waits() and is_complete()."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from controller.scoring import arrange as ar
from controller.scoring.arrange import Group
from controller.scoring.model import HandInput, ScoreItem, ScoreResult, ScoringError
from controller.scoring.patterns import HandFacts, HandView
from controller.scoring.rules import RuleSet
from controller.scoring.rulesets import get_ruleset
from controller.scoring.validate import CheckedHand, check_input, check_meld
from controller.tiles import KINDS, Meld, Tile, TileError, check_tile, is_honour, sort_tiles

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
    views = _winner_views(facts, melds, hand, rs) if inp.mahjong else _partial_views(facts, melds)
    best: _Scored | None = None
    for view, leftover in views:
        scored = _evaluate(rs, view, inp.mahjong)
        if best is None or (scored.score, scored.points) > (best.score, best.points):
            best, best_left = scored, leftover
    if best is None:
        raise ScoringError(_incomplete_message(hand))
    return best.result(hand.hand, best_left)


def _incomplete_message(hand: CheckedHand) -> str:
    return (
        f"the winner's hand {' '.join(sort_tiles(hand.hand))} is not complete: it does not "
        "split into sets and a pair (or a special hand of the rule set)"
    )


def _facts(inp: HandInput, hand: CheckedHand, rs: RuleSet) -> HandFacts:
    tiles = tuple(sort_tiles([*hand.hand, *(t for m in hand.melds for t in m.tiles)]))
    waits_before = 0
    if inp.mahjong:
        rest = list(hand.hand)
        rest.remove(str(inp.winning_tile))
        waits_before = len(waits(rest, hand.melds, rs))
    return HandFacts(
        tiles=tiles,
        bonus=tuple(sort_tiles(hand.bonus)),
        seat=hand.seat,
        prevailing=hand.prevailing,
        mahjong=inp.mahjong,
        winning_tile=inp.winning_tile,
        win_source=inp.win_source,
        last_tile=bool(inp.last_tile),
        first_discard=bool(inp.first_discard),
        flags=frozenset(inp.flags),
        waits_before=waits_before,
        suits=frozenset(t[1] for t in tiles if not is_honour(t)),
        honours=any(is_honour(t) for t in tiles),
        exposed_melds=any(not m.concealed for m in hand.melds),
    )


def _complete_splits(
    c: Sequence[int], has_melds: bool, rs: RuleSet
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
    order = {t: i for i, t in reversed(list(enumerate(hand.hand)))}
    for groups, special in _complete_splits(ar.counts_of(hand.hand), bool(melds), rs):
        groups.sort(key=lambda g: (g.kind == "pair", order[g.tiles[0]]))
        seen: set[tuple[str, tuple[Tile, ...]]] = set()
        for i, g in enumerate(groups):
            if wt not in g.tiles or (g.kind, g.tiles) in seen:
                continue
            seen.add((g.kind, g.tiles))
            won = g._replace(won=True, concealed=g.concealed and not taken)
            yield HandView(facts, (*melds, *groups[:i], won, *groups[i + 1 :]), special), []


def _partial_views(
    facts: HandFacts, melds: tuple[Group, ...]
) -> Iterator[tuple[HandView, list[Tile]]]:
    concealed = [t for t in facts.tiles]
    for m in melds:
        for t in m.tiles:
            concealed.remove(t)
    for groups, left in ar.partial_arrangements(ar.counts_of(concealed)):
        groups.sort(key=lambda g: (g.kind == "pair", KINDS.index(g.tiles[0])))
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

    def result(self, hand: Sequence[Tile], leftover: list[Tile]) -> ScoreResult:
        return ScoreResult(
            points=self.points,
            doubles=self.doubles,
            limit_hand=self.limit_hand,
            score=self.score,
            items=self.items,
            arrangement=[list(g.tiles) for g in self.view.groups],
            combination_doubles=self.combination,
            special=self.view.special,
            leftover=leftover,
        )


def _evaluate(rs: RuleSet, view: HandView, is_winner: bool) -> _Scored:
    """Apply every item of the rule set to one arrangement and add up."""
    items: list[ScoreItem] = []
    points = doubles = combination = 0
    best_limit, limit_key = 0.0, None
    for rule in rs.rules:
        if rule.winner_only and not is_winner:
            continue
        hits = rule.when(view)
        if not hits:
            continue
        if rule.limit:
            value = rs.limit_value(rule)
            if value <= 0:
                continue
            items.extend(ScoreItem(rule.name, t, limit=value, bonus=rule.bonus) for t in hits)
            combination += 0 if rule.bonus else 1
            if value > best_limit:
                best_limit, limit_key = value, rule.key
            continue
        pts = rs.options[rule.points] if isinstance(rule.points, str) else rule.points
        items.extend(
            ScoreItem(rule.name, t, points=pts, doubles=rule.doubles, bonus=rule.bonus)
            for t in hits
        )
        points += pts * len(hits)
        doubles += rule.doubles * len(hits)
        combination += 0 if rule.bonus else rule.doubles * len(hits)
    score = points * 2**doubles
    if rs.cap is not None:
        score = min(score, rs.cap)
    if best_limit:
        limit_score = round(best_limit * rs.limit)
        if limit_score >= score:
            return _Scored(view, items, points, doubles, limit_key, limit_score, combination)
    return _Scored(view, items, points, doubles, None, score, combination)


# --- waits and completeness ---------------------------------------------------------------------


def _checked(concealed: Sequence[Tile], melds: Sequence[Meld]) -> tuple[list[Tile], list[Meld]]:
    try:
        tiles = [check_tile(t) for t in concealed]
    except TileError as exc:
        raise ScoringError(str(exc)) from None
    return tiles, [check_meld(m) for m in melds]


def _complete(c: list[int], has_melds: bool, rs: RuleSet) -> bool:
    if ar.is_standard_complete(c):
        return True
    if has_melds:
        return False
    return ("seven_pairs" in rs.specials and ar.is_seven_pairs(c)) or (
        "thirteen_orphans" in rs.specials and ar.is_thirteen_orphans(c)
    )


def is_complete(concealed: Sequence[Tile], melds: Sequence[Meld], ruleset: RuleSet) -> bool:
    """True if the concealed tiles and melds make a complete hand (14 tiles plus one per kong)."""
    tiles, ms = _checked(concealed, melds)
    if len(tiles) != 14 - 3 * len(ms):
        return False
    return _complete(ar.counts_of(tiles), bool(ms), ruleset)


def waits(concealed: Sequence[Tile], melds: Sequence[Meld], ruleset: RuleSet) -> list[Tile]:
    """The tile kinds that complete a 13-tile hand (plus one per kong), in KINDS order; a kind
    of which the hand already holds all four copies is no wait."""
    tiles, ms = _checked(concealed, melds)
    if len(tiles) != 13 - 3 * len(ms):
        return []
    c = ar.counts_of(tiles)
    held = ar.counts_of([*tiles, *(t for m in ms for t in m.tiles)])
    out = []
    for k in range(34):
        if held[k] >= 4:
            continue
        c[k] += 1
        if _complete(c, bool(ms), ruleset):
            out.append(KINDS[k])
        c[k] -= 1
    return out
