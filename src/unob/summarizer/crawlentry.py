"""One crawl log entry of a crawl database, with its request, file and redirect.

Plain data, read by :mod:`unob.summarizer.crawlread` and interpreted by
:mod:`unob.summarizer.observe`.  Kept free of database imports: these
objects travel to the pipeline's worker processes.
"""

from __future__ import annotations

from dataclasses import dataclass

from unob.codes import CrawlType

__all__ = ["PAGE_CRAWL_TYPES", "CrawlEntry", "CrawlFile", "CrawlRedirect", "CrawlRequest"]

# Crawl types whose entries describe pages (entity generations); robots.txt
# fetches and image crawls do not.
PAGE_CRAWL_TYPES = (int(CrawlType.FILE_CRAWL), int(CrawlType.METADATA_CRAWL))


@dataclass(slots=True)
class CrawlRequest:
    """The final network request of an entry (the last ``request_info`` row)."""

    sent_unix_utc: int
    duration_ms: int | None
    robotstxt_approved: bool
    http_status: int | None
    http_etag: str | None
    server_last_modified_unix_utc: int | None
    content_type: str | None
    #: Requests the entry made (a fluke retry makes 2).
    count: int


@dataclass(slots=True)
class CrawlFile:
    """The entry's ``file_info`` row, with its stored body (still compressed)."""

    mime_type: str | None
    charset: str | None
    size: int | None
    last_modified_unix_utc: int | None
    canonical_url: str | None
    sha256: str | None
    compression: str | None
    data: bytes | None
    #: ``file_content.size``: the body's length once decompressed.
    body_size: int | None
    depth: int | None
    robots_noindex: bool
    robots_nofollow: bool


@dataclass(slots=True)
class CrawlRedirect:
    """The entry's ``redirect`` row."""

    to_url: str
    to_fragment: str | None
    http_status: int | None
    is_permanent: bool
    by_security_policy: bool
    information_source: int


@dataclass(slots=True)
class CrawlEntry:
    """One ``crawl_log_entry`` with what belongs to it."""

    entry_id: int
    uuid: str
    agent_uuid: str
    url: str
    crawl_type: int
    scheduling_reason: int
    started_unix_utc: int
    exit_code: int
    message: str | None
    request: CrawlRequest | None = None
    file: CrawlFile | None = None
    redirect: CrawlRedirect | None = None

    @property
    def is_page_crawl(self) -> bool:
        return self.crawl_type in PAGE_CRAWL_TYPES

    @property
    def time(self) -> int:
        """When the crawl happened: the final request's send time, else the entry's start."""
        return self.request.sent_unix_utc if self.request is not None else self.started_unix_utc
