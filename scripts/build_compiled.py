"""Build the optional compiled mcr scorer (issue 27; docs/performance.md, "The optional compiled
mcr path").

Run by hand, never by the install or CI:  .venv/bin/python scripts/build_compiled.py

mypyc (from mypy, in the test extra) compiles the modules of ``controller/scoring/mcr`` but
its ``__init__.py`` to C; a C compiler and Python's headers are needed. The extension modules
go to ``controller/scoring/mcr/_compiled/`` (ignored by git), with a stamp of the sources they
were made from. ``controller/scoring/mcr/__init__.py`` loads them when they are there and the
stamp matches the sources (otherwise, or with ``MAHJONG_TABLE_PURE=1``, the pure-Python
modules, which give the same answers: benchmarks/diff_compiled.py).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "controller" / "scoring" / "mcr"
sys.path.insert(0, str(ROOT))

from controller.scoring.mcr import COMPILED_DIR as _DIR  # noqa: E402
from controller.scoring.mcr import GROUP, PURE, STAMP, source_stamp  # noqa: E402

COMPILED_DIR = Path(_DIR)


def modules() -> list[str]:
    """The modules compiled, as paths relative to the repository (all but PURE)."""
    return sorted(str(p.relative_to(ROOT)) for p in PACKAGE.glob("*.py") if p.name not in PURE)


def build(opt_level: str) -> None:
    try:
        from mypyc.build import mypycify
        from setuptools import Distribution
    except ImportError as exc:
        sys.exit(f"{exc.name} is missing: install the test extra "
                 "(.venv/bin/pip install -e '.[test]'), which brings mypy with mypyc")

    work = ROOT / "build" / "compiled"
    shutil.rmtree(work, ignore_errors=True)
    paths = modules()
    print(f"compiling {len(paths)} modules with mypyc (-O{opt_level}): {' '.join(paths)}")
    start = time.process_time()
    ext = mypycify(paths, opt_level=opt_level, group_name=GROUP,
                   target_dir=str(work / "c"))
    # a bare Distribution: setup() would read the project's pyproject.toml, which is not this
    dist = Distribution({"name": "mahjong-table-compiled", "ext_modules": ext})
    dist.script_args = ["build_ext", "--build-lib", str(work / "lib"),
                        "--build-temp", str(work / "tmp")]
    dist.parse_command_line()
    try:
        dist.run_commands()
    except Exception as exc:  # the C build: setuptools' errors have no common base
        sys.exit(f"the C build failed ({exc}): a C compiler and Python's headers are needed "
                 "(Debian: apt-get install gcc python3-dev); any earlier build in _compiled/ is "
                 "untouched (without one, the pure-Python modules are used)")
    install(work)
    print(f"({time.process_time() - start:.0f} s of this process' CPU; the compiler's apart)")


def install(work: Path) -> None:
    """Copy the built extension modules to _compiled/ with the stamp of their sources."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    built = sorted((work / "lib" / "controller" / "scoring" / "mcr").glob(f"*{suffix}"))
    shutil.rmtree(COMPILED_DIR, ignore_errors=True)
    COMPILED_DIR.mkdir()
    for so in built:
        shutil.copy2(so, COMPILED_DIR / so.name)
    (COMPILED_DIR / STAMP).write_text(source_stamp() + "\n")
    print(f"{len(built)} extension modules in {COMPILED_DIR.relative_to(ROOT)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    ap.add_argument("--opt-level", default="3", help="the C compiler's -O level (mypyc's)")
    ap.add_argument("--clean", action="store_true", help="remove the compiled modules only")
    a = ap.parse_args()
    if a.clean:
        shutil.rmtree(COMPILED_DIR, ignore_errors=True)
        print(f"removed {COMPILED_DIR.relative_to(ROOT)}")
        return
    build(a.opt_level)


if __name__ == "__main__":
    main()
