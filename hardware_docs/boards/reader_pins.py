"""The MFRC522's pins and how a coil's reader connects them (SPI mode). (Not named mfrc522.py:
the tests put this folder on sys.path, and that name would shadow the mfrc522 package.)

Typed from NXP's "MFRC522 Standard performance MIFARE and NTAG frontend", product data sheet
Rev. 3.9 (27 April 2016), HVQFN32 (SOT617-1):
- section 7.1, Table 3 "Pin description": number, symbol, type of every pin;
- section 8.1.1, Table 4 "Connection protocol for detecting different interface types":
  SPI is selected with pin I2C = 0 and pin EA = 1; pin SDA is then NSS, D7 MISO, D6 MOSI,
  D5 SCK; D1-D4 are not used in SPI mode;
- the oscillator section (8.7): a 27.12 MHz crystal between OSCIN and OSCOUT;
- the power-down and reset sections (8.6, 8.8): NRSTPD low is a hard power-down, its rising
  edge a reset (the seat board drives it, wiring.md).
"""

from __future__ import annotations

# pin -> (symbol, type) as Table 3 gives them (P power, G ground, I input, O output, I/O).
PINS: dict[int, tuple[str, str]] = {
    1: ("I2C", "I"), 2: ("PVDD", "P"), 3: ("DVDD", "P"), 4: ("DVSS", "G"), 5: ("PVSS", "G"),
    6: ("NRSTPD", "I"), 7: ("MFIN", "I"), 8: ("MFOUT", "O"), 9: ("SVDD", "P"),
    10: ("TVSS", "G"), 11: ("TX1", "O"), 12: ("TVDD", "P"), 13: ("TX2", "O"),
    14: ("TVSS", "G"), 15: ("AVDD", "P"), 16: ("VMID", "P"), 17: ("RX", "I"),
    18: ("AVSS", "G"), 19: ("AUX1", "O"), 20: ("AUX2", "O"), 21: ("OSCIN", "I"),
    22: ("OSCOUT", "O"), 23: ("IRQ", "O"), 24: ("SDA/NSS/RX", "I"), 25: ("D1/ADR_5", "I/O"),
    26: ("D2/ADR_4", "I/O"), 27: ("D3/ADR_3", "I/O"), 28: ("D4/ADR_2", "I/O"),
    29: ("D5/ADR_1/SCK/DTRQ", "I/O"), 30: ("D6/ADR_0/MOSI/MX", "I/O"),
    31: ("D7/SCL/MISO/TX", "I/O"), 32: ("EA", "I"),
}


def cell_nets(slot: int, tx1_side: str) -> dict[str, str]:
    """Pad -> net of one reader chip (SPI mode). ``tx1_side`` ("A" or "B") is the side of the
    symmetric antenna network TX1 drives; TX2 drives the other. "EP" is the exposed pad."""
    s = f"S{slot}"
    other = "B" if tx1_side == "A" else "A"
    supply, gnd = f"{s}_3V3", "GND"
    nets: dict[str, str] = {"EP": gnd}
    for pin, (name, kind) in PINS.items():
        if kind == "G":
            nets[str(pin)] = gnd
        elif kind == "P" and name != "VMID":
            nets[str(pin)] = supply
    nets.update({
        "1": gnd,                      # I2C = 0 (Table 4: SPI)
        "32": supply,                  # EA = 1 (Table 4: SPI)
        "6": f"{s}_RST", "11": f"{s}_TX{tx1_side}", "13": f"{s}_TX{other}",
        "16": f"{s}_VMID", "17": f"{s}_RX", "21": f"{s}_OSCIN", "22": f"{s}_OSCOUT",
        "24": f"{s}_NSS", "29": f"{s}_SCK", "30": f"{s}_MOSI", "31": f"{s}_MISO",
    })
    return nets                        # MFIN, MFOUT, AUX1/2, IRQ, D1-D4: not connected


HEADER = ("NSS", "SCK", "MOSI", "MISO", "3V3", "GND", "RST", "GND")
"""The cell's 8-pin header to the seat board, pin 1 first (wiring.md, "Coil-board readers")."""
