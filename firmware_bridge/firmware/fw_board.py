# The seat board's logic: its channels read group by group under the field schedule
# (fw_sweep.py), debounced events, periodic snapshots and heartbeats, host commands
# acknowledged, the watchdog fed. All hardware goes through `hal` (see hal.py for the RP2040
# one; host-side tests pass a fake), so CPython and MicroPython's WebAssembly port run this file.

import fw_proto as P
from fw_rc522 import RC522, ChipError
from fw_scan import ChannelTracker
from fw_sweep import Sweeper

FIRMWARE_VERSION = "2.0.0"


class Board:
    def __init__(self, hal, scan_ms=0, snapshot_ms=250, heartbeat_ms=100, debounce=2,
                 resend_ms=40):
        self.hal = hal
        self.readers = {}
        for ch, xfer in hal.reader_xfers().items():
            self.readers[ch] = RC522(xfer, hal)
        self.order = []  # the channels whose chip answered at start()
        self.down = []  # channels whose chip did not (left out, not in the hello)
        self.sweeper = None
        self.sweep_at = 0  # ticks_ms when the current sweep began
        self.debounce = debounce
        self.tracker = ChannelTracker(self.order, debounce)
        self.parser = P.Parser()
        self.scan_ms = scan_ms
        self.snapshot_ms = snapshot_ms
        self.heartbeat_ms = heartbeat_ms
        self.seq = 0
        self.snap = 0
        self.resend_ms = resend_ms
        self.out_ranges = None  # the snapshot being delivered: its ranges, acked parts
        self.out_acked = 0
        self.resend_at = 0
        self.scans = 0  # full sweeps since power-up
        now = hal.ticks_ms()
        self.boot_ms = now
        self.next_sweep = now
        self.next_snapshot = hal.ticks_add(now, snapshot_ms)
        self.next_beat = now
        self.buzz_until = None
        self.leds = (0, 0)

    # ---------------------------------------------------------------- output
    def send(self, content):
        self.hal.write(P.block(self.seq, content))
        self.seq = (self.seq + 1) & 0x0F

    def send_hello(self):
        self.send(P.hello(FIRMWARE_VERSION, self.hal.serial(), self.hal.board_name(), self.order))

    def send_snapshot(self):
        """A new snapshot: every part now, and again until the host acknowledges it."""
        entries = P.fit_entries(self.tracker.entries())
        self.snap = (self.snap + 1) & 0xFF
        self.out_ranges = P.snapshot_ranges(entries)
        self.out_acked = 0
        self.send_parts(entries)

    def send_parts(self, entries):
        ranges = self.out_ranges
        for i in range(len(ranges)):
            if not self.out_acked >> i & 1:
                first, last = ranges[i]
                self.send(P.snapshot_part(self.snap, i, len(ranges), first, last, entries))
        self.resend_at = self.hal.ticks_add(self.hal.ticks_ms(), self.resend_ms)

    def resend_snapshot(self):
        """The unacknowledged parts again, with their ranges' state now."""
        entries = P.fit_entries(self.tracker.entries())
        for first, last in self.out_ranges:
            if not P.range_fits(entries, first, last):
                self.send_snapshot()
                return
        self.send_parts(entries)

    def snapshot_acked(self, snap, mask):
        if self.out_ranges is None or snap != self.snap:
            return
        self.out_acked |= mask
        if self.out_acked == (1 << len(self.out_ranges)) - 1:
            self.out_ranges = None

    # ---------------------------------------------------------------- life cycle
    def start(self):
        """Every chip reset and checked; a chip that fails is left out (its channel is not
        in the hello, so the host reports it silent); then the field schedule starts."""
        self.order, self.down = [], []
        for ch in sorted(self.readers):
            try:
                self.readers[ch].init()
                self.order.append(ch)
            except ChipError:
                self.down.append(ch)
        self.tracker = ChannelTracker(self.order, self.debounce)
        if self.order:
            working = {ch: self.readers[ch] for ch in self.order}
            self.sweeper = Sweeper(working, self.hal.field_groups(self.order), self.hal)
            self.sweeper.begin()
        self.send_hello()

    def run(self):
        """The main loop, never sleeping: what waits is the fields' settling, and then only
        when nothing else is to be done."""
        self.start()
        while True:
            self.step()
            if self.sweeper is not None:
                wait = self.sweeper.wait_us()
                if wait:
                    self.hal.wait_us(min(wait, 1000))

    def step(self):
        """One pass of the main loop: watchdog, commands, a group's read when due, timers."""
        hal = self.hal
        hal.feed()
        data = hal.read()
        if data:
            for seq, cmd, args in self.parser.feed(data):
                self.command(seq, cmd, args)
        now = hal.ticks_ms()
        if self.sweeper is not None and hal.ticks_diff(now, self.next_sweep) >= 0 \
                and not self.sweeper.wait_us():
            self.read_group()
            now = hal.ticks_ms()
        if self.order and self.scans < 2:
            pass  # no snapshot before every channel has been read twice: it would say "empty"
        elif self.out_ranges is not None:
            self.next_snapshot = hal.ticks_add(now, self.snapshot_ms)
            if hal.ticks_diff(now, self.resend_at) >= 0:
                self.resend_snapshot()
        elif hal.ticks_diff(now, self.next_snapshot) >= 0:
            self.send_snapshot()
            self.next_snapshot = hal.ticks_add(now, self.snapshot_ms)
        if hal.ticks_diff(now, self.next_beat) >= 0:
            self.send(P.heartbeat(hal.ticks_diff(now, self.boot_ms), self.scans))
            self.next_beat = hal.ticks_add(now, self.heartbeat_ms)
        if self.buzz_until is not None and hal.ticks_diff(now, self.buzz_until) >= 0:
            hal.buzzer(False)
            self.buzz_until = None

    def read_group(self):
        """The current group's channels read; a finished sweep counted (and the next one
        held back until `scan_ms` after this one began)."""
        seen, finished = self.sweeper.read_group()
        for ch in sorted(seen):
            for channel, present, tag in self.tracker.update(ch, set(seen[ch])):
                self.send(P.scan(channel, present, tag))
        if finished:
            self.scans += 1
            now = self.hal.ticks_ms()
            self.next_sweep = self.hal.ticks_add(self.sweep_at, self.scan_ms)
            self.sweep_at = now

    # ---------------------------------------------------------------- host commands
    def command(self, seq, cmd, args):
        # Apply, then acknowledge (an acknowledged command has taken effect), then answer.
        # Commands are idempotent, so a retransmission (our ack was lost) is simply redone.
        if cmd == P.CMD_SNAPSHOT_ACK:  # the one command never acknowledged
            self.snapshot_acked(args[0], args[1])
            return
        if cmd == P.CMD_SET_LEDS:
            self.leds = args
            self.hal.set_leds(args[0], args[1])
        elif cmd == P.CMD_BUZZER:
            self.hal.buzzer(args[0] > 0)
            self.buzz_until = self.hal.ticks_add(self.hal.ticks_ms(), args[0]) if args[0] else None
        elif cmd == P.CMD_SCAN_RATE:
            self.scan_ms = args[0]
            self.snapshot_ms = max(20, args[1])
        self.send(P.ack(seq, 0))
        if cmd == P.CMD_IDENTIFY:
            self.send_hello()
        elif cmd == P.CMD_REQUEST_SNAPSHOT:
            if self.scans >= 2 or not self.order:
                self.send_snapshot()
            else:  # just powered up: due now, so sent right after the second sweep (step)
                self.next_snapshot = self.hal.ticks_ms()
