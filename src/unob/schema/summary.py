"""The summary database: what ``unob summarize`` derived from crawl databases (DESIGN.md §3, §5).

Everything hangs off ``entity_generation``: one version of what one URL
served, from the first crawl that saw it (``first_seen_unix_utc``) to the
last one that confirmed it (``last_seen_unix_utc``), closed
(``confirmed_end_unix_utc``) when a later crawl saw something else or a 404.
A generation is *open* while ``confirmed_end_unix_utc IS NULL``; "the current
web" is the open generations that are not ``marked_duplicate``.

The full-text index ``search_index`` (FTS5) is not declared here: SQLAlchemy
cannot describe virtual tables.  The migration creates it with plain SQL and
:mod:`unob.summarizer.fts` documents its columns and keeps it in step.
The algorithm that fills these tables is described in ``docs/summarizer.md``.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Column,
    Computed,
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

#: Values of ``entity_generation.kind``.
GENERATION_KINDS = ("page", "file", "redirect")

crawl_source = Table(
    "crawl_source",
    metadata,
    Column("crawl_source_id", Integer, primary_key=True),
    Column(
        "database_uuid",
        Text,
        nullable=False,
        unique=True,
        comment="`database_uuid` of the crawl DB (its `database_info`): a moved or copied file "
        "is still the same source",
    ),
    Column("path", Text, nullable=False, comment="absolute path the crawl DB was last read from"),
    Column(
        "high_water_crawl_log_entry_id",
        Integer,
        nullable=False,
        comment="every `crawl_log_entry` of that DB with an id up to this one is integrated; "
        "the next summarize starts after it (0 = nothing yet)",
    ),
    Column(
        "entries_integrated",
        Integer,
        nullable=False,
        comment="crawl log entries read from this source so far (incl. skipped ones)",
    ),
    Column(
        "first_integrated_unix_utc",
        Integer,
        nullable=False,
        comment="wall-clock time of the first summarize of this source",
    ),
    Column(
        "last_integrated_unix_utc",
        Integer,
        nullable=False,
        comment="wall-clock time of the last committed batch from this source",
    ),
    comment="A crawl database that feeds this summary DB, and how far it was integrated "
    "(the high-water mark, committed with each batch).",
)

text_pile = Table(
    "text_pile",
    metadata,
    Column("text_pile_id", Integer, primary_key=True),
    Column(
        "digest",
        LargeBinary,
        nullable=False,
        unique=True,
        comment="xxh3_128 (16 bytes) of the six text fields joined with three newlines, UTF-8; "
        "piles are stored once per digest",
    ),
    Column(
        "text",
        Text,
        nullable=False,
        comment="main content, one line per block (headings, code and quotes included); "
        "empty string = no main content found",
    ),
    Column(
        "secondary_text",
        Text,
        nullable=False,
        comment="all other visible text (navigation, footers, sidebars); empty string = none",
    ),
    Column("big_headlines", Text, nullable=False, comment="h1-h3 texts, one per line"),
    Column("small_headlines", Text, nullable=False, comment="h4-h6 texts, one per line"),
    Column("code_text", Text, nullable=False, comment="text in pre/code/kbd/samp, one per line"),
    Column("quote_text", Text, nullable=False, comment="text in blockquote/q, one per line"),
    comment="The text of a page (unobtanium's gen1 text pile). `text` + `secondary_text` hold "
    "all of it; the other four fields repeat parts of them for search weighting.",
)

entity_generation = Table(
    "entity_generation",
    metadata,
    Column("entity_generation_id", Integer, primary_key=True),
    Column(
        "entity_generation_uuid",
        Text,
        nullable=False,
        unique=True,
        comment="random UUID (v4) of this generation, for references across databases",
    ),
    Column("url_id", Integer, ForeignKey("url.url_id"), nullable=False, comment="the URL"),
    Column(
        "url_fragment",
        Text,
        nullable=True,
        comment="the document element this generation is about; NULL = the whole document "
        "(always NULL today: crawls are of fragment-less URLs)",
    ),
    Column(
        "kind",
        Text,
        nullable=False,
        comment="`page` (HTML with text), `file` (a non-HTML file, no text) or `redirect`",
    ),
    Column(
        "first_seen_unix_utc",
        Integer,
        nullable=False,
        comment="request time of the first crawl that saw this version",
    ),
    Column(
        "last_seen_unix_utc",
        Integer,
        nullable=False,
        comment="request time of the last crawl that confirmed this version (incl. 304s)",
    ),
    Column(
        "confirmed_end_unix_utc",
        Integer,
        nullable=True,
        comment="when a crawl saw that this version had ended (other content, 404, 410); "
        "NULL = open, still current",
    ),
    Column(
        "marked_duplicate",
        Boolean,
        nullable=False,
        server_default=text("0"),
        comment="1 = an exact duplicate of another generation of its origin (see "
        "`duplicate_summary`): for open generations it follows the current duplicate_summary, "
        "closed ones keep the state they closed with",
    ),
    Column(
        "text_pile_id",
        Integer,
        ForeignKey("text_pile.text_pile_id"),
        nullable=True,
        index=True,
        comment="its text; NULL = no text (redirects, non-HTML files, undecodable pages)",
    ),
    Column(
        "content_signature",
        LargeBinary,
        nullable=False,
        comment="xxh3_128 of what makes two crawls the same version (kind, text pile digest, "
        "description; redirect target; file type and size): equal signature = self-duplicate",
    ),
    CheckConstraint("first_seen_unix_utc <= last_seen_unix_utc", name="seen_order"),
    CheckConstraint("kind IN ('page', 'file', 'redirect')", name="kind"),
    Index(
        "ix_entity_generation_open_url",
        "url_id",
        unique=True,
        sqlite_where=text("confirmed_end_unix_utc IS NULL AND url_fragment IS NULL"),
    ),
    Index("ix_entity_generation_first_seen", "first_seen_unix_utc"),
    comment="One version of what a URL served, over the time span crawls saw it. "
    "Open (confirmed_end NULL) = current; at most one open generation per URL.",
)

crawl_summary = Table(
    "crawl_summary",
    metadata,
    Column("crawl_summary_id", Integer, primary_key=True),
    Column(
        "entity_generation_id",
        Integer,
        ForeignKey("entity_generation.entity_generation_id"),
        nullable=True,
        index=True,
        comment="the generation this crawl created, confirmed, closed or failed to reach; "
        "NULL = none (a failure, 304 or 404 for a URL with no open generation)",
    ),
    Column(
        "crawl_uuid",
        Text,
        nullable=False,
        unique=True,
        comment="`crawl_log_entry_uuid` of the crawl (the summarizer's idempotence key)",
    ),
    Column(
        "crawl_source_id",
        Integer,
        ForeignKey("crawl_source.crawl_source_id"),
        nullable=False,
        comment="the crawl DB it came from",
    ),
    Column(
        "crawl_log_entry_id",
        Integer,
        nullable=False,
        comment="`crawl_log_entry_id` in that crawl DB",
    ),
    Column("url_id", Integer, ForeignKey("url.url_id"), nullable=False, comment="URL crawled"),
    Column("agent_uuid", Text, nullable=False, comment="`agent_uuid` of the crawler run"),
    Column("crawl_type", Integer, nullable=False, comment="see lookup table `crawl_type`"),
    Column(
        "scheduling_reason",
        Integer,
        nullable=False,
        comment="see lookup table `scheduling_reason`",
    ),
    Column(
        "time_started_unix_utc",
        Integer,
        nullable=False,
        comment="when the crawl was made: the final request's send time, else the entry's start",
    ),
    Column(
        "was_robotstxt_approved",
        Boolean,
        nullable=True,
        comment="robots.txt allowed the request; NULL = no request was sent",
    ),
    Column("exit_code", Integer, nullable=False, comment="outcome; see lookup table `exit_code`"),
    Column("message", Text, nullable=True, comment="the crawler's detail message; NULL = none"),
    Column(
        "request_duration_ms",
        Integer,
        nullable=True,
        comment="duration of the final request; NULL = no request or no answer",
    ),
    Column(
        "request_count",
        Integer,
        nullable=False,
        comment="network requests made (a fluke retry makes 2; 0 = none sent)",
    ),
    Column(
        "time_last_modified_unix_utc",
        Integer,
        nullable=True,
        comment="Last-Modified header of the answer; NULL = absent or no answer",
    ),
    Column("http_status", Integer, nullable=True, comment="HTTP status; NULL = no HTTP answer"),
    Column("http_etag", Text, nullable=True, comment="ETag header; NULL = absent"),
    Column("content_type", Text, nullable=True, comment="Content-Type header; NULL = absent"),
    Column(
        "summarizer_action",
        Text,
        nullable=False,
        comment="what the summarizer did with it: `new_generation`, `self_duplicate`, "
        "`closed_generation`, `late_generation`, `attached` (a failure, nothing changed), "
        "`unattached` (no generation)",
    ),
    comment="One row per summarized crawl (a crawl log entry of a page URL): the crawl's "
    "outcome and HTTP answer, attached to the generation it concerns.",
)

file_summary = Table(
    "file_summary",
    metadata,
    Column(
        "entity_generation_id",
        Integer,
        ForeignKey("entity_generation.entity_generation_id"),
        primary_key=True,
    ),
    Column("mime_type", Text, nullable=True, comment="e.g. `text/html`; NULL = unknown"),
    Column(
        "charset",
        Text,
        nullable=True,
        comment="charset the crawler decoded it with; NULL = not text",
    ),
    Column("file_size", Integer, nullable=True, comment="body size in bytes; NULL = unknown"),
    Column(
        "content_sha256",
        Text,
        nullable=True,
        comment="hex SHA-256 of the body: key of `file_content.sha256` in the crawl DB, where "
        "the raw bytes are; NULL = body not stored",
    ),
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
    Column("depth", Integer, nullable=True, comment="link distance from a seed; NULL = unknown"),
    Column(
        "robots_noindex",
        Boolean,
        nullable=False,
        comment="the page asks not to be indexed (meta robots / X-Robots-Tag): kept out of "
        "`search_index`",
    ),
    Column(
        "robots_nofollow",
        Boolean,
        nullable=False,
        comment="the page asks that its links not be followed",
    ),
    Column("link_count", Integer, nullable=False, comment="rows in `link_summary`"),
    Column(
        "derive_error",
        Text,
        nullable=True,
        comment="why content derivation failed (e.g. a corrupt stored body); NULL = it worked",
    ),
    comment="The file a generation's first crawl obtained (pages and non-HTML files).",
)

document_description = Table(
    "document_description",
    metadata,
    Column(
        "entity_generation_id",
        Integer,
        ForeignKey("entity_generation.entity_generation_id"),
        primary_key=True,
    ),
    Column("title", Text, nullable=True, comment="`<title>` (else og:title); NULL = none"),
    Column("primary_headline", Text, nullable=True, comment="the first h1; NULL = none"),
    Column(
        "description",
        Text,
        nullable=True,
        comment="meta description (else og:description); NULL = none",
    ),
    Column(
        "primary_language",
        Text,
        nullable=True,
        comment="BCP 47 tag the page declares (lang, Content-Language, og:locale), lower case; "
        "NULL = not declared (never guessed)",
    ),
    Column(
        "keywords",
        Text,
        nullable=True,
        comment="JSON array of meta keywords and article:tag values; NULL = none",
    ),
    Column("author", Text, nullable=True, comment="meta author / article:author; NULL = none"),
    Column("image", Text, nullable=True, comment="og:image, absolute URL; NULL = none"),
    Column(
        "category",
        Text,
        nullable=True,
        comment="article:section or product:category; NULL = none",
    ),
    Column(
        "published_unix_utc",
        Integer,
        nullable=True,
        comment="publication date the page states; NULL = none found",
    ),
    Column(
        "modified_unix_utc",
        Integer,
        nullable=True,
        comment="last-update date the page states; NULL = none found",
    ),
    Column(
        "canonical_url",
        Text,
        nullable=True,
        comment="`<link rel=canonical>` as found in the page; NULL = none",
    ),
    Column("word_count", Integer, nullable=False, comment="words in `text_pile.text`"),
    Column(
        "indexiness",
        Integer,
        nullable=False,
        comment="positive = index/navigation page, negative = leaf page (docs/summarizer.md)",
    ),
    Column(
        "robots",
        Text,
        nullable=True,
        comment="meta robots tokens, space-separated; NULL = none",
    ),
    comment="Best-effort metadata of a page, derived from its HTML.",
)


#: The rel and location flags of a link, in bit order: bit k of
#: ``link_summary.flags`` is ``LINK_FLAGS[k][0]``.  Public API (docs/summarizer.md,
#: "Link flags"): a new flag takes the next free bit, none ever moves.
LINK_FLAGS = (
    ("rel_nofollow", "rel=nofollow"),
    ("rel_ugc", "rel=ugc"),
    ("rel_sponsored", "rel=sponsored"),
    ("rel_noopener", "rel=noopener"),
    ("rel_noreferrer", "rel=noreferrer"),
    ("rel_me", "rel=me"),
    ("rel_tag", "rel=tag"),
    ("in_nav", "inside nav / role=navigation"),
    ("in_header", "inside header / role=banner"),
    ("in_footer", "inside footer / role=contentinfo"),
    ("in_aside", "inside aside / role=complementary"),
    ("in_main", "inside main / role=main"),
    ("in_article", "inside article / role=article"),
    ("in_heading", "inside h1-h6"),
    ("in_list", "inside ul/ol/dl"),
    ("in_form", "inside form"),
    ("in_section", "inside section"),
    ("in_table", "inside table"),
    ("in_figure", "inside figure"),
    ("in_address", "inside address"),
    ("in_code", "inside pre/code"),
    ("in_paragraph", "inside p"),
    ("contains_heading", "the link element contains a heading"),
    ("in_main_content", "inside the part chosen as the main content"),
)


def _flag(bit: int, name: str, what: str) -> Column[bool]:
    """A flag column: bit ``bit`` of ``flags``, computed when read (VIRTUAL), never stored."""
    return Column(
        name,
        Boolean,
        Computed(f"(flags >> {bit}) & 1", persisted=False),
        comment=f"{what} (bit {bit} of `flags`: `(flags >> {bit}) & 1`)",
    )


link_summary = Table(
    "link_summary",
    metadata,
    Column(
        "entity_generation_id",
        Integer,
        ForeignKey("entity_generation.entity_generation_id"),
        primary_key=True,
        comment="the page the link is on",
    ),
    Column("position", Integer, primary_key=True, comment="0-based order of the link in the page"),
    Column(
        "to_url_id",
        Integer,
        ForeignKey("url.url_id"),
        nullable=False,
        index=True,
        comment="link target without fragment",
    ),
    Column("to_url_fragment", Text, nullable=True, comment="fragment of the target; NULL = none"),
    Column("text", Text, nullable=False, comment="link text (or alt / title); may be empty"),
    Column(
        "kind",
        Text,
        nullable=False,
        comment="element that made the link: `a`, `area`, `link`, `meta_refresh`, `iframe`, `form`",
    ),
    Column(
        "locality",
        Text,
        nullable=False,
        comment="`self` (same document), `in` (same site), `out` (other site)",
    ),
    Column("rel", Text, nullable=True, comment="all rel tokens, space-separated; NULL = none"),
    *(_flag(bit, name, what) for bit, (name, what) in enumerate(LINK_FLAGS)),
    Column(
        "flags",
        Integer,
        nullable=False,
        comment="the flag columns before it as one bitmask: bit k (value `1 << k`) is the "
        "k-th flag column (`rel_nofollow` = bit 0 ... `in_main_content` = bit 23)",
    ),
    comment="Outgoing links of a page generation, with rel and location flags "
    "(unobtanium's link summary).",
    # WITHOUT ROWID: rows are stored in primary-key order in one B-tree instead
    # of a rowid table plus a key index (one B-tree less per inserted row).
    sqlite_with_rowid=False,
)

redirect_summary = Table(
    "redirect_summary",
    metadata,
    Column(
        "entity_generation_id",
        Integer,
        ForeignKey("entity_generation.entity_generation_id"),
        primary_key=True,
    ),
    Column("to_url_id", Integer, ForeignKey("url.url_id"), nullable=False, index=True),
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
    comment="Where a redirect generation points.",
)

duplicate_summary = Table(
    "duplicate_summary",
    metadata,
    Column("duplicate_summary_id", Integer, primary_key=True),
    Column(
        "subject_entity_generation_id",
        Integer,
        ForeignKey("entity_generation.entity_generation_id"),
        nullable=False,
        index=True,
        comment="the duplicate",
    ),
    Column(
        "original_entity_generation_id",
        Integer,
        ForeignKey("entity_generation.entity_generation_id"),
        nullable=False,
        index=True,
        comment="the generation it duplicates (same origin, same text pile, shortest URL)",
    ),
    Column(
        "detected_unix_utc",
        Integer,
        nullable=False,
        comment="crawl time from which both were open with the same text (the later "
        "first_seen of the two); not the wall-clock time of the summarize run",
    ),
    Column(
        "ended_unix_utc",
        Integer,
        nullable=True,
        comment="crawl time at which this stopped holding (either closed, or a shorter URL "
        "became the original); NULL = still holds",
    ),
    CheckConstraint(
        "subject_entity_generation_id <> original_entity_generation_id", name="not_self"
    ),
    comment="Exact duplicates: open generations of one origin with the same text pile; the "
    "shortest URL (ties: smallest string) is the original.",
)

heading = Table(
    "heading",
    metadata,
    Column(
        "entity_generation_id",
        Integer,
        ForeignKey("entity_generation.entity_generation_id"),
        primary_key=True,
    ),
    Column("position", Integer, primary_key=True, comment="0-based order in the page"),
    Column("level", Integer, nullable=False, comment="1-6 for h1-h6"),
    Column("text", Text, nullable=False, comment="heading text"),
    Column(
        "anchor",
        Text,
        nullable=True,
        comment="id a `url#anchor` link can point at (on the heading, inside it, or on its "
        "section); NULL = none",
    ),
    comment="The h1-h6 headings of a page, in document order.",
    # WITHOUT ROWID: rows are stored in primary-key order in one B-tree instead
    # of a rowid table plus a key index (one B-tree less per inserted row).
    sqlite_with_rowid=False,
)

image = Table(
    "image",
    metadata,
    Column(
        "entity_generation_id",
        Integer,
        ForeignKey("entity_generation.entity_generation_id"),
        primary_key=True,
    ),
    Column("position", Integer, primary_key=True, comment="0-based order in the page"),
    Column(
        "src",
        Text,
        nullable=False,
        comment="absolute image URL (the crawl DB holds the file when crawled with --images)",
    ),
    Column("alt", Text, nullable=True, comment="alt text; NULL = no alt attribute"),
    Column("width", Integer, nullable=True, comment="width attribute in px; NULL = absent"),
    Column("height", Integer, nullable=True, comment="height attribute in px; NULL = absent"),
    comment="The `<img>` elements of a page, in document order.",
    # WITHOUT ROWID: rows are stored in primary-key order in one B-tree instead
    # of a rowid table plus a key index (one B-tree less per inserted row).
    sqlite_with_rowid=False,
)
