"""What one crawl log entry says, before the summary database is consulted (pure).

:func:`observe` turns a :class:`~unob.summarizer.crawlread.CrawlEntry` into an
:class:`Observed`: the :class:`~unob.summarizer.generations.Outcome` for the
generation decisions, the kind of generation it would make, the derived
content of a page, and the *content signature*, which decides
self-duplicates: two crawls of a URL with the same signature are the same
generation.

A page's derived content is kept as :class:`PageContent`: the text pile and
the rows for ``document_description``, ``heading``, ``image`` and
``link_summary`` as plain tuples (in the column orders below), not the
:class:`~unob.summarizer.document.Derived` objects.  Tuples of strings and
numbers cross a process boundary about ten times faster than frozen
dataclasses, and the pipeline derives in worker processes
(:func:`observe_releasing`).

Signatures (xxh3_128 over a tagged, length-prefixed serialization):

* page: the text pile digest and the document description (seed 002: "same
  digest and same description"); a page whose body could not be read
  (corrupt storage) signs its SHA-256 instead;
* redirect: target URL, fragment and permanence;
* other file types (no text): MIME type, size and body SHA-256 if stored.

Choices (see ``docs/summarizer.md``): bodies are derived as HTML when their
MIME type is HTML, XML, any ``text/*`` or unknown; other stored or unstored
files become ``file`` generations without text.  A 404/410 is GONE, a 304 is
NOT_MODIFIED, a redirect with its ``redirect`` row is CONTENT, and every other
outcome (failures, 5xx, 429, robots disallow, too large...) is FAILURE.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

import xxhash

from unob import bodycodec
from unob.codes import ExitCode
from unob.summarizer.crawlentry import CrawlEntry
from unob.summarizer.document import LINK_FLAG_NAMES, Derived, Link, TextPile
from unob.summarizer.extract import derive_html
from unob.summarizer.generations import Outcome

__all__ = [
    "DESCRIPTION_COLUMNS",
    "HEADING_COLUMNS",
    "IMAGE_COLUMNS",
    "LINK_COLUMNS",
    "Observed",
    "PageContent",
    "is_html_like",
    "observe",
    "observe_releasing",
]

_GONE = (int(ExitCode.FILE_NOT_FOUND), int(ExitCode.FILE_GONE))
_CONTENT_WITH_FILE = (
    int(ExitCode.FILE_INGESTED),
    int(ExitCode.NOINDEX),
    int(ExitCode.FILE_OF_UNKNOWN_TYPE),
)
_HTML_MIMES = frozenset({"application/xhtml+xml", "application/xml", "application/html"})

# Row layouts: each table's columns after entity_generation_id (which the
# pipeline prepends).  Link rows start with the target URL as text; the
# pipeline swaps it for its url_id.
DESCRIPTION_COLUMNS = (
    "title",
    "primary_headline",
    "description",
    "primary_language",
    "keywords",
    "author",
    "image",
    "category",
    "published_unix_utc",
    "modified_unix_utc",
    "canonical_url",
    "word_count",
    "indexiness",
    "robots",
)
# The description values that take part in a page's signature: all but
# word_count, which follows from the text pile.  (Adding a column here changes
# every page's signature: each page gets one new generation at its next crawl.)
_SIGNED = tuple(i for i, name in enumerate(DESCRIPTION_COLUMNS) if name != "word_count")
HEADING_COLUMNS = ("position", "level", "text", "anchor")
IMAGE_COLUMNS = ("position", "src", "alt", "width", "height")
# The rel and location flags of a Link, stored as one int in link_summary.flags:
# bit k is LINK_FLAG_NAMES[k], which link_summary also shows as a column of that
# name (computed from `flags` when read; migration s0003, docs/summarizer.md).
_LINK_FLAGS = LINK_FLAG_NAMES
LINK_COLUMNS = (
    "to_url_id",
    "to_url_fragment",
    "text",
    "kind",
    "locality",
    "rel",
    "flags",
)
# One C-level call per link (a page can have thousands of links).
_link_head = attrgetter("to_url", "to_fragment", "text", "kind", "locality")
_link_flags = attrgetter(*_LINK_FLAGS)
_flag_key = attrgetter("location", "rel", "contains_heading", "in_main_content")
_flag_bits_of: dict[tuple[Any, ...], int] = {}


def _flag_bits(link: Link) -> int:
    """The link's flags as one int, bit i for ``LINK_FLAG_NAMES[i]``; cached.

    This int is what ``link_summary.flags`` stores.  A page's links share a
    few dozen combinations of location, rel and the two booleans, so most
    links cost one dict lookup instead of 24 property calls.  One int
    instead of 24 also halves the cost of sending a page's link rows back
    from a worker process (pickling and unpickling about 90 KB a page on
    python3-doc took 2.4 ms; 7-tuples take 1.2 ms), and of writing them: one
    bound parameter and one stored value instead of 24.
    """
    key = _flag_key(link)
    bits = _flag_bits_of.get(key)
    if bits is None:
        if len(_flag_bits_of) > 4096:
            _flag_bits_of.clear()
        bits = sum(1 << i for i, value in enumerate(_link_flags(link)) if value)
        _flag_bits_of[key] = bits
    return bits


def link_row(
    generation_id: int, position: int, to_url_id: int, link: tuple[Any, ...]
) -> tuple[Any, ...]:
    """The ``link_summary`` row of one of :attr:`PageContent.links`.

    Columns: ``entity_generation_id``, ``position``, then :data:`LINK_COLUMNS`
    (the compact link with its target URL replaced by the URL's id).
    """
    return (
        generation_id,
        position,
        to_url_id,
        link[1],
        link[2],
        link[3],
        link[4],
        link[5],
        link[6],
    )


def link_rows(
    generation_id: int, links: list[tuple[Any, ...]], url_ids: dict[str, int]
) -> list[tuple[Any, ...]]:
    """The ``link_summary`` rows of a page's :attr:`PageContent.links` (:func:`link_row`).

    ``url_ids`` maps each target URL to its ``url_id``.  One call a page, so
    that the loop runs compiled (unob.native): building the rows from the
    writer's interpreted code took about 750 instructions a link more.
    """
    return [
        link_row(generation_id, position, url_ids[link[0]], link)
        for position, link in enumerate(links)
    ]


@dataclass(slots=True)
class PageContent:
    """What a page's derivation leaves for the summary DB, as plain rows."""

    pile: TextPile
    #: ``pile.digest()``
    digest: bytes
    #: Values in :data:`DESCRIPTION_COLUMNS` order.
    description: tuple[Any, ...]
    #: ``<link rel=canonical>`` as the page states it (not canonicalized).
    canonical_url: str | None
    noindex: bool
    nofollow: bool
    headings: list[tuple[Any, ...]]
    images: list[tuple[Any, ...]]
    #: ``(to_url, to_fragment, text, kind, locality, rel, flag bits)`` per
    #: link: compact for the trip from a worker; :func:`link_rows` makes the rows.
    links: list[tuple[Any, ...]]


@dataclass(slots=True)
class Observed:
    """One page-crawl entry, interpreted."""

    entry: CrawlEntry
    outcome: Outcome
    #: ``page``, ``file`` or ``redirect`` for CONTENT, else None.
    kind: str | None = None
    signature: bytes | None = None
    content: PageContent | None = None
    derive_error: str | None = None

    @property
    def digest(self) -> bytes | None:
        return None if self.content is None else self.content.digest

    @property
    def noindex(self) -> bool:
        """The page asked not to be indexed (crawler flag, exit code or meta robots)."""
        entry = self.entry
        return (
            entry.exit_code == ExitCode.NOINDEX
            or (entry.file is not None and entry.file.robots_noindex)
            or (self.content is not None and self.content.noindex)
        )

    @property
    def nofollow(self) -> bool:
        return (self.entry.file is not None and self.entry.file.robots_nofollow) or (
            self.content is not None and self.content.nofollow
        )


def is_html_like(mime_type: str | None) -> bool:
    """True for MIME types whose bodies are derived as HTML (unknown counts as HTML)."""
    if mime_type is None:
        return True
    mime = mime_type.strip().lower()
    return not mime or mime.startswith("text/") or mime in _HTML_MIMES or mime.endswith("+xml")


def _sign(*parts: str | bytes) -> bytes:
    hasher = xxhash.xxh3_128()
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        # Length prefixes: ("ab", "c") and ("a", "bc") must not sign alike.
        hasher.update(len(data).to_bytes(8, "little"))
        hasher.update(data)
    return hasher.digest()


def page_signature(digest: bytes, description: tuple[Any, ...]) -> bytes:
    """Signature of a page: its text pile digest and its description row."""
    signed = json.dumps([description[i] for i in _SIGNED], ensure_ascii=False)
    return _sign("page", digest, signed)


def page_content(derived: Derived, digest: bytes) -> PageContent:
    """Flatten a derivation into rows (see the module docstring for why)."""
    d = derived.description
    keywords = json.dumps(list(d.keywords), ensure_ascii=False) if d.keywords else None
    return PageContent(
        pile=derived.text_pile,
        digest=digest,
        description=(
            d.title,
            d.primary_headline,
            d.description,
            d.primary_language,
            keywords,
            d.author,
            d.image,
            d.category,
            d.published_unix_utc,
            d.modified_unix_utc,
            d.canonical_url,
            d.word_count,
            d.indexiness,
            " ".join(d.robots) or None,
        ),
        canonical_url=d.canonical_url,
        noindex="noindex" in d.robots,
        nofollow="nofollow" in d.robots,
        # Positions are renumbered 0.. in document order, so the primary keys
        # hold whatever the extractor returns.
        headings=[(i, h.level, h.text, h.anchor) for i, h in enumerate(derived.headings)],
        images=[(i, m.src, m.alt, m.width, m.height) for i, m in enumerate(derived.images)],
        links=[
            (*_link_head(link), " ".join(link.rel) or None, _flag_bits(link))
            for link in derived.links
        ],
    )


def _body(entry: CrawlEntry) -> bytes:
    file = entry.file
    assert file is not None and file.data is not None
    return bodycodec.decompress(file.compression, file.data, file.body_size)


def _observe_page(entry: CrawlEntry) -> Observed:
    file = entry.file
    assert file is not None
    try:
        derived = derive_html(_body(entry), entry.url, file.charset)
        digest = derived.text_pile.digest()
        content = page_content(derived, digest)
        signature = page_signature(digest, content.description)
    except Exception as exc:  # one bad file must never stop a batch
        error = f"{type(exc).__name__}: {exc}"[:500]
        signature = _sign("page-error", file.sha256 or "", error)
        return Observed(entry, Outcome.CONTENT, "page", signature, derive_error=error)
    return Observed(entry, Outcome.CONTENT, "page", signature, content)


def observe(entry: CrawlEntry) -> Observed:
    """Interpret a page-crawl entry; derives the page's content when it has a body."""
    code = entry.exit_code
    if entry.redirect is not None:
        red = entry.redirect
        signature = _sign(
            "redirect", red.to_url, red.to_fragment or "", "1" if red.is_permanent else "0"
        )
        return Observed(entry, Outcome.CONTENT, "redirect", signature)
    if code == ExitCode.FILE_DID_NOT_CHANGE:
        return Observed(entry, Outcome.NOT_MODIFIED)
    if code in _GONE:
        return Observed(entry, Outcome.GONE)
    file = entry.file
    if file is None or code not in _CONTENT_WITH_FILE:
        return Observed(entry, Outcome.FAILURE)
    if file.data is not None and is_html_like(file.mime_type):
        return _observe_page(entry)
    signature = _sign("file", file.mime_type or "", str(file.size), file.sha256 or "")
    return Observed(entry, Outcome.CONTENT, "file", signature)


def observe_releasing(entry: CrawlEntry) -> Observed:
    """:func:`observe`, then the stored body is dropped from the result.

    The unit of work of the pipeline's worker processes: what goes back to
    the writer is only what it stores.
    """
    result = observe(entry)
    if result.entry.file is not None:
        result.entry.file.data = None
    return result
