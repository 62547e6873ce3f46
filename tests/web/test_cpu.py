"""The service's threads on one CPU (``[server] cpu``, ``serve --cpu``; controller/web/cpu.py)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from controller.cli import main
from controller.web.cpu import CpuError, choose

ROOT = Path(__file__).resolve().parents[2]


def test_auto_takes_the_last_cpu_when_there_are_two_or_more() -> None:
    assert choose("auto", {0, 1, 2, 3}) == 3
    assert choose("auto", {2, 5}) == 5
    assert choose("auto", {0}) is None  # one CPU: nothing to choose
    assert choose("off", {0, 1}) is None
    assert choose(1, {0, 1}) == 1
    with pytest.raises(CpuError, match=r"CPU 7 is not one this process may use \(0, 1\)"):
        choose(7, {0, 1})


def test_a_cpu_the_service_may_not_use_is_one_line_and_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "table.toml"
    config.write_text("[server]\ncpu = 4096\n")
    assert main(["serve", "--config", str(config), "--data-dir", str(tmp_path / "d")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "CPU 4096 is not one this process may use" in err
    assert main(["serve", "--cpu", "-3", "--data-dir", str(tmp_path / "d")]) == 2
    assert "CPU -3 is not one" in capsys.readouterr().err


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
    last = max(os.sched_getaffinity(0))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller", "serve", "--simulate", "--pace", "0.01",
         "--port", str(port), "--data-dir", str(tmp_path / "data")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        seq, deadline = 0, time.time() + 30
        while time.time() < deadline and seq < 20:  # the game and the serial links run
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health") as res:
                    seq = json.load(res)["seq"]
            except OSError:
                time.sleep(0.2)
        assert seq >= 20
        threads = _cpus_of(proc.pid)
        assert len(threads) >= 8  # web, game, the virtual boards and their serial links
        assert set(threads.values()) == {str(last)}, threads
    finally:
        proc.terminate()
        out = proc.communicate(timeout=10)[0]
    assert f"on CPU {last})" in out
