"""The `terms` gettext domain (docs/glossary.md): the msgids taken from the code's own tables,
the translations taken from the glossary, written as controller/locale/terms.pot and
controller/locale/<lang>/LC_MESSAGES/terms.po with Babel.

    .venv/bin/python scripts/terms.py          # write the template and the catalogs
    .venv/bin/python scripts/terms.py --check  # exit 1 (naming what) when they are not current

A msgid is the exact name the project's JSON uses: an explained score item (every rule set's
table, the 81 mcr fans, the riichi yaku), a limit (a classical limit hand's key, read as its
item; a riichi limit), a violation's rule, a tile in words and its code (``5b``, read as its
words)
(``controller.tiles.tile_name``), a wind, a suit, a set kind, a call and how a hand ended. A new
pattern in a rule table is a new msgid: this script then stops and names the glossary row to add,
and tests/test_terms.py fails until the row is there.
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import sys
import typing
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from babel.messages.catalog import Catalog  # noqa: E402
from babel.messages.pofile import read_po, write_po  # noqa: E402

from controller import i18n, tiles  # noqa: E402
from controller.game import events, riichi_abort, state  # noqa: E402
from controller.scoring.mcr import fans  # noqa: E402
from controller.scoring.riichi import scorer as riichi_scorer  # noqa: E402
from controller.scoring.riichi import settle as riichi_settle  # noqa: E402
from controller.scoring.riichi import yaku as riichi_yaku  # noqa: E402
from controller.scoring.rulesets import RULESETS  # noqa: E402

GLOSSARY = ROOT / "docs" / "glossary.md"
LOCALE = ROOT / "controller" / "locale"
DOMAIN = "terms"
#: the shipped languages (controller.i18n.LANGUAGES): the glossary's column and the catalog's
#: directory (Babel's locale identifier, as gettext names its directories: zh-Hans -> zh_Hans)
LANGUAGES = {lang: i18n.folder(lang) for lang in i18n.LANGUAGES}
#: the modules whose refusals name a violation's rule (Refused(rule, ...), Violation(rule, ...))
GAME = ROOT / "controller" / "game"


def violation_rules(folder: Path = GAME) -> dict[str, list[str]]:
    """Every rule name the game can put in a violation: the first argument of each
    ``Refused(...)`` and ``Violation(...)`` in controller/game, by the module that uses it. A
    rule passed as anything but a literal is an error (this list could not see it)."""
    out: dict[str, list[str]] = {}
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and _called(node) in ("Refused", "Violation")):
                continue
            arg = node.args[0] if node.args else None
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                out.setdefault(arg.value, []).append(path.stem)
            elif not (isinstance(arg, ast.Attribute) and arg.attr == "rule"):  # re-raised
                raise SystemExit(f"{path}:{node.lineno}: a violation's rule that is not a "
                                 "literal string: scripts/terms.py cannot list it")
    return out


def _called(node: ast.Call) -> str | None:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def limit_keys() -> dict[str, str]:
    """A classical limit hand's key (what ``limit_hand`` and the option ``limit_hands`` name)
    and the item it reads as: the name of the first rule with that key, in the registry's
    order. The key has no words of its own: the catalogs give it its item's."""
    out: dict[str, str] = {}
    for spec in RULESETS.values():
        for rule in spec.rules:
            if rule.key is not None:
                out.setdefault(rule.key, rule.name)
    return out


def aliases() -> dict[str, str]:
    """The codes that read as a term: a limit hand's key as its item, a tile's code (``5b``,
    as the JSON names a tile) as the tile in words (``5 bamboo``). They have no glossary rows:
    the catalogs give each the words of the term it reads as, in English too."""
    return {**limit_keys(), **{c: tiles.tile_name(c) for c in tiles.ALL_CODES}}


def term_ids() -> dict[str, list[str]]:
    """Every msgid of the domain, in a stable order, with where the code uses it."""
    out: dict[str, list[str]] = {}

    def add(names: Iterable[str], where: str) -> None:
        for name in names:
            uses = out.setdefault(name, [])
            if where not in uses:
                uses.append(where)

    add((tiles.tile_name(c) for c in tiles.ALL_CODES), "tile")
    add(tiles.ALL_CODES, "tile code")
    add(tiles.SUIT_NAMES.values(), "suit")
    add(tiles.WINDS, "wind")
    add(typing.get_args(state.SetKind), "set")
    add(events.CALLS, "call")
    add(typing.get_args(state.HandEnd), "hand result")
    add(riichi_abort.ABORTIVE, "riichi abortive draw")
    for name, spec in RULESETS.items():
        add((r.name for r in spec.rules), f"{name} item")
    add((f.name for f in fans.FANS), "mcr fan")
    add((y.name for y in riichi_yaku.YAKU), "riichi yaku")
    add((y.name for y in riichi_yaku.YAKUMAN), "riichi yakuman")
    add((riichi_yaku.RENHOU.name,), "riichi yaku")
    add(riichi_scorer.DORA_ITEMS, "riichi dora")
    add(riichi_settle.LIMIT_BASE, "riichi limit")
    for key, name in limit_keys().items():
        add([key], f"limit hand key (reads as {name!r})")
    for rule, modules in violation_rules().items():
        add([rule], "violation (" + ", ".join(sorted(set(modules))) + ")")
    return out


# --- the glossary --------------------------------------------------------------------------------


@dataclass
class Row:
    msgid: str
    words: dict[str, str]  # language -> msgstr
    sources: str
    notes: str
    line: int


@dataclass
class Glossary:
    rows: dict[str, Row] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


