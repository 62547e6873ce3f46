"""``mahjong-table serve``: run the table service with its dashboard (optionally simulated)."""

from __future__ import annotations

import argparse
import logging
import re
from pathlib import Path
from typing import TYPE_CHECKING

from controller.cli import CliError, command_name, load_config
from controller.scoring import RULESETS

if TYPE_CHECKING:
    from controller.app import TableKind
    from controller.config import Config


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "serve",
        help="run the table service and its dashboard",
        description="Run the service: the event loop that owns the game, the event log, the "
        "API and the dashboard. Without --config the defaults serve a sim table on "
        "127.0.0.1:8080 with data in ./data.",
    )
    p.add_argument("--config", type=Path,
                   help="table configuration (TOML; see examples/table.toml)")
    p.add_argument("--host", help="address to listen on (default from config: 127.0.0.1)")
    p.add_argument("--port", type=int, help="port to listen on (default from config: 8080)")
    p.add_argument("--data-dir", type=Path, help="event log and tokens (default from config)")
    p.add_argument("--simulate", action="store_true",
                   help="play a simulated game: four bots, no table needed")
    p.add_argument("--ruleset", choices=tuple(RULESETS),
                   help="rule set of the session started now")
    p.add_argument("--seed", type=int, help="random seed of the simulation")
    p.add_argument("--pace", type=float, help="seconds between simulated table events")
    p.add_argument("--hands", type=int, help="stop the simulation after this many hands")
    p.add_argument("--in-process", action="store_true",
                   help="with --simulate: drive the engine directly, without the virtual table")
    p.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))
    p.set_defaults(func=run)


class _RedactTokens(logging.Filter):
    """Access logs never show a token (a seat socket may carry one as ?token=)."""

    _pattern = re.compile(r"(token=)[^&\s\"']+")

    def filter(self, record: logging.LogRecord) -> bool:
        if record.args:
            record.args = tuple(
                self._pattern.sub(r"\1***", a) if isinstance(a, str) else a
                for a in (record.args if isinstance(record.args, tuple) else (record.args,))
            )
        record.msg = self._pattern.sub(r"\1***", str(record.msg))
        return True


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from controller.app import build

    config = _override(load_config(args.config), args)
    data_dir = Path(args.data_dir) if args.data_dir else config.data.dir
    _check_data_dir(data_dir)
    _check_port(config.server.host, config.server.port)
    logging.basicConfig(level=args.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # uvicorn logs a WebSocket's path with its query ("WebSocket /ws/seats/1?token=...
    # [accepted]") on uvicorn.error, not on the access log.
    for name in ("uvicorn.access", "uvicorn.error"):
        logging.getLogger(name).addFilter(_RedactTokens())

    app = build(config, data_dir, table=_table(args)).app
    print(f"mahjong-table: dashboard on http://{config.server.host}:{config.server.port}/ "
          f"(operator page: /operator; tokens and seat links: "
          f"{command_name()} tokens --urls --data-dir {data_dir})")
    uvicorn.run(app, host=config.server.host, port=config.server.port,
                log_level=args.log_level, ws_ping_interval=20)
    return 0


def _table(args: argparse.Namespace) -> TableKind:
    """What feeds the game: the virtual table (--simulate), the in-process simulation
    (--simulate --in-process), the readers, or nothing (--in-process alone)."""
    if args.simulate:
        return "simulation" if args.in_process else "virtual"
    return None if args.in_process else "readers"


def _override(config: Config, args: argparse.Namespace) -> Config:
    server = config.server.model_copy(update={
        k: v for k, v in (("host", args.host), ("port", args.port)) if v is not None})
    session = config.session
    if args.ruleset:
        session = session.model_copy(update={"ruleset": args.ruleset})
    sim = config.simulation.model_copy(update={
        k: v for k, v in (("seed", args.seed), ("pace", args.pace), ("hands", args.hands))
        if v is not None})
    return config.model_copy(update={"server": server, "session": session, "simulation": sim})


def _check_port(host: str, port: int) -> None:
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


def _check_data_dir(data_dir: Path) -> None:
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliError(f"cannot create the data directory {data_dir}: {exc.strerror}; "
                       "choose another --data-dir") from None
