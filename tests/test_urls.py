"""URL canonicalization: examples from RFC 3986 §6 and hypothesis properties."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from unob.urls import (
    Resolver,
    canonicalize,
    host_of,
    join,
    origin_of,
    split_fragment,
    strip_query_params,
)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("HTTP://Example.COM", "http://example.com/"),
        ("http://example.com:80/a", "http://example.com/a"),
        ("https://example.com:443/a", "https://example.com/a"),
        ("https://example.com:8443/a", "https://example.com:8443/a"),
        ("http://example.com/a/./b/../c", "http://example.com/a/c"),
        ("http://example.com/%7Euser/%2fx%3a", "http://example.com/~user/%2Fx%3A"),
        ("http://example.com/a b", "http://example.com/a%20b"),
        ("http://example.com/ü?q=ä", "http://example.com/%C3%BC?q=%C3%A4"),
        ("http://bücher.example/", "http://xn--bcher-kva.example/"),
        ("http://example.com/100%", "http://example.com/100%25"),
        ("http://example.com/x#frag", "http://example.com/x"),
        ("http://example.com/x?", "http://example.com/x"),
        ("http://[::1]:8080/x", "http://[::1]:8080/x"),
        ("ftp://example.com/", None),
        ("http:///nohost", None),
        ("http://example.com:99999/", None),
        ("not a url", None),
    ],
)
def test_canonicalize_examples(raw: str, expected: str | None) -> None:
    assert canonicalize(raw) == expected


def test_join_resolves_and_filters() -> None:
    base = "http://example.com/docs/index.html"
    assert join(base, "../img/a.png") == "http://example.com/img/a.png"
    assert join(base, "page.html#sec") == "http://example.com/docs/page.html"
    assert join(base, "//other.org/x") == "http://other.org/x"
    assert join(base, "mailto:a@b.c") is None
    assert join(base, "javascript:void(0)") is None
    assert join(base, "   ") is None


def test_origin_host_fragment() -> None:
    assert origin_of("HTTPS://User@Example.com:443/a?b") == "https://example.com"
    assert origin_of("http://example.com:8080/") == "http://example.com:8080"
    assert host_of("http://EXAMPLE.com/") == "example.com"
    assert split_fragment("http://a/b#c") == ("http://a/b", "c")
    assert split_fragment("http://a/b") == ("http://a/b", None)


def test_strip_query_params() -> None:
    url = "http://a/p?utm_source=x&id=3&sessionid=9"
    assert strip_query_params(url, ["utm_*", "sessionid"]) == "http://a/p?id=3"
    assert strip_query_params(url, [], drop_all=True) == "http://a/p"
    assert strip_query_params("http://a/p?utm_a=1", ["utm_*"]) == "http://a/p"


_url_like = st.one_of(
    st.text(),
    st.builds(
        lambda s, h, p, q: f"{s}://{h}{p}{q}",
        st.sampled_from(["http", "https", "HTTP", "ftp"]),
        st.text(min_size=0, max_size=20),
        st.text(min_size=0, max_size=30),
        st.text(min_size=0, max_size=20),
    ),
)


@settings(max_examples=400)
@given(_url_like)
def test_canonicalize_total_and_idempotent(raw: str) -> None:
    once = canonicalize(raw)
    if once is not None:
        assert canonicalize(once) == once
        assert "#" not in once


@settings(max_examples=200)
@given(st.text(max_size=40))
def test_join_total(href: str) -> None:
    out = join("http://example.com/a/b.html", href)
    assert out is None or canonicalize(out) == out


# -- resolution agrees with RFC 3986 §5.2 (then canonicalize) ------------------------------

# RFC 3986 Appendix B, with the scheme syntax of §3.1 (a scheme starts with a letter)
_URI = re.compile(
    r"^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?"
)


def _remove_dots(path: str) -> str:
    """RFC 3986 §5.2.4, written out as the spec's loop (an independent oracle)."""
    out: list[str] = []
    while path:
        if path.startswith("../"):
            path = path[3:]
        elif path.startswith("./") or path.startswith("/./"):
            path = path[2:]
        elif path == "/.":
            path = "/"
        elif path.startswith("/../"):
            path = path[3:]
            if out:
                out.pop()
        elif path == "/..":
            path = "/"
            if out:
                out.pop()
        elif path in (".", ".."):
            path = ""
        else:
            cut = path.find("/", 1)
            cut = len(path) if cut < 0 else cut
            out.append(path[:cut])
            path = path[cut:]
    return "".join(out)


