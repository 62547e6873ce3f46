"""Every command's options (issue 22): whatever value an option gets, the command exits 0 or 2,
and on 2 prints exactly one line on standard error (FORMATS.md), never a traceback.

`score --option 'limit=<2000-deep JSON>'` and `--option limit=<5000 digits>` printed
tracebacks; `readers --seconds inf`, `club --port 70000` too; `monitor --seconds nan` ran and
exited 0, `simulate --unplug-every nan` never ended; argparse's own errors were usage plus an
error (several lines). The options are read off the parser itself, so a new option is fuzzed
without being listed here."""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.cli import build_parser, main
from controller.cli.argtypes import path
from tests.reliability.support import REPO

FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

DEEP = "[" * 2000 + "]" * 2000
HOSTILE = st.one_of(
    st.sampled_from([
        DEEP, "{" * 3000, "1" * 5000, "-" + "9" * 5000, "1e400", "-1e400", "nan", "NaN", "inf",
        "-inf", "Infinity", "0", "-1", "-0", "1e-300", "99999999999999999999999", "70000",
        "", " ", "=", "limit=", "limit=" + DEEP, "limit=" + "1" * 5000, 'limit={"a":',
        "limit=nan", "\x00", "a\nb", "\ud800".encode("utf-8", "surrogatepass").decode(
            "utf-8", "replace"), "x" * 10_000, "../../..", "/", "/proc/self/mem",
    ]),
    st.text(max_size=30),
    st.integers(-10**30, 10**30).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
)


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no subcommands")


PARSERS = _subparsers(build_parser())


def _value_options(command: str) -> list[str]:
    """The options of a command that take a value (not flags, not --help)."""
    return [a.option_strings[-1] for a in PARSERS[command]._actions
            if a.option_strings and a.nargs != 0 and not isinstance(
                a, argparse._HelpAction | argparse._StoreTrueAction)]


