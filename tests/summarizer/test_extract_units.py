"""derive_html piece by piece: charset, links, headings, hidden text, metadata."""

from __future__ import annotations

import codecs

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from unob.summarizer.charset import sniff_encoding, to_utf8
from unob.summarizer.extract import derive_html
from unob.summarizer.linkresolve import Base
from unob.summarizer.meta import normalize_language, parse_date
from unob.urls import _canonical_absolute as _canonical
from unob.urls import canonicalize

URL = "https://example.com/docs/guide/page.html?x=1"


def derive(html: str, url: str = URL) -> object:
    return derive_html(html.encode(), url)


# -- charset ----------------------------------------------------------------


def test_charset_order_bom_header_meta_utf8() -> None:
    latin = "<meta charset='iso-8859-1'><p>Grüße</p>".encode("latin-1")
    assert sniff_encoding(latin) == "cp1252"  # WHATWG: latin1 labels mean windows-1252
    assert sniff_encoding(latin, "utf-8") == "utf-8"  # the HTTP header wins over meta
    assert sniff_encoding(codecs.BOM_UTF8 + latin, "latin-1") == "utf-8"  # the BOM wins
    assert sniff_encoding("<p>Grüße</p>".encode()) == "utf-8"
    assert sniff_encoding(b"<p>x</p>", "no-such-charset") == "utf-8"
    # Python codecs that are no charset: refused, as unknown labels are.
    for bogus in ("undefined", "rot13", "base64", "hex", "idna"):
        assert sniff_encoding(b"<p>x</p>", bogus) == "utf-8"
    assert to_utf8(latin).decode() == "<meta charset='iso-8859-1'><p>Grüße</p>"


def test_utf16_with_bom_and_bad_utf8_decode() -> None:
    body = codecs.BOM_UTF16_LE + "<title>Ünïcode</title><p>x</p>".encode("utf-16-le")
    assert derive_html(body, URL).description.title == "Ünïcode"
    broken = b"<title>caf\xe9 cr\xe8me br\xfbl\xe9e</title>"  # not UTF-8, undeclared
    title = derive_html(broken, URL).description.title
    assert title is not None and title.startswith("caf") and "\ufffd" not in title


def test_xml_prologue_is_harmless() -> None:
    body = (
        b"<?xml version='1.0' encoding='utf-8'?><!DOCTYPE html><html><title>DocBook</title></html>"
    )
    assert derive_html(body, URL).description.title == "DocBook"


# -- links ------------------------------------------------------------------


def test_link_resolution_locality_and_flags() -> None:
    d = derive(
        "<nav><a href='/'>Home</a></nav>"
        "<main><p>See <a href='other.html#part' rel='nofollow UGC'>other</a>, "
        "<a href='#top'>top</a>, <a href='?x=1'>same</a>, <a href='//cdn.example.net/a'>cdn</a>, "
        "<a href='HTTP://Example.COM:443/Docs/../x'>odd</a>, <a href='javascript:void(0)'>js</a>, "
        "<a href='mailto:a@b.example'>mail</a>, <a href=' \n/sp ace '>ws</a>.</p></main>"
        "<map><area href='/map' alt='Map area'></map>"
        "<meta http-equiv='refresh' content='5; URL=/refreshed'>"
    )
    got = [(link.to_url, link.to_fragment, link.text, link.kind, link.locality) for link in d.links]
    assert got == [
        ("https://example.com/", None, "Home", "a", "in"),
        ("https://example.com/docs/guide/other.html", "part", "other", "a", "in"),
        ("https://example.com/docs/guide/page.html?x=1", "top", "top", "a", "self"),
        ("https://example.com/docs/guide/page.html?x=1", None, "same", "a", "self"),
        ("https://cdn.example.net/a", None, "cdn", "a", "out"),
        ("http://example.com:443/x", None, "odd", "a", "out"),
        ("https://example.com/sp%20ace", None, "ws", "a", "in"),
        ("https://example.com/map", None, "Map area", "area", "in"),
        ("https://example.com/refreshed", None, "", "meta_refresh", "in"),
    ]
    home, other = d.links[0], d.links[1]
    assert home.in_nav and not home.in_main
    assert other.in_main and other.in_paragraph and not other.in_nav
    assert other.rel_nofollow and other.rel_ugc and not other.rel_sponsored
    assert other.rel == ("nofollow", "ugc")


