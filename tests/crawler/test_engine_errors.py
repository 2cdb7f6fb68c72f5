"""The engine against misbehaving servers: rate limits, errors, timeouts, drops, traps, bombs."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections import Counter

import pytest
from aiohttp import web
from crawling import CrawlFn
from sites import (
    FixtureServer,
    Handler,
    gzip_bomb,
    links,
    page,
    raw,
    raw_http,
    redirect,
    slow,
    status,
)

from unob.codes import ExitCode
from unob.crawler.records import EntryRecord
from unob.crawler.writer import Writer
from unob.errors import DatabaseError


def drop_first(times: int, then: Handler) -> Handler:
    """Drop the connection without an answer the first ``times`` requests, then answer."""
    seen: Counter[str] = Counter()

    async def handle(request: web.Request) -> web.StreamResponse:
        seen[request.path_qs] += 1
        if seen[request.path_qs] <= times:
            assert request.transport is not None
            request.transport.abort()
            raise asyncio.CancelledError  # aiohttp ends the handler quietly
        return await then(request)

    return handle


def request_rows(done: object, url: str) -> list[tuple[int, int | None, int]]:
    return done.rows(  # type: ignore[attr-defined, no-any-return]
        "SELECT r.is_retry, r.http_status, r.exit_code FROM request_info r "
        "JOIN url u USING (url_id) WHERE u.str_url = ? ORDER BY r.request_info_id",
        url,
    )


def test_a_dropped_connection_is_retried_once_and_the_retry_recorded(
    server: FixtureServer, crawl: CrawlFn
) -> None:
    site = server.site("a.test")
    site.add("/", links("/flaky", "/dead"))
    site.add("/flaky", drop_first(1, page("finally")))
    site.add("/dead", drop_first(99, page("never")))
    done = crawl(server.url("a.test"))
    codes = done.exit_codes()
    # fluke recovered: one entry, two requests, the second a retry that worked
    assert codes[server.url("a.test", "/flaky")] == [ExitCode.FILE_INGESTED]
    assert request_rows(done, server.url("a.test", "/flaky")) == [
        (0, None, ExitCode.CONNECTION_FAILED),
        (1, 200, ExitCode.FILE_INGESTED),
    ]
    # fluke miss: both requests failed, the entry records the failure
    assert codes[server.url("a.test", "/dead")] == [ExitCode.CONNECTION_FAILED]
    assert [r[0] for r in request_rows(done, server.url("a.test", "/dead"))] == [0, 1]
    assert server.count("a.test", "/dead") == 2


def test_timeouts_are_retried_once_then_logged(server: FixtureServer, crawl: CrawlFn) -> None:
    site = server.site("a.test")
    site.add("/", links("/slow"))
    site.add("/slow", slow(2.0, page("late")))
    done = crawl(server.url("a.test"), read_timeout_s=0.2)
    assert done.exit_codes()[server.url("a.test", "/slow")] == [ExitCode.REQUEST_TIMEOUT]
    assert len(request_rows(done, server.url("a.test", "/slow"))) == 2


def test_patience_gives_up_an_origin_that_keeps_failing(
    server: FixtureServer, crawl: CrawlFn
) -> None:
    broken = server.site("broken.test")
    broken.add("/", links(*(f"/p{i}" for i in range(20))))
    for i in range(20):
        broken.add(f"/p{i}", status(500))
    healthy = server.site("ok.test")
    healthy.add("/", links("/x"))
    healthy.add("/x", page("fine"))
    done = crawl(server.url("broken.test"), server.url("ok.test"), patience=3)

    codes = Counter(c for cs in done.exit_codes().values() for c in cs)
    assert codes[ExitCode.SERVER_INTERNAL_ERROR] == 3  # 3 points of patience, one each
    assert codes[ExitCode.ORIGIN_GAVE_UP] == 1  # one entry says so; the rest stay due
    assert done.report.origins_given_up == (server.origin("broken.test"),)
    assert done.report.stop_reason == "origins_gave_up"
    assert server.count("broken.test") == 1 + 1 + 3  # robots.txt, /, three failures
    assert done.stored_pages() >= {server.url("ok.test", "/x")}
    # the given-up URLs are still due: a later run tries them again
    due = done.rows(
        "SELECT count(*) FROM crawl_candidate WHERE last_crawl_unix_utc IS NULL "
        "AND next_due_unix_utc IS NOT NULL"
    )
    assert due == [(17,)]


def test_429_with_retry_after_pauses_the_origin(server: FixtureServer, crawl: CrawlFn) -> None:
    site = server.site("a.test")
    site.add("/", links("/limited", "/after"))
    site.add("/limited", status(429, {"Retry-After": "1"}))
    site.add("/after", page("after"))
    # real time (time_scale 1) for this one: the pause must be seen at the server
    done = crawl(server.url("a.test"), time_scale=1.0)
    assert done.exit_codes()[server.url("a.test", "/limited")] == [ExitCode.RATE_LIMITED]
    assert done.rows(
        "SELECT retry_after_s FROM request_info r JOIN url u USING (url_id) WHERE u.str_url = ?",
        server.url("a.test", "/limited"),
    ) == [(1,)]
    hits = {h.path_qs: h.at for h in server.hits}
    assert hits["/after"] - hits["/limited"] >= 0.9
    # 429 is transient: due again on the next run
    (due,) = done.rows(
        "SELECT next_due_unix_utc - last_crawl_unix_utc FROM crawl_candidate c "
        "JOIN url u USING (url_id) WHERE u.str_url = ?",
        server.url("a.test", "/limited"),
    )
    assert due == (0,)


def test_status_codes_map_to_exit_codes(server: FixtureServer, crawl: CrawlFn) -> None:
    site = server.site("a.test")
    cases = {
        "/gone": (status(410), ExitCode.FILE_GONE),
        "/missing": (status(404), ExitCode.FILE_NOT_FOUND),
        "/forbidden": (status(403), ExitCode.SERVER_BLAMED_CLIENT),
        "/unavailable": (status(503), ExitCode.SERVER_INTERNAL_ERROR),
        "/weird": (status(299), ExitCode.FILE_OF_UNKNOWN_TYPE),
        "/nolocation": (status(302), ExitCode.DID_NOT_UNDERSTAND_ANSWER),
    }
    site.add("/", links(*cases))
    for path, (handler, _) in cases.items():
        site.add(path, handler)
    done = crawl(server.url("a.test"))
    codes = done.exit_codes()
    for path, (_, expected) in cases.items():
        assert codes[server.url("a.test", path)] == [expected], path


def test_redirects_are_recorded_not_followed_and_loops_end(
    server: FixtureServer, crawl: CrawlFn
) -> None:
    site = server.site("a.test")
    site.add("/", links("/r1", "/loop-a"))
    site.add("/r1", redirect("/r2", 301))
    site.add("/r2", redirect("/r3#part", 302))
    site.add("/r3", redirect(server.url("a.test", "/final"), 308))
    site.add("/final", page("arrived"))
    site.add("/loop-a", redirect("/loop-b", 307))
    site.add("/loop-b", redirect("/loop-a", 307))
    done = crawl(server.url("a.test"))
    codes = done.exit_codes()
    assert codes[server.url("a.test", "/r1")] == [ExitCode.PERMANENT_REDIRECT]
    assert codes[server.url("a.test", "/r2")] == [ExitCode.REDIRECT]
    assert codes[server.url("a.test", "/r3")] == [ExitCode.PERMANENT_REDIRECT]
    assert codes[server.url("a.test", "/final")] == [ExitCode.FILE_INGESTED]
    assert codes[server.url("a.test", "/loop-a")] == [ExitCode.REDIRECT]
    assert codes[server.url("a.test", "/loop-b")] == [ExitCode.REDIRECT]
    assert server.count("a.test", "/loop-a") == 1 and server.count("a.test", "/loop-b") == 1
    chain = done.rows(
        "SELECT f.str_url, t.str_url, r.to_url_fragment, r.http_status, r.is_permanent, "
        "r.information_source FROM redirect r JOIN url f ON f.url_id = r.url_id "
        "JOIN url t ON t.url_id = r.to_url_id ORDER BY r.redirect_id"
    )
    assert (server.url("a.test", "/r2"), server.url("a.test", "/r3"), "part", 302, 0, 1) in chain
    assert len(chain) == 5


def test_a_spider_trap_is_bounded_by_depth_and_by_the_request_limit(
    server: FixtureServer, crawl: CrawlFn
) -> None:
    site = server.site("cal.test")

    def calendar(host: str, path_qs: str) -> Handler | None:
        if not path_qs.startswith("/cal?month="):
            return None
        month = int(path_qs.rsplit("=", 1)[1])
        return links(f"/cal?month={month + 1}", f"/cal?month={month - 1}", "day/")

    server.fallback = calendar
    site.add("/", links("/cal?month=0"))
    done = crawl(server.url("cal.test"), max_depth=4)
    months = {p for p in server.paths("cal.test") if p.startswith("/cal?")}
    assert months == {f"/cal?month={m}" for m in range(-3, 4)}
    assert done.report.stop_reason == "frontier_empty"

    limited = crawl(
        server.url("cal.test"), max_depth=None, max_requests=25, db=done.db.with_name("b.db")
    )
    assert limited.report.stop_reason == "max_requests"
    assert limited.report.requests == 25


def test_bodies_over_the_cap_and_bombs_are_refused(server: FixtureServer, crawl: CrawlFn) -> None:
    site = server.site("a.test")
    big = b"<html><body>" + b"x" * 300_000 + b"</body></html>"
    site.add("/", links("/big", "/big-chunked", "/bomb", "/badgzip", "/zstd", "/fine-gzip"))
    site.add("/big", raw(big))

    async def chunked(request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/html"})
        response.enable_chunked_encoding()
        await response.prepare(request)
        for _ in range(40):
            await response.write(b"y" * 10_000)
        await response.write_eof()
        return response

    site.add("/big-chunked", chunked)
    site.add("/bomb", raw(gzip_bomb(50_000_000), headers={"Content-Encoding": "gzip"}))
    site.add("/badgzip", raw(b"this is not gzip at all", headers={"Content-Encoding": "gzip"}))
    site.add("/zstd", raw(b"(\xb5/\xfd...", headers={"Content-Encoding": "zstd"}))
    import gzip

    site.add(
        "/fine-gzip",
        raw(
            gzip.compress(b"<html><body>small</body></html>"), headers={"Content-Encoding": "gzip"}
        ),
    )
    done = crawl(server.url("a.test"), max_body_bytes=100_000)
    codes = done.exit_codes()
    assert codes[server.url("a.test", "/big")] == [ExitCode.TOO_LARGE]
    assert codes[server.url("a.test", "/big-chunked")] == [ExitCode.TOO_LARGE]
    assert codes[server.url("a.test", "/bomb")] == [ExitCode.TOO_LARGE]
    assert codes[server.url("a.test", "/badgzip")] == [ExitCode.BAD_CONTENT_ENCODING]
    assert codes[server.url("a.test", "/zstd")] == [ExitCode.BAD_CONTENT_ENCODING]
    assert codes[server.url("a.test", "/fine-gzip")] == [ExitCode.FILE_INGESTED]
    assert done.stored_pages() == {server.url("a.test"), server.url("a.test", "/fine-gzip")}
    (size,) = done.rows(
        "SELECT f.size FROM file_info f JOIN url u USING (url_id) WHERE u.str_url = ?",
        server.url("a.test", "/fine-gzip"),
    )
    assert size == (len(b"<html><body>small</body></html>"),)


def test_robots_txt_unreachable_means_nothing_is_crawled(
    server: FixtureServer, crawl: CrawlFn
) -> None:
    site = server.site("a.test")
    site.add("/robots.txt", status(503))
    site.add("/", page("never"))
    done = crawl(server.url("a.test"), patience=2)
    assert server.paths("a.test") == ["/robots.txt", "/robots.txt"]
    assert done.exit_codes() == {server.url("a.test"): [ExitCode.ROBOTS_UNAVAILABLE]}
    # not attempted: still due for the next run
    assert done.rows("SELECT last_crawl_unix_utc FROM crawl_candidate") == [(None,)]


def test_a_long_retry_after_does_not_hold_up_the_end_of_the_run(
    server: FixtureServer, crawl: CrawlFn
) -> None:
    slow = server.site("slow.test")
    slow.add("/", links("/limited", "/next"))
    slow.add("/limited", status(429, {"Retry-After": "3600"}))
    slow.add("/next", page("an hour later"))
    fast = server.site("fast.test")
    fast.add("/", links("/1", "/2", "/3"))
    for n in (1, 2, 3):
        fast.add(f"/{n}", page(str(n)))
    started = time.monotonic()
    # real time: /next must wait an hour; the run stops at 4 requests and does not wait
    done = crawl(server.url("slow.test"), server.url("fast.test"), max_requests=4, time_scale=1.0)
    assert time.monotonic() - started < 30
    assert done.report.stop_reason == "max_requests"
    assert server.count("slow.test", "/next") == 0
    # /next was never requested: no entry, still due
    assert server.url("slow.test", "/next") not in done.exit_codes()


def test_headers_that_are_not_utf8_are_stored_with_replacement_characters(
    server: FixtureServer, crawl: CrawlFn
) -> None:
    site = server.site("a.test")
    site.add("/", links("/odd", "/odd-redirect"))
    body = b"<html><body>odd</body></html>"
    site.add(
        "/odd",
        raw_http(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=\xff\xfe\r\n"
            b'ETag: "\xe9t\xe9"\r\nX-Robots-Tag: \xffnoindex\r\n'
            b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body)
        ),
    )
    site.add(
        "/odd-redirect",
        raw_http(
            b"HTTP/1.1 301 Moved\r\nLocation: /caf\xe9\r\nContent-Length: 0\r\n"
            b"Connection: close\r\n\r\n"
        ),
    )
    done = crawl(server.url("a.test"))
    codes = done.exit_codes()
    assert codes[server.url("a.test", "/odd")] in ([ExitCode.FILE_INGESTED], [ExitCode.NOINDEX])
    (etag,) = done.rows(
        "SELECT r.http_etag FROM request_info r JOIN url u USING (url_id) WHERE u.str_url = ?",
        server.url("a.test", "/odd"),
    )
    assert etag == ('"\ufffdt\ufffd"',)
    assert codes[server.url("a.test", "/odd-redirect")] == [ExitCode.PERMANENT_REDIRECT]
    assert done.report.stop_reason == "frontier_empty"


def test_a_database_failure_stops_the_crawl_with_one_error(
    server: FixtureServer, crawl: CrawlFn, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = server.site("a.test")
    site.add("/", links(*(f"/{n}" for n in range(20))))
    for n in range(20):
        site.add(f"/{n}", page(str(n)))
    real = Writer.write_entry
    written: list[str] = []

    def failing(self: Writer, entry: EntryRecord) -> None:
        if len(written) >= 5:
            raise sqlite3.OperationalError("disk I/O error")
        written.append(entry.url)
        real(self, entry)

    monkeypatch.setattr(Writer, "write_entry", failing)
    with pytest.raises(DatabaseError, match="disk I/O error"):
        crawl(server.url("a.test"))
    assert server.count("a.test") < 20  # it stopped instead of crawling on


def test_a_host_that_does_not_answer_is_given_up_at_once(crawl: CrawlFn) -> None:
    started = time.monotonic()
    done = crawl("http://dead.test:1/", time_scale=1.0)  # port 1: connection refused
    assert time.monotonic() - started < 20  # no 5-minute robots.txt retry wait
    assert done.report.stop_reason == "origins_gave_up"
    assert done.exit_codes() == {"http://dead.test:1/": [ExitCode.ROBOTS_UNAVAILABLE]}
    assert done.rows(
        "SELECT e.exit_code, count(r.request_info_id) FROM crawl_log_entry e "
        "JOIN request_info r USING (crawl_log_entry_id) WHERE e.crawl_type = 1"
    ) == [(ExitCode.CONNECTION_FAILED, 2)]  # the robots.txt fetch and its fluke retry
