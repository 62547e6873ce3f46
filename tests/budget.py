"""How many examples a property test that asks for more than the profile's gets.

A test that sets its own ``max_examples`` overrides the loaded hypothesis profile; wrapped in
``examples(n)`` it keeps n, except under the "mutation" profile (tests/conftest.py, chosen by
``MAHJONG_HYPOTHESIS_PROFILE=mutation``, which scripts/mutation sets for a group's run), where it
gets that profile's smaller number so each mutant's run stays short."""

from __future__ import annotations

import os

from hypothesis import settings


def examples(n: int) -> int:
    """n, or fewer under the mutation profile."""
    if os.environ.get("MAHJONG_HYPOTHESIS_PROFILE") == "mutation":
        return min(n, settings.get_profile("mutation").max_examples)
    return n
