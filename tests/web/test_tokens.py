"""Tokens: made once with mode 0600, stable across loads, compared exactly; the tokens command."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from controller.cli import main
from controller.store.tokens import TOKENS_FILE, load_or_create_tokens, load_tokens


def test_tokens_are_made_once_private_and_distinct(tmp_path: Path) -> None:
    first = load_or_create_tokens(tmp_path / "data")
    mode = stat.S_IMODE((tmp_path / "data" / TOKENS_FILE).stat().st_mode)
    assert mode == 0o600
    again = load_or_create_tokens(tmp_path / "data")
    assert again == first
    all_tokens = [first.admin, *first.seats.values()]
    assert len(set(all_tokens)) == 5 and all(len(t) >= 20 for t in all_tokens)


def test_comparison_accepts_only_the_exact_token(tmp_path: Path) -> None:
    tokens = load_or_create_tokens(tmp_path)
    assert tokens.is_admin(tokens.admin)
    assert not tokens.is_admin(tokens.admin[:-1])
    assert not tokens.is_admin(None) and not tokens.is_admin("")
    assert tokens.is_seat(2, tokens.seats[2])
    assert not tokens.is_seat(1, tokens.seats[2])
    assert not tokens.is_seat(3, tokens.admin)


def test_damaged_file_says_what_to_do(tmp_path: Path) -> None:
    (tmp_path / TOKENS_FILE).write_text('{"admin": "x"}')
    with pytest.raises(ValueError, match="delete it to make new tokens"):
        load_tokens(tmp_path)


def test_tokens_command_prints_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tokens = load_or_create_tokens(tmp_path)
    assert main(["tokens", "--data-dir", str(tmp_path), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    seats = {str(p): tokens.seats[p] for p in (1, 2, 3, 4)}
    assert printed == {"admin": tokens.admin, "seats": seats}


def test_tokens_command_without_tokens_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tokens", "--data-dir", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err
    assert "no tokens in" in err and "--create" in err and err.count("\n") == 1


def test_tokens_command_finds_the_data_dir_through_the_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "table.toml").write_text('[data]\ndir = "state"\n')
    tokens = load_or_create_tokens(tmp_path / "state")
    assert main(["tokens", "--config", str(tmp_path / "table.toml"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["admin"] == tokens.admin
