"""The one error type of the store: what went wrong with the event log and what to do next."""

from __future__ import annotations


class StoreError(Exception):
    """The event log cannot be opened, read or written; the message says what to do."""
