"""The server's words in every language name no concealed tile (issue 26): the operator's
recent steps and undo preview (controller/web/narrate.py) of whole hands, in each shipped
language and the pseudo-language, name exactly the tiles the English words name, and those
only tiles the public view has shown in the hand; the words are the language's own (not the
English ones), through the real app's API when the page asks for its language."""

from __future__ import annotations

import re
from typing import Any

from controller import game
from controller.i18n import LANGUAGES, PSEUDO, Words
from controller.players.director import Director
from controller.web import narrate
from tests.reliability.test_public_words import shown_in
from tests.web.conftest import make_table, table  # noqa: F401 - the fixtures
from tests.web.support import Table

CODE = re.compile(r"\b([1-9][bcd]|[eswn]w|[rgw]d|[1-4][fs])\b")
NAMES = {1: "Ann Lee", 3: "Bo Berg"}  # seats 2 and 4 unnamed: "Seat 2" in each language


def _codes(texts: list[str]) -> list[list[str]]:
    return [CODE.findall(text) for text in texts]


def _said(state: Any, words: Words, preview: bool) -> list[str]:
    said = narrate.steps(state, 3, NAMES, words)
    if preview:  # what an undo of 3 takes back and which tiles go back where
        shown = narrate.undo_preview(state, 3, NAMES, words)
        said += shown["takes_back"] + [f"{p['from']} {p['to']} {p['tile'] or ''}"
                                       for p in shown["put_back"]]
    return said


def test_the_steps_in_words_name_the_same_shown_tiles() -> None:
    """One hand played by the director; at every step the words in each language (the undo
    preview at every fourth step: it asks the engine, the costly part)."""
    languages = {x: Words(x) for x in LANGUAGES if x != "en"} | {PSEUDO: Words(PSEUDO)}
    english = Words("en")
    director = Director("hua-bao", hands=1, seed=11)
    state = game.new_game()
    shown: set[str] = set()  # every tile the public view has shown so far
    steps, differ = 0, dict.fromkeys(languages, 0)
    while (event := director.next_action(state)) is not None and steps < 70:
        state = game.apply(state, event).state
        shown |= shown_in(game.public_view(state).get("hand"))
        theirs = _said(state, english, steps % 4 == 0)
        named = {c for found in _codes(theirs) for c in found}
        assert named <= shown, (sorted(named - shown), theirs)
        for language, words in languages.items():
            ours = _said(state, words, steps % 4 == 0)
            assert _codes(ours) == _codes(theirs), (language, ours, theirs)
            differ[language] += ours != theirs
        steps += 1
    # each language's own words, not the English ones
    assert steps > 50 and all(n > steps // 2 for n in differ.values()), (steps, differ)


def test_the_operator_page_gets_its_language(table: Table) -> None:  # noqa: F811
    for _ in range(20):
        table.step()
    admin = table.admin()
    english = table.client.get("/api/admin/recent?count=5", headers=admin).json()["events"]
    german = table.client.get("/api/admin/recent?count=5",
                              headers={**admin, "Accept-Language": "de"}).json()["events"]
    assert len(german) == len(english) == 5 and german != english
    assert _codes(german) == _codes(english)
    # each German step is one of the German catalog's sentences (its start, before a name)
    assert any(text.startswith(("Platz ", "Hand ")) for text in german), german
