"""``mahjong-table settle``: payments and nets for one hand's scores (FORMATS.md)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from controller import jsonsafe
from controller.cli import CliError
from controller.cli.argtypes import file_name


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "settle",
        help="who pays whom after a hand (JSON from FILE or -)",
        description="Settle one hand: input {\"ruleset\", \"options\", \"dealer\", \"winner\", "
        "\"scores\"}, output the payments and each player's net.",
        epilog="The formats, with examples that run: docs/formats.md (in the project's clone).",
    )
    p.add_argument("file", type=file_name, help="JSON input file, - for standard input")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from controller.scoring import ScoringError
    from controller.scoring.jsonio import settle_json

    try:
        text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"cannot read {args.file}: {exc}") from None
    try:
        obj = jsonsafe.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(f"malformed JSON: {exc}") from None
    try:
        settlement = settle_json(obj)
    except ScoringError as exc:
        raise CliError(str(exc)) from None
    print(json.dumps(settlement.to_json()))
    return 0
