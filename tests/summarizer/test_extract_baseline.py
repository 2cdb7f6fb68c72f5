"""Pinned extraction baseline: recorded pages and what derive_html must find in them.

Fixtures (tests/summarizer/fixtures/):

* sphinx_json.html: a Sphinx documentation page (modelled on the Python
  docs' json page, PSF licence): sidebar TOC, permalinks, sections with ids.
* blog_index.html: a blog front page: teasers with linked h2 and dates.
* article_en.html: an article with OpenGraph/article meta, JSON-LD, cookie
  banner, share tools, related stories and comments.
* article_de.html: a German article in ISO-8859-1 declared by meta only.
* latimes_disney.html.gz, entermedia_ko.html.gz: two pages of the article
  extraction benchmark (MIT licence, see shared/data), as fetched.

A failure here is a regression of the extractor (or a deliberate change:
then update the expectation and say why in the commit).
"""

from __future__ import annotations

import gzip
from datetime import UTC, datetime
from pathlib import Path

import pytest

from unob.summarizer.document import Derived
from unob.summarizer.extract import derive_html

FIXTURES = Path(__file__).parent / "fixtures"


def load(name: str, url: str) -> Derived:
    body = (FIXTURES / name).read_bytes()
    if name.endswith(".gz"):
        body = gzip.decompress(body)
    return derive_html(body, url)


def unix(text: str) -> int:
    return int(datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp())


def heading_triples(d: Derived) -> list[tuple[int, str, str | None]]:
    return [(h.level, h.text, h.anchor) for h in d.headings]


def test_sphinx_page() -> None:
    d = load("sphinx_json.html", "https://docs.example.org/3/library/json.html")
    desc = d.description
    assert desc.title == "json — JSON encoder and decoder — Python 3.12 documentation"
    assert desc.description is not None
    assert desc.description.startswith("Source code: Lib/json/__init__.py JSON")
    assert desc.primary_language == "en"
    assert desc.primary_headline == "json — JSON encoder and decoder"
    assert desc.canonical_url == "https://docs.example.org/3/library/json.html"
    # Section anchors come from the permalinks; the pilcrow is not text.
    triples = heading_triples(d)
    content = [t for t in triples if t[2] is not None]
    assert content == [
        (1, "json — JSON encoder and decoder", "module-json"),
        (2, "Basic Usage", "basic-usage"),
        (2, "Encoders and Decoders", "encoders-and-decoders"),
        (3, "Standard Compliance and Interoperability", "standard-compliance-and-interoperability"),
    ]
    assert [h.position for h in d.headings] == list(range(len(d.headings)))
    pile = d.text_pile
    assert pile.text.startswith(
        "json — JSON encoder and decoder\nJSON (JavaScript Object Notation), specified by RFC 7159"
    )
    assert "¶" not in pile.text
    assert "Serialize obj as a JSON formatted stream" in pile.text
    # Navigation, sidebar TOC and footer are secondary text.
    for boiler in ("Table of Contents", "Previous topic", "Report a Bug", "Copyright"):
        assert boiler not in pile.text
        assert boiler in pile.secondary_text
    assert pile.big_headlines.split("\n") == [
        "json — JSON encoder and decoder",
        "Basic Usage",
        "Encoders and Decoders",
        "Standard Compliance and Interoperability",
    ]
    assert ">>> import json" in pile.code_text
    assert '\'["foo", {"bar": ["baz", null, 1.0, 2]}]\'' in pile.code_text
    assert (
        pile.quote_text == "An implementation may set limits on the size of texts that it accepts."
    )
    # A documentation leaf page: permalinks in headings are self-links.
    assert desc.indexiness < 0
    nexts = [link for link in d.links if link.kind == "link" and "next" in link.rel]
    assert [link.to_url for link in nexts] == ["https://docs.example.org/3/library/json.tool.html"]
    source = next(link for link in d.links if link.text == "Show Source")
    assert source.rel_nofollow and source.in_nav and source.locality == "out"


def test_blog_index() -> None:
    d = load("blog_index.html", "https://fieldnotes.example/")
    desc = d.description
    assert desc.title == "Field Notes — a blog about birds and trains"
    assert desc.description == (
        "Weekly notes on birdwatching along the railway lines of northern England."
    )
    assert desc.primary_language == "en-gb"
    assert desc.primary_headline == "Latest posts"
    # One <time> per teaser is not the page's publishing date.
    assert desc.published_unix_utc is None
    assert desc.indexiness > 0
    assert heading_triples(d)[:3] == [
        (1, "Latest posts", None),
        (2, "Curlews at Garsdale Head", None),
        (2, "Kestrels hunting the embankment at Ribblehead", None),
    ]
    assert d.text_pile.text.startswith(
        "Latest posts\nCurlews at Garsdale Head\n14 March 2024\nThe first curlews"
    )
    assert "Waders" not in d.text_pile.text
    mastodon = next(link for link in d.links if link.text == "Mastodon")
    assert mastodon.rel_me and mastodon.in_footer and mastodon.locality == "out"


