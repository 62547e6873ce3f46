"""Readers and the wire: UIDs, channels, frames. Knows nothing of mahjong."""
