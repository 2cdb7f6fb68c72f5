"""Properties of derive_html and the text pile digest (hypothesis)."""

from __future__ import annotations

import codecs

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unob.summarizer.document import Derived, TextPile
from unob.summarizer.extract import _derive, derive_html
from unob.urls import canonicalize

_TAGS = [
    "p",
    "div",
    "a",
    "h1",
    "h2",
    "ul",
    "li",
    "pre",
    "code",
    "nav",
    "article",
    "main",
    "script",
    "style",
    "table",
    "td",
    "span",
    "br",
    "img",
    "meta",
    "title",
    "head",
    "body",
    "html",
    "section",
    "blockquote",
    "svg",
    "noscript",
    "footer",
    "time",
]
_ATTRS = [
    'href="/x"',
    'href="#f"',
    'href="http://o.example/y"',
    'href="javascript:x"',
    'class="comments"',
    'class="article-body"',
    'id="main"',
    "hidden",
    'aria-hidden="true"',
    'style="display:none"',
    'role="navigation"',
    'lang="de"',
    'rel="nofollow next"',
    'src="i.png"',
    'srcset=","',
    'data-src="" srcset=" "',
    'name="description" content="d"',
    'charset="latin1"',
    'property="article:published_time" content="2020-01-01"',
    'datetime="bad"',
]

# Fragments of HTML glued at random: unbalanced, misnested, truncated.
_fragments = st.one_of(
    st.sampled_from(_TAGS).flatmap(lambda t: st.sampled_from(_ATTRS).map(lambda a: f"<{t} {a}>")),
    st.sampled_from(_TAGS).map(lambda t: f"<{t}>"),
    st.sampled_from(_TAGS).map(lambda t: f"</{t}>"),
    st.text(max_size=30),
    st.sampled_from(
        [
            "<!--",
            "-->",
            "<![CDATA[",
            "&amp;",
            "&#0;",
            "&#xD800;",
            "<?xml version='1.0' encoding='utf-16'?>",
            "\x00",
            "\ufeff",
            "<",
            ">",
        ]
    ),
)
_html = st.lists(_fragments, max_size=40).map("".join)


def _check(derived: Derived) -> None:
    assert isinstance(derived, Derived)
    pile = derived.text_pile
    assert len(pile.digest()) == 16
    for field in (pile.text, pile.secondary_text, pile.big_headlines, pile.small_headlines):
        assert field == field.strip() or "\n" in field
    assert [h.position for h in derived.headings] == list(range(len(derived.headings)))
    assert [i.position for i in derived.images] == list(range(len(derived.images)))
    assert [link.position for link in derived.links] == list(range(len(derived.links)))
    for link in derived.links:
        assert canonicalize(link.to_url) == link.to_url
        assert link.locality in ("self", "in", "out")
    assert derived.description.word_count == len(pile.text.split())


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    body=st.binary(max_size=2000),
    url=st.text(max_size=40),
    charset=st.none()
    | st.text(max_size=12)
    | st.sampled_from(
        [
            "undefined",
            "rot13",
            "base64",
            "utf-16",
            "utf-32",
            "idna",
            "punycode",
            "utf-7",
            "cp037",
            "x-user-defined",
        ]
    ),
)
def test_any_bytes_any_url_never_raise(body: bytes, url: str, charset: str | None) -> None:
    # _derive, not derive_html: derive_html's last-resort guard would hide bugs.
    _check(_derive(body, url, charset))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    html=_html,
    url=st.sampled_from(
        [
            "http://example.com/a/b",
            "https://x.example/",
            "",
            "not a url",
            "http://[::1",
            "mailto:a@b",
        ]
    ),
    encoding=st.sampled_from(["utf-8", "utf-16", "latin-1", "shift_jis", "cp1252"]),
)
def test_html_soup_never_raises(html: str, url: str, encoding: str) -> None:
    body = (
        html.encode(encoding, "replace")
        if encoding != "utf-16"
        else codecs.BOM_UTF16_LE + html.encode("utf-16-le", "surrogatepass")
    )
    _check(_derive(body, url, None))


@given(html=_html)
@settings(max_examples=100, deadline=None)
def test_same_input_same_output(html: str) -> None:
    body = html.encode("utf-8", "surrogatepass")
    first = derive_html(body, "http://example.com/p")
    second = derive_html(body, "http://example.com/p")
    assert first == second
    assert first.text_pile.digest() == second.text_pile.digest()


def test_digest_is_pinned() -> None:
    """xxh3_128 over the six fields joined by three newlines, UTF-8.

    The value is xxhash's, computed independently:
    ``xxhash.xxh3_128_digest(b"main text\\n\\n\\nboiler\\n\\n\\nBig...")``; if it
    changes, every stored text pile's digest changes with it.
    """
    pile = TextPile("main text", "boiler", "Big", "small", "code()", "quote")
    assert pile.digest().hex() == "b23d5a347369e4fd69294e250d1c945d"
    empty = TextPile("", "", "", "", "", "")
    assert len(empty.digest()) == 16
    # Moving text between fields changes the digest.
    assert (
        TextPile("main", "text", "", "", "", "").digest()
        != TextPile("main text", "", "", "", "", "").digest()
    )


def test_digest_of_a_page_is_stable_across_calls() -> None:
    body = (
        b"<html><body><article><h1>T</h1><p>"
        + b"Words, words, words. " * 20
        + b"</p></article></body></html>"
    )
    digests = {derive_html(body, "http://example.com/").text_pile.digest() for _ in range(3)}
    assert len(digests) == 1
