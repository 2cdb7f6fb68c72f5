"""URL canonicalization: examples from RFC 3986 §6 and hypothesis properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unob.urls import canonicalize, host_of, join, origin_of, split_fragment, strip_query_params


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
