"""What the views of both databases mean, column by column.

The views themselves are created by the migrations (``c0002_views`` in the
crawl database, ``s0002_views`` in the summary database), whose SQL is the
definition; this module is their documentation, rendered into
``docs/schema/*.md`` by :mod:`unob.docgen`.  A test fails when a migrated
view has a column documented nowhere here, or when a documented one is gone.

Conventions shared by all views: URLs are text (``url``, ``*_url``), every
``*_unix_utc`` time has an ``*_iso_utc`` twin (ISO 8601, UTC, ``Z``), and every
enumeration code has a ``*_name`` twin from its lookup table.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ViewDoc:
    """A view's purpose and the meaning of each column (what NULL means included)."""

    comment: str
    columns: dict[str, str]


_ISO = "the same time as ISO 8601 text (UTC)"

CRAWL_VIEWS: dict[str, ViewDoc] = {
    "crawl_log_view": ViewDoc(
        "The crawl log with names instead of codes: one row per attempt to crawl a URL "
        "(`crawl_log_entry`), with its URL, agent, type, reason, outcome and final HTTP status.",
        {
            "crawl_log_entry_id": "the entry (`crawl_log_entry.crawl_log_entry_id`)",
            "crawl_log_entry_uuid": "the entry's UUID, unique across databases",
            "agent_id": "the crawler run (`agent.agent_id`)",
            "agent_name": "that run's agent name",
            "url_id": "the URL (`url.url_id`)",
            "url": "the URL crawled",
            "origin": "its origin, `scheme://host[:port]`",
            "crawl_type": "crawl type code",
            "crawl_type_name": "crawl type name (`file_crawl`, `robotstxt_fetch`, ...)",
            "scheduling_reason": "scheduling reason code",
            "scheduling_reason_name": "why the URL was due (`manual`, `explore`, `recrawl`, ...)",
            "started_unix_utc": "when the attempt started (Unix seconds)",
            "started_iso_utc": _ISO,
            "time_taken_ms": "wall time of the attempt; NULL = not measured",
            "exit_code": "outcome code",
            "exit_code_name": "outcome name (`file_ingested`, `file_not_found`, ...)",
            "message": "detail message; NULL = none",
            "depth": "link distance from a seed; NULL = unknown",
            "http_status": "HTTP status of the entry's last request; NULL = no request was "
            "sent or no answer came",
            "request_count": "network requests of the entry (2 after a fluke retry; 0 = none)",
        },
    ),
    "origin_stats": ViewDoc(
        "Per-origin crawl statistics: entries by outcome, requests, bytes and response times. "
        "Response-time percentiles use the nearest-rank method over requests that got an answer.",
        {
            "origin_id": "the origin (`origin.origin_id`)",
            "origin": "`scheme://host[:port]`",
            "host": "host name",
            "entries": "crawl log entries for URLs of this origin (robots.txt fetches included)",
            "pages": "page crawls that stored a page (exit codes `file_ingested`, `noindex`)",
            "redirects": "entries that found a redirect (exit codes 31, 32)",
            "not_modified": "conditional recrawls answered 304 (exit code 34)",
            "errors": "entries that failed: HTTP 4xx/5xx and network failures (exit codes "
            "40-102), bodies too large or undecodable (111, 112)",
            "robots_disallowed": "URLs not fetched because robots.txt disallows them (110)",
            "error_rate": "errors / entries, 0-1; NULL = no entries",
            "requests": "network requests sent (fluke retries count twice)",
            "body_bytes": "body bytes read, decoded (0 = none)",
            "mean_response_ms": "mean request duration; NULL = no request got an answer",
            "median_response_ms": "median request duration; NULL = no request got an answer",
            "p95_response_ms": "95th percentile of request duration; NULL = no answer",
            "max_response_ms": "slowest request; NULL = no request got an answer",
            "first_crawl_unix_utc": "first entry's start; NULL = no entries",
            "first_crawl_iso_utc": _ISO,
            "last_crawl_unix_utc": "last entry's start; NULL = no entries",
            "last_crawl_iso_utc": _ISO,
        },
    ),
    "redirect_chain": ViewDoc(
        "Redirect chains: one row per URL that redirects, following the latest redirect "
        "recorded for each URL hop by hop until a URL that does not redirect, a loop, or 20 "
        "hops. A single redirect is a chain of 1 hop.",
        {
            "start_url_id": "the redirecting URL (`url.url_id`)",
            "start_url": "the redirecting URL",
            "final_url_id": "where the chain ends (`url.url_id`)",
            "final_url": "where the chain ends: a URL with no recorded redirect, or the URL "
            "that closes a loop",
            "final_url_fragment": "fragment of the last hop's target; NULL = none",
            "hops": "redirects followed (1 = a direct redirect)",
            "path": "every URL of the chain, joined with ` -> `",
            "statuses": "the HTTP status of each hop, joined with ` -> ` (`meta` = meta refresh)",
            "all_permanent": "1 when every hop is permanent (301/308)",
            "is_loop": "1 when the chain runs into a URL it already passed",
            "final_exit_code": "outcome of the last crawl of `final_url`; NULL = not crawled",
            "final_exit_code_name": "its name; NULL = not crawled",
        },
    ),
    "frontier": ViewDoc(
        "The frontier (`crawl_candidate`) with URLs, names and a state: `new` (never "
        "attempted), `due` (recrawl time reached), `waiting` (due later) or `retired` (will "
        "not be crawled again).",
        {
            "url_id": "the URL (`url.url_id`)",
            "url": "the candidate URL",
            "origin": "its origin",
            "crawl_type": "crawl type code",
            "crawl_type_name": "what will be done with it (`file_crawl`, `image_crawl`)",
            "depth": "link distance from a seed (seeds: 0)",
            "discovered_via_url": "page where it was first found; NULL = a seed",
            "discovered_unix_utc": "when it was first found",
            "discovered_iso_utc": _ISO,
            "scheduling_reason": "scheduling reason code",
            "scheduling_reason_name": "why it is (or was last) due",
            "last_crawl_unix_utc": "last attempt; NULL = never attempted",
            "last_crawl_iso_utc": _ISO,
            "last_crawl_exit_code": "outcome of the last attempt; NULL = never attempted",
            "last_crawl_exit_code_name": "its name; NULL = never attempted",
            "last_contentful_crawl_unix_utc": "last attempt that got content or a redirect; "
            "NULL = never",
            "last_contentful_crawl_iso_utc": _ISO,
            "next_due_unix_utc": "when it is due; NULL = never again",
            "next_due_iso_utc": _ISO,
            "state": "`new`, `due`, `waiting` or `retired` (see above; `due` compares with "
            "the current time)",
        },
    ),
}

SUMMARY_VIEWS: dict[str, ViewDoc] = {}

VIEW_DOCS: dict[str, dict[str, ViewDoc]] = {"crawl": CRAWL_VIEWS, "summary": SUMMARY_VIEWS}
