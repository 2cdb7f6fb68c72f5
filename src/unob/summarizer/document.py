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


@dataclass(frozen=True, slots=True)
class Link:
    """One outgoing link with unobtanium's rel and location flags (reference §5.3).

    ``to_url`` is absolute with the fragment removed; ``to_fragment`` is the
    fragment (without ``#``) or ``None``.  Location flags are true when any
    ancestor element is of that kind (HTML landmark element or ARIA role).
    ``locality`` is ``'self'`` (same document, only the fragment may differ),
    ``'in'`` (same site: host and port equal, http/https treated alike) or
    ``'out'``.
    """

    to_url: str
    to_fragment: str | None
    text: str
    #: 'a' | 'area' | 'link' (rel=next/prev/...) | 'meta_refresh' | 'iframe' | 'form'
    kind: str
    rel_nofollow: bool
    rel_ugc: bool
    rel_sponsored: bool
    rel_noopener: bool
    rel_noreferrer: bool
    rel_me: bool
    rel_tag: bool
    in_nav: bool
    in_header: bool
    in_footer: bool
    in_aside: bool
    in_main: bool
    in_article: bool
    in_heading: bool
    in_list: bool
    in_form: bool
    in_section: bool
    in_table: bool
    in_figure: bool
    in_address: bool
    in_code: bool
    in_paragraph: bool
    #: The link element contains a heading (``<a><h2>..</h2></a>``).
    contains_heading: bool
    locality: str
    position: int
    #: All rel tokens, lowercased, in document order (e.g. ``('next',)``).
    rel: tuple[str, ...] = ()
    #: True when the element sits in the part chosen as main content.
    in_main_content: bool = False

    @property
    def is_relevant_navigation(self) -> bool:
        """unobtanium's "relevant link" test for indexiness (reference §5.4).

        An HTML ``a`` with text, not in nav or aside, and not in header or
        footer unless it is also inside main/article.
        """
        return (
            self.kind == "a"
            and bool(self.text)
            and not self.in_nav
            and not self.in_aside
            and (not (self.in_header or self.in_footer) or self.in_main or self.in_article)
        )


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


@dataclass(frozen=True, slots=True)
class Derived:
    """Everything :func:`~unob.summarizer.extract.derive_html` derives from one page."""

    text_pile: TextPile
    description: DocumentDescription
    headings: tuple[Heading, ...]
    images: tuple[Image, ...]
    links: tuple[Link, ...]
