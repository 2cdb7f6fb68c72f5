"""Views, recipes, `unob sql` and `unob search` on a real crawl and summary of the demo site.

The detailed expectations live in the other tests, on databases written row by
row; this one runs everything on what `unob crawl` and `unob summarize` really
write (the demo site served on 127.0.0.1), so that the views and recipes
cannot drift away from the real pipeline.
"""

from __future__ import annotations

import hashlib
import io
import sqlite3
from pathlib import Path

import pytest
from test_query_recipes import Recipe, recipes

from unob.errors import ReadOnlyViolation
from unob.query import run_sql, search
from unob.query.readonly import ReadOnlyConnection
from unob.query.views import VIEW_DOCS


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from unob.crawler import run_crawl
    from unob.demo.site import serve_demo_site
    from unob.settings import load_crawl_settings
    from unob.summarizer import summarize

    base = tmp_path_factory.mktemp("query-demo")
    with serve_demo_site() as url:
        settings = load_crawl_settings(None, {"seeds": (url,), "delay_ms": 0, "max_requests": 200})
        run_crawl(settings, base / "crawl.db")
    summarize([base / "crawl.db"], base / "summary.db")
    return {"crawl": base / "crawl.db", "summary": base / "summary.db"}


def count(db: Path, sql: str) -> int:
    conn = sqlite3.connect(db)
    try:
        return int(conn.execute(sql).fetchone()[0])
    finally:
        conn.close()


@pytest.mark.parametrize(
    ("kind", "view"), [(k, v) for k, views in VIEW_DOCS.items() for v in views]
)
def test_every_view_has_rows(demo: dict[str, Path], kind: str, view: str) -> None:
    if view == "search_index":
        pytest.skip("an FTS5 table: searched below")
    assert count(demo[kind], f"SELECT count(*) FROM {view}") > 0


def test_views_tell_the_demo_sites_story(demo: dict[str, Path]) -> None:
    crawl, summary = demo["crawl"], demo["summary"]
    disallowed = "SELECT count(*) FROM crawl_log_view WHERE exit_code_name = 'robots_disallowed'"
    assert count(crawl, disallowed) == 1
    assert count(crawl, "SELECT count(*) FROM redirect_chain WHERE hops = 1") == 2
    assert count(summary, "SELECT count(*) FROM duplicate_view WHERE holds") == 1
    assert count(summary, "SELECT count(*) FROM current_page WHERE primary_language = 'de'") == 1
    assert count(summary, "SELECT count(*) FROM link_graph WHERE to_url LIKE '%/missing.html'") > 0
    # robots.txt names the sitemap; the page only it lists is crawled and summarized
    sitemap_found = (
        "SELECT count(*) FROM frontier WHERE discovered_via_url LIKE '%/sitemap.xml' "
        "AND url LIKE '%/letters.html' AND last_crawl_exit_code_name = 'file_ingested'"
    )
    assert count(crawl, sitemap_found) == 1
    assert count(summary, "SELECT count(*) FROM current_page WHERE url LIKE '%/letters.html'") == 1


@pytest.mark.parametrize("recipe", recipes(), ids=lambda r: r.title)
def test_recipes_run_on_real_databases(demo: dict[str, Path], recipe: Recipe) -> None:
    with ReadOnlyConnection(demo[recipe.database]) as conn:
        cursor = conn.execute(recipe.sql)
        assert [d[0] for d in cursor.description] == recipe.columns
        cursor.fetchall()


def test_search_and_sql_on_real_databases(demo: dict[str, Path]) -> None:
    hits = search(demo["summary"], "tide pools")
    assert hits[0].url.endswith("/articles/tide-pools.html")
    assert all(not h.url.endswith("-print.html") for h in hits)  # the duplicate
    assert search(demo["summary"], '"polite crawler"')[0].url.endswith("/docs/guide.html")
    before = hashlib.sha256(demo["crawl"].read_bytes()).digest()
    with pytest.raises(ReadOnlyViolation):
        run_sql(demo["crawl"], "DELETE FROM crawl_log_entry", "csv", io.StringIO())
    assert hashlib.sha256(demo["crawl"].read_bytes()).digest() == before
