"""A deterministic many-host synthetic site, served by one aiohttp process.

The page graph is a pure function of (host count, pages per host): every page
has a tree parent (so every page is reachable from its host's root), 10-20
links in all, a few of them to other hosts, and 5-20 KB of text.  One server
process answers for every host name: it routes on the Host header, and the
crawlers reach it through a fake resolver that maps the names to 127.0.0.1
(see ``_resolve.py``).  The ``.test`` TLD is reserved (RFC 2606 / RFC 6761), so
a name that somehow escaped the fake resolver could never reach a real host.

Run as a script it serves the site: ``python bench/_synthetic.py --port P
--hosts 50 --pages-per-host 420``.  ``GET /__bench/stats`` (on any host name,
linked from nowhere) returns how many pages were served and when, so the
harness can follow a crawl's progress without knowing the crawler's database.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from dataclasses import dataclass, field
from functools import cache

from aiohttp import web

DOMAIN = "unob-bench.test"
ROBOTS_ALLOW_ALL = "User-agent: *\nDisallow:\n"
# Words for the filler text: enough variety that every page's text differs.
_VOCABULARY = (
    "crawler frontier origin politeness robots sitemap canonical fragment query "
    "archive summary extract index token language charset header body page site "
    "host link anchor depth breadth queue budget retry timeout redirect status "
    "cache etag modified delay agent schedule shard database table column row "
    "vacuum journal commit batch stream memory latency throughput parser element "
    "attribute heading paragraph section article footer navigation sidebar table"
)
_PARAGRAPH_POOL_SIZE = 512


@dataclass(frozen=True)
class SiteShape:
    """How big the synthetic site is: ``hosts`` names, ``pages_per_host`` each."""

    hosts: int = 50
    pages_per_host: int = 420

    @property
    def total_pages(self) -> int:
        return self.hosts * self.pages_per_host

    def host_name(self, index: int) -> str:
        return f"h{index:02d}.{DOMAIN}"

    def host_names(self) -> list[str]:
        return [self.host_name(i) for i in range(self.hosts)]

    def host_index(self, name: str) -> int | None:
        """The index of a host name of this site, or None for any other name."""
        label, dot, rest = name.partition(".")
        if not dot or rest != DOMAIN or not label.startswith("h") or not label[1:].isdigit():
            return None
        index = int(label[1:])
        return index if 0 <= index < self.hosts and name == self.host_name(index) else None


def page_path(page: int) -> str:
    return "/" if page == 0 else f"/p/{page}.html"


def parse_page_path(path: str) -> int | None:
    if path == "/":
        return 0
    if path.startswith("/p/") and path.endswith(".html"):
        number = path[3:-5]
        # Only the canonical spelling is a page: "/p/007.html" is a 404, so one
        # page never has two URLs.
        if number.isdigit() and str(int(number)) == number and int(number) > 0:
            return int(number)
    return None


@dataclass(frozen=True)
class Link:
    host: int
    page: int


def page_links(shape: SiteShape, host: int, page: int) -> list[Link]:
    """The out-links of one page, in document order; deterministic per page.

    Tree children (10 per page) give the site depth and guarantee reachability
    from each host's root; random same-host pages and 1-3 cross-host pages
    make the frontier grow faster than it is drained.
    """
    rng = random.Random(f"{host}:{page}")
    n = shape.pages_per_host
    target = rng.randint(10, 20)
    links: list[Link] = []
    seen: set[tuple[int, int]] = {(host, page)}

    def add(h: int, p: int) -> None:
        if (h, p) not in seen and len(links) < target:
            seen.add((h, p))
            links.append(Link(h, p))

    add(host, 0)
    if page > 0:
        add(host, (page - 1) // 10)
    for child in range(10 * page + 1, min(10 * page + 11, n)):
        add(host, child)
    if shape.hosts > 1:
        for _ in range(rng.randint(1, 3)):
            other = rng.randrange(shape.hosts - 1)
            add(other if other < host else other + 1, rng.randrange(n))
    # Bounded so a tiny site (fewer than ``target`` pages) cannot loop forever.
    for _ in range(4 * target):
        if len(links) >= target:
            break
        add(host, rng.randrange(n))
    return links


@cache
def _paragraph_pool() -> tuple[str, ...]:
    rng = random.Random(0)
    pool = []
    vocabulary = _VOCABULARY.split()
    for _ in range(_PARAGRAPH_POOL_SIZE):
        words = [rng.choice(vocabulary) for _ in range(rng.randint(60, 140))]
        pool.append(" ".join(words).capitalize() + ".")
    return tuple(pool)


def render_page(shape: SiteShape, host: int, page: int, port: int) -> str:
    """The HTML of one page: 5-20 KB, links spread through nav and text."""
    rng = random.Random(f"text:{host}:{page}")
    target_size = rng.randint(5_000, 20_000)
    pool = _paragraph_pool()

    def href(link: Link) -> str:
        if link.host == host:
            return page_path(link.page)
        return f"http://{shape.host_name(link.host)}:{port}{page_path(link.page)}"

    links = page_links(shape, host, page)
    nav = "".join(f'<li><a href="{href(link)}">Page {link.page}</a></li>' for link in links[:4])
    parts = [
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">',
        f"<title>Host {host} page {page}</title>",
        f'<meta name="description" content="Synthetic page {page} of host {host}.">',
        "</head><body><header><nav><ul>",
        nav,
        "</ul></nav></header><main><article>",
        f"<h1>Host {host}, page {page}</h1>",
    ]
    size = sum(map(len, parts))
    body_links = links[4:]
    section = 0
    while size < target_size or body_links:
        if section % 3 == 0:
            heading = f"<h2>Section {section // 3 + 1}</h2>"
            parts.append(heading)
            size += len(heading)
        text = pool[rng.randrange(len(pool))]
        if body_links:
            link = body_links.pop()
            cut = text.find(" ", len(text) // 2)
            text = f'{text[:cut]} <a href="{href(link)}">see page {link.page}</a>{text[cut:]}'
        paragraph = f"<p>{text}</p>\n"
        parts.append(paragraph)
        size += len(paragraph)
        section += 1
    parts.append("</article></main><footer><p>Synthetic benchmark site.</p></footer>")
    parts.append("</body></html>\n")
    return "".join(parts)


@dataclass
class ServeStats:
    pages: int = 0
    bytes: int = 0
    first: float | None = None
    last: float | None = None
    per_host: list[int] = field(default_factory=list)
    # (host, page) pairs served: a crawler that refetches makes no progress.
    distinct: set[tuple[int, int]] = field(default_factory=set)

    def as_json(self) -> dict[str, object]:
        return {
            "pages": self.pages,
            "distinct_pages": len(self.distinct),
            "bytes": self.bytes,
            "first": self.first,
            "last": self.last,
            "hosts_touched": sum(1 for n in self.per_host if n),
        }


def make_app(shape: SiteShape, port: int) -> web.Application:
    stats = ServeStats(per_host=[0] * shape.hosts)

    async def handle(request: web.Request) -> web.StreamResponse:
        path = request.path
        if path == "/__bench/stats":
            return web.json_response(stats.as_json())
        host = shape.host_index(request.host.rsplit(":", 1)[0].lower())
        if host is None:
            return web.Response(status=404, text="unknown host\n")
        if path == "/robots.txt":
            return web.Response(text=ROBOTS_ALLOW_ALL)
        page = parse_page_path(path)
        if page is None or page >= shape.pages_per_host:
            return web.Response(status=404, text="no such page\n")
        body = render_page(shape, host, page, port).encode()
        now = time.time()
        if stats.first is None:
            stats.first = now
        stats.last = now
        stats.pages += 1
        stats.bytes += len(body)
        stats.per_host[host] += 1
        stats.distinct.add((host, page))
        return web.Response(body=body, content_type="text/html", charset="utf-8")

    app = web.Application()
    app.router.add_route("GET", "/{tail:.*}", handle)
    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--hosts", type=int, default=SiteShape.hosts)
    parser.add_argument("--pages-per-host", type=int, default=SiteShape.pages_per_host)
    args = parser.parse_args()
    shape = SiteShape(hosts=args.hosts, pages_per_host=args.pages_per_host)
    # access_log=None: formatting a log line per request would make the server,
    # not the crawler, the cost being measured.
    web.run_app(
        make_app(shape, args.port),
        host="127.0.0.1",
        port=args.port,
        access_log=None,
        print=None,
        loop=asyncio.new_event_loop(),
    )


if __name__ == "__main__":
    main()
