"""Mahjong table controller: tiles, table, game, scoring, store, web, and the service that wires them."""

__version__ = "0.1.0"
