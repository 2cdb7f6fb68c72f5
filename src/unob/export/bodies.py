"""Where exports get raw bytes: HTML bodies and image files from crawl databases.

The summary database holds what was derived from a page, not the page
itself; the dataset's ``raw_html/`` and ``images/`` and the Spideriment
snippet (computed from the HTML, as the reference crawler did) need the
bodies, which only the crawl databases keep.  Exports see them through this
small interface, so the format code is tested without a database.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

__all__ = ["Body", "BodySource", "NoBodies", "StoredImage"]


@dataclass(frozen=True, slots=True)
class Body:
    """A response body, decoded from its storage compression (not from its charset)."""

    #: The key the page record names it by (``PageRecord.raw_html_sha256``).
    sha256: str
    data: bytes


@dataclass(frozen=True, slots=True)
class StoredImage:
    """An image file the crawler fetched."""

    url: str
    data: bytes
    mime_type: str = ""


class BodySource(Protocol):
    """Read access to stored bodies, one at a time (bodies can be megabytes)."""

    def html_bodies(self, sha256s: Collection[str]) -> Iterator[Body]:
        """The stored bodies among ``sha256s``, in any order, each at most once."""
        ...

    def images(self, urls: Sequence[str]) -> Iterator[StoredImage]:
        """The stored images among ``urls``, **in the order of** ``urls``."""
        ...


class NoBodies:
    """The source used when no crawl database is given: it has nothing."""

    def html_bodies(self, sha256s: Collection[str]) -> Iterator[Body]:
        return iter(())

    def images(self, urls: Sequence[str]) -> Iterator[StoredImage]:
        return iter(())
