"""Which URLs a crawl follows (pure): origins, patterns, depth and spider-trap defences.

A :class:`Scope` is built once per run from the settings.  The engine calls
:meth:`Scope.normalize` on every discovered URL (canonical form plus the
query-parameter policy: the form stored in ``url.str_url``) and then
:meth:`Scope.accepts` with the link depth.

Rules, in the order they are checked (:meth:`Scope.rejection` names the
first one that fails):

1. seeds are always in scope (the user named them);
2. origin, by ``scope`` mode: ``origin`` = the seeds' origins plus
   ``allowed_origins``, where ``http://h`` and ``https://h`` on default ports
   count as one site (so a seed that redirects to https keeps its crawl);
   ``host`` = the same host names on any scheme or port; ``domain`` = those
   hosts and their subdomains; ``any`` = every http(s) URL;
3. ``max_depth``: links more than this many hops from a seed;
4. ``max_url_length`` on the canonical URL;
5. spider traps: a path segment repeated more than ``max_segment_repeats``
   times (``/a/b/a/b/a/b/a``: calendars, relative links that grow a path),
   more than ``max_query_params`` query parameters;
6. ``include`` patterns (when any: one must match), then ``exclude``
   (none may match); Python regular expressions searched in the canonical
   URL.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from unob.codes import CrawlType
from unob.settings import CrawlSettings
from unob.urls import canonicalize, origin_of, origin_of_canonical, strip_query_params

__all__ = ["MAX_SITEMAP_DEPTH", "Scope", "keep_query_params", "site_origins"]

#: Sitemaps are followed at most this many hops from a robots.txt: robots.txt ->
#: sitemap index (0) -> sitemap (1) is what sites publish; sitemaps.org has no
#: nested indexes, and a few levels more tolerate them without letting a chain of
#: indexes run on.
MAX_SITEMAP_DEPTH = 3


def keep_query_params(url: str, keep: Iterable[str]) -> str:
    """Keep only the query parameters named in ``keep`` (``name*`` = prefix) of a URL."""
    base, sep, query = url.partition("?")
    if not sep:
        return url
    exact = {k for k in keep if not k.endswith("*")}
    prefixes = tuple(k[:-1] for k in keep if k.endswith("*"))
    kept = [
        pair
        for pair in query.split("&")
        if (name := pair.split("=", 1)[0]) in exact or (prefixes and name.startswith(prefixes))
    ]
    return f"{base}?{'&'.join(kept)}" if kept else base


def _split_origin(origin: str) -> tuple[str, str, int | None]:
    """(scheme, host, explicit port or None) of a canonical origin string."""
    scheme, _, netloc = origin.partition("://")
    host, port = netloc, None
    if not netloc.endswith("]") and ":" in netloc:
        host, _, port_text = netloc.rpartition(":")
        port = int(port_text)
    return scheme, host, port


def site_origins(origin: str) -> tuple[str, ...]:
    """A canonical origin and, on a default port, its twin of the other scheme:
    ``http://h`` and ``https://h`` are one site."""
    scheme, host, port = _split_origin(origin)
    if port is None and scheme in ("http", "https"):
        return (origin, f"{'https' if scheme == 'http' else 'http'}://{host}")
    return (origin,)


