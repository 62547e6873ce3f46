"""The schematic of a coil board (.kicad_sch, KiCad 6), made from the same parts as the board.

Each part is an embedded symbol; every pin ends in a net label of the board's net, so the
schematic and the board cannot disagree (tests/hardware/test_boards.py compares them).
"""

from __future__ import annotations

from kicad_sexpr import Board, Footprint, q, uid
from reader_pins import PINS

FONT = "(effects (font (size 1.27 1.27)))"
HIDE = "(effects (font (size 1.27 1.27)) hide)"
KINDS = {"R": ("resistor", "R"), "C": ("capacitor", "C"), "L": ("inductor", "L"),
         "J": ("connector", "J")}


def _lib_two_pin(name: str, body: str) -> str:
    pins = "".join(
        f'\n      (pin passive line (at 0 {y} {a}) (length 1.27) (name "~" {FONT}) '
        f'(number "{n}" {FONT}))' for n, y, a in (("1", 3.81, 270), ("2", -3.81, 90)))
    return (f'    (symbol "mjt:{name}" (pin_numbers hide) (pin_names (offset 0)) (in_bom yes) '
            f'(on_board yes)\n'
            f'      (property "Reference" "{name[0]}" (id 0) (at 2.54 0 90) {FONT})\n'
            f'      (property "Value" "{name}" (id 1) (at -2.54 0 90) {FONT})\n'
            f'      (property "Footprint" "" (id 2) (at 0 0 0) {HIDE})\n'
            f'      (property "Datasheet" "" (id 3) (at 0 0 0) {HIDE})\n'
            f'      (symbol "{name}_0_1" {body})\n'
            f'      (symbol "{name}_1_1"{pins}))')


def _lib_connector(pins: int) -> str:
    rows = "".join(
        f'\n      (pin passive line (at -5.08 {-2.54 * i} 0) (length 3.81) '
        f'(name "P{i + 1}" {FONT}) (number "{i + 1}" {FONT}))' for i in range(pins))
    return (f'    (symbol "mjt:Conn_{pins}" (in_bom yes) (on_board yes)\n'
            f'      (property "Reference" "J" (id 0) (at 0 2.54 0) {FONT})\n'
            f'      (property "Value" "Conn_{pins}" (id 1) (at 0 {-2.54 * pins} 0) {FONT})\n'
            f'      (property "Footprint" "" (id 2) (at 0 0 0) {HIDE})\n'
            f'      (property "Datasheet" "" (id 3) (at 0 0 0) {HIDE})\n'
            f'      (symbol "Conn_{pins}_0_1" (rectangle (start -1.27 1.27) '
            f'(end 2.54 {-2.54 * pins + 1.27}) '
            f'(stroke (width 0.254) (type default) (color 0 0 0 0)) '
            f'(fill (type background))))\n'
            f'      (symbol "Conn_{pins}_1_1"{rows}))')


def _rect() -> str:
    return ("(rectangle (start -1.016 -2.54) (end 1.016 2.54) "
            "(stroke (width 0.254) (type default) (color 0 0 0 0)) (fill (type none)))")


def _coil_body() -> str:
    arcs = " ".join(
        f"(arc (start 0 {y + 1.27}) (mid 0.635 {y + 0.635}) (end 0 {y}) "
        f"(stroke (width 0.254) (type default) (color 0 0 0 0)) (fill (type none)))"
        for y in (1.27, 0.0, -1.27, -2.54))
    return arcs


def _lib_multi(name: str, pins: list[tuple[str, str]]) -> str:
    """A box with the first half of the pins on the left, the rest on the right."""
    half = (len(pins) + 1) // 2
    rows = []
    for i, (num, pname) in enumerate(pins):
        x, y, a = (-7.62, -2.54 * i, 0) if i < half else (7.62, -2.54 * (i - half), 180)
        rows.append(f'\n      (pin passive line (at {x} {y} {a}) (length 2.54) '
                    f'(name {q(pname)} {FONT}) (number {q(num)} {FONT}))')
    bottom = -2.54 * half + 1.27
    return (f'    (symbol "mjt:{name}" (in_bom yes) (on_board yes)\n'
            f'      (property "Reference" "U" (id 0) (at 0 2.54 0) {FONT})\n'
            f'      (property "Value" "{name}" (id 1) (at 0 {bottom - 1.27} 0) {FONT})\n'
            f'      (property "Footprint" "" (id 2) (at 0 0 0) {HIDE})\n'
            f'      (property "Datasheet" "" (id 3) (at 0 0 0) {HIDE})\n'
            f'      (symbol "{name}_0_1" (rectangle (start -5.08 1.27) (end 5.08 {bottom}) '
            f'(stroke (width 0.254) (type default) (color 0 0 0 0)) (fill (type background))))\n'
            f'      (symbol "{name}_1_1"{"".join(rows)}))')


MULTI = {"MFRC522": [(str(n), s) for n, (s, _k) in sorted(PINS.items())] + [("33", "EP")],
         "Crystal_4pin": [("1", "X1"), ("2", "GND"), ("3", "X2"), ("4", "GND")],
         "74LVC1G125": [("1", "~{OE}"), ("2", "A"), ("3", "GND"), ("4", "Y"), ("5", "VCC")]}


