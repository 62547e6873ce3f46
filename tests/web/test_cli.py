"""The serve command: one-line errors for bad configs and busy ports, a real start with the
simulation, and access logs that never show a token."""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from controller.cli import main
from controller.cli.serve_cmd import RedactTokens
from tests.web.support import free_port

ROOT = Path(__file__).resolve().parents[2]


def test_unknown_config_key_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "table.toml"
    bad.write_text("[server]\nport = 8080\nhots = '0.0.0.0'\n")
    assert main(["serve", "--config", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{bad}:3: unknown key 'hots' in [server]" in err


def test_busy_port_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code = main(["serve", "--simulate", "--port", str(port), "--data-dir", str(tmp_path)])
    assert code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


def test_access_log_masks_tokens() -> None:
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1,
                               '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5000", "GET", "/ws/seats/2?token=SECRET&x=1", "1.1",
                                101), None)
    assert RedactTokens().filter(record)
    text = record.getMessage()
    assert "SECRET" not in text and "token=***&x=1" in text


def _seq_reaches(port: int, seq: int, timeout: float) -> bool:
    """Has the service on ``port`` recorded ``seq`` events within ``timeout`` seconds?"""
    now, deadline = 0, time.time() + timeout
    while time.time() < deadline and now < seq:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health",
                                        timeout=30) as res:
                now = json.load(res)["seq"]
        except OSError:
            time.sleep(0.2)
    return now >= seq


def _cpus_of(pid: int) -> dict[str, str]:
    """Thread id -> the CPUs it may run on, as the kernel says."""
    out: dict[str, str] = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            status = Path(f"/proc/{pid}/task/{tid}/status").read_text()
        except OSError:
            continue
        out[tid] = next(line.split(":", 1)[1].strip() for line in status.splitlines()
                        if line.startswith("Cpus_allowed_list"))
    return out


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="needs Linux and two CPUs")
def test_serve_runs_every_thread_on_one_cpu(tmp_path: Path) -> None:
    """``[server] cpu = "auto"`` (controller/web/cpu.py): every thread on the last CPU."""
    last = max(os.sched_getaffinity(0))
    port = free_port()
    # The service's output goes to a file: a pipe nobody reads while it runs fills up (64 KB
    # of access log on a slow, loaded host) and the service stops, blocked on its log.
    with (tmp_path / "serve.log").open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "controller", "serve", "--simulate", "--pace", "0.01",
             "--port", str(port), "--data-dir", str(tmp_path / "data")],
            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    try:
        assert _seq_reaches(port, 20, timeout=120)  # the game and the serial links run
        threads = _cpus_of(proc.pid)
        assert len(threads) >= 8  # web, game, the virtual boards and their serial links
        assert set(threads.values()) == {str(last)}, threads
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert f"on CPU {last})" in (tmp_path / "serve.log").read_text()


def test_serve_simulate_starts_and_plays(tmp_path: Path) -> None:
    port = free_port()
    with (tmp_path / "serve.log").open("wb") as log:  # a file, not an unread pipe (above)
        proc = subprocess.Popen(
            [sys.executable, "-m", "controller", "serve", "--simulate", "--in-process",
             "--pace", "0.001", "--port", str(port), "--data-dir", str(tmp_path / "data"),
             "--log-level", "info"],
            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
        )
    try:
        assert _seq_reaches(port, 50, timeout=120)
        tokens = json.loads(subprocess.run(
            [sys.executable, "-m", "controller", "tokens", "--data-dir", str(tmp_path / "data"),
             "--json"], cwd=ROOT, capture_output=True, text=True, check=True).stdout)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/table", timeout=30) as res:
            assert json.load(res)["session"]["active"]
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    out = (tmp_path / "serve.log").read_text()
    for token in [tokens["admin"], *tokens["seats"].values()]:
        assert token not in out


def test_serve_ruleset_starts_that_rule_set_after_another_s_session(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A newcomer runs `serve --simulate` (hua-bao), then `serve --simulate --ruleset riichi`
    on the same data: the hua-bao session is ended (kept) and the service plays riichi; the
    same rule set, or none named, resumes the session as before."""
    from fastapi.testclient import TestClient

    from controller.app import build
    from controller.cli.serve_cmd import _end_other_ruleset
    from controller.config import Config, SessionConfig
    from controller.store import EventLog

    with EventLog.open(tmp_path / "events.sqlite") as log:
        first = log.start_session("hua-bao", {}, 1.0)
    for asked in (None, "hua-bao"):
        _end_other_ruleset(tmp_path, asked)
        with EventLog.open(tmp_path / "events.sqlite") as log:
            assert log.session(first).ended_at is None, asked
    _end_other_ruleset(tmp_path, "riichi")
    said = capsys.readouterr().out
    assert f"session {first} in {tmp_path} is hua-bao, not riichi: it is ended" in said
    system = build(Config(session=SessionConfig(ruleset="riichi")), tmp_path)
    with TestClient(system.app) as client:
        session = client.get("/api/table").json()["session"]
    assert session["ruleset"] == "riichi" and session["active"]
    with EventLog.open(tmp_path / "events.sqlite") as log:
        assert [(s.ruleset, s.ended_at is not None) for s in log.sessions()] == [
            ("hua-bao", True), ("riichi", False)]
