"""Sitemaps (pure): read a fetched sitemap document, turn its entries into candidates.

The `sitemaps.org protocol <https://www.sitemaps.org/protocol.html>`_ has
three formats the crawler reads:

* XML ``<urlset>``: ``<url><loc>`` entries are pages;
* XML ``<sitemapindex>``: ``<sitemap><loc>`` entries are further sitemaps;
* plain text: one URL per line (UTF-8), pages.

Either may be gzip-compressed as a file (``sitemap.xml.gz``), which is not
the same as ``Content-Encoding: gzip`` (the fetcher undoes that one): the
body is unpacked here when it starts with the gzip magic bytes.  RSS and Atom
feeds, which the protocol also allows, are not read (the answer is logged as
not understood).

Bounds (the protocol's limits per file): :data:`MAX_BYTES` (50 MB) after
unpacking -- the fetcher stops a larger body, :func:`unpack` a larger
``.gz`` -- and :data:`MAX_URLS` (50,000) entries; entries past that are not
read (:attr:`SitemapDocument.truncated`).  Nested indexes are bounded by the
candidates' depth (:data:`unob.crawler.scope.MAX_SITEMAP_DEPTH`).

XML is read with :func:`lxml.etree.iterparse` as a stream (each entry is
dropped once read) without DTDs, entities or network access, so that an
XML bomb or an external entity reads nothing.  Malformed XML is not an
exception to the caller: the entries read before the error are kept and
:attr:`SitemapDocument.error` says what went wrong.

Which entries become candidates (:func:`analyse_sitemap`): an entry's URL
is resolved against the sitemap's URL (the protocol asks for absolute URLs;
a relative one is taken as a browser would), must be http(s), on the
sitemap's own host -- "all URLs in a Sitemap must be from a single host"
(sitemaps.org, "Sitemap file location"), with ``http``/``https`` counted as
one site as the scope does -- and in scope.  The protocol's narrower rule
that a sitemap at ``/catalog/sitemap.xml`` may only list URLs under
``/catalog/`` is lifted, as the protocol lifts it for sitemaps submitted
through robots.txt: every sitemap unob reads was reached from a robots.txt
(directly or through an index of the same host), which speaks for the whole
host.

``<lastmod>`` (sitemaps.org: "the date of last modification of the page",
in `W3C Datetime <https://www.w3.org/TR/NOTE-datetime>`_ format) is read per
entry (:func:`parse_lastmod`) and carried with the candidate, so that the
writer can make a page that changed since its last crawl due now
(:mod:`unob.crawler.writer`).  A value that cannot be read is ignored, never
an error; one more than :data:`LASTMOD_FUTURE_TOLERANCE_S` in the future is
bogus (a CMS that stamps every entry with a far-off date, a broken clock)
and ignored; one in the future within that tolerance (time zones, clock
skew) counts as "now".
"""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from typing import Literal

from lxml import etree

from unob.codes import CrawlType
from unob.crawler import body as bodylib
from unob.crawler.records import NewCandidate
from unob.crawler.scope import Scope, site_origins
from unob.urls import Resolver, origin_of_canonical

__all__ = [
    "LASTMOD_FUTURE_TOLERANCE_S",
    "MAX_BYTES",
    "MAX_URLS",
    "SitemapAnalysis",
    "SitemapDocument",
    "analyse_sitemap",
    "believable_lastmod",
    "parse_lastmod",
    "parse_sitemap",
    "robots_sitemap_candidates",
    "unpack",
]

#: sitemaps.org: "no larger than 50MB (52,428,800 bytes)" uncompressed
MAX_BYTES = 52_428_800
#: sitemaps.org: "no more than 50,000 URLs" per sitemap (and sitemaps per index)
MAX_URLS = 50_000

#: A ``<lastmod>`` later than the sitemap's fetch by more than this is ignored.  A day:
#: a date-only value is read as midnight UTC, and a site at UTC+14 writes its "today"
#: up to 14 hours before that midnight; the rest allows for clock skew.
LASTMOD_FUTURE_TOLERANCE_S = 86_400

_GZIP_MAGIC = b"\x1f\x8b"
#: elements read from one XML sitemap at most: 50,000 entries of a <loc>, <lastmod>,
#: <changefreq>, <priority> and a few image or news extensions stay well below
MAX_ELEMENTS = 2_000_000
#: elements inside one entry at most (Google's image extension allows 1,000 images)
MAX_ENTRY_ELEMENTS = 10_000
_LINE = re.compile(r"[^\r\n]+")
_ABSOLUTE_HTTP = re.compile(r"https?://", re.IGNORECASE)

