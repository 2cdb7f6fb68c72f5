"""Canonical dumps of a summary database, for "same database" comparisons.

Random UUIDs and wall-clock times differ between two runs over the same
crawl data by design; everything else (ids included) must not.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

# Columns whose values are random or wall-clock by design.
VOLATILE = {
    "entity_generation": {"entity_generation_uuid"},
    "crawl_source": {"first_integrated_unix_utc", "last_integrated_unix_utc", "path"},
}
SKIPPED_TABLES = {"database_info", "alembic_version"}


def tables(conn: sqlite3.Connection) -> list[str]:
    return [
        row[0]
        for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' "
            "AND name NOT LIKE 'search_index%' ORDER BY name"
        )
        if row[0] not in SKIPPED_TABLES
    ]


def dump(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows (volatile columns dropped), sorted, plus the FTS contents."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        result: dict[str, list[tuple[Any, ...]]] = {}
        for table in tables(conn):
            columns = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
            kept = [c for c in columns if c not in VOLATILE.get(table, set())]
            rows = conn.execute(f"SELECT {', '.join(kept)} FROM {table}").fetchall()
            result[table] = sorted(rows, key=repr)
        result["search_index"] = sorted(
            conn.execute("SELECT id, sz FROM search_index_docsize").fetchall()
        )
        return result
    finally:
        conn.close()


def count(path: Path, sql: str, *args: object) -> Any:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute(sql, args).fetchone()[0]
    finally:
        conn.close()


def rows(path: Path, sql: str, *args: object) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()
