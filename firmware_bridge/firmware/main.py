# Seat board firmware entry point (MicroPython on an RP2040). Copy this folder's .py files to
# the board (e.g. `mpremote cp *.py :`); edit BOARD_NAME and LAYOUT in hal.py per board.
# A hardware watchdog resets a board that stops feeding it (a hang); any exception resets it
# at once (machine.reset), so a board never stays in the REPL waiting for a power cycle.

import machine

from fw_board import Board
from hal import Hal


def main(hal_factory=Hal, board_factory=Board):
    try:
        hal = hal_factory()
        hal.start_watchdog()
        board_factory(hal).run()
    except Exception as exc:  # noqa: BLE001 - every failure ends in a clean restart
        try:
            import sys
            sys.print_exception(exc)
        except Exception:  # noqa: BLE001
            pass
        machine.reset()


if __name__ == "__main__":
    main()
