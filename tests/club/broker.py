"""A real Mosquitto broker (Debian's package) on a free localhost port, with its own config;
it can be killed and started again on the same port. Either open (anyone may connect: the
attacks' "README broker" of issue 21) or locked with exactly the configuration the club writes
(``mahjong-table club enrol-table``: users, access rules, client ids bound to user names, the
message size limit); ``watch`` users may read everything (the tests' spies)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.cli import main
from controller.club import brokerconf
from controller.club.keyring import CLUB_USER, Credentials
from controller.club.mqtt import BrokerConfig
from controller.club.publisher import ClubPublisher
from tests.reliability.support import free_port
from tests.waiting import until

__all__ = ["Mosquitto", "club_login", "enrol", "table_publisher", "until"]

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def enrol(club_dir: Path, table: str, out: Path) -> Path:
    """Enrol a table with the real command; the path of its credentials file."""
    out.parent.mkdir(parents=True, exist_ok=True)
    assert main(["club", "enrol-table", table, "--data-dir", str(club_dir), "-o", str(out)]) == 0
    return out


def enrolled_broker(tmp_path: Path, watchers: dict[str, str]) -> Iterator[Mosquitto]:
    """A fixture's body: the locked broker the club writes, with table t1 enrolled (t1.json
    beside it), stopped after the test."""
    enrol(tmp_path / "club", "t1", tmp_path / "t1.json")
    started = Mosquitto(tmp_path / "broker", tmp_path / "club", watchers)
    started.start()
    yield started
    started.stop()


class Mosquitto:
    def __init__(self, workdir: Path, club_dir: Path | None = None,
                 watchers: dict[str, str] | None = None) -> None:
        if not Path(MOSQUITTO).exists() and os.environ.get("CI") != "true":
            pytest.skip("mosquitto is not installed (apt-get install mosquitto); in CI it runs")
        self.dir = workdir
        self.dir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.club_dir = club_dir
        self.watchers = watchers or {}
        self.conf = self.dir / "mosquitto.conf"
        self.proc: subprocess.Popen[bytes] | None = None
        self.configure()

    def configure(self) -> None:
        """(Re)write the config: the club's own when locked (call again after an enrolment)."""
        lines = []
        if self.club_dir is not None:
            written = brokerconf.write_config(self.club_dir, self.port, "127.0.0.1")
            lines = [x for x in written.read_text().splitlines()
                     if not x.startswith("persistence")]
            for user, password in self.watchers.items():
                brokerconf.set_password(self.club_dir, user, password)
            acl = self.club_dir / "broker" / "acl"
            acl.write_text(acl.read_text() + "".join(
                f"\nuser {u}\ntopic read #\n" for u in self.watchers))
        else:
            lines = [f"listener {self.port} 127.0.0.1", "allow_anonymous true"]
        lines += ["persistence false", "log_dest file " + str(self.dir / "mosquitto.log"),
                  "log_type error", "log_type warning", "log_type notice",
                  "max_queued_messages 100000"]
        if os.geteuid() == 0 and self.club_dir is None:  # the club's conf names its user
            lines.append("user root")  # as root it would become "mosquitto": no tmp_path
        self.conf.write_text("\n".join(lines) + "\n")

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

    def reload(self) -> None:
        """Re-read the password file and access rules (SIGHUP), after an enrolment."""
        self.configure()
        assert self.proc is not None
        self.proc.send_signal(signal.SIGHUP)

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


def club_login(broker: Mosquitto) -> BrokerConfig:
    """The club service's login at the locked broker (the password the club made)."""
    assert broker.club_dir is not None
    return BrokerConfig("127.0.0.1", broker.port, CLUB_USER,
                        brokerconf.club_password(broker.club_dir))


def table_publisher(data_dir: Path, credentials: Path, broker: Mosquitto,
                    **options: Any) -> ClubPublisher:
    """A table's real publisher with the credentials enrol-table wrote."""
    creds = Credentials.load(credentials)
    login = BrokerConfig("127.0.0.1", broker.port, creds.broker_user, creds.broker_password)
    return ClubPublisher(data_dir, creds.table, login, signer=creds.signer, club=creds.club,
                         **options)
