"""The seat board's sweep time and a tile's time from placed to move, from the firmware's own
transactions on the model (run by hand; hardware_docs/timing.md quotes it).

    .venv/bin/python benchmarks/bench_firmware_timing.py [--trials 200] [--seed 1]

The firmware (firmware_bridge/firmware) runs on the model's virtual clock
(firmware_bridge.fakes.seat_model): every SPI transaction at 4 MHz, every frame on the air at
106 kbit/s, the tags' frame delay times, the chip's timer and the fields' 5.1 ms settling
cost what the MFRC522 datasheet and ISO/IEC 14443-3 give. Each trial places a tile on a random
empty slot of a seat holding a typical hand (14 tiles on the rack, 0-12 on the meld strip) at
a random moment; the firmware's frames are decoded with the host's protocol code and fed, as
the serial back-end posts them, to the host's PresenceTracker, set as the service sets it for
serial boards (``confirm_reads`` 1: the firmware reports a tag only at its second read in a
row, the two agreeing reads); the time is from the placing to the tracker's move. Not in it:
the microcontroller's own time between transactions (MicroPython on the RP2040: not
modelled) and the USB link (a frame a 1 ms USB frame at most).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.table.presence import PresenceTracker  # noqa: E402
from firmware_bridge.fakes.iso14443_tag import VirtualTag  # noqa: E402
from firmware_bridge.fakes.seat_model import BoardModel  # noqa: E402
from firmware_bridge.types import ChannelScan, uid_to_str  # noqa: E402

RACK, MELDS = range(18), range(18, 34)
CODES = [f"{n}{suit}" for _ in range(4) for suit in "bcd" for n in range(1, 10)]  # 4 copies


def p95(xs: list[float]) -> float:
    return sorted(xs)[int(0.95 * (len(xs) - 1))]


class Seat:
    """The model and the host's tracker, fed as the serial back-end feeds it."""

    def __init__(self, rng: random.Random, melds: int) -> None:
        self.model = BoardModel.seat("seat1")
        self.rng = rng
        self.uids: dict[str, str] = {}
        zones = {f"seat1/{ch}": "rack:1" for ch in RACK}
        zones.update({f"seat1/{ch}": "melds:1" for ch in MELDS})
        self.channels: dict[int, set[bytes]] = {}
        self.registry: dict[str, str] = {}
        self.tracker = PresenceTracker(zones, self.registry, confirm_reads=1)  # as for boards
        self.sweeps: list[float] = []
        self.moves: dict[str, float] = {}
        for ch in rng.sample(list(RACK), 14) + rng.sample(list(MELDS), melds):
            self.model.place(ch, self.new_tag())

    def new_tag(self) -> VirtualTag:
        uid = bytes([0x04]) + self.rng.randbytes(6)
        while uid[3] == 0x88:  # never the cascade tag there (ISO/IEC 14443-3)
            uid = bytes([0x04]) + self.rng.randbytes(6)
        self.registry[uid_to_str(uid)] = CODES[len(self.registry) % len(CODES)]
        return VirtualTag(uid)

    def run_until(self, t_us: float, stop_uid: str | None = None) -> None:
        model = self.model
        while model.now_us < t_us and (stop_uid is None or stop_uid not in self.moves):
            scans = model.board.scans
            model.step()
            if model.board.scans != scans:
                self.sweeps.append(model.now_us)
            for at, msg in model.frames():
                if msg.name == "scan":
                    self.feed(at, msg)

    def feed(self, at: float, msg: object) -> None:
        ch, uid = msg["channel"], msg["uid"]  # type: ignore[index]
        held = self.channels.setdefault(ch, set())
        (held.add if msg["present"] else held.discard)(uid)  # type: ignore[index]
        scan = ChannelScan(f"seat1/{ch}", frozenset(uid_to_str(u) for u in held), at / 1e6)
        for event in self.tracker.scan(scan):
            if "move" in event:
                self.moves[event["move"]["uid"]] = at


def trial(seat: Seat) -> tuple[float, int]:
    """Place a tile on an empty slot at a random moment: (us to its move, its channel)."""
    model = seat.model
    seat.run_until(model.now_us + seat.rng.uniform(0, 200_000))
    empty = [ch for ch, chip in model.chips.items() if not chip.tags]
    ch = seat.rng.choice(empty)
    tag = model.place(ch, seat.new_tag())
    placed = model.now_us
    uid = uid_to_str(tag.uid)
    seat.run_until(placed + 2_000_000, stop_uid=uid)
    took = seat.moves.get(uid, float("inf")) - placed
    model.take(ch, tag)
    seat.run_until(model.now_us + 300_000)  # it leaves before the next trial
    return took, ch


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--trials", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    rng = random.Random(args.seed)
    took: list[float] = []
    sweeps: list[float] = []
    transactions = sweeps_done = 0
    for i in range(args.trials):
        if i % 30 == 0:  # a new hand every 30 trials: a fresh seat and meld strip
            seat = Seat(rng, melds=rng.choice([0, 3, 6, 9, 12]))
            before = seat.model.transactions()
        took.append(trial(seat)[0] / 1000)
        if i % 30 == 29 or i == args.trials - 1:
            gaps = [b - a for a, b in zip(seat.sweeps, seat.sweeps[1:], strict=False)]
            sweeps += [g / 1000 for g in gaps]
            transactions += seat.model.transactions() - before
            sweeps_done += len(seat.sweeps)
    print(f"firmware on the model, {args.trials} tiles placed on a seat (14 on the rack, "
          "0-12 on the meld strip)")
    print(f"sweep per seat: mean {statistics.mean(sweeps):.1f} ms, p95 {p95(sweeps):.1f} ms, "
          f"max {max(sweeps):.1f} ms; {transactions / max(1, sweeps_done):.0f} SPI "
          "transactions a sweep")
    print(f"placed -> move (two agreeing reads): p50 {statistics.median(took):.1f} ms, "
          f"p95 {p95(took):.1f} ms, max {max(took):.1f} ms (target: p95 under 300 ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
