"""The serve command: one-line errors for bad configs and busy ports, a real start with the
simulation, and access logs that never show a token."""

from __future__ import annotations

import json
import logging
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from controller.cli import main
from controller.cli.serve_cmd import RedactTokens

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


def test_serve_simulate_starts_and_plays(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller", "serve", "--simulate", "--in-process", "--pace",
         "0.001", "--port", str(port), "--data-dir", str(tmp_path / "data"), "--log-level",
         "info"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    try:
        seq, deadline = 0, time.time() + 20
        while time.time() < deadline and seq < 50:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health") as res:
                    seq = json.load(res)["seq"]
            except OSError:
                time.sleep(0.2)
        assert seq >= 50
        tokens = json.loads(subprocess.run(
            [sys.executable, "-m", "controller", "tokens", "--data-dir", str(tmp_path / "data"),
             "--json"], cwd=ROOT, capture_output=True, text=True, check=True).stdout)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/table") as res:
            assert json.load(res)["session"]["active"]
    finally:
        proc.terminate()
        out = proc.communicate(timeout=10)[0].decode()
    for token in [tokens["admin"], *tokens["seats"].values()]:
        assert token not in out
