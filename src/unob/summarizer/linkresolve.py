"""Resolving the links of one page, and their locality.

Resolution is :class:`unob.urls.Resolver` (RFC 3986 §5.2 on a base parsed
once, canonical results behind a cache), the same code the crawler uses, so
a link summary names exactly the URL the crawler followed.  This module adds
unobtanium's link locality on top.
"""

from __future__ import annotations

from unob.urls import Resolver


class Base(Resolver):
    """A parsed base URL (the document URL, or its ``<base href>``) with link locality."""

    __slots__ = ("netloc",)

    def __init__(self, url: str) -> None:
        super().__init__(url)
        rest = self.base.partition("://")[2]
        slash = rest.find("/")
        self.netloc = rest if slash < 0 else rest[:slash]

    def locality(self, canonical_url: str) -> str:
        """unobtanium's LinkLocality (reference §5.3): 'self', 'in' or 'out'.

        Canonical URLs have no default port, so comparing the host[:port]
        treats http and https of one host as one site, as unobtanium does.
        """
        if canonical_url == self.base:
            return "self"
        rest = canonical_url.partition("://")[2]
        slash = rest.find("/")
        netloc = rest if slash < 0 else rest[:slash]
        return "in" if netloc == self.netloc and self.netloc else "out"
