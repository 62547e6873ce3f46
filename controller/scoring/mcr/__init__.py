"""Rule set ``mcr``: the Chinese Official rules (Green Book, as the EMA plays them), RULES.md
section 10. Its fans are a data table (fans.py); the scorer arranges the hand every way and
keeps the shape that scores the most fans (scorer.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from controller.scoring.mcr.scorer import score_mcr

__all__ = ["score_mcr"]


def __getattr__(name: str) -> Any:
    """``score_mcr`` loaded when first asked for: a process scoring other rule sets (or only
    reading mcr's shapes) does not import the mcr scorer and its tables."""
    if name == "score_mcr":
        from controller.scoring.mcr.scorer import score_mcr

        return score_mcr
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
