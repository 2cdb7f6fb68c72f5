"""Enumerations stored as integers in both databases.

The numbers are unobtanium's (reference/unobtanium.md §2.10) where it has
them, so queries and habits carry over; codes above 102 are unob's own.
Each enumeration is mirrored into a lookup table (``exit_code``,
``crawl_type``, ...) so that ad-hoc SQL can join names; :func:`lookup_rows`
gives the rows and :mod:`unob.db` keeps the tables in step with this module.
"""

from __future__ import annotations

from enum import IntEnum


class _Coded(IntEnum):
    """An enumeration whose members have a one-line meaning (in :data:`MEANINGS`)."""

    @property
    def meaning(self) -> str:
        # Keyed by class first: IntEnum members of different enums with the
        # same number are equal (CrawlType.FILE_CRAWL == SchedulingReason.MANUAL).
        return MEANINGS[type(self)][self]


class ExitCode(_Coded):
    """What happened when a URL was crawled (``crawl_log_entry.exit_code``)."""

    DATABASE_ERROR = -3
    CANCELLED = -2
    FILE_INGESTED = 20
    FILE_OF_UNKNOWN_TYPE = 29
    PERMANENT_REDIRECT = 31
    REDIRECT = 32
    FILE_DID_NOT_CHANGE = 34
    SERVER_BLAMED_CLIENT = 40
    FILE_GONE = 41
    DID_NOT_UNDERSTAND_ANSWER = 42
    FILE_NOT_FOUND = 44
    RATE_LIMITED = 49
    SERVER_INTERNAL_ERROR = 50
    CONNECTION_FAILED = 100
    REQUEST_TIMEOUT = 101
    ERROR_READING_RESPONSE = 102
    # unob's own codes, above unobtanium's range
    ROBOTS_DISALLOWED = 110
    TOO_LARGE = 111
    BAD_CONTENT_ENCODING = 112
    ORIGIN_GAVE_UP = 113
    NOINDEX = 114
    ROBOTS_UNAVAILABLE = 115

    @property
    def is_contentful(self) -> bool:
        """True when the crawl produced content or a redirect (a 'contentful' crawl)."""
        return self in (
            ExitCode.FILE_INGESTED,
            ExitCode.FILE_OF_UNKNOWN_TYPE,
            ExitCode.PERMANENT_REDIRECT,
            ExitCode.REDIRECT,
            ExitCode.FILE_DID_NOT_CHANGE,
            ExitCode.NOINDEX,
        )


_EXITCODE_MEANINGS: dict[_Coded, str] = {
    ExitCode.DATABASE_ERROR: "crawl not finished because of a database error",
    ExitCode.CANCELLED: "cancelled mid-way (Ctrl-C); nothing was stored",
    ExitCode.FILE_INGESTED: "file crawled and its content stored",
    ExitCode.FILE_OF_UNKNOWN_TYPE: "a file was found, but of a type unob does not store",
    ExitCode.PERMANENT_REDIRECT: "redirect signalled as permanent (301, 308)",
    ExitCode.REDIRECT: "redirect that may change (302, 303, 307, meta refresh)",
    ExitCode.FILE_DID_NOT_CHANGE: "server answered 304 Not Modified to a conditional request",
    ExitCode.SERVER_BLAMED_CLIENT: "client error (4xx other than 404, 410, 429), incl. auth",
    ExitCode.FILE_GONE: "resource gone for good (410)",
    ExitCode.DID_NOT_UNDERSTAND_ANSWER: "protocol error or an answer that could not be decoded",
    ExitCode.FILE_NOT_FOUND: "nothing at the location (404); may change",
    ExitCode.RATE_LIMITED: "server said the crawler is too fast (429)",
    ExitCode.SERVER_INTERNAL_ERROR: "server-side error (5xx)",
    ExitCode.CONNECTION_FAILED: "could not connect (DNS, refused, reset before an answer)",
    ExitCode.REQUEST_TIMEOUT: "server took too long",
    ExitCode.ERROR_READING_RESPONSE: "the answer broke off or could not be read",
    ExitCode.ROBOTS_DISALLOWED: "robots.txt disallows this URL for our user agent",
    ExitCode.TOO_LARGE: "body larger than the size cap; nothing stored",
    ExitCode.BAD_CONTENT_ENCODING: (
        "Content-Encoding unknown or its data corrupt (a bomb is too_large)"
    ),
    ExitCode.ORIGIN_GAVE_UP: "not requested: the origin ran out of patience in this run",
    ExitCode.NOINDEX: "stored, but the page asks not to be indexed (meta robots / X-Robots-Tag)",
    ExitCode.ROBOTS_UNAVAILABLE: "not requested: robots.txt answered 5xx or was unreachable",
}


