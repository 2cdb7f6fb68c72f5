"""The summary database side of the pipeline: batch-sized reads and bulk writes.

:class:`SummaryStore` owns one :mod:`sqlite3` connection in autocommit mode
and runs each batch in one explicit ``BEGIN IMMEDIATE`` ... ``COMMIT``: the
write lock is taken before the batch reads anything it decides on, so a
second ``unob summarize`` on the same file waits (or fails cleanly) instead
of interleaving, and a kill -9 leaves either the whole batch with its
high-water mark, or nothing of it.

Every method works on a whole batch: a handful of statements each, ``IN``
lists in chunks and ``executemany`` inserts, never one query per row.  New
row ids are assigned here (``max(id) + 1 ...``, safe under the write lock) so
rows can reference each other without reading ids back.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from sqlalchemy import Engine

from unob.db import open_database
from unob.errors import DatabaseError
from unob.summarizer.document import TextPile
from unob.summarizer.generations import CurrentDuplicate, DuplicateMember, DuplicatePlan

__all__ = ["LINK_TARGET_INDEX", "LINK_TARGET_INDEX_SQL", "OpenRow", "SummaryStore"]

K = TypeVar("K", str, bytes)

_CHUNK = 900  # host parameters per IN list (well under SQLite's limits)
_URL_CACHE_SIZE = 100_000  # str_url -> url_id entries kept between batches (~15 MB)

#: The index behind backlink queries, the one a bulk run builds at its end
#: instead of row by row (``SummaryStore.ensure_link_target_index``).  Its
#: DDL is the schema's own (a test compares it with a migrated database).
LINK_TARGET_INDEX = "ix_link_summary_to_url_id"
LINK_TARGET_INDEX_SQL = f"CREATE INDEX {LINK_TARGET_INDEX} ON link_summary (to_url_id)"


def _chunks(items: Sequence[Any], size: int = _CHUNK) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _marks(n: int) -> str:
    return ",".join("?" * n)


def origin_of_canonical(url: str) -> str:
    """``scheme://host[:port]`` of a canonical URL (user info dropped)."""
    scheme, _, rest = url.partition("://")
    netloc = rest.split("/", 1)[0].split("?", 1)[0]
    return f"{scheme}://{netloc.rpartition('@')[2]}"


@dataclass(frozen=True, slots=True)
class OpenRow:
    """An open generation as stored, with what duplicate bookkeeping needs."""

    generation_id: int
    url_id: int
    first_seen: int
    last_seen: int
    signature: bytes
    text_pile_id: int | None


