"""Headless Chromium for the browser tests: the one place that launches it (Debian's
/usr/bin/chromium through Playwright; scripts/test installs it) and opens pages on it that
record their script errors. A module importing this is skipped where Chromium is missing,
except in CI, where the browser tests must run."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
#: a TV's and a phone's screen (Playwright's viewports), the pages' two cases
SIZES = {"tv": {"width": 1920, "height": 1080}, "phone": {"width": 390, "height": 844}}
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

if not Path(CHROMIUM).exists() and os.environ.get("CI") != "true":
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium); in CI this test runs",
                allow_module_level=True)


@contextmanager
def launched() -> Iterator[Any]:
    """One headless Chromium (and Playwright's driver) for the ``with`` block; closed after it,
    whatever happened in it. The screenshots' folder (test-artifacts/) is there too."""
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def watch(page: Any, errors: list[str], label: str = "", *, console: bool = False,
          expected: Callable[[Any], bool] | None = None) -> Any:
    """``page``'s uncaught script errors appended to ``errors`` (after ``label: ``), and with
    ``console`` its console's errors too but those ``expected`` says a test asked for; the page."""
    def say(text: str) -> None:
        errors.append(f"{label}: {text}" if label else text)

    page.on("pageerror", lambda e: say(str(e)))
    if console:
        page.on("console", lambda m: say(f"{m.text} {m.location.get('url')}")
                if m.type == "error" and not (expected and expected(m)) else None)
    return page


def open_page(browser: Any, viewport: str | tuple[int, int], errors: list[str] | None = None,
              *, label: str = "", console: bool = False,
              expected: Callable[[Any], bool] | None = None, **options: Any) -> Any:
    """A new page in its own context, ``viewport`` a size of SIZES by name or (width, height);
    ``options``: the context's (``has_touch``, ``locale``). Its script errors go to ``errors``
    if given (``watch``)."""
    size = SIZES[viewport] if isinstance(viewport, str) else \
        {"width": viewport[0], "height": viewport[1]}
    page = browser.new_page(viewport=size, **options)
    # Playwright's 30 s default ran out on a page load of a loaded run (host load 30-40): a
    # waited-for state gets a generous deadline, never a clock bound on a busy host
    page.set_default_timeout(90000)
    page.set_default_navigation_timeout(90000)
    return page if errors is None else watch(page, errors, label, console=console,
                                              expected=expected)
