"""A table's sessions as facts read from its event log: finished hands (with the winds, dealer
and names of that hand), penalties, who sits where, session start and end. The past-sessions
pages and the club publisher both read them from here, so both tell the same story."""

from controller.sessions.ledger import Fact, SessionFold, public_hand, session_facts

__all__ = ["Fact", "SessionFold", "public_hand", "session_facts"]
