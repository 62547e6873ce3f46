"""The club's command-line options: bad input is one line and exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli import main


@pytest.mark.parametrize(("argv", "message"), [
    (["serve", "--club-broker", "localhost:1883"], "--club-broker needs --table-id"),
    (["serve", "--table-id", "green"], "--table-id goes with --club-broker"),
    (["serve", "--club-broker", "localhost:1883", "--table-id", "green table"],
     "a table id is 1-32 letters"),
    (["serve", "--club-broker", "localhost:99999", "--table-id", "green"],
     "the broker is HOST:PORT"),
    (["club", "--broker", "localhost:x", "--data-dir", "{tmp}"], "the broker is HOST:PORT"),
    (["club", "--broker", "localhost:1883", "--data-dir", "{tmp}", "--broker-password-file",
      "{tmp}/missing"], "cannot read the broker password"),
])
def test_bad_club_options_are_one_line_and_exit_2(
        argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    if argv[0] == "serve":
        # the port is never bound: the club options are checked first
        argv += ["--data-dir", str(tmp_path / "data"), "--port", "8080"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err and "Traceback" not in err
