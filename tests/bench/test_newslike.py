"""The news-like synthetic pages of the summarize benchmark, and the page-shape measure."""

from __future__ import annotations

import re
import statistics
from urllib.parse import urljoin, urlsplit

import pytest
from lxml import html

from _newslike import render_news_page, vocabulary
from _pageshape import page_shape, set_shape
from _synthetic import SiteShape, page_links, page_path, parse_page_path

SHAPE = SiteShape(hosts=50, pages_per_host=1000)
# Medians of the 181 pages of tests/data/article-extraction-benchmark as
# ``bench/_pageshape.py`` measures them (see bench/README.md); the generator is
# meant to land within about 20% of each.
NEWS_MEDIANS = {"bytes": 114_600, "elements": 743, "links": 128, "text_share": 0.066}


def test_pages_are_a_pure_function_of_the_page() -> None:
    assert render_news_page(SHAPE, 3, 17, 80) == render_news_page(SHAPE, 3, 17, 80)
    assert render_news_page(SHAPE, 3, 17, 80) != render_news_page(SHAPE, 3, 18, 80)
    assert render_news_page(SHAPE, 3, 17, 80) != render_news_page(SHAPE, 4, 17, 80)


def test_sample_medians_are_near_the_real_news_pages() -> None:
    pages = [(h, p) for h in range(0, 50, 5) for p in range(0, 1000, 250)]
    shape = set_shape(
        "sample", (page_shape(render_news_page(SHAPE, h, p, 80).encode()) for h, p in pages)
    )
    for name, real in NEWS_MEDIANS.items():
        assert getattr(shape, name) == pytest.approx(real, rel=0.2), name


def _page_of(url: str) -> tuple[int, int] | None:
    parts = urlsplit(url)
    host = SHAPE.host_index(parts.hostname or "")
    page = parse_page_path(parts.path)
    if host is None or page is None or page >= SHAPE.pages_per_host or parts.query:
        return None
    return host, page


@pytest.mark.parametrize(("host", "page", "port"), [(0, 0, 80), (7, 123, 80), (49, 999, 8123)])
def test_every_link_is_a_page_of_the_site_and_the_graph_links_are_all_there(
    host: int, page: int, port: int
) -> None:
    base = f"http://{SHAPE.host_name(host)}{'' if port == 80 else f':{port}'}{page_path(page)}"
    hrefs = html.fromstring(render_news_page(SHAPE, host, page, port)).xpath("//a/@href")
    targets = [urljoin(base, href) for href in hrefs if not href.startswith("#")]
    assert len(targets) > 100
    assert all(urlsplit(t).port == (None if port == 80 else port) for t in targets)
    pages = [_page_of(t) for t in targets]
    assert None not in pages, [t for t, p in zip(targets, pages, strict=True) if p is None]
    graph = {(link.host, link.page) for link in page_links(SHAPE, host, page)}
    assert graph <= set(pages)


def test_a_tiny_site_still_links_only_to_its_pages() -> None:
    tiny = SiteShape(hosts=2, pages_per_host=3)
    for page in range(3):
        base = f"http://{tiny.host_name(1)}{page_path(page)}"
        for href in html.fromstring(render_news_page(tiny, 1, page, 80)).xpath("//a/@href"):
            if not href.startswith("#"):
                parts = urlsplit(urljoin(base, href))
                assert tiny.host_index(parts.hostname or "") is not None
                assert parse_page_path(parts.path) in range(3)


@pytest.mark.parametrize(
    "tag", ["div", "span", "a", "p", "ul", "ol", "li", "section", "article", "aside", "header",
            "footer", "nav", "main", "figure", "form", "svg", "button", "h1", "h2", "h3", "h4"],
)  # fmt: skip
def test_the_markup_is_balanced(tag: str) -> None:
    # A stray or missing close tag would silently change depth and nesting,
    # which the HTML parser repairs without a word.
    page = render_news_page(SHAPE, 11, 42, 80)
    opened = len(re.findall(rf"<{tag}[\s>]", page))
    assert opened > 0 or tag in ("h2", "ol")
    assert opened == page.count(f"</{tag}>")


def test_structure_has_one_article_with_one_h1_and_scripts_in_head_and_body() -> None:
    root = html.fromstring(render_news_page(SHAPE, 5, 77, 80))
    assert len(root.xpath("//article")) == 1 and len(root.xpath("//h1")) == 1
    assert root.xpath("//head/script[@type='application/ld+json']")
    assert root.xpath("//head/meta[@property='og:title']")
    assert len(root.xpath("//body//script")) >= 10
    assert len(root.xpath("//figure/figcaption")) == 1


def test_text_is_varied_zipf_pseudo_english() -> None:
    words = vocabulary()
    assert len(words) == len(set(words)) >= 5000 and words[0] == "the"
    text = " ".join(
        html.fromstring(render_news_page(SHAPE, 2, 9, 80)).xpath("//article//p//text()")
    )
    tokens = re.findall(r"[a-z]+", text.lower())
    assert len(set(tokens)) > 100
    # Function words lead, as in English text.
    assert statistics.mode(tokens) in ("the", "of", "and", "to", "a")


def test_page_shape_counts_elements_links_text_and_code() -> None:
    body = (
        b"<html><head><title>T</title><style>p{color:red}</style></head><body>"
        b"<div><p>Hello <a href='/x'>world</a></p><a name='anchor'>no href</a></div>"
        b"<script>var x = 1;</script><noscript>hidden</noscript></body></html>"
    )
    shape = page_shape(body)
    assert shape.bytes == len(body)
    assert shape.links == 1
    assert shape.elements == 11
    assert shape.tags["a"] == 2 and shape.tags["div"] == 1
    assert shape.text_bytes == len(b"Hello world no href")
    assert shape.script_style_bytes == len(b"p{color:red}") + len(b"var x = 1;")
    assert shape.max_depth == 5  # html > body > div > p > a
