"""Shared test configuration: a fixed hypothesis profile so CI runs are bounded in time, and
fixtures more than one test folder needs."""

import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# No example's time decides a test (issue 22: the suite runs on a busy host): no deadline and
# no "too slow" health check in either profile. A test with its own @settings inherits both
# unless it names them; one that lists health checks to suppress lists too_slow as well.
SLOW_HOST = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("ci", max_examples=100, **SLOW_HOST)
settings.register_profile("dev", max_examples=50, **SLOW_HOST)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


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
