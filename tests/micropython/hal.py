# A fake hal for the firmware under MicroPython's WebAssembly port: every call goes to the
# CPython test (run_firmware.mjs's halbridge), whose fake MFRC522 chips and virtual clock
# answer. Stands in for firmware/hal.py (the RP2040's pins, SPI and USB).
import json

import halbridge
import machine


def call(name, *args):
    answer = json.loads(halbridge.call(json.dumps([name, list(args)])))
    if isinstance(answer, dict) and "raise" in answer:
        raise OSError(answer["raise"])
    return answer


class Hal:
    def __init__(self):
        self.wdt = None
        self.channels = call("channels")

    def serial(self):
        return call("serial")

    def board_name(self):
        return call("board_name")

    def ticks_us(self):
        return call("ticks_us")

    def ticks_ms(self):
        return call("ticks_us") // 1000

    def ticks_diff(self, a, b):
        return a - b

    def ticks_add(self, a, b):
        return a + b

    def wait_us(self, us):
        call("wait_us", us)

    def start_watchdog(self):
        self.wdt = machine.WDT(timeout=1000)

    def feed(self):
        self.wdt.feed()

    def read(self):
        return bytes(call("read"))

    def write(self, data):
        call("write", list(data))

    def reader_xfers(self):
        def make(ch):
            return lambda data: call("xfer", ch, list(data))
        return {ch: make(ch) for ch in self.channels}

    def field_groups(self, channels):
        return call("groups")

    def set_leds(self, on, blink):
        call("leds", on, blink)

    def buzzer(self, on):
        call("buzzer", 1 if on else 0)
