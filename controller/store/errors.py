"""The one error type of the store: what went wrong with the event log and what to do next."""

from __future__ import annotations


class StoreError(Exception):
    """The event log cannot be opened, read or written; the message says what to do."""


class DamagedLog(StoreError):
    """A row of the log cannot be read (a changed character, a flipped bit, a damaged page):
    the message names the session and the event, and the way to copy out what is readable."""

    def __init__(self, path: object, session: object, where: str, why: str) -> None:
        self.session, self.where, self.why = session, where, why
        super().__init__(
            f"the event log {path} is damaged: session {session}, {where} cannot be read "
            f"({why}); keep a copy, then `mahjong-table recover --db {path} --to NEW_FILE` "
            "copies every readable event (docs/store.md, Recovery)")

    @property
    def public(self) -> str:
        """What the pages may say (no file path)."""
        return f"{self.where} cannot be read ({self.why})"
