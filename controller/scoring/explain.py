"""A score as a readable table with tile glyphs, for people at the command line."""

from __future__ import annotations

from controller.scoring.model import HandInput, ScoreItem, ScoreResult
from controller.tiles import glyph


def tiles_text(tiles: list[str] | tuple[str, ...]) -> str:
    """Glyphs and codes: ``🀔🀔🀔 5b5b5b``."""
    return f"{''.join(glyph(t) for t in tiles)} {''.join(tiles)}" if tiles else ""


def _value(item: ScoreItem) -> str:
    if item.limit:
        return "limit" if item.limit == 1 else f"{item.limit:g} limit"
    if item.doubles:
        return f"x2^{item.doubles}" if item.doubles > 1 else "x2"
    return f"+{item.points}"


def _han_lines(inp: HandInput, result: ScoreResult) -> list[str]:
    """riichi: the han and fu, the limit, and who pays what (honba included)."""
    if not inp.mahjong:
        return ["  a hand that did not win scores 0 (riichi pays only the winner)"]
    lines = [f"  han {result.doubles}, fu {result.points}"
             + (f": {result.limit_hand}" if result.limit_hand else "")]
    paid = getattr(result, "payments", {})
    who = {"discarder": "the discarder pays", "each": "each pays",
           "dealer": "the dealer pays", "each_other": "each other seat pays"}
    lines.append("  " + ", ".join(f"{who[k]} {v}" for k, v in paid.items())
                 + (f" ({inp.honba} honba included)" if inp.honba else ""))
    lines.append(f"  score {result.score}")
    return lines


def render(inp: HandInput, result: ScoreResult) -> str:
    """The explanation: the arrangement, one line per item, then the sum."""
    name = inp.ruleset if isinstance(inp.ruleset, str) else inp.ruleset.name
    head = f"rule set {name}, seat {inp.seat_wind}, prevailing wind {inp.prevailing_wind}"
    if inp.mahjong:
        head += f", Mahjong on {inp.winning_tile} ({inp.win_source})"
    lines = [head, "arrangement: " + "  ".join(tiles_text(g) for g in result.arrangement)]
    if result.leftover:
        lines.append("left over:   " + tiles_text(result.leftover))
    if inp.bonus:
        lines.append("bonus:       " + tiles_text(list(inp.bonus)))
    width = max((len(i.name) for i in result.items), default=4)
    lines.append("")
    for item in result.items:
        value = f"{item.points} han" if result.unit == "han" else _value(item)
        lines.append(f"  {item.name:<{width}}  {value:>8}  {tiles_text(item.tiles)}")
    lines.append("")
    if result.unit == "han":  # riichi: han and fu, the limit, what is paid
        return "\n".join(lines + _han_lines(inp, result))
    if result.unit == "fans":  # mcr: fans add up, the flowers apart
        flowers = sum(i.points for i in result.items if i.name == "Flower Tiles")
        lines.append(f"  fans {result.points - flowers} + flowers {flowers}")
        lines.append(f"  score {result.score}")
        return "\n".join(lines)
    lines.append(f"  points {result.points}, doublings {result.doubles}: "
                 f"{result.points} x 2^{result.doubles} = {result.points * 2**result.doubles}")
    if result.limit_hand:
        lines.append(f"  limit hand: {result.limit_hand}")
    lines.append(f"  score {result.score}")
    return "\n".join(lines)
