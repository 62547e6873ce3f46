"""Open each generated board with KiCad's own Python module, run its design-rule check and
plot the Gerbers and drill files a fab needs. Run with the system Python that has pcbnew:

    /usr/bin/python3 hardware_docs/boards/kicad_check.py [board-dir ...]

Prints one JSON line per board: {"board", "violations", "unconnected", "gerbers", "report"}.
Exit status 1 when any board has a violation or an unconnected pad.
"""

from __future__ import annotations

import glob
import json
import os
import re
import sys

import pcbnew  # type: ignore[import-not-found]

HERE = os.path.dirname(os.path.abspath(__file__))
LAYERS = [("F_Cu", "F.Cu"), ("B_Cu", "B.Cu"), ("F_Mask", "F.Mask"), ("B_Mask", "B.Mask"),
          ("F_SilkS", "F.SilkS"), ("B_SilkS", "B.SilkS"), ("F_Paste", "F.Paste"),
          ("Edge_Cuts", "Edge.Cuts")]


def plot(board: pcbnew.BOARD, out: str) -> list[str]:
    os.makedirs(out, exist_ok=True)
    pc = pcbnew.PLOT_CONTROLLER(board)
    po = pc.GetPlotOptions()
    po.SetOutputDirectory(out)
    po.SetUseGerberProtelExtensions(True)
    po.SetCreateGerberJobFile(False)
    po.SetUseAuxOrigin(False)
    po.SetSubtractMaskFromSilk(True)
    po.SetDrillMarksType(pcbnew.PCB_PLOT_PARAMS.NO_DRILL_SHAPE)
    for suffix, _name in LAYERS:
        layer = getattr(pcbnew, suffix)
        pc.SetLayer(layer)
        pc.OpenPlotfile(suffix, pcbnew.PLOT_FORMAT_GERBER, suffix)
        pc.PlotLayer()
    pc.ClosePlot()
    drill = pcbnew.EXCELLON_WRITER(board)
    drill.SetOptions(False, False, board.GetDesignSettings().GetAuxOrigin(), False)
    drill.SetFormat(True)
    drill.CreateDrillandMapFilesSet(out, True, False)
    return sorted(os.path.basename(p) for p in glob.glob(os.path.join(out, "*")))


def geometry(board: pcbnew.BOARD) -> dict[str, object]:
    """The outline, mounting holes and reader headers as KiCad reads them (mm, from the
    outline's upper-left corner): the drawings are checked against these."""
    pts = [(pcbnew.ToMM(q.x), pcbnew.ToMM(q.y)) for d in board.GetDrawings()
           if d.GetLayer() == pcbnew.Edge_Cuts for q in (d.GetStart(), d.GetEnd())]
    x0, y0 = min(p[0] for p in pts), min(p[1] for p in pts)
    x1, y1 = max(p[0] for p in pts), max(p[1] for p in pts)
    holes, headers = {}, {}
    for fp in board.GetFootprints():
        ref = fp.GetReference()
        pos = fp.GetPosition()
        at = [round(pcbnew.ToMM(pos.x) - x0, 3), round(pcbnew.ToMM(pos.y) - y0, 3)]
        if ref.startswith("H"):
            holes[ref] = at
        elif ref.startswith("J") and len(fp.Pads()) == 8:
            headers[ref] = at
    return {"outline_mm": [round(x1 - x0, 3), round(y1 - y0, 3)],
            "holes_mm": holes, "headers_mm": headers}


def check(folder: str) -> dict[str, object]:
    folder = os.path.abspath(folder)      # pcbnew plots relative to the board, not the cwd
    pcb = glob.glob(os.path.join(folder, "*.kicad_pcb"))[0]
    board = pcbnew.LoadBoard(pcb)
    pcbnew.ZONE_FILLER(board).Fill(board.Zones())      # the reader band's GND pour
    report = os.path.join(folder, "drc_report.txt")
    pcbnew.WriteDRCReport(board, report, pcbnew.EDA_UNITS_MILLIMETRES, True)
    text = open(report, encoding="utf-8").read()
    found = dict((k, int(n)) for n, k in re.findall(r"\*\* Found (\d+) ([A-Za-z ]+?) \*\*", text))
    gerbers = plot(board, os.path.join(folder, "gerbers"))
    return {"board": os.path.basename(pcb), "violations": found.get("DRC violations", -1),
            "unconnected": found.get("unconnected pads", -1),
            "footprint_errors": found.get("Footprint errors", 0),
            "gerbers": gerbers, "report": os.path.relpath(report), **geometry(board)}


def main(folders: list[str]) -> int:
    if not folders:
        pcbs = glob.glob(os.path.join(HERE, "*", "*.kicad_pcb"))
        folders = sorted(os.path.dirname(p) for p in pcbs)
    bad = 0
    for folder in folders:
        result = check(folder)
        print(json.dumps(result))
        if result["violations"] != 0 or result["unconnected"] != 0:
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
