"""Fixtures: a started app around the real service, with a data directory in tmp_path."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from controller.config import Config, SessionConfig
from controller.service import TableService
from controller.web.app import create_app
from tests.web.support import Table


@pytest.fixture
def make_table(tmp_path: Path) -> Iterator[Callable[..., Table]]:
    opened: list[Table] = []

    def make(ruleset: str = "hua-bao", seed: int = 5, data_dir: Path | None = None) -> Table:
        config = Config(session=SessionConfig(ruleset=ruleset))
        service = TableService(config, data_dir or tmp_path / "data")
        app = create_app(service)
        client = TestClient(app)
        client.__enter__()
        made = Table(client, service, app, seed)
        opened.append(made)
        return made

    yield make
    for made in opened:
        made.close()


@pytest.fixture
def table(make_table: Callable[..., Table]) -> Table:
    return make_table()
