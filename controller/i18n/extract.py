"""Babel's extractor for the pages' HTML (``babel.cfg``: ``[html: ...]``): the text of each
element marked ``data-i18n`` (whitespace folded, as the page's script folds it) and the
attributes it names in ``data-i18n-attr`` (``placeholder``, ``title``, ``aria-label``)."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from html.parser import HTMLParser
from typing import IO, Any


def fold(text: str) -> str:
    return " ".join(text.split())


class _Marked(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._open: list[tuple[str, int, list[str]]] = []  # marked elements being read

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        at = dict(attrs)
        line = self.getpos()[0]
        for name in (at.get("data-i18n-attr") or "").split(","):
            if name.strip() and at.get(name.strip()):
                self.found.append((line, fold(at[name.strip()] or "")))
        if "data-i18n" in at:
            self._open.append((tag, line, []))
        elif self._open and tag not in ("br", "wbr"):
            raise ValueError(f"line {line}: <{tag}> inside a data-i18n element: mark the "
                             "parts apart (a page translates a marked element's text whole)")

    def handle_data(self, data: str) -> None:
        if self._open:
            self._open[-1][2].append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1][0] == tag:
            _, line, parts = self._open.pop()
            if fold("".join(parts)):
                self.found.append((line, fold("".join(parts))))


def extract_html(fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str],
                 options: Mapping[str, Any]) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extractor interface: (line, funcname, message, comments) per string."""
    parser = _Marked()
    parser.feed(fileobj.read().decode(str(options.get("encoding", "utf-8"))))
    parser.close()
    for line, text in parser.found:
        yield line, "t", text, []
