"""An mcr score's class, in a module of its own: it stays Python when the scorer's modules are
compiled (mypyc makes no class with ``__slots__`` derived from a Python class; see
scripts/build_compiled.py)."""

from __future__ import annotations

from controller.scoring.model import ScoreResult


class FanScore(ScoreResult):
    """An mcr score: its unit is fans (the dashboard and `score --hand` show them as MCR players
    read them: each fan with its value, the total, the flowers apart)."""

    __slots__ = ()
    unit = "fans"
