"""The durable event log (Contract 6): append-only SQLite, readable while the service writes."""

from controller.store.errors import StoreError
from controller.store.eventlog import (
    EventLog,
    Record,
    SessionInfo,
    session_events,
    table_log,
)
from controller.store.schema import SCHEMA_VERSION

__all__ = [
    "SCHEMA_VERSION",
    "EventLog",
    "Record",
    "SessionInfo",
    "StoreError",
    "session_events",
    "table_log",
]
