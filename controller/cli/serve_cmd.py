"""``mahjong-table serve``: run the table service with its dashboard (optionally simulated)."""

from __future__ import annotations

import argparse
import logging
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.cli import CliError, check_data_dir, check_port, command_name, load_config
from controller.cli.argtypes import path, pause, port
from controller.scoring import PLAYABLE

if TYPE_CHECKING:
    from controller.app import TableKind
    from controller.club.publisher import ClubPublisher
    from controller.config import Config


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "serve",
        help="run the table service and its dashboard",
        description="Run the service: the event loop that owns the game, the event log, the "
        "API and the dashboard. Without --config the defaults serve a sim table on "
        "127.0.0.1:8080 with data in ./data.",
    )
    p.add_argument("--config", type=path,
                   help="table configuration (TOML; see examples/table.toml)")
    p.add_argument("--host", help="address to listen on (default from config: 127.0.0.1)")
    p.add_argument("--port", type=port, help="port to listen on (default from config: 8080)")
    p.add_argument("--data-dir", type=path, help="event log and tokens (default from config)")
    p.add_argument("--simulate", action="store_true",
                   help="play a simulated game: four bots, no table needed")
    p.add_argument("--ruleset", choices=PLAYABLE,
                   help="rule set of the session started now")
    p.add_argument("--seed", type=int, help="random seed of the simulation")
    p.add_argument("--pace", type=pause, help="seconds between simulated table events")
    p.add_argument("--hands", type=int, help="stop the simulation after this many hands")
    p.add_argument("--in-process", action="store_true",
                   help="with --simulate: drive the engine directly, without the virtual table")
    p.add_argument("--club-broker", metavar="HOST:PORT",
                   help="publish to the club's MQTT broker (off by default)")
    p.add_argument("--club-credentials", type=path, metavar="FILE",
                   help="the table's key and broker password, from `mahjong-table club "
                   "enrol-table NAME -o FILE` (needed with --club-broker)")
    p.add_argument("--table-id", help="this table's name at the club (default: the one in "
                   "--club-credentials; must match it)")
    p.add_argument("--club-ca", type=path, help="CA certificate: reach the broker by TLS")
    p.add_argument("--insecure-broker", action="store_true",
                   help="publish even to a broker that lets anyone in (not for a club)")
    p.add_argument("--cpu", type=_cpu_choice, metavar="auto|off|N",
                   help="the CPU the service's threads run on (default from config: auto, the "
                   "last CPU when there are two or more; docs/service.md)")
    p.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))
    p.set_defaults(func=run)


def _cpu_choice(text: str) -> int | str:
    from controller.web.cpu import parse

    try:
        return parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


