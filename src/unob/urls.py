"""URL parsing, joining and canonical forms, shared by crawler, summarizer and exports.

unob stores URLs *without* their fragment (the fragment is kept in a separate
column where it matters, as unobtanium does) and in one canonical string form,
so that ``url.str_url`` is a reliable UNIQUE key in both databases.

The canonical form (RFC 3986 §6.2.2 syntax-based normalization, plus the
scheme-based normalization of §6.2.3):

* scheme and host lowercased; internationalized host names IDNA-encoded;
* the scheme's default port removed (``http://a:80/`` == ``http://a/``);
* an empty path becomes ``/``; dot segments removed (§5.2.4);
* percent-encoding normalized: escapes of unreserved characters decoded,
  the others upper-cased, characters that may not appear raw (space,
  non-ASCII, ...) encoded as UTF-8, a stray ``%`` encoded as ``%25``;
* the fragment removed (see :func:`split_fragment` to keep it).

Query strings are kept in their order: reordering or dropping parameters
changes what many servers answer, so that is a crawl *policy*
(see :func:`strip_query_params`), not part of canonicalization.

Every function here is pure and total: bad input gives ``None``, never an
exception, because a crawler meets every kind of garbage in ``href``s.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from urllib.parse import SplitResult, urlsplit

__all__ = [
    "DEFAULT_PORTS",
    "Resolver",
    "canonicalize",
    "host_of",
    "join",
    "origin_of",
    "origin_of_canonical",
    "split_fragment",
    "strip_query_params",
]

DEFAULT_PORTS = {"http": 80, "https": 443}

# RFC 3986 §2.3 unreserved characters: their escapes are decoded.
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
# Characters that may stay raw in a path or query: unreserved, sub-delims,
# ':' and '@' (pchar, §3.3), '/' and '?' (§3.4).  Everything else is encoded.
_SAFE_RAW = _UNRESERVED | frozenset("!$&'()*+,;=:@/?")
_PCT = re.compile(r"%([0-9A-Fa-f]{2})")
# Fast-path test: a component without these is already canonical.  It may
# flag a few canonical ones too (any %3X..%7X); the slow path is then a no-op.
_NEEDS_WORK = re.compile(
    r"[^A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%(?![0-9A-F]{2})|%(2[DdEe]|[3-7][0-9A-Fa-f])"
)
_HOST_OK = re.compile(r"^[a-z0-9.\-_]*$")


def _normalize_component(part: str) -> str:
    """Normalize the percent-encoding of a path or query (idempotent)."""
    if not _NEEDS_WORK.search(part):
        return part  # the common case: already canonical, no allocation
    out: list[str] = []
    i, n = 0, len(part)
    while i < n:
        ch = part[i]
        if ch == "%":
            hexpart = part[i + 1 : i + 3]
            if len(hexpart) == 2 and all(c in "0123456789abcdefABCDEF" for c in hexpart):
                decoded = chr(int(hexpart, 16))
                out.append(decoded if decoded in _UNRESERVED else "%" + hexpart.upper())
                i += 3
                continue
            out.append("%25")
        elif ch in _SAFE_RAW:
            out.append(ch)
        else:
            out.extend(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass"))
        i += 1
    return "".join(out)


def _remove_dot_segments(path: str) -> str:
    """RFC 3986 §5.2.4, on an absolute path."""
    if "." not in path:
        return path
    segments = path.split("/")
    out: list[str] = []
    for seg in segments[1:]:
        if seg == ".":
            continue
        if seg == "..":
            if out:
                out.pop()
            continue
        out.append(seg)
    if segments[-1] in (".", ".."):
        out.append("")  # "/a/b/.." -> "/a/", keep the trailing slash
    return "/" + "/".join(out)


@lru_cache(maxsize=4096)
def _normalize_host(host: str) -> str | None:
    host = host.lower()
    if _HOST_OK.match(host):
        return host
    if host.startswith("[") and host.endswith("]"):
        return host  # IPv6 literal, validated by urlsplit
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return None


def _netloc(parts: SplitResult, scheme: str) -> str | None:
    try:
        port = parts.port
    except ValueError:
        return None
    raw_host = parts.hostname
    if not raw_host:
        return None
    host = _normalize_host(raw_host)
    if host is None:
        return None
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"  # urlsplit strips the brackets of an IPv6 literal
    netloc = host if port is None or port == DEFAULT_PORTS.get(scheme) else f"{host}:{port}"
    if parts.username is not None:
        userinfo = _normalize_component(parts.username)
        if parts.password is not None:
            userinfo += ":" + _normalize_component(parts.password)
        netloc = f"{userinfo}@{netloc}"
    return netloc


def canonicalize(url: str, *, schemes: Iterable[str] = ("http", "https")) -> str | None:
    """Return the canonical, fragment-less form of an absolute URL, or None.

    None means the URL cannot be crawled: unparseable, no host, a scheme
    other than ``schemes``, a bad port.  ``canonicalize(canonicalize(u))``
    equals ``canonicalize(u)`` for every string ``u`` (tested with hypothesis).
    """
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in schemes:
        return None
    netloc = _netloc(parts, scheme)
    if netloc is None:
        return None
    path = _remove_dot_segments(_normalize_component(parts.path) or "/")
    if not path.startswith("/"):
        path = "/" + path
    query = _normalize_component(parts.query)
    # '?' with an empty query is dropped: servers treat them alike and
    # keeping both forms would store one page twice.
    return f"{scheme}://{netloc}{path}?{query}" if query else f"{scheme}://{netloc}{path}"


# WHATWG URL Standard (basic URL parser): leading and trailing C0 controls and
# spaces are stripped, tabs and newlines anywhere are removed.  HTML attribute
# values reach us with exactly this kind of debris.
_C0_AND_SPACE = "".join(chr(c) for c in range(0x21))
_TAB_NEWLINE = str.maketrans("", "", "\t\n\r")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")  # RFC 3986 §3.1
# A reference made only of characters that stay raw in canonical form: joined
# by string operations alone, with no percent-encoding work to do.
_SIMPLE_REF = re.compile(r"[A-Za-z0-9\-._~/!$&'()*+,;=@:]*(?:\?[A-Za-z0-9\-._~/!$&'()*+,;=@:?]*)?")
# An absolute http(s) URL that canonicalize() returns unchanged.
_ALREADY_CANONICAL = re.compile(
    r"https?://[a-z0-9](?:[a-z0-9.\-]*[a-z0-9])?/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*"
    r"(?:\?[A-Za-z0-9\-._~!$&'()*+,;=:@/?]+)?"
)
_DOT_SEGMENT = re.compile(r"/\.\.?(?:/|\?|$)")


@lru_cache(maxsize=65536)
def _canonical_absolute(url: str) -> str | None:
    """canonicalize(url) behind a cache, with a fast path for canonical input.

    Navigation links repeat on every page of a site, so most calls are hits.
    """
    if _ALREADY_CANONICAL.fullmatch(url) and not _DOT_SEGMENT.search(url.partition("?")[0]):
        return url
    return canonicalize(url)


class Resolver:
    """Resolves the many references of one document against its base URL.

    RFC 3986 §5.2 by string operations on a base parsed once, then the
    canonical form.  Python's ``urljoin`` is not used: it follows RFC 1808 in
    places (``"x;"`` loses its ``;``, ``"?"`` keeps the base's query).  A
    reference naming the base's own scheme without an authority
    (``http:page.html``) is relative: the "non-strict" reading of §5.2.2 that
    browsers use.  Shared by the crawler (links to follow) and the summarizer
    (link summaries), so both see the same URL for the same ``href``.
    """

    __slots__ = ("base", "base_dir", "base_path", "prefix", "scheme")

    def __init__(self, base: str) -> None:
        canonical = _canonical_absolute(base.partition("#")[0].strip(_C0_AND_SPACE)) or ""
        #: the canonical base URL ("" when the base is not a crawlable URL)
        self.base = canonical
        self.scheme = canonical[: canonical.find(":")] if canonical else ""
        path_start = canonical.find("/", canonical.find("://") + 3) if canonical else 0
        self.prefix = canonical[:path_start]
        self.base_path = canonical[path_start:].partition("?")[0]
        self.base_dir = self.base_path[: self.base_path.rfind("/") + 1]

    def resolve(self, href: str) -> tuple[str, str | None] | None:
        """``(canonical absolute URL, fragment or None)`` or None if not http(s).

        An empty reference (``""``, ``"#top"``) is the base document itself.
        """
        href = href.strip(_C0_AND_SPACE)
        if "\t" in href or "\n" in href or "\r" in href:
            href = href.translate(_TAB_NEWLINE)
        ref, hash_sign, fragment = href.partition("#")
        url = self._absolute(ref)
        return None if url is None else (url, fragment if hash_sign else None)

    def join(self, href: str) -> str | None:
        """The canonical URL ``href`` points to; None for uncrawlable or same-document refs."""
        href = href.strip(_C0_AND_SPACE)
        if "\t" in href or "\n" in href or "\r" in href:
            href = href.translate(_TAB_NEWLINE)
        ref = href.partition("#")[0]
        if not ref or ref == self.scheme + ":":
            return None  # this very document
        return self._absolute(ref)

    def _absolute(self, ref: str) -> str | None:
        if not ref:
            return self.base or None
        if ref.startswith(("http://", "https://")):
            return _canonical_absolute(ref)
        # Most references are relative: no ':' at all rules out a scheme
        # without running the regex.
        scheme = _SCHEME.match(ref) if ":" in ref else None
        if scheme is not None:
            if scheme.group(1).lower() != self.scheme or ref.startswith("//", scheme.end()):
                return canonicalize(ref)  # absolute: None unless http or https
            ref = ref[scheme.end() :]
            if not ref:
                return self.base or None
        if not self.base:
            return None
        if ref.startswith("//"):
            return canonicalize(f"{self.scheme}:{ref}")
        first = ref[0]
        if first == "/":
            path = ref
        elif first == "?":
            path = self.base_path + ref
        else:
            path = self.base_dir + ref
        if not _SIMPLE_REF.fullmatch(ref):
            return canonicalize(self.prefix + path)  # percent-encoding to normalize
        path, _, query = path.partition("?")
        if "/." in path:
            path = _remove_dot_segments(path)
        return f"{self.prefix}{path}?{query}" if query else self.prefix + path


def join(base: str, href: str) -> str | None:
    """Resolve ``href`` against ``base`` and canonicalize; None if uncrawlable.

    The fragment is dropped; a same-document reference gives None.  For many
    references against one base, make one :class:`Resolver`.
    """
    return Resolver(base).join(href)


def split_fragment(url: str) -> tuple[str, str | None]:
    """Split ``url`` into the part before ``#`` and the fragment (None if absent)."""
    before, sep, fragment = url.partition("#")
    return before, (fragment if sep else None)


def origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` of a URL (default port omitted), or None."""
    canonical = canonicalize(url)
    if canonical is None:
        return None
    scheme, _, rest = canonical.partition("://")
    netloc = rest.split("/", 1)[0].rpartition("@")[2]
    return f"{scheme}://{netloc}"


def origin_of_canonical(url: str) -> str:
    """``scheme://host[:port]`` of a URL already in canonical form, without parsing it again.

    The hot-path twin of :func:`origin_of`, for URLs that came out of
    :func:`canonicalize` or :class:`Resolver` (userinfo dropped).
    """
    end = url.find("/", url.find("://") + 3)
    origin = url if end < 0 else url[:end]
    if "@" in origin:
        scheme, _, rest = origin.partition("://")
        origin = f"{scheme}://{rest.rpartition('@')[2]}"
    return origin


def host_of(url: str) -> str | None:
    """The lowercased host name of a URL, or None."""
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return None
    return _normalize_host(host) if host else None


def strip_query_params(url: str, drop: Iterable[str], *, drop_all: bool = False) -> str:
    """Remove query parameters named in ``drop`` (or all of them) from a canonical URL.

    Names ending in ``*`` are prefixes (``utm_*``).  Used by the crawler's
    query-parameter policy to keep tracking parameters and session ids from
    multiplying one page into many URLs.
    """
    base, sep, query = url.partition("?")
    if not sep:
        return url
    if drop_all:
        return base
    exact = {d for d in drop if not d.endswith("*")}
    prefixes = tuple(d[:-1] for d in drop if d.endswith("*"))
    kept = [
        pair
        for pair in query.split("&")
        if (name := pair.split("=", 1)[0]) not in exact
        and not (prefixes and name.startswith(prefixes))
    ]
    return f"{base}?{'&'.join(kept)}" if kept else base
