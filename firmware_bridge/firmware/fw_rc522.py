# MFRC522 driver for the seat board (MicroPython and CPython): the ISO/IEC 14443-3 bit-frame
# anticollision loop over every cascade level, so a field with several tags reads all of them.
# `xfer(list_of_ints) -> list_of_ints` is one chip-select-low SPI transaction (see hal.py);
# `clock` gives ticks_us(), ticks_diff(a, b) and wait_us(n). Timings: hardware_docs/timing.md.

COMMAND = 0x01
COMM_IRQ = 0x04
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_CONTROL = 0x14
TX_ASK = 0x15
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

TRANSCEIVE = 0x0C
SOFT_RESET = 0x0F
POWER_DOWN = 0x10
IRQ_TIMER = 0x01
IRQ_RX = 0x20
IRQ_TX = 0x40
ERR_COLL = 0x08
ERR_OTHER = 0x13  # BufferOvfl, ParityErr, ProtocolErr
REQA = 0x26
HLTA = 0x50
SEL = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88
VERSIONS = (0x88, 0x90, 0x91, 0x92, 0xB2)  # MFRC522 v0/v1/v2 and common clones
FC_KHZ = 13560
GUARD_US = 87  # a tag's answer to our next frame: 1172/fc (ISO/IEC 14443-3 6.2.1.2)
FIFO_W = FIFO_DATA << 1
FIFO_R = FIFO_W | 0x80
STATUS_R = [COMM_IRQ << 1 | 0x80, ERROR << 1 | 0x80, FIFO_LEVEL << 1 | 0x80,
            CONTROL << 1 | 0x80, 0]


class ChipError(Exception):
    pass


def crc_a(data):
    """ISO/IEC 14443-3 CRC_A (annex B), low byte first: cheaper here than the chip's
    coprocessor, which costs SPI round trips."""
    crc = 0x6363
    for b in data:
        b = (b ^ crc) & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return [crc & 0xFF, crc >> 8]


