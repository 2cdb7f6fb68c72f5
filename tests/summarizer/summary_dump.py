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


def semantic(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """The summary's content with ids replaced by what they stand for (URLs, digests).

    Equal for two runs over the same crawls even when batches differ (ids of
    URLs are assigned in batch order).
    """
    queries = {
        "generations": "SELECT u.str_url, eg.kind, eg.first_seen_unix_utc, eg.last_seen_unix_utc,"
        " eg.confirmed_end_unix_utc, eg.marked_duplicate, hex(tp.digest) FROM entity_generation eg"
        " JOIN url u USING (url_id) LEFT JOIN text_pile tp USING (text_pile_id)",
        "crawls": "SELECT cs.crawl_uuid, cs.summarizer_action, u.str_url FROM crawl_summary cs"
        " JOIN url u USING (url_id)",
        "links": "SELECT pu.str_url, eg.first_seen_unix_utc, ls.position, tu.str_url, ls.text"
        " FROM link_summary ls JOIN entity_generation eg USING (entity_generation_id)"
        " JOIN url pu ON pu.url_id = eg.url_id JOIN url tu ON tu.url_id = ls.to_url_id",
        "titles": "SELECT u.str_url, dd.title FROM document_description dd"
        " JOIN entity_generation eg USING (entity_generation_id) JOIN url u USING (url_id)",
    }
    return {name: sorted(rows(path, sql), key=repr) for name, sql in queries.items()}
