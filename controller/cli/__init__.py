"""The ``mahjong-table`` command: one module per subcommand, each with ``register(subparsers)``.

A subcommand raises :class:`CliError` for anything the user got wrong; it becomes one line on
standard error and exit status 2 (FORMATS.md), never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from controller.app import System
    from controller.config import Config
    from firmware_bridge.readers import ReaderBackend

# Subcommand modules under controller.cli (``<name>_cmd.py``), in the order the help lists them.
SUBCOMMANDS = (
    "score",
    "settle",
    "review",
    "replay",
    "export",
    "import",
    "recover",
    "serve",
    "simulate",
    "tokens",
    "enroll",
    "readers",
    "monitor",
    "club",
)


class CliError(Exception):
    """A user error: printed as one line on standard error, exit status 2."""


def command_name() -> str:
    """How to run this command again from any shell: ``mahjong-table`` when that is on PATH,
    else the full path of the script (a venv's ``bin``), else ``python -m controller``."""
    import shutil

    script = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    found = shutil.which("mahjong-table")
    if found and (script is None or Path(found).resolve() == script.resolve()
                  or script.name != "mahjong-table"):
        return "mahjong-table"
    if script is not None and script.name == "mahjong-table" and script.exists():
        return str(script.resolve())
    beside = Path(sys.executable).parent / "mahjong-table"
    if beside.exists():
        return str(beside)
    return f"{sys.executable} -m controller"


def load_config(path: Path | None) -> Config:
    """The config at ``path`` (or the defaults); a ConfigError becomes a CliError."""
    from controller.config import ConfigError, default_config
    from controller.config import load_config as load

    try:
        config = load(path) if path else default_config()
    except ConfigError as exc:
        raise CliError(str(exc)) from None
    check_session_options(config, path)
    return config


def check_session_options(config: Config, path: Path | None) -> None:
    """``[session] options`` as the rule set takes them, checked now, not when the session
    starts (``options = {limit = -5}`` passed the config and then crashed the start)."""
    from controller.scoring import ScoringError, get_ruleset

    try:
        get_ruleset(config.session.ruleset, config.session.options)
    except ScoringError as exc:
        raise CliError(f"{path or 'the defaults'}: [session] options: {exc}") from None


def open_readers(system: System, buttons: bool = False) -> ReaderBackend:
    """The system's reader back-end, not started; a config it cannot use becomes a CliError."""
    from firmware_bridge.errors import BridgeConfigError

    try:
        return system.reader(buttons)
    except BridgeConfigError as exc:
        raise CliError(str(exc)) from None


def check_port(host: str, port: int) -> None:
    """Fail with one line, before anything starts, when the address cannot be listened on."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as exc:
        raise CliError(f"cannot listen on {host}:{port}: {exc.strerror or exc}; choose another "
                       "--port or --host") from None


def check_data_dir(data_dir: Path) -> None:
    """Create the data directory, or fail with one line saying what to do."""
    from controller.store.files import private_dir

    try:
        private_dir(data_dir)  # 0700: it holds the game and the tokens
    except OSError as exc:
        raise CliError(f"cannot create the data directory {data_dir}: {exc.strerror}; "
                       "choose another --data-dir") from None


def _terminal_columns() -> int:
    """shutil.get_terminal_size().columns without importing shutil (and the compression
    modules it loads: some 4 ms of a ``score`` process)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Formatter(argparse.HelpFormatter):
    """argparse's help, sized as argparse sizes it (the terminal's width less 2)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        width = _terminal_columns() - 2 if width is None else width
        super().__init__(prog, indent_increment, max_help_position, width)


class _Parser(argparse.ArgumentParser):
    """Bad arguments are one line too (argparse printed its usage first): the problem and
    where the help is; exit status 2 as for every other error."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {_one_line(message)} (see {self.prog} --help)\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand, or of ``command`` only: running one subcommand then
    imports its module alone (``score`` loads no asyncio, web or service code)."""
    parser = _Parser(
        prog="mahjong-table",
        description="Scoring table controller for an RFID-instrumented mahjong table.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in (command,) if command in SUBCOMMANDS else SUBCOMMANDS:
        importlib.import_module(f"controller.cli.{name}_cmd").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(words[0] if words else None)
    try:
        args = parser.parse_args(words)
    except SystemExit as exc:  # --help (0), or a bad argument told in one line (2)
        return int(exc.code or 0) if isinstance(exc.code, int | None) else 2
    # Files made by any command (event log, registry, tokens, exports) hold the game or its
    # secrets: readable by this user only (controller.store.files sets the modes too).
    os.umask(0o077)
    try:
        code = args.func(args)
    except CliError as exc:
        print(f"mahjong-table {args.command}: error: {_one_line(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _reader_gone()
    try:
        sys.stdout.flush()  # a reader that left (`replay log | head`) is seen here, not at exit
    except BrokenPipeError:
        return _reader_gone()
    return int(code or 0)


def _reader_gone() -> int:
    """The reader of standard output went away (`... | head`): no traceback, and nothing more
    is written there (Python would flush again at exit); 141 as a shell reports SIGPIPE."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 141


def _one_line(message: str) -> str:
    """The message on one line: a newline or other control character quoted from the input
    (say, in a JSON key) is shown escaped."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in message)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
