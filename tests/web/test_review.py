"""The review of stored hands (issue 25) over the real app and a real SQLite log: two whole
simulated sessions (hua-bao, ended; riichi, still open) with claims, kongs, refused
declarations and moves, and undos. Each frame is held to the log replayed on its own
(tests/web/review_support.py): what lay open at that event, each seat's rack, the hands as
``mahjong-table replay --db`` numbers them. Who sees what: the public sees only what lay open;
a seat's token its own rack throughout and the others' once the session has ended (unless
``[review] reveal_after_session = false``); the operator every rack."""

from __future__ import annotations

import re
import sqlite3
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from controller.analysis import replay_session
from controller.app import build
from controller.cli.replay_cmd import _stored, summarize
from controller.config import Config, ReviewConfig, SessionConfig
from controller.i18n import LANGUAGES, PSEUDO
from controller.sessions.review import Reviews
from controller.store import EventLog, numbered_table_log
from controller.tiles import ALL_CODES
from tests.web.review_support import Moment, Reference, record

CODES = frozenset(ALL_CODES)
#: The public view's fields that show tiles lying open (as tests/web/test_privacy.py).
PUBLIC_TILE_FIELDS = ("melds", "forming", "bonus", "river", "discard", "out_of_place",
                      "dora_indicators", "claim")
WORD = re.compile(r"\b([1-9][bcd]|[eswn]w|[rgw]d|[1-4][fs])\b")


class Stored:
    """The data dir with the two sessions, their references and a client of the app."""

    def __init__(self, root: Path) -> None:
        self.dir = root / "data"
        self.hua = record(self.dir, "hua-bao", hands=3, seed=1)
        self.riichi = record(self.dir, "riichi", hands=2, seed=6)  # ends the first session
        db = self.dir / "events.sqlite"
        self.refs = {s: Reference(db, s) for s in (self.hua, self.riichi)}
        self.system = build(Config(session=SessionConfig(autostart=False)), self.dir)
        self.client = TestClient(self.system.app)
        self.replayed: dict[int, list[dict[str, Any]]] = {}

    def get(self, session: int, hand: int, token: str | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        res = self.client.get(f"/api/review/{session}/{hand}", headers=headers)
        assert res.status_code == 200, res.text
        answer: dict[str, Any] = res.json()
        return answer


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stored]:
    made = Stored(tmp_path_factory.mktemp("review"))
    with made.client:
        yield made


def _tiles_at(node: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], str]]:
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _tiles_at(v, path + (str(k),))
    elif isinstance(node, list):
        for v in node:
            yield from _tiles_at(v, path)
    elif isinstance(node, str) and node in CODES:
        yield path, node


def _lists(node: Any) -> Iterator[list[Any]]:
    if isinstance(node, dict):
        for v in node.values():
            yield from _lists(v)
    elif isinstance(node, list):
        yield node
        for v in node:
            yield from _lists(v)


def check_public(frame: dict[str, Any], m: Moment, riichi: bool) -> None:
    """A public frame shows only what lay open at its event (``m``, from the log)."""
    where = f"event {m.seq}"
    assert "own" not in frame, where
    hand = frame["hand"] or {}
    racks = m.racks()
    over = hand.get("phase") == "over"
    winners = {str(w) for w in ((hand.get("result") or {}).get("details", {})
                                .get("riichi", {}) or {}).get("winners", [])}
    if over and not riichi:
        return  # every hand is laid open at the end of a hand (the live table's rule)
    lying = m.open_at()
    everywhere = sum(lying.values(), Counter())
    for p, seat in (hand.get("seats") or {}).items():
        shown = Counter(t for k in ("melds", "forming", "bonus", "river")
                        for _, t in _tiles_at(seat.get(k)))
        assert not shown - lying[p], (where, p, shown - lying[p])
    for path, code in _tiles_at(frame):
        if over and path[:3] == ("hand", "result", "details"):
            assert path[3] in winners or "dora_indicators" in path[3] or \
                path[3:5] in (("riichi", "dora_indicators"), ("riichi", "ura_dora_indicators")), \
                (where, path)
            continue
        if path[-1] in ("words", "message") or path[:1] == ("announcements",):
            continue
        assert any(f in path for f in PUBLIC_TILE_FIELDS) or "ura_dora_indicators" in path, \
            (where, path, code)
        if not over:
            assert everywhere[code] or any(code == t for t, *_ in m.state.misplaced), \
                (where, path, code)
    said = " ".join([frame["words"], *frame["announcements"],
                     str((frame["violation"] or {}).get("message") or "")])
    for code in WORD.findall(said):
        assert over or everywhere[code], (where, said)
    hidden = [rack for p, rack in racks.items()
              if sum(rack.values()) >= 3 and not (over and str(p) in winners)]
    sizes = {sum(rack.values()) for rack in hidden}
    for values in _lists(frame):
        if len(values) in sizes:
            strings = Counter(v for v in values if isinstance(v, str))
            assert not any(strings == rack for rack in hidden), (where, values)


