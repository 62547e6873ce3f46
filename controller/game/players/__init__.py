"""Helpers of the bots and the director: hand evaluation, Mahjong checks, wall, claims."""
