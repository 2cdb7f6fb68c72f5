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
from urllib.parse import SplitResult, urljoin, urlsplit

__all__ = [
    "DEFAULT_PORTS",
    "canonicalize",
    "host_of",
    "join",
    "origin_of",
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


def join(base: str, href: str) -> str | None:
    """Resolve ``href`` against ``base`` and canonicalize; None if uncrawlable.

    The fragment is dropped; use :func:`split_fragment` on the href first if
    it is needed.
    """
    href = href.strip()
    if not href or href.startswith(("javascript:", "mailto:", "tel:", "data:")):
        return None
    try:
        absolute = urljoin(base, href)
    except ValueError:
        return None
    return canonicalize(absolute)


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
