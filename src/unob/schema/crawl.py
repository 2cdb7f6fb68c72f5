"""The crawl database: what ``unob crawl`` did, written by it alone (DESIGN.md §3).

One ``crawl_log_entry`` per attempt to crawl a URL; its ``request_info``,
``file_info``, ``file_content`` and ``redirect`` rows and the
``crawl_candidate`` updates it causes are committed in one transaction, so the
database only ever holds whole entries.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    Table,
    Text,
    text,
)

from unob.schema.base import add_base_tables, new_metadata

metadata = new_metadata()
add_base_tables(metadata)

agent = Table(
    "agent",
    metadata,
    Column("agent_id", Integer, primary_key=True),
    Column("agent_uuid", Text, nullable=False, unique=True, comment="random UUID of this run"),
    Column("name", Text, nullable=False, comment="agent name (`--agent-name`, default host name)"),
    Column(
        "http_user_agent",
        Text,
        nullable=True,
        comment="User-Agent header sent; NULL = none recorded",
    ),
    Column("time_started_unix_utc", Integer, nullable=False, comment="when the run started"),
    Column(
        "time_finished_unix_utc",
        Integer,
        nullable=True,
        comment="when the run ended; NULL = still running, or killed",
    ),
    Column(
        "settings_json",
        Text,
        nullable=True,
        comment="the run's effective settings (JSON); NULL = not recorded",
    ),
    Column(
        "unob_version", Text, nullable=True, comment="version of unob that ran; NULL = not recorded"
    ),
    Column(
        "stop_reason",
        Text,
        nullable=True,
        comment="why the run ended (`frontier_empty`, `max_requests`, `interrupted`); NULL = "
        "still running or killed",
    ),
    comment="One row per crawler process run. Several runs may write one crawl DB in turn.",
)

crawl_log_entry = Table(
    "crawl_log_entry",
    metadata,
    Column("crawl_log_entry_id", Integer, primary_key=True),
    Column(
        "crawl_log_entry_uuid",
        Text,
        nullable=False,
        unique=True,
        comment="UUID of this crawl, unique across databases (the summarizer's idempotence key)",
    ),
    Column("agent_id", Integer, ForeignKey("agent.agent_id"), nullable=False, index=True),
    Column("url_id", Integer, ForeignKey("url.url_id"), nullable=False, comment="URL requested"),
    Column("crawl_type", Integer, nullable=False, comment="see lookup table `crawl_type`"),
    Column(
        "scheduling_reason",
        Integer,
        nullable=False,
        comment="see lookup table `scheduling_reason`",
    ),
    Column("started_unix_utc", Integer, nullable=False, comment="when the attempt started"),
    Column("started_unix_ms", Integer, nullable=False, comment="the same, in milliseconds"),
    Column(
        "time_taken_ms",
        Integer,
        nullable=True,
        comment="wall time of the attempt incl. retries and processing; NULL = not measured",
    ),
    Column("exit_code", Integer, nullable=False, comment="outcome; see lookup table `exit_code`"),
    Column("message", Text, nullable=True, comment="human-readable detail; NULL = none"),
    Column("depth", Integer, nullable=True, comment="link distance from a seed; NULL = unknown"),
    Index("ix_crawl_log_entry_url_id_entry", "url_id", "crawl_log_entry_id"),
    comment="Append-only log: one row per attempt to crawl one URL, whatever happened.",
)

request_info = Table(
    "request_info",
    metadata,
    Column("request_info_id", Integer, primary_key=True),
    Column(
        "crawl_log_entry_id",
        Integer,
        ForeignKey("crawl_log_entry.crawl_log_entry_id"),
        nullable=False,
        index=True,
    ),
    Column("url_id", Integer, ForeignKey("url.url_id"), nullable=False),
    Column("sent_unix_utc", Integer, nullable=False, comment="when the request was sent"),
    Column("sent_unix_ms", Integer, nullable=False, comment="the same, in milliseconds"),
    Column(
        "duration_ms",
        Integer,
        nullable=True,
        comment="until the whole answer was read; NULL = no answer",
    ),
    Column(
        "robotstxt_approved",
        Boolean,
        nullable=False,
        comment="robots.txt allowed the request (robots.txt fetches themselves count as approved)",
    ),
    Column("is_retry", Boolean, nullable=False, comment="a fluke retry of the previous request"),
    Column("http_status", Integer, nullable=True, comment="HTTP status; NULL = no answer"),
    Column("http_etag", Text, nullable=True, comment="ETag header; NULL = absent"),
    Column(
        "server_last_modified_unix_utc",
        Integer,
        nullable=True,
        comment="Last-Modified header; NULL = absent or unparseable",
    ),
    Column(
        "content_type",
        Text,
        nullable=True,
        comment="Content-Type header as sent; NULL = absent or no answer",
    ),
    Column(
        "content_encoding",
        Text,
        nullable=True,
        comment="Content-Encoding header; NULL = absent or no answer",
    ),
    Column(
        "body_bytes",
        Integer,
        nullable=True,
        comment="bytes of (decoded) body read; NULL = none read",
    ),
    Column(
        "retry_after_s", Integer, nullable=True, comment="Retry-After in seconds; NULL = not sent"
    ),
    Column(
        "x_robots_tag",
        Text,
        nullable=True,
        comment="X-Robots-Tag header; NULL = absent",
    ),
    Column("exit_code", Integer, nullable=False, comment="outcome of this request"),
    comment="One row per network request of an entry; a fluke retry is a second row.",
)

file_content = Table(
    "file_content",
    metadata,
    Column("file_content_id", Integer, primary_key=True),
    Column(
        "sha256",
        Text,
        nullable=False,
        unique=True,
        comment="hex SHA-256 of the uncompressed body (bodies are stored once)",
    ),
    Column("size", Integer, nullable=False, comment="uncompressed size in bytes"),
    Column(
        "compression",
        Text,
        nullable=False,
        comment="`zstd` (pages), `zlib` (pages stored by older unob) or `none` (images)",
    ),
    Column("data", LargeBinary, nullable=False, comment="the body, compressed as said"),
    comment="Distinct bodies (HTML pages and, with --images, images), deduplicated by SHA-256.",
)

file_info = Table(
    "file_info",
    metadata,
    Column("file_info_id", Integer, primary_key=True),
    Column(
        "crawl_log_entry_id",
        Integer,
        ForeignKey("crawl_log_entry.crawl_log_entry_id"),
        nullable=False,
        index=True,
    ),
    Column(
        "request_info_id",
        Integer,
        ForeignKey("request_info.request_info_id"),
        nullable=True,
        comment="the request it came from; NULL = not from a network request",
    ),
    Column("url_id", Integer, ForeignKey("url.url_id"), nullable=False, index=True),
    Column("mime_type", Text, nullable=True, comment="e.g. `text/html`; NULL = unknown"),
    Column(
        "charset",
        Text,
        nullable=True,
        comment="charset used to read the text (header, BOM, meta or detected); NULL = binary",
    ),
    Column("size", Integer, nullable=True, comment="body size in bytes; NULL = unknown"),
    Column(
        "last_modified_unix_utc",
        Integer,
        nullable=True,
        comment="Last-Modified of the file; NULL = unknown",
    ),
    Column(
        "canonical_url_id",
        Integer,
        ForeignKey("url.url_id"),
        nullable=True,
        comment="`<link rel=canonical>` target (RFC 6596); NULL = none given",
    ),
    Column(
        "file_content_id",
        Integer,
        ForeignKey("file_content.file_content_id"),
        nullable=True,
        index=True,
        comment="the body; NULL = not stored (a type unob does not store)",
    ),
    Column("depth", Integer, nullable=True, comment="link distance from a seed; NULL = unknown"),
    Column("robots_noindex", Boolean, nullable=False, comment="meta robots / X-Robots-Tag noindex"),
    Column(
        "robots_nofollow",
        Boolean,
        nullable=False,
        comment="meta robots / X-Robots-Tag nofollow (links were not followed)",
    ),
    Column(
        "links_found",
        Integer,
        nullable=True,
        comment="crawlable links found in the body; NULL = not an HTML page",
    ),
    comment="A file obtained by a crawl (HTML page or image) and its metadata.",
)

redirect = Table(
    "redirect",
    metadata,
    Column("redirect_id", Integer, primary_key=True),
    Column(
        "crawl_log_entry_id",
        Integer,
        ForeignKey("crawl_log_entry.crawl_log_entry_id"),
        nullable=False,
        index=True,
    ),
    Column(
        "request_info_id",
        Integer,
        ForeignKey("request_info.request_info_id"),
        nullable=True,
        comment="the answer that redirected; NULL = not from a network request",
    ),
    Column("url_id", Integer, ForeignKey("url.url_id"), nullable=False, comment="redirect from"),
    Column(
        "to_url_id", Integer, ForeignKey("url.url_id"), nullable=False, index=True, comment="to"
    ),
    Column("to_url_fragment", Text, nullable=True, comment="fragment of the target; NULL = none"),
    Column("http_status", Integer, nullable=True, comment="3xx status; NULL = meta refresh"),
    Column("is_permanent", Boolean, nullable=False, comment="301/308 (permanent) vs the rest"),
    Column(
        "by_security_policy",
        Boolean,
        nullable=False,
        comment="an http -> https upgrade of the same host and path",
    ),
    Column(
        "information_source",
        Integer,
        nullable=False,
        comment="see lookup table `information_source` (1 header, 3 meta refresh)",
    ),
    comment="A redirect answer. Redirects are recorded, never followed inline: the target "
    "becomes a crawl candidate.",
)

crawl_candidate = Table(
    "crawl_candidate",
    metadata,
    Column("url_id", Integer, ForeignKey("url.url_id"), primary_key=True),
    Column("origin_id", Integer, ForeignKey("origin.origin_id"), nullable=False),
    Column(
        "crawl_type",
        Integer,
        nullable=False,
        comment="what to do with it: 0 page, 10 image, 11 sitemap (see `crawl_type`)",
    ),
    Column(
        "depth",
        Integer,
        nullable=False,
        comment="link distance from a seed (seeds: 0); a sitemap's from robots.txt (its own: 0)",
    ),
    Column(
        "discovered_via_url_id",
        Integer,
        ForeignKey("url.url_id"),
        nullable=True,
        comment="page (or robots.txt, sitemap) where the URL was first found; NULL = a seed",
    ),
    Column("discovered_unix_utc", Integer, nullable=False, comment="when the URL was first found"),
    Column(
        "scheduling_reason",
        Integer,
        nullable=False,
        comment="why it is (or was last) due; see `scheduling_reason`",
    ),
    Column(
        "last_crawl_unix_utc",
        Integer,
        nullable=True,
        comment="last attempt; NULL = never attempted",
    ),
    Column(
        "last_crawl_exit_code",
        Integer,
        nullable=True,
        comment="outcome of the last attempt; NULL = never attempted",
    ),
    Column(
        "last_crawl_agent_id",
        Integer,
        ForeignKey("agent.agent_id"),
        nullable=True,
        comment="run (agent) of the last attempt: a URL is attempted at most once per run; "
        "NULL = never attempted",
    ),
    Column(
        "last_contentful_crawl_unix_utc",
        Integer,
        nullable=True,
        comment="last attempt that got content or a redirect; NULL = never",
    ),
    Column(
        "last_contentful_http_etag",
        Text,
        nullable=True,
        comment="ETag of that answer, for If-None-Match; NULL = none sent",
    ),
    Column(
        "last_contentful_last_modified_unix_utc",
        Integer,
        nullable=True,
        comment="Last-Modified of that answer, for If-Modified-Since; NULL = none sent",
    ),
    Column(
        "next_due_unix_utc",
        Integer,
        nullable=True,
        comment="when to crawl next; NULL = never (out of scope or done for good)",
    ),
    Index("ix_crawl_candidate_due", "next_due_unix_utc", "depth"),
    Index("ix_crawl_candidate_origin_due", "origin_id", "next_due_unix_utc"),
    # The exploration frontier: never-attempted, in-scope candidates of an origin in
    # breadth-first order.  Partial, so it shrinks as the crawl proceeds and pulling the
    # next batch never scans past URLs that are already done.
    Index(
        "ix_crawl_candidate_unexplored",
        "origin_id",
        "depth",
        "url_id",
        sqlite_where=text("last_crawl_unix_utc IS NULL AND next_due_unix_utc IS NOT NULL"),
    ),
    comment="The frontier: every known URL and its crawl state. A killed crawl resumes from here.",
)
