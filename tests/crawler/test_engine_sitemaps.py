"""Sitemaps in a crawl: robots.txt names them, the crawl fetches, logs and follows them."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

from aiohttp import web
from crawling import CrawlFn
from sites import FixtureServer, Handler, gzipped, html, links, page, raw

from unob.codes import CrawlType, ExitCode, SchedulingReason


def urlset(*urls: str) -> bytes:
    entries = "".join(f"<url><loc>{u}</loc></url>" for u in urls)
    return (
        '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"{entries}</urlset>"
    ).encode()


def index(*urls: str) -> bytes:
    entries = "".join(f"<sitemap><loc>{u}</loc></sitemap>" for u in urls)
    return f"<sitemapindex>{entries}</sitemapindex>".encode()


def sitemap_site(server: FixtureServer) -> None:
    """a.test: / links to /linked only; robots.txt names an index whose sitemaps (one
    gzipped) list /orphan and /deep, which no page links to, and a disallowed page."""
    site = server.site("a.test")
    site.robots = (
        "User-agent: *\nDisallow: /private\n"
        f"Sitemap: {server.url('a.test', '/sitemap_index.xml')}\n"
    )
    site.add("/", links("/linked"))
    site.add("/linked", page("linked"))
    site.add("/orphan", links("/from-orphan"))
    site.add("/from-orphan", page("found through a page found through a sitemap"))
    site.add("/deep", page("deep"))
    site.add("/private/secret", page("secret"))
    site.add(
        "/sitemap_index.xml",
        raw(
            index(server.url("a.test", "/s1.xml"), server.url("a.test", "/s2.xml.gz")),
            content_type="application/xml",
        ),
    )
    site.add(
        "/s1.xml",
        raw(
            urlset(server.url("a.test", "/orphan"), server.url("a.test", "/linked")),
            content_type="text/xml",
        ),
    )
    site.add(
        "/s2.xml.gz",
        raw(
            gzipped(urlset(server.url("a.test", "/deep"), server.url("a.test", "/private/secret"))),
            content_type="application/x-gzip",
        ),
    )


def test_robots_sitemap_pages_are_crawled(server: FixtureServer, crawl: CrawlFn) -> None:
    sitemap_site(server)
    done = crawl(server.url("a.test"))
    url = partial(server.url, "a.test")
    stored = done.stored_pages()
    for path in ("/", "/linked", "/orphan", "/from-orphan", "/deep"):
        assert url(path) in stored, path
    # each fetched once, robots.txt obeyed for sitemap URLs
    for path in ("/linked", "/orphan", "/deep", "/sitemap_index.xml", "/s1.xml", "/s2.xml.gz"):
        assert server.count("a.test", path) == 1, path
    assert server.count("a.test", "/private/secret") == 0
    assert done.exit_codes()[url("/private/secret")] == [ExitCode.ROBOTS_DISALLOWED]
    # sitemap fetches are entries like any other, with their file and what they found
    rows = done.rows(
        "SELECT u.str_url, e.exit_code, e.depth, e.message, f.links_found, "
        "f.file_content_id IS NOT NULL, r.content_type FROM crawl_log_entry e "
        "JOIN url u USING (url_id) JOIN file_info f USING (crawl_log_entry_id) "
        "JOIN request_info r ON r.crawl_log_entry_id = e.crawl_log_entry_id "
        "WHERE e.crawl_type = ? ORDER BY e.crawl_log_entry_id",
        int(CrawlType.SITEMAP_CRAWL),
    )
    assert rows == [
        (url("/sitemap_index.xml"), 20, 0, "sitemapindex: 2 sitemaps read; 2 in scope", 2, 1,
         "application/xml"),
        (url("/s1.xml"), 20, 1, "urlset: 2 URLs read; 2 in scope", 2, 1, "text/xml"),
        (url("/s2.xml.gz"), 20, 1, "urlset: 2 URLs read; 2 in scope", 2, 1,
         "application/x-gzip"),
    ]  # fmt: skip
    # depth: robots.txt's sitemap 0, the index's sitemaps 1, their pages 2
    (depth,) = done.rows(
        "SELECT c.depth FROM crawl_candidate c JOIN url u USING (url_id) WHERE u.str_url = ?",
        url("/orphan"),
    )[0]
    assert depth == 2
    # where a URL was found is recorded: the orphan by its sitemap, the sitemap by robots.txt
    via = dict(
        done.rows(
            "SELECT u.str_url, v.str_url FROM crawl_candidate c JOIN url u USING (url_id) "
            "JOIN url v ON v.url_id = c.discovered_via_url_id"
        )
    )
    assert via[url("/orphan")] == url("/s1.xml")
    assert via[url("/sitemap_index.xml")] == url("/robots.txt")


def test_sitemaps_off(server: FixtureServer, crawl: CrawlFn) -> None:
    sitemap_site(server)
    done = crawl(server.url("a.test"), sitemaps=False)
    assert server.count("a.test", "/sitemap_index.xml") == 0
    assert server.count("a.test", "/orphan") == 0
    assert done.stored_pages() == {server.url("a.test"), server.url("a.test", "/linked")}


def test_a_resumed_crawl_fetches_nothing_twice(server: FixtureServer, crawl: CrawlFn) -> None:
    sitemap_site(server)
    seed = server.url("a.test")
    # stop after two requests: the seed and the sitemap index
    first = crawl(seed, max_requests=2, concurrency=1)
    assert first.report.stop_reason == "max_requests"
    assert server.count("a.test", "/sitemap_index.xml") == 1
    # sitemaps found while sitemaps are off stay due for a run with them on
    crawl(sitemaps=False)
    assert server.count("a.test", "/s1.xml") == 0
    done = crawl()
    for path in ("/orphan", "/deep", "/from-orphan", "/s1.xml", "/s2.xml.gz", "/linked", "/"):
        assert server.count("a.test", path) == 1, path
    assert server.count("a.test", "/sitemap_index.xml") == 1
    assert server.url("a.test", "/orphan") in done.stored_pages()


def test_bad_sitemaps_are_logged_not_fatal(server: FixtureServer, crawl: CrawlFn) -> None:
    site = server.site("a.test")
    names = ("/broken.xml", "/html.xml", "/bad.xml.gz", "/missing.xml", "/text.txt")
    site.robots = "".join(f"Sitemap: {server.url('a.test', n)}\n" for n in names)
    site.add("/", page("home"))
    site.add("/broken.xml", raw(urlset(server.url("a.test", "/p1"))[:-12], content_type="text/xml"))
    site.add("/html.xml", page("<a href='/p2'>not a sitemap</a>"))
    site.add("/bad.xml.gz", raw(b"\x1f\x8b\x08\x00garbage", content_type="application/gzip"))
    site.add(
        "/text.txt", raw(server.url("a.test", "/p3").encode() + b"\n", content_type="text/plain")
    )
    for path in ("/p1", "/p2", "/p3"):
        site.add(path, page(path))
    done = crawl(server.url("a.test"))
    codes = done.exit_codes()
    url = partial(server.url, "a.test")
    assert codes[url("/broken.xml")] == [ExitCode.DID_NOT_UNDERSTAND_ANSWER]
    assert codes[url("/html.xml")] == [ExitCode.FILE_INGESTED]  # HTML: crawled as a page
    assert codes[url("/bad.xml.gz")] == [ExitCode.BAD_CONTENT_ENCODING]
    assert codes[url("/missing.xml")] == [ExitCode.FILE_NOT_FOUND]
    assert codes[url("/text.txt")] == [ExitCode.FILE_INGESTED]
    # the URL read before the XML broke off, and the text sitemap's, are crawled
    assert server.count("a.test", "/p1") == 1
    assert server.count("a.test", "/p2") == 1  # linked from the HTML "sitemap"
    assert server.count("a.test", "/p3") == 1
    assert done.report.stop_reason == "frontier_empty"


# ----------------------------------------------------------------------- <lastmod>


def lastmod_site(
    server: FixtureServer, versions: dict[str, str], lastmods: dict[str, str | None]
) -> None:
    """a.test: robots.txt names /sitemap.xml, which lists the pages of ``lastmods`` with
    their current <lastmod> (None: without one); each page shows its current version."""
    site = server.site("a.test")
    site.robots = f"Sitemap: {server.url('a.test', '/sitemap.xml')}\n"

    async def sitemap(_request: web.Request) -> web.StreamResponse:
        entries = "".join(
            f"<url><loc>{server.url('a.test', path)}</loc>"
            + (f"<lastmod>{lastmod}</lastmod>" if lastmod else "")
            + "</url>"
            for path, lastmod in lastmods.items()
        )
        return web.Response(body=f"<urlset>{entries}</urlset>".encode(), content_type="text/xml")

    def versioned(path: str) -> Handler:
        async def handle(_request: web.Request) -> web.StreamResponse:
            return web.Response(body=html(versions[path]), content_type="text/html")

        return handle

    site.add("/sitemap.xml", sitemap)
    for path in versions:
        site.add(path, versioned(path))


def two_days_pass(db: Path) -> None:
    """Move every time in the frontier two days back, as if the last run were that old:
    a sitemap (due after a day) is due, a page (due after weeks) is not."""
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE crawl_candidate SET last_crawl_unix_utc = last_crawl_unix_utc - 172800, "
            "last_contentful_crawl_unix_utc = last_contentful_crawl_unix_utc - 172800, "
            "next_due_unix_utc = next_due_unix_utc - 172800"
        )


def test_a_changed_lastmod_recrawls_the_page_before_its_interval(
    server: FixtureServer, crawl: CrawlFn
) -> None:
    versions = {"/": "home", "/same": "same v1", "/changed": "changed v1", "/undated": "u v1"}
    lastmods: dict[str, str | None] = {
        "/same": "2020-01-01",
        "/changed": "2020-01-01T10:00:00+02:00",
        "/undated": None,
    }
    lastmod_site(server, versions, lastmods)
    url = partial(server.url, "a.test")
    weeks = {"recrawl_interval_s": 8 * 7 * 86400}
    first = crawl(url("/"), **weeks)
    for path in ("/", "/same", "/changed", "/undated", "/sitemap.xml"):
        assert server.count("a.test", path) == 1, path

    two_days_pass(first.db)
    versions["/changed"] = "changed v2"
    versions["/undated"] = "u v2"  # changed, but its sitemap entry does not say so
    lastmods["/changed"] = datetime.now(UTC).date().isoformat()  # today: after the last crawl
    second = crawl(**weeks)
    assert server.count("a.test", "/sitemap.xml") == 2
    assert server.count("a.test", "/changed") == 2
    for path in ("/", "/same", "/undated"):
        assert server.count("a.test", path) == 1, path
    (entry,) = second.rows(
        "SELECT e.scheduling_reason, e.exit_code FROM crawl_log_entry e JOIN url u USING "
        "(url_id) WHERE u.str_url = ? AND e.agent_id = (SELECT max(agent_id) FROM agent)",
        url("/changed"),
    )
    assert entry == (SchedulingReason.SITEMAP_LASTMOD, ExitCode.FILE_INGESTED)
    # due after the interval again, for the interval's reason
    assert second.rows(
        "SELECT c.next_due_unix_utc - c.last_crawl_unix_utc, c.scheduling_reason "
        "FROM crawl_candidate c JOIN url u USING (url_id) WHERE u.str_url = ?",
        url("/changed"),
    ) == [(8 * 7 * 86400, SchedulingReason.RECRAWL)]

    # the same sitemap read again: the page was crawled since its lastmod
    with sqlite3.connect(second.db) as conn:
        conn.execute("UPDATE crawl_candidate SET next_due_unix_utc = 0 WHERE crawl_type = 11")
    crawl(**weeks)
    assert server.count("a.test", "/sitemap.xml") == 3
    assert server.count("a.test", "/changed") == 2


def test_lastmod_far_in_the_future_is_ignored(server: FixtureServer, crawl: CrawlFn) -> None:
    versions = {"/": "home", "/page": "v1"}
    lastmods: dict[str, str | None] = {"/page": "2020-01-01"}
    lastmod_site(server, versions, lastmods)
    weeks = {"recrawl_interval_s": 8 * 7 * 86400}
    first = crawl(server.url("a.test"), **weeks)
    two_days_pass(first.db)
    lastmods["/page"] = "2999-01-01"  # bogus
    crawl(**weeks)
    assert server.count("a.test", "/sitemap.xml") == 2
    assert server.count("a.test", "/page") == 1


def test_a_page_url_named_as_sitemap_becomes_one(server: FixtureServer, crawl: CrawlFn) -> None:
    # /sitemap.xml is linked from a page and known as a page (here: from a crawl with
    # sitemaps off; also any database from before sitemaps); robots.txt names it
    site = server.site("a.test")
    url = partial(server.url, "a.test")
    site.robots = f"Sitemap: {url('/sitemap.xml')}\n"
    site.add("/", links("/sitemap.xml"))
    site.add("/orphan", page("orphan"))
    site.add("/sitemap.xml", raw(urlset(url("/orphan")), content_type="application/xml"))
    first = crawl(url("/"), sitemaps=False)
    with sqlite3.connect(first.db) as conn:  # a day later: all due again
        conn.execute("UPDATE crawl_candidate SET next_due_unix_utc = 0")
    crawl()  # robots.txt names it: read as a sitemap from now on
    assert server.count("a.test", "/orphan") == 1
    (crawl_type,) = first.rows(
        "SELECT c.crawl_type FROM crawl_candidate c JOIN url u USING (url_id) WHERE u.str_url = ?",
        url("/sitemap.xml"),
    )[0]
    assert crawl_type == CrawlType.SITEMAP_CRAWL


def test_an_html_page_named_as_sitemap_is_crawled_as_a_page(
    server: FixtureServer, crawl: CrawlFn
) -> None:
    site = server.site("a.test")
    url = partial(server.url, "a.test")
    site.robots = f"Sitemap: {url('/sitemap.html')}\n"  # an HTML site map: a common slip
    site.add("/", page("home"))
    site.add("/sitemap.html", links("/deep"))
    site.add("/deep", page("deep"))
    done = crawl(url("/"))
    assert url("/sitemap.html") in done.stored_pages()
    assert server.count("a.test", "/deep") == 1
    rows = done.rows(
        "SELECT e.crawl_type, e.exit_code FROM crawl_log_entry e JOIN url u USING (url_id) "
        "WHERE u.str_url = ?",
        url("/sitemap.html"),
    )
    assert rows == [(int(CrawlType.FILE_CRAWL), int(ExitCode.FILE_INGESTED))]
