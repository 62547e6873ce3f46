"""A game played online, imported from its tenhou.net/6 log (`mahjong-table import --db`),
reviewed like any other stored session (issue 25: "the review pages read any stored session,
including ones imported"): every hand of the public game mjai-reviewer ships
(tests/sessions/tenhou_logs/SOURCE.md) is listed, its steps are the stored events, no public
frame shows a concealed tile, and once the imported session has ended a seat sees the others'
hands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from controller.app import build
from controller.cli import main
from controller.config import Config, SessionConfig
from tests.web.review_support import Reference
from tests.web.test_review import _of_hand, check_public

LOG = Path(__file__).parents[1] / "sessions" / "tenhou_logs" / "ranked_game.json"


def test_an_imported_game_is_reviewed(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    data.mkdir()
    db = data / "events.sqlite"
    # the log counts red fives, which the table has not: imported as the table scores it
    assert main(["import", "--format", "tenhou", str(LOG), "--db", str(db),
                 "--allow-differences"]) == 0, capsys.readouterr().err
    hands = len(json.loads(LOG.read_text(encoding="utf-8"))["log"])
    system = build(Config(session=SessionConfig(autostart=False)), data)
    ref = Reference(db, 1)
    with TestClient(system.app) as client:
        listed = client.get("/api/review").json()
        session = next(s for s in listed["sessions"] if s["session"] == 1)
        assert len(session["hands"]) == hands
        seat = {"Authorization": f"Bearer {system.tokens.seats[1]}"}
        for number in (1, hands):
            got = client.get(f"/api/review/1/{number}").json()
            assert got["ruleset"] == "riichi"
            assert [f["seq"] for f in got["frames"]] == [
                s for s in ref.order if _of_hand(ref.moments[s], number)]
            for f in got["frames"]:
                check_public(f, ref.moments[f["seq"]], True)
            assert got["frames"][-1]["hand"]["phase"] == "over"
            # the imported session has ended: a seat's token shows every rack
            mine = client.get(f"/api/review/1/{number}", headers=seat).json()
            assert sorted(mine["viewer"]["concealed"]) == [1, 2, 3, 4]
