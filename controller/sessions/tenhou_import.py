"""A tenhou.net/6 JSON log turned into the table's own log (FORMATS.md: moves and declarations)
and replayed through the project's engine as it is written: each hand's result must equal the
log's deltas (docs/formats.md, "Import"). What the table's riichi (RULES.md 11) does not play
is refused with one line naming the hand: abortive draws, three-player games, a hand whose
value counts red fives, a game longer than a hanchan. Red fives become plain fives (the table
has none)."""

from __future__ import annotations

from typing import Any

from controller.game import apply, new_game, table_zones
from controller.game.state import GameState
from controller.sessions import tenhou
from controller.sessions.kyoku import log_deltas
from controller.tiles import WINDS

#: tenhou's rules where RULES.md 11 lets an option choose (scoring.md, riichi): 13 han is a
#: yakuman, no renhou, nagashi mangan, yakuman add up
TENHOU_OPTIONS: dict[str, Any] = {"kazoe": "yakuman", "renhou": "off", "nagashi_mangan": True,
                                  "multiple_yakuman": True}
#: the export's tile numbers read back (tenhou.py): 41 -> "ew", tens digit 1 -> "c"
HONOURS = {n: c for c, n in tenhou.HONOURS.items()}
SUITS = {n // 10: s for s, n in tenhou.SUITS.items()}
RED = {51: 15, 52: 25, 53: 35}
DRAW_WORDS = {"流局", "流し満貫", "全員聴牌", "全員不聴"}


class ImportRefused(ValueError):
    """The log cannot be played on the table: the message names the hand and why."""


def code(n: int) -> str:
    """tenhou tile number -> table code (a red five is a plain five)."""
    n = RED.get(n, n)
    if n in HONOURS:
        return HONOURS[n]
    if n // 10 in SUITS and 1 <= n % 10 <= 9:
        return f"{n % 10}{SUITS[n // 10]}"
    raise ImportRefused(f"{n!r} is not a tenhou tile number (11-19, 21-29, 31-39, 41-47, 51-53)")


class Difference(str):
    """One line naming a hand the table scores differently from the log, and why."""


def convert(log: dict[str, Any]) -> tuple[list[dict[str, Any]], list[Difference]]:
    """The table log (the ``session`` line, then the events) of a whole tenhou.net/6 log, and
    the hands whose result on the table differs from the log's deltas (red fives, Tenhou's
    deposits at a double ron); ImportRefused names the first hand the table cannot play."""
    if not isinstance(log, dict) or not isinstance(log.get("log"), list):
        raise ImportRefused("not a tenhou.net/6 log: a JSON object with a \"log\" list is needed")
    disp = str((log.get("rule") or {}).get("disp", ""))
    if "三" in disp or "3-Player" in disp:
        raise ImportRefused("a three-player game: the table plays riichi with four players")
    play = _Play()
    play.feed({"session": {"ruleset": "riichi", "options": dict(TENHOU_OPTIONS)}})
    for n, name in enumerate(log.get("name") or []):
        if isinstance(name, str) and name:
            play.feed({"player": {"seat": n + 1, "name": name}}, must=False)
    for entry in log["log"]:
        _Hand(play, entry).run()
    return play.events, play.differences


class _Play:
    """The table log being written, replayed by the engine as it grows."""

    def __init__(self) -> None:
        self.state: GameState = new_game()
        self.events: list[dict[str, Any]] = []
        self.where = ""
        self.differences: list[Difference] = []

    def feed(self, event: dict[str, Any], must: bool = True) -> bool:
        outcome = apply(self.state, event)
        if not outcome.accepted:
            if not must:
                return False
            v = outcome.violation
            raise ImportRefused(f"{self.where}: the table refuses {_say(event)}: "
                                f"{v.message if v else 'refused'}")
        self.state = outcome.state
        self.events.append(event)
        return True


def _say(event: dict[str, Any]) -> str:
    if "move" in event:
        m = event["move"]
        return f"{m['tile']} from {m['from']} to {m['to']}"
    return str(event)


class _Hand:
    """One tenhou ``log`` entry played on the table."""

    def __init__(self, play: _Play, entry: list[Any]) -> None:
        if not isinstance(entry, list) or len(entry) != 17:
            raise ImportRefused("a hand of the log is not the 17 fields of tenhou.net/6")
        self.play = play
        (self.round, self.honba, self.sticks), self.scores = entry[0], entry[1]
        self.dora, self.ura = [code(t) for t in entry[2]], [code(t) for t in entry[3]]
        self.deal = [[code(t) for t in entry[4 + 3 * i]] for i in range(4)]
        self.takes = [list(entry[5 + 3 * i]) for i in range(4)]
        self.discards = [list(entry[6 + 3 * i]) for i in range(4)]
        self.result = entry[16]
        self.dealer = self.round % 4
        self.name = f"{WINDS[self.round // 4 % 4].capitalize()} {self.dealer + 1}-{self.honba}"
        play.where = f"hand {self.name}"
        self.shown = 0  # dora indicators laid
        self.live: tuple[int, str] | None = None  # the discard lying on the pad
        self.kong: tuple[int, str] | None = None  # an added kong that may be robbed

    # --- the hand, move by move ------------------------------------------------------------

    def run(self) -> None:
        self._check_start()
        self._deal()
        actor, ti, di = self.dealer, [0] * 4, [0] * 4
        while True:
            take = self._next(self.takes, ti, actor, "draw")
            drawn = self._take(actor, take)
            if isinstance(take, str) and "m" in take:  # open kong: its slot in the discards
                if di[actor] < len(self.discards[actor]) and self.discards[actor][di[actor]] == 0:
                    di[actor] += 1
                continue
            if di[actor] >= len(self.discards[actor]):
                break  # a self-drawn win (or an abortive draw: refused at the result)
            d = self.discards[actor][di[actor]]
            di[actor] += 1
            if isinstance(d, str) and ("a" in d or "k" in d):
                if self._kong(actor, d):
                    break  # robbed: the hand ends in the ron on it
                continue
            self._discard(actor, d, drawn)
            if all(ti[a] >= len(self.takes[a]) for a in range(4)):
                break
            actor = self._after(actor, ti)
        self._end()
        self._clear()

    def _check_start(self) -> None:
        s = self.play.state
        if s.game_over:
            raise ImportRefused(f"hand {self.name}: the table's hanchan is over (RULES.md 11 "
                                "plays no west round): the log goes on longer")
        rt = s.rt
        table = (s.prevailing_wind, s.dealer - 1, rt.honba if rt else 0, rt.sticks if rt else 0)
        logged = (WINDS[self.round // 4 % 4], self.dealer, self.honba, self.sticks)
        if table != logged:
            first = "" if s.hands else (": the log begins in the middle of a game; the table "
                                        "starts every session at East 1 with 30,000 each")
            raise ImportRefused(
                f"hand {self.name}: the log starts it as {_counters(logged)}, the table's rules "
                f"as {_counters(table)}{first}")

    def _next(self, lists: list[list[Any]], idx: list[int], actor: int, what: str) -> Any:
        if idx[actor] >= len(lists[actor]):
            raise ImportRefused(f"hand {self.name}: seat {actor + 1} has no {what} left in "
                                "the log where the play needs one")
        idx[actor] += 1
        return lists[actor][idx[actor] - 1]

    def _move(self, tile: str, src: str, dst: str) -> None:
        self.play.feed({"move": {"tile": tile, "from": src, "to": dst}})

    def _deal(self) -> None:
        order = [(self.dealer + i) % 4 for i in range(4)]
        for block in range(4):
            for a in order:
                tiles = self.deal[a][4 * block: 4 * block + 4] if block < 3 else [self.deal[a][12]]
                for t in tiles:
                    self._move(t, "wall", f"rack:{a + 1}")
        self._indicator()

    def _indicator(self) -> None:
        if self.shown >= len(self.dora):
            raise ImportRefused(f"hand {self.name}: the log lists too few dora indicators")
        self._move(self.dora[self.shown], "wall", "dora")
        self.shown += 1

    def _take(self, actor: int, take: Any) -> str | None:
        """A draw (returns the tile) or a call on the discard lying on the pad."""
        seat = f"rack:{actor + 1}"
        if isinstance(take, int):
            if self.live is not None:
                self._move(self.live[1], "discard", "river")
                self.live = None
            tile = code(take)
            self._move(tile, "wall", seat)
            return tile
        kind, called, own, target = _call(str(take), actor)
        if self.live is None or self.live != (target, called):
            raise ImportRefused(f"hand {self.name}: seat {actor + 1}'s call {take} does not "
                                f"match the discard on the pad")
        for t in own:
            self._move(t, seat, f"melds:{actor + 1}")
        self._move(called, "discard", f"melds:{actor + 1}")
        self.live = None
        if kind == "m":
            self._indicator()
        return None

    def _kong(self, actor: int, d: str) -> bool:
        """A concealed kong (``a``) or a kong added to a pung (``k``), before the replacement."""
        digits = "".join(ch for ch in d if ch.isdigit())
        tiles = [code(int(digits[i:i + 2])) for i in range(0, len(digits), 2)]
        moved = tiles[:4] if "a" in d else tiles[:1]
        for t in moved:
            self._move(t, f"rack:{actor + 1}", f"melds:{actor + 1}")
        self.kong = (actor, tiles[0]) if "k" in d else None
        robbed = self.kong is not None and self._robbed(actor, d)
        if not robbed:
            self._indicator()  # a robbed added kong reveals none (RULES.md 11)
        return robbed

    def _robbed(self, actor: int, d: str) -> bool:
        """The added kong is the seat's last move and the hand ends in a ron on it."""
        details = self.result[2::2] if self.result and self.result[0] == "和了" else []
        last = self.discards[actor][-1] if self.discards[actor] else None
        return last == d and any(int(x[1]) == actor and int(x[0]) != actor for x in details)

    def _discard(self, actor: int, d: Any, drawn: str | None) -> None:
        riichi = isinstance(d, str) and d.startswith("r")
        n = int(d[1:]) if riichi else d
        if n == 60:
            if drawn is None:
                raise ImportRefused(f"hand {self.name}: seat {actor + 1} discards the drawn "
                                    "tile (60) after a call")
            tile = drawn
        else:
            tile = code(int(n))
        if riichi:
            self.play.feed({"declare": {"seat": actor + 1, "call": "ready"}})
        self._move(tile, f"rack:{actor + 1}", "discard")
        self.live = (actor, tile)
        self.kong = None

    def _after(self, actor: int, ti: list[int]) -> int:
        """Who plays next: a seat whose next draw calls this discard (pon and kong before chi),
        else the next seat."""
        best: tuple[int, int] | None = None
        assert self.live is not None
        for a in range(4):
            if a == actor or ti[a] >= len(self.takes[a]):
                continue
            take = self.takes[a][ti[a]]
            if isinstance(take, str):
                kind, called, _own, target = _call(take, a)
                if (target, called) == self.live:
                    rank = 0 if kind == "c" else 1
                    if best is None or rank > best[0]:
                        best = (rank, a)
        return best[1] if best is not None else (actor + 1) % 4

    # --- the end of the hand ---------------------------------------------------------------

    def _end(self) -> None:
        if not isinstance(self.result, list) or not self.result:
            raise ImportRefused(f"hand {self.name}: the log has no result")
        word = self.result[0]
        if word == "和了":
            self._wins()
        elif word in DRAW_WORDS:
            self._draw()
        else:
            raise ImportRefused(f"hand {self.name} ends in {word} (an abortive draw): the "
                                "import plays none (the table plays them with the option "
                                "abortive_draws, RULES.md 11; docs/game.md)")
        self._compare()

    def _wins(self) -> None:
        details = self.result[2::2]
        winners = [int(d[0]) for d in details]
        for w in winners:
            self.play.feed({"declare": {"seat": w + 1, "call": "mahjong"}})
        who, target = int(details[0][0]), int(details[0][1])
        if who != target:
            if self.live is not None:
                self._move(self.live[1], "discard", f"rack:{who + 1}")
            elif self.kong is not None:
                actor, tile = self.kong
                self._move(tile, f"melds:{actor + 1}", f"rack:{who + 1}")
        hand = self.play.state.hand
        if hand is not None and hand.rh is not None and any(p in hand.rh.riichi for p, _ in
                                                            hand.rh.wins):
            for t in self.ura[:len(hand.rh.dora)]:
                self._move(t, "wall", "dora")

    def _draw(self) -> None:
        if self.live is not None:
            self._move(self.live[1], "discard", "river")
            self.live = None
        deltas = self.result[1] if len(self.result) > 1 else [0, 0, 0, 0]
        hand = self.play.state.hand
        if hand is None or hand.result is None:
            raise ImportRefused(f"hand {self.name}: the log ends it in a draw with tiles "
                                "left in the live wall")
        tenpai = set((hand.result.details.get("riichi") or {}).get("tenpai") or [])
        paid = {a + 1 for a in range(4) if deltas[a] > 0}
        if 0 < len(paid) < 4 and tenpai - paid:
            for p in sorted(tenpai - paid):  # tenpai on the table, noten in the log
                self.play.feed({"declare": {"seat": p, "call": "noten"}}, must=False)

    def _compare(self) -> None:
        """The table's result equals the log's deltas (the deposits paid on riichi apart)."""
        s = self.play.state
        record = s.hands[-1]
        table = log_deltas(record.net, record.riichi)
        logged = [0, 0, 0, 0]
        for d in self.result[1::2] if self.result[0] == "和了" else self.result[1:2]:
            logged = [x + int(y) for x, y in zip(logged, d, strict=True)]
        if table != logged:
            yaku = " ".join(str(x) for d in self.result[2::2] for x in d[4:])
            why = ""
            if "赤" in yaku:
                why = " (the log counts red fives, which the table does not have)"
            elif len(self.result) > 3:
                why = (" (Tenhou gives every deposit to the first winner of a double ron; "
                       "RULES.md 11 gives each winner its own riichi stick back)")
            self.play.differences.append(Difference(
                f"hand {self.name}: the table scores it {table}, the log {logged}{why}"))

    def _clear(self) -> None:
        """The table cleared for the next hand: every tile back to the wall."""
        for zone, tiles in table_zones(self.play.state).items():
            for t in tiles:
                self._move(t, zone, "wall")


def _counters(c: tuple[str, int, int, int]) -> str:
    return f"{c[0]} round, dealer seat {c[1] + 1}, honba {c[2]}, {c[3]} deposits"


def _call(take: str, actor: int) -> tuple[str, str, list[str], int]:
    """(kind c/p/m, called tile, own tiles, the discarder) of a tenhou call string."""
    for mark in "cpm":
        i = take.find(mark)
        if i < 0:
            continue
        called = code(int(take[i + 1:i + 3]))
        rest = take[:i] + take[i + 3:]
        own = [code(int(rest[j:j + 2])) for j in range(0, len(rest), 2)]
        if mark == "c":
            return "c", called, own, (actor + 3) % 4
        rel = {0: 3, 2: 2}.get(i, 1)  # the player before, across, after
        return mark, called, own, (actor + rel) % 4
    raise ImportRefused(f"{take!r} is not a tenhou call (chi c, pon p, open kong m)")