def test_base_href_resolves_links_but_not_self() -> None:
    d = derive(
        "<head><base href='https://static.example.org/root/'></head>"
        "<p><a href='x.html'>x</a> <a href='https://example.com/docs/guide/page.html?x=1'>me</a></p>"
    )
    assert [(link.to_url, link.locality) for link in d.links] == [
        ("https://static.example.org/root/x.html", "out"),
        ("https://example.com/docs/guide/page.html?x=1", "self"),
    ]


def test_link_containing_heading_and_link_rel_next() -> None:
    d = derive(
        "<head><link rel='next' href='p2.html'><link rel='stylesheet' href='s.css'></head>"
        "<ul><li><a href='/post'><h3>Post title</h3></a></li></ul>"
    )
    assert [(link.kind, link.to_url) for link in d.links] == [
        ("a", "https://example.com/post"),
        ("link", "https://example.com/docs/guide/p2.html"),
    ]
    post = d.links[0]
    assert post.contains_heading and post.in_list and post.text == "Post title"


# No ";": urljoin still splits RFC 2396 path parameters, RFC 3986 does not.
_url_part = st.text(alphabet="abcXYZ019-._~%/?#=&:@!$'()*+,", max_size=20)


@settings(max_examples=300, deadline=None)
@given(
    scheme=st.sampled_from(["http", "https", "HTTP"]),
    host=st.sampled_from(
        ["example.com", "EXAMPLE.com", "a-b.example", "x.example:8080", "x.example:80"]
    ),
    rest=_url_part,
)
def test_fast_canonical_path_agrees_with_unob_urls(scheme: str, host: str, rest: str) -> None:
    url = f"{scheme}://{host}/{rest}".partition("#")[0]
    assert _canonical(url) == canonicalize(url)


@settings(max_examples=300, deadline=None)
@given(href=_url_part)
def test_resolve_agrees_with_urljoin_then_canonicalize(href: str) -> None:
    from urllib.parse import urljoin

    # RFC 3986 §5.2.2 gives "?" an empty query; urljoin keeps the base's.
    # urljoin also drops empty path segments ("a//b"); RFC 3986 keeps them.
    assume(href.strip().partition("#")[0] != "?" and "//" not in href[1:])
    base = Base(URL)
    got = base.resolve(href)
    expected = canonicalize(urljoin(canonicalize(URL) or "", href.strip()))
    if got is None:
        # Refused where urljoin guesses: "//" without a host, "http:x" forms.
        before = href.strip().partition("#")[0]
        assert expected is None or before.startswith("//") or ":" in before
    else:
        assert got[0] == expected


# -- headings, hidden text, pre -----------------------------------------------


def test_heading_anchors() -> None:
    d = derive(
        "<h1 id='own'>Own id</h1>"
        "<h2><a name='named'></a>Named anchor</h2>"
        "<section id='sec'><h2>Opens section<a class='headerlink' href='#sec'>¶</a></h2></section>"
        "<div id='wrap'><p>first</p><h3>Not first child</h3></div>"
        "<h4>Plain §</h4>"
    )
    assert [(h.level, h.text, h.anchor) for h in d.headings] == [
        (1, "Own id", "own"),
        (2, "Named anchor", "named"),
        (2, "Opens section", "sec"),
        (3, "Not first child", None),
        (4, "Plain", None),
    ]


