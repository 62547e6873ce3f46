# Seat board firmware entry point (MicroPython on an RP2040). Copy this folder's .py files to
# the board (e.g. `mpremote cp *.py :`); edit BOARD_NAME in hal.py per seat.

from fw_board import Board
from hal import Hal


def main():
    Board(Hal()).run()


if __name__ == "__main__":
    main()
