"""Rule set ``riichi``: Japanese mahjong as the EMA's Riichi Competition Rules play it (RULES.md
section 11). The yaku are a table (yaku.py) over the readings of a hand (readings.py); fu and
base points in fu.py; the scorer keeps the best reading (scorer.py); settle.py pays it out."""

from controller.scoring.riichi.scorer import score_riichi

__all__ = ["score_riichi"]
