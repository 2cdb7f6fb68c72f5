"""What the engine hands to the store: one entry and everything it caused.

An :class:`EntryRecord` is one ``crawl_log_entry`` with its requests, file,
redirects, the candidates its links add and (implicitly) the update of its
own ``crawl_candidate`` row; :mod:`unob.crawler.writer` writes it whole, in
one transaction.  Plain data, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from unob.codes import CrawlType, ExitCode, InformationSource, SchedulingReason

__all__ = [
    "AgentInfo",
    "EntryRecord",
    "FileRecord",
    "NewCandidate",
    "RedirectRecord",
    "RequestRecord",
    "Seed",
]


@dataclass(slots=True)
class RequestRecord:
    """One network request of an entry (``request_info``)."""

    sent_unix_ms: int
    duration_ms: int | None
    robotstxt_approved: bool
    is_retry: bool
    exit_code: ExitCode
    http_status: int | None = None
    http_etag: str | None = None
    server_last_modified_unix_utc: int | None = None
    content_type: str | None = None
    content_encoding: str | None = None
    body_bytes: int | None = None
    retry_after_s: int | None = None
    x_robots_tag: str | None = None


@dataclass(slots=True)
class FileRecord:
    """A file obtained by the entry's last request (``file_info`` + ``file_content``)."""

    mime_type: str | None
    charset: str | None
    size: int | None
    last_modified_unix_utc: int | None
    body: bytes | None
    """The body to store (deduplicated by SHA-256); None = not stored."""
    compress: bool = True
    canonical_url: str | None = None
    robots_noindex: bool = False
    robots_nofollow: bool = False
    links_found: int | None = None


@dataclass(slots=True)
class RedirectRecord:
    to_url: str
    to_origin: str
    to_fragment: str | None
    http_status: int | None
    is_permanent: bool
    by_security_policy: bool
    information_source: InformationSource


@dataclass(slots=True)
class NewCandidate:
    """A URL found by the entry, to become a candidate unless already known."""

    url: str
    origin: str
    depth: int
    crawl_type: CrawlType = CrawlType.FILE_CRAWL
    lastmod_unix_utc: int | None = None
    """When its sitemap says it last changed (``<lastmod>``, never after the sitemap's
    fetch); None = not said.  A known URL crawled before that is due now."""


@dataclass(slots=True)
class EntryRecord:
    """One attempt to crawl one URL and everything it caused: one transaction."""

    uuid: str
    url: str
    origin: str
    crawl_type: CrawlType
    scheduling_reason: SchedulingReason
    started_unix_ms: int
    time_taken_ms: int | None
    exit_code: ExitCode
    message: str | None
    depth: int | None
    url_id: int | None = None
    """Known when the URL came from the frontier; None = look it up (robots.txt)."""
    requests: list[RequestRecord] = field(default_factory=list)
    file: FileRecord | None = None
    redirects: list[RedirectRecord] = field(default_factory=list)
    candidates: list[NewCandidate] = field(default_factory=list)
    update_candidate: bool = True
    """Update this URL's own crawl_candidate row (False for robots.txt fetches)."""
    recrawl_interval_s: int = 0

    def weight(self) -> int:
        """Approximate memory held while queued, for back-pressure."""
        body = self.file.body if self.file is not None else None
        return 1024 + (len(body) if body else 0) + 100 * len(self.candidates)


@dataclass(frozen=True, slots=True)
class Seed:
    url: str
    origin: str


@dataclass(frozen=True, slots=True)
class AgentInfo:
    agent_uuid: str
    name: str
    http_user_agent: str
    started_unix: int
    settings_json: str
    unob_version: str
