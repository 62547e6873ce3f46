"""``mahjong-table club``: the club service (subscribes to the tables over MQTT, serves the
club page, the league and tournament mode)."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from controller.cli import CliError, check_data_dir, check_port
from controller.cli.argtypes import port


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "club", help="run the club service: every table live, standings, league, tournament",
        description="Subscribe to the tables over an MQTT broker (Mosquitto), keep every "
        "finished hand once in the club's own SQLite, and serve the club page.")
    p.add_argument("--broker", required=True, help="the MQTT broker, HOST:PORT")
    p.add_argument("--data-dir", type=Path, required=True, help="the club's database and token")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=port, default=8090, help="port to listen on (8090)")
    p.add_argument("--broker-user", default=None, help="user name at the broker")
    p.add_argument("--broker-password-file", type=Path, help="file holding the broker password")
    p.add_argument("--broker-ca", type=Path, help="CA certificate: connect to the broker by TLS")
    p.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))
    p.set_defaults(func=run)


def broker_config(text: str, user: str | None, password_file: Path | None,
                  ca: Path | None) -> object:
    from controller.club.mqtt import BrokerConfig, read_password
    from controller.club.topics import parse_broker

    try:
        host, port = parse_broker(text)
        password = read_password(password_file)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if ca is not None and not ca.is_file():
        raise CliError(f"the CA certificate {ca} does not exist")
    return BrokerConfig(host, port, user, password, ca)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from controller.club.app import create_club_app
    from controller.club.service import ClubService

    broker = broker_config(args.broker, args.broker_user, args.broker_password_file,
                           args.broker_ca)
    check_data_dir(args.data_dir)
    check_port(args.host, args.port)
    logging.basicConfig(level=args.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        club = ClubService(args.data_dir, broker)  # type: ignore[arg-type]
    except (OSError, ValueError) as exc:
        raise CliError(f"cannot open the club's data in {args.data_dir}: {exc}") from None
    print(f"mahjong-table club: club page on http://{args.host}:{args.port}/ (admin token in "
          f"{args.data_dir / 'club-token.json'})", flush=True)
    from controller.web.slowclients import HeaderDeadline  # late headers: 408, closed

    uvicorn.run(create_club_app(club), host=args.host, port=args.port,
                log_level=args.log_level, http=HeaderDeadline)
    return 0
