"""The gettext catalogs (docs/i18n.md): every message of every shipped language translated, each
catalog compiling with Babel with the placeholders of its message, the template holding every
string the code and the pages mark, no translation naming a tile its message does not, the
choice of a language, the pages' JSON catalogs with their ETag, and the pseudo-language."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel.messages import frontend
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from controller.config import Config, ConfigError, parse_config
from controller.i18n import DOMAINS, LANGUAGES, LOCALE_DIR, folder, negotiate, pseudo
from controller.i18n.router import i18n_router

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"\{[a-z_0-9]*\}")
# The tile codes of RULES.md section 1 as a word (controller/game/privacy.py finds them so).
CODE = re.compile(r"\b([1-9][bcd]|[eswn]w|[rgw]d|[1-4][fs])\b")
KEYWORDS = {"t": None, "tx": None, "tn": (1, 2)}  # scripts/i18n's -k options


def _template(domain: str) -> Catalog:
    pot = LOCALE_DIR / f"{domain}.pot"
    if not pot.exists():
        pytest.skip(f"no {pot.name} yet: the {domain} domain comes with its own branch")
    with pot.open("rb") as fh:
        return read_po(fh)


def _catalog(language: str, domain: str) -> Catalog:
    path = LOCALE_DIR / folder(language) / "LC_MESSAGES" / f"{domain}.po"
    assert path.exists(), f"{path} is missing: scripts/i18n init {folder(language)}"
    with path.open("rb") as fh:
        return read_po(fh, locale=folder(language), domain=domain)


def _ids(catalog: Catalog) -> set[str]:
    return {m.id[0] if isinstance(m.id, tuple | list) else m.id for m in catalog if m.id}


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated(language: str, domain: str) -> None:
    wanted = _ids(_template(domain))
    catalog = _catalog(language, domain)
    done = {(m.id[0] if isinstance(m.id, tuple | list) else m.id) for m in catalog
            if m.id and not m.fuzzy and (all(m.string) if isinstance(m.string, tuple | list)
                                         else m.string)}
    missing = sorted(wanted - done)
    assert not missing, (f"{len(missing)} message(s) of {domain}.pot without a {language} "
                         f"translation (scripts/i18n update, then translate): {missing[:10]}")


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_each_catalog_compiles_and_keeps_its_placeholders(language: str, domain: str) -> None:
    _template(domain)
    catalog = _catalog(language, domain)
    write_mo(io.BytesIO(), catalog)  # what setup.py's compile_catalogs does
    wrong = []
    for m in catalog:
        if not m.id:
            continue
        ids = list(m.id) if isinstance(m.id, tuple | list) else [m.id]
        strings = list(m.string) if isinstance(m.string, tuple | list) else [m.string]
        allowed = {p for i in ids for p in PLACEHOLDER.findall(i)} | ({"{n}"} if len(ids) > 1
                                                                     else set())
        for s in strings:
            if not s:
                continue
            same = sorted(PLACEHOLDER.findall(s)) == sorted(PLACEHOLDER.findall(ids[0]))
            if len(ids) == 1 and not same:
                wrong.append((ids[0], s))
            elif not set(PLACEHOLDER.findall(s)) <= allowed:
                wrong.append((ids[0], s))
            # privacy: a translation names no tile its message does not name
            if not set(CODE.findall(s)) <= {c for i in ids for c in CODE.findall(i)}:
                wrong.append((ids[0], s))
    assert not wrong, f"placeholders or tile codes that differ from the message: {wrong[:5]}"


def test_the_template_holds_every_marked_string() -> None:
    """A string marked in the code or a page (t(), tx(), tn(), data-i18n) is in messages.pot,
    and the template holds nothing the code no longer says."""
    with (ROOT / "babel.cfg").open() as fh:
        method_map, options_map = frontend.parse_mapping_cfg(fh)
    found = {msg[0] if isinstance(msg, tuple) else msg
             for _file, _line, msg, _comments, _context in extract_from_dir(
                 ROOT, method_map, options_map, keywords=KEYWORDS)}
    pot = _ids(_template("messages"))
    assert found == pot, ("messages.pot is not the code's: run scripts/i18n extract, then "
                          f"update and translate; new {sorted(found - pot)[:5]}, gone "
                          f"{sorted(pot - found)[:5]}")


# A marked string read straight from the scripts, apart from pybabel (whose JavaScript extractor
# does not see a t() inside another call's arguments): the first argument of t, tx or tn.
MARKED = re.compile(r"""(?<![\w.$])(?:t|tx|tn)\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')""")


