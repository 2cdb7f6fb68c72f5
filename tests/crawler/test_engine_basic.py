"""The engine on well-behaved fixture sites: links, depth, robots.txt, scope, many hosts."""

from __future__ import annotations

import itertools

from crawling import CrawlFn
from sites import FixtureServer, links, page, raw, slow

from unob.codes import ExitCode, SchedulingReason


def test_crawls_a_site_breadth_first_and_stores_every_page(
    server: FixtureServer, crawl: CrawlFn
) -> None:
    site = server.site("a.test")
    site.add("/", links("/one", "/two", "/two#frag", "http://elsewhere.test/x"))
    site.add("/one", links("/", "/three"))
    site.add("/two", page("two"))
    site.add("/three", page("three"))

    done = crawl(server.url("a.test"))

    assert done.report.stop_reason == "frontier_empty"
    assert done.stored_pages() == {server.url("a.test", p) for p in ("/", "/one", "/two", "/three")}
    # each page fetched once, robots.txt once, nothing off-site (out of scope)
    assert sorted(server.paths("a.test")) == ["/", "/one", "/robots.txt", "/three", "/two"]
    assert server.count("elsewhere.test") == 0
    assert done.report.pages == 4
    depths = dict(done.rows("SELECT u.str_url, f.depth FROM file_info f JOIN url u USING (url_id)"))
    assert depths[server.url("a.test", "/three")] == 2
    # the robots.txt fetch is logged (crawl type 1) with its request
    assert done.rows(
        "SELECT e.exit_code, r.http_status FROM crawl_log_entry e "
        "JOIN request_info r USING (crawl_log_entry_id) WHERE e.crawl_type = 1"
    ) == [(ExitCode.FILE_NOT_FOUND, 404)]
    agent = done.rows("SELECT time_finished_unix_utc IS NOT NULL, stop_reason FROM agent")
    assert agent == [(1, "frontier_empty")]


def test_max_depth_bounds_the_crawl(server: FixtureServer, crawl: CrawlFn) -> None:
    site = server.site("a.test")
    for i in range(5):
        site.add(f"/{i}", links(f"/{i + 1}"))
    done = crawl(server.url("a.test", "/0"), max_depth=2)
    assert done.stored_pages() == {server.url("a.test", f"/{i}") for i in range(3)}
    assert server.count("a.test", "/3") == 0


def test_max_requests_stops_the_run_and_the_rest_stays_due(
    server: FixtureServer, crawl: CrawlFn
) -> None:
    site = server.site("a.test")
    site.add("/", links(*(f"/p{i}" for i in range(10))))
    for i in range(10):
        site.add(f"/p{i}", page(f"p{i}"))
    first = crawl(server.url("a.test"), max_requests=4)
    assert first.report.stop_reason == "max_requests"
    assert first.report.requests == 4
    assert server.count("a.test") - server.count("a.test", "/robots.txt") == 4
    # the next run continues from the frontier (no seeds needed) and fetches only the rest
    second = crawl()
    assert second.report.stop_reason == "frontier_empty"
    pages = [p for p in server.paths("a.test") if p != "/robots.txt"]
    assert len(pages) == 11 and len(set(pages)) == 11


def test_many_hosts_are_crawled_concurrently_each_once(
    server: FixtureServer, crawl: CrawlFn
) -> None:
    hosts = [f"h{i}.test" for i in range(12)]
    for i, host in enumerate(hosts):
        other = hosts[(i + 1) % len(hosts)]
        server.site(host).add("/", links("/a", server.url(other, "/")))
        server.site(host).add("/a", page(host))
    done = crawl(*(server.url(h) for h in hosts), concurrency=6, per_origin_concurrency=2)
    assert len(done.stored_pages()) == 24
    for host in hosts:
        assert sorted(server.paths(host)) == ["/", "/a", "/robots.txt"]


def test_robots_txt_rules_for_our_token_and_crawl_delay(
    server: FixtureServer, crawl: CrawlFn
) -> None:
    site = server.site("a.test")
    site.robots = (
        "User-agent: *\nDisallow: /\n\nUser-agent: unobtest\nDisallow: /private\nCrawl-delay: 2\n"
    )
    site.add("/", links("/public", "/private/x", "/private", "/more"))
    site.add("/public", page("ok"))
    site.add("/more", page("more"))
    site.add("/private/x", page("secret"))
    # Crawl-delay 2 s at time scale 0.05: 100 ms between requests
    done = crawl(server.url("a.test"), time_scale=0.05)
    codes = done.exit_codes()
    assert codes[server.url("a.test", "/public")] == [ExitCode.FILE_INGESTED]
    assert codes[server.url("a.test", "/private/x")] == [ExitCode.ROBOTS_DISALLOWED]
    assert codes[server.url("a.test", "/private")] == [ExitCode.ROBOTS_DISALLOWED]
    assert server.count("a.test", "/private/x") == 0
    times = [h.at for h in server.hits]
    assert len(times) == 4  # robots.txt, /, /public, /more
    assert min(b - a for a, b in itertools.pairwise(times)) >= 0.09
    robots = done.rows("SELECT count(*) FROM crawl_log_entry WHERE crawl_type = 1")
    assert robots == [(1,)]


def test_robots_txt_is_fetched_again_when_it_expires(server: FixtureServer, crawl: CrawlFn) -> None:
    site = server.site("a.test")
    site.robots = "User-agent: *\nDisallow: /nothing\n"
    site.add("/", links(*(f"/{n}" for n in range(6))))
    for n in range(6):
        site.add(f"/{n}", slow(0.03, page("slow")))
    # robots_refetch_s 1 s at time scale 0.01: stale after 10 ms, i.e. before most pages
    done = crawl(server.url("a.test"), robots_refetch_s=1, time_scale=0.01)
    fetches = done.rows(
        "SELECT scheduling_reason FROM crawl_log_entry WHERE crawl_type = 1 "
        "ORDER BY crawl_log_entry_id"
    )
    assert len(fetches) >= 3
    assert fetches[0] == (SchedulingReason.EXPLORE,)
    assert set(fetches[1:]) == {(SchedulingReason.RECRAWL,)}
    assert server.count("a.test", "/robots.txt") == len(fetches)


def test_another_agents_group_does_not_apply(server: FixtureServer, crawl: CrawlFn) -> None:
    site = server.site("a.test")
    site.robots = "User-agent: otherbot\nDisallow: /\n"
    site.add("/", page("hi"))
    done = crawl(server.url("a.test"))
    assert done.exit_codes()[server.url("a.test")] == [ExitCode.FILE_INGESTED]


def test_non_html_is_logged_not_stored(server: FixtureServer, crawl: CrawlFn) -> None:
    site = server.site("a.test")
    site.add("/", links("/doc.pdf", "/data.json", "/pic.png"))
    site.add("/doc.pdf", raw(b"%PDF-1.4 ...", content_type="application/pdf"))
    site.add("/data.json", raw(b"{}", content_type="application/json"))
    site.add("/pic.png", raw(b"\x89PNG....", content_type="image/png"))
    done = crawl(server.url("a.test"))
    codes = done.exit_codes()
    for path in ("/doc.pdf", "/data.json", "/pic.png"):
        assert codes[server.url("a.test", path)] == [ExitCode.FILE_OF_UNKNOWN_TYPE]
    assert done.stored_pages() == {server.url("a.test")}
    mimes = dict(
        done.rows("SELECT u.str_url, f.mime_type FROM file_info f JOIN url u USING (url_id)")
    )
    assert mimes[server.url("a.test", "/doc.pdf")] == "application/pdf"
