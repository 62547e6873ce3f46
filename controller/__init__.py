"""Mahjong table controller: tiles, table, game, scoring, store, web; the service wires them."""

__version__ = "0.1.0"
