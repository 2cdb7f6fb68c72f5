"""Bodies and crawl times from crawl databases, opened read-only.

A summary database may be fed by several crawl databases (DESIGN.md §1);
a body or image is taken from the first one, in the order given, that has
it.  Bodies are stored once per SHA-256 in ``file_content``, compressed as
its ``compression`` column says.
"""

from __future__ import annotations

import heapq
from collections.abc import Collection, Iterator, Sequence
from pathlib import Path
from typing import Any

from .. import bodycodec
from ..errors import DatabaseError
from .bodies import Body, StoredImage
from .readonly import ReadOnlyDb

__all__ = ["CrawlSources"]

_CHUNK = 400  # host parameters per statement, well under SQLite's limit


def _decompress(compression: str, data: bytes, size: int, where: str) -> bytes:
    try:
        return bodycodec.decompress(compression, data, size)
    except bodycodec.BodyDecodeError as exc:
        raise DatabaseError(f"{where}: {exc}") from exc


class CrawlSources:
    """Read access to the bodies kept by one or more crawl databases."""

    def __init__(self, paths: Sequence[Path]) -> None:
        self._dbs: list[ReadOnlyDb] = []
        try:
            for path in paths:
                self._dbs.append(ReadOnlyDb(Path(path), "crawl"))
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        for db in self._dbs:
            db.close()
        self._dbs = []

    def __enter__(self) -> CrawlSources:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def html_bodies(self, sha256s: Collection[str]) -> Iterator[Body]:
        """Stored bodies by SHA-256, one row in memory at a time."""
        missing = sorted(set(sha256s))
        for db in self._dbs:
            if not missing:
                return
            found: set[str] = set()
            for start in range(0, len(missing), _CHUNK):
                chunk = missing[start : start + _CHUNK]
                sql = (
                    "SELECT sha256, compression, data, size FROM file_content "
                    f"WHERE sha256 IN ({','.join('?' * len(chunk))})"
                )
                for sha256, compression, data, size in db.query(sql, chunk):
                    found.add(sha256)
                    yield Body(sha256, _decompress(compression, data, size, str(db.path)))
            missing = [sha for sha in missing if sha not in found]

    def images(self, urls: Sequence[str]) -> Iterator[StoredImage]:
        """Stored image files of ``urls``, in the order of ``urls``.

        Each database streams its matches in that order (a numbered VALUES
        list joined in SQL); the streams are merged on the position, and a
        position found in several databases is taken from the first.
        """
        if not urls:
            return
        streams = [self._images_in(index, db, urls) for index, db in enumerate(self._dbs)]
        last = -1
        for position, _, image in heapq.merge(*streams, key=lambda item: (item[0], item[1])):
            if position != last:
                last = position
                yield image

    def _images_in(
        self, index: int, db: ReadOnlyDb, urls: Sequence[str]
    ) -> Iterator[tuple[int, int, StoredImage]]:
        for start in range(0, len(urls), _CHUNK):
            chunk = urls[start : start + _CHUNK]
            values = ",".join("(?, ?)" for _ in chunk)
            params: list[Any] = []
            for offset, url in enumerate(chunk):
                params += [start + offset, url]
            # The latest stored file of each URL (a recrawl may have replaced it).
            sql = f"""
            WITH wanted(pos, str_url) AS (VALUES {values})
            SELECT w.pos, u.str_url, fi.mime_type, fc.compression, fc.data, fc.size
            FROM wanted AS w
            JOIN url AS u ON u.str_url = w.str_url
            JOIN file_info AS fi ON fi.file_info_id = (
                SELECT max(f2.file_info_id) FROM file_info AS f2
                WHERE f2.url_id = u.url_id AND f2.file_content_id IS NOT NULL
            )
            JOIN file_content AS fc ON fc.file_content_id = fi.file_content_id
            ORDER BY w.pos
            """
            for pos, url, mime, compression, data, size in db.query(sql, params):
                body = _decompress(compression, data, size, str(db.path))
                image = StoredImage(url, body, mime or "")
                yield pos, index, image

    def time_taken_seconds(self) -> float | None:
        """Total time the crawler runs (agents) spent crawling; None without databases.

        Per run: from its first crawl's start to the end of its last one, in
        milliseconds; a run without crawls counts from its start to its
        finish (or zero if it was killed).
        """
        if not self._dbs:
            return None
        total_ms = 0
        for db in self._dbs:
            sql = """
            SELECT a.time_started_unix_utc * 1000,
                   coalesce(a.time_finished_unix_utc, a.time_started_unix_utc) * 1000,
                   min(e.started_unix_ms),
                   max(e.started_unix_ms + coalesce(e.time_taken_ms, 0))
            FROM agent AS a LEFT JOIN crawl_log_entry AS e ON e.agent_id = a.agent_id
            GROUP BY a.agent_id
            """
            for started, finished, first, last in db.query(sql):
                total_ms += max(0, last - first) if first is not None else finished - started
        return total_ms / 1000
