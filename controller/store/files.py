"""The data directory holds the whole game (every drawn tile): only the service's user may read
it. The directory is 0700 and every file the service makes in it 0600."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

DIR_MODE = 0o700
FILE_MODE = 0o600


def private_dir(path: Path) -> None:
    """Make ``path`` (and missing parents) and set it to 0700."""
    path.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
    with contextlib.suppress(OSError):  # not ours (a shared folder): its owner decides
        os.chmod(path, DIR_MODE)


def private_files(*paths: Path) -> None:
    """Set the existing ones of ``paths`` to 0600 (an SQLite file and its -wal and -shm)."""
    for path in paths:
        with contextlib.suppress(OSError):  # absent, not ours, or a read-only file system
            os.chmod(path, FILE_MODE)
