"""The synthetic site of the crawl benchmark: graph shape, pages, and its server."""

from __future__ import annotations

import asyncio

import pytest
from aiohttp.test_utils import TestClient, TestServer
from lxml import html

from _resolve import LoopbackResolver, maps_to_loopback
from _synthetic import (
    ROBOTS_ALLOW_ALL,
    SiteShape,
    make_app,
    page_links,
    page_path,
    parse_page_path,
    render_page,
)

SMALL = SiteShape(hosts=5, pages_per_host=60)


def test_every_page_is_reachable_from_the_host_roots() -> None:
    shape = SiteShape()
    assert shape.total_pages >= 20_000 and shape.hosts == 50
    seen = {(h, 0) for h in range(shape.hosts)}
    stack = list(seen)
    while stack:
        host, page = stack.pop()
        for link in page_links(shape, host, page):
            if (link.host, link.page) not in seen:
                seen.add((link.host, link.page))
                stack.append((link.host, link.page))
    assert len(seen) == shape.total_pages


def test_pages_have_10_to_20_distinct_links_some_to_other_hosts() -> None:
    shape = SiteShape()
    cross = 0
    for host in range(0, shape.hosts, 7):
        for page in range(0, shape.pages_per_host, 13):
            links = page_links(shape, host, page)
            targets = {(link.host, link.page) for link in links}
            assert 10 <= len(links) <= 20
            assert len(targets) == len(links) and (host, page) not in targets
            assert all(0 <= t[1] < shape.pages_per_host for t in targets)
            cross += sum(link.host != host for link in links)
    assert cross > 0


def test_graph_and_text_are_deterministic() -> None:
    assert page_links(SMALL, 3, 17) == page_links(SMALL, 3, 17)
    assert render_page(SMALL, 3, 17, 8000) == render_page(SMALL, 3, 17, 8000)
    assert render_page(SMALL, 3, 17, 8000) != render_page(SMALL, 3, 18, 8000)


def test_rendered_page_holds_exactly_its_links() -> None:
    shape = SiteShape()
    body = render_page(shape, 4, 33, 8123)
    assert 5_000 <= len(body.encode()) <= 22_000
    hrefs = html.fromstring(body.encode()).xpath("//a/@href")
    expected = [
        page_path(link.page)
        if link.host == 4
        else f"http://{shape.host_name(link.host)}:8123{page_path(link.page)}"
        for link in page_links(shape, 4, 33)
    ]
    assert sorted(hrefs) == sorted(expected)


@pytest.mark.parametrize(
    ("path", "page"),
    [("/", 0), ("/p/1.html", 1), ("/p/419.html", 419), ("/p/007.html", None), ("/p/0.html", None),
     ("/p/x.html", None), ("/p/5", None), ("/robots.txt", None)],
)  # fmt: skip
def test_page_paths_have_one_spelling(path: str, page: int | None) -> None:
    assert parse_page_path(path) == page
    if page is not None:
        assert page_path(page) == path


def test_host_names_round_trip_and_strangers_are_rejected() -> None:
    shape = SiteShape()
    for index in (0, 9, 49):
        assert shape.host_index(shape.host_name(index)) == index
    for name in ("h50.unob-bench.test", "h1.unob-bench.test", "h01.example.com", "unob-bench.test"):
        assert shape.host_index(name) is None


def test_fake_resolver_maps_bench_names_and_refuses_the_rest() -> None:
    assert maps_to_loopback("h07.unob-bench.test")
    assert maps_to_loopback("127.0.0.1") and maps_to_loopback("localhost")
    assert not maps_to_loopback("example.com")
    assert not maps_to_loopback("10.0.0.1")
    resolver = LoopbackResolver()
    resolved = asyncio.run(resolver.resolve("h07.unob-bench.test", 8080))
    assert [(r["host"], r["port"]) for r in resolved] == [("127.0.0.1", 8080)]
    with pytest.raises(OSError, match="refuses"):
        asyncio.run(resolver.resolve("example.com", 80))


def test_server_routes_on_host_header_and_counts_pages() -> None:
    async def scenario() -> None:
        async with TestClient(TestServer(make_app(SMALL, port=8000))) as client:
            host = {"Host": f"{SMALL.host_name(2)}:8000"}
            robots = await client.get("/robots.txt", headers=host)
            assert robots.status == 200 and await robots.text() == ROBOTS_ALLOW_ALL
            page = await client.get("/p/7.html", headers=host)
            assert page.status == 200 and page.content_type == "text/html"
            assert await page.text() == render_page(SMALL, 2, 7, 8000)
            await client.get("/p/7.html", headers=host)
            assert (await client.get("/p/60.html", headers=host)).status == 404
            stranger = {"Host": "example.com"}
            assert (await client.get("/", headers=stranger)).status == 404
            stats = await (await client.get("/__bench/stats")).json()
            assert stats["pages"] == 2 and stats["distinct_pages"] == 1
            assert stats["hosts_touched"] == 1
            assert stats["bytes"] == 2 * len(render_page(SMALL, 2, 7, 8000).encode())

    asyncio.run(scenario())