def test_hidden_and_script_text_is_not_text() -> None:
    d = derive(
        "<p>visible one</p><p hidden>hidden attr</p><p style='display: none'>display none</p>"
        "<p aria-hidden='true'>aria</p><span class='sr-only'>screen reader</span>"
        "<script>var s = 'script';</script><style>p{}</style><noscript>enable js</noscript>"
        "<template><p>template</p></template><p>visible two</p>"
    )
    everything = d.text_pile.text + "\n" + d.text_pile.secondary_text
    assert "visible one" in everything and "visible two" in everything
    for hidden in (
        "hidden attr",
        "display none",
        "aria",
        "screen reader",
        "script",
        "enable js",
        "template",
        "p{}",
    ):
        assert hidden not in everything


def test_pre_keeps_lines_and_inline_code_is_code() -> None:
    d = derive(
        "<article><p>Call <code>run()</code> like this, with care, and more words to score:</p>"
        "<pre>def f():\n    return 1\n</pre></article>"
    )
    assert "def f():\n    return 1" in d.text_pile.text
    assert d.text_pile.code_text.split("\n") == ["def f():", "    return 1", "run()"]


def test_inline_elements_do_not_split_words_and_blocks_do() -> None:
    d = derive("<div><p>Hel<b>lo</b> wor<i>ld</i></p><div>one</div><div>two</div>a<br>b</div>")
    lines = (d.text_pile.text + "\n" + d.text_pile.secondary_text).split("\n")
    assert "Hello world" in lines and "one" in lines and "two" in lines
    assert "a" in lines and "b" in lines


# -- metadata ---------------------------------------------------------------


def test_title_fallbacks_and_images() -> None:
    d = derive(
        "<head><meta property='og:title' content='OG title'></head>"
        "<body><h1>Heading</h1><img data-src='/lazy.jpg' src='data:image/gif;base64,R0lGOD'>"
        "<img srcset='/small.jpg 1x, /big.jpg 2x' alt=' two  words ' width='100px' height='x'>"
        "</body>"
    )
    assert d.description.title == "OG title"
    assert [(i.src, i.alt, i.width, i.height) for i in d.images] == [
        ("https://example.com/lazy.jpg", None, None, None),
        ("https://example.com/small.jpg", "two words", 100, None),
    ]
    assert derive("<h1>Only heading</h1>").description.title == "Only heading"


def test_json_ld_dates_author_and_robots() -> None:
    d = derive(
        "<head><meta name='robots' content='NOINDEX, follow'>"
        '<script type="application/ld+json">{"@graph": [{"@type": "Article", '
        '"datePublished": "2020-02-03", "dateModified": "2020-02-04T10:00:00+02:00", '
        '"author": [{"name": "A"}, {"name": "B"}]}]}</script></head><p>x</p>'
    )
    desc = d.description
    assert desc.published_unix_utc == 1580688000
    assert desc.modified_unix_utc == 1580803200
    assert desc.author == "A, B"
    assert desc.robots == ("noindex", "follow")


def test_date_and_language_parsing() -> None:
    assert parse_date("2019-11-18T10:00:00Z") == 1574071200
    assert parse_date("2019-11-18") == 1574035200
    assert parse_date("20191118") == 1574035200
    assert parse_date("2019-11-18T10:00:00.123+0100") == 1574067600
    assert parse_date("18.11.2019") is None
    assert parse_date("2019-13-45") is None
    assert normalize_language(" en_US ") == "en-us"
    assert normalize_language("de, en") == "de"
    assert normalize_language("not a language!") is None
    assert normalize_language("") is None


def test_language_from_meta_when_no_lang_attribute() -> None:
    d = derive("<head><meta http-equiv='content-language' content='fr-CA'></head><p>x</p>")
    assert d.description.primary_language == "fr-ca"
    d = derive("<head><meta property='og:locale' content='pt_BR'></head><p>x</p>")
    assert d.description.primary_language == "pt-br"
    assert derive("<p>no language at all</p>").description.primary_language is None
