"""hardware_docs/timing.md quotes the model's sweep figures and the field schedule's groups:
a doc that drifts from the model (as the seat board's empty sweep did when the reader band
cut the schedule from four groups to three) fails here. The figures themselves are checked
against the datasheet's numbers in test_rf_model.py; this only keeps the docs in step."""

from __future__ import annotations

import re
from pathlib import Path

from firmware_bridge.firmware import fw_layout
from firmware_bridge.sim_timing import board_timing

DOCS = Path(__file__).resolve().parents[2] / "hardware_docs"


def _row(text: str, label: str) -> list[float]:
    m = re.search(rf"^\| {re.escape(label)} \| ([\d.]+) ms \| ([\d.]+) ms \|$", text, re.M)
    assert m, label
    return [float(m.group(1)), float(m.group(2))]


def test_the_timing_docs_quote_the_models_sweeps_and_the_schedules_groups() -> None:
    text = (DOCS / "timing.md").read_text()
    seat, centre = board_timing("seat"), board_timing("centre")
    empty = _row(text, "empty sweep")
    assert empty[0] == round(seat.empty_s * 1e3, 1)
    assert empty[1] == round(centre.empty_s * 1e3, 1)
    for n, label in ((1, "one tag on a coil adds"), (2, "two tags on one coil add"),
                     (3, "three tags on one coil add")):
        got = _row(text, label)
        assert got == [round(seat.field_s(n) * 1e3, 2), round(centre.field_s(n) * 1e3, 2)]
    assert f"seat board (34 coils, {len(fw_layout.GROUPS['seat'])} groups)" in text
    assert f"centre board (11 coils, {len(fw_layout.GROUPS['centre'])} groups)" in text
    assert ", ".join(str(g) for g in fw_layout.GROUPS["centre"]) in text
    for group in fw_layout.GROUPS["seat"]:
        meld = [c for c in group if c >= 18]
        assert ", ".join(map(str, meld)) in text, meld
    for doc in ("wiring.md", "bridge.md"):
        assert f"nothing on it sweeps in {empty[0]:g} ms" in (DOCS / doc).read_text() or (
            f"nothing on it {empty[0]:g} ms" in (DOCS / doc).read_text()), doc
