"""What a newcomer reads works in a clone (issue 24): every relative link and repository path
in the README and docs/ exists, and every example of docs/formats.md runs and answers what
the page shows under it (figures from the rule book's worked example A, not from the code)."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "RELIABILITY.md", *sorted((ROOT / "docs").glob("*.md")),
         *sorted((ROOT / "hardware_docs").rglob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
TOP = ("controller/", "tests/", "benchmarks/", "examples/", "docs/", "hardware_docs/",
       "scripts/", "firmware_bridge/", ".ci/")
PATH = re.compile(r"`((?:" + "|".join(re.escape(t) for t in TOP) + r")[A-Za-z0-9_./-]*)`")
# docs/architecture.md's table of where modules moved names the old places on purpose
MOVED = re.compile(r"^\|.*\|.*\|\s*$")


def _refs(page: Path) -> list[tuple[int, str, Path]]:
    out = []
    for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
        for target in LINK.findall(line):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue  # a web address or an anchor on the same page
            out.append((n, target, (page.parent / target.split("#")[0]).resolve()))
        if page.name == "architecture.md" and MOVED.match(line):
            continue
        for target in PATH.findall(line):
            if re.search(r"[A-Z]{3,}", target):
                continue  # a pattern (`controller/web/routers/NAME.py`), not a file
            out.append((n, target, ROOT / target.rstrip(".")))
    return out


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_and_path_exists_in_a_clone(page: Path) -> None:
    missing = [f"{page.name}:{n}: {target}" for n, target, path in _refs(page)
               if not path.exists()]
    assert not missing, missing


def test_the_readme_names_no_document_a_clone_lacks() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in re.findall(r"\b([A-Za-z_]+\.md)\b", text):
        assert list(ROOT.rglob(name)), name


def _examples() -> list[tuple[list[str], str, str]]:
    """(commands, kind of the answer block, the answer block) of docs/formats.md."""
    text = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```(\w+)\n(.*?)```", text, flags=re.S)
    out = []
    for (kind, body), (answer_kind, answer) in zip(blocks, blocks[1:], strict=False):
        if kind == "console":
            out.append(([line[2:] for line in body.splitlines() if line.startswith("$ ")],
                        answer_kind, answer))
    return out


def _within(shown: Any, got: Any) -> bool:
    """Every field the page shows is in the answer with that value (the answer may add)."""
    if isinstance(shown, dict):
        return isinstance(got, dict) and all(k in got and _within(v, got[k])
                                             for k, v in shown.items())
    if isinstance(shown, list):
        return (isinstance(got, list) and len(shown) == len(got)
                and all(_within(a, b) for a, b in zip(shown, got, strict=True)))
    return bool(shown == got)


@pytest.mark.parametrize("example", _examples(), ids=lambda e: e[0][-1][:60])
def test_the_formats_pages_examples_run(example: tuple[list[str], str, str],
                                        tmp_path: Path) -> None:
    commands, kind, answer = example
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    out = ""
    for command in commands:
        argv = shlex.split(command)
        assert argv[0] == "mahjong-table"
        done = subprocess.run([sys.executable, "-m", "controller", *argv[1:]], cwd=tmp_path,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, (command, done.stderr)
        out = done.stdout
    if kind == "json":
        assert _within(json.loads(answer), json.loads(out)), out
    elif kind == "jsonl":
        shown = [json.loads(x) for x in answer.splitlines()]
        got = [json.loads(x) for x in out.splitlines()]
        assert len(shown) == len(got) and all(map(_within, shown, got)), out
    else:
        for line in filter(None, answer.splitlines()):
            assert line in out, (line, out)


def test_each_commands_help_points_to_the_formats_page() -> None:
    for command in ("score", "settle", "replay"):
        done = subprocess.run([sys.executable, "-m", "controller", command, "--help"],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and "docs/formats.md" in done.stdout, command