# W3C Datetime (https://www.w3.org/TR/NOTE-datetime): YYYY, YYYY-MM, YYYY-MM-DD, then
# optionally Thh:mm[:ss[.s]] and a zone (Z or +hh:mm / -hh:mm).  Leniencies seen in
# real sitemaps: a space for the T, a zone without its colon, no zone at all (read as
# UTC, at worst 14 hours off).
_W3C_DATETIME = re.compile(
    r"(\d{4})(?:-(\d{2})(?:-(\d{2})"
    r"(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d{1,9})?)?"
    r"(?:[Zz]|([+-])(\d{2}):?(\d{2}))?)?)?)?"
)
# longer than any W3C Datetime (with nanoseconds and a zone): not one
_MAX_LASTMOD_CHARS = 40

Kind = Literal["urlset", "sitemapindex", "text"]


@dataclass(slots=True)
class SitemapDocument:
    """What a sitemap document says: its kind and its ``<loc>`` values, as written."""

    kind: Kind | None
    """None: not a sitemap (or nothing could be read)."""
    locs: list[str] = field(default_factory=list)
    lastmods: dict[int, int] = field(default_factory=dict)
    """Index in :attr:`locs` -> its ``<lastmod>`` (Unix seconds, UTC), for the entries
    with a readable one (sparse: a sitemap without lastmod costs nothing)."""
    truncated: bool = False
    """More than ``max_urls`` entries: the rest were not read."""
    error: str | None = None
    """Why reading stopped early (malformed XML, not a sitemap); None = read whole."""


def unpack(body: bytes, cap: int = MAX_BYTES) -> bytes:
    """The body, gunzipped when it is a gzip file (``.xml.gz``); at most ``cap`` bytes.

    Raises :class:`unob.crawler.body.TooLarge` past the cap (a gzip bomb stops
    there) and :class:`unob.crawler.body.BadEncoding` for a broken gzip file.
    """
    if body.startswith(_GZIP_MAGIC):
        return bodylib.decode_body(body, "gzip", cap)
    return body


def _localname(tag: object) -> str:
    # Sitemaps in the wild use the 0.9 namespace, old Google namespaces or none at all:
    # elements are matched by local name only.
    return etree.QName(tag).localname if isinstance(tag, str) else ""


def _xml_locs(data: bytes, max_urls: int, doc: SitemapDocument) -> None:
    events: Iterator[tuple[str, etree._Element]] = etree.iterparse(
        io.BytesIO(data),
        events=("start", "end"),
        resolve_entities=False,
        load_dtd=False,
        no_network=True,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
    )
    entry = ""  # "url" or "sitemap", by the root
    first, lastmod = 0, None  # the current entry's first index in doc.locs, its lastmod
    depth = 0  # elements open around the one an event is about (after an end: its ancestors)
    elements = entry_elements = 0
    try:
        for event, element in events:
            if event == "start":
                depth += 1
                elements += 1
                # depth 1 is the root, 2 its children (entries), deeper what is in them
                entry_elements = 0 if depth == 2 else entry_elements + 1
                if elements > MAX_ELEMENTS or entry_elements > MAX_ENTRY_ELEMENTS:
                    # every element, even an unknown one, costs memory until its
                    # parent is done: a 51 KB .xml.gz of 13 million <x/> took 1.7 GB
                    doc.error = (
                        f"more than {MAX_ELEMENTS:,} elements"
                        if elements > MAX_ELEMENTS
                        else f"an entry of more than {MAX_ENTRY_ELEMENTS:,} elements"
                    )
                    return
            else:
                depth -= 1
            name = _localname(element.tag)
            if doc.kind is None:
                # the first start event is the root's
                if name not in ("urlset", "sitemapindex"):
                    doc.error = f"not a sitemap (root element <{name}>)"
                    return
                doc.kind = "urlset" if name == "urlset" else "sitemapindex"
                entry = "url" if name == "urlset" else "sitemap"
                continue
            if event == "start":
                if name == entry:
                    # a new entry: its <lastmod> may come before or after its <loc>
                    first, lastmod = len(doc.locs), None
                continue
            parent = element.getparent()
            in_entry = parent is not None and _localname(parent.tag) == entry
            if name == "loc" and in_entry:
                if len(doc.locs) >= max_urls:
                    doc.truncated = True
                    return
                text = (element.text or "").strip()
                if text:
                    if lastmod is not None:
                        doc.lastmods[len(doc.locs)] = lastmod
                    doc.locs.append(text)
            elif name == "lastmod" and in_entry and lastmod is None:
                lastmod = parse_lastmod(element.text or "")
                if lastmod is not None:
                    for index in range(first, len(doc.locs)):
                        doc.lastmods[index] = lastmod
            if depth == 1:
                # a child of the root (an entry or anything else) is read: drop it and
                # what came before it, so that memory stays flat however long the file is
                element.clear()
                while element.getprevious() is not None:
                    del element.getparent()[0]
            elif depth > 1:
                element.clear()  # read: its text and children are not needed any more
    except etree.XMLSyntaxError as exc:
        doc.error = f"malformed XML: {exc}"


