"""The service's threads on one CPU (``[server] cpu``, ``serve --cpu``; controller/web/cpu.py).
That ``serve`` runs every thread there: tests/web/test_cli.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli import main
from controller.web.cpu import CpuError, choose


def test_auto_takes_the_last_cpu_when_there_are_two_or_more() -> None:
    assert choose("auto", {0, 1, 2, 3}) == 3
    assert choose("auto", {2, 5}) == 5
    assert choose("auto", {0}) is None  # one CPU: nothing to choose
    assert choose("off", {0, 1}) is None
    assert choose(1, {0, 1}) == 1
    with pytest.raises(CpuError, match=r"CPU 7 is not one this process may use \(0, 1\)"):
        choose(7, {0, 1})


def test_a_cpu_the_service_may_not_use_is_one_line_and_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "table.toml"
    config.write_text("[server]\ncpu = 4096\n")
    assert main(["serve", "--config", str(config), "--data-dir", str(tmp_path / "d")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "CPU 4096 is not one this process may use" in err
    assert main(["serve", "--cpu", "-3", "--data-dir", str(tmp_path / "d")]) == 2
    assert "CPU -3 is not one" in capsys.readouterr().err
