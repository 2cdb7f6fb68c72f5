"""Reading a crawl database in batches of crawl log entries (read-only).

One batch is the next ``limit`` ``crawl_log_entry`` rows after a given id, with
their final request, file (and body), and redirect, fetched in four queries
inside one read transaction, so a crawler writing the same file at the same
time cannot show the summarizer half of an entry.  Bodies of image crawls are
not read (the exporter takes them from the crawl DB itself).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlalchemy import Engine

from unob.db import open_database
from unob.sqlitefile import tidy_after_reading
from unob.summarizer.crawlentry import (
    PAGE_CRAWL_TYPES,
    CrawlEntry,
    CrawlFile,
    CrawlRedirect,
    CrawlRequest,
)

__all__ = ["CrawlReader"]

_ENTRIES = """
SELECT e.crawl_log_entry_id, e.crawl_log_entry_uuid, a.agent_uuid, u.str_url, e.crawl_type,
       e.scheduling_reason, e.started_unix_utc, e.exit_code, e.message,
       (SELECT fc.size FROM file_info AS f JOIN file_content AS fc
        ON fc.file_content_id = f.file_content_id
        WHERE f.crawl_log_entry_id = e.crawl_log_entry_id) AS body_size
FROM crawl_log_entry AS e
JOIN agent AS a ON a.agent_id = e.agent_id
JOIN url AS u ON u.url_id = e.url_id
WHERE e.crawl_log_entry_id > ?
ORDER BY e.crawl_log_entry_id
LIMIT ?
"""

_REQUESTS = """
SELECT crawl_log_entry_id, sent_unix_utc, duration_ms, robotstxt_approved, http_status,
       http_etag, server_last_modified_unix_utc, content_type
FROM request_info
WHERE crawl_log_entry_id BETWEEN ? AND ?
ORDER BY request_info_id
"""

# CASE: image bodies are never loaded (SQLite reads a column only when used).
_FILES = f"""
SELECT f.crawl_log_entry_id, f.mime_type, f.charset, f.size, f.last_modified_unix_utc,
       cu.str_url, fc.sha256, fc.compression,
       CASE WHEN e.crawl_type IN {PAGE_CRAWL_TYPES} THEN fc.data END,
       f.depth, f.robots_noindex, f.robots_nofollow, fc.size
FROM file_info AS f
JOIN crawl_log_entry AS e ON e.crawl_log_entry_id = f.crawl_log_entry_id
LEFT JOIN url AS cu ON cu.url_id = f.canonical_url_id
LEFT JOIN file_content AS fc ON fc.file_content_id = f.file_content_id
WHERE f.crawl_log_entry_id BETWEEN ? AND ?
ORDER BY f.file_info_id
"""

_REDIRECTS = """
SELECT r.crawl_log_entry_id, tu.str_url, r.to_url_fragment, r.http_status, r.is_permanent,
       r.by_security_policy, r.information_source
FROM redirect AS r
JOIN url AS tu ON tu.url_id = r.to_url_id
WHERE r.crawl_log_entry_id BETWEEN ? AND ?
ORDER BY r.redirect_id
"""


class CrawlReader:
    """A crawl database opened read-only (kind and schema revision checked)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._engine: Engine = open_database(path, "crawl", readonly=True)
        raw = self._engine.raw_connection()
        self._raw = raw
        conn = raw.driver_connection
        assert isinstance(conn, sqlite3.Connection)
        # Autocommit mode: transactions are begun explicitly (one per batch).
        conn.isolation_level = None
        self._conn = conn
        row = conn.execute("SELECT value FROM database_info WHERE key='database_uuid'").fetchone()
        self.database_uuid = str(row[0])

    def close(self) -> None:
        self._raw.close()
        self._engine.dispose()
        tidy_after_reading(self.path)

    def __enter__(self) -> CrawlReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def count_after(self, entry_id: int) -> int:
        """How many entries follow ``entry_id`` (for progress)."""
        row = self._conn.execute(
            "SELECT count(*) FROM crawl_log_entry WHERE crawl_log_entry_id > ?", (entry_id,)
        ).fetchone()
        return int(row[0])

    def read_batch(
        self, after_id: int, limit: int, max_bytes: int | None = None
    ) -> list[CrawlEntry]:
        """The next ``limit`` entries after ``after_id``, whole, in id order.

        With ``max_bytes``, the batch also ends before its (uncompressed) page
        bodies exceed that size, so a batch of large pages holds as much memory
        as one of small pages (it always has at least one entry).  The cut
        depends only on the data, so reruns make the same batches.
        """
        conn = self._conn
        conn.execute("BEGIN")
        try:
            entries: list[CrawlEntry] = []
            total = 0
            for row in conn.execute(_ENTRIES, (after_id, limit)).fetchall():
                size = row[9] if row[4] in PAGE_CRAWL_TYPES and row[9] is not None else 0
                total += size
                if max_bytes is not None and entries and total > max_bytes:
                    break
                entries.append(CrawlEntry(*row[:9]))
            if not entries:
                return entries
            by_id = {e.entry_id: e for e in entries}
            span = (entries[0].entry_id, entries[-1].entry_id)
            for row in conn.execute(_REQUESTS, span):
                entry = by_id.get(row[0])
                if entry is None:
                    continue
                count = entry.request.count + 1 if entry.request is not None else 1
                entry.request = CrawlRequest(
                    sent_unix_utc=row[1],
                    duration_ms=row[2],
                    robotstxt_approved=bool(row[3]),
                    http_status=row[4],
                    http_etag=row[5],
                    server_last_modified_unix_utc=row[6],
                    content_type=row[7],
                    count=count,
                )
            for row in conn.execute(_FILES, span):
                entry = by_id.get(row[0])
                if entry is not None and entry.file is None:
                    entry.file = CrawlFile(
                        mime_type=row[1],
                        charset=row[2],
                        size=row[3],
                        last_modified_unix_utc=row[4],
                        canonical_url=row[5],
                        sha256=row[6],
                        compression=row[7],
                        data=row[8],
                        depth=row[9],
                        robots_noindex=bool(row[10]),
                        robots_nofollow=bool(row[11]),
                        body_size=row[12],
                    )
            for row in conn.execute(_REDIRECTS, span):
                entry = by_id.get(row[0])
                if entry is not None and entry.redirect is None:
                    entry.redirect = CrawlRedirect(
                        row[1], row[2], row[3], bool(row[4]), bool(row[5]), row[6]
                    )
            return entries
        finally:
            conn.execute("COMMIT")
