"""What the views (and the full-text index) of both databases mean, column by column.

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
            "crawl_type_name": (
                "what will be done with it (`file_crawl`, `image_crawl`, `sitemap_crawl`)"
            ),
            "depth": "link distance from a seed (seeds: 0)",
            "discovered_via_url": (
                "page (or robots.txt, sitemap) where it was first found; NULL = a seed"
            ),
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

_CURRENT = "open (`confirmed_end_unix_utc IS NULL`)"
_SEARCH_COLUMNS = {
    "title": "page title; empty = none",
    "description": "meta description; empty = none",
    "text": "main content (headings, code and quotes included)",
    "secondary_text": "all other visible text",
    "big_headlines": "h1-h3 texts",
    "small_headlines": "h4-h6 texts",
    "code_text": "text in pre/code/kbd/samp",
    "quote_text": "text in blockquote/q",
    "url": "the page URL (so a search matches words in URLs too)",
}

SUMMARY_VIEWS: dict[str, ViewDoc] = {
    "current_page": ViewDoc(
        "The current web: one row per page generation that is open and not marked "
        "duplicate, with its URL, description, size and dates. Non-HTML files and redirects "
        "are not pages (see `generation_view`, `redirect_view`). Pages that say `noindex` "
        "are here too (`file_summary.robots_noindex`); `unob search` and the exports leave "
        "them out.",
        {
            "entity_generation_id": "the generation (`entity_generation.entity_generation_id`)",
            "entity_generation_uuid": "its UUID",
            "url_id": "the URL (`url.url_id`)",
            "url": "the page URL",
            "origin": "its origin, `scheme://host[:port]`",
            "host": "its host name",
            "title": "`<title>` (else og:title); NULL = none",
            "primary_headline": "the first h1; NULL = none",
            "description": "meta description (else og:description); NULL = none",
            "primary_language": "BCP 47 language tag the page declares; NULL = not declared",
            "word_count": "words of main text; NULL = no description was derived",
            "indexiness": "positive = index/navigation page, negative = leaf page; NULL = no "
            "description was derived",
            "author": "meta author; NULL = none",
            "published_unix_utc": "publication date the page states; NULL = none",
            "published_iso_utc": _ISO,
            "modified_unix_utc": "last-update date the page states; NULL = none",
            "modified_iso_utc": _ISO,
            "mime_type": "e.g. `text/html`; NULL = unknown",
            "file_size": "body size in bytes; NULL = unknown",
            "link_count": "outgoing links (rows in `link_graph`); NULL = unknown",
            "depth": "link distance from a seed; NULL = unknown",
            "canonical_url": "`<link rel=canonical>` target; NULL = none given",
            "first_seen_unix_utc": "first crawl that saw this version",
            "first_seen_iso_utc": _ISO,
            "last_seen_unix_utc": "last crawl that confirmed it",
            "last_seen_iso_utc": _ISO,
            "text_pile_id": "its text (`text_pile.text_pile_id`); NULL = no text",
        },
    ),
    "generation_view": ViewDoc(
        "Every generation of every URL, current or not, with a `state`: `current` ("
        + _CURRENT
        + ", not duplicate), `duplicate` (open, marked duplicate) or `closed` (a later crawl "
        "saw it end). The history of a URL is its generations ordered by `first_seen`.",
        {
            "entity_generation_id": "the generation",
            "entity_generation_uuid": "its UUID",
            "url_id": "the URL (`url.url_id`)",
            "url": "the URL",
            "origin": "its origin",
            "kind": "`page`, `file` or `redirect`",
            "state": "`current`, `duplicate` or `closed`",
            "title": "page title; NULL = none or not a page",
            "word_count": "words of main text; NULL = not a page",
            "text_pile_id": "its text; NULL = no text (redirects, files)",
            "first_seen_unix_utc": "first crawl that saw this version",
            "first_seen_iso_utc": _ISO,
            "last_seen_unix_utc": "last crawl that confirmed it",
            "last_seen_iso_utc": _ISO,
            "confirmed_end_unix_utc": "when a crawl saw it end; NULL = still open",
            "confirmed_end_iso_utc": _ISO,
        },
    ),
    "duplicate_view": ViewDoc(
        "Exact duplicates with the URLs of both sides: the duplicate and its original (same "
        "origin, same text, the shortest URL is the original). Past relations stay, with "
        "`holds` = 0.",
        {
            "duplicate_summary_id": "the relation (`duplicate_summary.duplicate_summary_id`)",
            "subject_entity_generation_id": "the duplicate generation",
            "duplicate_url": "the duplicate's URL",
            "original_entity_generation_id": "the original generation",
            "original_url": "the original's URL",
            "origin": "the origin both are on",
            "holds": "1 while the relation holds (`ended_unix_utc` is NULL)",
            "detected_unix_utc": "crawl time from which both were open with the same text",
            "detected_iso_utc": _ISO,
            "ended_unix_utc": "crawl time at which it stopped holding; NULL = still holds",
            "ended_iso_utc": _ISO,
        },
    ),
    "link_graph": ViewDoc(
        "The link graph of the current web: every link on an open, non-duplicate generation, "
        "from its page URL to the target URL, with the link text, whether it leaves the site, "
        "and the target's own open generation if there is one.",
        {
            "from_entity_generation_id": "the linking generation",
            "from_url": "the page the link is on",
            "position": "0-based order of the link in the page",
            "to_url_id": "the target (`url.url_id`)",
            "to_url": "the target URL, without fragment",
            "to_url_fragment": "the target's fragment; NULL = none",
            "text": "link text (or alt / title); may be empty",
            "kind": "element that made the link: `a`, `area`, `link`, `meta_refresh`, ...",
            "locality": "`self` (same document), `in` (same site), `out` (other site)",
            "is_external": "1 when the link leaves the site (`locality = 'out'`)",
            "rel": "all rel tokens, space-separated; NULL = none",
            "rel_nofollow": "1 for rel=nofollow",
            "in_nav": "1 when inside nav / role=navigation",
            "in_header": "1 when inside header / role=banner",
            "in_footer": "1 when inside footer / role=contentinfo",
            "in_aside": "1 when inside aside / role=complementary",
            "in_main_content": "1 when inside the part chosen as the main content",
            "to_entity_generation_id": "the target URL's open generation; NULL = the target "
            "has none (never crawled, failed, gone, or outside the crawl)",
            "to_kind": "that generation's kind (`page`, `file`, `redirect`); NULL = none",
        },
    ),
    "redirect_view": ViewDoc(
        "Redirects the crawls saw (each is a generation of the redirecting URL), from URL to "
        "target URL, with status and permanence. `is_current` = the redirect is still "
        "in place at the last crawl.",
        {
            "entity_generation_id": "the redirect generation",
            "from_url": "the redirecting URL",
            "to_url_id": "the target (`url.url_id`)",
            "to_url": "the target URL",
            "to_url_fragment": "the target's fragment; NULL = none",
            "http_status": "3xx status; NULL = meta refresh",
            "is_permanent": "1 for 301/308",
            "by_security_policy": "1 for an http -> https upgrade of the same host and path",
            "information_source": "where it was signalled (code)",
            "information_source_name": "`response_header`, `file_body` (meta refresh), ...",
            "is_current": "1 while the generation is open",
            "first_seen_unix_utc": "first crawl that saw it",
            "first_seen_iso_utc": _ISO,
            "last_seen_unix_utc": "last crawl that confirmed it",
            "last_seen_iso_utc": _ISO,
        },
    ),
    "crawl_history": ViewDoc(
        "The crawl history of every URL, as the summarizer integrated it: one row per "
        "summarized crawl with names for codes, what the summarizer did with it and the "
        "generation it concerns.",
        {
            "crawl_summary_id": "the crawl (`crawl_summary.crawl_summary_id`)",
            "url_id": "the URL (`url.url_id`)",
            "url": "the URL crawled",
            "time_started_unix_utc": "when the crawl was made",
            "time_started_iso_utc": _ISO,
            "crawl_type": "crawl type code",
            "crawl_type_name": "crawl type name",
            "scheduling_reason": "scheduling reason code",
            "scheduling_reason_name": "why the URL was due",
            "exit_code": "outcome code",
            "exit_code_name": "outcome name",
            "http_status": "HTTP status; NULL = no HTTP answer",
            "request_duration_ms": "duration of the final request; NULL = no answer",
            "content_type": "Content-Type header; NULL = absent",
            "message": "the crawler's detail message; NULL = none",
            "summarizer_action": "`new_generation`, `self_duplicate`, `closed_generation`, "
            "`late_generation`, `attached` or `unattached`",
            "entity_generation_id": "the generation it created, confirmed or closed; NULL = none",
            "entity_generation_uuid": "that generation's UUID; NULL = none",
            "crawl_uuid": "`crawl_log_entry_uuid` in the crawl DB",
            "agent_uuid": "`agent_uuid` of the crawler run",
            "crawl_db_path": "path the crawl DB was last read from",
        },
    ),
    "search_index_source": ViewDoc(
        "What `search_index` indexes (its external content): one row per generation that is "
        "open, has text, and does not ask to be kept out of indexes (noindex). Exact "
        "duplicates are included; searches filter them.",
        {
            "entity_generation_id": "the generation (the index's rowid)",
            **_SEARCH_COLUMNS,
        },
    ),
    "search_index": ViewDoc(
        "The full-text index (FTS5, tokenizer `unicode61 remove_diacritics 2`, no stemming) "
        "behind `unob search`: rowid = `entity_generation_id`. Query it with `MATCH` and rank "
        "with `bm25(search_index, ...)`; see sql-recipes.md.",
        _SEARCH_COLUMNS,
    ),
}

VIEW_DOCS: dict[str, dict[str, ViewDoc]] = {"crawl": CRAWL_VIEWS, "summary": SUMMARY_VIEWS}
