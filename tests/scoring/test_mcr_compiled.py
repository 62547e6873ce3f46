"""The loader of the optional compiled mcr modules (issue 27, docs/performance.md): they are
used only when built from the very sources beside them (and the project modules they import),
and never with MAHJONG_TABLE_PURE=1. (Their answers against the pure modules:
benchmarks/diff_compiled.py, by hand.)"""

from __future__ import annotations

import ast
import shutil
import zlib
from pathlib import Path

import pytest

from controller.scoring import mcr

PACKAGE = Path(mcr.__file__).parent
ROOT = PACKAGE.parent.parent.parent
#: the project's modules the stamp covers beside the compiled ones, from the repository's root
IMPORTED = tuple(str((PACKAGE / d).resolve().relative_to(ROOT)) for d in mcr.DEPENDS)
COMPILED = sorted(p for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "result.py"))


@pytest.fixture
def copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A copy of the sources and an mcr compiled directory stamped with them."""
    monkeypatch.delenv("MAHJONG_TABLE_PURE", raising=False)
    src = tmp_path / "controller" / "scoring" / "mcr"
    src.mkdir(parents=True)
    for p in PACKAGE.glob("*.py"):
        shutil.copy(p, src / p.name)
    for name in IMPORTED:
        shutil.copy(ROOT / name, tmp_path / name)
    built = src / "_compiled"
    built.mkdir()
    lines = [f"{p.name} {zlib.crc32((src / p.name).read_bytes()):08x}" for p in COMPILED]
    lines += [f"{'../' * (3 - n.count('/'))}{Path(n).name} "  # as seen from the package
              f"{zlib.crc32((tmp_path / n).read_bytes()):08x}" for n in IMPORTED]
    (built / "SOURCES").write_text("\n".join(lines) + "\n")
    return src, built


def test_the_stamp_covers_every_project_module_the_compiled_ones_import() -> None:
    """Read from their sources: each import of a project module outside the package."""
    imported = set()
    for p in COMPILED:
        for node in ast.walk(ast.parse(p.read_text())):
            if not (isinstance(node, ast.ImportFrom) and node.module
                    and node.module.startswith("controller.")
                    and not node.module.startswith("controller.scoring.mcr")):
                continue
            base = node.module.replace(".", "/")
            for alias in node.names:  # a module imported by name, or names of a module
                sub = f"{base}/{alias.name}.py"
                imported.add(sub if (ROOT / sub).exists() else f"{base}.py")
    assert imported == set(IMPORTED)


def test_a_build_of_these_sources_is_used(copy: tuple[Path, Path]) -> None:
    src, built = copy
    assert mcr.use_compiled(str(built), str(src))


@pytest.mark.parametrize("edited", ["standard.py", "../model.py", "../../tiles.py"])
def test_an_edited_module_makes_the_build_stale(copy: tuple[Path, Path], edited: str) -> None:
    src, built = copy
    path = src / edited
    path.write_text(path.read_text() + "\n# edited\n")
    assert not mcr.use_compiled(str(built), str(src))


def test_the_python_modules_left_uncompiled_do_not_count(copy: tuple[Path, Path]) -> None:
    src, built = copy
    for name in ("__init__.py", "result.py"):
        (src / name).write_text((src / name).read_text() + "\n# edited\n")
    assert mcr.use_compiled(str(built), str(src))


def test_the_switch_keeps_the_pure_modules(copy: tuple[Path, Path],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    src, built = copy
    monkeypatch.setenv("MAHJONG_TABLE_PURE", "1")
    assert not mcr.use_compiled(str(built), str(src))


def test_no_build_or_no_stamp_means_the_pure_modules(copy: tuple[Path, Path]) -> None:
    src, built = copy
    (built / "SOURCES").unlink()
    assert not mcr.use_compiled(str(built), str(src))
    shutil.rmtree(built)
    assert not mcr.use_compiled(str(built), str(src))
