"""Test support: `mahjong-table serve` as a real subprocess on a free localhost port, and the
replay of its event log, to compare what the API showed with what the log holds."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from tests.web.support import free_port

REPO = Path(__file__).resolve().parents[2]
#: The fields of a finished hand that both the API and `replay` give (FORMATS.md).
HAND_FIELDS = ("number", "dealer", "prevailing_wind", "result", "winner", "scores", "net")


class Served:
    """One `mahjong-table serve` process; its combined output goes to ``log_path``."""

    def __init__(self, data_dir: Path, log_path: Path, *extra: str,
                 command: tuple[str, ...] = (sys.executable, "-m", "controller", "serve"),
                 cwd: Path = REPO, preexec: Any = None) -> None:
        self.data_dir = data_dir
        self.log_path = log_path
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        cmd = [*command, "--port", str(self.port), "--data-dir", str(data_dir), *extra]
        # Through a pipe, copied here: the service's own file-size limit (disk-full tests) and
        # its data directory's file system never touch its log.
        self._out = log_path.open("ab")
        self.proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1"},
                                     preexec_fn=preexec)
        self._copier = threading.Thread(target=self._copy, daemon=True)
        self._copier.start()
        self.client = httpx.Client(base_url=self.url, timeout=30.0)

    def _copy(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._out.write(line)
            self._out.flush()

    def wait_ready(self, timeout: float = 60.0) -> float:
        """Seconds until /api/health answers; AssertionError with the log when it never does."""
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            if self.proc.poll() is not None:
                raise AssertionError(f"serve exited with {self.proc.returncode}:\n{self.log()}")
            try:
                if self.client.get("/api/health").status_code == 200:
                    return time.monotonic() - start
            except httpx.TransportError:
                pass
            time.sleep(0.05)
        raise AssertionError(f"serve did not answer within {timeout} s:\n{self.log()}")

    def get(self, path: str, **kwargs: Any) -> Any:
        response = self.client.get(path, **kwargs)
        assert response.status_code == 200, (path, response.status_code, response.text)
        return response.json()

    def tokens(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads((self.data_dir / "tokens.json").read_text())
        return data

    def admin(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens()['admin']}"}

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        self.proc.wait(timeout=30)
        self._copier.join(timeout=10)
        self.client.close()
        self._out.close()


def replay_db(db: Path) -> dict[str, Any]:
    """`mahjong-table replay --db DB` as a user runs it."""
    done = subprocess.run([sys.executable, "-m", "controller", "replay", "--db", str(db)],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    summary: dict[str, Any] = json.loads(done.stdout)
    return summary


#: a deadline for a whole `simulate` run, not a speed bound: a noisy line's hand took 240 s on
#: a loaded host (load 30-40, three suites side by side)
SIMULATE_DEADLINE = 900


def simulate(tmp: Path, *args: str) -> dict[str, Any]:
    """`mahjong-table simulate ... --log FILE` as a user runs it; its JSON summary."""
    log = tmp / f"sim-{time.monotonic_ns()}.jsonl"
    done = subprocess.run([sys.executable, "-m", "controller", "simulate", "--quiet",
                           "--log", str(log), *args],
                          cwd=REPO, capture_output=True, text=True, timeout=SIMULATE_DEADLINE)
    assert done.returncode == 0, done.stderr
    summary: dict[str, Any] = json.loads(done.stdout)
    return summary


def hand_facts(hands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The comparable part of the finished hands (API entries or replay hands)."""
    return [{k: _keys_as_str(h.get(k)) for k in HAND_FIELDS} for h in hands
            if h.get("result") is not None]  # replay lists the hand in play too


def _keys_as_str(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): v for k, v in value.items()}
    return value


def last_seq(db: Path) -> int:
    """The highest seq in the event log (read-only, as another process would)."""
    from controller.store import EventLog, StoreError

    try:
        with EventLog.open(db, readonly=True) as log:
            return int(log.last_seq())
    except StoreError as exc:  # killed before its first start had written the schema
        if "there is no event log" in str(exc):
            return 0
        raise
