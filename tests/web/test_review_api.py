"""GET /api/review/{session}/{hand}/analysis and `mahjong-table review` over a session the real
loop stored (riichi, simulated players): the same analysis from both, and who may read it (the
operator any seat; a seat its own, the others once the session has ended; no token: 403)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.cli import main
from controller.store import EventLog
from tests.web.support import Table, hand_over


def url(session: int, hand: int, seat: int) -> str:
    return f"/api/review/{session}/{hand}/analysis?seat={seat}"


def review_cli(db: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["review", "--db", str(db), *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_review_route_and_command(make_table: Callable[..., Table], tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    table = make_table("riichi", seed=3)
    table.play_until(lambda v: len(v["hands"]) >= 1 and hand_over(v))
    session = table.loop.session_id
    assert session is not None
    db = tmp_path / "data" / "events.sqlite"
    get = table.client.get

    # who may read: nobody without a token; a seat its own seat while the session is open
    assert get(url(session, 1, 2)).status_code == 403
    assert get(url(session, 1, 2), headers={"Authorization": "Bearer nope"}).status_code == 403
    assert get(url(session, 1, 2), headers=table.seat(3)).status_code == 403
    own = get(url(session, 1, 2), headers=table.seat(2))
    assert own.status_code == 200
    body = own.json()
    assert set(body) == {"session", "hand", "seat", "ruleset", "discards", "summary"}
    assert (body["session"], body["hand"], body["seat"], body["ruleset"]) == (
        session, 1, 2, "riichi")
    assert get(url(session, 1, 4), headers=table.admin()).status_code == 200
    assert get(url(session + 1, 1, 2), headers=table.admin()).status_code == 404
    assert get(url(session, 9, 2), headers=table.admin()).status_code == 404
    # the hand under way: its seat reads its own analysis, the operator none (its concealed
    # tiles; the operator's answers never depend on the racks while a hand is played)
    table.play_until(lambda v: (v.get("hand") or {}).get("number") == 2
                     and (v.get("hand") or {}).get("phase") == "play")
    assert get(url(session, 2, 2), headers=table.admin()).status_code == 403
    assert get(url(session, 2, 2), headers=table.seat(2)).status_code == 200

    # each entry points at the stored discard of that seat
    with EventLog.open(db, readonly=True) as log:
        events = {r.seq: r.event for r in log.records(session)}
    assert body["discards"], "seat 2 discarded in the hand"
    for d in body["discards"]:
        assert events[d["seq"]] == {"move": {"tile": d["tile"], "from": "rack:2",
                                             "to": "discard"}}
        assert set(d) == {"seq", "tile", "shanten_before", "shanten_after", "best",
                          "chosen_rank", "kept_best", "furiten", "has_yaku"}
    assert body["summary"]["discards"] == len(body["discards"])

    # the command gives the same analysis
    code, out, err = review_cli(db, capsys, "--session", str(session), "--hand", "1",
                                "--seat", "2")
    assert code == 0 and "hand 1 of 1" in err
    printed = json.loads(out)
    assert printed["hands"][0]["discards"] == body["discards"]
    assert printed["summary"]["seats"]["2"] == body["summary"]

    # once the session has ended, another seat's token reads every seat
    assert table.client.delete("/api/admin/session", headers=table.admin()).status_code == 200
    late = get(url(session, 1, 2), headers=table.seat(3))
    assert late.status_code == 200 and late.json()["discards"] == body["discards"]

    # bad input: one line, exit 2, what to do next
    for args, words in ((["--hand", "99"], "has no hand 99"),
                        (["--session", "99"], "no session 99"),
                        (["--seat", "0"], "is not 1-4")):
        code, out, err = review_cli(db, capsys, *args)
        assert code == 2 and out == "" and err.count("\n") == 1 and words in err
    code, _, err = review_cli(tmp_path / "none.sqlite", capsys)
    assert code == 2 and "no event log" in err
