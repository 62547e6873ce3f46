"""Signatures on every club message (Ed25519, PyPI ``cryptography``).

A message is a JSON object; its signature (``sig``, base64) covers the topic and the message's
canonical JSON without ``sig``, so a signed fact can be neither changed, moved to another
table's topic nor given another position. Each table signs with its own key (issued when the
club enrols it); the club signs its round, roster and resend requests with its own key, whose
public half every table holds.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

DOMAIN = b"mahjong-club/1 "


def canonical(topic: str, message: dict[str, Any]) -> bytes:
    """The signed bytes: the domain, the topic and the message (``sig`` left out)."""
    body = {k: v for k, v in message.items() if k != "sig"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)
    return DOMAIN + topic.encode() + b"\n" + text.encode()


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _unb64(text: str, size: int, what: str) -> bytes:
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        raise ValueError(f"{what} is not base64") from None
    if len(raw) != size:
        raise ValueError(f"{what} is {len(raw)} bytes, not {size}")
    return raw


class Signer:
    """Signs messages with a private key."""

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self._key = key

    @classmethod
    def generate(cls) -> Signer:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_text(cls, text: str) -> Signer:
        """From the base64 of the 32-byte private key (as in a credentials file)."""
        raw = _unb64(text, 32, "the private key")
        return cls(Ed25519PrivateKey.from_private_bytes(raw))

    def private_text(self) -> str:
        from cryptography.hazmat.primitives.serialization import NoEncryption, PrivateFormat

        return _b64(self._key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption()))

    def public_text(self) -> str:
        return _b64(self._key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw))

    def sign(self, topic: str, message: dict[str, Any]) -> dict[str, Any]:
        """The message with its ``sig``."""
        return {**message, "sig": _b64(self._key.sign(canonical(topic, message)))}


class Verifier:
    """Checks signatures with a public key."""

    def __init__(self, key: Ed25519PublicKey) -> None:
        self._key = key

    @classmethod
    def from_text(cls, text: str) -> Verifier:
        """From the base64 of the 32-byte public key."""
        return cls(Ed25519PublicKey.from_public_bytes(_unb64(text, 32, "the public key")))

    def verify(self, topic: str, message: dict[str, Any]) -> bool:
        sig = message.get("sig")
        if not isinstance(sig, str) or len(sig) > 100:
            return False
        try:
            self._key.verify(_unb64(sig, 64, "the signature"), canonical(topic, message))
        except (InvalidSignature, ValueError):
            return False
        return True
