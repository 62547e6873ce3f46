"""The club's keys and the tables it has enrolled (``mahjong-table club enrol-table NAME``).

The club's data directory holds ``club-keys.json`` (mode 0600): the club's private key and,
for each enrolled table, its public key. Enrolling a table makes its key pair and broker
password and hands the table its credentials (a JSON file, mode 0600): the table's name, its
broker user and password, its private key and the club's public key. The club keeps no
table's private key and no broker password in clear (the broker's password file holds hashes).
"""

from __future__ import annotations

import json
import logging
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.club.signing import Signer, Verifier
from controller.club.topics import check_table_id

log = logging.getLogger("controller.club.keyring")
KEYS_FILE = "club-keys.json"
CLUB_USER = "club"  # the club service's broker user; no table may take this name


class KeysError(ValueError):
    """Keys or credentials that cannot be read or made; the text says what to do."""


def write_private(path: Path, text: str) -> None:
    """Write a file only its owner can read (made 0600 before anything is written)."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


class Keyring:
    """The club's side: its signer and the verifier of each enrolled table (re-read when the
    file changes, so a table enrolled while the club runs is known at once)."""

    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / KEYS_FILE
        self._mtime: float | None = None
        self._bad_mtime: float | None = None
        self._data: dict[str, Any] = {}
        self._verifiers: dict[str, Verifier] = {}
        self.signer = self._load_or_create()

    def _load_or_create(self) -> Signer:
        if not self.path.exists():
            self.path.parent.mkdir(parents=True, exist_ok=True)
            signer = Signer.generate()
            self._data = {"club_key": signer.private_text(), "tables": {}}
            self._save()
        self._reload()
        return Signer.from_text(self._data["club_key"])

    def _reload(self) -> None:
        mtime = None
        try:
            mtime = self.path.stat().st_mtime
            if mtime in (self._mtime, self._bad_mtime):
                return  # unchanged, or damaged and already said so
            data = json.loads(self.path.read_text(encoding="utf-8"))
            Signer.from_text(data["club_key"])
            verifiers = {name: Verifier.from_text(entry["public"])
                         for name, entry in data["tables"].items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            self._bad_mtime = mtime
            raise KeysError(f"{self.path} cannot be read ({exc}): restore it from a backup, "
                            "or delete it and enrol every table again") from None
        self._data, self._verifiers, self._mtime = data, verifiers, mtime

    def _save(self) -> None:
        write_private(self.path, json.dumps(self._data, indent=1) + "\n")

    def verifier(self, table: str) -> Verifier | None:
        """The table's verifier, or None when the club never enrolled it (the file is read
        again when it changed: a table enrolled or given a new key while the club runs)."""
        try:
            self._reload()
        except KeysError as exc:  # damaged meanwhile: keep the keys read before
            log.warning("%s", exc)
        return self._verifiers.get(table)

    def tables(self) -> list[str]:
        self._reload()
        return sorted(self._verifiers)

    def enrol(self, table: str, replace: bool = False) -> tuple[Signer, str]:
        """A new key and broker password for the table: (its signer, its password)."""
        check_table_id(table)
        if table.casefold() == CLUB_USER:
            raise KeysError(f"{table!r} is the club service's own broker user: choose another "
                            "name for the table")
        self._reload()
        if table in self._data["tables"] and not replace:
            raise KeysError(f"the table {table} is already enrolled: --replace issues it a new "
                            "key and password (the old ones stop working)")
        signer = Signer.generate()
        self._data["tables"][table] = {"public": signer.public_text()}
        self._save()
        self._reload()
        return signer, secrets.token_urlsafe(24)


@dataclass(frozen=True)
class Credentials:
    """What a table needs to join the club: from the file enrol-table wrote."""

    table: str
    broker_user: str
    broker_password: str
    signer: Signer
    club: Verifier

    @staticmethod
    def text(table: str, password: str, signer: Signer, club_public: str) -> str:
        return json.dumps({"table": table, "broker_user": table, "broker_password": password,
                           "key": signer.private_text(), "club_key": club_public},
                          indent=1) + "\n"

    @classmethod
    def load(cls, path: Path) -> Credentials:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return cls(check_table_id(data["table"]), str(data["broker_user"]),
                       str(data["broker_password"]), Signer.from_text(data["key"]),
                       Verifier.from_text(data["club_key"]))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise KeysError(f"cannot read the club credentials {path} ({exc}): the club makes "
                            "them with `mahjong-table club enrol-table NAME -o FILE`") from None
