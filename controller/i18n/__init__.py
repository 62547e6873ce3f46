"""The table's languages: gettext catalogs (``controller/locale/<lang>/LC_MESSAGES/<domain>.mo``,
compiled from the ``.po`` files at build time by ``setup.py``'s ``compile_catalogs``) read with
Babel, the choice of a language (``negotiate``), the pages' JSON catalogs (``catalog_json``) and
the pseudo-language ``en-XA`` (every string bracketed and lengthened) for the layout tests.
docs/i18n.md says how to add a string, extract, translate and compile.
"""

from __future__ import annotations

import hashlib
import json
import logging
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel import Locale, negotiate_locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo, write_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po
from babel.support import Translations

from controller.i18n.pseudo import PSEUDO, pseudo

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
#: The shipped languages (BCP 47 codes, as the pages and ``[server] language`` spell them).
LANGUAGES: tuple[str, ...] = ("en", "de", "sv", "zh-Hans", "ja")
#: The gettext domains: the pages' and the server's words, and the rule terms (docs/glossary.md).
DOMAINS: tuple[str, ...] = ("messages", "terms")
DEFAULT = "en"
log = logging.getLogger(__name__)

__all__ = ["DEFAULT", "DOMAINS", "LANGUAGES", "LOCALE_DIR", "PSEUDO", "Words", "catalog_json",
           "language_names", "negotiate", "pseudo", "translations"]


def folder(language: str) -> str:
    """``zh-Hans`` -> ``zh_Hans``: gettext's and Babel's spelling of the locale's folder."""
    return language.replace("-", "_")


def known(language: str) -> bool:
    return language in LANGUAGES or language == PSEUDO


def negotiate(accept_language: str | None, default: str | None = None) -> str:
    """The language of a page: the table's configured ``default`` if any, else the best match
    of the browser's Accept-Language header, else English."""
    if default and known(default):
        return default
    wanted = []
    for part in (accept_language or "").split(","):
        tag, _, q = part.strip().partition(";q=")
        try:
            weight = float(q) if q else 1.0
        except ValueError:
            weight = 0.0
        if tag and weight > 0:
            wanted.append((weight, tag.strip()))
    ranked = [tag for _, tag in sorted(wanted, key=lambda x: -x[0])]
    # zh-CN, zh-SG and plain zh read Simplified Chinese; Babel matches the rest by prefix.
    aliases = {"zh": "zh-Hans", "zh-CN": "zh-Hans", "zh-SG": "zh-Hans", "zh-Hans-CN": "zh-Hans"}
    ranked = [aliases.get(tag, tag) for tag in ranked]
    best = negotiate_locale(ranked, list(LANGUAGES), sep="-")
    return best if best in LANGUAGES else DEFAULT


def language_names() -> list[dict[str, str]]:
    """Each shipped language in its own words, for the pages' switch."""
    return [{"code": code, "name": Locale.parse(folder(code)).get_display_name() or code}
            for code in LANGUAGES]


def _compiled(language: str, domain: str) -> Catalog | None:
    """The language's catalog: its compiled ``.mo``; a ``.po`` newer than its ``.mo`` (being
    edited) or without one is compiled in memory, with a warning naming the build step."""
    base = LOCALE_DIR / folder(language) / "LC_MESSAGES"
    po, mo = base / f"{domain}.po", base / f"{domain}.mo"
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as fh:
            return read_mo(fh)
    if not po.exists():
        return None
    log.warning("%s is not compiled (or older than its .po): compiled in memory; "
                "`pip install -e .` or `scripts/i18n compile` compiles the catalogs", po)
    with po.open("rb") as fh:
        return read_po(fh, locale=folder(language), domain=domain)


def _pseudo_catalog(domain: str) -> Catalog:
    """en-XA: every msgid of the domain's template, bracketed and lengthened."""
    catalog = Catalog(locale="en", domain=domain)
    pot = LOCALE_DIR / f"{domain}.pot"
    if pot.exists():
        with pot.open("rb") as fh:
            template = read_po(fh)
        for message in template:
            if not message.id:
                continue
            if isinstance(message.id, tuple | list):
                catalog.add(message.id, [pseudo(message.id[0]), pseudo(message.id[1])])
            else:
                catalog.add(message.id, pseudo(message.id))
    return catalog


@lru_cache(maxsize=32)
def _catalog(language: str, domain: str) -> Catalog:
    if language == PSEUDO:
        return _pseudo_catalog(domain)
    found = _compiled(language, domain) if language in LANGUAGES else None
    return found if found is not None else Catalog(locale=folder(DEFAULT), domain=domain)


@lru_cache(maxsize=32)
def translations(language: str, domain: str = "messages") -> Translations:
    """gettext's Translations for the language (an unknown one reads English)."""
    import io

    buffer = io.BytesIO()
    write_mo(buffer, _catalog(language, domain))
    buffer.seek(0)
    return Translations(buffer, domain=domain)


def _plural(language: str) -> tuple[int, str]:
    if language == PSEUDO:
        return 2, "(n != 1)"
    rule = get_plural(folder(language))
    return rule.num_plurals, rule.plural_expr


@lru_cache(maxsize=32)
def catalog_json(language: str, domain: str) -> tuple[bytes, str]:
    """The pages' catalog: ``{"language", "domain", "nplurals", "plural", "messages"}`` as JSON
    bytes, and its ETag. A message with plural forms maps to the list of its forms; an
    untranslated one is left out (the page shows the msgid)."""
    messages: dict[str, Any] = {}
    for message in _catalog(language, domain):
        if not message.id or not message.string:
            continue
        if isinstance(message.id, tuple | list):
            if all(message.string):
                messages[message.id[0]] = list(message.string)
        else:
            messages[message.id] = message.string
    nplurals, plural = _plural(language)
    body = json.dumps({"language": language, "domain": domain, "nplurals": nplurals,
                       "plural": plural, "messages": messages},
                      ensure_ascii=False, sort_keys=True).encode()
    return body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


class Words:
    """The server's words in one language: ``words.t("Seat {n}", n=3)``, ``words.tn(...)``
    (extracted by pybabel with the keywords ``t`` and ``tn``) and ``words.term("pung")`` (a
    rule term, the ``terms`` domain; a term it lacks stays as the JSON names it)."""

    def __init__(self, language: str = DEFAULT) -> None:
        self.language = language if known(language) else DEFAULT
        self._messages = translations(self.language, "messages")
        self._terms = translations(self.language, "terms")

    @classmethod
    def asked(cls, accept_language: str | None, default: str | None = None) -> Words:
        """A request's language: a page names its chosen language exactly in Accept-Language
        (static/common.js); anything else is negotiated (the table's default first)."""
        exact = (accept_language or "").strip()
        return cls(exact if known(exact) else negotiate(accept_language, default))

    def t(self, message: str, **values: Any) -> str:
        text = self._messages.gettext(message)
        return text.format(**values) if values else text

    def tn(self, singular: str, plural: str, n: int, **values: Any) -> str:
        return self._messages.ngettext(singular, plural, n).format(n=n, **values)

    def term(self, name: str) -> str:
        return self._terms.gettext(name)
