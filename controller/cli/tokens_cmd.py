"""``mahjong-table tokens``: print the admin and seat tokens of a data directory."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from controller.cli import CliError


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "tokens",
        help="print the admin and seat tokens (made on first start of `serve`)",
        description="Print the access tokens kept in the data directory (tokens.json, mode "
        "0600). They are made on the first start of `serve`, or here with --create.",
    )
    p.add_argument("--data-dir", type=Path,
                   help="the service's data directory (default: --config's, else ./data)")
    p.add_argument("--config", type=Path, help="take the data directory from this config")
    p.add_argument("--json", action="store_true",
                   help='print {"admin": ..., "seats": {"1": ..., ...}} as JSON')
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
    if args.json:
        print(json.dumps(tokens.to_json()))
        return 0
    print(f"admin   {tokens.admin}")
    for position, token in sorted(tokens.seats.items()):
        print(f"seat {position}  {token}")
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
