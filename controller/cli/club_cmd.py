"""``mahjong-table club``: the club service (subscribes to the tables over MQTT, serves the
club page, the league and tournament mode); ``mahjong-table club enrol-table NAME``: a table's
key and broker password, and the locked broker's configuration."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from controller.cli import CliError, check_data_dir, check_port
from controller.cli.argtypes import path, port


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "club", help="run the club service: every table live, standings, league, tournament",
        description="Subscribe to the tables over an MQTT broker (Mosquitto), keep every "
        "finished hand once in the club's own SQLite, and serve the club page. "
        "`club enrol-table NAME` enrols a table first.")
    p.add_argument("--broker", help="the MQTT broker, HOST:PORT")
    p.add_argument("--data-dir", type=path, help="the club's database, keys and token")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=port, default=8090, help="port to listen on (8090)")
    p.add_argument("--broker-user", default=None,
                   help="user name at the broker (default: club, with the password the club "
                   "made in DIR/broker/club-password)")
    p.add_argument("--broker-password-file", type=path, help="file holding the broker password")
    p.add_argument("--broker-ca", type=path, help="CA certificate: connect to the broker by TLS")
    p.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))
    p.set_defaults(func=run)
    sub = p.add_subparsers(dest="club_command", metavar="enrol-table")
    e = sub.add_parser(
        "enrol-table", help="issue a table its key and broker password",
        description="Make a table's signing key and broker password, keep its public key in "
        "DIR/club-keys.json, and write the locked Mosquitto configuration (DIR/broker/: "
        "mosquitto.conf, passwd, acl). The table's credentials go to standard output or to "
        "--output (mode 0600), for `serve --club-credentials FILE`.")
    e.add_argument("table", metavar="NAME", help="the table's name (its --table-id)")
    e.add_argument("--data-dir", type=path, required=True, help="the club's data directory")
    e.add_argument("-o", "--output", type=path, help="write the credentials to this file")
    e.add_argument("--replace", action="store_true",
                   help="issue an enrolled table a new key and password (the old stop working)")
    e.add_argument("--broker-port", type=int, default=1883,
                   help="the port the written mosquitto.conf listens on (1883)")
    e.set_defaults(func=enrol)


def enrol(args: argparse.Namespace) -> int:
    from controller.club import brokerconf
    from controller.club.keyring import Credentials, Keyring, KeysError, write_private

    check_data_dir(args.data_dir)
    if not 0 < args.broker_port < 65536:
        raise CliError(f"--broker-port {args.broker_port} is not a port (1-65535)")
    if args.output is not None and args.output.exists() and not args.replace:
        raise CliError(f"{args.output} exists: --replace to issue new credentials over it")
    try:
        keyring = Keyring(args.data_dir)
        signer, password = keyring.enrol(args.table, replace=args.replace)
    except (KeysError, ValueError) as exc:
        raise CliError(str(exc)) from None
    brokerconf.set_password(args.data_dir, args.table, password)
    conf = brokerconf.write_config(args.data_dir, args.broker_port)
    text = Credentials.text(args.table, password, signer, keyring.signer.public_text())
    if args.output is None:
        sys.stdout.write(text)
    else:
        write_private(args.output, text)
    print(f"enrolled {args.table}; the broker: mosquitto -c {conf}"
          + (f"; the table: serve --club-credentials {args.output}" if args.output else ""),
          file=sys.stderr)
    return 0


def broker_config(text: str, user: str | None, password_file: Path | None,
                  ca: Path | None, password: str | None = None) -> object:
    from controller.club.mqtt import BrokerConfig, read_password
    from controller.club.topics import parse_broker

    try:
        host, port = parse_broker(text)
        password = read_password(password_file) if password_file is not None else password
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if ca is not None and not ca.is_file():
        raise CliError(f"the CA certificate {ca} does not exist")
    return BrokerConfig(host, port, user, password, ca)


def _club_broker(args: argparse.Namespace) -> object:
    """The broker as the club reaches it: by default user "club" with the password the club
    made when it first enrolled a table."""
    from controller.club.brokerconf import BROKER_DIR, CLUB_PASSWORD
    from controller.club.keyring import CLUB_USER

    if not args.broker or args.data_dir is None:
        raise CliError("club needs --broker HOST:PORT and --data-dir DIR (`club enrol-table "
                       "NAME --data-dir DIR` enrols a table)")
    made = args.data_dir / BROKER_DIR / CLUB_PASSWORD
    user, password_file = args.broker_user, args.broker_password_file
    if user is None and password_file is None and made.exists():
        user, password_file = CLUB_USER, made
    return broker_config(args.broker, user, password_file, args.broker_ca)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from controller.club.app import create_club_app
    from controller.club.keyring import KeysError
    from controller.club.service import ClubService

    broker = _club_broker(args)
    check_data_dir(args.data_dir)
    check_port(args.host, args.port)
    logging.basicConfig(level=args.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        club = ClubService(args.data_dir, broker)  # type: ignore[arg-type]
    except (OSError, ValueError, KeysError) as exc:
        raise CliError(f"cannot open the club's data in {args.data_dir}: {exc}") from None
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::", "") else args.host  # noqa: S104
    print(f"mahjong-table club: club page on http://{shown}:{args.port}/; tournament and roster "
          f"admin: http://{shown}:{args.port}/tournament#token={club.admin_token} (the token is "
          f"kept in {args.data_dir / 'club-token.json'})", flush=True)
    if club.keyring is not None and not club.keyring.tables():
        print("mahjong-table club: no table is enrolled yet, so every table's messages are set "
              "aside: `mahjong-table club enrol-table NAME --data-dir "
              f"{args.data_dir}` (the club takes it at once)", file=sys.stderr, flush=True)
    from controller.web.slowclients import HeaderDeadline  # late headers: 408, closed

    uvicorn.run(create_club_app(club), host=args.host, port=args.port,
                log_level=args.log_level, http=HeaderDeadline)
    return 0
