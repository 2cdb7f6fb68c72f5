"""What the summarizer derives from one document: plain, immutable values.

These dataclasses are the contract between the pure extraction core
(:func:`unob.summarizer.extract.derive_html`), the database pipeline that
stores them, and the exports that read them back.  Fields may be added;
none may be removed or renamed.

Field meanings follow unobtanium's summary database
(``reference/unobtanium.md`` §3.4, §3.5, §3.7 and §5), extended with the
article metadata the dataset (seed 001) and Algolia (seed 003) exports need.
"""

from __future__ import annotations

from dataclasses import dataclass

import xxhash

#: Separator between the six text pile fields when digesting (DESIGN.md §5).
DIGEST_SEPARATOR = "\n\n\n"


@dataclass(frozen=True, slots=True)
class TextPile:
    """The six text fields of unobtanium's gen1 text pile (reference §5.1).

    ``text`` is the main content, one line per block (paragraph, list item,
    heading, ...), headings, code and quotes included; ``secondary_text`` is
    everything else that is visible text (boilerplate).  Together they hold
    all of the page's text.  The other four fields repeat subsets of the two
    so that full-text search can weight them: ``big_headlines`` (h1-h3),
    ``small_headlines`` (h4-h6), ``code_text`` (pre/code/kbd/samp) and
    ``quote_text`` (blockquote/q).  Empty means ``""``, never ``None``.
    """

    text: str
    secondary_text: str
    big_headlines: str
    small_headlines: str
    code_text: str
    quote_text: str

    def digest(self) -> bytes:
        """xxh3_128 (16 bytes) of the six fields joined by ``"\\n\\n\\n"``, UTF-8.

        Text piles are stored once per digest and self-duplicates are found
        by it (DESIGN.md §5), so it must only ever depend on the six fields.
        """
        joined = DIGEST_SEPARATOR.join(
            (
                self.text,
                self.secondary_text,
                self.big_headlines,
                self.small_headlines,
                self.code_text,
                self.quote_text,
            )
        )
        # "surrogatepass": text decoded with errors="surrogateescape" elsewhere
        # must still digest instead of raising.
        return xxhash.xxh3_128_digest(joined.encode("utf-8", "surrogatepass"))


@dataclass(frozen=True, slots=True)
class Heading:
    """One h1-h6 element, in document order (``position`` is 0-based)."""

    level: int
    text: str
    #: The ``id`` of the heading, or of an anchor inside it / the section
    #: wrapping it (Sphinx puts the id on the ``<section>``), or ``None``.
    anchor: str | None
    position: int


@dataclass(frozen=True, slots=True)
class Image:
    """One ``<img>`` (``src`` made absolute; ``srcset``/``data-src`` as fallback)."""

    src: str
    alt: str | None
    width: int | None
    height: int | None
    position: int


# Bits of Link.location, one per ancestor kind (reference §3.5 location
# signature).  unob.summarizer.patterns sets them while walking the tree.
IN_HEADER = 1 << 0
IN_FOOTER = 1 << 1
IN_ASIDE = 1 << 2
IN_NAV = 1 << 3
IN_FORM = 1 << 4
IN_MAIN = 1 << 5
IN_ARTICLE = 1 << 6
IN_SECTION = 1 << 7
IN_TABLE = 1 << 8
IN_FIGURE = 1 << 9
IN_ADDRESS = 1 << 10
IN_CODE = 1 << 11
IN_HEADING = 1 << 12
IN_LIST = 1 << 13
IN_PARAGRAPH = 1 << 14
IN_QUOTE = 1 << 15
IN_PRE = 1 << 16

#: The boolean attributes of a Link, in link_summary column order.
LINK_FLAG_NAMES = (
    "rel_nofollow",
    "rel_ugc",
    "rel_sponsored",
    "rel_noopener",
    "rel_noreferrer",
    "rel_me",
    "rel_tag",
    "in_nav",
    "in_header",
    "in_footer",
    "in_aside",
    "in_main",
    "in_article",
    "in_heading",
    "in_list",
    "in_form",
    "in_section",
    "in_table",
    "in_figure",
    "in_address",
    "in_code",
    "in_paragraph",
    "contains_heading",
    "in_main_content",
)


