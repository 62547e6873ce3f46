"""Rule set ``mcr``: the Chinese Official rules (Green Book, as the EMA plays them), RULES.md
section 10. Its fans are a data table (fans.py); the scorer arranges the hand every way and
keeps the shape that scores the most fans (scorer.py).

The modules below may also be compiled (mypyc, by hand: ``scripts/build_compiled.py``, never
needed to install or run): when ``_compiled/`` holds them, made from these very sources (its
stamp), they are imported instead of the ``.py`` files, with the same answers;
``MAHJONG_TABLE_PURE=1`` keeps the pure-Python modules (docs/performance.md)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from controller.scoring.mcr.scorer import score_mcr

__all__ = ["COMPILED", "score_mcr"]

_HERE = os.path.dirname(os.path.abspath(__file__))
COMPILED_DIR = os.path.join(_HERE, "_compiled")
GROUP = "controller.scoring.mcr.native"  # mypyc's group: its shared library is native__mypyc
STAMP = "SOURCES"
#: the modules left in Python: this one, and result.py (a class mypyc cannot compile)
PURE = ("__init__.py", "result.py")
#: the project's modules the compiled ones import (mypyc may build in what it knows of them,
#: a named tuple's fields say): an edit of any makes the build stale too
DEPENDS = ("../arrange.py", "../model.py", "../rules.py", "../validate.py", "../../tiles.py")


def source_stamp(package: str = _HERE) -> str:
    """Each compiled module's file name and the CRC-32 of its source, one a line, then each
    module of DEPENDS."""
    import zlib

    names = sorted(n for n in os.listdir(package) if n.endswith(".py") and n not in PURE)
    names += DEPENDS
    lines = []
    for name in names:
        with open(os.path.join(package, name), "rb") as src:
            lines.append(f"{name} {zlib.crc32(src.read()):08x}")
    return "\n".join(lines)


def use_compiled(compiled: str = COMPILED_DIR, package: str = _HERE) -> bool:
    """Whether the compiled modules are there, wanted, and made from these very sources (a
    stale build, after any edit of a module, is not used)."""
    if os.environ.get("MAHJONG_TABLE_PURE") == "1" or not os.path.isdir(compiled):
        return False
    try:
        with open(os.path.join(compiled, STAMP), "rb") as f:  # the stamp is ASCII
            return f.read().strip() == source_stamp(package).encode()
    except OSError:
        return False


#: True when this process scores mcr with the compiled modules
COMPILED = use_compiled()
if COMPILED:
    __path__.insert(0, COMPILED_DIR)  # searched first: the extension modules, then the .py


def __getattr__(name: str) -> Any:
    """``score_mcr`` loaded when first asked for: a process scoring other rule sets (or only
    reading mcr's shapes) does not import the mcr scorer and its tables."""
    if name == "score_mcr":
        from controller.scoring.mcr.scorer import score_mcr

        return score_mcr
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
