"""Every rule a refusal can name has its sentence in the page's words (controller/web/static/
rules.js; docs/i18n.md, "Readings taken"): a page in German, Swedish, Chinese or Japanese shows
that sentence instead of the engine's English detail. The rules are read from the code itself
(each ``Refused("rule", ...)`` and ``Violation("rule", ...)`` under controller/), so a new rule
without a sentence, or a sentence for a rule no longer raised, fails here by name. The sentences
are generic: none names a tile (privacy), and each is in the template (so every language's
catalog test asks for its translation)."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

from babel.messages.pofile import read_po

from controller.i18n import LOCALE_DIR

ROOT = Path(__file__).resolve().parents[2]
RULES_JS = ROOT / "controller" / "web" / "static" / "rules.js"
RAISERS = {"Refused", "Violation"}  # controller.game.context.Refused, controller.game.state
CASE = re.compile(r'case "([a-z_]+)": return t\("((?:[^"\\]|\\.)*)"\);')
CODE = re.compile(r"\b([1-9][bcd]|[eswn]w|[rgw]d|[1-4][fs])\b")  # RULES.md section 1


def _called(node: ast.Call) -> str | None:
    func = node.func
    return func.id if isinstance(func, ast.Name) else \
        func.attr if isinstance(func, ast.Attribute) else None


@functools.cache
def raised_rules() -> tuple[dict[str, list[str]], list[str]]:
    """Each rule name given to a Refused or Violation under controller/ (where), and the calls
    whose rule is neither a plain string nor a caught refusal's (which this scan cannot read)."""
    rules: dict[str, list[str]] = {}
    unreadable: list[str] = []
    for path in sorted((ROOT / "controller").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if not any(f"{name}(" in text for name in RAISERS):
            continue  # (parsing only the files that call one: the scan stays cheap)
        for node in ast.walk(ast.parse(text)):
            if not (isinstance(node, ast.Call) and _called(node) in RAISERS):
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                rules.setdefault(first.value, []).append(where)
            elif not (isinstance(first, ast.Attribute) and first.attr == "rule"):
                unreadable.append(where)  # (``exc.rule``: a caught refusal's rule passed on)
    return rules, unreadable


def sentences() -> dict[str, str]:
    text = RULES_JS.read_text(encoding="utf-8")
    found = dict(CASE.findall(text))
    assert len(found) == text.count("case \""), "a case in rules.js this test cannot read"
    return found


def test_every_raised_rule_has_a_sentence_and_every_sentence_a_rule() -> None:
    rules, unreadable = raised_rules()
    assert unreadable == [], "a rule name that is not a plain string: name the rule in the call"
    said = sentences()
    missing = {rule: where for rule, where in sorted(rules.items()) if rule not in said}
    assert missing == {}, "add a sentence for each to controller/web/static/rules.js (docs/i18n.md)"
    assert sorted(set(said) - set(rules)) == [], "a sentence for a rule nothing raises any more"


def test_the_scan_finds_the_rules_of_both_kinds_of_call() -> None:
    """The scan reads a call spread over lines and a Violation as well as a Refused (so the
    test above cannot pass by finding nothing): claim_pending is raised only in the form
    ``Refused(\\n "claim_pending", ...)``, wrong_tile_count also as a flagged Violation."""
    rules, _ = raised_rules()
    assert any(w.startswith("controller/game/calls.py") for w in rules["claim_pending"])
    flagged = [w for w in rules["wrong_tile_count"] if w.startswith("controller/game/calls.py")]
    assert flagged, rules["wrong_tile_count"]
    with (LOCALE_DIR / "terms.pot").open("rb") as fh:  # each rule is a term (docs/glossary.md)
        terms = {m.id for m in read_po(fh) if m.id}
    assert sorted(set(rules) - terms) == []


def test_the_sentences_are_in_the_template_and_name_no_tile() -> None:
    with (LOCALE_DIR / "messages.pot").open("rb") as fh:
        template = {m.id for m in read_po(fh) if m.id}
    said = sentences()
    assert sorted(r for r, s in said.items() if s not in template) == [], "scripts/i18n extract"
    assert {r: CODE.findall(s) for r, s in said.items() if CODE.search(s)} == {}