def _multi(fp: Footprint) -> str | None:
    """The multi-pin symbol of a part, by its value (None: a two-pin part or a connector)."""
    if fp.ref.startswith("Y"):
        return "Crystal_4pin"
    if fp.ref.startswith("U"):
        return "MFRC522" if fp.value.startswith("MFRC522") else fp.value
    return None


def _pin_points(fp: Footprint) -> list[tuple[str, float, float]]:
    if fp.ref.startswith("J"):
        return [(p.number, -5.08, 2.54 * i) for i, p in enumerate(fp.pads)]
    if _multi(fp):
        pins = MULTI[str(_multi(fp))]
        half = (len(pins) + 1) // 2
        return [(num, -10.16 if i < half else 10.16, 2.54 * (i if i < half else i - half))
                for i, (num, _n) in enumerate(pins)]
    return [("1", 0.0, -3.81), ("2", 0.0, 3.81)]


def _lib_id(fp: Footprint) -> str:
    if fp.ref.startswith("J"):
        return f"mjt:Conn_{len(fp.pads)}"
    if _multi(fp):
        return f"mjt:{_multi(fp)}"
    if fp.lib.endswith("coil"):
        return "mjt:Coil"
    return "mjt:" + {"R": "R", "C": "C", "L": "L"}[fp.ref[0]]


def write_schematic(board: Board, path: str, name: str) -> None:
    parts = [fp for fp in board.footprints if not fp.ref.startswith("H")]
    connectors = sorted({len(fp.pads) for fp in parts if fp.ref.startswith("J")})
    lib = [_lib_two_pin("R", _rect()), _lib_two_pin("C", _rect()), _lib_two_pin("L", _rect()),
           _lib_two_pin("Coil", _coil_body())] + [_lib_connector(n) for n in connectors]
    lib += [_lib_multi(k, MULTI[k]) for k in sorted({str(_multi(fp)) for fp in parts
                                                     if _multi(fp)})]
    sheet = uid(board.name, "sheet")
    out = ['(kicad_sch (version 20211123) (generator mjt_generate)', f"  (uuid {sheet})",
           '  (paper "A0")',
           f'  (title_block (title {q("Mahjong table coil board: " + name)}) '
           f'(comment 1 "generated by hardware_docs/boards/generate.py from layout.json"))',
           "  (lib_symbols", *lib, "  )"]
    instances = []
    for fp, (x, y) in _placed(parts):
        sid = uid(board.name, "sym", fp.ref)
        lib_id = _lib_id(fp)
        nets = {p.number: p.net for p in fp.pads if p.number}
        if lib_id == "mjt:Coil":
            nets = {"1": nets["1"], "2": nets["2"]}
        out.append(f"  (symbol (lib_id {q(lib_id)}) (at {x:.2f} {y:.2f} 0) (unit 1) "
                   f"(in_bom yes) (on_board yes) (uuid {sid})")
        out.append(f'    (property "Reference" {q(fp.ref)} (id 0) '
                   f'(at {x + 3:.2f} {y:.2f} 0) {FONT})')
        out.append(f'    (property "Value" {q(fp.value)} (id 1) '
                   f'(at {x + 3:.2f} {y + 2.54:.2f} 0) {FONT})')
        out.append(f'    (property "Footprint" {q(fp.lib)} (id 2) (at {x:.2f} {y:.2f} 0) '
                   f'{HIDE})')
        out += [f"    (pin {q(num)} (uuid {uid(board.name, 'pin', fp.ref, num)}))" for num in nets]
        out.append("  )")
        for num, dx, dy in _pin_points(fp):
            if nets.get(num):
                out.append(f"  (label {q(nets[num])} (at {x + dx:.2f} {y + dy:.2f} 0) "
                           f"(effects (font (size 1.0 1.0)) (justify left bottom)) "
                           f"(uuid {uid(board.name, 'lab', fp.ref, num)}))")
        instances.append(f"    (path \"/{sid}\" (reference {q(fp.ref)}) (unit 1) "
                         f"(value {q(fp.value)}) (footprint {q(fp.lib)}))")
    out.append('  (sheet_instances (path "/" (page "1")))')
    out += ["  (symbol_instances", *instances, "  )", ")"]
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(out) + "\n")


def _placed(parts: list[Footprint]) -> list[tuple[Footprint, tuple[float, float]]]:
    """Two-pin parts and connectors on a 24-wide grid, the chips below on a wider one."""
    small = [fp for fp in sorted(parts, key=_sort_key) if not _multi(fp)]
    big = [fp for fp in sorted(parts, key=_sort_key) if _multi(fp)]
    rows = (len(small) + 23) // 24
    spots = [(25.4 + (i % 24) * 25.4, 30.48 + (i // 24) * 22.86) for i in range(len(small))]
    spots += [(38.1 + (i % 12) * 50.8, 30.48 + rows * 22.86 + 10.16 + (i // 12) * 55.88)
              for i in range(len(big))]
    return list(zip(small + big, spots, strict=True))


def _sort_key(fp: Footprint) -> tuple[int, str, int]:
    digits = "".join(ch for ch in fp.ref if ch.isdigit())
    return (0, fp.ref[0], int(digits or 0))


_ = KINDS
