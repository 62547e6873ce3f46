"""Rule set ``mcr``: the Chinese Official rules (Green Book, as the EMA plays them), RULES.md
section 10. Its fans are a data table (fans.py); the scorer arranges the hand every way and
keeps the shape that scores the most fans (scorer.py)."""

from controller.scoring.mcr.scorer import score_mcr

__all__ = ["score_mcr"]
