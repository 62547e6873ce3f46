"""Export and import of the tile registry as JSON or CSV (``enroll --export/--import FILE``).

JSON: ``{"set": 144, "tiles": [{"uid": "04:A2:19:C1", "tile": "5b"}, ...]}``;
CSV: a header ``uid,tile`` and one line per tile. The format follows the file name's ending.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from controller import jsonsafe
from controller.table.registry import RegistryError, TileRegistry


def export_text(registry: TileRegistry, fmt: str) -> str:
    """The registry as ``"json"`` or ``"csv"`` text, in enrollment order."""
    rows = [{"uid": e.uid, "tile": e.tile} for e in registry.entries()]
    if fmt == "json":
        return json.dumps({"set": registry.set_size, "tiles": rows}, indent=1) + "\n"
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=["uid", "tile"], lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def parse_text(text: str, fmt: str) -> list[tuple[str, str]]:
    """(uid, tile) pairs from exported text; raise RegistryError naming what is malformed."""
    if fmt == "json":
        return _parse_json(text)
    reader = csv.DictReader(io.StringIO(text))
    if reader.fieldnames is None or not {"uid", "tile"} <= set(reader.fieldnames):
        raise RegistryError("a registry CSV needs a header line 'uid,tile'")
    return [(row["uid"] or "", row["tile"] or "") for row in reader]


def _parse_json(text: str) -> list[tuple[str, str]]:
    try:
        data: Any = jsonsafe.loads(text)
    except json.JSONDecodeError as exc:
        raise RegistryError(f"not JSON: {exc.msg} at line {exc.lineno}") from None
    tiles = data.get("tiles") if isinstance(data, dict) else None
    if not isinstance(tiles, list):
        raise RegistryError('a registry JSON is {"set": 144, "tiles": [{"uid": ..., "tile": ...}]}')
    pairs = []
    for n, item in enumerate(tiles, start=1):
        if not isinstance(item, dict) or not isinstance(item.get("uid"), str) \
                or not isinstance(item.get("tile"), str):
            raise RegistryError(f"tiles entry {n} is not {{\"uid\": \"...\", \"tile\": \"...\"}}")
        pairs.append((item["uid"], item["tile"]))
    return pairs


def file_format(path: Path) -> str:
    """``json`` or ``csv`` from the file name; anything else is refused."""
    ending = path.suffix.lower().lstrip(".")
    if ending not in ("json", "csv"):
        raise RegistryError(f"{path.name}: name the file .json or .csv to choose the format")
    return ending


def export_file(registry: TileRegistry, path: Path) -> int:
    """Write the registry to ``path`` (.json or .csv); return the number of tiles."""
    text = export_text(registry, file_format(path))
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise RegistryError(f"cannot write {path}: {exc.strerror}") from None
    return len(registry)


def import_file(registry: TileRegistry, path: Path, at: float = 0.0) -> int:
    """Add every tile of an exported file, all or none; return how many were added."""
    fmt = file_format(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RegistryError(f"cannot read {path}: {exc.strerror}") from None
    return registry.add_all(parse_text(text, fmt), at)
