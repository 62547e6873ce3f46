"""The seat board (hardware_docs/boards/seat.py): generated, routed, KiCad's DRC clean, Gerbers
plotted, and wired as the firmware (hal.py) and the chips' data sheets say, checked against pin
tables typed here independently of the generator."""

from __future__ import annotations

import ast
import importlib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.hardware.test_boards import _has_pcbnew
from tests.hardware.test_drawings import drawing_data, matches_kicad

ROOT = Path(__file__).resolve().parents[2]
BOARDS = ROOT / "hardware_docs" / "boards"
HAL = ROOT / "firmware_bridge" / "firmware" / "hal.py"
SYSTEM_PY = "/usr/bin/python3"

# Raspberry Pi Pico datasheet, pinout (section 2.1): GPIO -> the module's pin number.
PICO_PIN = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
            12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27,
            22: 29, 26: 31, 27: 32, 28: 34}
PICO_GND = {3, 8, 13, 18, 23, 28, 38}
# 74HC138 (Nexperia data sheet, pinning, SO16): output /Yn -> pin; address and enables.
HC138_Y = {0: 15, 1: 14, 2: 13, 3: 12, 4: 11, 5: 10, 6: 9, 7: 7}
HC138 = {"A0": 1, "A1": 2, "A2": 3, "E1n": 4, "E2n": 5, "E3": 6, "GND": 8, "VCC": 16}
# 74LVC125A (Nexperia data sheet, pinning, SO14): gate -> (/OE, A, Y).
LVC125 = {1: (1, 2, 3), 2: (4, 5, 6), 3: (10, 9, 8), 4: (13, 12, 11)}
# wiring.md, "Coil-board readers": the reader header.
HEADER = {"NSS": 1, "SCK": 2, "MOSI": 3, "MISO": 4, "3V3": 5, "GND": 6, "RST": 7}


def _hal_pins() -> dict[str, Any]:
    """The firmware's pin constants, read from hal.py's source (MicroPython-only module)."""
    out: dict[str, Any] = {}
    for node in ast.parse(HAL.read_text()).body:
        if isinstance(node, ast.Assign):
            value = ast.literal_eval(node.value) if isinstance(
                node.value, (ast.Constant, ast.Tuple)) else None
            for t in node.targets:
                if isinstance(t, ast.Name):
                    out[t.id] = value
                elif isinstance(t, ast.Tuple) and isinstance(value, tuple):
                    out.update({e.id: v for e, v in zip(t.elts, value, strict=True)
                                if isinstance(e, ast.Name)})
    return out


