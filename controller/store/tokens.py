"""Access tokens: one admin token and one per seat, made on first start and kept in the data
directory (``tokens.json``, mode 0600); compared in constant time.
"""

from __future__ import annotations

import hmac
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from controller.store.files import private_dir

TOKENS_FILE = "tokens.json"
POSITIONS = (1, 2, 3, 4)


@dataclass(frozen=True)
class Tokens:
    admin: str
    seats: dict[int, str]

    def is_admin(self, candidate: str | None) -> bool:
        return _same(candidate, self.admin)

    def is_seat(self, position: int, candidate: str | None) -> bool:
        token = self.seats.get(position)
        return token is not None and _same(candidate, token)

    def to_json(self) -> dict[str, object]:
        return {"admin": self.admin, "seats": {str(p): t for p, t in sorted(self.seats.items())}}


def _same(candidate: str | None, token: str) -> bool:
    if not candidate:
        return False
    # surrogatepass: a candidate from a JSON message may hold a lone surrogate ("\ud800")
    return hmac.compare_digest(candidate.encode("utf-8", "surrogatepass"), token.encode("utf-8"))


def load_tokens(data_dir: Path) -> Tokens:
    """Read the tokens; raises FileNotFoundError or ValueError for a missing or damaged file."""
    path = data_dir / TOKENS_FILE
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        admin = _token(raw["admin"])
        seats = {int(p): _token(raw["seats"][str(p)]) for p in POSITIONS}
    except FileNotFoundError:
        raise
    except (KeyError, TypeError, ValueError, RecursionError) as exc:
        why = type(exc).__name__ if isinstance(exc, RecursionError) else str(exc)[:80]
        raise ValueError(f"{path} is damaged ({why}): delete it to make new tokens") from None
    return Tokens(admin=admin, seats=seats)


def _token(value: object) -> str:
    """A stored token: a non-empty string of the URL-safe characters token_urlsafe makes."""
    if not isinstance(value, str) or not value or not all(
            c.isascii() and (c.isalnum() or c in "-_") for c in value):
        raise ValueError("a token is not a string of letters, digits, - and _")
    return value


def load_or_create_tokens(data_dir: Path) -> Tokens:
    """The tokens of this data directory, made (and written with mode 0600) on first use."""
    path = data_dir / TOKENS_FILE
    if path.exists():
        return load_tokens(data_dir)
    private_dir(data_dir)
    tokens = Tokens(
        admin=secrets.token_urlsafe(24),
        seats={p: secrets.token_urlsafe(18) for p in POSITIONS},
    )
    # Create with 0600 from the start so the secret is never readable by others, even briefly.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(tokens.to_json(), fh, indent=2)
        fh.write("\n")
    return tokens
