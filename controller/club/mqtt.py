"""One way to make the MQTT client (paho-mqtt 2.x) for both sides: credentials, TLS, reconnects."""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho


@dataclass(frozen=True)
class BrokerConfig:
    host: str
    port: int
    username: str | None = None
    password: str | None = None
    ca_file: Path | None = None  # TLS: the CA that signed the broker's certificate


def read_password(path: Path | None) -> str | None:
    """The password from a file (first line), so that it never shows in a process list."""
    if path is None:
        return None
    try:
        return path.read_text(encoding="utf-8").splitlines()[0].strip()
    except (OSError, IndexError) as exc:
        raise ValueError(f"cannot read the broker password from {path}: {exc}") from None


def make_client(config: BrokerConfig, client_id: str, *, clean: bool = True) -> Any:
    """A paho client that reconnects by itself (1-8 s back-off) once connect_async'ed."""
    client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id=client_id,
                         clean_session=clean, protocol=paho.MQTTv311)
    if config.username:
        client.username_pw_set(config.username, config.password)
    if config.ca_file is not None:
        client.tls_set(ca_certs=str(config.ca_file), tls_version=ssl.PROTOCOL_TLS_CLIENT)
    client.reconnect_delay_set(min_delay=1, max_delay=8)
    client.max_inflight_messages_set(20)
    return client