def test_article_with_meta_english() -> None:
    d = load("article_en.html", "https://review.example.com/2023/10/night-mail/?utm_source=x")
    desc = d.description
    assert desc.title == "How the night mail kept its timetable | The Railway Review"
    assert desc.primary_headline == "How the night mail kept its timetable"
    assert desc.og_title == "How the night mail kept its timetable"
    assert desc.description is not None and desc.description.startswith("A history of the")
    assert desc.primary_language == "en-us"
    assert desc.keywords == ("railways", "postal history", "travelling post office", "Royal Mail")
    assert desc.author == "Ann Smith"
    assert desc.image == "https://review.example.com/images/night-mail.jpg"
    assert desc.category == "History"
    assert desc.published_unix_utc == unix("2023-10-05T07:30:00")
    assert desc.modified_unix_utc == unix("2023-10-06T12:00:00")
    assert desc.canonical_url == "https://review.example.com/2023/10/night-mail/"
    assert desc.indexiness < 0
    assert heading_triples(d)[:3] == [
        (1, "How the night mail kept its timetable", None),
        (2, "The exchange apparatus", "apparatus"),
        (2, "The end of the night mail", "end"),
    ]
    pile = d.text_pile
    assert pile.text.startswith("For more than a century, the travelling post office sorted")
    assert pile.text.endswith("has working models of the nets.")
    for boiler in ("cookies", "Share on Twitter", "Related stories", "grandfather", "Privacy"):
        assert boiler not in pile.text
        assert boiler in pile.secondary_text
    assert (
        pile.quote_text == "“We knew the line by the sound of the bridges,” one sorter remembered."
    )
    assert desc.word_count == len(pile.text.split())
    assert d.images[0].src == "https://review.example.com/images/night-mail.jpg"
    assert (d.images[0].alt, d.images[0].width, d.images[0].height) == (
        "A travelling post office at speed",
        1200,
        675,
    )
    museum = next(link for link in d.links if "museum" in link.to_url)
    assert museum.in_article and museum.in_paragraph and museum.in_main_content
    assert museum.locality == "out"
    tag = next(link for link in d.links if link.text == "Royal Mail")
    assert tag.rel_tag and not tag.in_main_content


def test_article_with_meta_german_latin1() -> None:
    d = load("article_de.html", "https://rundschau.example.de/lokales/schwebebahn-120")
    desc = d.description
    # ISO-8859-1 declared only by <meta http-equiv>: umlauts must survive.
    assert desc.title == "Die Schwebebahn wird 120 Jahre alt - Wuppertaler Rundschau"
    assert desc.description == (
        "Seit 1901 schwebt die Bahn über der Wupper. "
        "Ein Rückblick auf Bau, Unfälle und Modernisierung."
    )
    assert desc.primary_language == "de-de"
    assert desc.keywords == ("Schwebebahn", "Wuppertal", "Verkehr")
    assert desc.author == "Jürgen Weber"
    assert desc.category == "Lokales"
    assert desc.image == "https://rundschau.example.de/bilder/schwebebahn.jpg"
    assert desc.published_unix_utc == unix("2021-03-01T05:00:00")
    assert heading_triples(d) == [
        (1, "Die Schwebebahn wird 120 Jahre alt", None),
        (2, "Der Elefant Tuffi", None),
    ]
    assert d.text_pile.text.startswith(
        "Die Schwebebahn wird 120 Jahre alt\n01.03.2021\nSeit dem 1. März 1901 schwebt die Bahn"
    )
    assert "Anzeige" not in d.text_pile.text
    assert "Impressum" in d.text_pile.secondary_text
    assert desc.indexiness < 0


@pytest.mark.parametrize(
    ("name", "url", "title", "language", "text_start", "description_start"),
    [
        (
            "latimes_disney.html.gz",
            "https://www.latimes.com/entertainment-arts/business/story/2019-11-19/disney-plus-kevin-mayer",
            "Disney+ glitches blamed on heavy demand says executive Kevin Mayer"
            " - Los Angeles Times",
            "en-us",
            "Walt Disney Co. executive Kevin Mayer said overwhelming demand and a computer-coding",
            "Kevin Mayer, the Disney executive in charge of Disney+, blamed",
        ),
        (
            "entermedia_ko.html.gz",
            "http://entermedia.co.kr/news/news_view.html?idx=8576&page=1&bc=03&mc=08",
            "엘제이-류화영 진흙탕 싸움, 공적인 사안으로 봐야하는 이유 - Entermedia",
            "ko",
            "엘제이의 리벤지인가, 류화영의 코스프레인가\n[엔터미디어=정덕현의 이슈공감] 엘제이의",
            "엘제이-류화영 진흙탕 싸움, 공적인 사안으로 봐야하는 이유",
        ),
    ],
)
def test_recorded_news_pages(
    name: str, url: str, title: str, language: str, text_start: str, description_start: str
) -> None:
    d = load(name, url)
    assert d.description.title == title
    assert d.description.primary_language == language
    assert d.text_pile.text.startswith(text_start)
    assert d.description.description is not None
    assert d.description.description.startswith(description_start)
    assert d.description.indexiness <= 0
