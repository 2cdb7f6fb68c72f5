"""The floor: the least a Python crawler can do per page, run in its own process.

``crawl`` mode: an aiohttp session, a queue, N workers; each page's bytes are
parsed with lxml.html, ``//a/@href`` taken, ``urljoin``-ed, fragments dropped,
kept if on a seed's host:port and unseen.  No robots.txt, no politeness, no
storage, no canonicalization beyond that: whatever a real crawler does on top
is its overhead.

``fetch`` mode: fetch a given URL list, nothing else, to show the server is not
the bottleneck (it should reach thousands of pages/s).

Writes a JSON summary to ``--out`` and the URLs it fetched to ``--urls-out``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlsplit

import aiohttp
import lxml.etree
import lxml.html

from _resolve import LoopbackResolver

HREFS = lxml.etree.XPath("//a/@href")


def rebase(url: str, base: str) -> str:
    """``url`` with the scheme and netloc of ``base`` (a server on a new port)."""
    parts, new = urlsplit(url), urlsplit(base)
    return parts._replace(scheme=new.scheme, netloc=new.netloc).geturl()


async def _session(concurrency: int) -> aiohttp.ClientSession:
    connector = aiohttp.TCPConnector(
        limit=concurrency, limit_per_host=concurrency, resolver=LoopbackResolver()
    )
    # trust_env=False: never route a loopback benchmark through an env proxy.
    return aiohttp.ClientSession(
        connector=connector, timeout=aiohttp.ClientTimeout(total=60), trust_env=False
    )


def extract_links(body: bytes, base: str, allowed: frozenset[str]) -> list[str]:
    try:
        doc = lxml.html.fromstring(body)
    except (lxml.etree.ParserError, ValueError):
        return []
    out = []
    for href in HREFS(doc):
        url = urldefrag(urljoin(base, str(href).strip()))[0]
        parts = urlsplit(url)
        if parts.scheme in ("http", "https") and parts.netloc in allowed:
            out.append(url)
    return out


async def crawl(seeds: list[str], concurrency: int, limit: int) -> tuple[dict[str, int], list[str]]:
    allowed = frozenset(urlsplit(seed).netloc for seed in seeds)
    queue: asyncio.Queue[str] = asyncio.Queue()
    seen: set[str] = set()
    fetched: list[str] = []
    counts = {"requests": 0, "pages": 0, "errors": 0, "links": 0}

    def enqueue(url: str) -> None:
        if url not in seen and (limit <= 0 or len(seen) < limit):
            seen.add(url)
            queue.put_nowait(url)

    for seed in seeds:
        enqueue(seed)
    session = await _session(concurrency)

    async def worker() -> None:
        while True:
            url = await queue.get()
            try:
                async with session.get(url, allow_redirects=False) as resp:
                    body = await resp.read()
                    is_html = resp.status == 200 and resp.content_type == "text/html"
                counts["requests"] += 1
                fetched.append(url)
                if is_html:
                    counts["pages"] += 1
                    links = extract_links(body, url, allowed)
                    counts["links"] += len(links)
                    for link in links:
                        enqueue(link)
            except (TimeoutError, aiohttp.ClientError):
                counts["errors"] += 1
            finally:
                queue.task_done()

    workers = [asyncio.create_task(worker()) for _ in range(concurrency)]
    try:
        await queue.join()
    finally:
        for task in workers:
            task.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
        await session.close()
    return counts, fetched


async def fetch_all(urls: list[str], concurrency: int) -> tuple[dict[str, int], list[str]]:
    counts = {"requests": 0, "pages": 0, "errors": 0}
    pending = iter(urls)
    session = await _session(concurrency)

    async def worker() -> None:
        for url in pending:
            try:
                async with session.get(url, allow_redirects=False) as resp:
                    await resp.read()
                    counts["requests"] += 1
                    counts["pages"] += resp.status == 200 and resp.content_type == "text/html"
            except (TimeoutError, aiohttp.ClientError):
                counts["errors"] += 1

    try:
        await asyncio.gather(*(worker() for _ in range(concurrency)))
    finally:
        await session.close()
    return counts, urls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("crawl", "fetch"))
    parser.add_argument("seeds", nargs="*", help="crawl mode: start URLs")
    parser.add_argument("--urls-in", type=Path, help="fetch mode: file of URLs, one a line")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--limit", type=int, default=0, help="crawl at most N URLs (0: all)")
    parser.add_argument("--repeat", type=int, default=1, help="fetch mode: fetch the list N times")
    parser.add_argument("--base", help="fetch mode: swap each URL's scheme://host:port for this")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--urls-out", type=Path)
    args = parser.parse_args()

    start = time.perf_counter()
    if args.mode == "crawl":
        counts, fetched = asyncio.run(crawl(args.seeds, args.concurrency, args.limit))
    else:
        urls = args.urls_in.read_text().split()
        if args.base:
            urls = [rebase(url, args.base) for url in urls]
        urls *= args.repeat
        counts, fetched = asyncio.run(fetch_all(urls, args.concurrency))
    elapsed = time.perf_counter() - start
    args.out.write_text(json.dumps({**counts, "seconds": elapsed}))
    if args.urls_out is not None:
        args.urls_out.write_text("".join(url + "\n" for url in fetched))


if __name__ == "__main__":
    main()
