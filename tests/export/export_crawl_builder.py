"""Writes the parts of a crawl database an export reads: bodies, images, agents."""

from __future__ import annotations

import hashlib
import uuid
import zlib
from pathlib import Path
from typing import Any

from export_helpers import UrlIds
from sqlalchemy import Connection, insert

from unob.db import open_database
from unob.schema import crawl as c


class CrawlBuilder:
    """A crawl DB holding given HTML bodies and image files (one agent run)."""

    def __init__(self, path: Path, *, started: int = 1_780_000_000, finished: int | None = None):
        self.engine = open_database(path, "crawl")
        self.conn: Connection = self.engine.connect()
        self._url = UrlIds(
            lambda table, row: self.conn.execute(insert(c.metadata.tables[table]).values(**row))
        )
        self._entries = 0
        self._contents = 0
        self.conn.execute(
            insert(c.agent).values(
                agent_id=1,
                agent_uuid=str(uuid.uuid4()),
                name="test",
                time_started_unix_utc=started,
                time_finished_unix_utc=finished,
            )
        )
        self.started = started

    def __enter__(self) -> CrawlBuilder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.conn.commit()
        self.conn.close()
        self.engine.dispose()

    def _file(
        self, url: str, data: bytes, mime: str, crawl_type: int, compress: bool, at: int
    ) -> str:
        self._entries += 1
        entry: dict[str, Any] = {
            "crawl_log_entry_id": self._entries,
            "crawl_log_entry_uuid": str(uuid.uuid4()),
            "agent_id": 1,
            "url_id": self._url(url),
            "crawl_type": crawl_type,
            "scheduling_reason": 1,
            "started_unix_utc": at,
            "started_unix_ms": at * 1000,
            "exit_code": 20,
        }
        self.conn.execute(insert(c.crawl_log_entry).values(**entry))
        sha256 = hashlib.sha256(data).hexdigest()
        existing = self.conn.execute(
            c.file_content.select().where(c.file_content.c.sha256 == sha256)
        ).first()
        if existing is None:
            self._contents += 1
            content_id = self._contents
            self.conn.execute(
                insert(c.file_content).values(
                    file_content_id=content_id,
                    sha256=sha256,
                    size=len(data),
                    compression="zlib" if compress else "none",
                    data=zlib.compress(data) if compress else data,
                )
            )
        else:
            content_id = existing.file_content_id
        self.conn.execute(
            insert(c.file_info).values(
                crawl_log_entry_id=self._entries,
                url_id=self._url(url),
                mime_type=mime,
                file_content_id=content_id,
                robots_noindex=False,
                robots_nofollow=False,
            )
        )
        return sha256

    def html(self, url: str, body: bytes, *, compress: bool = True) -> str:
        """Store a page body; return its SHA-256 (the summary's content_sha256)."""
        return self._file(url, body, "text/html", 0, compress, self.started + self._entries)

    def image(self, url: str, data: bytes, mime: str = "image/png") -> str:
        return self._file(url, data, mime, 10, False, self.started + self._entries)
