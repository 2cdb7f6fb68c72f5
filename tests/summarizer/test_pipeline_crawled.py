"""summarize on crawl databases written by real crawls (unob's crawler) of fixture sites."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiohttp import web
from summary_dump import count, dump, rows

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "crawler"))

from sites import FixtureServer, Handler, html, serve

from unob.crawler.fetch import MappedResolver
from unob.crawler.run import run_crawl
from unob.settings import load_crawl_settings
from unob.summarizer import summarize

FAST = {
    "delay_ms": 0,
    "time_scale": 0.001,
    "user_agent": "unobtest/1.0 (+http://example.invalid/crawler)",
    "concurrency": 4,
}
SHARED = "A long article body that two addresses of the site serve word for word."


@pytest.fixture
def server() -> Iterator[FixtureServer]:
    with serve(FixtureServer()) as running:
        yield running


class Website:
    """A small site whose pages a test can change, delete and redirect between crawls."""

    def __init__(self, server: FixtureServer, tmp_path: Path) -> None:
        self.server = server
        self.crawl_db = tmp_path / "crawl.db"
        self.summary_db = tmp_path / "summary.db"
        self.texts = {
            "/": "Home of the site.",
            "/news": "News about the site, written today.",
            "/a": SHARED,
            "/archive/2026/copy-of-a": SHARED,
        }
        nav = "".join(f'<a href="{path}">{path}</a> ' for path in self.texts)
        for host in ("a.test", "b.test"):
            site = server.site(host)
            for path in self.texts:
                site.add(path, self.handler(path, nav))
        server.site("a.test").add("/old", self.redirect("/news"))

    def handler(self, path: str, nav: str) -> Handler:
        async def handle(_request: web.Request) -> web.StreamResponse:
            text = self.texts.get(path)
            if text is None:
                return web.Response(status=404, text="gone")
            body = html(f"<nav>{nav}</nav><main><p>{text}</p><a href='/old'>old</a></main>")
            return web.Response(body=body, content_type="text/html")

        return handle

    @staticmethod
    def redirect(target: str) -> Handler:
        async def handle(_request: web.Request) -> web.StreamResponse:
            raise web.HTTPMovedPermanently(location=target)

        return handle

    def crawl(self, **overrides: object) -> None:
        seeds = (self.server.url("a.test"), self.server.url("b.test"))
        settings = load_crawl_settings(None, {**FAST, "seeds": seeds, **overrides})
        run_crawl(settings, self.crawl_db, resolver=MappedResolver({"*": "127.0.0.1"}))

    def summarize(self) -> None:
        summarize([self.crawl_db], self.summary_db, batch_size=3)

    def url(self, path: str, host: str = "a.test") -> str:
        return self.server.url(host, path)

    def open_generations(self) -> dict[str, tuple[str, int]]:
        """URL -> (kind, marked_duplicate) of the open generations."""
        return {
            url: (kind, marked)
            for url, kind, marked in rows(
                self.summary_db,
                "SELECT u.str_url, eg.kind, eg.marked_duplicate FROM entity_generation eg "
                "JOIN url u USING (url_id) WHERE eg.confirmed_end_unix_utc IS NULL",
            )
        }


@pytest.fixture
def website(server: FixtureServer, tmp_path: Path) -> Website:
    return Website(server, tmp_path)


def test_crawl_summarize_and_again(website: Website) -> None:
    website.crawl()
    website.summarize()
    current = website.open_generations()
    assert current[website.url("/news")] == ("page", 0)
    assert current[website.url("/old")] == ("redirect", 0)
    # same main content, one origin: the longer URL is the duplicate
    assert current[website.url("/a")] == ("page", 0)
    assert current[website.url("/archive/2026/copy-of-a")] == ("page", 1)
    # the same content on the other origin is not a duplicate of a.test's
    assert current[website.url("/a", "b.test")] == ("page", 0)
    assert current[website.url("/archive/2026/copy-of-a", "b.test")] == ("page", 1)
    redirect = rows(
        website.summary_db,
        "SELECT u.str_url, rs.is_permanent FROM redirect_summary rs JOIN url u "
        "ON u.url_id = rs.to_url_id",
    )
    assert redirect == [(website.url("/news"), 1)]

    before = dump(website.summary_db)
    website.summarize()
    assert dump(website.summary_db) == before


def test_recrawl_unchanged_changed_and_deleted(website: Website) -> None:
    website.crawl()
    website.summarize()
    generations = count(website.summary_db, "SELECT count(*) FROM entity_generation")
    crawls = count(website.summary_db, "SELECT max(crawl_summary_id) FROM crawl_summary")

    website.crawl(force_recrawl=True)
    website.summarize()
    assert count(website.summary_db, "SELECT count(*) FROM entity_generation") == generations
    actions = rows(
        website.summary_db,
        "SELECT DISTINCT http_status, summarizer_action FROM crawl_summary "
        "WHERE crawl_summary_id > ? ORDER BY 1",
        crawls,
    )
    # b.test has no /old: its 404 concerns no generation
    assert actions == [(200, "self_duplicate"), (301, "self_duplicate"), (404, "unattached")]

    website.texts["/news"] = "Different news, written tomorrow."
    del website.texts["/a"]
    website.crawl(force_recrawl=True)
    website.summarize()
    news = rows(
        website.summary_db,
        "SELECT eg.first_seen_unix_utc, eg.confirmed_end_unix_utc FROM entity_generation eg "
        "JOIN url u USING (url_id) WHERE u.str_url = ? ORDER BY eg.entity_generation_id",
        website.url("/news"),
    )
    assert len(news) == 2
    assert news[0][1] == news[1][0] and news[1][1] is None
    current = website.open_generations()
    assert website.url("/a") not in current  # the 404 closed it
    # its duplicate is now the only open copy: the original, unmarked
    assert current[website.url("/archive/2026/copy-of-a")] == ("page", 0)
