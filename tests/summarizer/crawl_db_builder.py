"""Write crawl databases for summarizer tests, row by row as ``unob crawl`` does.

Each :meth:`CrawlDbBuilder.add` writes one whole entry in one transaction:
``crawl_log_entry`` + ``request_info`` (+ ``file_info`` / ``file_content`` /
``redirect``), following ``unob.schema.crawl`` (bodies compressed by
:mod:`unob.bodycodec`, or zlib as older unob did with ``legacy_zlib``, and
stored once per SHA-256, URLs canonical, times in seconds and ms).
"""

from __future__ import annotations

import hashlib
import sqlite3
import uuid
import zlib
from pathlib import Path
from urllib.parse import urlsplit

from unob import bodycodec
from unob.codes import CrawlType, ExitCode, InformationSource, SchedulingReason
from unob.db import open_database
from unob.urls import canonicalize, origin_of

_STATUS_EXIT = {
    200: ExitCode.FILE_INGESTED,
    304: ExitCode.FILE_DID_NOT_CHANGE,
    404: ExitCode.FILE_NOT_FOUND,
    410: ExitCode.FILE_GONE,
    500: ExitCode.SERVER_INTERNAL_ERROR,
    301: ExitCode.PERMANENT_REDIRECT,
    302: ExitCode.REDIRECT,
}


def page(title: str, body: str, *, links: tuple[str, ...] = (), lang: str = "en") -> bytes:
    """A small, well-formed article page."""
    anchors = "".join(f'<li><a href="{href}">{href}</a></li>' for href in links)
    return (
        f'<!doctype html><html lang="{lang}"><head><title>{title}</title>'
        f'<meta name="description" content="About {title}"></head><body>'
        f'<nav><ul><li><a href="/">Home</a></li>{anchors}</ul></nav>'
        f"<main><article><h1>{title}</h1><p>{body}</p></article></main>"
        "<footer>Footer text</footer></body></html>"
    ).encode()


