"""Rows of the dataset export (seed 001): the ``pages`` and ``images`` tables.

Column names, order and types are the seed's exactly; Arrow ``string`` for
its "string" and ``int64`` for "integer".  Decisions where the seed is
silent (reference/export-formats.md §C.2):

* ``url`` is the page's URL in unob's canonical form (the final URL of the
  crawl; ``<link rel=canonical>`` is not substituted: two pages naming one
  canonical would get one ``url``).
* ``headings`` lists h1-h6 in **document order** (the reference code sorted
  by level, which loses the structure); JSON with non-ASCII kept.
* ``content`` is the text pile's main content, one line per block, falling
  back to the page's other text when no main content was found.
* ``crawl_date`` is ``YYYY-MM-DDTHH:MM:SSZ`` (ISO 8601 UTC; the database
  keeps whole seconds).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .records import PageRecord
from .text import iso_utc

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = [
    "IMAGES",
    "MAX_REPORTED_ERRORS",
    "PAGES",
    "CrawlFacts",
    "CrawlReport",
    "ImageRow",
    "TableSpec",
    "page_row",
]


@dataclass(frozen=True, slots=True)
class TableSpec:
    """A dataset table: file name stem and (column, Arrow type name) in order."""

    name: str
    columns: tuple[tuple[str, str], ...]

    @property
    def names(self) -> list[str]:
        return [column for column, _ in self.columns]

    def arrow_schema(self) -> pa.Schema:
        """The Arrow schema (pyarrow is imported only by formats that need it)."""
        import pyarrow as pa

        return pa.schema([pa.field(name, getattr(pa, kind)()) for name, kind in self.columns])


PAGES = TableSpec(
    "pages",
    (
        ("url", "string"),
        ("title", "string"),
        ("headings", "string"),
        ("content", "string"),
        ("meta_description", "string"),
        ("crawl_date", "string"),
        ("word_count", "int64"),
    ),
)

IMAGES = TableSpec(
    "images",
    (
        ("image_path", "string"),
        ("source_page", "string"),
        ("alt_text", "string"),
        ("image_url", "string"),
    ),
)


def page_row(page: PageRecord) -> dict[str, Any]:
    """One ``pages`` row."""
    content = page.content
    headings = [{"level": h.level, "text": h.text} for h in page.headings]
    return {
        "url": page.url,
        "title": page.title_or_h1,
        "headings": json.dumps(headings, ensure_ascii=False),
        "content": content,
        "meta_description": page.description,
        "crawl_date": iso_utc(page.crawl_unix),
        "word_count": len(content.split()),
    }


@dataclass(frozen=True, slots=True)
class ImageRow:
    """One ``images`` row; ``image_path`` is relative to the output directory."""

    image_path: str
    source_page: str
    alt_text: str
    image_url: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "image_path": self.image_path,
            "source_page": self.source_page,
            "alt_text": self.alt_text,
            "image_url": self.image_url,
        }


#: ``crawl_report.json`` keeps at most this many error records (seed 001).
MAX_REPORTED_ERRORS = 100


@dataclass(frozen=True, slots=True)
class CrawlFacts:
    """Crawl-wide numbers for ``crawl_report.json`` that the pages alone do not give."""

    failed_pages: int = 0
    #: (url, error) of failed pages; the first hundred are reported.
    errors: tuple[tuple[str, str], ...] = ()
    time_taken_seconds: float = 0.0


@dataclass(slots=True)
class CrawlReport:
    """``crawl_report.json`` (seed 001), filled while the export runs."""

    total_pages: int = 0
    failed_pages: int = 0
    total_images: int = 0
    external_links: int = 0
    time_taken_seconds: float = 0.0
    errors: list[dict[str, str]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "total_pages": self.total_pages,
            "failed_pages": self.failed_pages,
            "total_images": self.total_images,
            "external_links": self.external_links,
            "time_taken_seconds": round(self.time_taken_seconds, 2),
            "errors": list(self.errors),
        }
