"""The bridge's own errors: every one a :class:`BridgeError`.

``BridgeConfigError`` (also a ValueError): a back-end or seat I/O set-up that cannot be used
(unknown back-end, no chips or ports, a pin given twice). ``HardwareUnavailable`` (also a
RuntimeError): the hardware or its library cannot be opened here (no RPi.GPIO off a Pi, GPIO in
BOARD numbering, a chip that does not answer).
"""

from __future__ import annotations


class BridgeError(Exception):
    """Something the bridge cannot do; the message says what to check."""


class BridgeConfigError(BridgeError, ValueError):
    """A reader back-end or seat I/O configuration that cannot be used."""


class HardwareUnavailable(BridgeError, RuntimeError):
    """The hardware, or the library that drives it, cannot be opened here."""
