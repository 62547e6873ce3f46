"""The table config: strict validation with errors that name the key and its line."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.config import Config, ConfigError, load_config, parse_config

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "table.toml"


def test_example_config_loads_and_data_dir_is_relative_to_the_file() -> None:
    cfg = load_config(EXAMPLE)
    assert cfg.readers.backend == "serial"
    assert cfg.table.channels["centre/0"] == "discard"
    assert cfg.data.dir == EXAMPLE.parent / "data"
    assert cfg.table.seats["1"].name == "Anna"


def test_no_file_needs_no_keys() -> None:
    cfg = parse_config("")
    assert cfg == Config()
    assert cfg.readers.backend == "sim"
    assert cfg.session.ruleset == "hua-bao"


def test_unknown_key_is_named_with_its_line() -> None:
    text = "[server]\nhost = '0.0.0.0'\nprot = 8080\n"
    with pytest.raises(ConfigError) as err:
        parse_config(text, "table.toml")
    assert str(err.value).startswith("table.toml:3: unknown key 'prot' in [server]")


def test_unknown_section_is_named() -> None:
    with pytest.raises(ConfigError, match=r"table.toml:2: unknown key 'reader' in \[top level\]"):
        parse_config("\n[reader]\nbackend = 'sim'\n", "table.toml")


def test_malformed_toml_is_one_line() -> None:
    with pytest.raises(ConfigError) as err:
        parse_config("[server\nport = 1\n", "t.toml")
    message = str(err.value)
    assert message.startswith("t.toml: not valid TOML") and "\n" not in message


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("[readers]\nbackend = 'usb'\n", "readers.backend"),
        ("[table.channels]\n'seat1/0' = 'rack:5'\n", "zone 'rack:5'"),
        ("[table.channels]\n'seat1' = 'rack:1'\n", "channel 'seat1'"),
        ("[session]\nruleset = 'mahjong'\n", "unknown rule set 'mahjong'"),
        ("[table.seats.5]\nname = 'X'\n", "seat '5' is not a position"),
        ("[server]\nport = 70000\n", "server.port"),
    ],
)
def test_bad_values_say_what_is_wrong(text: str, needle: str) -> None:
    with pytest.raises(ConfigError, match=needle.replace("[", r"\[").replace(".", r"\.")):
        parse_config(text, "t.toml")


def test_missing_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read the config file"):
        load_config(tmp_path / "nope.toml")


@given(st.from_regex(r"[a-z_]{1,12}", fullmatch=True))
def test_any_unknown_key_in_any_section_is_refused(key: str) -> None:
    for section, model in (("server", Config().server), ("timers", Config().timers)):
        if key in type(model).model_fields:
            continue
        with pytest.raises(ConfigError, match=f"unknown key '{key}'"):
            parse_config(f"[{section}]\n{key} = 1\n")


def test_the_config_knows_every_rule_set_the_game_plays() -> None:
    """config.py sits below the scorer (import-linter layers), so it lists the names itself."""
    from controller import config
    from controller.scoring import PLAYABLE

    assert config.RULESETS == PLAYABLE
