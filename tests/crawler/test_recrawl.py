"""Recrawls: nothing is due within the interval; conditional requests; 304 stores nothing."""

from __future__ import annotations

from aiohttp import web
from crawling import CrawlFn
from sites import FixtureServer, Handler, html

from unob.codes import ExitCode, SchedulingReason

LAST_MODIFIED = "Wed, 21 Oct 2026 07:28:00 GMT"


def versioned(versions: dict[str, str], path: str, links: str = "") -> Handler:
    """A page with an ETag (its current version) that honours If-None-Match."""

    async def handle(request: web.Request) -> web.StreamResponse:
        etag = f'"{versions[path]}"'
        if request.headers.get("If-None-Match") == etag:
            return web.Response(status=304, headers={"ETag": etag})
        body = html(f"{path} {versions[path]} {links}")
        return web.Response(
            body=body,
            content_type="text/html",
            headers={"ETag": etag, "Last-Modified": LAST_MODIFIED},
        )

    return handle


def test_conditional_recrawl_with_304(server: FixtureServer, crawl: CrawlFn) -> None:
    versions = {"/": "v1", "/a": "v1", "/b": "v1"}
    site = server.site("a.test")
    site.add("/", versioned(versions, "/", "<a href='/a'>a</a><a href='/b'>b</a>"))
    site.add("/a", versioned(versions, "/a"))
    site.add("/b", versioned(versions, "/b"))

    first = crawl(server.url("a.test"))
    assert len(first.stored_pages()) == 3
    hits = server.count("a.test")

    # within the recrawl interval nothing is due: a rerun without seeds does nothing
    idle = crawl()
    assert idle.report.stop_reason == "frontier_empty"
    assert idle.report.requests == 0
    assert server.count("a.test") == hits

    versions["/b"] = "v2"
    forced = crawl(force_recrawl=True)
    assert forced.report.requests == 3
    conditional = [h for h in server.hits[hits:] if h.path_qs != "/robots.txt"]
    assert all(h.headers.get("If-None-Match") == '"v1"' for h in conditional)
    assert all(h.headers.get("If-Modified-Since") == LAST_MODIFIED for h in conditional)
    codes = forced.exit_codes()
    assert codes[server.url("a.test", "/")][-1] == ExitCode.FILE_DID_NOT_CHANGE
    assert codes[server.url("a.test", "/a")][-1] == ExitCode.FILE_DID_NOT_CHANGE
    assert codes[server.url("a.test", "/b")][-1] == ExitCode.FILE_INGESTED
    # a 304 stores no file; the changed page got a second file_info and a new body
    assert forced.rows("SELECT count(*) FROM file_info") == [(4,)]
    assert forced.rows("SELECT count(*) FROM file_content") == [(4,)]
    reasons = forced.rows(
        "SELECT DISTINCT e.scheduling_reason FROM crawl_log_entry e JOIN agent a USING (agent_id) "
        "WHERE a.agent_id = (SELECT max(agent_id) FROM agent) AND e.crawl_type = 0"
    )
    assert reasons == [(SchedulingReason.RECRAWL,)]
    # after a 304 the validators are kept for the next conditional request
    assert forced.rows(
        "SELECT c.last_contentful_http_etag, c.last_crawl_exit_code FROM crawl_candidate c "
        "JOIN url u USING (url_id) WHERE u.str_url = ?",
        server.url("a.test", "/a"),
    ) == [('"v1"', ExitCode.FILE_DID_NOT_CHANGE)]


def test_a_zero_recrawl_interval_makes_everything_due_next_run(
    server: FixtureServer, crawl: CrawlFn
) -> None:
    versions = {"/": "v1"}
    server.site("a.test").add("/", versioned(versions, "/"))
    crawl(server.url("a.test"), recrawl_interval_s=0)
    again = crawl(recrawl_interval_s=0)
    assert again.report.requests == 1
    assert again.exit_codes()[server.url("a.test")] == [
        ExitCode.FILE_INGESTED,
        ExitCode.FILE_DID_NOT_CHANGE,
    ]
