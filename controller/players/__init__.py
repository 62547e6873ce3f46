"""The simulated players: four bots and the director that plays whole sessions with them.

They use the game engine as any outside client does (through ``public_view`` and
``seat_view``), with random numbers of their own; the game package stays a pure fold.
"""
