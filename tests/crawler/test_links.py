"""Link extraction: link kinds, rel flags, base, canonical, refresh, robots, images, charsets."""

from __future__ import annotations

import html

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unob.crawler.links import (
    Link,
    PageLinks,
    extract,
    parse_robots_directives,
    parse_x_robots_tag,
)
from unob.urls import canonicalize

PAGE_URL = "http://example.org/dir/page.html"


def page(head: str = "", body: str = "") -> bytes:
    return f"<!DOCTYPE html><html><head>{head}</head><body>{body}</body></html>".encode()


def urls(result: PageLinks) -> list[str]:
    return [link.url for link in result.links]


def test_anchors_resolved_canonical_deduplicated_in_order() -> None:
    result = extract(
        page(
            body='<a href="b.html">b</a> <a href="../up.html">up</a> <a href="/abs">abs</a>'
            '<a href="b.html#section">again</a> <a href="HTTP://Example.ORG:80/c">c</a>'
            '<a href="?q=1">query</a> <a href="sub/./x/../y">dots</a> <a href="a b">space</a>'
            '<a href="//other.example/x">net</a> <a href="https://x.example/ü">idn-path</a>'
        ),
        PAGE_URL,
        "utf-8",
    )
    assert urls(result) == [
        "http://example.org/dir/b.html",
        "http://example.org/up.html",
        "http://example.org/abs",
        "http://example.org/c",
        "http://example.org/dir/page.html?q=1",
        "http://example.org/dir/sub/y",
        "http://example.org/dir/a%20b",
        "http://other.example/x",
        "https://x.example/%C3%BC",
    ]
    assert all(link.kind == "a" and not link.nofollow for link in result.links)


def test_fragment_only_javascript_mailto_and_empty_hrefs_are_dropped() -> None:
    result = extract(
        page(
            body='<a href="#top">t</a><a href="">e</a><a href="  ">s</a>'
            '<a href="javascript:void(0)">j</a><a href="mailto:a@b.example">m</a>'
            '<a href="tel:123">tel</a><a href="ftp://f.example/">ftp</a><a>no href</a>'
            '<a href="data:text/html,hi">data</a>'
        ),
        PAGE_URL,
        "utf-8",
    )
    assert result.links == ()


def test_nofollow_per_link_and_followable_mention_wins() -> None:
    result = extract(
        page(
            body='<a rel="nofollow" href="/x">x</a><a rel="NoFollow noopener" href="/y">y</a>'
            '<a href="/x">x again</a><a rel="ugc sponsored" href="/z">z</a>'
        ),
        PAGE_URL,
        "utf-8",
    )
    assert result.links == (
        Link("http://example.org/x", False, "a"),
        Link("http://example.org/y", True, "a"),
        Link("http://example.org/z", False, "a"),
    )
    assert result.follow == ("http://example.org/x", "http://example.org/z")


def test_link_elements_area_and_frames() -> None:
    head = (
        '<link rel="next" href="p2.html"><link rel="Prev" href="p0.html">'
        '<link rel="previous" href="p-1.html">'
        '<link rel="alternate" hreflang="de" href="/de/page.html">'
        '<link rel="alternate" type="application/rss+xml" href="/feed.xml">'
        '<link rel="stylesheet" href="style.css"><link rel="icon" href="/favicon.ico">'
        '<link rel="next nofollow" href="p3.html">'
    )
    body = (
        '<map><area href="/area" alt=""></map><iframe src="embed.html"></iframe>'
        '<frameset><frame src="frame.html"></frameset>'
    )
    result = extract(page(head, body), PAGE_URL, "utf-8")
    kinds = {link.url.rsplit("/", 1)[1]: (link.kind, link.nofollow) for link in result.links}
    assert kinds == {
        "p2.html": ("link", False),
        "p0.html": ("link", False),
        "p-1.html": ("link", False),
        "page.html": ("link", False),
        "p3.html": ("link", True),
        "area": ("area", False),
        "embed.html": ("iframe", False),
        "frame.html": ("frame", False),
    }