def parse_lastmod(text: str) -> int | None:
    """A ``<lastmod>`` value as Unix seconds (UTC); None when it is not a date.

    W3C Datetime: a date alone (or a year, a month) is the start of that period in
    UTC; a time without a zone is taken as UTC.  Never raises.
    """
    value = text.strip()
    if len(value) > _MAX_LASTMOD_CHARS:
        return None
    match = _W3C_DATETIME.fullmatch(value)
    if match is None:
        return None
    year, month, day, hour, minute, second, sign, tz_h, tz_m = match.groups()
    try:
        zone = UTC
        if sign is not None:
            offset = timedelta(hours=int(tz_h), minutes=int(tz_m))
            zone = timezone(-offset if sign == "-" else offset)
        moment = datetime(
            int(year),
            int(month or 1),
            int(day or 1),
            int(hour or 0),
            int(minute or 0),
            int(second or 0),
            tzinfo=zone,
        )
        return int(moment.timestamp())
    except (ValueError, OverflowError):
        return None  # 2024-02-30, 25:00, an offset of 24 hours or more, year 0


def believable_lastmod(lastmod: int | None, now: int) -> int | None:
    """``lastmod`` as the writer should see it: None when absent or bogus (more than
    :data:`LASTMOD_FUTURE_TOLERANCE_S` after ``now``), at most ``now`` otherwise (a
    page cannot have changed after the sitemap saying so was fetched)."""
    if lastmod is None or lastmod > now + LASTMOD_FUTURE_TOLERANCE_S:
        return None
    return min(lastmod, now)


#: a sitemap whose dated entries (at least this many) nearly all bear one date...
STAMP_MIN_ENTRIES = 10
STAMP_SHARE = 0.9


def _stamped(lastmods: dict[int, int]) -> bool:
    """Whether the ``<lastmod>`` values are one stamp, not dates of change.

    Generated sitemaps often give every entry the time they were generated
    (or today's date).  Believed, that would make every page due on each read
    of the sitemap, daily: a recrawl of the whole site that ``recrawl_interval_s``
    exists to prevent.  So when at least :data:`STAMP_SHARE` of at least
    :data:`STAMP_MIN_ENTRIES` dated entries share one value, the dates are ignored.
    """
    if len(lastmods) < STAMP_MIN_ENTRIES:
        return False
    _, most = Counter(lastmods.values()).most_common(1)[0]
    return most >= STAMP_SHARE * len(lastmods)


def _text_locs(data: bytes, max_urls: int, doc: SitemapDocument) -> None:
    """sitemaps.org "Text file": one absolute URL per line, UTF-8, nothing else.

    Lines are read one by one (not split all at once: 50 MB of short lines took
    1.3 GB), and only absolute http(s) URLs count: a text answer that is not a
    sitemap (an error message, JSON) must not become URLs on the site.
    """
    text = data.decode("utf-8-sig", errors="replace")
    other = 0
    for match in _LINE.finditer(text):
        url = match.group().strip()
        if not url:
            continue
        if not _ABSOLUTE_HTTP.match(url):
            other += 1
            if other > max_urls:
                break  # this many lines of something else: not a list of URLs
            continue
        if len(doc.locs) >= max_urls:
            doc.truncated = True
            break
        doc.locs.append(url)
    if doc.locs:
        doc.kind = "text"
    elif other:
        doc.error = "not a sitemap (no line is an http(s) URL)"


