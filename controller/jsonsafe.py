"""JSON from outside (files, lines, requests) read without a traceback on hostile input.

`loads` is `json.loads` with two limits the standard library lacks: nesting deeper than
MAX_DEPTH (the C parser recurses: about 1,000 levels overflow the interpreter's stack) and
integers of more than MAX_DIGITS digits (Python refuses to convert them). Both are raised as
`json.JSONDecodeError`, so a caller that handles malformed JSON handles them too.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 100
MAX_DIGITS = 4300  # sys.get_int_max_str_digits()'s default


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number of more than {MAX_DIGITS} digits")
    return int(text)


_DECODER = json.JSONDecoder(parse_int=_int)


def nesting(text: str) -> tuple[int, int]:
    """(deepest nesting of [ and {, the position where MAX_DEPTH was passed or -1)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return 0, -1  # cannot be deeper than the brackets it holds
    depth = deepest = 0
    in_string = escaped = False
    for pos, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if depth > MAX_DEPTH:
                return deepest, pos
        elif ch in "]}":
            depth -= 1
    return deepest, -1


def loads(text: str | bytes) -> Any:
    """json.loads, refusing nesting deeper than MAX_DEPTH and over-long integers."""
    if isinstance(text, bytes | bytearray):
        text = text.decode("utf-8")
    _, where = nesting(text)
    if where >= 0:
        raise json.JSONDecodeError(f"nested more than {MAX_DEPTH} deep", text, where)
    try:
        return _DECODER.decode(text)
    except json.JSONDecodeError:
        raise
    except (ValueError, RecursionError) as exc:
        raise json.JSONDecodeError(str(exc) or "too deep", text, 0) from None
