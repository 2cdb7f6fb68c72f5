"""One streaming writer per export format, and the registry that names them.

A writer receives pages in batches (:meth:`Writer.write_batch`) and owns
its files inside the staging directory; :meth:`Writer.finish` closes them
and returns what was written.  Nothing here holds more than one batch of
pages (plus one body or image at a time) in memory.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Protocol

from .algolia import DEFAULT_MAX_RECORD_BYTES, INDEX_SETTINGS, algolia_records, serialize
from .bodies import BodySource
from .dataset import (
    IMAGES,
    MAX_REPORTED_ERRORS,
    PAGES,
    CrawlFacts,
    CrawlReport,
    page_row,
)
from .images import DEFAULT_MAX_DISTANCE, DEFAULT_MIN_SIZE, SeenSet
from .imagestore import ImageStore
from .manifest import write_manifest
from .rawhtml import RawHtmlWriter
from .readable import ReadableWriter
from .records import PageRecord
from .spideriment import Snippet, encode_row, snippet_from_html, snippet_from_text, spideriment_row
from .tables import TABLE_FORMATS, open_table

__all__ = [
    "FORMATS",
    "AlgoliaWriter",
    "DatasetWriter",
    "ExportOptions",
    "SpiderimentWriter",
    "Writer",
    "Written",
]


@dataclass(frozen=True, slots=True)
class ExportOptions:
    """Format options (the CLI flags of ``unob export``)."""

    raw_html: bool = True
    images: bool = True
    max_record_bytes: int = DEFAULT_MAX_RECORD_BYTES
    ndjson: bool = False
    min_image_size: int = DEFAULT_MIN_SIZE
    image_hash_distance: int = DEFAULT_MAX_DISTANCE


@dataclass(slots=True)
class Written:
    """What a writer produced."""

    pages: int = 0
    #: Rows of the main table / lines of the index / Algolia records.
    records: int = 0
    images: int = 0
    files: list[str] = field(default_factory=list)


class Writer(Protocol):
    def write_batch(self, pages: Sequence[PageRecord]) -> None: ...

    def finish(self, facts: Callable[[], CrawlFacts], created_at: datetime) -> Written:
        """Close every file; ``facts`` is called only by formats that report on the crawl."""
        ...

    def abort(self) -> None: ...


class SpiderimentWriter:
    """``web_index.csv``: one CSV-wrapped JSON object per page (seed 000)."""

    FILE = "web_index.csv"

    def __init__(self, root: Path, options: ExportOptions, bodies: BodySource) -> None:
        self.path = root / self.FILE
        self.bodies = bodies
        self.written = Written(files=[self.FILE])
        # ASCII: json.dumps escapes the rest.  newline="": the csv module
        # writes the reference's \r\n line ends itself.
        self._out = open(self.path, "w", encoding="ascii", newline="")  # noqa: SIM115

    def write_batch(self, pages: Sequence[PageRecord]) -> None:
        wanted = {p.raw_html_sha256 for p in pages if p.raw_html_sha256}
        charsets = {p.raw_html_sha256: p.charset for p in pages}
        snippets: dict[str, Snippet] = {}
        for body in self.bodies.html_bodies(wanted):
            snippets[body.sha256] = snippet_from_html(body.data, charsets.get(body.sha256) or None)
        for page in pages:
            snippet = snippets.get(page.raw_html_sha256) or snippet_from_text(page.text)
            self._out.write(encode_row(spideriment_row(page, snippet)))
        self.written.pages += len(pages)
        self.written.records += len(pages)

    def finish(self, facts: Callable[[], CrawlFacts], created_at: datetime) -> Written:
        self._out.close()
        return self.written

    def abort(self) -> None:
        self._out.close()


class AlgoliaWriter:
    """``records.json`` (a JSON array) or ``records.ndjson``, plus ``settings.json``."""

    def __init__(self, root: Path, options: ExportOptions, bodies: BodySource) -> None:
        self.options = options
        name = "records.ndjson" if options.ndjson else "records.json"
        self.written = Written(files=[name, "settings.json"])
        (root / "settings.json").write_text(json.dumps(INDEX_SETTINGS, indent=2) + "\n")
        self._out = open(root / name, "w", encoding="utf-8", newline="\n")  # noqa: SIM115
        if not options.ndjson:
            self._out.write("[")

    def write_batch(self, pages: Sequence[PageRecord]) -> None:
        for page in pages:
            for record in algolia_records(page, self.options.max_record_bytes):
                if self.options.ndjson:
                    self._out.write(serialize(record) + "\n")
                else:
                    # One record per line keeps the array greppable and diffable.
                    self._out.write(("," if self.written.records else "") + "\n")
                    self._out.write(serialize(record))
                self.written.records += 1
        self.written.pages += len(pages)

    def finish(self, facts: Callable[[], CrawlFacts], created_at: datetime) -> Written:
        if not self.options.ndjson:
            self._out.write("\n]\n" if self.written.records else "]\n")
        self._out.close()
        return self.written

    def abort(self) -> None:
        self._out.close()


class DatasetWriter:
    """The dataset directory of seed 001, its tables in Parquet, CSV or JSON Lines."""

    def __init__(
        self, root: Path, options: ExportOptions, bodies: BodySource, table_format: str
    ) -> None:
        self.root = root
        self.options = options
        self.bodies = bodies
        self.report = CrawlReport()
        self.written = Written()
        self._scratch_dir = tempfile.TemporaryDirectory(prefix="unob-export-")
        # Seen image URLs, image hashes and external links: on disk, not in memory.
        self._scratch = sqlite3.connect(Path(self._scratch_dir.name, "seen.db"))
        self._scratch.execute("PRAGMA journal_mode = OFF")
        self._scratch.execute("PRAGMA synchronous = OFF")
        self._external = SeenSet(self._scratch, "external_link")
        self._pages = open_table(table_format, root, PAGES)
        self._images = open_table(table_format, root, IMAGES)
        self._readable = ReadableWriter(root / "readable")
        self._raw = RawHtmlWriter(root) if options.raw_html else None
        self._image_store = ImageStore(
            root,
            self._scratch,
            bodies,
            download=options.images,
            min_size=options.min_image_size,
            max_distance=options.image_hash_distance,
        )

    def write_batch(self, pages: Sequence[PageRecord]) -> None:
        self._pages.write(page_row(page) for page in pages)
        for page in pages:
            self._readable.write(page)
        if self._raw is not None:
            self._write_raw(pages)
        image_rows = self._image_store.rows(pages)
        self._images.write(row.as_dict() for row in image_rows)
        external = [
            link.url
            for page in pages
            for link in page.links
            if link.locality == "out" and link.is_web
        ]
        self.report.external_links += sum(self._external.add_new(external))
        self.report.total_images += len(image_rows)
        self.report.total_pages += len(pages)
        self.written.pages += len(pages)
        self._scratch.commit()

    def _write_raw(self, pages: Sequence[PageRecord]) -> None:
        assert self._raw is not None
        by_hash: dict[str, list[PageRecord]] = {}
        for page in pages:
            if page.raw_html_sha256:
                by_hash.setdefault(page.raw_html_sha256, []).append(page)
        for body in self.bodies.html_bodies(by_hash.keys()):
            for page in by_hash.get(body.sha256, ()):
                self._raw.write(page, body.data)

    def _close(self) -> None:
        self._pages.close()
        self._images.close()
        self._readable.close()
        self._scratch.close()
        self._scratch_dir.cleanup()

    def finish(self, facts: Callable[[], CrawlFacts], created_at: datetime) -> Written:
        self._close()
        crawl = facts()
        self.report.failed_pages = crawl.failed_pages
        self.report.time_taken_seconds = crawl.time_taken_seconds
        self.report.errors = [
            {"url": url, "error": error} for url, error in crawl.errors[:MAX_REPORTED_ERRORS]
        ]
        report = json.dumps(self.report.as_dict(), indent=2, ensure_ascii=False)
        (self.root / "crawl_report.json").write_text(report + "\n", encoding="utf-8")
        write_manifest(self.root, created_at)
        self.written.records = self._pages.rows
        self.written.images = self._images.rows
        suffix = self._pages.path.suffix
        self.written.files = [f"pages{suffix}", f"images{suffix}", "crawl_report.json"]
        self.written.files += ["manifest.json", "readable/"]
        if self._raw is not None and self._raw.files:
            self.written.files.append("raw_html/")
        if self._image_store.files:
            self.written.files.append("images/")
        return self.written

    def abort(self) -> None:
        self._close()


WriterFactory = Callable[[Path, ExportOptions, BodySource], Writer]


def _dataset(table_format: str) -> WriterFactory:
    def make(root: Path, options: ExportOptions, bodies: BodySource) -> Writer:
        return DatasetWriter(root, options, bodies, table_format)

    return make


#: ``--format`` name -> writer factory.
FORMATS: dict[str, WriterFactory] = {
    **{name: _dataset(name) for name in TABLE_FORMATS},
    "spideriment": SpiderimentWriter,
    "algolia": AlgoliaWriter,
}