@pytest.fixture(scope="module")
def seat(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    if str(BOARDS) not in sys.path:
        sys.path.insert(0, str(BOARDS))
    out = tmp_path_factory.mktemp("seat")
    summary = importlib.import_module("generate").write_seat_board(str(out))
    return out / "seat", summary


def _pads(pcb: str) -> dict[str, dict[str, str]]:
    """reference -> {pad: net} from the .kicad_pcb text."""
    out: dict[str, dict[str, str]] = {}
    for block in pcb.split("  (footprint ")[1:]:
        ref = re.search(r'fp_text reference "([^"]+)"', block)
        assert ref
        out[ref.group(1)] = {num: net for num, net in re.findall(
            r'\(pad "([^"]*)" [^\n]*?\(net \d+ "([^"]+)"\)', block)}
    return out


def _via_resistor(pads: dict[str, dict[str, str]], a: str, b: str) -> bool:
    """A 33 ohm series resistor joins nets a and b."""
    return any(ref.startswith("R") and set(p.values()) == {a, b} for ref, p in pads.items())


def _check(pads: dict[str, dict[str, str]], hal: dict[str, Any], channels: int) -> None:
    pico = pads["U1"]

    def gp(n: int) -> str:
        return pico[str(PICO_PIN[n])]
    assert all(pico.get(str(p), "GND") == "GND" for p in PICO_GND)
    for ch in range(channels):
        k, y = divmod(ch, 8)
        dec, buf, hdr = pads[f"U{10 + k}"], pads[f"U{20 + k}"], pads[f"J{100 + ch}"]
        assert hdr[str(HEADER["NSS"])] == dec[str(HC138_Y[y])], ch
        for i, a in enumerate(("A0", "A1", "A2")):
            assert dec[str(HC138[a])] == gp(hal["DECODER_ADDRESS"][i]), (ch, a)
        enable = gp(hal["DECODER_ENABLES"][k])
        assert dec[str(HC138["E1n"])] == enable and dec[str(HC138["E2n"])] == "GND"
        assert dec[str(HC138["E3"])] == hdr[str(HEADER["3V3"])] == dec[str(HC138["VCC"])]
        assert hdr[str(HEADER["GND"])] == "GND"
        drives = {(gp(hal["PIN_SCK"]), "SCK"), (gp(hal["PIN_MOSI"]), "MOSI"),
                  (gp(hal["PIN_RST"]), "RST")}
        for trunk, role in drives:
            gate = next(g for g, (_oe, a, _y) in LVC125.items() if buf[str(a)] == trunk)
            oe, _a, yy = LVC125[gate]
            assert buf[str(oe)] == "GND", (ch, role)
            assert _via_resistor(pads, buf[str(yy)], hdr[str(HEADER[role])]), (ch, role)
        oe, a, yy = LVC125[4]
        assert buf[str(a)] == hdr[str(HEADER["MISO"])] and buf[str(oe)] == enable, ch
        assert _via_resistor(pads, buf[str(yy)], gp(hal["PIN_MISO"])), ch


def test_the_seat_board_is_wired_as_the_firmware_and_the_data_sheets_say(
        seat: tuple[Path, dict[str, Any]]) -> None:
    folder, summary = seat
    hal = _hal_pins()
    assert hal["CHANNELS"] == summary["channels"] == 34
    _check(_pads((folder / "mjt_seat.kicad_pcb").read_text()), hal, hal["CHANNELS"])


def test_the_wiring_check_fails_on_two_chip_selects_swapped(
        seat: tuple[Path, dict[str, Any]]) -> None:
    pads = _pads((seat[0] / "mjt_seat.kicad_pcb").read_text())
    pads["J100"]["1"], pads["J101"]["1"] = pads["J101"]["1"], pads["J100"]["1"]
    with pytest.raises(AssertionError):
        _check(pads, _hal_pins(), 34)


@pytest.mark.skipif(not _has_pcbnew(), reason="KiCad's pcbnew is missing: run scripts/test as "
                    "root or 'apt-get install kicad'")
def test_the_seat_board_passes_kicads_drc_and_matches_the_committed_gerbers(
        seat: tuple[Path, dict[str, Any]]) -> None:
    folder, _summary = seat
    proc = subprocess.run([SYSTEM_PY, str(BOARDS / "kicad_check.py"), str(folder)],
                          capture_output=True, text=True, timeout=300)
    (result,) = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    assert result["violations"] == 0 and result["unconnected"] == 0, result
    drawn = drawing_data((BOARDS / "drawings" / "seat_top.svg").read_text())
    assert matches_kicad(drawn, result) == []
    for path in sorted((BOARDS / "seat" / "gerbers").iterdir()):
        fresh = (folder / "gerbers" / path.name).read_text()
        assert _stable(fresh) == _stable(path.read_text()), path.name


def _stable(text: str) -> list[str]:
    return [line for line in text.splitlines()
            if "CreationDate" not in line and "Created by" not in line and "DRILL file" not in line
            and not line.startswith(";") and "TF.ProjectId" not in line]


def test_the_committed_seat_board_is_what_the_generator_makes(
        seat: tuple[Path, dict[str, Any]]) -> None:
    folder, summary = seat
    for pattern in ("*.kicad_pcb", "*.kicad_sch", "*_bom.csv", "*_cpl.csv"):
        fresh = next(folder.glob(pattern)).read_text()
        committed = next((BOARDS / "seat").glob(pattern)).read_text()
        assert fresh == committed, f"seat/{pattern}: run hardware_docs/boards/generate.py"
    assert json.loads((BOARDS / "design.json").read_text())["seat"] == summary
    sch = next(folder.glob("*.kicad_sch")).read_text()
    labels = set(re.findall(r'\(label "([^"]+)"', sch))
    nets = {n for p in _pads(next(folder.glob("*.kicad_pcb")).read_text()).values()
            for n in p.values()}
    assert nets <= labels
