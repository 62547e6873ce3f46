# The seat board's logic: round-robin scanning of its channels, debounced events, periodic
# snapshots and heartbeats, host commands acknowledged. All hardware goes through `hal`
# (see hal.py for the RP2040 one; host-side tests pass a fake), so CPython can run this file.

import fw_proto as P
from fw_rc522 import RC522
from fw_scan import ChannelTracker

FIRMWARE_VERSION = "1.0.0"


class Board:
    def __init__(self, hal, scan_ms=20, snapshot_ms=250, heartbeat_ms=100, debounce=3,
                 resend_ms=40):
        self.hal = hal
        self.readers = {}
        for ch, xfer in hal.reader_xfers().items():
            self.readers[ch] = RC522(xfer)
        self.order = sorted(self.readers)
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
        self.next_index = 0
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
        for ch in self.order:
            self.readers[ch].init()
        self.send_hello()

    def run(self):
        self.start()
        while True:
            self.step()
            self.hal.sleep_ms(1)

    def step(self):
        """One pass of the main loop: commands, one channel's read, timers."""
        hal = self.hal
        data = hal.read()
        if data:
            for seq, cmd, args in self.parser.feed(data):
                self.command(seq, cmd, args)
        now = hal.ticks_ms()
        if self.order and hal.ticks_diff(now, self.next_sweep) >= 0:
            self.scan_next()
            if self.next_index == 0:
                self.next_sweep = hal.ticks_add(now, self.scan_ms)
        if self.order and not self.scans:
            pass  # no snapshot before every channel has been read once: it would say "empty"
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

    def scan_next(self):
        ch = self.order[self.next_index]
        self.next_index = (self.next_index + 1) % len(self.order)
        if self.next_index == 0:
            self.scans += 1
        uid = self.readers[ch].read_uid()
        seen = {uid} if uid else set()
        for channel, present, tag in self.tracker.update(ch, seen):
            self.send(P.scan(channel, present, tag))

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
            self.scan_ms = max(1, args[0])
            self.snapshot_ms = max(20, args[1])
        self.send(P.ack(seq, 0))
        if cmd == P.CMD_IDENTIFY:
            self.send_hello()
        elif cmd == P.CMD_REQUEST_SNAPSHOT:
            if self.scans or not self.order:
                self.send_snapshot()
            else:  # just powered up: due now, so sent right after the first sweep (step)
                self.next_snapshot = self.hal.ticks_ms()
