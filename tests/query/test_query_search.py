"""`unob search` on a summarized fixture crawl: ranking, syntax, filters, current pages only."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from query_fixtures import BLOG, DOCS, OTHER

from unob.errors import NotADatabase, UsageError, WrongDatabaseKind
from unob.query.rank import boost, slug_words
from unob.query.search import COLUMN_WEIGHTS, FTS_TABLE, search


def urls(db: Path, query: str, **kwargs: object) -> list[str]:
    return [r.url for r in search(db, query, **kwargs)]  # type: ignore[arg-type]


def test_title_and_url_match_outranks_body_mentions(search_db: Path) -> None:
    found = urls(search_db, "asyncio")
    asyncio_page = f"{DOCS}/library/asyncio.html"
    body_only = [f"{DOCS}/whatsnew/3.7.html", f"{DOCS}/legacy.html", f"{BLOG}/post.html"]
    assert asyncio_page in found
    assert all(found.index(asyncio_page) < found.index(u) for u in body_only)
    # on its own site it is the first result
    assert urls(search_db, "asyncio", site="docs.test")[0] == asyncio_page


def test_duplicates_and_closed_generations_are_not_returned(search_db: Path) -> None:
    assert f"{DOCS}/library/asyncio-copy.html" not in urls(search_db, "asyncio", limit=50)
    # the first version of changing.html said "zeppelin"; the current one says "blimp"
    assert urls(search_db, "zeppelin") == []
    assert urls(search_db, "blimp") == [f"{DOCS}/changing.html"]


def test_phrases_match_words_in_order(search_db: Path) -> None:
    assert urls(search_db, '"list comprehensions"') == [f"{DOCS}/tutorial/datastructures.html"]
    # without quotes the FAQ (which has both words apart) matches too
    assert f"{DOCS}/faq.html" in urls(search_db, "list comprehension")
    assert f"{DOCS}/faq.html" not in urls(search_db, '"list comprehension"')


def test_quoted_minus_excludes_and_plain_minus_does_not(search_db: Path) -> None:
    legacy = f"{DOCS}/legacy.html"
    assert legacy in urls(search_db, "asyncio")
    assert legacy not in urls(search_db, 'asyncio -"python 2"')
    # "-python" is the word python: required, not excluded
    assert legacy in urls(search_db, "asyncio -python")
    assert f"{BLOG}/post.html" not in urls(search_db, "asyncio -python")


def test_site_and_host_filters(search_db: Path) -> None:
    on_site = urls(search_db, "asyncio site:docs.test")
    assert f"{BLOG}/post.html" in on_site  # subdomains belong to the site
    assert all(u.startswith((DOCS, BLOG)) for u in on_site)
    assert f"{OTHER}/asyncio.html" not in on_site
    assert f"{BLOG}/post.html" not in urls(search_db, "asyncio host:docs.test")
    assert f"{BLOG}/post.html" not in urls(search_db, "asyncio -site:blog.docs.test")
    assert urls(search_db, "asyncio site:docs.test/library/") == [
        f"{DOCS}/library/asyncio.html",
        f"{DOCS}/library/asyncio-task.html",
    ]
    assert urls(search_db, "asyncio", site="blog.docs.test") == [f"{BLOG}/post.html"]


def test_snippets_highlight_the_matched_words(search_db: Path) -> None:
    results = search(search_db, "concurrent")
    assert [r.url for r in results] == [f"{DOCS}/library/asyncio.html"]
    hit = results[0]
    assert hit.title == "asyncio — Asynchronous I/O"
    assert "\n" not in hit.snippet
    assert [hit.snippet[a:b].lower() for a, b in hit.highlights] == ["concurrent"]
    assert hit.score > 0


def test_limit_and_order(search_db: Path) -> None:
    results = search(search_db, "asyncio", limit=2)
    assert len(results) == 2
    everything = search(search_db, "asyncio", limit=50)
    assert [r.score for r in everything] == sorted((r.score for r in everything), reverse=True)


@pytest.mark.parametrize(
    "query",
    [
        '"',
        "NEAR(",
        "*",
        "-",
        "site:",
        "AND OR NOT",
        "a:b:c",
        '"unclosed',
        "\x00",
        "{title}: x",
        "^",
    ],
)
def test_no_query_raises(search_db: Path, query: str) -> None:
    assert isinstance(search(search_db, query), list)


def test_bad_arguments_and_databases(search_db: Path, crawl_db: Path, tmp_path: Path) -> None:
    with pytest.raises(UsageError):
        search(search_db, "x", limit=0)
    with pytest.raises(WrongDatabaseKind, match="is a unob crawl database"):
        search(crawl_db, "x")
    with pytest.raises(NotADatabase):
        search(tmp_path / "none.db", "x")


def test_weights_follow_the_index_columns(search_db: Path) -> None:
    conn = sqlite3.connect(search_db)
    columns = [row[1] for row in conn.execute(f"PRAGMA table_info({FTS_TABLE})")]
    conn.close()
    assert list(COLUMN_WEIGHTS) == columns


def test_slug_boost_rule() -> None:
    assert slug_words("http://d.test/library/asyncio-task.html") == ["asyncio", "task"]
    assert slug_words("http://d.test/docs/asyncio/") == ["asyncio"]
    assert slug_words("http://d.test/docs/Asyncio/index.html?x=1") == ["asyncio"]
    assert slug_words("http://d.test/") == []
    assert boost("http://d.test/library/asyncio.html", ["asyncio"]) > 1
    assert boost("http://d.test/library/asyncio-task.html", ["asyncio"]) == 1
    assert boost("http://d.test/wiki/List_comprehension", ["list", "comprehension"]) > 1