def _hands(stored: Stored, session: int) -> list[dict[str, Any]]:
    """``mahjong-table replay --db``'s hands of the session."""
    if session not in stored.replayed:
        db = str(stored.dir / "events.sqlite")
        stored.replayed[session] = summarize(_stored(db, session))["hands"]
    return stored.replayed[session]


def test_the_sessions_hold_what_the_review_must_cope_with(stored: Stored) -> None:
    for ref in stored.refs.values():
        kinds = ref.kinds()
        assert kinds["claim"] and kinds["kong"] and kinds["refused"] and kinds["correction"]
    listed = stored.client.get("/api/review").json()["sessions"]
    assert [s["session"] for s in listed] == [stored.riichi, stored.hua]  # newest first
    assert [s["ruleset"] for s in listed] == ["riichi", "hua-bao"]
    for s in listed:
        assert [h["hand"] for h in s["hands"]] == list(range(1, len(s["hands"]) + 1))
        assert len(s["hands"]) == len(stored.refs[s["session"]].final.hands)
        assert s["damaged"] is None


def test_hands_and_steps_are_the_logs(stored: Stored) -> None:
    """HAND is the place in ``replay --db``'s hands; the steps are that hand's stored events
    (the table being cleared after it left out), each by its seq; the last shows the result."""
    for session, ref in stored.refs.items():
        for index, want in enumerate(_hands(stored, session), start=1):
            got = stored.get(session, index)
            assert got["record"] == want
            mine = [s for s in ref.order if _of_hand(ref.moments[s], want["number"])]
            assert [f["seq"] for f in got["frames"]] == mine
            last = got["frames"][-1]["hand"]
            if want["result"] is not None:
                assert last["phase"] == "over"
                assert last["result"]["net"] == want["net"]
            for f in got["frames"]:
                m = ref.moments[f["seq"]]
                assert f["accepted"] == m.accepted
                move = m.event.get("move") or {}
                if m.accepted and move.get("to") == "discard" and \
                        str(move.get("from")).startswith("rack"):
                    seat = int(move["from"].split(":")[1])
                    said = f"{_label(got, f, seat)} discarded {move['tile']}"
                    who = _label(got, f, seat)
                    assert f["words"] in (said, f"{said}; {who} called ready",  # riichi's own:
                                          f"{said}; {who}'s riichi stands (1,000 on the table)")


def test_the_folds_discards_are_the_ones_the_command_reviews(stored: Stored) -> None:
    """The review's fold feeds the discard analysis route (nothing is replayed again): its
    discards are those ``mahjong-table review`` finds folding the stored table log itself,
    undos and refused moves included (the careless table's sessions have both)."""
    db = stored.dir / "events.sqlite"
    for session in (stored.hua, stored.riichi):
        fold = Reviews(db).session(session)
        assert fold is not None
        with EventLog.open(db, readonly=True) as log:
            want = replay_session(numbered_table_log(log, session))
        got = fold.replayed()
        assert got.hands == want.hands == len(_hands(stored, session))
        assert [(m.seq, m.hand, m.seat, m.tile) for m in got.moments] == [
            (m.seq, m.hand, m.seat, m.tile) for m in want.moments]
        assert [m.before.hand for m in got.moments] == [m.before.hand for m in want.moments]


def _of_hand(m: Moment, number: int) -> bool:
    hand = m.state.hand
    move = m.event.get("move") or {}
    before_over = m.accepted and move.get("to") == "wall" and hand is not None and \
        hand.phase == "over" and move.get("from") != "wall"
    return hand is not None and hand.number == number and not before_over


def _label(got: dict[str, Any], frame: dict[str, Any], seat: int) -> str:
    name = got["names"].get(str(seat))
    return name or str(frame["hand"]["seats"][str(seat)]["wind"]).capitalize()


def test_the_public_review_shows_no_concealed_tile(stored: Stored) -> None:
    checked = 0
    for session, ref in stored.refs.items():
        for index in range(1, len(_hands(stored, session)) + 1):
            got = stored.get(session, index)
            assert got["viewer"] == {"role": "public", "seat": None, "concealed": []}
            for f in got["frames"]:
                check_public(f, ref.moments[f["seq"]], session == stored.riichi)
                checked += 1
    assert checked > 1000


