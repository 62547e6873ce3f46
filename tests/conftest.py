"""Shared test configuration: a fixed hypothesis profile so CI runs are bounded in time, and
fixtures more than one test folder needs."""

import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings

# No example's time decides a test (issue 22: the suite runs on a busy host): no deadline and
# no "too slow" health check in either profile. A test with its own @settings inherits both
# unless it names them; one that lists health checks to suppress lists too_slow as well.
SLOW_HOST = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("ci", max_examples=100, **SLOW_HOST)
settings.register_profile("dev", max_examples=50, **SLOW_HOST)
#: scripts/mutation: few examples, the same ones every run (a mutant is killed or not, whatever
#: the order), no database (a failing example of one mutant is not replayed on the next), no
#: shrinking (a failure is all a mutant needs)
MUTATION_EXAMPLES = int(os.environ.get("MUTATION_EXAMPLES", "25"))
settings.register_profile(
    "mutation", max_examples=MUTATION_EXAMPLES, deadline=None, derandomize=True, database=None,
    phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck),
)
PROFILE = os.environ.get("MAHJONG_HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
settings.load_profile(PROFILE)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under the mutation profile the property tests run last and a test's own
    ``@settings(max_examples=...)`` is capped too (hypothesis lets a test's settings win over
    the profile)."""
    if PROFILE != "mutation":
        return
    # fixed tests first, property tests last: a mutant most fixed tests kill dies before the
    # slow ones run (mutmut runs with -x)
    items.sort(key=lambda item: hasattr(getattr(item, "obj", None), "hypothesis"))
    for item in items:
        test = getattr(getattr(item, "obj", None), "__func__", getattr(item, "obj", None))
        own = getattr(test, "_hypothesis_internal_use_settings", None)
        if own is not None and test is not None:
            test._hypothesis_internal_use_settings = settings(  # type: ignore[attr-defined]
                own, max_examples=min(own.max_examples, MUTATION_EXAMPLES), derandomize=True,
                database=None, phases=[Phase.explicit, Phase.generate],
                suppress_health_check=list(HealthCheck))


@pytest.fixture(autouse=PROFILE == "mutation")
def cold_scorer_caches() -> None:
    """Under the mutation profile each test starts with the scorers' caches empty: mutmut runs
    a mutant's tests in a process forked after the whole suite ran once, whose caches (scored
    hands, splits, the chow and pung tables, the game's evolvers and waits) would answer without
    calling the mutated code."""
    from controller.scoring.engine import clear_caches
    from controller.scoring.mcr import waits
    from controller.scoring.mcr.scorer import clear_caches as clear_mcr
    from controller.scoring.riichi.scorer import clear_caches as clear_riichi

    clear_caches()
    clear_mcr()
    clear_riichi()
    waits._MADE.clear()  # the wait tables, made when first needed
    waits._SEARCHED[0] = 0  # and the first hands' waits searched, as in a new process
    from controller.game import state, views

    state._EVOLVERS.clear()  # evolve's generated copy functions, one per class
    views._WAITS.clear()  # the public view's waits


@pytest.fixture
def mount_tmpfs(tmp_path: Path) -> Iterator[Callable[[str], Path]]:
    """Mounts a tiny tmpfs of the given size ("256k") below tmp_path and returns its folder;
    unmounted after the test. Needs mount rights (root in a privileged container): the test is
    skipped where mounting is not allowed."""
    mounted: list[Path] = []

    def mount(size: str) -> Path:
        root = tmp_path / f"tiny{len(mounted)}"
        root.mkdir()
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(root)],
                              capture_output=True)
        if done.returncode != 0:
            pytest.skip("cannot mount a tmpfs here (needs root with mount rights)")
        mounted.append(root)
        return root

    yield mount
    for root in mounted:
        subprocess.run(["umount", "-l", str(root)], check=False)
