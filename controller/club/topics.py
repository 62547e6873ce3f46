"""Topic names and message helpers shared by the table's publisher and the club service.

    mahjong/tables/{table}/status   retained: hand, wall, turn, names, totals (no tiles)
    mahjong/tables/{table}/online   retained: {"online": bool} (false is the last will)
    mahjong/tables/{table}/facts    QoS 1: session_start, players, hand, hand_undone, penalty,
                                    penalty_undone, session_end; each with pos and prev
    mahjong/tables/{table}/resend   the club asks for the facts after a position again
    mahjong/club/round              retained: the tournament round and its end time
    mahjong/club/roster             retained: the club's players' names

Every message is signed by its writer (``controller.club.signing``) and checked against
``controller.club.schema`` by its reader before anything acts on it.
"""

from __future__ import annotations

import json
import re
from typing import Any

PREFIX = "mahjong"
ROUND = f"{PREFIX}/club/round"
ROSTER = f"{PREFIX}/club/roster"
TABLES = f"{PREFIX}/tables/+/#"
TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
#: One event position holds at most this many facts: pos = seq * SLOTS + index.
SLOTS = 8


def table_topic(table: str, leaf: str) -> str:
    return f"{PREFIX}/tables/{table}/{leaf}"


def parse_table_topic(topic: str) -> tuple[str, str] | None:
    """(table, leaf) of a table topic, else None."""
    parts = topic.split("/")
    if len(parts) != 4 or parts[0] != PREFIX or parts[1] != "tables":
        return None
    if not TABLE_ID.match(parts[2]):
        return None
    return parts[2], parts[3]


def check_table_id(table: str) -> str:
    if not TABLE_ID.match(table):
        raise ValueError(f"a table id is 1-32 letters, digits, '-' or '_', not {table!r}")
    return table


def encode(message: dict[str, Any]) -> bytes:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()


def parse_broker(text: str) -> tuple[str, int]:
    """HOST:PORT (default port 1883)."""
    host, sep, port = text.rpartition(":")
    if not sep:
        return text, 1883
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"the broker is HOST:PORT (say, localhost:1883), not {text!r}")
    return host.strip("[]"), int(port)
