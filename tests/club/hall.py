"""A club evening in one process for the attack tests: a real Mosquitto (locked as the club
writes it, or open as Debian ships it), two tables that really play (the engine's own
simulated players, the round keeper, the real publisher with its enrolled credentials), the
real club service with its HTTP API, and an attacker: a bare paho client, anonymous or with a
third enrolled table's credentials ("mallory")."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho
from fastapi.testclient import TestClient

from controller.app import build
from controller.club.app import create_club_app
from controller.club.keyring import Credentials
from controller.club.mqtt import BrokerConfig
from controller.club.rounds import round_source
from controller.club.service import ClubService
from controller.config import Config
from controller.sources.simulation import simulation_source
from controller.web import club_link
from tests.club.broker import Mosquitto, club_login, enrol, table_publisher, until

TABLES = ("green", "blue")
WATCH = {"watch": "watch-secret"}


class Table:
    """A table playing ``hands`` hands with the simulated players, publishing to the club."""

    def __init__(self, data_dir: Path, credentials: Path, broker: Mosquitto, insecure: bool,
                 seed: int, hands: int, play: Any = None,
                 clock: Callable[[], float] = time.time) -> None:
        """``play``: the players' event source (else the simulation, ``hands`` hands);
        ``clock``: the table's (its round keeper's time-up)."""
        self.publisher = table_publisher(data_dir, credentials, broker, insecure=insecure,
                                         poll=0.05)
        self.name = self.publisher.table
        self.system = build(Config(), data_dir, clock=clock, sources={
            "simulation": play or simulation_source(0.002, seed, hands=hands),
            "club-rounds": round_source(self.publisher, every=0.05)})
        self.loop = self.system.loop
        club_link.attach(self.loop, self.publisher)
        self.loop.subscribe(lambda _change: self.publisher.wake())
        self.http = TestClient(self.system.app)
        self.http.__enter__()
        self.publisher.start()

    def finished(self) -> dict[int, dict[str, int]]:
        """The table's own finished hands: number -> net by seat."""
        hands = self.http.get("/api/hands").json()["hands"]
        return {h["number"]: h["net"] for h in hands if h.get("result") is not None}

    def stop(self) -> None:
        self.publisher.stop()
        self.http.__exit__(None, None, None)


class Hall:
    def __init__(self, tmp: Path, locked: bool, hands: int = 3) -> None:
        self.tmp = tmp
        self.club_dir = tmp / "club"
        creds = {n: enrol(self.club_dir, n, tmp / f"{n}.json") for n in (*TABLES, "mallory")}
        self.mallory = Credentials.load(creds["mallory"])
        self.broker = Mosquitto(tmp / "broker", self.club_dir if locked else None, WATCH)
        self.broker.start()
        login = club_login(self.broker) if locked else BrokerConfig("127.0.0.1",
                                                                    self.broker.port)
        self.club = ClubService(self.club_dir, login)
        self.http = TestClient(create_club_app(self.club))
        self.http.__enter__()
        # on the open broker anyone may listen from the start: every message, to play back
        self.listener = None if locked else Attacker(self.broker.port, client_id="listener",
                                                     listen="#")
        self.tables = {n: Table(tmp / n, creds[n], self.broker, not locked, seed, hands)
                       for seed, n in enumerate(TABLES, start=3)}

    def stop(self) -> None:
        for table in self.tables.values():
            table.stop()
        if self.listener is not None:
            self.listener.stop()
        self.http.__exit__(None, None, None)
        self.broker.stop()


class Attacker:
    """A bare MQTT client: anonymous, or logged in with someone's user name and password."""

    def __init__(self, port: int, user: str | None = None, password: str | None = None,
                 client_id: str = "attacker", listen: str | None = None) -> None:
        self.client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id=client_id)
        if user is not None:
            self.client.username_pw_set(user, password)
        self.answers: list[bool] = []
        self.heard: list[tuple[str, bytes]] = []

        def connected(client: Any, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
            self.answers.append(not reason.is_failure)
            if listen is not None:
                client.subscribe(listen, qos=1)

        self.client.on_connect = connected
        self.cuts = 0  # connections closed (by the broker: a message over its size limit)

        def cut(*_: Any) -> None:
            self.cuts += 1

        self.client.on_disconnect = cut
        self.client.on_message = lambda _c, _u, m: self.heard.append((m.topic, bytes(m.payload)))
        self.client.connect_async("127.0.0.1", port, keepalive=10)
        self.client.loop_start()
        until(lambda: self.answers, 20, "the broker answers the attacker")

    @property
    def accepted(self) -> bool:
        return bool(self.answers and self.answers[0])

    def send(self, topic: str, message: Any, retain: bool = False) -> None:
        payload = message if isinstance(message, bytes) else json.dumps(message).encode()
        cuts = self.cuts
        info = self.client.publish(topic, payload, qos=1, retain=retain)

        def answered() -> bool:
            """Acknowledged, or the connection cut over it (the locked broker's size limit:
            no acknowledgement ever comes; waiting out a fixed 10 s took 60 s a test)."""
            try:
                return info.is_published() or self.cuts > cuts
            except (RuntimeError, ValueError):
                return True  # refused or cut off: what the test wants to see

        until(answered, 60, f"the broker's answer to a message on {topic}", every=0.01)

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
