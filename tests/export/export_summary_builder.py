"""Writes summary databases directly through the schema module, for tests and benches.

A real summary DB comes from ``unob crawl`` + ``unob summarize``; this builder
makes small, exact ones (every case the export must handle, in a few
milliseconds) and big synthetic ones (the export benchmark), with the same
tables and constraints, since it creates the file with the real migrations.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from export_helpers import UrlIds
from sqlalchemy import Connection, insert

from unob.db import open_database
from unob.schema import summary as s


@dataclass
class Page:
    """A page generation to write; defaults make a plain current page."""

    url: str
    title: str | None = "Title"
    description: str | None = None
    language: str | None = "en"
    keywords: Sequence[str] = ()
    author: str | None = None
    image: str | None = None
    category: str | None = None
    published: int | None = None
    modified: int | None = None
    primary_headline: str | None = None
    text: str = ""
    secondary_text: str = ""
    headings: Sequence[tuple[int, str, str | None]] = ()
    images: Sequence[tuple[str, str | None]] = ()
    #: (target url, text, kind, locality)
    links: Sequence[tuple[str, str, str, str]] = ()
    first_seen: int = 1_780_000_000
    last_seen: int | None = None
    closed_at: int | None = None
    duplicate_of: int | None = None
    noindex: bool = False
    sha256: str | None = None
    charset: str | None = "utf-8"
    size: int | None = 1000
    http_status: int = 200
    duration_ms: int = 15
    canonical: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class SummaryBuilder:
    """Inserts rows in bulk; call :meth:`flush` (or use as a context manager) to commit."""

    def __init__(self, path: Path, *, flush_every: int = 2000) -> None:
        self.engine = open_database(path, "summary")
        self.conn: Connection = self.engine.connect()
        self.flush_every = flush_every
        self.url_id = UrlIds(self._add)
        self._piles: dict[bytes, int] = {}
        self._rows: dict[str, list[dict[str, Any]]] = {}
        self._next_gid = 1
        self._next_crawl = 1
        self._pending_pages = 0
        self.conn.execute(
            insert(s.crawl_source).values(
                crawl_source_id=1,
                database_uuid=str(uuid.uuid4()),
                path="/synthetic/crawl.db",
                high_water_crawl_log_entry_id=0,
                entries_integrated=0,
                first_integrated_unix_utc=0,
                last_integrated_unix_utc=0,
            )
        )
        self.conn.commit()

    def __enter__(self) -> SummaryBuilder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.flush()
        self.conn.close()
        self.engine.dispose()

    def _add(self, table: str, row: dict[str, Any]) -> None:
        self._rows.setdefault(table, []).append(row)

    def _pile(self, page: Page) -> int | None:
        fields = (page.text, page.secondary_text, "", "", "", "")
        digest = hashlib.blake2b("\n\n\n".join(fields).encode(), digest_size=16).digest()
        if digest not in self._piles:
            self._piles[digest] = len(self._piles) + 1
            self._add(
                "text_pile",
                {
                    "text_pile_id": self._piles[digest],
                    "digest": digest,
                    "text": page.text,
                    "secondary_text": page.secondary_text,
                    "big_headlines": "\n".join(t for lv, t, _ in page.headings if lv <= 3),
                    "small_headlines": "\n".join(t for lv, t, _ in page.headings if lv > 3),
                    "code_text": "",
                    "quote_text": "",
                },
            )
        return self._piles[digest]

    def _generation(
        self,
        url: str,
        kind: str,
        first: int,
        last: int,
        closed: int | None,
        duplicate: bool,
        pile: int | None,
    ) -> int:
        gid = self._next_gid
        self._next_gid += 1
        self._add(
            "entity_generation",
            {
                "entity_generation_id": gid,
                "entity_generation_uuid": str(uuid.UUID(int=gid)),
                "url_id": self.url_id(url),
                "url_fragment": None,
                "kind": kind,
                "first_seen_unix_utc": first,
                "last_seen_unix_utc": last,
                "confirmed_end_unix_utc": closed,
                "marked_duplicate": duplicate,
                "text_pile_id": pile,
                "content_signature": hashlib.md5(f"{gid}".encode()).digest(),
            },
        )
        return gid

    def crawl(
        self,
        url: str,
        when: int,
        exit_code: int,
        *,
        gid: int | None = None,
        http_status: int | None = None,
        duration_ms: int | None = None,
        message: str | None = None,
        action: str = "attached",
    ) -> None:
        """A crawl_summary row (a page crawl)."""
        number = self._next_crawl
        self._next_crawl += 1
        self._add(
            "crawl_summary",
            {
                "crawl_summary_id": number,
                "entity_generation_id": gid,
                "crawl_uuid": str(uuid.UUID(int=(1 << 64) + number)),
                "crawl_source_id": 1,
                "crawl_log_entry_id": number,
                "url_id": self.url_id(url),
                "agent_uuid": "00000000-0000-0000-0000-000000000001",
                "crawl_type": 0,
                "scheduling_reason": 1,
                "time_started_unix_utc": when,
                "was_robotstxt_approved": True,
                "exit_code": exit_code,
                "message": message,
                "request_duration_ms": duration_ms,
                "request_count": 1,
                "time_last_modified_unix_utc": None,
                "http_status": http_status,
                "http_etag": None,
                "content_type": "text/html" if http_status == 200 else None,
                "summarizer_action": action,
            },
        )

    def page(self, page: Page) -> int:
        last = page.last_seen if page.last_seen is not None else page.first_seen
        gid = self._generation(
            page.url,
            "page",
            page.first_seen,
            last,
            page.closed_at,
            page.duplicate_of is not None,
            self._pile(page),
        )
        self.crawl(
            page.url,
            page.first_seen,
            20,
            gid=gid,
            http_status=page.http_status,
            duration_ms=page.duration_ms,
            action="new_generation",
        )
        if last != page.first_seen:
            self.crawl(
                page.url, last, 34, gid=gid, http_status=304, duration_ms=3, action="self_duplicate"
            )
        self._add(
            "document_description",
            {
                "entity_generation_id": gid,
                "title": page.title,
                "primary_headline": page.primary_headline,
                "description": page.description,
                "primary_language": page.language,
                "keywords": json.dumps(list(page.keywords)) if page.keywords else None,
                "author": page.author,
                "image": page.image,
                "category": page.category,
                "published_unix_utc": page.published,
                "modified_unix_utc": page.modified,
                "canonical_url": page.canonical,
                "word_count": len(page.text.split()),
                "indexiness": 0,
                "robots": "noindex" if page.noindex else None,
            },
        )
        self._add(
            "file_summary",
            {
                "entity_generation_id": gid,
                "mime_type": "text/html",
                "charset": page.charset,
                "file_size": page.size,
                "content_sha256": page.sha256,
                "last_modified_unix_utc": None,
                "canonical_url_id": self.url_id(page.canonical) if page.canonical else None,
                "depth": 1,
                "robots_noindex": page.noindex,
                "robots_nofollow": False,
                "link_count": len(page.links),
                "derive_error": None,
            },
        )
        for position, (level, text, anchor) in enumerate(page.headings):
            self._add(
                "heading",
                {
                    "entity_generation_id": gid,
                    "position": position,
                    "level": level,
                    "text": text,
                    "anchor": anchor,
                },
            )
        for position, (src, alt) in enumerate(page.images):
            self._add(
                "image",
                {
                    "entity_generation_id": gid,
                    "position": position,
                    "src": src,
                    "alt": alt,
                    "width": None,
                    "height": None,
                },
            )
        for position, (target, text, kind, locality) in enumerate(page.links):
            row: dict[str, Any] = dict(
                entity_generation_id=gid,
                position=position,
                to_url_id=self.url_id(target),
                to_url_fragment=None,
                text=text,
                kind=kind,
                locality=locality,
                rel=None,
                flags=0,  # no rel or location flag (the flag columns are computed from it)
            )
            self._add("link_summary", row)
        if page.duplicate_of is not None:
            self._add(
                "duplicate_summary",
                {
                    "subject_entity_generation_id": gid,
                    "original_entity_generation_id": page.duplicate_of,
                    "detected_unix_utc": page.first_seen,
                    "ended_unix_utc": None,
                },
            )
        self._pending_pages += 1
        if self._pending_pages >= self.flush_every:
            self.flush()
        return gid

    def redirect(self, source: str, target: str, when: int, *, closed: int | None = None) -> int:
        gid = self._generation(source, "redirect", when, when, closed, False, None)
        self.crawl(
            source, when, 31, gid=gid, http_status=301, duration_ms=2, action="new_generation"
        )
        self._add(
            "redirect_summary",
            {
                "entity_generation_id": gid,
                "to_url_id": self.url_id(target),
                "to_url_fragment": None,
                "http_status": 301,
                "is_permanent": True,
                "by_security_policy": False,
                "information_source": 1,
            },
        )
        return gid

    def flush(self) -> None:
        order = [
            "origin",
            "url",
            "text_pile",
            "entity_generation",
            "crawl_summary",
            "document_description",
            "file_summary",
            "heading",
            "image",
            "link_summary",
            "redirect_summary",
            "duplicate_summary",
        ]
        for name in order:
            rows = self._rows.pop(name, None)
            if rows:
                self.conn.execute(insert(s.metadata.tables[name]), rows)
        self.conn.commit()
        self._pending_pages = 0
