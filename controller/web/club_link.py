"""The table's link to the club (``serve --club-broker``), as the pages see it: the club's
tournament round and roster. The composition root attaches the publisher to the loop; the web
layer only reads it (duck-typed: ``table``, ``round``, ``roster``, ``health()``) and never
imports the club."""

from __future__ import annotations

import weakref
from typing import Any, Protocol


class ClubLink(Protocol):
    table: str

    @property
    def round(self) -> dict[str, Any] | None: ...

    @property
    def roster(self) -> list[str]: ...

    def health(self) -> dict[str, Any]: ...


_LINKS: weakref.WeakKeyDictionary[Any, ClubLink] = weakref.WeakKeyDictionary()


def attach(loop: Any, link: ClubLink) -> None:
    _LINKS[loop] = link


def of(loop: Any) -> ClubLink | None:
    return _LINKS.get(loop)