@dataclass(frozen=True, slots=True)
class Link:
    """One outgoing link with unobtanium's rel and location flags (reference §5.3).

    ``to_url`` is canonical (:func:`unob.urls.canonicalize`), absolute, with
    the fragment removed; ``to_fragment`` is the fragment (without ``#``) or
    ``None``.  ``locality`` is ``'self'`` (same document, only the fragment
    may differ), ``'in'`` (same site: host and port equal, http/https alike)
    or ``'out'``.

    The location flags (``in_nav``, ``in_header``, ..., true when any
    ancestor element is of that kind, HTML element or ARIA landmark role) are
    read-only properties over the ``location`` bitmask, and the ``rel_*``
    flags properties over ``rel``: a page has hundreds of links and a frozen
    dataclass with 30 fields costs ~8 µs to build, one with 10 ~2 µs.
    :data:`LINK_FLAG_NAMES` lists them all for row building
    (``getattr(link, name)``).
    """

    to_url: str
    to_fragment: str | None
    text: str
    #: 'a' | 'area' | 'link' (rel=next/prev/...) | 'meta_refresh' | 'iframe' | 'frame'
    kind: str
    locality: str
    position: int
    #: All rel tokens, lowercased, in document order (e.g. ``('next',)``).
    rel: tuple[str, ...]
    #: Bitmask of the IN_* constants of this module.
    location: int
    #: The link element contains a heading (``<a><h2>..</h2></a>``).
    contains_heading: bool = False
    #: True when the element sits in the part chosen as main content.
    in_main_content: bool = False

    @property
    def rel_nofollow(self) -> bool:
        return "nofollow" in self.rel

    @property
    def rel_ugc(self) -> bool:
        return "ugc" in self.rel

    @property
    def rel_sponsored(self) -> bool:
        return "sponsored" in self.rel

    @property
    def rel_noopener(self) -> bool:
        return "noopener" in self.rel

    @property
    def rel_noreferrer(self) -> bool:
        return "noreferrer" in self.rel

    @property
    def rel_me(self) -> bool:
        return "me" in self.rel

    @property
    def rel_tag(self) -> bool:
        return "tag" in self.rel

    @property
    def in_header(self) -> bool:
        return bool(self.location & IN_HEADER)

    @property
    def in_footer(self) -> bool:
        return bool(self.location & IN_FOOTER)

    @property
    def in_aside(self) -> bool:
        return bool(self.location & IN_ASIDE)

    @property
    def in_nav(self) -> bool:
        return bool(self.location & IN_NAV)

    @property
    def in_form(self) -> bool:
        return bool(self.location & IN_FORM)

    @property
    def in_main(self) -> bool:
        return bool(self.location & IN_MAIN)

    @property
    def in_article(self) -> bool:
        return bool(self.location & IN_ARTICLE)

    @property
    def in_section(self) -> bool:
        return bool(self.location & IN_SECTION)

    @property
    def in_table(self) -> bool:
        return bool(self.location & IN_TABLE)

    @property
    def in_figure(self) -> bool:
        return bool(self.location & IN_FIGURE)

    @property
    def in_address(self) -> bool:
        return bool(self.location & IN_ADDRESS)

    @property
    def in_code(self) -> bool:
        return bool(self.location & IN_CODE)

    @property
    def in_heading(self) -> bool:
        return bool(self.location & IN_HEADING)

    @property
    def in_list(self) -> bool:
        return bool(self.location & IN_LIST)

    @property
    def in_paragraph(self) -> bool:
        return bool(self.location & IN_PARAGRAPH)

    @property
    def is_relevant_navigation(self) -> bool:
        """unobtanium's "relevant link" test for indexiness (reference §5.4).

        An HTML ``a`` with text, not in nav or aside, and not in header or
        footer unless it is also inside main/article.
        """
        loc = self.location
        return (
            self.kind == "a"
            and bool(self.text)
            and not loc & (IN_NAV | IN_ASIDE)
            and (not loc & (IN_HEADER | IN_FOOTER) or bool(loc & (IN_MAIN | IN_ARTICLE)))
        )


class LinkUnderConstruction:
    """A :class:`Link` being built: the same slots, without the frozen ``__setattr__``.

    Link's dataclass ``__init__`` runs interpreted and, being frozen, sets
    each field through ``object.__setattr__``: ~16,000 instructions a link,
    and a page has hundreds of links.  The summarizer's compiled code instead
    fills one of these with plain attribute stores and then retypes it as a
    Link (``__class__`` assignment, allowed because the slot layouts are
    identical): the result is a Link in every respect, equal, hashing and
    pickling alike, and frozen from then on.  Only
    :mod:`unob.summarizer.extract` builds them.
    """

    __slots__ = Link.__slots__

    # Link's fields again, for the type checker (tests/summarizer/test_derive_speed.py
    # keeps the two lists equal).
    to_url: str
    to_fragment: str | None
    text: str
    kind: str
    locality: str
    position: int
    rel: tuple[str, ...]
    location: int
    contains_heading: bool
    in_main_content: bool


@dataclass(frozen=True, slots=True)
class DocumentDescription:
    """Best-effort metadata of a document (reference §3.4, seeds 001 and 003).

    Dates are Unix seconds UTC.  ``keywords`` merges ``meta name=keywords``
    and ``article:tag`` (order kept, duplicates dropped).  ``category`` is
    ``article:section`` or ``product:category``.  ``primary_language`` is a
    lowercased BCP 47 tag as the page declares it (``lang`` attribute, then
    ``Content-Language`` meta, then ``og:locale``); it is never guessed.
    ``word_count`` counts whitespace-separated words of ``text_pile.text``
    (seed 001).  ``indexiness``: positive = index page, negative = leaf page
    (:mod:`unob.summarizer.indexiness`).
    """

    title: str | None
    primary_headline: str | None
    description: str | None
    primary_language: str | None
    keywords: tuple[str, ...]
    author: str | None
    image: str | None
    category: str | None
    published_unix_utc: int | None
    modified_unix_utc: int | None
    canonical_url: str | None
    word_count: int
    indexiness: int
    #: ``<meta name=robots>`` tokens, lowercased (e.g. ``('noindex',)``).
    robots: tuple[str, ...] = ()
    #: ``og:title`` as the page states it (seed 003's Algolia ``title`` prefers
    #: it to ``<title>``; ``title`` above follows seed 001: ``<title>`` first).
    og_title: str | None = None


@dataclass(frozen=True, slots=True)
class Derived:
    """Everything :func:`~unob.summarizer.extract.derive_html` derives from one page."""

    text_pile: TextPile
    description: DocumentDescription
    headings: tuple[Heading, ...]
    images: tuple[Image, ...]
    links: tuple[Link, ...]
