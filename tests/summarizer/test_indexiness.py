"""Indexiness on stereotypical pages (DESIGN.md §5, reference §5.4)."""

from __future__ import annotations

from unob.summarizer.document import IN_ARTICLE, IN_FOOTER, IN_HEADING, IN_LIST, IN_NAV, Link
from unob.summarizer.extract import derive_html
from unob.summarizer.indexiness import IndexinessMetrics, indexiness, metrics

URL = "https://site.example/section/page"


def page(body: str, head: str = "") -> str:
    return (
        f"<!doctype html><html lang=en><head><title>t</title>{head}</head>"
        f"<body>{body}</body></html>"
    )


def score(html: str) -> int:
    return derive_html(html.encode(), URL).description.indexiness


def para(n: int) -> str:
    return " ".join(["A sentence of running text, with a comma and some more words."] * n)


BLOG_INDEX = page(
    "<nav><a href='/'>Home</a> <a href='/about'>About</a></nav><main>"
    + "".join(
        f"<article><h2><a href='/posts/{i}'>Post number {i}</a></h2>"
        f"<p>{para(1)}</p><a href='/posts/{i}'>Read more</a></article>"
        for i in range(8)
    )
    + "</main><footer><a href='https://elsewhere.example/'>Hosted elsewhere</a></footer>"
)

SITEMAP = page(
    "<h1>Site map</h1><ul>"
    + "".join(f"<li><a href='/section/{i}'>Section {i}</a></li>" for i in range(30))
    + "</ul>"
)

LONG_ARTICLE = page(
    "<header><a href='/'>Site</a></header><article><h1>A long story</h1>"
    + "".join(
        f"<p>{para(4)} See <a href='https://source{i}.example/'>source {i}</a>.</p>"
        for i in range(6)
    )
    + "</article>",
    head="<meta property='article:published_time' content='2024-01-02T03:04:05Z'>",
)

DOCS_WITH_TOC = page(
    "<div class='body' role='main'><h1>Reference<a class='headerlink' href='#reference'>¶</a></h1>"
    "<ul class='toc'>"
    + "".join(f"<li><a href='#part-{i}'>Part {i}</a></li>" for i in range(6))
    + "</ul>"
    + "".join(
        f"<section id='part-{i}'><h2>Part {i}<a class='headerlink' href='#part-{i}'>¶</a></h2>"
        f"<p>{para(3)}</p></section>"
        for i in range(6)
    )
    + "</div>"
)


def test_blog_index_is_an_index() -> None:
    assert score(BLOG_INDEX) >= 8


def test_sitemap_like_list_is_an_index() -> None:
    assert score(SITEMAP) >= 20


def test_long_dated_article_is_a_leaf() -> None:
    assert score(LONG_ARTICLE) <= -10


def test_docs_page_with_self_link_toc_is_a_leaf() -> None:
    assert score(DOCS_WITH_TOC) <= -18


def test_more_index_links_mean_more_confidence() -> None:
    small = page(
        "<ul>" + "".join(f"<li><a href='/s/{i}'>S {i}</a></li>" for i in range(5)) + "</ul>"
    )
    assert 0 < score(small) < score(SITEMAP)


def _link(locality: str, location: int, *, kind: str = "a", text: str = "x") -> Link:
    return Link(
        to_url="https://site.example/x",
        to_fragment=None,
        text=text,
        kind=kind,
        locality=locality,
        position=0,
        rel=(),
        location=location,
        in_main_content=True,
    )


def test_formula_counts_each_relevant_link_once() -> None:
    art = IN_ARTICLE  # the page has an <article>: links must be inside it
    links = [
        _link("in", art | IN_HEADING | IN_LIST),  # heading beats list: one inlink in headings
        _link("in", art | IN_LIST),
        _link("self", art | IN_HEADING),
        _link("self", art | IN_LIST),
        _link("self", art | IN_LIST),
        _link("out", art),
        _link("out", art | IN_LIST),
        _link("in", art | IN_NAV | IN_LIST),  # navigation: not relevant
        _link("in", IN_LIST),  # outside the article: not relevant
        _link("in", IN_FOOTER | IN_LIST),  # footer: not relevant
        _link("in", art | IN_FOOTER | IN_LIST),  # footer inside article: relevant
        _link("in", art | IN_LIST, text=""),  # no text: not relevant
        _link("in", art | IN_LIST, kind="area"),  # not an <a>: not relevant
    ]
    got = metrics(links, has_publishing_date=True)
    assert got == IndexinessMetrics(
        inlinks_in_headings=1,
        inlinks_in_lists=2,
        selflinks_in_headings=1,
        selflinks_in_lists=2,
        outlinks=2,
        has_publishing_date=True,
    )
    # 2*1 + 2 - 2*1 - 2 - 2 - 5
    assert got.score == -7
    assert indexiness(links, has_publishing_date=False) == -2


def test_only_self_links_count_outside_main_content() -> None:
    def outside(locality: str) -> Link:
        return Link(
            to_url="https://site.example/x",
            to_fragment=None,
            text="x",
            kind="a",
            locality=locality,
            position=0,
            rel=(),
            location=IN_LIST,
            in_main_content=False,
        )

    assert indexiness([outside("in"), outside("out")], has_publishing_date=False) == 0
    assert indexiness([outside("self")], has_publishing_date=False) == -1
