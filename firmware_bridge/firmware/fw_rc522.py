# MFRC522 driver for the seat board: WUPA, anticollision/select over all cascade levels
# (4-, 7- and 10-byte UIDs), HLTA after each read, waits bounded by a poll budget.
# `xfer(list_of_ints) -> list_of_ints` is one chip-select-low SPI transaction (see hal.py).

COMMAND = 0x01
COMM_IEN = 0x02
COMM_IRQ = 0x04
DIV_IRQ = 0x05
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
MODE = 0x11
TX_CONTROL = 0x14
TX_AUTO = 0x15
CRC_M = 0x21
CRC_L = 0x22
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

IDLE = 0x00
CALC_CRC = 0x03
TRANSCEIVE = 0x0C
SOFT_RESET = 0x0F
WUPA = 0x52
HLTA = 0x50
SEL = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88


class RC522:
    def __init__(self, xfer, max_polls=100, timeout_ticks=4):
        self.xfer = xfer
        self.max_polls = max_polls
        self.timeout_ticks = timeout_ticks

    def write(self, reg, value):
        self.xfer([(reg << 1) & 0x7E, value & 0xFF])

    def read(self, reg):
        return self.xfer([((reg << 1) & 0x7E) | 0x80, 0])[1]

    def init(self):
        """Soft reset, 0.5 ms timer ticks with a short receive timeout, 100% ASK, antenna on."""
        self.write(COMMAND, SOFT_RESET)
        self.write(T_MODE, 0x8D)
        self.write(T_PRESCALER, 0x3E)
        self.write(T_RELOAD_H, 0)
        self.write(T_RELOAD_L, self.timeout_ticks)
        self.write(TX_AUTO, 0x40)
        self.write(MODE, 0x3D)
        self.write(TX_CONTROL, self.read(TX_CONTROL) | 0x03)
        return self.read(VERSION)

    def crc(self, data):
        self.write(COMMAND, IDLE)
        self.write(DIV_IRQ, 0x04)  # Set2=0: clear CRCIRq
        self.write(FIFO_LEVEL, 0x80)
        for b in data:
            self.write(FIFO_DATA, b)
        self.write(COMMAND, CALC_CRC)
        for _ in range(self.max_polls):
            if self.read(DIV_IRQ) & 0x04:
                break
        self.write(COMMAND, IDLE)
        return [self.read(CRC_L), self.read(CRC_M)]

    def transceive(self, data, last_bits=0):
        """Returns (reply bytes, bit count) or None on timeout, error or poll budget spent."""
        self.write(COMMAND, IDLE)
        self.write(COMM_IEN, 0xF7)
        self.write(COMM_IRQ, 0x7F)
        self.write(FIFO_LEVEL, 0x80)
        for b in data:
            self.write(FIFO_DATA, b)
        self.write(BIT_FRAMING, last_bits)
        self.write(COMMAND, TRANSCEIVE)
        self.write(BIT_FRAMING, 0x80 | last_bits)
        irq = 0
        for _ in range(self.max_polls):
            irq = self.read(COMM_IRQ)
            if irq & 0x23:  # RxIRq, ErrIRq or TimerIRq
                break
        self.write(BIT_FRAMING, 0)
        if not irq & 0x20 or self.read(ERROR) & 0x1B:
            return None
        n = self.read(FIFO_LEVEL)
        reply = bytes([self.read(FIFO_DATA) for _ in range(n)])
        valid = self.read(CONTROL) & 0x07
        return reply, ((n - 1) * 8 + valid) if valid else n * 8

    def read_uid(self):
        """The UID (bytes) of the one tag in the field, or None. Leaves the tag halted."""
        if self.transceive([WUPA], 7) is None:
            return None
        uid = b""
        for sel in SEL:
            got = self.transceive([sel, 0x20])
            if got is None or len(got[0]) != 5:
                return None
            cl = got[0]
            if cl[0] ^ cl[1] ^ cl[2] ^ cl[3] != cl[4]:
                return None
            frame = [sel, 0x70] + list(cl)
            reply = self.transceive(frame + self.crc(frame))
            if reply is None or reply[1] != 24 or self.crc([reply[0][0]]) != list(reply[0][1:]):
                return None
            if reply[0][0] & 0x04:
                if cl[0] != CASCADE_TAG:
                    return None
                uid += cl[1:4]
                continue
            uid += cl[:4]
            frame = [HLTA, 0]
            self.transceive(frame + self.crc(frame))
            return uid
        return None