class CrawlDbBuilder:
    """A crawl DB being written by a pretend crawler run (one agent)."""

    def __init__(self, path: Path, *, agent_name: str = "test", legacy_zlib: bool = False) -> None:
        self.path = path
        self.legacy_zlib = legacy_zlib
        engine = open_database(path, "crawl")
        engine.dispose()
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("PRAGMA foreign_keys=ON")
        # Tests need no durability against power loss; fsyncs would dominate.
        self.conn.execute("PRAGMA synchronous=OFF")
        self.agent_uuid = str(uuid.uuid4())
        cur = self.conn.execute(
            "INSERT INTO agent (agent_uuid, name, http_user_agent, time_started_unix_utc) "
            "VALUES (?, ?, 'unob-test', 0)",
            (self.agent_uuid, agent_name),
        )
        self.agent_id = int(cur.lastrowid or 0)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> CrawlDbBuilder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _origin_id(self, url: str) -> int:
        str_origin = origin_of(url)
        assert str_origin is not None, url
        row = self.conn.execute(
            "SELECT origin_id FROM origin WHERE str_origin=?", (str_origin,)
        ).fetchone()
        if row:
            return int(row[0])
        parts = urlsplit(str_origin)
        cur = self.conn.execute(
            "INSERT INTO origin (scheme, host, port, str_origin) VALUES (?,?,?,?)",
            (parts.scheme, parts.hostname, parts.port, str_origin),
        )
        return int(cur.lastrowid or 0)

    def url_id(self, url: str) -> int:
        canonical = canonicalize(url)
        assert canonical is not None, url
        row = self.conn.execute("SELECT url_id FROM url WHERE str_url=?", (canonical,)).fetchone()
        if row:
            return int(row[0])
        cur = self.conn.execute(
            "INSERT INTO url (origin_id, str_url) VALUES (?,?)",
            (self._origin_id(canonical), canonical),
        )
        return int(cur.lastrowid or 0)

    def _content_id(self, body: bytes) -> int:
        digest = hashlib.sha256(body).hexdigest()
        row = self.conn.execute(
            "SELECT file_content_id FROM file_content WHERE sha256=?", (digest,)
        ).fetchone()
        if row:
            return int(row[0])
        if self.legacy_zlib:
            codec, data = "zlib", zlib.compress(body)
        else:
            codec, data = bodycodec.compress(body)
        cur = self.conn.execute(
            "INSERT INTO file_content (sha256, size, compression, data) VALUES (?,?,?,?)",
            (digest, len(body), codec, data),
        )
        return int(cur.lastrowid or 0)

    def add(
        self,
        url: str,
        *,
        at: int,
        status: int | None = 200,
        body: bytes | None = None,
        mime: str | None = "text/html",
        charset: str | None = "utf-8",
        exit_code: ExitCode | None = None,
        crawl_type: CrawlType = CrawlType.FILE_CRAWL,
        redirect_to: str | None = None,
        noindex: bool = False,
        store_body: bool = True,
        retries: int = 0,
    ) -> str:
        """One entry crawled at Unix second ``at``; returns its uuid.

        ``status=None`` is a connection failure (no HTTP answer).
        """
        code = exit_code
        if code is None:
            code = ExitCode.CONNECTION_FAILED if status is None else _STATUS_EXIT[status]
        if noindex and code == ExitCode.FILE_INGESTED:
            code = ExitCode.NOINDEX
        entry_uuid = str(uuid.uuid4())
        url_id = self.url_id(url)
        conn = self.conn
        conn.execute("BEGIN")
        cur = conn.execute(
            "INSERT INTO crawl_log_entry (crawl_log_entry_uuid, agent_id, url_id, crawl_type, "
            "scheduling_reason, started_unix_utc, started_unix_ms, time_taken_ms, exit_code, "
            "message, depth) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (
                entry_uuid,
                self.agent_id,
                url_id,
                int(crawl_type),
                int(SchedulingReason.EXPLORE),
                at,
                at * 1000,
                12,
                int(code),
                None if status is not None else "connection refused",
                1,
            ),
        )
        entry_id = int(cur.lastrowid or 0)
        request_id = None
        for attempt in range(retries + 1):
            cur = conn.execute(
                "INSERT INTO request_info (crawl_log_entry_id, url_id, sent_unix_utc, "
                "sent_unix_ms, duration_ms, robotstxt_approved, is_retry, http_status, http_etag,"
                " server_last_modified_unix_utc, content_type, exit_code) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    entry_id,
                    url_id,
                    at,
                    at * 1000,
                    None if status is None else 7,
                    True,
                    attempt > 0,
                    status,
                    None if status is None else f'"etag-{at}"',
                    None,
                    None if status is None or mime is None else f"{mime}; charset={charset}",
                    int(code),
                ),
            )
            request_id = int(cur.lastrowid or 0)
        if body is not None or code == ExitCode.FILE_OF_UNKNOWN_TYPE:
            content_id = self._content_id(body) if body is not None and store_body else None
            conn.execute(
                "INSERT INTO file_info (crawl_log_entry_id, request_info_id, url_id, mime_type, "
                "charset, size, last_modified_unix_utc, canonical_url_id, file_content_id, "
                "depth, robots_noindex, robots_nofollow, links_found) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    entry_id,
                    request_id,
                    url_id,
                    mime,
                    charset,
                    None if body is None else len(body),
                    None,
                    None,
                    content_id,
                    1,
                    noindex,
                    False,
                    0,
                ),
            )
        if redirect_to is not None:
            target, _, fragment = redirect_to.partition("#")
            conn.execute(
                "INSERT INTO redirect (crawl_log_entry_id, request_info_id, url_id, to_url_id, "
                "to_url_fragment, http_status, is_permanent, by_security_policy, "
                "information_source) VALUES (?,?,?,?,?,?,?,?,?)",
                (
                    entry_id,
                    request_id,
                    url_id,
                    self.url_id(target),
                    fragment or None,
                    status,
                    status in (301, 308),
                    False,
                    int(InformationSource.RESPONSE_HEADER),
                ),
            )
        conn.execute("COMMIT")
        return entry_uuid
