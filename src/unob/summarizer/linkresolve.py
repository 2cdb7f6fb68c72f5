"""Fast resolution of the many ``href`` values of one page.

:func:`unob.urls.join` is correct but costs ``urljoin`` plus a full
canonicalization per call, and a documentation page has hundreds of links.
Here the base URL is parsed once, the common href shapes (absolute,
``//host``, ``/path``, ``?query``, ``#fragment``, ``relative``) are joined
with string operations (RFC 3986 §5.2.2 for those shapes), and the result is
canonicalized through :func:`unob.urls.canonicalize` behind an LRU cache, so
links repeated across the pages of one site (navigation) cost a dict lookup.
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import urljoin

from unob.urls import canonicalize

# URL Standard: tab and newline are removed anywhere, and C0 control or space
# stripped at both ends (https://url.spec.whatwg.org/#concept-basic-url-parser).
_REMOVE_INSIDE = str.maketrans("", "", "\t\n\r")
_STRIP = "".join(chr(c) for c in range(0x21))


# An http(s) URL that canonicalize() would return unchanged: lowercase
# scheme and ASCII host, no port, no userinfo, a path, no percent-escapes
# (their case and unreserved-decoding would need work), no empty "?".
_ALREADY_CANONICAL = re.compile(
    r"https?://[a-z0-9](?:[a-z0-9.\-]*[a-z0-9])?/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*"
    r"(?:\?[A-Za-z0-9\-._~!$&'()*+,;=:@/?]+)?"
)
# Dot segments ("/./", "/../", a trailing "/." or "/..") need RFC 3986 §5.2.4.
_DOT_SEGMENT = re.compile(r"/\.\.?(?:/|\?|$)")


@lru_cache(maxsize=65536)
def _canonical(url: str) -> str | None:
    """canonicalize(url), with a fast path for URLs already in canonical form."""
    if _ALREADY_CANONICAL.fullmatch(url) and not _DOT_SEGMENT.search(url.partition("?")[0]):
        return url
    return canonicalize(url)


class Base:
    """A parsed base URL: the document URL, or its ``<base href>``."""

    __slots__ = ("dir", "netloc", "path_and_query", "prefix", "scheme", "url")

    def __init__(self, url: str) -> None:
        canonical = _canonical(url.partition("#")[0]) or ""
        self.url = canonical
        scheme, sep, rest = canonical.partition("://")
        self.scheme = scheme if sep else ""
        slash = rest.find("/")
        self.netloc = rest if slash < 0 else rest[:slash]
        path_query = "/" if slash < 0 else rest[slash:]
        self.prefix = f"{self.scheme}://{self.netloc}" if sep else ""
        self.path_and_query = path_query
        path = path_query.partition("?")[0]
        self.dir = self.prefix + path[: path.rfind("/") + 1]

    def resolve(self, href: str) -> tuple[str, str | None] | None:
        """``(canonical absolute URL, fragment or None)``; None if not http(s)."""
        href = href.strip(_STRIP)
        if "\t" in href or "\n" in href or "\r" in href:
            href = href.translate(_REMOVE_INSIDE)
        href, hash_sign, fragment_part = href.partition("#")
        fragment = fragment_part if hash_sign else None
        if not href:
            # "" and "#x" point at this very document (RFC 3986 §5.2.2).
            return (self.url, fragment) if self.url else None
        first = href[0]
        if first == "/":
            if href.startswith("//"):
                if not self.scheme:
                    return None
                absolute = f"{self.scheme}:{href}"
            else:
                if not self.prefix:
                    return None
                absolute = self.prefix + href
        elif first == "?":
            if not self.prefix:
                return None
            absolute = self.prefix + self.path_and_query.partition("?")[0] + href
        else:
            colon = href.find(":")
            if colon > 0 and "/" not in href[:colon] and "?" not in href[:colon]:
                scheme = href[:colon].lower()
                if scheme not in ("http", "https"):
                    return None  # mailto:, javascript:, tel:, data:, ...
                if not href.startswith("//", colon + 1):
                    # "http:foo" is relative in RFC 3986 terms; leave it to urljoin.
                    if not self.url:
                        return None
                    try:
                        absolute = urljoin(self.url, href)
                    except ValueError:
                        return None
                else:
                    absolute = href
            else:
                if not self.prefix:
                    return None
                absolute = self.dir + href
        canonical = _canonical(absolute)
        if canonical is None:
            return None
        return canonical, fragment

    def locality(self, canonical_url: str) -> str:
        """unobtanium's LinkLocality (reference §5.3): 'self', 'in' or 'out'.

        Canonical URLs have no default port, so comparing the host[:port]
        treats http and https of one host as one site, as unobtanium does.
        """
        if canonical_url == self.url:
            return "self"
        rest = canonical_url.partition("://")[2]
        slash = rest.find("/")
        netloc = rest if slash < 0 else rest[:slash]
        return "in" if netloc == self.netloc and self.netloc else "out"
