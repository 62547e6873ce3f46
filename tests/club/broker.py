"""A real Mosquitto broker (Debian's package) on a free localhost port, with its own config;
it can be killed and started again on the same port. Password per table optional."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests.reliability.support import free_port

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
#: The access rules of docs/club.md: a table writes only under its own name, reads the club's
#: round and roster and its resend requests; the club (user "club") reads and writes all.
ACL = """user club
topic readwrite mahjong/#

pattern write mahjong/tables/%u/status
pattern write mahjong/tables/%u/online
pattern write mahjong/tables/%u/facts
pattern read mahjong/tables/%u/resend
pattern read mahjong/club/#
"""


class Mosquitto:
    def __init__(self, workdir: Path, passwords: dict[str, str] | None = None) -> None:
        if not Path(MOSQUITTO).exists() and os.environ.get("CI") != "true":
            pytest.skip("mosquitto is not installed (apt-get install mosquitto); in CI it runs")
        self.dir = workdir
        self.dir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.conf = self.dir / "mosquitto.conf"
        lines = [f"listener {self.port} 127.0.0.1", "persistence false",
                 "log_dest file " + str(self.dir / "mosquitto.log"), "log_type error",
                 "log_type warning", "max_queued_messages 100000"]
        if os.geteuid() == 0:  # as root it would become "mosquitto", who cannot read tmp_path
            lines.append("user root")
        if passwords:
            pwfile = self.dir / "passwd"
            pwfile.write_text("")
            for user, password in passwords.items():
                subprocess.run(["mosquitto_passwd", "-b", str(pwfile), user, password],
                               check=True, capture_output=True)
            pwfile.chmod(0o600)
            acl = self.dir / "acl"
            acl.write_text(ACL)
            lines += ["allow_anonymous false", f"password_file {pwfile}", f"acl_file {acl}"]
        else:
            lines.append("allow_anonymous true")
        self.conf.write_text("\n".join(lines) + "\n")
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self, timeout: float = 10.0) -> None:
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise AssertionError(f"mosquitto exited: {err}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise AssertionError("mosquitto did not listen")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None
