"""The dashboard shows an mcr hand the way MCR players read it: each fan with its value, the
total, the flowers apart (headless Chromium, the service with an in-process mcr simulation)."""

from __future__ import annotations

import re

import pytest

from controller.app import build
from controller.config import Config, SessionConfig, SimulationConfig
from tests.browser import launched, open_page
from tests.web.support import served

pytestmark = pytest.mark.browser


def test_dashboard_shows_fans_with_values_total_and_flowers_apart(tmp_path) -> None:  # type: ignore[no-untyped-def]
    config = Config(session=SessionConfig(ruleset="mcr"),
                    simulation=SimulationConfig(pace=0.01, seed=5, hands=1))  # a Mahjong
    system = build(config, tmp_path, table="simulation")
    errors: list[str] = []
    with served(system.app) as base:
        with launched() as browser:
            page = open_page(browser, (800, 480), errors)
            page.goto(f"{base}/")
            page.wait_for_selector(".result h2", timeout=90000)
            assert page.inner_text(".result h2").startswith("Mahjong")
            winner = page.locator(".res-seat.winner")
            formula = winner.locator(".formula").inner_text()
            assert re.fullmatch(r"\d+ fans( \+ \d+ flowers = \d+)?", formula), formula
            values = [int(v) for v in winner.locator(".item-val").all_inner_texts()]
            total = int(re.findall(r"\d+", formula)[-1 if "=" in formula else 0])
            assert sum(values) == total >= 8  # every fan's value shown; they add up
            assert "points" not in formula and "2^" not in formula
    assert errors == []
