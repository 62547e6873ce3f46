"""The club store's SQL (``store.py`` runs it): the schema and every statement, each written
out in full once, by name, so none is assembled from pieces at run time and the store's
functions read as what they do. SQLite's keywords and names ignore case."""

from __future__ import annotations

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    name TEXT PRIMARY KEY, last_pos INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS sessions (
    tbl TEXT NOT NULL, session INTEGER NOT NULL, started REAL, ruleset TEXT, ended REAL,
    summary TEXT, PRIMARY KEY (tbl, session)
);
CREATE TABLE IF NOT EXISTS hands (
    tbl TEXT NOT NULL, session INTEGER NOT NULL, number INTEGER NOT NULL, pos INTEGER NOT NULL,
    received REAL NOT NULL, body TEXT NOT NULL, PRIMARY KEY (tbl, session, number)
);
CREATE TABLE IF NOT EXISTS penalties (
    tbl TEXT NOT NULL, session INTEGER NOT NULL, idx INTEGER NOT NULL, pos INTEGER NOT NULL,
    body TEXT NOT NULL, PRIMARY KEY (tbl, session, idx)
);
CREATE TABLE IF NOT EXISTS roster (
    name TEXT PRIMARY KEY COLLATE NOCASE, ema TEXT, country TEXT
);
CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS facts (
    tbl TEXT NOT NULL, pos INTEGER NOT NULL, digest TEXT NOT NULL, PRIMARY KEY (tbl, pos)
);
CREATE TABLE IF NOT EXISTS set_aside (
    what TEXT NOT NULL, tbl TEXT, body TEXT, reason TEXT NOT NULL, at REAL NOT NULL
);
"""

#: the connection's settings, run when the store opens
PRAGMAS = ("PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL")
BEGIN = "BEGIN IMMEDIATE"
COMMIT = "COMMIT"
ROLLBACK = "ROLLBACK"

# --- a table's place in its stream of facts -----------------------------------------------------
LAST_POS = "SELECT last_pos FROM tables WHERE name = ?"
ADD_TABLE = "INSERT OR IGNORE INTO tables (name) VALUES (?)"
MOVE_ON = "UPDATE tables SET last_pos = ? WHERE name = ?"
HELD_DIGEST = "SELECT digest FROM facts WHERE tbl = ? AND pos = ?"
KEEP_DIGEST = "INSERT OR REPLACE INTO facts (tbl, pos, digest) VALUES (?, ?, ?)"
TABLES = "SELECT name, last_pos FROM tables"

# --- the facts, by kind ---------------------------------------------------------------------------
START_SESSION = ("INSERT OR REPLACE INTO sessions (tbl, session, started, ruleset) "
                 "VALUES (?, ?, ?, ?)")
END_SESSION = "UPDATE sessions SET ended = ?, summary = ? WHERE tbl = ? AND session = ?"
PUT_HAND = ("INSERT OR REPLACE INTO hands (tbl, session, number, pos, received, body) "
            "VALUES (?, ?, ?, ?, ?, ?)")
TAKE_HAND_BACK = "DELETE FROM hands WHERE tbl = ? AND session = ? AND number = ?"
PUT_PENALTY = ("INSERT OR REPLACE INTO penalties (tbl, session, idx, pos, body) "
               "VALUES (?, ?, ?, ?, ?)")
TAKE_PENALTY_BACK = "DELETE FROM penalties WHERE tbl = ? AND session = ? AND idx = ?"
#: a seat-holder correction: what -> (read one row's body, write it), by table, session and
#: number (hands) or index (penalties)
HOLDER_ROWS = {
    "hands": ("SELECT body FROM hands WHERE tbl = ? AND session = ? AND number = ?",
              "UPDATE hands SET body = ? WHERE tbl = ? AND session = ? AND number = ?"),
    "penalties": ("SELECT body FROM penalties WHERE tbl = ? AND session = ? AND idx = ?",
                  "UPDATE penalties SET body = ? WHERE tbl = ? AND session = ? AND idx = ?"),
}

# --- rows of an older version that fail today's schema ----------------------------------------
#: what -> (its rows as rowid, table, body; the statement that deletes one by rowid)
STORED_ROWS = {
    "hands": ("SELECT rowid, tbl, body FROM hands", "DELETE FROM hands WHERE rowid = ?"),
    "penalties": ("SELECT rowid, tbl, body FROM penalties",
                  "DELETE FROM penalties WHERE rowid = ?"),
    "sessions": ("SELECT rowid, tbl, json_array(started, ruleset, ended, summary) "
                 "FROM sessions", "DELETE FROM sessions WHERE rowid = ?"),
}
SET_ASIDE = "INSERT INTO set_aside (what, tbl, body, reason, at) VALUES (?, ?, ?, ?, ?)"

# --- reading --------------------------------------------------------------------------------------
HANDS = ("SELECT tbl, session, number, pos, received, body FROM hands "
         "ORDER BY received, tbl, session, number")
TABLE_HANDS = ("SELECT tbl, session, number, pos, received, body FROM hands WHERE tbl = ? "
               "ORDER BY received, tbl, session, number")
PENALTIES = "SELECT tbl, session, idx, body FROM penalties ORDER BY pos"
SESSIONS = ("SELECT tbl, session, started, ruleset, ended, summary FROM sessions "
            "ORDER BY started")

# --- the roster and the club's own settings ------------------------------------------------
ROSTER = "SELECT name, ema, country FROM roster ORDER BY name"
ADD_PLAYER = ("INSERT INTO roster (name, ema, country) VALUES (?, ?, ?) "
              "ON CONFLICT(name) DO UPDATE SET ema = excluded.ema, country = excluded.country")
REMOVE_PLAYER = "DELETE FROM roster WHERE name = ?"
GET = "SELECT value FROM kv WHERE key = ?"
PUT = ("INSERT INTO kv (key, value) VALUES (?, ?) "
       "ON CONFLICT(key) DO UPDATE SET value = excluded.value")