_CELL_CODE = re.compile(r"^`(.*)`$")


def _cells(line: str) -> list[str]:
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") else body
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", body)]


def read_glossary(path: Path = GLOSSARY) -> Glossary:
    """The term tables of the glossary: each table whose header starts ``| msgid |`` and has a
    column for every language. A msgid is written in backticks; a row twice is a problem."""
    g = Glossary()
    header: list[str] | None = None
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.lstrip().startswith("|"):
            header = None
            continue
        cells = _cells(line)
        if header is None:
            header = cells if cells and cells[0] == "msgid" else []
            missing = [lang for lang in LANGUAGES if header and lang not in header]
            if missing:
                g.problems.append(f"glossary line {n}: no column for {', '.join(missing)}")
                header = []
            continue
        if not header or set(line.replace("|", "").strip()) <= set("-: "):
            continue
        if len(cells) != len(header):
            g.problems.append(f"glossary line {n}: {len(cells)} cells, the header has "
                              f"{len(header)}")
            continue
        row = dict(zip(header, cells, strict=True))
        m = _CELL_CODE.match(row["msgid"])
        if not m:
            g.problems.append(f"glossary line {n}: the msgid is not in backticks")
            continue
        msgid = m.group(1)
        if msgid in g.rows:
            g.problems.append(f"glossary line {n}: {msgid!r} again (first on line "
                              f"{g.rows[msgid].line})")
            continue
        words = {lang: row[lang] for lang in LANGUAGES}
        g.rows[msgid] = Row(msgid, words, row.get("sources", ""), row.get("notes", ""), n)
    return g


# --- the catalogs --------------------------------------------------------------------------------

HEADER = "Rule terms of the mahjong table (docs/glossary.md); written by scripts/terms.py"


def _catalog(locale: str | None) -> Catalog:
    return Catalog(locale=locale, domain=DOMAIN, project="mahjong-table", version="1",
                   copyright_holder="the mahjong-table project", header_comment=f"# {HEADER}",
                   msgid_bugs_address="docs/glossary.md", last_translator="docs/glossary.md",
                   language_team=f"{locale or 'template'}: docs/glossary.md", fuzzy=False,
                   charset="utf-8")


def build(ids: dict[str, list[str]], glossary: Glossary) -> dict[str, Catalog]:
    """The template (key ``pot``) and one catalog per language."""
    out = {"pot": _catalog(None)}
    for lang, locale in LANGUAGES.items():
        out[lang] = _catalog(locale)
    keys = aliases()
    for msgid, uses in ids.items():
        row = glossary.rows.get(msgid) or glossary.rows.get(keys.get(msgid, ""))
        comments = ["used as: " + "; ".join(uses)]
        out["pot"].add(msgid, auto_comments=comments)
        for lang in LANGUAGES:
            text = row.words[lang] if row else ""
            if lang == "en" and msgid in keys:  # a code: English reads the term too
                text = keys[msgid]
            notes = [f"glossary: {row.sources}"] if row and row.sources else []
            out[lang].add(msgid, text, auto_comments=comments + notes)
    return out


def render(catalog: Catalog) -> bytes:
    buf = io.BytesIO()
    write_po(buf, catalog, width=100, omit_header=False, sort_output=False,
             include_lineno=False, no_location=True)
    # the dates and Babel's version change between runs: keep the files still
    return re.sub(rb'"(POT-Creation-Date|PO-Revision-Date|Generated-By): [^"]*"\n', b"",
                  buf.getvalue())


def paths() -> dict[str, Path]:
    out = {"pot": LOCALE / f"{DOMAIN}.pot"}
    for lang, locale in LANGUAGES.items():
        out[lang] = LOCALE / locale / "LC_MESSAGES" / f"{DOMAIN}.po"
    return out


def problems(ids: dict[str, list[str]], glossary: Glossary) -> list[str]:
    """What stops the catalogs from being complete: glossary rows missing, empty, or for
    terms the code no longer has."""
    out = list(glossary.problems)
    keys = aliases()
    for msgid, uses in ids.items():
        if msgid in keys and msgid not in glossary.rows:
            continue  # the row of the term it reads as gives its words
        row = glossary.rows.get(msgid)
        if row is None:
            out.append(f"{msgid!r} ({'; '.join(uses)}) has no row in docs/glossary.md: add one")
            continue
        empty = [lang for lang, text in row.words.items() if not text]
        if empty:
            out.append(f"{msgid!r} (glossary line {row.line}) has no {', '.join(empty)}")
    for msgid, row in glossary.rows.items():
        if msgid not in ids:
            out.append(f"glossary line {row.line}: {msgid!r} is not a term the code uses")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 when a catalog is not what the glossary gives")
    args = ap.parse_args(argv)
    ids, glossary = term_ids(), read_glossary()
    trouble = problems(ids, glossary)
    if trouble:
        print("\n".join(trouble), file=sys.stderr)
        return 1
    stale = []
    for key, catalog in build(ids, glossary).items():
        path, data = paths()[key], render(catalog)
        if path.exists() and path.read_bytes() == data:
            continue
        stale.append(str(path.relative_to(ROOT)))
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    if args.check and stale:
        print("not current (run scripts/terms.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    print(f"{len(ids)} terms, {len(LANGUAGES)} languages: "
          + ("written " + ", ".join(stale) if stale else "all current"))
    return 0


def load(path: Path) -> Catalog:
    """A catalog file read back with Babel."""
    with path.open("rb") as f:
        return read_po(f)


if __name__ == "__main__":
    raise SystemExit(main())
