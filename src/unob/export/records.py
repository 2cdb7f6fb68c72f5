"""What every export format needs to know about one current page.

:class:`PageRecord` is the boundary between the row reader (which joins the
summary database and, when given, the crawl databases) and the pure format
builders (:mod:`.spideriment`, :mod:`.algolia`, :mod:`.dataset`,
:mod:`.readable`).  The builders never see a database, so each format is
tested on records built in the test.

The export phase does not import the summarizer: phases meet only in the
databases (DESIGN.md §2), so the small value types here mirror what the
summary database stores rather than the summarizer's own classes.

Convention: a missing text value is ``""`` (every format either writes an
empty string or omits the field), a missing number is ``None``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["HeadingRef", "ImageRef", "LinkRef", "PageRecord", "TextFields"]


@dataclass(frozen=True, slots=True)
class HeadingRef:
    """One h1-h6 element of a page, in document order."""

    level: int
    text: str
    #: The element id a ``url#anchor`` can point at, or ``""``.
    anchor: str = ""


@dataclass(frozen=True, slots=True)
class ImageRef:
    """One ``<img>`` of a page: absolute ``src`` and its ``alt`` text."""

    src: str
    alt: str = ""


@dataclass(frozen=True, slots=True)
class LinkRef:
    """One outgoing link: absolute target (no fragment) and its text."""

    url: str
    text: str = ""
    #: The element that made the link: ``a``, ``area``, ``link``, ...
    kind: str = "a"
    #: ``self`` (same document), ``in`` (same site) or ``out`` (other site).
    locality: str = "in"

    @property
    def is_web(self) -> bool:
        """An http(s) target (not ``mailto:``, ``tel:``, ``ftp:``, ...)."""
        return self.url[:8].lower().startswith(("http://", "https://"))


@dataclass(frozen=True, slots=True)
class TextFields:
    """The six text-pile fields (unobtanium gen1, reference/unobtanium.md §5.1).

    ``text`` is the main content, one line per block, headings included;
    ``secondary_text`` is the rest of the visible text (boilerplate).
    """

    text: str = ""
    secondary_text: str = ""
    big_headlines: str = ""
    small_headlines: str = ""
    code_text: str = ""
    quote_text: str = ""

    @property
    def content(self) -> str:
        """The page's readable body: the main content, else all other text.

        A page whose main-content detection found nothing (a bare list of
        links, a frameset) still has text worth exporting.
        """
        return self.text if self.text.strip() else self.secondary_text


@dataclass(frozen=True, slots=True)
class PageRecord:
    """One exported page (one entity generation of the summary database)."""

    #: ``entity_generation_id``: stable order and identity within one summary DB.
    key: int
    #: The page's URL in unob's canonical form (the final URL, after redirects).
    url: str
    #: Unix seconds UTC of the latest crawl that saw this content.
    crawl_unix: int
    #: Unix seconds UTC of the crawl that fetched the stored body (0 = unknown).
    fetched_unix: int = 0
    #: The URL first navigated to when it differs from ``url`` (a redirect source).
    original_url: str = ""
    #: ``<link rel=canonical>`` target, or ``""``.
    canonical_url: str = ""
    title: str = ""
    #: The first h1 as the summarizer found it.
    primary_headline: str = ""
    description: str = ""
    language: str = ""
    #: ``meta name=keywords`` split on commas, then ``article:tag`` values.
    keywords: tuple[str, ...] = ()
    author: str = ""
    #: ``og:image`` (absolute URL) or ``""``.
    image: str = ""
    #: ``article:section`` / ``product:category`` or ``""``.
    category: str = ""
    published_unix: int | None = None
    modified_unix: int | None = None
    http_status: int | None = None
    response_time_ms: int | None = None
    #: Size of the response body in bytes.
    size_bytes: int | None = None
    mime_type: str = ""
    headings: tuple[HeadingRef, ...] = ()
    images: tuple[ImageRef, ...] = ()
    links: tuple[LinkRef, ...] = ()
    text: TextFields = field(default_factory=TextFields)
    #: Hex SHA-256 of the raw response body in the crawl DB, or ``""``.
    raw_html_sha256: str = ""

    #: Charset of the body as the crawler recorded it, or ``""``.
    charset: str = ""

    @property
    def content(self) -> str:
        """The readable body text, one line per block (see :attr:`TextFields.content`)."""
        return self.text.content

    @property
    def title_or_h1(self) -> str:
        """The ``<title>``, else the first h1 (seed 001's ``title``)."""
        if self.title.strip():
            return self.title
        if self.primary_headline.strip():
            return self.primary_headline
        return next((h.text for h in self.headings if h.level == 1 and h.text.strip()), "")

    @property
    def navigated_url(self) -> str:
        """The URL the crawl started from: the redirect source, else ``url``."""
        return self.original_url or self.url
