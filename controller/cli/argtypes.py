"""Argument types for the commands' options: a value that is not one is refused by the parser
(one line, exit 2) before anything starts, not found later as a traceback (issue 22: `nan` and
`inf` seconds, a port past 65535, JSON nested 2,000 deep)."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from controller import jsonsafe

#: Longer than any run anyone waits for (a day); `inf` seconds overflowed the clock's deadline.
MAX_SECONDS = 86_400.0


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a finite number")
    return value


def seconds(text: str) -> float:
    """A duration: more than 0, at most a day."""
    value = _number(text)
    if not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"{text[:40]!r} seconds: give more than 0 and at most {MAX_SECONDS:g}")
    return value


def pause(text: str) -> float:
    """A pause between moves: 0 or more, at most a day."""
    value = _number(text)
    if not 0 <= value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"{text[:40]!r} seconds: give 0 or more and at most {MAX_SECONDS:g}")
    return value


def _whole(text: str, what: str, low: int, high: int | None = None) -> int:
    """A whole number ``low``-``high`` (no ``high``: ``low`` or more); ``what`` names it in the
    refusal."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number") from None
    if value < low or (high is not None and value > high):
        span = f"{low}-{high}" if high is not None else f"{low} or more"
        raise argparse.ArgumentTypeError(f"{what} {text[:40]} is not {span}")
    return value


def seat(text: str) -> int:
    """A seat's position, 1-4."""
    return _whole(text, "seat", 1, 4)


def positive(text: str) -> int:
    """A count or number from 1 (a session id, a hand's place)."""
    return _whole(text, "number", 1)


def port(text: str) -> int:
    """A TCP port, 0-65535 (0: any free one)."""
    return _whole(text, "port", 0, 65535)


def json_value(text: str, what: str) -> Any:
    """``text`` as JSON with the limits of :mod:`controller.jsonsafe` (nesting, digits); a
    value that looks like JSON but is not is refused rather than taken as a string."""
    try:
        return jsonsafe.loads(text)
    except (json.JSONDecodeError, UnicodeError) as exc:
        msg = getattr(exc, "msg", str(exc))
        raise ValueError(f"{what} is not JSON: {msg}") from None


def indent(text: str) -> int:
    """JSON indentation, 0-16 spaces (a billion was a MemoryError)."""
    return _whole(text, "indent", 0, 16)


def bit_error_rate(text: str) -> float:
    """A bit-error rate, 0 up to (not including) 0.5."""
    value = _number(text)
    if not 0 <= value < 0.5:
        raise argparse.ArgumentTypeError(
            f"{text[:40]!r}: a bit-error rate is between 0 and 0.5, e.g. 1e-3")
    return value


def file_name(text: str) -> str:
    """A file name as given (``-`` for standard input). One with a NUL character no system
    can open (``open`` raises ValueError, not OSError): refused here (`enroll --config` with a
    NUL printed a traceback in a loaded run's fuzz; `replay`, `settle`, `score` and `import`
    with one as their file did too)."""
    if "\x00" in text:
        raise argparse.ArgumentTypeError("a file name cannot hold a NUL character")
    return text


def path(text: str) -> Path:
    """A file or folder name as a Path (see :func:`file_name`)."""
    return Path(file_name(text))