class SummaryStore:
    """A summary database opened for writing (created and migrated if needed)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._engine: Engine = open_database(path, "summary")
        raw = self._engine.raw_connection()
        self._raw = raw
        conn = raw.driver_connection
        assert isinstance(conn, sqlite3.Connection)
        conn.isolation_level = None  # explicit BEGIN IMMEDIATE / COMMIT per batch
        # A bigger page cache keeps the hot parts of the url and text_pile
        # indexes in memory across batches (32 MiB; SQLite's default is 2 MiB).
        conn.execute("PRAGMA cache_size=-32768")
        conn.execute("PRAGMA temp_store=MEMORY")
        # No foreign-key enforcement on this connection (unob.db turns it on for
        # every other one): with it, SQLite looks up the parent rows of every
        # row inserted, e.g. the entity_generation and url of each of
        # python3-doc's 317 link rows a page, which cost 1.15 million
        # instructions a page (1.8% of a whole summarize, deriving included;
        # writer wall time: 0.4 ms a page less on average over 10 alternating
        # runs on a loaded machine, 7 of them faster).  The references hold by
        # construction: this class hands out every id it writes, under the
        # write lock, in the same transaction as the rows that point at it, and
        # the schema has no ON DELETE actions that enforcement would run.  A test summarizes the
        # test crawls and requires an empty `PRAGMA foreign_key_check`
        # (tests/summarizer/test_foreign_keys.py).  Set outside a transaction:
        # SQLite ignores the pragma inside one.
        conn.execute("PRAGMA foreign_keys=OFF")
        self.conn = conn
        self._url_ids: dict[str, int] = {}
        self._origin_ids: dict[str, int] = {}
        self._pending_urls: dict[str, int] = {}
        self._pending_origins: dict[str, int] = {}

    def close(self) -> None:
        self._raw.close()
        self._engine.dispose()

    # --- transactions ---------------------------------------------------------

    def begin(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def commit(self) -> None:
        self.conn.execute("COMMIT")
        # Ids handed out in the batch are now durable: cache them.
        if len(self._url_ids) + len(self._pending_urls) > _URL_CACHE_SIZE:
            self._url_ids.clear()
        self._url_ids.update(self._pending_urls)
        self._origin_ids.update(self._pending_origins)
        self._pending_urls.clear()
        self._pending_origins.clear()

    def rollback(self) -> None:
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")
        self._pending_urls.clear()
        self._pending_origins.clear()

    # --- sources and the high-water mark -------------------------------------

    def source(self, database_uuid: str, path: Path) -> tuple[int, int]:
        """``(crawl_source_id, high-water mark)`` of a crawl DB, registering it if new."""
        now = int(time.time())
        self.begin()
        try:
            row = self.conn.execute(
                "SELECT crawl_source_id, high_water_crawl_log_entry_id FROM crawl_source "
                "WHERE database_uuid = ?",
                (database_uuid,),
            ).fetchone()
            if row is None:
                cursor = self.conn.execute(
                    "INSERT INTO crawl_source (database_uuid, path, high_water_crawl_log_entry_id,"
                    " entries_integrated, first_integrated_unix_utc, last_integrated_unix_utc) "
                    "VALUES (?, ?, 0, 0, ?, ?)",
                    (database_uuid, str(path.resolve()), now, now),
                )
                result = (int(cursor.lastrowid or 0), 0)
            else:
                self.conn.execute(
                    "UPDATE crawl_source SET path = ? WHERE crawl_source_id = ?",
                    (str(path.resolve()), row[0]),
                )
                result = (int(row[0]), int(row[1]))
            self.commit()
        except BaseException:
            self.rollback()
            raise
        return result

    def check_mark(self, source_id: int, expected: int) -> None:
        """Fail if another summarizer moved the mark since this one read it."""
        row = self.conn.execute(
            "SELECT high_water_crawl_log_entry_id FROM crawl_source WHERE crawl_source_id = ?",
            (source_id,),
        ).fetchone()
        if row is None or int(row[0]) != expected:
            raise DatabaseError(
                f"{self.path}: another unob summarize is writing this summary database"
            )

    def set_mark(self, source_id: int, mark: int, entries: int) -> None:
        self.conn.execute(
            "UPDATE crawl_source SET high_water_crawl_log_entry_id = ?, "
            "entries_integrated = entries_integrated + ?, last_integrated_unix_utc = ? "
            "WHERE crawl_source_id = ?",
            (mark, entries, int(time.time()), source_id),
        )

    # --- lookups --------------------------------------------------------------

    def existing_crawl_uuids(self, uuids: Sequence[str]) -> set[str]:
        found: set[str] = set()
        for chunk in _chunks(uuids):
            found.update(
                row[0]
                for row in self.conn.execute(
                    "SELECT crawl_uuid FROM crawl_summary "
                    f"WHERE crawl_uuid IN ({_marks(len(chunk))})",
                    chunk,
                )
            )
        return found

    def _next_id(self, table: str, column: str) -> int:
        row = self.conn.execute(f"SELECT max({column}) FROM {table}").fetchone()
        return int(row[0] or 0) + 1

    def _intern(
        self,
        table: str,
        key_column: str,
        keys: Iterable[K],
        cached: Callable[[K], int | None],
        new_rows: Callable[[list[tuple[int, K]]], list[tuple[Any, ...]]],
        columns: Sequence[str],
    ) -> dict[K, int]:
        """``key -> id`` of rows keyed by a unique column, inserting the missing ones.

        ``cached`` answers from memory where it can; one ``IN`` query per chunk
        finds stored keys; the rest get new ids (``max(id) + 1``, in key order,
        safe under the write lock) and are inserted with ``new_rows``' rows,
        whose first two columns are the id and the key.
        """
        id_column = f"{table}_id"
        result: dict[K, int] = {}
        missing: list[K] = []
        for key in set(keys):
            known = cached(key)
            if known is not None:
                result[key] = known
            else:
                missing.append(key)
        for chunk in _chunks(missing):
            for row_id, key in self.conn.execute(
                f"SELECT {id_column}, {key_column} FROM {table} "
                f"WHERE {key_column} IN ({_marks(len(chunk))})",
                chunk,
            ):
                result[key] = row_id
        new = sorted(k for k in missing if k not in result)
        if new:
            next_id = self._next_id(table, id_column)
            numbered = [(next_id + offset, key) for offset, key in enumerate(new)]
            result.update((key, row_id) for row_id, key in numbered)
            self.conn.executemany(
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({_marks(len(columns))})",
                new_rows(numbered),
            )
        return result

    def _origin_ids_for(self, origins: Iterable[str]) -> dict[str, int]:
        def rows(numbered: list[tuple[int, str]]) -> list[tuple[Any, ...]]:
            out = []
            for origin_id, str_origin in numbered:
                parts = urlsplit(str_origin)
                out.append((origin_id, str_origin, parts.scheme, parts.hostname or "", parts.port))
            return out

        result = self._intern(
            "origin",
            "str_origin",
            origins,
            lambda key: self._origin_ids.get(key) or self._pending_origins.get(key),
            rows,
            ("origin_id", "str_origin", "scheme", "host", "port"),
        )
        self._pending_origins.update(result)
        return result

    def url_ids(self, urls: Iterable[str]) -> dict[str, int]:
        """``str_url -> url_id`` for canonical URLs, inserting the missing ones."""

        def rows(numbered: list[tuple[int, str]]) -> list[tuple[Any, ...]]:
            origins = self._origin_ids_for({origin_of_canonical(u) for _, u in numbered})
            return [(i, u, origins[origin_of_canonical(u)]) for i, u in numbered]

        result = self._intern(
            "url",
            "str_url",
            urls,
            lambda key: self._url_ids.get(key) or self._pending_urls.get(key),
            rows,
            ("url_id", "str_url", "origin_id"),
        )
        self._pending_urls.update(result)
        return result

    def open_generations(self, url_ids: Iterable[int]) -> dict[int, OpenRow]:
        """The open (whole-document) generation of each URL that has one."""
        result: dict[int, OpenRow] = {}
        for chunk in _chunks(sorted(set(url_ids))):
            for row in self.conn.execute(
                "SELECT entity_generation_id, url_id, first_seen_unix_utc, last_seen_unix_utc, "
                "content_signature, text_pile_id FROM entity_generation "
                f"WHERE url_id IN ({_marks(len(chunk))}) "
                "AND confirmed_end_unix_utc IS NULL AND url_fragment IS NULL",
                chunk,
            ):
                result[row[1]] = OpenRow(*row)
        return result

    def text_pile_ids(self, piles: dict[bytes, TextPile]) -> dict[bytes, int]:
        """``digest -> text_pile_id``, storing the piles not stored yet (once per digest)."""

        def rows(numbered: list[tuple[int, bytes]]) -> list[tuple[Any, ...]]:
            return [
                (
                    pile_id,
                    digest,
                    piles[digest].text,
                    piles[digest].secondary_text,
                    piles[digest].big_headlines,
                    piles[digest].small_headlines,
                    piles[digest].code_text,
                    piles[digest].quote_text,
                )
                for pile_id, digest in numbered
            ]

        return self._intern(
            "text_pile",
            "digest",
            piles,
            lambda _: None,
            rows,
            (
                "text_pile_id",
                "digest",
                "text",
                "secondary_text",
                "big_headlines",
                "small_headlines",
                "code_text",
                "quote_text",
            ),
        )

    def next_generation_id(self) -> int:
        return self._next_id("entity_generation", "entity_generation_id")

    # --- bulk writes ----------------------------------------------------------

    def insert(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            self.conn.executemany(
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({_marks(len(columns))})",
                rows,
            )

    def update_generation_times(self, rows: Sequence[tuple[int, int, int | None, int]]) -> None:
        """``(first_seen, last_seen, confirmed_end, id)`` rows."""
        if rows:
            self.conn.executemany(
                "UPDATE entity_generation SET first_seen_unix_utc = ?, last_seen_unix_utc = ?, "
                "confirmed_end_unix_utc = ? WHERE entity_generation_id = ?",
                rows,
            )

    # --- exact duplicates -----------------------------------------------------

    def nonempty_piles(self, pile_ids: Iterable[int]) -> set[int]:
        """The piles among ``pile_ids`` with main text (empty ones never form groups)."""
        found: set[int] = set()
        for chunk in _chunks(sorted(set(pile_ids))):
            found.update(
                row[0]
                for row in self.conn.execute(
                    f"SELECT text_pile_id FROM text_pile WHERE text_pile_id IN "
                    f"({_marks(len(chunk))}) AND text <> ''",
                    chunk,
                )
            )
        return found

    def duplicate_groups(
        self, pile_ids: Iterable[int]
    ) -> dict[tuple[int, int], list[DuplicateMember]]:
        """Open generations with these piles, grouped by ``(origin_id, text_pile_id)``."""
        groups: dict[tuple[int, int], list[DuplicateMember]] = {}
        for chunk in _chunks(sorted(set(pile_ids))):
            for gid, pile_id, origin_id, str_url, first_seen, marked in self.conn.execute(
                "SELECT eg.entity_generation_id, eg.text_pile_id, u.origin_id, u.str_url, "
                "eg.first_seen_unix_utc, eg.marked_duplicate "
                "FROM entity_generation AS eg JOIN url AS u ON u.url_id = eg.url_id "
                f"WHERE eg.text_pile_id IN ({_marks(len(chunk))}) "
                "AND eg.confirmed_end_unix_utc IS NULL",
                chunk,
            ):
                member = DuplicateMember(gid, str_url, first_seen, bool(marked))
                groups.setdefault((origin_id, pile_id), []).append(member)
        return groups

    def current_duplicates(self, generation_ids: Iterable[int]) -> list[CurrentDuplicate]:
        """Still-holding duplicate rows whose subject or original is among the ids."""
        found: dict[int, CurrentDuplicate] = {}
        ids = sorted(set(generation_ids))
        for chunk in _chunks(ids, _CHUNK // 2):
            marks = _marks(len(chunk))
            for row in self.conn.execute(
                "SELECT duplicate_summary_id, subject_entity_generation_id, "
                "original_entity_generation_id, detected_unix_utc FROM duplicate_summary "
                f"WHERE ended_unix_utc IS NULL AND (subject_entity_generation_id IN ({marks}) "
                f"OR original_entity_generation_id IN ({marks}))",
                [*chunk, *chunk],
            ):
                found[row[0]] = CurrentDuplicate(*row)
        return [found[k] for k in sorted(found)]

    def apply_duplicates(self, plan: DuplicatePlan) -> None:
        self.conn.executemany(
            "UPDATE duplicate_summary SET ended_unix_utc = ? WHERE duplicate_summary_id = ?",
            [(ended, dup_id) for dup_id, ended in sorted(plan.end.items())],
        )
        self.insert(
            "duplicate_summary",
            ("subject_entity_generation_id", "original_entity_generation_id", "detected_unix_utc"),
            sorted(plan.start),
        )
        self.conn.executemany(
            "UPDATE entity_generation SET marked_duplicate = ? WHERE entity_generation_id = ?",
            [(mark, gid) for gid, mark in sorted(plan.marks.items())],
        )

    # --- the link-target index in bulk runs (docs/summarizer.md, "Bulk runs") --

    def crawl_summary_count(self) -> int:
        """How many crawl summaries are stored: the highest id, as rows are never
        deleted (a count(*) would read the whole table on every run)."""
        row = self.conn.execute("SELECT max(crawl_summary_id) FROM crawl_summary").fetchone()
        return int(row[0] or 0)

    def has_link_target_index(self) -> bool:
        row = self.conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?",
            (LINK_TARGET_INDEX,),
        ).fetchone()
        return row is not None

    def drop_link_target_index(self) -> None:
        """Drop the index (its own transaction): a bulk run builds it once at its end."""
        self.conn.execute(f"DROP INDEX IF EXISTS {LINK_TARGET_INDEX}")

    def ensure_link_target_index(self) -> bool:
        """Build the index if it is missing (its own transaction); True if it was."""
        if self.has_link_target_index():
            return False
        # The sort behind CREATE INDEX goes to temporary files, not memory:
        # with temp_store=MEMORY it would hold every link row's key at once
        # (100 MB at 50,000 news pages), and memory must not grow with the DB.
        self.conn.execute("PRAGMA temp_store=FILE")
        try:
            # IF NOT EXISTS: a second summarizer may have built it since the
            # check above (SQLite stores the statement without those words).
            self.conn.execute(
                LINK_TARGET_INDEX_SQL.replace("CREATE INDEX", "CREATE INDEX IF NOT EXISTS", 1)
            )
        finally:
            self.conn.execute("PRAGMA temp_store=MEMORY")
        return True