def test_the_privacy_check_catches_a_leak(stored: Stored) -> None:
    ref = stored.refs[stored.hua]
    got = stored.get(stored.hua, 1)
    frame = next(f for f in got["frames"][60:] if f["hand"]["phase"] == "play")
    m = ref.moments[frame["seq"]]
    rack = sorted(m.racks()[2].elements())
    leaked = {**frame, "hand": {**frame["hand"], "tiles_of_2": rack}}
    with pytest.raises(AssertionError):
        check_public(leaked, m, False)
    hidden = next(t for t in rack if not sum(m.open_at().values(), Counter())[t])
    with pytest.raises(AssertionError):
        check_public({**frame, "words": f"South drew {hidden}"}, m, False)
    seats = {**frame["hand"]["seats"], "3": {**frame["hand"]["seats"]["3"], "river": [hidden]}}
    with pytest.raises(AssertionError):
        check_public({**frame, "hand": {**frame["hand"], "seats": seats}}, m, False)


def _own(got: dict[str, Any], ref: Reference, seats: list[str]) -> None:
    for f in got["frames"]:
        assert sorted(f.get("own", {})) == seats, f["seq"]
        racks = ref.moments[f["seq"]].racks()
        for p in seats:
            assert Counter(f["own"][p]["hand"]) == racks[int(p)], (f["seq"], p)


def test_a_seat_sees_its_own_tiles_and_the_others_after_the_session(stored: Stored) -> None:
    seat2 = stored.system.tokens.seats[2]
    got = stored.get(stored.riichi, 1, seat2)  # the riichi session has not ended
    assert got["viewer"] == {"role": "seat", "seat": 2, "concealed": [2]} and not got["ended"]
    _own(got, stored.refs[stored.riichi], ["2"])
    got = stored.get(stored.hua, 2, seat2)  # the hua-bao session has ended
    assert got["ended"] and got["viewer"]["concealed"] == [1, 2, 3, 4]
    _own(got, stored.refs[stored.hua], ["1", "2", "3", "4"])


def test_the_operator_sees_every_rack(stored: Stored) -> None:
    got = stored.get(stored.riichi, 2, stored.system.tokens.admin)
    assert got["viewer"]["role"] == "operator"
    _own(got, stored.refs[stored.riichi], ["1", "2", "3", "4"])




def test_wrong_token_unknown_session_or_hand_say_what_to_do(stored: Stored) -> None:
    res = stored.client.get(f"/api/review/{stored.hua}/1",
                            headers={"Authorization": "Bearer not-a-token"})
    assert res.status_code == 401 and "seat" in res.json()["detail"]
    res = stored.client.get("/api/review/99/1")
    assert res.status_code == 404 and "/review" in res.json()["detail"]
    res = stored.client.get(f"/api/review/{stored.hua}/9")
    assert res.status_code == 404 and "3 hand(s)" in res.json()["detail"]
    res = stored.client.get("/review/current/2", follow_redirects=False)  # the board's link
    assert res.status_code == 307 and res.headers["location"] == f"/review/{stored.riichi}/2"
    for page in ("/review", f"/review/{stored.hua}/1"):
        res = stored.client.get(page)
        assert res.status_code == 200 and "review.js" in res.text


