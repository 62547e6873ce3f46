"""The club's command-line options: bad input is one line and exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli import main


@pytest.mark.parametrize(("argv", "message"), [
    (["serve", "--club-broker", "localhost:1883"], "--club-broker needs --club-credentials"),
    (["serve", "--table-id", "green"], "--table-id goes with --club-broker"),
    (["serve", "--club-credentials", "{tmp}/green.json"],
     "--club-credentials goes with --club-broker"),
    (["serve", "--club-broker", "localhost:1883", "--club-credentials", "{tmp}/missing.json"],
     "cannot read the club credentials"),
    (["serve", "--club-broker", "localhost:1883", "--club-credentials", "{tmp}/green.json",
      "--table-id", "blue"], "does not match the credentials"),
    (["serve", "--club-broker", "localhost:99999", "--club-credentials", "{tmp}/green.json"],
     "the broker is HOST:PORT"),
    (["club", "--broker", "localhost:x", "--data-dir", "{tmp}"], "the broker is HOST:PORT"),
    (["club", "--data-dir", "{tmp}"], "club needs --broker HOST:PORT"),
    (["club", "--broker", "localhost:1883", "--data-dir", "{tmp}", "--broker-password-file",
      "{tmp}/missing"], "cannot read the broker password"),
    (["club", "enrol-table", "green table", "--data-dir", "{tmp}/club"],
     "a table id is 1-32 letters"),
    (["club", "enrol-table", "club", "--data-dir", "{tmp}/club"],
     "the club service's own broker user"),
    (["club", "enrol-table", "green", "--data-dir", "{tmp}/club"], "already enrolled"),
    (["club", "enrol-table", "red", "--data-dir", "{tmp}/club", "-o", "{tmp}/green.json"],
     "exists: --replace"),
])
def test_bad_club_options_are_one_line_and_exit_2(
        argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # green is enrolled already; its credentials are in green.json
    assert main(["club", "enrol-table", "green", "--data-dir", str(tmp_path / "club"), "-o",
                 str(tmp_path / "green.json")]) == 0
    capsys.readouterr()
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    if argv[0] == "serve":
        # the port is never bound: the club options are checked first
        argv += ["--data-dir", str(tmp_path / "data"), "--port", "8080"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err and "Traceback" not in err


def test_enrol_table_issues_a_key_and_writes_the_locked_broker(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json
    import stat

    club = tmp_path / "club"
    assert main(["club", "enrol-table", "green", "--data-dir", str(club)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["table"] == printed["broker_user"] == "green"
    assert len(printed["broker_password"]) >= 24 and printed["key"] != printed["club_key"]
    keys = json.loads((club / "club-keys.json").read_text())
    assert set(keys["tables"]) == {"green"}
    assert printed["key"] not in (club / "club-keys.json").read_text()  # the club keeps no
    assert printed["broker_password"] not in (club / "broker" / "passwd").read_text()  # secret
    for path in (club / "club-keys.json", club / "broker" / "passwd"):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    conf = (club / "broker" / "mosquitto.conf").read_text()
    for line in ("allow_anonymous false", "use_username_as_clientid true", "max_packet_size"):
        assert line in conf
    users = [x.split(":")[0] for x in (club / "broker" / "passwd").read_text().splitlines()]
    assert sorted(users) == ["club", "green"]
    # --replace issues a new key: the old one is no longer the table's
    assert main(["club", "enrol-table", "green", "--data-dir", str(club), "--replace"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["key"] != printed["key"] and again["club_key"] == printed["club_key"]


def test_the_tables_config_file_carries_the_club_options(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[club] in the table's TOML: read as the command line's options would be."""
    config = tmp_path / "table.toml"
    config.write_text(f'[club]\nbroker = "localhost:1883"\n'
                      f'credentials = "{tmp_path / "missing.json"}"\n')
    argv = ["serve", "--config", str(config), "--data-dir", str(tmp_path / "data")]
    assert main(argv) == 2
    assert "cannot read the club credentials" in capsys.readouterr().err
    config.write_text('[club]\nbroker = "localhost:1883"\nkey = "x"\n')
    assert main(argv) == 2
    assert "key" in capsys.readouterr().err