def run_main(argv: list[str]) -> tuple[int, str]:
    """``main(argv)`` in this process: (exit status, standard error)."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main(argv)
        except SystemExit as exc:  # the parser's own exit
            code = int(exc.code or 0)
    return code, err.getvalue()


def one_line_or_success(code: int, err: str, argv: list[str]) -> None:
    shown = [a[:60] for a in argv]
    assert "Traceback" not in err, (shown, err[-2000:])
    assert code in (0, 2), (shown, code, err[-2000:])
    if code == 2:
        assert err.count("\n") == 1 and err.endswith("\n"), (shown, err[-2000:])
        assert "error:" in err, (shown, err)


# Commands that answer and end at once, run whole in this process; each with what it needs
# besides the fuzzed option (a file, a data directory). Those that run until stopped (serve,
# simulate, club, monitor, readers) are fuzzed at their parser and in a subprocess below.
def _quick(tmp: Path) -> dict[str, list[str]]:
    (tmp / "hand.json").write_text('{"ruleset": "hua-bao", "hand": ["1b"]}')
    (tmp / "log.jsonl").write_text('{"session": {"ruleset": "hua-bao", "options": {}}}\n')
    (tmp / "data").mkdir(exist_ok=True)
    return {
        "score": ["--hand", "1b1b1b 2b2b2b 3b3b3b 4b4b4b 5b5b", "--won", "wall"],
        "settle": [str(tmp / "hand.json")],
        "replay": [str(tmp / "log.jsonl")],
        "export": ["--data-dir", str(tmp / "data"), "--format", "jsonl"],
        "tokens": ["--data-dir", str(tmp / "data")],
        "enroll": ["--data-dir", str(tmp / "data"), "--status"],
    }


QUICK = ("score", "settle", "replay", "export", "tokens", "enroll")
QUICK_OPTIONS = [(c, o) for c in QUICK for o in _value_options(c)]
RUNNING = ("serve", "simulate", "club", "monitor", "readers")
RUNNING_OPTIONS = [(c, o) for c in RUNNING for o in _value_options(c)]


#: every place a quick command takes a file or folder name (its options typed so, and its
#: FILE argument): found by the fuzz below in a loaded run, `enroll --config` with a NUL in
#: the name printed a traceback (pathlib's ValueError, not an OSError)
NAMED = [(c, o) for c in QUICK for o in _value_options(c)
         if getattr(next(a for a in PARSERS[c]._actions if o in a.option_strings), "type",
                    None) is path] + [(c, "FILE") for c in ("score", "settle", "replay")]


@pytest.mark.parametrize("option", NAMED, ids="{0[0]} {0[1]}".format)
def test_a_file_name_with_a_nul_is_one_line(option: tuple[str, str]) -> None:
    command, flag = option
    with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(tmp):
        rest = _quick(Path(tmp))[command]
        if flag == "FILE":
            argv = [command, *[a for a in rest if not a.startswith(tmp)], "a\x00b"]
        else:
            argv = [command, flag, "a\x00b", *rest]
        code, err = run_main(argv)
    assert code == 2 and err.count("\n") == 1 and "NUL" in err, (argv, code, err[-500:])


@FUZZ
@given(st.sampled_from(QUICK_OPTIONS), HOSTILE)
def test_a_quick_command_with_any_option_value_is_one_line(option: tuple[str, str],
                                                           value: str) -> None:
    command, flag = option
    with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(tmp):
        argv = [command, flag, value, *_quick(Path(tmp))[command]]
        code, err = run_main(argv)
    one_line_or_success(code, err, argv)


@FUZZ
@given(st.sampled_from(RUNNING_OPTIONS), HOSTILE)
def test_a_running_command_takes_only_sane_values(option: tuple[str, str], value: str) -> None:
    """The long-running commands: the parser refuses in one line, or what it took is a finite
    number, a port 0-65535 or text (their own checks then run before anything starts, and
    are run for real below)."""
    command, flag = option
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            args = build_parser().parse_args([command, flag, value])
        except SystemExit as exc:
            one_line_or_success(int(exc.code or 0), err.getvalue(), [command, flag, value])
            return
    dest = next(a.dest for a in PARSERS[command]._actions if flag in a.option_strings)
    taken = getattr(args, dest)
    for item in taken if isinstance(taken, list) else [taken]:
        if isinstance(item, float):
            assert math.isfinite(item), (command, flag, value)
        elif isinstance(item, int) and dest == "port":
            assert 0 <= item <= 65535, (command, flag, value[:60])


@pytest.mark.parametrize("argv", [
    ["score", "--option", "limit=" + DEEP, "--hand", "1b1b1b 2b2b2b 3b3b3b 4b4b4b 5b5b"],
    ["score", "--option", "limit=" + "1" * 5000, "--hand", "1b1b1b 2b2b2b 3b3b3b 4b4b4b 5b5b"],
    ["simulate", "--options", DEEP, "--log", "x.jsonl"],
    ["simulate", "--unplug-every", "nan", "--log", "x.jsonl"],
    ["monitor", "--seconds", "nan"],
    ["monitor", "--pace", "nan", "--seconds", "1"],
    ["readers", "--seconds", "inf"],
    ["readers", "--seconds", "nan"],
    ["club", "--port", "70000", "--data-dir", "club", "--broker", "localhost:1"],
    ["serve", "--port", "70000", "--data-dir", "data"],
    ["serve", "--simulate", "--pace", "nan", "--data-dir", "data"],
    ["serve", "--seed", "1e400", "--data-dir", "data"],
    ["replay", "--indent", "99999999999", "log.jsonl"],
    ["nosuch"],
], ids=lambda argv: " ".join(a[:12] for a in argv[:3]))
def test_the_issue_s_cases_as_a_user_runs_them(tmp_path: Path, argv: list[str]) -> None:
    """As a user runs them: a subprocess, which ends (with 2 and one line) by itself."""
    done = subprocess.run([sys.executable, "-m", "controller", *argv], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    one_line_or_success(done.returncode, done.stderr, argv)
    assert done.returncode == 2, done.stderr