class RC522:
    def __init__(self, xfer, clock, timeout_us=300, max_polls=400):
        self.xfer = xfer
        self.clock = clock
        self.timeout_us = timeout_us
        self.max_polls = max_polls
        self.answered_at = None  # ticks_us when the last answer was taken

    # ------------------------------------------------------------ registers
    def write(self, reg, value):
        self.xfer([(reg << 1) & 0x7E, value & 0xFF])

    def read(self, reg):
        return self.xfer([((reg << 1) & 0x7E) | 0x80, 0])[1]

    def write_fifo(self, data):
        self.xfer([FIFO_W] + list(data))  # one burst: every byte goes to FIFODataReg

    def read_fifo(self, n):
        return self.xfer([FIFO_R] * n + [0])[1:]

    def status(self):
        """ComIrqReg, ErrorReg, FIFOLevelReg and ControlReg in one transaction."""
        return self.xfer(STATUS_R)[1:]

    # ------------------------------------------------------------ set-up
    def init(self):
        """Soft reset, awaited (PowerDown clears) and checked (a known VERSION); a timer that
        starts at the end of each frame and times out after `timeout_us`; field off."""
        self.write(COMMAND, SOFT_RESET)
        for _ in range(self.max_polls):
            if not self.read(COMMAND) & POWER_DOWN:
                break
        else:
            raise ChipError("soft reset never ended")
        version = self.read(VERSION)
        if version not in VERSIONS:
            raise ChipError("no MFRC522 answers (VERSION %02X)" % version)
        ticks = max(1, self.timeout_us * FC_KHZ // 1000 - 1)  # TPrescaler 0: 1/13.56 MHz
        self.write(T_MODE, 0x80)  # TAuto, TPrescaler_Hi 0
        self.write(T_PRESCALER, 0)
        self.write(T_RELOAD_H, ticks >> 8)
        self.write(T_RELOAD_L, ticks & 0xFF)
        self.write(TX_ASK, 0x40)  # 100 % ASK
        self.write(MODE, 0x3D)  # CRC preset 6363h
        self.write(COLL, 0x00)  # ValuesAfterColl = 0: bits after a collision read as 0
        self.field(False)
        self.write(COMMAND, TRANSCEIVE)  # stays on: each frame starts with StartSend
        return version

    def field(self, on):
        self.write(TX_CONTROL, 0x83 if on else 0x80)

    # ------------------------------------------------------------ frames
    def start(self, data, last_bits=0, align=0):
        """Send a frame (after the guard time since the last answer); do not wait."""
        if self.answered_at is not None:
            gone = self.clock.ticks_diff(self.clock.ticks_us(), self.answered_at)
            if gone < GUARD_US:
                self.clock.wait_us(GUARD_US - gone)
            self.answered_at = None
        framing = (align << 4) | last_bits
        self.write(COMM_IRQ, 0x7F)
        self.write(FIFO_LEVEL, 0x80)
        self.write_fifo(data)
        self.write(BIT_FRAMING, framing)
        self.write(BIT_FRAMING, 0x80 | framing)  # StartSend

    def finish(self, wanted=IRQ_RX | IRQ_TIMER):
        """Wait for the answer or the timeout: (bytes, valid bits of the last, error) or None."""
        irq = err = level = ctrl = 0
        for _ in range(self.max_polls):
            irq, err, level, ctrl = self.status()
            if irq & wanted:
                break
        if not irq & IRQ_RX:
            return None
        self.answered_at = self.clock.ticks_us()
        return self.read_fifo(level) if level else [], ctrl & 0x07, err

    def request(self, cmd):
        """REQA or WUPA (a 7-bit short frame); True when any tag answered (an ATQA collision
        still means tags are there)."""
        self.start([cmd], 7)
        return self.finish() is not None

    def halt(self):
        frame = [HLTA, 0]
        self.start(frame + crc_a(frame))
        # Silence is the answer, so wait for the timer that says so: a TimerIRq still to come
        # from the HLTA would land after the next frame's start() cleared the IRQ bits and
        # end that frame's wait at once (a REQA "not answered", the field's other tags lost).
        self.finish()

    # ------------------------------------------------------------ anticollision
    def cascade(self, level):
        """One cascade level's bit-frame anticollision (ISO/IEC 14443-3 6.5): returns
        (UID CLn with BCC, collided) or None. On a collision the tags sending 1 are taken."""
        sel = SEL[level]
        cl = [0, 0, 0, 0, 0]
        known = 0
        collided = False
        for _ in range(41):
            nbytes, nbits = known >> 3, known & 7
            sent = cl[:nbytes + (1 if nbits else 0)]
            self.start([sel, (2 + nbytes) << 4 | nbits] + sent, nbits, nbits)
            got = self.finish()
            if got is None or got[2] & ERR_OTHER:
                return None
            data = got[0]
            keep = (1 << nbits) - 1
            for i in range(min(len(data), 5 - nbytes)):
                cl[nbytes + i] = (cl[nbytes + i] & keep) | (data[i] & ~keep & 0xFF) if i == 0 \
                    else data[i]
            if not got[2] & ERR_COLL:
                break
            coll = self.read(COLL)
            bit = nbytes * 8 + ((coll & 0x1F) or 32) - 1
            if coll & 0x20 or bit < known or bit >= 32:
                return None
            cl[bit >> 3] = (cl[bit >> 3] & ((1 << (bit & 7)) - 1)) | 1 << (bit & 7)
            known = bit + 1
            collided = True
        if cl[0] ^ cl[1] ^ cl[2] ^ cl[3] != cl[4]:
            return None
        return cl, collided

    def select(self, level, cl):
        """SELECT: the SAK, or None."""
        frame = [SEL[level], 0x70] + cl
        self.start(frame + crc_a(frame))
        got = self.finish()
        if got is None or got[2] or len(got[0]) != 3 or crc_a(got[0][:1]) != got[0][1:]:
            return None
        return got[0][0]

    def read_one(self):
        """After an answered REQA: one tag's UID and whether others answered with it, or None.
        After a collision the tag is selected and halted (the others answer the next REQA);
        alone it is left READY: its field goes off after the read, which resets it."""
        uid = []
        collided = False
        for level in range(3):
            got = self.cascade(level)
            if got is None:
                return None
            cl, coll = got
            collided = collided or coll
            if cl[0] == CASCADE_TAG and level < 2:
                sak = self.select(level, cl)
                if sak is None or not sak & 0x04:
                    return None
                uid += cl[1:4]
                continue
            uid += cl[:4]
            if collided:
                if self.select(level, cl) is None:
                    return None
                self.halt()
            return bytes(uid), collided
        return None

    def read_all(self, answered, max_tags=8):
        """Every tag in a field switched on for this read: `answered` says whether the first
        REQA was answered (sent by the caller, so that a group's chips are asked at once);
        after a collision each tag read is halted and REQA asks for the next."""
        uids = []
        while answered and len(uids) < max_tags:
            got = self.read_one()
            if got is None:
                break
            uids.append(got[0])
            if not got[1]:
                break
            answered = self.request(REQA)
        return uids
