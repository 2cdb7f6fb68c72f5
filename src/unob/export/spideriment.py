"""Spideriment web index rows (seed 000): one JSON object per page, wrapped in CSV.

The seed fixes the sixteen fields and says strings are cut when too long;
the limits and the content-snippet algorithm are the reference crawler's
(``Settings.py`` and ``CrawlerThread.py`` of vitlabuda/spideriment v1.0,
summarized in reference/export-formats.md §A.3 and §A.6).  Where the
reference code is stricter than the seed text, the seed wins:

* pages are never dropped for an empty title or snippet or a long ``lang``
  (the seed: "the strings ... might be empty"; ``lang`` "might be invalid");
* ``headings`` always has the keys ``h1``..``h6`` (the seed: "h1, h2, ...";
  the reference stopped at h4, its search server accepts h1-h6).

The row must load with the search server's loader, ``csv.reader(open(p))``
and ``json.loads(row[0])``: :func:`encode_row` uses the reference's own
``csv.writer`` dialect and ``json.dumps`` defaults (ASCII-only output, so
the file's encoding never matters).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from lxml import etree
from lxml import html as lxml_html

from .records import ImageRef, LinkRef, PageRecord, TextFields
from .text import collapse

__all__ = [
    "LIMITS",
    "Snippet",
    "canonical_url",
    "encode_row",
    "snippet_from_html",
    "snippet_from_text",
    "spideriment_row",
]


@dataclass(frozen=True, slots=True)
class Limits:
    """Maximum lengths in characters (Spideriment ``Settings.py`` defaults)."""

    title: int = 250
    heading: int = 75
    headings_per_level: int = 5
    description: int = 300
    keywords: int = 100
    author: int = 50
    snippet: int = 2250
    image_alts: int = 125
    link_texts: int = 225


LIMITS = Limits()

#: ``headings`` keys: the seed's "h1, h2, ..." up to the h6 its server accepts.
HEADING_LEVELS = range(1, 7)

# (quality, tags) tried in order; the first tier that yields text wins
# (reference ``_CONTENT_SNIPPET_TRIES``, §A.6).
_SNIPPET_TIERS: tuple[tuple[float, tuple[str, ...]], ...] = (
    (1.0, ("p",)),
    (0.75, ("b", "strong", "em")),
    (0.4, ("i", "u", "big")),
    (0.15, ("table",)),
    (0.1, ("span", "div")),
    (0.05, ("body",)),
)

#: Quality given to snippets built from the text pile when no raw HTML is
#: available: main content stands for the reference's ``<p>`` tier, other
#: text for its last resort, the whole ``<body>``.
TEXT_PILE_MAIN_QUALITY = 1.0
TEXT_PILE_SECONDARY_QUALITY = 0.05


@dataclass(frozen=True, slots=True)
class Snippet:
    """A content snippet and how relevant the reference considers its source."""

    text: str
    quality: float


def _clip(text: str, limit: int) -> str:
    """Collapse whitespace, strip, cut by characters, strip again (§A.3)."""
    return collapse(text)[:limit].strip()


def _accumulate(texts: Iterable[str], limit: int) -> str:
    """Append non-empty stripped texts plus a space while shorter than ``limit``.

    The reference's loop for snippets, image alts and link texts: the check
    is made *before* appending, so the result may overshoot and is cut later.
    """
    parts: list[str] = []
    length = 0
    for text in texts:
        if length >= limit:
            break
        stripped = text.strip()
        if stripped:
            parts.append(stripped)
            length += len(stripped) + 1
    return " ".join(parts)


def parse_html(body: bytes, encoding: str | None = None) -> Any:
    """Parse an HTML body into an lxml tree, or None when there is no document.

    A charset the crawler recorded is applied in Python and the text handed
    to lxml as UTF-8: libxml2 knows fewer encoding names than Python does,
    and lxml refuses ``str`` input that carries an XML encoding declaration.
    Without a recorded charset lxml sniffs ``<meta charset>`` itself.
    """
    if encoding:
        try:
            body = body.decode(encoding, "replace").encode("utf-8")
            encoding = "utf-8"
        except LookupError:
            encoding = None
    try:
        parser = lxml_html.HTMLParser(encoding=encoding) if encoding else None
        return lxml_html.document_fromstring(body, parser=parser)
    except (etree.ParserError, ValueError):
        return None


def snippet_from_html(body: bytes, encoding: str | None = None) -> Snippet:
    """The reference's content snippet of an HTML document (§A.6).

    ``script`` and ``style`` are removed first; then each tier's elements are
    visited in document order, their whole text (descendants included, so
    nested matches repeat text, as in the reference) appended until 2250
    characters are reached.  A document without any text gives ``("", 0.0)``.
    """
    root = parse_html(body, encoding)
    if root is None:
        return Snippet("", 0.0)
    etree.strip_elements(root, "script", "style", etree.Comment, with_tail=False)
    for quality, tags in _SNIPPET_TIERS:
        text = _accumulate((el.text_content() for el in root.iter(*tags)), LIMITS.snippet)
        if text:
            return Snippet(_clip(text, LIMITS.snippet), quality)
    return Snippet("", 0.0)


def snippet_from_text(fields: TextFields) -> Snippet:
    """A snippet from the text pile, for pages whose raw HTML is not at hand."""
    for quality, source in (
        (TEXT_PILE_MAIN_QUALITY, fields.text),
        (TEXT_PILE_SECONDARY_QUALITY, fields.secondary_text),
    ):
        text = _accumulate(source.splitlines(), LIMITS.snippet)
        if text:
            return Snippet(_clip(text, LIMITS.snippet), quality)
    return Snippet("", 0.0)


def canonical_url(url: str) -> str:
    """Spideriment's canonical form: the URL without its scheme (§A.4).

    ``netloc + path + ("?" + query)``: http and https collapse to one value;
    unob's URLs carry no fragment, and the path always starts with ``/``.
    """
    _, sep, rest = url.partition("://")
    return rest if sep else url


def _headings(page: PageRecord) -> dict[str, list[str]]:
    by_level: dict[int, list[str]] = {level: [] for level in HEADING_LEVELS}
    for heading in page.headings:
        if heading.level in by_level:
            by_level[heading.level].append(heading.text)
    out: dict[str, list[str]] = {}
    for level, texts in by_level.items():
        # The reference visits the first five elements of a level and keeps
        # the non-empty ones, so an empty heading still uses up a slot.
        kept = (_clip(t, LIMITS.heading) for t in texts[: LIMITS.headings_per_level])
        out[f"h{level}"] = [t for t in kept if t]
    return out


def _image_alts(images: Iterable[ImageRef]) -> str:
    return _clip(_accumulate((i.alt for i in images), LIMITS.image_alts), LIMITS.image_alts)


def _counted_links(links: Iterable[LinkRef]) -> list[LinkRef]:
    """Links the reference counts: ``<a href>`` to an http(s) URL (§A.5)."""
    return [link for link in links if link.kind == "a" and link.is_web]


def spideriment_row(page: PageRecord, snippet: Snippet) -> dict[str, Any]:
    """The seed's sixteen fields, in the reference's key order (§A.2)."""
    links = _counted_links(page.links)
    keywords = ", ".join(page.keywords)
    return {
        "original_url": page.navigated_url,
        "final_url": page.url,
        "original_canonical_url": canonical_url(page.navigated_url),
        "final_canonical_url": canonical_url(page.url),
        "crawl_timestamp": int(page.crawl_unix),
        # The reference removes all whitespace from ``lang`` instead of collapsing it.
        "language": "".join(page.language.split()),
        "title": _clip(page.title, LIMITS.title),
        "headings": _headings(page),
        "description": _clip(page.description, LIMITS.description),
        # The only field the reference does not strip after cutting.
        "keywords": collapse(keywords)[: LIMITS.keywords],
        "author": _clip(page.author, LIMITS.author),
        "content_snippet": _clip(snippet.text, LIMITS.snippet),
        "content_snippet_quality": min(1.0, max(0.0, float(snippet.quality))),
        "image_alts": _image_alts(page.images),
        "link_texts": _clip(
            _accumulate((k.text for k in links), LIMITS.link_texts), LIMITS.link_texts
        ),
        "total_links_count": len(links),
    }


def encode_row(row: dict[str, Any]) -> str:
    """One line of the web index: a single CSV field holding ``json.dumps(row)``.

    Default ``json.dumps`` escapes every non-ASCII and control character, so
    a line never holds a raw newline and the file is pure ASCII (its encoding
    never matters to the loader); the excel dialect the reference wrote with
    quotes the field (it always holds ``"`` and ``,``), doubles the inner
    quotes and ends the line with ``\\r\\n``.
    """
    buffer = io.StringIO()
    csv.writer(buffer).writerow((json.dumps(row),))
    return buffer.getvalue()
