"""The build step setuptools runs before copying the package: the gettext catalogs compiled
(``controller/locale/*/LC_MESSAGES/*.po`` -> ``.mo``, with Babel), so a wheel, a plain install
and an editable install (``pip install -e .``: the README's commands, CI) all carry them.
Everything else about the package is in pyproject.toml."""

from __future__ import annotations

from pathlib import Path

from setuptools import Command, setup
from setuptools.command.build import build

ROOT = Path(__file__).resolve().parent
LOCALE = Path("controller", "locale")  # setuptools wants paths relative to this file


class CompileCatalogs(Command):
    description = "compile the gettext catalogs (.po -> .mo) with Babel"
    user_options: list[tuple[str, str | None, str]] = []
    editable_mode = False  # the .mo files are written beside their .po either way

    def initialize_options(self) -> None:
        pass

    def finalize_options(self) -> None:
        pass

    def run(self) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in sorted((ROOT / LOCALE).glob("*/LC_MESSAGES/*.po")):
            with po.open("rb") as fh:
                catalog = read_po(fh, locale=po.parent.parent.name, domain=po.stem)
            with po.with_suffix(".mo").open("wb") as out:
                write_mo(out, catalog)

    def get_source_files(self) -> list[str]:
        return [p.relative_to(ROOT).as_posix() for p in (ROOT / LOCALE).glob("*/*/*.po")]

    def get_outputs(self) -> list[str]:
        return [p.relative_to(ROOT).with_suffix(".mo").as_posix()
                for p in (ROOT / LOCALE).glob("*/*/*.po")]

    def get_output_mapping(self) -> dict[str, str]:
        return {}


class Build(build):
    sub_commands = [("compile_catalogs", None), *build.sub_commands]


setup(cmdclass={"build": Build, "compile_catalogs": CompileCatalogs})
