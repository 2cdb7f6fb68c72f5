"""Links of an HTML page, for the crawler's frontier (pure, on the hot path).

:func:`extract` parses the body once with lxml (bytes plus the charset from
:func:`unob.crawler.body.sniff_charset`, never a ``str``: lxml refuses a
``str`` with an XML declaration) and walks the tree once over the elements
that matter:

* links: ``a[href]``, ``area[href]``, ``frame[src]``, ``iframe[src]``,
  ``link[rel~=next|prev|previous]`` and ``link[rel~=alternate][hreflang]``
  (translations; feeds and other alternates are not pages to crawl); each
  with ``nofollow`` from its own ``rel`` (only the ``nofollow`` token:
  ``ugc`` and ``sponsored`` are hints for ranking, not for crawling);
* ``<base href>`` (the first one, wherever it stands, as WHATWG says);
* ``<link rel=canonical>`` (the first one);
* ``<meta http-equiv=refresh>``: delay and target;
* ``<meta name=robots>`` and ``<meta name=TOKEN>`` (our robots token):
  ``noindex``, ``nofollow``, ``none`` (= both);
* with ``want_images``: ``img`` ``src``, else ``data-src`` (lazy loading),
  else the first ``srcset`` candidate.

Every URL comes out absolute, canonical (:func:`unob.urls.canonicalize`) and
without its fragment, deduplicated per page in document order; links to the
page itself by fragment only (``href="#top"``) are dropped.  Relative
references are resolved by RFC 3986 §5.2 with string operations (tested
against a transcription of the RFC's algorithm with hypothesis); an href
made only of characters that canonicalization leaves alone needs nothing
more, the others go through :func:`unob.urls.canonicalize`; absolute hrefs,
which repeat across pages, go through a cache.

Nothing here raises on bad input: undecodable bytes, broken markup or an
empty body give an empty :class:`PageLinks`.  There is no shared mutable
state apart from thread-local lxml parsers and a thread-safe LRU cache, so
the engine may call :func:`extract` from worker threads.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from typing import NamedTuple

from lxml import etree

from unob.crawler.body import sniff_charset
from unob.urls import Resolver, canonicalize

__all__ = [
    "Link",
    "MetaRefresh",
    "PageLinks",
    "extract",
    "parse_robots_directives",
    "parse_x_robots_tag",
]


class Link(NamedTuple):
    """One link of a page."""

    url: str  #: absolute, canonical, no fragment
    nofollow: bool  #: its own rel has ``nofollow``
    kind: str  #: element it came from: a, area, link, frame, iframe


class MetaRefresh(NamedTuple):
    """A ``<meta http-equiv=refresh>`` that names a target."""

    delay_s: float
    url: str  #: canonical, without the fragment, like every stored URL
    #: kept for the redirect record (``redirect.to_url_fragment``), as for ``Location``
    fragment: str | None


@dataclass(frozen=True, slots=True)
class PageLinks:
    """What the crawler needs from one HTML page."""

    links: tuple[Link, ...] = ()
    #: the URL relative links were resolved against (``<base href>`` or the page)
    base_url: str = ""
    #: ``<link rel=canonical>`` target
    canonical: str | None = None
    #: ``<meta http-equiv=refresh>``; None without a target
    meta_refresh: MetaRefresh | None = None
    images: tuple[str, ...] = ()
    #: meta robots (or our token's meta) says noindex / nofollow
    noindex: bool = False
    nofollow: bool = False

    @property
    def follow(self) -> tuple[str, ...]:
        """The URLs to enqueue: none if the page says nofollow, else every link
        without rel=nofollow, plus the canonical and refresh targets."""
        if self.nofollow:
            return ()
        urls = dict.fromkeys(link.url for link in self.links if not link.nofollow)
        if self.canonical:
            urls[self.canonical] = None
        if self.meta_refresh:
            urls[self.meta_refresh[1]] = None
        return tuple(urls)


_EMPTY = PageLinks()
_TAGS = ("a", "area", "link", "base", "meta", "frame", "iframe")
_TAGS_IMG = (*_TAGS, "img")
_LINK_RELS = frozenset({"next", "prev", "previous"})
_ROBOTS_NAMES = frozenset({"robots"})
# characters canonicalize() leaves alone in a path (':' excluded: it could start a
# scheme) and in a query; an href made of these needs no percent-encoding work
_SIMPLE_HREF = re.compile(r"[A-Za-z0-9\-._~/!$&'()*+,;=@]*(?:\?[A-Za-z0-9\-._~/!$&'()*+,;=@:?]*)?")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")  # RFC 3986 §3.1
_REFRESH = re.compile(
    r"""\s*(\d*(?:\.\d*)?)\s*(?:[;,]\s*|\s+)?(?:url\s*=\s*)?(['"]?)(.*?)\2?\s*$""",
    re.IGNORECASE | re.DOTALL,
)
_NON_UA_DIRECTIVES = frozenset(
    {"unavailable_after", "max-snippet", "max-image-preview", "max-video-preview"}
)

_local = threading.local()


def _parser(encoding: str) -> etree.HTMLParser:
    """A cached HTML parser for ``encoding`` (lxml parsers must not be shared by threads)."""
    parsers: dict[str, etree.HTMLParser] | None = getattr(_local, "parsers", None)
    if parsers is None:
        parsers = _local.parsers = {}
    parser = parsers.get(encoding)
    if parser is None:
        # comments and PIs are never links; skipping them makes the tree smaller
        parser = etree.HTMLParser(
            encoding=encoding,
            remove_comments=True,
            remove_pis=True,
            collect_ids=False,
            no_network=True,
        )
        parsers[encoding] = parser
    return parser


def _parse(body: bytes, charset: str) -> etree._Element | None:
    try:
        parser = _parser(charset)
    except LookupError:
        parser = None
    try:
        if parser is None:
            raise LookupError(charset)
        return etree.fromstring(body, parser)
    except LookupError:
        # an encoding Python knows and libxml2 does not (mac-roman...): transcode
        try:
            text = body.decode(charset, errors="replace")
        except LookupError:
            text = body.decode("utf-8", errors="replace")
        try:
            return etree.fromstring(text.encode("utf-8"), _parser("utf-8"))
        except (etree.Error, ValueError):
            return None
    except (etree.Error, ValueError):
        return None


def _rel_tokens(rel: str | None) -> frozenset[str] | tuple[()]:
    return frozenset(rel.lower().split()) if rel else ()


def parse_robots_directives(content: str) -> tuple[bool, bool]:
    """``(noindex, nofollow)`` of a robots meta ``content`` (``none`` = both)."""
    tokens = set(content.lower().replace(",", " ").split())
    none = "none" in tokens
    return none or "noindex" in tokens, none or "nofollow" in tokens


def parse_x_robots_tag(values: list[str] | tuple[str, ...], token: str) -> tuple[bool, bool]:
    """``(noindex, nofollow)`` from ``X-Robots-Tag`` header values, for our ``token``.

    A value may start with a user agent (``"otherbot: noindex, nofollow"``);
    its directives then apply to that agent only, up to the end of the value.
    Directives without one apply to every agent.
    """
    noindex = nofollow = False
    token = token.lower()
    for value in values:
        applies = True
        for item in value.split(","):
            name, colon, rest = item.partition(":")
            if colon and name.strip().lower() not in _NON_UA_DIRECTIVES:
                applies = name.strip().lower() == token
                item = rest
            if applies:
                ni, nf = parse_robots_directives(item)
                noindex, nofollow = noindex or ni, nofollow or nf
    return noindex, nofollow


def _refresh_target(content: str) -> tuple[float, str] | None:
    match = _REFRESH.match(content)
    if match is None or not match.group(3).strip():
        return None
    delay_text = match.group(1)
    try:
        delay = float(delay_text) if delay_text not in ("", ".") else 0.0
    except ValueError:
        delay = 0.0
    return delay, match.group(3).strip()


def _first_srcset(srcset: str) -> str | None:
    candidate = srcset.strip().split(",", 1)[0].strip()
    return candidate.split()[0] if candidate else None


def extract(
    body: bytes,
    url: str,
    charset: str | None = None,
    *,
    want_images: bool = False,
    robots_token: str = "unob",
    max_links: int | None = None,
) -> PageLinks:
    """The links and robots directives of the HTML page ``body`` fetched from ``url``.

    ``charset``: from :func:`unob.crawler.body.sniff_charset` (sniffed here if
    None).  ``robots_token``: our product token, for ``<meta name=TOKEN>``.
    ``max_links``: keep only the first this many distinct links.  Never raises.
    """
    try:
        return _extract(body, url, charset, want_images, robots_token.lower(), max_links)
    except Exception:  # a crawler must survive any page (tested with hypothesis)
        return _EMPTY


def _extract(
    body: bytes,
    url: str,
    charset: str | None,
    want_images: bool,
    token: str,
    max_links: int | None,
) -> PageLinks:
    page_url = canonicalize(url)
    if page_url is None or not body:
        return _EMPTY
    root = _parse(body, charset or sniff_charset(None, body))
    if root is None:
        return _EMPTY

    raw: list[tuple[str, bool, str]] = []  # (href, nofollow, kind)
    raw_images: list[str] = []
    base_href: str | None = None
    canonical_href: str | None = None
    refresh: tuple[float, str] | None = None
    noindex = nofollow = False
    append = raw.append
    for el in root.iter(*(_TAGS_IMG if want_images else _TAGS)):
        tag = el.tag
        if tag == "a" or tag == "area":
            href = el.get("href")
            if href is not None:
                rel = el.get("rel")
                append((href, rel is not None and "nofollow" in _rel_tokens(rel), tag))
        elif tag == "link":
            href = el.get("href")
            rels = _rel_tokens(el.get("rel"))
            if href is None or not rels:
                continue
            if "canonical" in rels:
                if canonical_href is None:
                    canonical_href = href
            elif not rels.isdisjoint(_LINK_RELS) or (
                "alternate" in rels and el.get("hreflang") is not None
            ):
                append((href, "nofollow" in rels, "link"))
        elif tag == "img":
            src = el.get("src")
            if not src or src.startswith("data:"):
                src = el.get("data-src") or _first_srcset(el.get("srcset") or "")
            if src:
                raw_images.append(src)
        elif tag == "frame" or tag == "iframe":
            src = el.get("src")
            if src is not None:
                append((src, False, tag))
        elif tag == "meta":
            content = el.get("content")
            if content is None:
                continue
            name = el.get("name")
            if name is not None:
                name = name.strip().lower()
                if name == "robots" or name == token:
                    ni, nf = parse_robots_directives(content)
                    noindex, nofollow = noindex or ni, nofollow or nf
            elif refresh is None and (el.get("http-equiv") or "").strip().lower() == "refresh":
                refresh = _refresh_target(content)
        elif tag == "base" and base_href is None:
            base_href = el.get("href")

    base = page_url
    if base_href is not None:
        base = Resolver(page_url).join(base_href) or page_url
    resolver = Resolver(base)
    resolve = resolver.join

    links: dict[str, Link] = {}
    resolved: dict[str, str | None] = {}  # pages repeat hrefs: resolve each once
    for href, link_nofollow, kind in raw:
        target = resolved.get(href, "")
        if target == "":
            target = resolved[href] = resolve(href)
        if target is None:
            continue
        known = links.get(target)
        if known is None:
            if max_links is not None and len(links) >= max_links:
                continue
            links[target] = Link(target, link_nofollow, kind)
        elif known.nofollow and not link_nofollow:
            links[target] = Link(target, False, known.kind)  # one followable mention suffices

    images: tuple[str, ...] = ()
    if raw_images:
        images = tuple(dict.fromkeys(u for u in map(resolve, raw_images) if u is not None))
    meta_refresh = None
    if refresh is not None:
        # the refresh target is relative to the document's base URL, like any link
        target = resolve(refresh[1]) if refresh[1] else None
        if target:
            fragment = (resolver.resolve(refresh[1]) or (target, None))[1]
            # an empty fragment ("url#") is none, as for Location (outcome.redirect_target)
            meta_refresh = MetaRefresh(refresh[0], target, fragment or None)
    return PageLinks(
        links=tuple(links.values()),
        base_url=base,
        canonical=resolve(canonical_href) if canonical_href else None,
        meta_refresh=meta_refresh,
        images=images,
        noindex=noindex,
        nofollow=nofollow,
    )
