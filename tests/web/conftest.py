"""Fixtures: a started app around the real game loop (built by the composition root), with a
data directory in tmp_path."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from controller.app import build
from controller.config import Config, SessionConfig
from tests.web.support import Table, memory_dir


@pytest.fixture
def make_table(tmp_path: Path) -> Iterator[Callable[..., Table]]:
    opened: list[Table] = []

    def make(ruleset: str = "hua-bao", seed: int = 5, data_dir: Path | None = None) -> Table:
        config = Config(session=SessionConfig(ruleset=ruleset))
        system = build(config, data_dir or tmp_path / "data")
        client = TestClient(system.app)
        client.__enter__()
        made = Table(client, system, seed)
        opened.append(made)
        return made

    yield make
    for made in opened:
        made.close()


@pytest.fixture
def table(make_table: Callable[..., Table]) -> Table:
    return make_table()


@pytest.fixture
def memory_data(tmp_path: Path) -> Iterator[Path]:
    """A data directory in memory (``support.memory_dir``) for ``make_table(data_dir=...)``,
    where a test plays thousands of events and the log's durability is not its subject. Name
    it before ``make_table`` in the test's arguments: its tables close before it is removed."""
    with memory_dir(tmp_path) as folder:
        yield folder / "data"
