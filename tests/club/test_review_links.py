"""The player page links each hand won to its review on its table (issue 25): the table's
address comes from its own status (``url``, docs/club.md), the hand is ``/review/SESSION/N``."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from controller.club.app import create_club_app
from controller.club.mqtt import BrokerConfig
from controller.club.service import ClubService
from tests.club.test_club_api import _hand
from tests.reliability.support import free_port


def _won(tmp_path: Path, url: str | None) -> list[dict[str, object]]:
    # no broker listens there: the club serves what it holds
    service = ClubService(tmp_path / "club", BrokerConfig("127.0.0.1", free_port()))
    with TestClient(create_club_app(service)) as client:
        status: dict[str, object] = {"session": 3, "hand": 3, "names": {"2": "Bo"}}
        if url is not None:
            status["url"] = url
        service.store.set_status("green", status)
        service.store.apply_fact("green", {"kind": "session_start", "session": 3, "pos": 8,
                                           "prev": 0, "ruleset": "hua-bao", "started": 1.0})
        service.store.apply_fact("green", {**_hand(16, 8, 1), "session": 3})
        service.store.apply_fact("green", {**_hand(24, 16, 2), "session": 3})
        won: list[dict[str, object]] = client.get("/api/club/players/Bo").json()["hands_won"]
        return won


def test_a_hand_won_links_to_its_review_on_its_table(tmp_path: Path) -> None:
    won = _won(tmp_path, "http://192.168.1.20:8080/")
    assert [w["review"] for w in won] == ["http://192.168.1.20:8080/review/3/1",
                                          "http://192.168.1.20:8080/review/3/2"]


def test_no_link_without_a_web_address(tmp_path: Path) -> None:
    assert [w["review"] for w in _won(tmp_path / "a", None)] == [None, None]
    assert [w["review"] for w in _won(tmp_path / "b", "javascript:alert(1)//")] == [None, None]