def rfc3986_resolve(base: str, ref: str) -> str:
    """RFC 3986 §5.2.2 (non-strict, as browsers), §5.2.3 merge, §5.3 recomposition."""
    r_scheme, r_auth, r_path, r_query, _ = _URI.match(ref).groups()  # type: ignore[union-attr]
    b_scheme, b_auth, b_path, b_query, _ = _URI.match(base).groups()  # type: ignore[union-attr]
    if r_scheme is not None and r_scheme.lower() == b_scheme:
        r_scheme = None
    if r_scheme is not None:
        scheme, auth, path, query = r_scheme, r_auth, _remove_dots(r_path), r_query
    elif r_auth is not None:
        scheme, auth, path, query = b_scheme, r_auth, _remove_dots(r_path), r_query
    elif r_path == "":
        scheme, auth, path = b_scheme, b_auth, b_path
        query = r_query if r_query is not None else b_query
    else:
        if r_path.startswith("/"):
            path = _remove_dots(r_path)
        else:
            merged = (
                "/" + r_path
                if b_auth is not None and b_path == ""
                else (b_path[: b_path.rfind("/") + 1] + r_path)
            )
            path = _remove_dots(merged)
        scheme, auth, query = b_scheme, b_auth, r_query
    out = f"{scheme}:" + (f"//{auth}" if auth is not None else "") + path
    return out + (f"?{query}" if query is not None else "")


_PATH_CHARS = st.sampled_from(
    [*"abcXYZ019-._~!$&'()*+,;=@/", "..", "./", "%41", "%2e", ":", "é", "http:", "//", " "]
)
_HREF = st.lists(_PATH_CHARS, max_size=12).map("".join)
_QUERY = st.lists(st.sampled_from([*"ab=&?:/;", "%2f", "é"]), max_size=6).map("".join)
_BASES = st.sampled_from(
    [
        "http://example.org/",
        "http://example.org/dir/page.html",
        "http://example.org/dir/sub/",
        "https://example.org:8443/a/b/c?x=1",
        "http://user:pw@example.org/d/e",
        "http://[::1]:8080/v6/path",
    ]
)


@settings(max_examples=400, deadline=None)
@given(base=_BASES, path=_HREF, query=st.none() | _QUERY, frag=st.none() | _HREF)
@example(base="http://example.org/dir/page.html", path="../../..", query=None, frag=None)
@example(base="http://example.org/a/b/c?x=1", path="", query="", frag=None)
@example(base="http://example.org/a/b/c?x=1", path=".", query=None, frag="")
@example(base="http://example.org/", path=";", query=None, frag=None)
@example(base="http://example.org/a/b", path="http:c", query=None, frag=None)
@example(base="http://example.org/a/b", path="mailto:x@y", query=None, frag=None)
def test_resolution_follows_rfc3986(
    base: str, path: str, query: str | None, frag: str | None
) -> None:
    href = path + ("" if query is None else "?" + query) + ("" if frag is None else "#" + frag)
    got = Resolver(base).join(href)
    reference = href.strip().partition("#")[0]  # HTML strips whitespace around URLs
    if reference in ("", base.partition(":")[0] + ":"):
        assert got is None  # the page itself (by fragment, or nothing at all): dropped
    else:
        assert got == canonicalize(rfc3986_resolve(base, reference))


@settings(max_examples=300, deadline=None)
@given(href=st.text(max_size=40))
def test_any_href_resolves_to_a_canonical_url_or_none(href: str) -> None:
    resolved = Resolver("http://example.org/dir/page.html").join(href)
    assert resolved is None or canonicalize(resolved) == resolved


def test_resolve_keeps_fragment_and_self_reference() -> None:
    resolver = Resolver("http://example.org/dir/page.html?q=1#old")
    assert resolver.base == "http://example.org/dir/page.html?q=1"
    assert resolver.resolve("#top") == ("http://example.org/dir/page.html?q=1", "top")
    assert resolver.resolve("\t../x.html#s\n") == ("http://example.org/x.html", "s")
    assert resolver.resolve("mailto:a@b.c") is None
    assert resolver.join("#top") is None
    assert Resolver("not a url").resolve("x.html") is None
    assert Resolver("not a url").join("https://example.org/") == "https://example.org/"
