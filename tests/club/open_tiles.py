"""What lay open on a table at each moment, replayed from its own event log with the game
engine: the reference the privacy checks hold the club's status messages to (every tile a
status shows must have lain open, at that seat, at one moment of the log: issue 24's table
cards). Read from the game's state fields (racks, rivers, meld strips), not from its views."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from controller.game import apply, new_game
from controller.store import EventLog, table_log

Shown = tuple[tuple[tuple[str, tuple[str, ...]], ...], str | None]


def _moment(state: Any) -> Shown:
    hand = state.hand
    if hand is None:
        return (), None
    claim = hand.claim
    on_strip = claim is not None and claim.discard_on_strip
    seats = []
    for seat in hand.seats:
        tiles = [*seat.river, *seat.forming, *seat.bonus,
                 *[t for meld in seat.melds for t in meld.tiles]]
        if on_strip and claim.seat == seat.position:
            tiles.append(claim.tile)
        seats.append((str(seat.position), tuple(sorted(tiles))))
    live = hand.discard[0] if hand.discard is not None and hand.taken is None and not on_strip \
        else None
    return tuple(seats), live


def moments(data_dir: Path) -> set[Shown]:
    """Every moment's open tiles, seat by seat, over every session of the table's log."""
    out: set[Shown] = {((), None)}
    with EventLog.open(data_dir / "events.sqlite", readonly=True) as log:
        for info in log.sessions():
            state = new_game()
            for event in table_log(log, info.id):
                state = apply(state, event).state
                out.add(_moment(state))
    return out


def shown_by(status: dict[str, Any]) -> Shown:
    """The same fingerprint of what a club status message shows."""
    board = status.get("board") or {}
    seats = tuple((p, tuple(sorted([*s["river"], *s["forming"], *s["bonus"],
                                     *[t for meld in s["melds"] for t in meld]])))
                  for p, s in sorted(board.items()))
    discard = status.get("discard")
    return seats, (discard or {}).get("tile")


def tile_strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from tile_strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from tile_strings(v)