class Scope:
    """The crawl's scope; see the module docstring for the rules."""

    def __init__(self, settings: CrawlSettings, *, extra_origins: Iterable[str] = ()) -> None:
        """``extra_origins``: origins that are in scope although no seed names them
        (a resumed crawl passes the origins of its frontier)."""
        self.settings = settings
        self.mode = settings.scope
        self.max_depth = settings.max_depth
        self._seeds = frozenset(s for s in map(self.normalize, settings.seeds) if s)
        origins = {o for o in map(origin_of, settings.seeds) if o}
        origins.update(o for o in map(origin_of, settings.allowed_origins) if o)
        origins.update(o for o in map(origin_of, extra_origins) if o)
        self._origins: set[str] = set()
        self._hosts: set[str] = set()
        for origin in origins:
            self._origins.update(site_origins(origin))
            self._hosts.add(_split_origin(origin)[1])
        self._domain_suffixes = tuple("." + h for h in self._hosts)
        self._include = [re.compile(p) for p in settings.include]
        self._exclude = [re.compile(p) for p in settings.exclude]

    # -- normalization -----------------------------------------------------------

    def apply_query_policy(self, canonical_url: str) -> str:
        """The URL with the query-parameter policy applied (input already canonical)."""
        if "?" not in canonical_url:
            return canonical_url
        policy = self.settings.query_policy
        if policy == "keep":
            return canonical_url
        if policy == "drop-all":
            return strip_query_params(canonical_url, (), drop_all=True)
        if policy == "keep-listed":
            return keep_query_params(canonical_url, self.settings.keep_query_params)
        return strip_query_params(canonical_url, self.settings.drop_query_params)

    def normalize(self, url: str) -> str | None:
        """Canonical form with the query policy applied; None if not an http(s) URL."""
        canonical = canonicalize(url)
        return None if canonical is None else self.apply_query_policy(canonical)

    # -- decisions -----------------------------------------------------------------

    def accepts_origin(self, origin: str) -> bool:
        """Is any URL on ``origin`` (``scheme://host[:port]``) in scope?"""
        canonical = origin_of(origin)
        return canonical is not None and self._origin_in_scope(canonical)

    def _origin_in_scope(self, origin: str) -> bool:
        if self.mode == "origin":
            return origin in self._origins
        if self.mode == "any":
            return True
        host = _split_origin(origin)[1]
        if host in self._hosts:
            return True
        return self.mode == "domain" and host.endswith(self._domain_suffixes)

    def rejection(self, url: str, depth: int) -> str | None:
        """Why ``url`` (normalized) at ``depth`` is out of scope, or None if it is in."""
        settings = self.settings
        if url in self._seeds:
            return None
        if not self._origin_in_scope(origin_of_canonical(url)):
            return "origin not in scope"
        if self.max_depth is not None and depth > self.max_depth:
            return f"deeper than max_depth {self.max_depth}"
        if len(url) > settings.max_url_length:
            return f"longer than max_url_length {settings.max_url_length}"
        path_start = url.find("/", url.find("://") + 3)
        path, _, query = url[path_start:].partition("?")
        if path.count("/") > settings.max_segment_repeats:
            segments = Counter(s for s in path.split("/") if s)
            if segments and max(segments.values()) > settings.max_segment_repeats:
                return "a path segment repeats (spider trap)"
        if query and query.count("&") >= settings.max_query_params:
            return f"more than max_query_params {settings.max_query_params}"
        if self._include and not any(p.search(url) for p in self._include):
            return "matches no include pattern"
        if any(p.search(url) for p in self._exclude):
            return "matches an exclude pattern"
        return None

    def accepts(self, url: str, depth: int) -> bool:
        """Is ``url`` (normalized) at link ``depth`` to be crawled?"""
        return self.rejection(url, depth) is None

    def accepts_image(self, url: str) -> bool:
        """Is image ``url`` (normalized) to be fetched?  Depth does not apply to images;
        with ``images_any_origin`` the origin does not either."""
        if not self.settings.images_any_origin:
            return self.rejection(url, 0) is None
        if len(url) > self.settings.max_url_length:
            return False
        return not any(p.search(url) for p in self._exclude)

    def accepts_sitemap(self, url: str, depth: int) -> bool:
        """Is sitemap ``url`` (normalized), ``depth`` hops from a robots.txt, to be
        fetched?  ``max_depth`` and ``include`` do not apply (they describe pages; a
        sitemap is a way to find them), the nesting bound, origin, URL length and
        ``exclude`` do."""
        if depth > MAX_SITEMAP_DEPTH or len(url) > self.settings.max_url_length:
            return False
        if not self._origin_in_scope(origin_of_canonical(url)):
            return False
        return not any(p.search(url) for p in self._exclude)

    def accepts_type(self, url: str, depth: int, crawl_type: CrawlType) -> bool:
        """Is ``url`` (normalized), to be crawled as ``crawl_type`` at ``depth``?"""
        if crawl_type == CrawlType.IMAGE_CRAWL:
            return self.accepts_image(url)
        if crawl_type == CrawlType.SITEMAP_CRAWL:
            return self.accepts_sitemap(url, depth)
        return self.accepts(url, depth)

    @property
    def origins(self) -> frozenset[str]:
        """The origins named by seeds, allowed_origins and extra_origins (with their
        http/https twins); empty meaning 'none' only in 'origin' mode."""
        return frozenset(self._origins)
