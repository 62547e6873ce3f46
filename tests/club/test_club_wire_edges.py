"""club-wire's functions at the edges its mutation run found untested (issue 29, eighth session;
docs/testing.md): the broker password read from a file's first line, and a tournament whose
tables do not fit its players refused with the count it needs (docs/club.md)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from controller.club.mqtt import BrokerConfig, read_password
from controller.club.service import ClubService
from controller.club.tournament import TournamentError
from tests.reliability.support import free_port


def test_the_password_is_the_files_first_line_stripped(tmp_path: Path) -> None:
    path = tmp_path / "password"
    path.write_text("  s\u00e9cret word \nthe second line\n", encoding="utf-8")
    assert read_password(path) == "s\u00e9cret word"
    assert read_password(None) is None


@pytest.mark.parametrize("content", [None, ""])
def test_a_missing_or_empty_password_file_is_one_clear_error(tmp_path: Path,
                                                             content: str | None) -> None:
    path = tmp_path / "password"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    said = re.escape(f"cannot read the broker password from {path}: ")
    with pytest.raises(ValueError, match=said):
        read_password(path)


def test_a_tournament_names_as_many_tables_as_its_players_need(tmp_path: Path) -> None:
    service = ClubService(tmp_path / "club", BrokerConfig("127.0.0.1", free_port()))
    players = [f"P{i}" for i in range(8)]
    with pytest.raises(TournamentError) as e:
        service.new_tournament(players, 2, 30, ["t1"])
    assert str(e.value) == "8 players need 2 tables; 1 were named"
    assert service.tournament() is None
    made = service.new_tournament(players, 2, 30, ["t1", "t2"])
    assert made["tables"] == ["t1", "t2"] and len(made["plan"]) == 2
    service.store.close()


def test_rounds_start_one_after_the_other_each_with_its_own_seating(tmp_path: Path) -> None:
    """docs/club.md: rounds are started in turn, each seated by its row of the plan, none past
    the tournament's number; a refusal names the next round (or that there is no tournament)."""
    service = ClubService(tmp_path / "club", BrokerConfig("127.0.0.1", free_port()))
    with pytest.raises(TournamentError, match="^no tournament: create one first$"):
        service.start_round(1, now=100.0)
    players = [f"P{i}" for i in range(8)]
    plan = service.new_tournament(players, 2, 30, ["t1", "t2"])["plan"]
    with pytest.raises(TournamentError, match="^the next round is 1$"):
        service.start_round(2, now=100.0)
    for number in (1, 2):
        rnd = service.start_round(number, now=100.0 * number)
        assert (rnd["round"], rnd["started"], rnd["ends_at"]) == (
            number, 100.0 * number, 100.0 * number + 30 * 60)
        assert rnd["seating"] == dict(zip(["t1", "t2"], plan[number - 1], strict=True))
    with pytest.raises(TournamentError, match="^the next round is 3$"):
        service.start_round(3, now=400.0)
    assert [r["round"] for r in service.store.get("tournament")["rounds_played"]] == [1, 2]
    service.store.close()


def _session(service: ClubService, table: str, started: float) -> None:
    names = {str(s): f"{table}-{s}" for s in range(1, 5)}
    net = {"1": -48, "2": 96, "3": -24, "4": -24}
    for fact in (
            {"kind": "session_start", "session": 1, "pos": 8, "prev": 0, "ruleset": "hua-bao",
             "started": started},
            {"kind": "hand", "session": 1, "pos": 16, "prev": 8, "number": 1,
             "result": "mahjong", "winner": 2, "win_source": "wall", "discarder": None,
             "scores": {"1": 0, "2": 24, "3": 0, "4": 0}, "net": net,
             "winds": {"1": "east", "2": "south", "3": "west", "4": "north"}, "names": names,
             "payments": []},
            {"kind": "session_end", "session": 1, "pos": 24, "prev": 16, "ended": started + 60,
             "ruleset": "hua-bao", "hands": 1, "totals": net, "deductions": {}, "final": net,
             "names": names, "penalties": []}):
        assert service.store.apply_fact(table, fact) == "applied"


def test_a_season_is_the_calendar_year_in_local_time(tmp_path: Path) -> None:
    """docs/club.md: a season is a calendar year; a session counts in the season it started in,
    from New Year's midnight (local time) up to the next one, not including it."""
    service = ClubService(tmp_path / "club", BrokerConfig("127.0.0.1", free_port()))
    new_year = time.mktime((2026, 1, 1, 0, 0, 0, 0, 0, -1))
    next_year = time.mktime((2027, 1, 1, 0, 0, 0, 0, 0, -1))
    starts = {"at-new-year": new_year, "just-before": new_year - 1,
              "last-second": next_year - 1, "next-year": next_year}
    for table, started in starts.items():
        _session(service, table, started)
    league = service.standings(2026)["league"]
    assert service.standings(2026)["season"] == 2026
    assert sorted(s["table"] for s in league["sessions"]) == ["at-new-year", "last-second"]
    assert {r["name"].split("-")[0] for r in league["standings"]} == {"at", "last"}
    service.store.close()
