"""Riichi at the table (RULES.md section 11): the declaration, the locked hand, furiten, kuikae,
double riichi and ippatsu, the dora pad. The hand's riichi facts live in ``Hand.rh``; every
function here is a no-op for the other rule sets (``hand.rh is None``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller.game.context import Ctx, Refused, name
from controller.game.state import Hand, Seat, evolve
from controller.scoring import ScoringError, waits
from controller.tiles import Meld, Tile, is_suited

#: the live wall a riichi needs (RULES.md 11: at least 4 tiles left)
RIICHI_MIN_WALL = 4
FOUR = (0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class RiichiHand:
    """What riichi adds to a hand; positions 1-4, per-seat tuples in position order."""

    dora: tuple[Tile, ...] = ()  # the indicators laid on the pad
    ura: tuple[Tile, ...] = ()  # the ura indicators laid after a riichi winner's win
    riichi: tuple[int, ...] = ()  # seats whose riichi discard is made
    pending: int | None = None  # the seat that declared: its next discard is the riichi discard
    riichi_discard: int = 0  # the number (discards_total) of the newest riichi discard
    double: tuple[int, ...] = ()
    ippatsu: tuple[int, ...] = ()
    called: bool = False  # a call (a concealed kong included) was made this hand
    discards: tuple[tuple[Tile, ...], ...] = ((), (), (), ())  # own discards, called ones too
    temp: tuple[int, ...] = FOUR  # the discard number from which a passed win is furiten
    perm: tuple[int, ...] = FOUR  # the same in riichi: furiten for the rest of the hand
    dead: tuple[int, ...] = ()  # hands made dead by a refused Mahjong
    kuikae: tuple[Tile, ...] = ()  # the discards the seat to move may not make after its call
    drew: tuple[int, ...] = ()  # seats that have drawn from the wall (renhou)
    called_from: tuple[int, ...] = ()  # seats one of whose discards was called (nagashi)
    noten: tuple[int, ...] = ()  # seats that declared noten after the exhaustive draw
    riichi_at: tuple[int, ...] = FOUR  # the riichi discard's place among the seat's own (1-based)
    #: ((position, HandInput), ...) of the win, scored again once the ura are laid
    wins: tuple[tuple[int, Any], ...] = ()
    win_discarder: int | None = None
    #: an abortive draw due once the discard on the pad is not won on (riichi_abort.DUE)
    abort: str | None = None


def _set(values: tuple[Any, ...], pos: int, value: Any) -> tuple[Any, ...]:
    return values[: pos - 1] + (value,) + values[pos:]


def melds(seat: Seat) -> list[Meld]:
    return [Meld(m.tiles, m.concealed) for m in seat.melds]


def tenpai_waits(ctx: Ctx, concealed: list[Tile], sets: list[Meld]) -> list[Tile]:
    """The kinds that complete a 13-tile hand (plus one per kong), not counting one the hand
    holds all four of (the scorer's ``waits`` leaves those out)."""
    try:
        return waits(concealed, sets, ctx.ruleset)
    except ScoringError:
        return []


def seat_waits(ctx: Ctx, seat: Seat) -> list[Tile]:
    return tenpai_waits(ctx, seat.concealed(), melds(seat))


def is_closed(seat: Seat) -> bool:
    return all(m.concealed for m in seat.melds)


# --- the declaration and the discard ----------------------------------------------------------


def riichi_discards(ctx: Ctx, seat: Seat) -> list[Tile]:
    """The discards from a 14-tile hand that leave it tenpai (its possible riichi discards)."""
    rack = seat.concealed()
    out = []
    for t in sorted(set(rack)):
        rest = list(rack)
        rest.remove(t)
        if tenpai_waits(ctx, rest, melds(seat)):
            out.append(t)
    return out


def declare(ctx: Ctx, hand: Hand, pos: int) -> Hand:
    """READY: riichi, made with 14 tiles; the seat's next discard is its riichi discard."""
    rh: RiichiHand = hand.rh
    seat = hand.seat(pos)
    who = name(hand, pos)
    if pos in rh.riichi or rh.pending == pos:
        return hand
    if pos in rh.dead:
        raise Refused("dead_hand", pos, f"{who}'s hand is dead: no riichi")
    own = (pos == hand.turn and hand.step == "discard") or (
        hand.phase == "deal" and pos == hand.dealer)
    if not own or seat.size() != 14:
        raise Refused("riichi_not_ready", pos,
                      f"{who} declares riichi on the own turn, with 14 tiles, before the discard")
    if not is_closed(seat):
        raise Refused("riichi_open_hand", pos, f"{who}'s hand is open: no riichi")
    if hand.live_wall < RIICHI_MIN_WALL:
        raise Refused("riichi_too_late", pos,
                      f"{hand.live_wall} tiles left in the live wall: riichi needs at least 4")
    if not riichi_discards(ctx, seat):
        raise Refused("riichi_not_ready", pos, f"no discard leaves {who}'s hand waiting: no riichi")
    ctx.notes.append(f"{who} declares riichi: the next discard is the riichi discard")
    return evolve(hand, rh=evolve(rh, pending=pos))


def check_discard(ctx: Ctx, hand: Hand, pos: int, tile: Tile) -> None:
    """Refuse a discard the locked hand, kuikae or the riichi declaration forbids."""
    rh: RiichiHand = hand.rh
    seat = hand.seat(pos)
    who = name(hand, pos)
    if pos in rh.riichi:
        drawn = seat.last_tile if seat.last_source in ("wall", "replacement") else None
        if tile != drawn:
            raise Refused("riichi_hand_changed", pos,
                          f"{who} is in riichi: discard the tile just drawn")
    if tile in rh.kuikae:  # empty with the option kuikae_allowed (on_call)
        raise Refused("kuikae", pos,
                      f"{who} may not discard the {tile} right after the call (kuikae)")
    if rh.pending == pos:
        rest = seat.concealed()
        rest.remove(tile)
        if not tenpai_waits(ctx, rest, melds(seat)):
            raise Refused("riichi_not_ready", pos,
                          f"this discard leaves {who}'s hand not waiting: discard another tile "
                          "for riichi")


def after_discard(ctx: Ctx, hand: Hand, pos: int, tile: Tile, first: bool) -> Hand:
    """The discard is on the pad (``hand.discards_total`` is its number): the riichi stands
    or not, ippatsu ends, every seat whose waits hold the tile will have let it pass."""
    rh: RiichiHand = hand.rh
    number = hand.discards_total
    ippatsu = tuple(p for p in rh.ippatsu if p != pos)
    ch: dict[str, object] = {
        "discards": _set(rh.discards, pos, rh.discards[pos - 1] + (tile,)), "kuikae": (),
        "ippatsu": ippatsu,
    }
    if rh.pending == pos:
        double = first and not rh.called
        ch.update(pending=None, riichi=rh.riichi + (pos,), riichi_discard=number,
                  riichi_at=_set(rh.riichi_at, pos, len(rh.discards[pos - 1]) + 1),
                  ippatsu=ippatsu + (pos,), double=rh.double + ((pos,) if double else ()))
        ctx.notes.append(f"{name(hand, pos)}: {'double ' if double else ''}riichi")
    temp, perm = list(rh.temp), list(rh.perm)
    for seat in hand.seats:
        q = seat.position
        if q == pos or tile not in seat_waits(ctx, seat):
            continue
        temp[q - 1] = temp[q - 1] or number
        if q in rh.riichi:
            perm[q - 1] = perm[q - 1] or number
    ch.update(temp=tuple(temp), perm=tuple(perm))
    seat = hand.seat(pos)
    if pos in ch.get("riichi", rh.riichi) and not seat.ready:  # type: ignore[operator]
        hand = hand.with_seat(evolve(seat, ready=True))
    return evolve(hand, rh=evolve(rh, **ch))


def on_draw(hand: Hand, pos: int) -> Hand:
    """A draw ends the seat's temporary furiten (not the one of riichi)."""
    rh: RiichiHand = hand.rh
    drew = rh.drew if pos in rh.drew else rh.drew + (pos,)
    return evolve(hand, rh=evolve(rh, temp=_set(rh.temp, pos, 0), drew=drew))


# --- calls and kongs --------------------------------------------------------------------------


def check_may_call(hand: Hand, pos: int) -> None:
    """No calls from a dead hand or a hand in riichi; the last tile's discard only to win."""
    rh: RiichiHand = hand.rh
    who = name(hand, pos)
    if hand.live_wall <= 0:
        raise Refused("last_tile_claim", pos,
                      f"the live wall is used up: {who} may claim the last discard only to win")
    if pos in rh.dead:
        raise Refused("dead_hand", pos, f"{who}'s hand is dead: no calls")
    if pos in rh.riichi:
        raise Refused("riichi_hand_changed", pos, f"{who} is in riichi: no calls, the hand is "
                      "locked")


def kuikae_tiles(kind: str, tile: Tile, own: tuple[Tile, ...]) -> tuple[Tile, ...]:
    """What the caller may not discard next (RULES.md 11): the called kind, and after a chow
    the tile that extends its two own tiles on the other side."""
    out = [tile]
    if kind == "chow" and is_suited(tile):
        r, s = int(tile[0]), tile[1]
        ranks = sorted(int(t[0]) for t in own)
        if ranks == [r + 1, r + 2] and r + 3 <= 9:
            out.append(f"{r + 3}{s}")
        if ranks == [r - 2, r - 1] and r - 3 >= 1:
            out.append(f"{r - 3}{s}")
    return tuple(out)


def on_call(ctx: Ctx, hand: Hand, pos: int, kind: str, tile: Tile, own: tuple[Tile, ...],
            discarder: int) -> Hand:
    """A claim completed: ippatsu and first-turn facts end, the caller's furiten of passing
    ends, kuikae applies to its next discard (a call leaving only such discards is refused)."""
    rh: RiichiHand = hand.rh
    forbidden: tuple[Tile, ...] = ()
    if kind in ("chow", "pung") and not ctx.option("kuikae_allowed", False):
        forbidden = kuikae_tiles(kind, tile, own)
        if all(t in forbidden for t in hand.seat(pos).concealed()):
            raise Refused("kuikae", pos, f"after this call {name(hand, pos)} could discard only "
                          "what kuikae forbids: the call is refused")
    return evolve(hand, rh=evolve(
        rh, called=True, ippatsu=(), temp=_set(rh.temp, pos, 0), kuikae=forbidden,
        called_from=rh.called_from + (discarder,)))


def check_kong_allowed(hand: Hand, pos: int) -> None:
    """No kong on the last tile of the live wall, and at most four kongs in a hand."""
    who = name(hand, pos)
    if hand.live_wall <= 0:
        raise Refused("last_tile_kong", pos, f"no kong on the last tile: {who} discards")
    if kongs_on_table(hand) >= 4:
        raise Refused("fifth_kong", pos, "four kongs are on the table: no fifth")


def on_kong(hand: Hand) -> Hand:
    """A kong of any kind: ippatsu and the first go-around end (one more indicator is due)."""
    rh: RiichiHand = hand.rh
    return evolve(hand, rh=evolve(rh, called=True, ippatsu=()))


def check_riichi_kong(ctx: Ctx, hand: Hand, pos: int, tile: Tile) -> None:
    """In riichi a concealed kong only of the tile just drawn, the waits unchanged and the
    three held tiles a pung in every reading (RULES.md 11, rule riichi_hand_changed)."""
    rh: RiichiHand = hand.rh
    check_kong_allowed(hand, pos)
    if pos not in rh.riichi:
        return
    seat = hand.seat(pos)
    who = name(hand, pos)
    rack = seat.concealed() + list(seat.forming)
    if seat.last_tile != tile or seat.last_source not in ("wall", "replacement") or (
            rack.count(tile) != 4):
        raise Refused("riichi_hand_changed", pos,
                      f"{who} is in riichi: a concealed kong only of the tile just drawn")
    before = list(rack)
    before.remove(tile)
    waits_before = tenpai_waits(ctx, before, melds(seat))
    after = [t for t in rack if t != tile]
    same = tenpai_waits(ctx, after, melds(seat) + [Meld((tile,) * 4, True)]) == waits_before
    if not same or not _pung_in_every_reading(ctx, before, seat, tile, waits_before):
        raise Refused("riichi_hand_changed", pos,
                      f"{who} is in riichi: this kong would change the hand's waits")


def _pung_in_every_reading(ctx: Ctx, thirteen: list[Tile], seat: Seat, tile: Tile,
                           wait_list: list[Tile]) -> bool:
    """No wait completes the hand with the three ``tile`` read otherwise than as a pung."""
    from controller.scoring import arrangements

    for w in wait_list:
        try:
            found = arrangements(thirteen + [w], melds(seat), ctx.ruleset)
        except ScoringError:
            return False
        for groups, _special in found:
            if not any(g.kind == "pung" and g.tiles[0] == tile and not g.melded
                       for g in groups):
                return False
    return True


# --- the dora pad -------------------------------------------------------------------------------


def kongs_on_table(hand: Hand) -> int:
    return sum(1 for s in hand.seats for m in s.melds if m.kind == "kong")


def lay_indicator(ctx: Ctx, hand: Hand, tile: Tile, out: tuple[int, ...]) -> Hand:
    """A tile from the wall to the dora pad: the first indicator, or one after each kong."""
    rh: RiichiHand = hand.rh
    due = 1 + kongs_on_table(hand)
    if len(rh.dora) >= due:
        raise Refused("tile_out_of_place", None,
                      f"{len(rh.dora)} indicator(s) lie on the dora pad and no other is due: "
                      "put the tile back in the dead wall")
    ctx.notes.append(f"Dora indicator {len(rh.dora) + 1}: {tile}")
    return evolve(hand, out=out, rh=evolve(rh, dora=rh.dora + (tile,)))


# --- at the moment of a win ---------------------------------------------------------------------


def check_win(ctx: Ctx, hand: Hand, pos: int, concealed: list[Tile], source: str) -> None:
    """Furiten and the dead hand, before the hand is scored (the yaku come with the score)."""
    rh: RiichiHand = hand.rh
    who = name(hand, pos)
    if pos in rh.dead:
        raise Refused("dead_hand", pos, f"{who}'s hand is dead (a refused Mahjong): it cannot win")
    if source not in ("discard", "robbed_kong"):
        return
    seat = hand.seat(pos)
    thirteen = list(concealed[:-1])
    own = set(rh.discards[pos - 1]) & set(tenpai_waits(ctx, thirteen, melds(seat)))
    number = hand.discards_total + (1 if source == "robbed_kong" else 0)
    passed = 0 < rh.temp[pos - 1] < number or 0 < rh.perm[pos - 1] < number
    if own or passed:
        why = ("one of its waits is among its own discards" if own else
               "it let a winning tile pass" + (" in riichi" if pos in rh.riichi else ""))
        raise Refused("furiten", pos, f"{who} is furiten ({why}): no win on a discard")


def win_flags(hand: Hand, pos: int, source: str) -> tuple[list[str], bool]:
    """The scorer's riichi flags for ``pos`` winning from ``source``, and renhou."""
    rh: RiichiHand = hand.rh
    seat = hand.seat(pos)
    flags = []
    if pos in rh.riichi:
        flags.append("double_riichi" if pos in rh.double else "riichi")
        if pos in rh.ippatsu:
            flags.append("ippatsu")
    # tenhou or chiihou: the scorer reads a win on the dealt tiles ("dealt") as a first-turn
    # win by itself, and a replacement always follows a kong, which is a call (on_kong)
    if source == "wall" and seat.discards == 0 and not rh.called:
        flags.append("first_turn")
    renhou = (source == "discard" and pos != hand.dealer and pos not in rh.drew
              and not rh.called)
    return flags, renhou


def make_dead(ctx: Ctx, hand: Hand, pos: int, rule: str) -> Hand:
    """A refused Mahjong (EMA 5.1.2): the hand is dead for the rest of the hand."""
    rh: RiichiHand = hand.rh
    if pos in rh.dead:
        return hand
    ctx.notes.append(f"{name(hand, pos)}'s Mahjong is refused ({rule}): the hand is dead "
                     "(no calls, no riichi, no win; noten at a draw)")
    return evolve(hand, rh=evolve(rh, dead=rh.dead + (pos,),
                                  pending=None if rh.pending == pos else rh.pending))