def test_base_href_applies_to_every_link_even_if_it_comes_late() -> None:
    result = extract(
        page(body='<a href="x">x</a><base href="http://example.org/other/"><a href="y">y</a>'),
        PAGE_URL,
        "utf-8",
    )
    assert result.base_url == "http://example.org/other/"
    assert urls(result) == ["http://example.org/other/x", "http://example.org/other/y"]
    relative_base = extract(page('<base href="../b/">', '<a href="z">z</a>'), PAGE_URL, "utf-8")
    assert urls(relative_base) == ["http://example.org/b/z"]
    bad_base = extract(page('<base href="javascript:x">', '<a href="z">z</a>'), PAGE_URL, "utf-8")
    assert urls(bad_base) == ["http://example.org/dir/z"]


def test_canonical() -> None:
    head = '<link rel="canonical" href="/canonical.html"><link rel="canonical" href="/second">'
    result = extract(page(head), PAGE_URL, "utf-8")
    assert result.canonical == "http://example.org/canonical.html"
    assert result.links == ()
    assert result.follow == ("http://example.org/canonical.html",)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("5; url=next.html", (5.0, "http://example.org/dir/next.html", None)),
        ("0;URL='/moved'", (0.0, "http://example.org/moved", None)),
        ('3 ; Url = "http://elsewhere.example/"', (3.0, "http://elsewhere.example/", None)),
        ("0.5, /comma", (0.5, "http://example.org/comma", None)),
        ("0; url=/moved#part-2", (0.0, "http://example.org/moved", "part-2")),
        ("0; url=/moved#", (0.0, "http://example.org/moved", None)),
        ("10", None),  # a reload of the page itself: no target
        ("", None),
        ("7; url=#frag", None),
    ],
)
def test_meta_refresh(content: str, expected: tuple[float, str, str | None] | None) -> None:
    head = f'<meta http-equiv="Refresh" content="{html.escape(content)}">'
    assert extract(page(head), PAGE_URL, "utf-8").meta_refresh == expected


@pytest.mark.parametrize(
    ("head", "noindex", "nofollow"),
    [
        ('<meta name="robots" content="noindex">', True, False),
        ('<meta name="ROBOTS" content="NOFOLLOW, noarchive">', False, True),
        ('<meta name="robots" content="none">', True, True),
        ('<meta name="robots" content="index, follow">', False, False),
        ('<meta name="unob" content="noindex,nofollow">', True, True),  # our token
        ('<meta name="googlebot" content="noindex,nofollow">', False, False),
        ('<meta name="robots" content="noindex"><meta name="unob" content="nofollow">', True, True),
    ],
)
def test_meta_robots(head: str, noindex: bool, nofollow: bool) -> None:
    result = extract(page(head, '<a href="/x">x</a>'), PAGE_URL, "utf-8")
    assert (result.noindex, result.nofollow) == (noindex, nofollow)
    assert result.follow == (() if nofollow else ("http://example.org/x",))


def test_meta_robots_for_another_token() -> None:
    head = '<meta name="mysearch-crawler" content="nofollow">'
    assert extract(page(head), PAGE_URL, "utf-8", robots_token="MySearch-Crawler").nofollow
    assert not extract(page(head), PAGE_URL, "utf-8").nofollow


def test_images_only_when_wanted() -> None:
    body = (
        '<img src="a.png"><img src="data:image/png;base64,AAAA" data-src="lazy.png">'
        '<img srcset="small.png 1x, big.png 2x"><img src="a.png"><img alt="none">'
        '<img src="data:image/gif;base64,R0lG">'
    )
    assert extract(page(body=body), PAGE_URL, "utf-8").images == ()
    result = extract(page(body=body), PAGE_URL, "utf-8", want_images=True)
    assert result.images == (
        "http://example.org/dir/a.png",
        "http://example.org/dir/lazy.png",
        "http://example.org/dir/small.png",
    )


def test_max_links() -> None:
    body = "".join(f'<a href="/p{i}">{i}</a>' for i in range(50))
    result = extract(page(body=body), PAGE_URL, "utf-8", max_links=10)
    assert urls(result) == [f"http://example.org/p{i}" for i in range(10)]


# -- charsets ---------------------------------------------------------------------------


def test_charset_is_used_for_non_ascii_hrefs() -> None:
    body = page(body='<a href="/café">x</a>').replace(b"caf\xc3\xa9", b"caf\xe9")
    result = extract(body, PAGE_URL, "windows-1252")
    assert urls(result) == ["http://example.org/caf%C3%A9"]


