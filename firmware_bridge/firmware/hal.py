# RP2040 (Raspberry Pi Pico) hardware layer for the seat board, MicroPython only.
# Everything machine-specific lives here so that fw_board.py runs under CPython in the tests.
# Wiring: hardware_docs/wiring.md (seat board section).

import sys
import time

import machine
import micropython
import select
from fw_layout import GROUPS

BOARD_NAME = "seat1"  # channels are reported as "<board name>/<n>"; set one per seat
LAYOUT = "seat"  # which board of fw_layout.GROUPS this is: "seat" or "centre"
WATCHDOG_MS = 1000  # the RP2040's watchdog resets the board when not fed for this long
SPI_ID = 0
PIN_SCK, PIN_MOSI, PIN_MISO = 18, 19, 16
PIN_RST = 20  # shared reset line of every MFRC522 on this board
# chip selects through five 74HC138 decoders (40 outputs) driven by A0-A2 and an enable each
DECODER_ADDRESS = (2, 3, 4)
DECODER_ENABLES = (5, 6, 7, 8, 9)
CHANNELS = 34  # 0-17 rack slots, 18-33 meld strip (the sim's default layout too)
LED_PINS = (25, 14)  # LED 0: turn LED; LED 1: spare (25 is the Pico's own LED)
BUZZER_PIN = 15


class Hal:
    def __init__(self):
        self.spi = machine.SPI(SPI_ID, baudrate=4000000, polarity=0, phase=0,
                               sck=machine.Pin(PIN_SCK), mosi=machine.Pin(PIN_MOSI),
                               miso=machine.Pin(PIN_MISO))
        self.addr = [machine.Pin(p, machine.Pin.OUT, value=0) for p in DECODER_ADDRESS]
        self.enables = [machine.Pin(p, machine.Pin.OUT, value=1) for p in DECODER_ENABLES]
        self.rst = machine.Pin(PIN_RST, machine.Pin.OUT, value=0)
        time.sleep_ms(2)
        self.rst.value(1)  # release every reader from hard reset
        time.sleep_ms(5)
        self.leds = [machine.Pin(p, machine.Pin.OUT, value=0) for p in LED_PINS]
        self.buzz = machine.Pin(BUZZER_PIN, machine.Pin.OUT, value=0)
        # Binary frames arrive on the REPL's USB CDC: without this a 0x03 byte (Ctrl-C) in a
        # host command would raise KeyboardInterrupt and stop the firmware.
        micropython.kbd_intr(-1)
        self.poll = select.poll()
        self.poll.register(sys.stdin, select.POLLIN)
        self.out = sys.stdout.buffer
        self.inp = sys.stdin.buffer
        self.wdt = None

    # ---- identity
    def serial(self):
        # MicroPython's RP2040 port gives the flash chip's unique ID as the USB serial number
        # (iSerial): the same hex string names the board in /dev/serial/by-id
        # (usb-MicroPython_Board_in_FS_mode_<id>-if00) and in pyserial's list_ports.
        return "".join("%02x" % b for b in machine.unique_id())

    def board_name(self):
        return BOARD_NAME

    # ---- time
    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def ticks_add(self, a, b):
        return time.ticks_add(a, b)

    def ticks_us(self):
        return time.ticks_us()

    def wait_us(self, us):
        time.sleep_us(us)

    # ---- watchdog (main.py starts it)
    def start_watchdog(self):
        self.wdt = machine.WDT(timeout=WATCHDOG_MS)

    def feed(self):
        if self.wdt is not None:
            self.wdt.feed()

    # ---- USB CDC link
    def read(self):
        data = b""
        while self.poll.poll(0):
            data += self.inp.read(1)
            if len(data) >= 64:
                break
        return data

    def write(self, data):
        self.out.write(data)

    # ---- readers
    def _select(self, ch):
        for i, pin in enumerate(self.addr):
            pin.value((ch >> i) & 1)
        self.enables[ch // 8].value(0)

    def _release(self, ch):
        self.enables[ch // 8].value(1)

    def reader_xfers(self):
        def make(ch):
            def xfer(data):
                out = bytearray(len(data))
                self._select(ch)
                try:
                    self.spi.write_readinto(bytes(data), out)
                finally:
                    self._release(ch)
                return list(out)
            return xfer
        return {ch: make(ch) for ch in range(CHANNELS)}

    def field_groups(self, channels):
        return GROUPS[LAYOUT]

    # ---- outputs
    def set_leds(self, on, blink):
        # blinking is left to a timer in a later firmware; 'blink' LEDs are lit steadily
        for i, led in enumerate(self.leds):
            led.value(1 if (on | blink) >> i & 1 else 0)

    def buzzer(self, on):
        self.buzz.value(1 if on else 0)