class CrawlType(_Coded):
    """Why a request was made (``crawl_log_entry.crawl_type``)."""

    FILE_CRAWL = 0
    ROBOTSTXT_FETCH = 1
    METADATA_CRAWL = 2
    IMAGE_CRAWL = 10
    SITEMAP_CRAWL = 11


_CRAWLTYPE_MEANINGS: dict[_Coded, str] = {
    CrawlType.FILE_CRAWL: "general-purpose crawl of a page for indexing",
    CrawlType.ROBOTSTXT_FETCH: "the agent downloaded an origin's robots.txt",
    CrawlType.METADATA_CRAWL: "HEAD-like check, no content indexed",
    CrawlType.IMAGE_CRAWL: "an image referenced by a crawled page (--images)",
    CrawlType.SITEMAP_CRAWL: "a sitemap named by robots.txt or a sitemap index (sitemaps.org)",
}


class SchedulingReason(_Coded):
    """Why a URL was due (``crawl_log_entry.scheduling_reason``)."""

    MANUAL = 0
    EXPLORE = 1
    RECRAWL = 2
    FEED = 3
    FLUKE_RETRY = 4
    # unob's own, above unobtanium's range (as for exit codes)
    SITEMAP_LASTMOD = 110


_SCHEDULINGREASON_MEANINGS: dict[_Coded, str] = {
    SchedulingReason.MANUAL: "a seed given by the user",
    SchedulingReason.EXPLORE: "a link found on a crawled page",
    SchedulingReason.RECRAWL: "a known URL whose recrawl interval has passed",
    SchedulingReason.FEED: "an update announced through a feed",
    SchedulingReason.FLUKE_RETRY: "retry after a failure outside anyone's control",
    SchedulingReason.SITEMAP_LASTMOD: (
        "a known URL a sitemap's <lastmod> says changed since its last crawl"
    ),
}


class InformationSource(_Coded):
    """Where a redirect was signalled (``redirect.information_source``)."""

    UNKNOWN = 0
    RESPONSE_HEADER = 1
    FILE_METADATA = 2
    FILE_BODY = 3
    SUMMARY = 4


_INFORMATIONSOURCE_MEANINGS: dict[_Coded, str] = {
    InformationSource.UNKNOWN: "unknown",
    InformationSource.RESPONSE_HEADER: "HTTP Location header",
    InformationSource.FILE_METADATA: "file-system or archive metadata",
    InformationSource.FILE_BODY: "the document itself (meta refresh)",
    InformationSource.SUMMARY: "derived by the summarizer",
}


MEANINGS: dict[type[_Coded], dict[_Coded, str]] = {
    ExitCode: _EXITCODE_MEANINGS,
    CrawlType: _CRAWLTYPE_MEANINGS,
    SchedulingReason: _SCHEDULINGREASON_MEANINGS,
    InformationSource: _INFORMATIONSOURCE_MEANINGS,
}

LOOKUP_TABLES: dict[str, type[ExitCode | CrawlType | SchedulingReason | InformationSource]] = {
    "exit_code": ExitCode,
    "crawl_type": CrawlType,
    "scheduling_reason": SchedulingReason,
    "information_source": InformationSource,
}


def lookup_rows(table: str) -> list[dict[str, object]]:
    """Rows ``{code, name, meaning}`` of a lookup table, from the enum."""
    return [
        {"code": int(member), "name": member.name.lower(), "meaning": member.meaning}
        for member in LOOKUP_TABLES[table]
    ]
