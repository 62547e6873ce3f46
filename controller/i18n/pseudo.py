"""The pseudo-language ``en-XA``: every string bracketed (⟦ ⟧), its letters accented and its
length grown by about 40 %, its ``{placeholders}`` kept. A page rendered in it shows at a glance
a string that escaped the catalogs (no brackets) and a layout that cannot take longer words."""

from __future__ import annotations

import re

PSEUDO = "en-XA"
OPEN, CLOSE = "⟦", "⟧"
_ACCENTS = str.maketrans("aeiouyAEIOUYcnsCNS", "áéîõüýÅÉÎÕÜÝçñšÇÑŠ")
_PLACEHOLDER = re.compile(r"(\{[a-z_0-9]*\})")


def pseudo(text: str) -> str:
    """``"Seat {n}"`` -> ``"⟦Šéát {n}·····⟧"``."""
    parts = _PLACEHOLDER.split(text)
    body = "".join(p if _PLACEHOLDER.fullmatch(p) else p.translate(_ACCENTS) for p in parts)
    letters = sum(len(p) for p in parts if not _PLACEHOLDER.fullmatch(p))
    pad = "·" * max(1, round(letters * 0.4))
    # in words of at most six, as a language's longer words would come (a line may break)
    return f"{OPEN}{body}{' '.join(pad[i:i + 6] for i in range(0, len(pad), 6))}{CLOSE}"
