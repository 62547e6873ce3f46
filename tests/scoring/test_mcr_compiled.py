"""The loader of the optional compiled mcr modules (issue 27, docs/performance.md): they are
used only when built from the very sources beside them, and never with MAHJONG_TABLE_PURE=1.
(Their answers against the pure modules: benchmarks/diff_compiled.py, by hand.)"""

from __future__ import annotations

import shutil
import zlib
from pathlib import Path

import pytest

from controller.scoring import mcr

PACKAGE = Path(mcr.__file__).parent


@pytest.fixture
def copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A copy of the mcr sources and a compiled directory stamped with them."""
    monkeypatch.delenv("MAHJONG_TABLE_PURE", raising=False)
    src, built = tmp_path / "mcr", tmp_path / "mcr" / "_compiled"
    src.mkdir()
    for p in PACKAGE.glob("*.py"):
        shutil.copy(p, src / p.name)
    built.mkdir()
    stamp = "\n".join(f"{p.name} {zlib.crc32(p.read_bytes()):08x}"
                      for p in sorted(src.glob("*.py"))
                      if p.name not in ("__init__.py", "result.py"))
    (built / "SOURCES").write_text(stamp + "\n")
    return src, built


def test_a_build_of_these_sources_is_used(copy: tuple[Path, Path]) -> None:
    src, built = copy
    assert mcr.use_compiled(str(built), str(src))


def test_an_edited_module_makes_the_build_stale(copy: tuple[Path, Path]) -> None:
    src, built = copy
    standard = src / "standard.py"
    standard.write_text(standard.read_text() + "\n# edited\n")
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