def test_no_string_marked_in_a_script_escapes_the_template() -> None:
    pot = _ids(_template("messages"))
    missing = []
    for script in sorted([*(ROOT / "controller/web/static").glob("*.js"),
                          *(ROOT / "controller/club/static").glob("*.js")]):
        for number, line in enumerate(script.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith(("//", "/*", "*")):
                continue  # a comment's example
            for match in MARKED.finditer(line):
                text = (match.group(1) or match.group(2) or "").replace('\\"', '"')
                if text not in pot:
                    missing.append(f"{script.name}:{number}: {text}")
    assert not missing, ("marked but not extracted (write the t() apart from the call around "
                         f"it, then scripts/i18n extract): {missing[:5]}")


def test_the_build_compiled_every_catalog() -> None:
    """`pip install` runs setup.py's compile_catalogs: every .po has its .mo."""
    pos = sorted(LOCALE_DIR.glob("*/LC_MESSAGES/*.po"))
    assert pos
    missing = [str(p) for p in pos if not p.with_suffix(".mo").exists()]
    assert not missing, f"not compiled (pip install -e . or scripts/i18n compile): {missing}"


@pytest.mark.parametrize("accept,default,chosen", [
    ("de-DE,de;q=0.9,en;q=0.8", None, "de"),
    ("sv-SE", None, "sv"),
    ("zh-CN,zh;q=0.9", None, "zh-Hans"),
    ("zh-Hans", None, "zh-Hans"),
    ("ja-JP", None, "ja"),
    ("fr-FR,fr;q=0.9", None, "en"),
    ("fr-FR,fr;q=0.9,de;q=0.5", None, "de"),
    ("en;q=0.2,ja;q=0.8", None, "ja"),
    (None, None, "en"),
    ("ja-JP", "sv", "sv"),  # the table's [server] language comes first
])
def test_the_language_of_a_browser(accept: str | None, default: str | None, chosen: str) -> None:
    assert negotiate(accept, default) == chosen


def test_the_config_names_the_languages() -> None:
    assert Config.model_validate({"server": {"language": "zh-Hans"}}).server.language == "zh-Hans"
    with pytest.raises(ConfigError, match="not a language of the table: use one of en, de"):
        parse_config('[server]\nlanguage = "fr"\n', "table.toml")


def test_the_pages_catalog_is_cached_by_its_etag() -> None:
    app = FastAPI()
    app.include_router(i18n_router(lambda: None))
    client = TestClient(app)
    first = client.get("/api/i18n/de/messages.json")
    assert first.status_code == 200 and first.headers["etag"]
    assert "no-cache" in first.headers["cache-control"] or "max-age=0" in first.headers[
        "cache-control"]
    body = first.json()
    assert body["messages"]["Mahjong table"] == "Mahjong-Tisch" and body["plural"] == "(n != 1)"
    again = client.get("/api/i18n/de/messages.json",
                       headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert client.get("/api/i18n/ja/messages.json").json()["plural"] == "0"
    missing = client.get("/api/i18n/fr/messages.json")
    assert missing.status_code == 404 and "en, de, sv, zh-Hans, ja" in missing.json()["detail"]
    chosen = client.get("/api/i18n", headers={"Accept-Language": "sv-SE,sv;q=0.9"}).json()
    assert chosen["language"] == "sv" and [x["code"] for x in chosen["languages"]] == list(
        LANGUAGES)
    assert {x["code"]: x["name"] for x in chosen["languages"]}["de"] == "Deutsch"


PLAIN = st.text(alphabet="abcdeAESN ,.:?'-1234", max_size=40)


@given(st.lists(st.one_of(PLAIN, st.sampled_from(["{n}", "{who}", "{tile}"])), max_size=6))
def test_the_pseudo_language_brackets_lengthens_and_keeps_placeholders(parts: list[str]) -> None:
    text = "".join(parts)
    shown = pseudo(text)
    assert shown.startswith("⟦") and shown.endswith("⟧")
    assert PLACEHOLDER.findall(shown) == PLACEHOLDER.findall(text)
    words = len(PLACEHOLDER.sub("", text))
    assert len(PLACEHOLDER.sub("", shown)) - 2 >= words + round(0.4 * words)