def test_charset_is_sniffed_when_not_given() -> None:
    latin = b'<html><head><meta charset="iso-8859-1"></head><body><a href="/caf\xe9">x</a>'
    assert urls(extract(latin, PAGE_URL)) == ["http://example.org/caf%C3%A9"]
    utf8 = '<html><body><a href="/café">x</a>'.encode()
    assert urls(extract(utf8, PAGE_URL)) == ["http://example.org/caf%C3%A9"]


def test_given_charset_beats_a_lying_meta() -> None:
    body = '<meta charset="iso-8859-1"><a href="/café">x</a>'.encode()
    assert urls(extract(body, PAGE_URL, "utf-8")) == ["http://example.org/caf%C3%A9"]


def test_xml_prologue_pages_parse() -> None:
    # DocBook pages start with an XML declaration: lxml refuses them as str, not as bytes
    body = (
        b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
        b'<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "x.dtd">'
        b'<html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title>'
        b'<link rel="next" href="ch02.html"/></head><body><a href="ch01.html">1</a></body></html>'
    )
    assert urls(extract(body, PAGE_URL, "utf-8")) == [
        "http://example.org/dir/ch02.html",
        "http://example.org/dir/ch01.html",
    ]


def test_utf16_page() -> None:
    body = '<html><body><a href="/ü">x</a></body></html>'.encode("utf-16-le")
    assert urls(extract(body, PAGE_URL, "utf-16le")) == ["http://example.org/%C3%BC"]


def test_charset_lxml_does_not_know_is_transcoded() -> None:
    body = '<html><body><a href="/é">x</a></body></html>'.encode("mac-roman")
    assert urls(extract(body, PAGE_URL, "mac-roman")) == ["http://example.org/%C3%A9"]


def test_unknown_charset_name_does_not_raise() -> None:
    assert urls(extract(page(body='<a href="/x">x</a>'), PAGE_URL, "no-such-charset")) == [
        "http://example.org/x"
    ]


@pytest.mark.parametrize(
    "body", [b"", b"   ", b"\x00\x01\x02", b"<", b"<html", b"\xff\xfe\x00", b"<a href='/x'>"]
)
def test_degenerate_bodies(body: bytes) -> None:
    result = extract(body, PAGE_URL, "utf-8")
    assert isinstance(result, PageLinks)


def test_bad_page_url_gives_nothing() -> None:
    assert extract(page(body='<a href="/x">x</a>'), "not a url", "utf-8") == PageLinks()


@settings(max_examples=300, deadline=None)
@given(body=st.binary(max_size=2000), charset=st.sampled_from([None, "utf-8", "windows-1252"]))
def test_any_bytes_never_raise(body: bytes, charset: str | None) -> None:
    result = extract(body, PAGE_URL, charset, want_images=True)
    for link in result.links:
        assert canonicalize(link.url) == link.url


@settings(max_examples=300, deadline=None)
@given(
    markup=st.lists(
        st.sampled_from(
            [*"<>\"'/.#?&x:; =é", "<a href=", "<base href=", "<img srcset=", "<meta ",
             "http-equiv=refresh content=", "<link rel=", "canonical", "name=robots"]
        ),
        max_size=80,
    ).map("".join)
)  # fmt: skip
def test_any_markup_never_raises(markup: str) -> None:
    result = extract(markup.encode(), PAGE_URL, "utf-8", want_images=True)
    assert all(canonicalize(link.url) == link.url for link in result.links)


# -- robots directives ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([], (False, False)),
        (["noindex"], (True, False)),
        (["NOINDEX, NOFOLLOW"], (True, True)),
        (["none"], (True, True)),
        (["noarchive", "nofollow"], (False, True)),
        (["googlebot: noindex"], (False, False)),
        (["unob: noindex"], (True, False)),
        (["UNOB: nofollow, noindex"], (True, True)),
        (["otherbot: noindex, nofollow", "unob: nofollow"], (False, True)),
        (["unavailable_after: 25 Jun 2010 15:00:00 PST"], (False, False)),
        (["max-snippet: 20, noindex"], (True, False)),
        (["noindex nofollow"], (True, True)),
    ],
)
def test_parse_x_robots_tag(values: list[str], expected: tuple[bool, bool]) -> None:
    assert parse_x_robots_tag(values, "unob") == expected


def test_parse_robots_directives() -> None:
    assert parse_robots_directives("all") == (False, False)
    assert parse_robots_directives(" NoIndex ,  NoFollow ") == (True, True)
