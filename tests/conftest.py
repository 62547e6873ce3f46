"""Shared test configuration: a fixed hypothesis profile so CI runs are bounded in time, and
fixtures more than one test folder needs."""

import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=50, deadline=None)
# scripts/mutation runs a group's tests once per mutant: fewer examples there (tests/budget.py);
# its --recheck runs the survivors again with the full profile
settings.register_profile(
    "mutation", max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("MAHJONG_HYPOTHESIS_PROFILE")
                      or ("ci" if os.environ.get("CI") else "dev"))


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
