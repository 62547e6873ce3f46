"""No concealed tile in any public word (issues 11 and 22): a rule with no exceptions.

The engine's words are safe where they are made: a message (a violation, an announcement)
names a tile only when that very tile lies open on the table (a discard, a river, a meld strip)
or its sender typed it about an open zone (the operator's correction); a tile drawn, held or
going into a rack is "a tile". Redacting afterwards by what the racks hold was itself a leak
(issue 22: the operator's 34 reassigns told which kinds the racks held, by which answers said
"a concealed tile"), so no answer depends on the racks any more.

What the table shows is still checked once more, by what is open only: a word of the public
view naming a code that no open zone shows is replaced by "a tile" (:func:`keep_shown`).
"""

from __future__ import annotations

import re
from typing import Any

from controller.game.state import GameState, Hand

TILE_WORD = re.compile(r"\b(?:the |a |an )?([1-9][bcd]|[eswn]w|[rgw]d|[1-4][fs])\b")
HIDDEN = "a tile"


def shown_codes(state: GameState | None) -> frozenset[str] | None:
    """The codes lying open on the table now: discards, rivers, meld strips, bonus tiles, a
    claimed or robbable tile; None once the hand is over (every hand is then shown)."""
    hand = state.hand if state is not None else None
    if hand is None:
        return frozenset()
    if hand.phase == "over":
        return None
    extra = [t[0] for t in (hand.robbable, hand.died) if t is not None]
    if hand.claim is not None:
        extra.append(hand.claim.tile)
    return frozenset(open_tiles(hand)) | frozenset(extra)


def open_tiles(hand: Hand) -> list[str]:
    """Every tile lying open in a hand in play, each once: the live discard, dead discards on
    the pad, the rivers, the meld strips (sets, forming tiles, bonus tiles), the dora pad."""
    tiles = [hand.discard[0]] if hand.discard is not None else []
    tiles += [t for t, _ in hand.pad_dead]
    if hand.rh is not None:  # riichi's dora pad: the indicators lie face up
        tiles += [*hand.rh.dora, *hand.rh.ura]
    for seat in hand.seats:
        tiles += [*seat.river, *seat.forming, *seat.bonus]
        tiles += [t for meld in seat.melds for t in meld.tiles]
    return tiles


def keep_shown(text: str, shown: frozenset[str] | None, hidden: str = HIDDEN) -> str:
    """``text`` with every tile code (and its article) that ``shown`` lacks replaced by
    ``hidden`` ("a tile", or its words in the reader's language); unchanged when ``shown`` is
    None (everything is shown)."""
    if shown is None or not text:
        return text
    return TILE_WORD.sub(lambda m: m.group(0) if m.group(1) in shown else hidden, text)


def unnamed(text: str) -> str:
    """``text`` with every tile code replaced by HIDDEN, whatever lies where (for words made
    from a concealed hand, such as the scorer's reason a declared hand cannot win)."""
    return TILE_WORD.sub(HIDDEN, text)


def public_violation(violation: dict[str, Any] | None, state: GameState | None) -> Any:
    """A violation as the table shows it: its words name only tiles lying open."""
    if not violation or not isinstance(violation.get("message"), str):
        return violation
    return {**violation, "message": keep_shown(violation["message"], shown_codes(state))}