class RedactTokens(logging.Filter):
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
    from controller.web.app import uvicorn_options
    from controller.web.cpu import CpuError, for_service, pin

    config = _override(load_config(args.config), args)
    data_dir = Path(args.data_dir) if args.data_dir else config.data.dir
    check_data_dir(data_dir)
    _check_files(data_dir)
    _end_other_ruleset(data_dir, args.ruleset)
    try:
        cpu = for_service(config.server.cpu)
    except CpuError as exc:
        raise CliError(str(exc)) from None
    publisher = _club_publisher(_club_options(args, config), data_dir)  # before the port
    if publisher is not None:  # the club's card links to this table's board
        publisher.board_url = _board_url(config.server)
    check_port(config.server.host, config.server.port)
    logging.basicConfig(level=args.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # uvicorn logs a WebSocket's path with its query ("WebSocket /ws/seats/1?token=...
    # [accepted]") on uvicorn.error, not on the access log.
    for name in ("uvicorn.access", "uvicorn.error"):
        logging.getLogger(name).addFilter(RedactTokens())

    sources = _club_sources(publisher)
    system = build(config, data_dir, table=_table(args), sources=sources)
    system.game_thread = True  # the web's requests never queue the game's steps
    if publisher is not None:
        _plug_club(system.loop, publisher)
    app = system.app
    pin(cpu)  # every thread of the service, those running and those it starts from now on
    _say_started(config, data_dir, cpu)
    uvicorn.run(app, host=config.server.host, port=config.server.port,
                log_level=args.log_level, **uvicorn_options(config.server.header_seconds))
    return 0


def _say_started(config: Config, data_dir: Path, cpu: int | None) -> None:
    """The start-up line: the dashboard's address and how to get the operator's and seats'
    links (with this port when it is not the default: `tokens` prints links to it)."""
    on_cpu = f"; on CPU {cpu}" if cpu is not None else ""
    at = f" --port {config.server.port}" if config.server.port != 8080 else ""
    print(f"mahjong-table: dashboard on http://{config.server.host}:{config.server.port}/ "
          f"(the operator page's link: {command_name()} tokens --data-dir {data_dir}{at}; "
          f"the seats' links: add --urls{on_cpu})")


def _club_sources(publisher: ClubPublisher | None) -> dict[str, Any]:
    """The club's rounds as an event source of the loop (with --club-broker)."""
    if publisher is None:
        return {}
    from controller.club.rounds import round_source

    return {"club-rounds": round_source(publisher)}


def _plug_club(loop: Any, publisher: ClubPublisher) -> None:
    """The publisher follows the log (woken by every change), the pages see the club's round
    and roster, and the table says "offline" when it stops."""
    import atexit

    from controller.web import club_link

    club_link.attach(loop, publisher)
    loop.subscribe(lambda _change: publisher.wake())
    publisher.start()
    atexit.register(publisher.stop)


def _club_options(args: argparse.Namespace, config: Config) -> argparse.Namespace:
    """The club options: the command line's, else the config's [club] section."""
    club = config.club
    if args.club_broker is None and club.broker is not None:
        args.club_broker = club.broker
    for name, value in (("club_credentials", club.credentials), ("club_ca", club.ca)):
        if getattr(args, name) is None and value is not None:
            setattr(args, name, value)
    args.insecure_broker = args.insecure_broker or club.insecure_broker
    return args


def _board_url(server: Any) -> str:
    """The table's board as the club's page links to it: ``public_url``, else host and port."""
    if server.public_url:
        return str(server.public_url).rstrip("/") + "/"
    host = "127.0.0.1" if server.host in ("0.0.0.0", "::", "") else server.host  # noqa: S104
    return f"http://{host}:{server.port}/"


def _club_publisher(args: argparse.Namespace, data_dir: Path) -> ClubPublisher | None:
    """The club publisher when --club-broker is given (it needs --table-id)."""
    if not args.club_broker:
        for given, option in ((args.table_id, "--table-id"),
                              (args.club_credentials, "--club-credentials")):
            if given:
                raise CliError(f"{option} goes with --club-broker HOST:PORT")
        return None
    if args.club_credentials is None:
        raise CliError("--club-broker needs --club-credentials FILE (the club makes it: "
                       "`mahjong-table club enrol-table NAME -o FILE`)")
    from controller.cli.club_cmd import broker_config
    from controller.club.keyring import Credentials, KeysError
    from controller.club.publisher import ClubPublisher
    from controller.club.topics import check_table_id

    try:
        creds = Credentials.load(args.club_credentials)
        table = check_table_id(args.table_id or creds.table)
    except (KeysError, ValueError) as exc:
        raise CliError(str(exc)) from None
    if table != creds.table:
        raise CliError(f"--table-id {table} does not match the credentials, which are "
                       f"{creds.table}'s")
    broker = broker_config(args.club_broker, creds.broker_user, None, args.club_ca,
                           creds.broker_password)
    return ClubPublisher(data_dir, table, broker, signer=creds.signer,  # type: ignore[arg-type]
                         club=creds.club, insecure=args.insecure_broker)


def _table(args: argparse.Namespace) -> TableKind:
    """What feeds the game: the virtual table (--simulate), the in-process simulation
    (--simulate --in-process), the readers, or nothing (--in-process alone)."""
    if args.simulate:
        return "simulation" if args.in_process else "virtual"
    return None if args.in_process else "readers"


def _override(config: Config, args: argparse.Namespace) -> Config:
    """The config with the command line's values, validated as a file's would be."""
    from pydantic import ValidationError

    data = config.model_dump()
    data["server"].update({k: v for k, v in (("host", args.host), ("port", args.port),
                                             ("cpu", args.cpu))
                           if v is not None})
    if args.ruleset:
        data["session"]["ruleset"] = args.ruleset
    data["simulation"].update({
        k: v for k, v in (("seed", args.seed), ("pace", args.pace), ("hands", args.hands))
        if v is not None})
    try:
        return type(config).model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = "--" + str(err["loc"][-1]) if err["loc"] else "the options"
        raise CliError(f"{where}: {err['msg'].removeprefix('Value error, ')}") from None


def _check_files(data_dir: Path) -> None:
    """A damaged or empty event log, or a damaged tokens file: one line and exit 2 before
    anything starts (a crash in start-up would make systemd restart it again and again)."""
    from controller.loop import LOG_FILE
    from controller.store.errors import StoreError
    from controller.store.schema import inspect_log
    from controller.store.tokens import TOKENS_FILE, load_tokens

    try:
        if inspect_log(data_dir / LOG_FILE).version:
            _check_resumable(data_dir / LOG_FILE)
        if (data_dir / TOKENS_FILE).exists():
            load_tokens(data_dir)
    except (StoreError, ValueError) as exc:
        raise CliError(str(exc)) from None


def _end_other_ruleset(data_dir: Path, ruleset: str | None) -> None:
    """``--ruleset`` names another rule set than the log's unfinished session (`serve
    --simulate` tried first, then `--ruleset riichi` on the same data): that session is ended,
    kept as a past session, and the service starts one of the rule set asked for (it would
    otherwise resume the old one and the option would do nothing)."""
    import time

    from controller.loop import LOG_FILE
    from controller.store import EventLog

    if not ruleset or not (data_dir / LOG_FILE).exists():
        return
    with EventLog.open(data_dir / LOG_FILE) as log:
        latest = log.latest_session()
        if latest is None or latest.ended_at is not None or latest.ruleset == ruleset:
            return
        log.end_session(latest.id, time.time())
    print(f"mahjong-table: session {latest.id} in {data_dir} is {latest.ruleset}, not "
          f"{ruleset}: it is ended (the dashboard lists it under past sessions) and a "
          f"{ruleset} session starts")


def _check_resumable(db: Path) -> None:
    """The session the service will resume reads to its end (a damaged row in it: issue 22).
    A damaged older session does not stop the table; the past-sessions page marks it."""
    from controller.store import EventLog, table_log

    with EventLog.open(db, readonly=True) as log:
        latest = log.latest_session()
        if latest is not None and latest.ended_at is None:
            for _ in table_log(log, latest.id, notes=True):
                pass
