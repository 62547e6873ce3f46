# What the board runs at power-up: main.py's main(), under the real MicroPython interpreter.
import sys

import main

print("MicroPython", sys.implementation.name, sys.version)
main.main()
