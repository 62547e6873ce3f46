"""The durable event log (Contract 6): append-only SQLite, readable while the service writes."""

from controller.store.errors import DamagedLog, StoreError
from controller.store.eventlog import EventLog, Record, SessionInfo
from controller.store.schema import SCHEMA_VERSION
from controller.store.tablelog import numbered_table_log, session_events, table_log

__all__ = [
    "SCHEMA_VERSION",
    "DamagedLog",
    "EventLog",
    "Record",
    "SessionInfo",
    "StoreError",
    "numbered_table_log",
    "session_events",
    "table_log",
]
