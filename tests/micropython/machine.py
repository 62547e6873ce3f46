# A fake `machine` module for the firmware under MicroPython's WebAssembly port: the watchdog
# and reset are reported to the CPython test (see hal.py here).
import json

import halbridge


def _call(name, *args):
    return halbridge.call(json.dumps([name, list(args)]))


class WDT:
    def __init__(self, timeout=5000):
        _call("wdt", timeout)

    def feed(self):
        _call("feed")


def reset():
    _call("reset")
    raise SystemExit  # the board restarts: this run ends here
