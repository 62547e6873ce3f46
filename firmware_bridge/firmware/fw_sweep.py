# The field schedule: the board's channels read group by group (fw_layout.GROUPS, derived from
# the coil layout by firmware_bridge/field_schedule.py). Only one group's fields are on; each
# group's fields are on, unmodulated, for 5.1 ms before its first command (ISO/IEC 14443-3;
# hardware_docs/timing.md). A group's chips are all asked (REQA) before any answer is taken,
# so its empty slots cost one timeout together.

from fw_rc522 import REQA

SETTLE_US = 5100


class Sweeper:
    def __init__(self, readers, groups, clock):
        self.readers = readers
        self.groups = [[ch for ch in g if ch in readers] for g in groups]
        self.groups = [g for g in self.groups if g]
        self.clock = clock
        self.index = 0
        self.on_at = None  # ticks_us when the current group's fields went on

    def begin(self):
        for r in self.readers.values():
            r.field(False)
        self._on(0)

    def _on(self, index):
        self.index = index
        for ch in self.groups[index]:
            self.readers[ch].field(True)
        self.on_at = self.clock.ticks_us()

    def wait_us(self):
        """Microseconds until the current group may be read (0: now)."""
        gone = self.clock.ticks_diff(self.clock.ticks_us(), self.on_at)
        return max(0, SETTLE_US - gone)

    def read_group(self):
        """Read the current group, switch to the next: ({channel: [uid]}, sweep finished)."""
        group = self.groups[self.index]
        chips = [self.readers[ch] for ch in group]
        for chip in chips:
            chip.start([REQA], 7)
        answered = [chip.finish() is not None for chip in chips]
        seen = {}
        for ch, chip, ans in zip(group, chips, answered):
            seen[ch] = chip.read_all(ans) if ans else []
        for chip in chips:
            chip.field(False)
        nxt = (self.index + 1) % len(self.groups)
        self._on(nxt)
        return seen, nxt == 0