def parse_sitemap(data: bytes, *, max_urls: int = MAX_URLS) -> SitemapDocument:
    """Read a sitemap document (already unpacked: see :func:`unpack`).

    XML when the first non-blank character is ``<``, a text sitemap otherwise;
    never raises for bad input (see :attr:`SitemapDocument.error`).
    """
    doc = SitemapDocument(kind=None)
    head = data[:512].lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head:
        doc.error = "empty document"
    elif head.startswith(b"<"):
        # whitespace before "<?xml" (a classic of PHP sites) is an XML error
        _xml_locs(data.removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n"), max_urls, doc)
    elif b"\0" in head:
        doc.error = "not a sitemap (binary data)"
    else:
        _text_locs(data, max_urls, doc)
    return doc


@dataclass(slots=True)
class SitemapAnalysis:
    """What a fetched sitemap adds to the crawl."""

    document: SitemapDocument
    candidates: list[NewCandidate] = field(default_factory=list)
    dropped: int = 0
    """Entries that are not http(s), on another host, or out of scope."""

    def summary(self) -> str:
        """One line for the entry's message."""
        doc = self.document
        what = "sitemaps" if doc.kind == "sitemapindex" else "URLs"
        parts = [f"{doc.kind or 'sitemap'}: {len(doc.locs)} {what} read"]
        if doc.truncated:
            parts.append(f"only the first {len(doc.locs)} (sitemaps.org limit)")
        parts.append(f"{len(self.candidates)} in scope")
        if self.dropped:
            parts.append(f"{self.dropped} dropped (other host, not http(s) or out of scope)")
        if doc.error is not None:
            parts.append(doc.error)
        return "; ".join(parts)


def analyse_sitemap(
    body: bytes, url: str, depth: int, scope: Scope, *, now: int, max_urls: int = MAX_URLS
) -> SitemapAnalysis:
    """Candidates from a fetched sitemap at ``url`` (a candidate of ``depth``), fetched
    at ``now`` (Unix seconds: the clock its ``<lastmod>`` values are judged by).

    Pages of a ``<urlset>`` or text sitemap become page candidates one hop
    deeper; the sitemaps of a ``<sitemapindex>`` become sitemap candidates one
    hop deeper (bounded by the scope's sitemap depth).  Each carries its
    ``<lastmod>`` when it has a believable one (:func:`believable_lastmod`).
    Raises like :func:`unpack` for a too large or broken gzip file.
    """
    document = parse_sitemap(unpack(body), max_urls=max_urls)
    if _stamped(document.lastmods):
        document.lastmods.clear()
    result = SitemapAnalysis(document)
    home = site_origins(origin_of_canonical(url))
    crawl_type = (
        CrawlType.SITEMAP_CRAWL if document.kind == "sitemapindex" else CrawlType.FILE_CRAWL
    )
    next_depth = depth + 1
    seen: set[str] = {url}
    resolve = Resolver(url).join  # the links' resolver: RFC 3986 §5, canonical form
    for index, loc in enumerate(document.locs):
        target = resolve(loc)
        normalized = None if target is None else scope.apply_query_policy(target)
        if normalized is None:
            result.dropped += 1
            continue
        if normalized in seen:
            continue
        seen.add(normalized)
        origin = origin_of_canonical(normalized)
        if origin in home and scope.accepts_type(normalized, next_depth, crawl_type):
            lastmod = believable_lastmod(document.lastmods.get(index), now)
            result.candidates.append(
                NewCandidate(normalized, origin, next_depth, crawl_type, lastmod_unix_utc=lastmod)
            )
        else:
            result.dropped += 1
    return result


def robots_sitemap_candidates(sitemaps: tuple[str, ...], scope: Scope) -> list[NewCandidate]:
    """The ``Sitemap:`` URLs of a robots.txt (RFC 9309 §2.2.4) that are in scope, as
    sitemap candidates of depth 0: robots.txt speaks for its host as a seed does
    for the user."""
    out: list[NewCandidate] = []
    seen: set[str] = set()
    for raw in sitemaps:
        normalized = scope.normalize(raw)
        if normalized is None or normalized in seen:
            continue
        seen.add(normalized)
        if scope.accepts_type(normalized, 0, CrawlType.SITEMAP_CRAWL):
            out.append(
                NewCandidate(
                    normalized, origin_of_canonical(normalized), 0, CrawlType.SITEMAP_CRAWL
                )
            )
    return out