def test_the_setting_keeps_the_others_hidden_and_a_damaged_session_is_listed(
        tmp_path: Path) -> None:
    """``[review] reveal_after_session = false``: a seat sees only its own rack in an ended
    session, the operator every rack; a session with a row that cannot be read is listed as
    damaged, its review ends where the log can be read."""
    data = tmp_path / "data"
    ended = record(data, "hua-bao", hands=1, seed=2, names=(), every=10_000)
    damaged = record(data, "hua-bao", hands=1, seed=4, names=(), every=10_000)
    with sqlite3.connect(data / "events.sqlite") as db:
        first, last = db.execute("SELECT min(seq), max(seq) FROM events WHERE session_id = ?",
                                 (damaged,)).fetchone()
        broken = (first + last) // 2  # in the middle of its hand
        db.execute("UPDATE events SET event = '{broken' WHERE seq = ?", (broken,))
    config = Config(session=SessionConfig(autostart=False),
                    review=ReviewConfig(reveal_after_session=False))
    system = build(config, data)
    with TestClient(system.app) as client:
        token = {"Authorization": f"Bearer {system.tokens.seats[3]}"}
        got = client.get(f"/api/review/{ended}/1", headers=token).json()
        assert got["ended"] and got["viewer"]["concealed"] == [3]
        assert all(sorted(f.get("own", {})) == ["3"] for f in got["frames"])
        admin = {"Authorization": f"Bearer {system.tokens.admin}"}
        got = client.get(f"/api/review/{ended}/1", headers=admin).json()
        assert got["viewer"]["concealed"] == [1, 2, 3, 4]
        # the discard analysis shows a seat's concealed tiles: the setting holds there too
        analysis = f"/api/review/{ended}/1/analysis?seat="
        assert client.get(analysis + "3", headers=token).status_code == 200
        refused = client.get(analysis + "2", headers=token)
        assert refused.status_code == 403 and "reveal_after_session" in refused.json()["detail"]
        assert client.get(analysis + "2", headers=admin).status_code == 200
        listed = client.get("/api/review").json()["sessions"]
        assert listed[0]["session"] == damaged and listed[0]["damaged"]
        assert listed[1]["session"] == ended and not listed[1]["damaged"]
        got = client.get(f"/api/review/{damaged}/1").json()
        assert got["damaged"] and got["frames"][-1]["seq"] == broken - 1
        # its hand is still under way as far as the log can be read: the operator sees no
        # concealed tile of a hand in play (as on the operator page); a seat its own
        got = client.get(f"/api/review/{damaged}/1", headers=admin).json()
        assert got["live"] and got["viewer"]["concealed"] == []
        assert not any("own" in f for f in got["frames"])
        got = client.get(f"/api/review/{damaged}/1", headers=token).json()
        assert got["viewer"]["concealed"] == [3]


def test_every_rule_set_is_reviewed(tmp_path: Path) -> None:
    """One hand of each other rule set (bonus tiles, mcr's, swedish's ready calls): its steps
    are the log's, no public frame shows a concealed tile, the operator sees every rack."""
    data = tmp_path / "data"
    sessions = {r: record(data, r, hands=1, seed=5, every=53) for r in
                ("swedish", "dmjl", "bmja", "mcr")}
    system = build(Config(session=SessionConfig(autostart=False)), data)
    admin = {"Authorization": f"Bearer {system.tokens.admin}"}
    with TestClient(system.app) as client:
        for ruleset, sid in sessions.items():
            ref = Reference(data / "events.sqlite", sid)
            got = client.get(f"/api/review/{sid}/1").json()
            assert got["ruleset"] == ruleset
            assert [f["seq"] for f in got["frames"]] == [
                s for s in ref.order if _of_hand(ref.moments[s], 1)]
            for f in got["frames"]:
                check_public(f, ref.moments[f["seq"]], False)
            assert got["frames"][-1]["hand"]["phase"] == "over"
            operator = client.get(f"/api/review/{sid}/1", headers=admin).json()
            _own(operator, ref, ["1", "2", "3", "4"])


#: A tile code apart from Latin letters (accented too: "dîšçárdéd" holds no rd); glued to
#: another script's letters it counts ("打出5b" names 5b, though privacy.py's \b misses it).
LATIN = r"A-Za-z0-9\u00C0-\u024F"
ANY_SCRIPT_CODE = re.compile(
    rf"(?<![{LATIN}])([1-9][bcd]|[eswn]w|[rgw]d|[1-4][fs])(?![{LATIN}])")


@pytest.mark.parametrize("language", [*LANGUAGES[1:], PSEUDO])
def test_the_public_words_hide_every_concealed_tile_in_every_language(
        stored: Stored, language: str) -> None:
    """One hand of each session in the language the page asks for (Accept-Language): each
    frame passes the public check, its words name exactly the tiles the English words name
    (codes found even when glued to letters of another script), and they are the language's
    own words, not the English ones."""
    differ = total = 0
    for session in (stored.hua, stored.riichi):
        ref = stored.refs[session]
        english = stored.get(session, 1)
        got = stored.client.get(f"/api/review/{session}/1",
                                headers={"Accept-Language": language}).json()
        assert got["language"] == language and english["language"] == "en"
        assert [f["seq"] for f in got["frames"]] == [f["seq"] for f in english["frames"]]
        for ours, theirs in zip(got["frames"], english["frames"], strict=True):
            check_public(ours, ref.moments[ours["seq"]], session == stored.riichi)
            assert sorted(ANY_SCRIPT_CODE.findall(ours["words"])) == \
                sorted(WORD.findall(theirs["words"])), (ours["words"], theirs["words"])
            differ += ours["words"] != theirs["words"]
            total += 1
    assert total > 100 and differ > total * 0.9, (differ, total)
