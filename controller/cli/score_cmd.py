"""``mahjong-table score``: score a hand from JSON (FORMATS.md), many from JSON lines, or one
written in the people's notation with a readable explanation."""

from __future__ import annotations

import argparse
import gc
import json
import sys
from typing import Any

from controller import jsonsafe
from controller.cli import CliError
from controller.cli.argtypes import file_name

# the rule sets by name, written out: the registry is not imported for --help (score's lean
# start-up); tests/scoring/test_riichi_settle.py checks this against the registry
RULESET_NAMES = ("hua-bao", "swedish", "dmjl", "bmja", "mcr", "riichi")
WIN_CHOICES = ("wall", "discard", "replacement", "robbed_kong", "dealt")
# json.dumps(obj, ensure_ascii=False) with its encoder made once, not per answer
_dumps = json.JSONEncoder(ensure_ascii=False).encode


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "score",
        help="score a hand (JSON from FILE or -, or --hand in the people's notation)",
        description="Score one player's hand. JSON in and out (docs/formats.md), or give the "
        "hand as --hand \"[5b5b5b] [4d5d6d] gdgdgd 1c2c3c ewew\" for a readable table.",
        epilog="The formats, with examples that run: docs/formats.md (in the project's clone).",
    )
    p.add_argument("file", type=file_name, nargs="?", help="JSON input file, - for standard input")
    p.add_argument("--jsonl", action="store_true", help="one JSON object per line, one answer each")
    p.add_argument("--hand", help="the hand: [..] exposed set, {..} concealed kong, bare tiles")
    p.add_argument("--ruleset", default="hua-bao",
                   help="the rule set: " + ", ".join(RULESET_NAMES) + " (default: hua-bao)")
    p.add_argument("--seat", default="east", help="seat wind (east, south, west, north)")
    p.add_argument("--prevailing", default="east", help="prevailing wind")
    p.add_argument("--won", choices=WIN_CHOICES, help="this player won; where the tile came from")
    p.add_argument("--winning-tile", help="the winning tile (default: the last concealed tile)")
    p.add_argument("--last-tile", action="store_true",
                   help="won on the last tile of the wall (riichi: haitei, houtei)")
    p.add_argument("--first-discard", action="store_true",
                   help="won on east's first discard (riichi: renhou)")
    p.add_argument("--flag", action="append", default=[],
                   help="original_call, twofold_fortune, last_of_kind; riichi: riichi, "
                   "double_riichi, ippatsu, first_turn")
    p.add_argument("--dora", default="", metavar="TILES",
                   help="riichi: the dora indicators, e.g. 1b4d (kan dora too)")
    p.add_argument("--ura-dora", default="", metavar="TILES",
                   help="riichi: the ura dora indicators (a winner in riichi)")
    p.add_argument("--honba", type=int, default=0, help="riichi: the honba counter")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="rule-set option; VALUE is JSON (e.g. limit=300, roof_off=true)")
    p.add_argument("--json", action="store_true", help="with --hand: print the JSON answer")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """No collection while the scorer's modules load: a process that scores one hand ends
    soon after (some 5-10 % of its CPU time); a batch turns collection back on, and a caller
    in the same process (a test) gets it back as it was."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _run(args)
    finally:
        if was_enabled:
            gc.enable()


def _run(args: argparse.Namespace) -> int:
    from controller.scoring import ScoringError

    if args.hand is not None:
        if args.file is not None or args.jsonl:
            raise CliError("give either FILE or --hand, not both")
        try:
            return _run_people(args)
        except ScoringError as exc:
            raise CliError(str(exc)) from None
    if args.file is None:
        raise CliError("give a JSON FILE (or - for standard input), or --hand \"...\"")
    text = _read(args.file)
    if args.jsonl:
        # what start-up made (modules, tables) is never garbage: collections skip it
        gc.freeze()
        gc.enable()
        write = sys.stdout.write
        for line in text.splitlines():
            if line.strip():
                write(_dumps(score_line(line)) + "\n")
        return 0
    try:
        answer = score_json(_parse(text))
    except ScoringError as exc:
        raise CliError(str(exc)) from None
    print(json.dumps(answer, ensure_ascii=False))
    return 0


def _read(path: str) -> str:
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"cannot read {path}: {exc}") from None


def _parse(text: str) -> Any:
    from controller.scoring import ScoringError

    try:
        return jsonsafe.loads(text)
    except json.JSONDecodeError as exc:
        raise ScoringError(f"malformed JSON: {exc}") from None


def score_json(obj: Any) -> dict[str, Any]:
    """The FORMATS.md answer for one ``score`` input object."""
    from controller.scoring import score_hand
    from controller.scoring.jsonio import hand_input

    return score_hand(hand_input(obj)).to_json()


def score_line(line: str) -> dict[str, Any]:
    """One ``--jsonl`` line: the answer, or {"error": ...}."""
    from controller.scoring import ScoringError

    try:
        return score_json(_parse(line))
    except ScoringError as exc:
        return {"error": str(exc)}


def _options(pairs: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise CliError(f"--option {pair!r} must be KEY=VALUE")
        out[key] = _option_value(key, value)
    return out


def _option_value(key: str, value: str) -> Any:
    """JSON (``limit=300``, ``roof_off=true``), or a bare word as a string
    (``wrong_count=dead_hand``); something that starts as JSON must be JSON within the limits
    of controller.jsonsafe (2,000-deep lists and 5,000-digit numbers were tracebacks)."""
    from controller.cli.argtypes import json_value

    try:
        return json_value(value, f"--option {key}")
    except ValueError as exc:
        if value[:1] in '[{"-' or value[:1].isdigit():
            raise CliError(str(exc)) from None
        return value


def _run_people(args: argparse.Namespace) -> int:
    from controller.scoring import HandInput, ScoringError, score_hand
    from controller.scoring.explain import render
    from controller.tiles import TileError, parse_hand

    try:
        parsed = parse_hand(args.hand)
    except TileError as exc:
        raise ScoringError(f"--hand: {exc}") from None
    winning = args.winning_tile
    if args.won and winning is None and parsed.concealed:
        winning = parsed.concealed[-1]
    inp = HandInput(
        ruleset=args.ruleset, options=_options(args.option), seat_wind=args.seat,
        prevailing_wind=args.prevailing, melds=parsed.melds, hand=parsed.concealed,
        bonus=parsed.bonus, mahjong=args.won is not None, winning_tile=winning,
        win_source=args.won, last_tile=args.last_tile, first_discard=args.first_discard,
        flags=args.flag, **_riichi_fields(args),
    )
    try:
        result = score_hand(inp)
    except ScoringError as exc:
        hint = _won_hint(args, parsed)
        raise ScoringError(f"{exc}; {hint[6:]}" if hint else str(exc)) from None
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        print(render(inp, result))
    hint = _won_hint(args, parsed)
    if hint:
        print(hint, file=sys.stderr)
    return 0


def _riichi_fields(args: argparse.Namespace) -> dict[str, Any]:
    """--dora, --ura-dora, --honba: for rule set riichi only."""
    from controller.scoring import ScoringError
    from controller.tiles import TileError, parse_hand

    given = bool(args.dora or args.ura_dora or args.honba)
    if args.ruleset != "riichi":
        if given:
            raise ScoringError("--dora, --ura-dora and --honba are for --ruleset riichi only")
        return {}
    try:
        dora = parse_hand(args.dora).concealed if args.dora else []
        ura = parse_hand(args.ura_dora).concealed if args.ura_dora else []
    except TileError as exc:
        raise ScoringError(f"--dora/--ura-dora: {exc}") from None
    return {"dora_indicators": dora, "ura_dora_indicators": ura, "honba": args.honba}


def _won_hint(args: argparse.Namespace, parsed: Any) -> str | None:
    """Without --won a hand is scored as a losing hand: say so when it looks like a win."""
    if args.won is not None:
        return None
    from controller.scoring import ScoringError, get_ruleset, is_complete

    try:
        complete = is_complete(parsed.concealed, parsed.melds,
                               get_ruleset(args.ruleset, _options(args.option)))
    except ScoringError:
        complete = False
    if not (complete or args.winning_tile):
        return None
    return ("note: without --won the hand is scored as one that did not win; if it went "
            "Mahjong, add --won "
            f"{'|'.join(WIN_CHOICES)} (where the winning tile came from)")
