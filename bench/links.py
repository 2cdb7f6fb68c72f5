"""Micro-benchmark: unob's link extraction vs the least a Python crawler does per page.

Pages: Debian's python3-doc (``/usr/share/doc/python3/html``, about 530 pages
of 95 KB) when installed, else generated python-docs-like pages.  Each
contender runs over every page; CPU time (``time.process_time``, so other
processes on the machine matter less), per page the best of ``--repeat`` runs,
the contenders interleaved page by page in a rotating order.

Contenders:

* ``bare``: ``lxml.html.fromstring`` + ``//a/@href`` + ``urljoin`` (the task's
  reference point);
* ``bare loop``: what ``bench/_bareloop.py`` does per page: the same plus
  ``urldefrag`` and ``urlsplit`` (its same-host filter);
* ``lxml parse only``: the parse unob does, for scale;
* ``unob.extract``: :func:`unob.crawler.links.extract` with the charset known
  (the engine sniffs it), all link kinds, meta robots, canonical, base,
  canonical URLs, per-page dedupe;
* ``unob.extract+images``: the same with ``want_images``;
* ``unob.extract cold``: with the absolute-URL cache cleared before each page
  (the worst case for the cache).

Run: ``.venv/bin/python bench/links.py [--repeat 5] [--pages N]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlsplit

import lxml.etree
import lxml.html

from unob.crawler import links as links_module
from unob.crawler.links import extract

DOCS = Path("/usr/share/doc/python3/html")
HREFS = lxml.etree.XPath("//a/@href")

Page = tuple[bytes, str]


def docs_pages(limit: int) -> list[Page]:
    files = sorted(DOCS.rglob("*.html"))[: limit or None]
    return [(f.read_bytes(), f"http://docs.local/{f.relative_to(DOCS)}") for f in files]


def synthetic_pages(count: int) -> list[Page]:
    """Sphinx-like pages: a nav of ~60 relative links, a body with ~250 links and text."""
    rng = random.Random(7)
    modules = [f"mod{i}" for i in range(200)]
    out = []
    for n in range(count):
        nav = "".join(
            f'<li><a class="reference internal" href="../library/{m}.html">{m}</a></li>'
            for m in rng.sample(modules, 60)
        )
        body = []
        for i in range(250):
            kind = rng.random()
            if kind < 0.5:
                href = f"#sect-{i}"
            elif kind < 0.8:
                href = f"{rng.choice(modules)}.html#{rng.choice(modules)}.func{i}"
            elif kind < 0.9:
                href = f"https://docs.example.org/3/library/{rng.choice(modules)}.html"
            else:
                href = f"../reference/{rng.choice(modules)}.html?highlight=x{i}"
            body.append(
                f"<p>Some text about <code>func{i}</code> and more text here. "
                f'<a class="reference" href="{href}">link {i}</a></p>'
            )
        html = (
            '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f"<title>Page {n}</title>"
            '<link rel="stylesheet" href="../_static/pygments.css">'
            f'<link rel="next" href="p{n + 1}.html"><link rel="prev" href="p{n - 1}.html">'
            f'</head><body><div class="nav"><ul>{nav}</ul></div>'
            f'<div class="body">{"".join(body)}<img src="../_images/x{n}.png"></div>'
            "</body></html>"
        )
        out.append((html.encode(), f"http://docs.local/library/p{n}.html"))
    return out


def bare(body: bytes, url: str) -> int:
    doc = lxml.html.fromstring(body)
    return len([urljoin(url, str(h).strip()) for h in HREFS(doc)])


def bare_loop(body: bytes, url: str) -> int:
    doc = lxml.html.fromstring(body)
    n = 0
    for href in HREFS(doc):
        u = urldefrag(urljoin(url, str(href).strip()))[0]
        n += urlsplit(u).scheme in ("http", "https")
    return n


def parse_only(body: bytes, url: str) -> int:
    parser = lxml.etree.HTMLParser(encoding="utf-8", remove_comments=True, collect_ids=False)
    return lxml.etree.fromstring(body, parser) is not None


def unob(body: bytes, url: str) -> int:
    return len(extract(body, url, "utf-8").links)


def unob_images(body: bytes, url: str) -> int:
    return len(extract(body, url, "utf-8", want_images=True).links)


def unob_cold(body: bytes, url: str) -> int:
    links_module._canonical_absolute.cache_clear()
    return len(extract(body, url, "utf-8").links)


CONTENDERS: dict[str, Callable[[bytes, str], int]] = {
    "bare (parse + //a/@href + urljoin)": bare,
    "bare loop (+ urldefrag + urlsplit)": bare_loop,
    "lxml parse only (no links)": parse_only,
    "unob.extract": unob,
    "unob.extract + images": unob_images,
    "unob.extract, cold URL cache": unob_cold,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--pages", type=int, default=0, help="limit the page count (0 = all)")
    parser.add_argument("--synthetic", action="store_true", help="use generated pages")
    args = parser.parse_args()
    if DOCS.is_dir() and not args.synthetic:
        pages, source = docs_pages(args.pages), f"python3-doc ({DOCS})"
    else:
        pages, source = synthetic_pages(args.pages or 300), "synthetic python-docs-like pages"
    size = sum(len(b) for b, _ in pages) / len(pages)
    print(f"{len(pages)} pages from {source}, {size / 1024:.0f} KiB average", file=sys.stderr)

    # per page, every contender in turn, best of --repeat: load changes on a shared
    # machine then hit every contender alike
    clock = time.process_time
    best = {name: [float("inf")] * len(pages) for name in CONTENDERS}
    found = dict.fromkeys(CONTENDERS, 0)
    names = list(CONTENDERS)
    for rep in range(args.repeat):
        for i, (body, url) in enumerate(pages):
            # rotate the order too: who runs first on a page pays its cache misses
            k = (i + rep) % len(names)
            for name in names[k:] + names[:k]:
                fn = CONTENDERS[name]
                start = clock()
                n = fn(body, url)
                best[name][i] = min(best[name][i], clock() - start)
                if rep == 0:
                    found[name] += n
    totals = {name: sum(times) for name, times in best.items()}

    base = totals["bare (parse + //a/@href + urljoin)"]
    print("| contender | ms/page | vs bare | links/page |")
    print("|---|---:|---:|---:|")
    for name, seconds in totals.items():
        ms = seconds / len(pages) * 1000
        print(f"| {name} | {ms:.2f} | {seconds / base:.2f}x | {found[name] / len(pages):.0f} |")


if __name__ == "__main__":
    main()
