"""The frontier's rules: when a crawled URL is due again, and the per-origin work queue.

The frontier itself is the ``crawl_candidate`` table (DESIGN.md §3): every
known URL with its last crawl and when it is due next.  It is never held in
memory as a whole; each active origin keeps a small :class:`OriginQueue` of
candidates pulled from the database in batches, and the database decides what
is due.  A URL is crawled at most once per run: a candidate whose last crawl
is not older than the run's start is never pulled again in that run, so
redirect loops and links back to crawled pages end by themselves.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace

from unob.codes import CrawlType, ExitCode, SchedulingReason

# Exit codes after which the URL was not actually requested because of
# something about this run (Ctrl-C, an origin out of patience, robots.txt
# unreachable, a database error): the candidate stays due, untouched, so the
# next run tries it as if this run had never reached it.
NOT_ATTEMPTED = frozenset(
    {
        ExitCode.CANCELLED,
        ExitCode.ORIGIN_GAVE_UP,
        ExitCode.ROBOTS_UNAVAILABLE,
        ExitCode.DATABASE_ERROR,
    }
)

# Failures that say nothing about the URL itself, only about the moment:
# due again on the next run rather than after the recrawl interval.
TRANSIENT = frozenset(
    {
        ExitCode.RATE_LIMITED,
        ExitCode.SERVER_INTERNAL_ERROR,
        ExitCode.CONNECTION_FAILED,
        ExitCode.REQUEST_TIMEOUT,
        ExitCode.ERROR_READING_RESPONSE,
    }
)


@dataclass(frozen=True, slots=True)
class CandidateUpdate:
    """How one crawl changes its URL's ``crawl_candidate`` row."""

    last_crawl_unix_utc: int
    last_crawl_exit_code: int
    next_due_unix_utc: int
    contentful: bool
    """Also set ``last_contentful_*`` (time, ETag, Last-Modified)."""
    keep_old_validators: bool
    """A 304 without validators confirms the old ETag/Last-Modified: keep them."""


def candidate_update(
    exit_code: ExitCode, crawled_unix: int, recrawl_interval_s: int
) -> CandidateUpdate | None:
    """The candidate update an entry causes, or None to leave the candidate due.

    * contentful answers (pages, files, redirects, 304) and answers about the
      URL itself (404, 410, other 4xx, robots.txt disallow, too large, bad
      encoding) are due again after the recrawl interval; 4xx pages are
      re-checked on every recrawl, as unobtanium does;
    * transient failures (429, 5xx, connection problems, timeouts) are due
      again on the next run;
    * URLs this run never really tried (:data:`NOT_ATTEMPTED`) are untouched.
    """
    if exit_code in NOT_ATTEMPTED:
        return None
    interval = 0 if exit_code in TRANSIENT else max(0, recrawl_interval_s)
    return CandidateUpdate(
        last_crawl_unix_utc=crawled_unix,
        last_crawl_exit_code=int(exit_code),
        next_due_unix_utc=crawled_unix + interval,
        contentful=exit_code.is_contentful,
        keep_old_validators=exit_code == ExitCode.FILE_DID_NOT_CHANGE,
    )


@dataclass(frozen=True, slots=True)
class Candidate:
    """A due URL pulled from the frontier, with what its crawl needs."""

    url_id: int
    url: str
    depth: int
    crawl_type: CrawlType
    scheduling_reason: SchedulingReason
    etag: str | None
    """``If-None-Match`` for a conditional recrawl; None = not conditional."""
    last_modified_unix: int | None
    """``If-Modified-Since`` for a conditional recrawl; None = not conditional."""


class OriginQueue:
    """Candidates of one origin pulled from the database, and those in flight.

    The engine pulls a new batch only when the queue is empty, excluding the
    URLs still in flight (their entries are not written yet, so the database
    still calls them due).  Memory is one batch plus the in-flight requests.
    """

    __slots__ = ("_exhausted", "_in_flight", "_pending")

    def __init__(self) -> None:
        self._pending: deque[Candidate] = deque()
        self._in_flight: set[int] = set()
        self._exhausted = False

    @property
    def in_flight(self) -> frozenset[int]:
        return frozenset(self._in_flight)

    @property
    def busy(self) -> bool:
        """Requests are still running for this origin."""
        return bool(self._in_flight)

    @property
    def needs_pull(self) -> bool:
        return not self._pending and not self._exhausted

    def refill(self, batch: list[Candidate], *, short: bool) -> None:
        """Add a pulled batch; ``short`` (fewer rows than asked for) means the origin
        has nothing more due right now."""
        self._pending.extend(c for c in batch if c.url_id not in self._in_flight)
        if short:
            self._exhausted = True

    def promote_to_sitemaps(self, urls: set[str]) -> None:
        """Pulled page candidates that a robots.txt just named as sitemaps are read as
        sitemaps (the database row is promoted too: writer.py)."""
        self._pending = deque(
            replace(c, crawl_type=CrawlType.SITEMAP_CRAWL)
            if c.url in urls and c.crawl_type == CrawlType.FILE_CRAWL
            else c
            for c in self._pending
        )

    def reopen(self) -> None:
        """New candidates may have arrived (links found on this origin's pages)."""
        self._exhausted = False

    def take(self) -> Candidate | None:
        if not self._pending:
            return None
        candidate = self._pending.popleft()
        self._in_flight.add(candidate.url_id)
        return candidate

    def done(self, url_id: int) -> None:
        self._in_flight.discard(url_id)

    def drain(self) -> list[Candidate]:
        """Give up the pulled, not yet started candidates (they stay due in the DB)."""
        left = list(self._pending)
        self._pending.clear()
        self._exhausted = True
        return left

    @property
    def finished(self) -> bool:
        """Nothing pending, nothing in flight, and the last pull came back short."""
        return self._exhausted and not self._pending and not self._in_flight
