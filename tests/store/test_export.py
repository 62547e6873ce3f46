"""``mahjong-table export``: the table log (JSON lines) and the CSV of hands and payments."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from controller.cli import main
from controller.store import EventLog

SESSION = {"session": {"ruleset": "hua-bao", "options": {"bonus_tiles": False}}}
EVENTS = [
    {"move": {"tile": "5b", "from": "wall", "to": "rack:1", "uid": "04:00:00:01"}},
    {"move": {"tile": "ew", "from": "wall", "to": "rack:2"}},
    {"timer": {"seat": 2, "kind": "turn", "overrun": 1.5}},
    {"declare": {"seat": 3, "call": "claim"}},
    {"correct": {"undo": 1}},
]


def _log(db: Path, sessions: int = 1) -> None:
    with EventLog.open(db) as log:
        for n in range(sessions):
            sid = log.start_session("hua-bao", {"bonus_tiles": False}, float(n))
            log.append(sid, SESSION, True, None, None, "admin", 0.0)
            for i, event in enumerate(EVENTS[: 5 - n]):
                log.append(sid, event, i != 3, None, None, "table", float(i))


def test_jsonl_export_writes_the_session_line_then_the_table_events(tmp_path: Path) -> None:
    db, out = tmp_path / "events.sqlite", tmp_path / "game.jsonl"
    _log(db)
    assert main(["export", "--db", str(db), "--format", "jsonl", "-o", str(out)]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines == [SESSION] + [e for e in EVENTS if "timer" not in e]


def test_jsonl_export_with_notes_keeps_timers(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "events.sqlite"
    _log(db)
    assert main(["export", "--data-dir", str(tmp_path), "--format", "jsonl", "--notes"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines == [SESSION] + EVENTS


def test_export_of_an_older_session(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "events.sqlite"
    _log(db, sessions=2)
    assert main(["export", "--db", str(db), "--session", "1", "--format", "jsonl"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 1 + 4
    assert main(["export", "--db", str(db), "--format", "jsonl"]) == 0  # latest: session 2
    assert len(capsys.readouterr().out.splitlines()) == 1 + 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--session", "7"], "has no session 7"),
        (["--db", "MISSING"], "there is no event log"),
    ],
)
def test_export_errors_are_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    db = tmp_path / "events.sqlite"
    _log(db)
    args = [str(tmp_path / a) if a == "MISSING" else a for a in args]
    if "--db" not in args:
        args = ["--db", str(db), *args]
    out = tmp_path / "never.jsonl"
    assert main(["export", *args, "--format", "jsonl", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not out.exists()


def test_csv_export_has_one_row_per_hand(tmp_path: Path) -> None:
    db, out = tmp_path / "events.sqlite", tmp_path / "hands.csv"
    _log(db)
    assert main(["export", "--db", str(db), "--format", "csv", "-o", str(out)]) == 0
    rows = list(csv.DictReader(out.read_text().splitlines()))
    # A hand under way (two tiles dealt) has no result yet: it is left out.
    assert rows == []
    assert out.read_text().startswith("session,hand,dealer,")


def test_csv_leaves_out_the_hand_still_in_play(tmp_path: Path) -> None:
    from controller.game import apply, new_game
    from controller.players.director import Director

    db, out = tmp_path / "events.sqlite", tmp_path / "hands.csv"
    director, state = Director("hua-bao", {}, hands=3, seed=5), new_game()
    with EventLog.open(db) as log:
        sid = log.start_session("hua-bao", {}, 0.0)
        while len(state.hands) < 2 or state.hand is None or state.hand.phase != "play":
            event = director.next_action(state)
            assert event is not None
            outcome = apply(state, event, None)
            log.append(sid, event, outcome.accepted, None, None, "test", 0.0)
            state = outcome.state
    assert main(["export", "--db", str(db), "--format", "csv", "-o", str(out)]) == 0
    rows = [r for r in csv.DictReader(out.read_text().splitlines()) if r["hand"].isdigit()]
    assert [r["hand"] for r in rows] == ["1", "2"]
    assert all(r["result"] in ("mahjong", "washout") for r in rows)


def test_replay_from_the_db_equals_replay_of_the_exported_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, out = tmp_path / "events.sqlite", tmp_path / "game.jsonl"
    _log(db)
    assert main(["export", "--db", str(db), "--format", "jsonl", "-o", str(out)]) == 0
    assert main(["replay", str(out)]) == 0
    from_file = json.loads(capsys.readouterr().out)
    assert main(["replay", "--db", str(db)]) == 0
    from_db = json.loads(capsys.readouterr().out)
    assert from_db == from_file
    assert from_db["state"]["hand_over"] is False


def test_replay_db_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "events.sqlite"
    _log(db)
    assert main(["replay", "--db", str(db), "--session", "5"]) == 2
    assert "has no session 5" in capsys.readouterr().err
    assert main(["replay", "--db", str(db), "x.jsonl"]) == 2
    assert "not both" in capsys.readouterr().err


def test_csv_of_a_played_session_reconciles_payments_with_nets(tmp_path: Path) -> None:
    from controller.game import apply, new_game
    from controller.players.director import Director

    db, out = tmp_path / "events.sqlite", tmp_path / "hands.csv"
    director, state = Director("hua-bao", {}, hands=2, seed=5), new_game()
    with EventLog.open(db) as log:
        sid = log.start_session("hua-bao", {}, 0.0)
        while (event := director.next_action(state)) is not None:
            outcome = apply(state, event, None)
            log.append(sid, event, outcome.accepted, None, None, "test", 0.0)
            state = outcome.state
    assert main(["export", "--db", str(db), "--format", "csv", "-o", str(out)]) == 0
    rows = [r for r in csv.DictReader(out.read_text().splitlines()) if r["hand"].isdigit()]
    assert [r["hand"] for r in rows] == ["1", "2"]
    for row in rows:
        net = {s: 0 for s in "1234"}
        for payment in filter(None, row["payments"].split("; ")):
            route, amount = payment.split()
            payer, payee = route.split("->")
            net[payer] -= int(amount)
            net[payee] += int(amount)
        assert net == {s: int(row[f"net_{s}"]) for s in "1234"}
        assert row["result"] in ("mahjong", "washout")


def test_csv_names_and_winds_are_those_of_each_hand(tmp_path: Path) -> None:
    """Issue 13: each row carries every seat's wind in that hand (the dealer is east) and the
    name of the player seated there then; a player replaced between hands shows in the next
    row only. The original columns keep their order; the new ones follow them."""
    from controller.game import apply, new_game
    from controller.players.director import Director

    db, out = tmp_path / "events.sqlite", tmp_path / "hands.csv"
    director, state = Director("hua-bao", {}, hands=3, seed=5), new_game()
    seated = [{"player": {"seat": p, "name": n}} for p, n in enumerate(["Ann", "Bo", "Cai"], 1)]
    later = [{"player": {"seat": 3, "name": "Cy"}}]
    with EventLog.open(db) as log:
        sid = log.start_session("hua-bao", {}, 0.0)
        while (event := director.next_action(state)) is not None:
            for each in [event, *(seated if "session" in event else [])]:
                outcome = apply(state, each, None)
                assert outcome.accepted, (each, outcome.violation)
                log.append(sid, each, True, None, None, "test", 0.0)
                state = outcome.state
            if len(state.hands) == 1 and later:
                outcome = apply(state, later.pop(), None)
                assert outcome.accepted
                log.append(sid, {"player": {"seat": 3, "name": "Cy"}}, True, None, None, "op", 0.0)
                state = outcome.state
    assert main(["export", "--db", str(db), "--format", "csv", "-o", str(out)]) == 0
    text = out.read_text()
    header = text.splitlines()[0].split(",")
    assert header == ["session", "hand", "dealer", "prevailing_wind", "result", "winner",
                      *[f"score_{s}" for s in "1234"], *[f"net_{s}" for s in "1234"], "payments",
                      *[f"wind_{s}" for s in "1234"], *[f"name_{s}" for s in "1234"],
                      "win_source", "discarder"]
    rows = [r for r in csv.DictReader(text.splitlines()) if r["hand"].isdigit()]
    assert [r["hand"] for r in rows] == ["1", "2", "3"]
    order = ["east", "south", "west", "north"]
    for row in rows:
        dealer = int(row["dealer"])
        assert [row[f"wind_{p}"] for p in range(1, 5)] == [
            order[(p - dealer) % 4] for p in range(1, 5)]
        assert (row["name_1"], row["name_2"], row["name_4"]) == ("Ann", "Bo", "")
    assert [r["name_3"] for r in rows] == ["Cai", "Cy", "Cy"]
