"""``mahjong-table tokens``: print the admin and seat tokens of a data directory."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from controller.cli import CliError
from controller.cli.argtypes import path, port


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "tokens",
        help="print the admin and seat tokens and the operator page's link",
        description="Print the access tokens kept in the data directory (tokens.json, mode "
        "0600) and the operator page's link with its token (open it to log in). They are "
        "made on the first start of `serve`, or here with --create.",
    )
    p.add_argument("--data-dir", type=path,
                   help="the service's data directory (default: --config's, else ./data)")
    p.add_argument("--config", type=path, help="take the data directory from this config")
    p.add_argument("--json", action="store_true",
                   help='print {"admin": ..., "seats": {"1": ..., ...}} as JSON')
    p.add_argument("--urls", action="store_true",
                   help="print each seat's page address with its token (for the players' "
                   "phones; from [server] public_url, else --host/--port), then the "
                   "operator page's")
    p.add_argument("--host", help="the address the service listens on (for the links)")
    p.add_argument("--port", type=port, help="the port the service listens on (for the links)")
    p.add_argument("--create", action="store_true",
                   help="make the tokens if the data directory has none yet")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from controller.store.tokens import TOKENS_FILE, load_or_create_tokens, load_tokens

    data_dir = _data_dir(args)
    try:
        tokens = load_or_create_tokens(data_dir) if args.create else load_tokens(data_dir)
    except FileNotFoundError:
        raise CliError(
            f"no tokens in {data_dir} ({TOKENS_FILE} is missing): start `mahjong-table serve "
            f"--data-dir {data_dir}` once, or run this with --create"
        ) from None
    except (ValueError, OSError) as exc:
        raise CliError(str(exc)) from None
    if args.urls:
        return _print_urls(args, tokens.seats, tokens.admin)
    if args.json:
        print(json.dumps(tokens.to_json()))
        return 0
    print(f"admin   {tokens.admin}")
    for position, token in sorted(tokens.seats.items()):
        print(f"seat {position}  {token}")
    print(f"operator  {_base(args)}/operator#token={tokens.admin}")
    return 0


def _data_dir(args: argparse.Namespace) -> Path:
    if args.data_dir is not None:
        return Path(args.data_dir)
    if args.config is not None:
        from controller.config import ConfigError, load_config

        try:
            return load_config(args.config).data.dir
        except ConfigError as exc:
            raise CliError(str(exc)) from None
    return Path("data")


def _print_urls(args: argparse.Namespace, seats: dict[int, str], admin: str) -> int:
    """The seat links as the operator page gives them; a warning when no phone can open them."""
    import sys

    from controller.web import links

    host = args.host or _server(args).host
    base = _base(args)
    hint = None
    for position, token in sorted(seats.items()):
        link = links.seat_link(base, position, token, host)
        hint = hint or link.hint
        print(f"seat {position}  {link.url}")
    print(f"operator  {base}/operator#token={admin}")
    if hint:
        print(f"note: {hint}", file=sys.stderr)
    return 0


def _base(args: argparse.Namespace) -> str:
    """The service's address as the operator page gives the seat links."""
    from controller.web import links

    server = _server(args)
    host = args.host or server.host
    port = args.port or server.port
    shown = "127.0.0.1" if host in links.ANY_ADDRESSES else host
    return links.base_url(f"http://{shown}:{port}", host, port, server.public_url)


def _server(args: argparse.Namespace) -> Any:
    from controller.config import ConfigError, default_config, load_config

    if args.config is None:
        return default_config().server
    try:
        return load_config(args.config).server
    except ConfigError as exc:
        raise CliError(str(exc)) from None
