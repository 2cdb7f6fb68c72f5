#!/usr/bin/env python3
"""The shape of a set of HTML pages: size, elements, tag mix, links, text share, depth.

A parse-and-summarize benchmark is only as honest as its pages: libxml2 parses
long runs of plain text many times faster than the nested markup of a real
page, and per-page fixed costs weigh more on small pages.  This script measures
what a set of pages looks like, so a synthetic set can be checked against real
ones (``_newslike.py`` was tuned with it).

    .venv/bin/python bench/_pageshape.py                 # every set below
    .venv/bin/python bench/_pageshape.py --synthetic-pages 2000

Sets: the 181 real news pages of ``tests/data/article-extraction-benchmark``;
python3-doc as crawled by ``summarize.py`` (``bench/.work/summarize/
python3-doc.crawl.db``, skipped if absent); and a sample of each synthetic
shape of ``summarize.py`` (``news`` and ``small``).  Medians unless named.
"""

from __future__ import annotations

import argparse
import gzip
import re
import statistics
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

REPO = Path(__file__).resolve().parents[1]
NEWS_DIR = REPO / "tests" / "data" / "article-extraction-benchmark" / "html"
DOC_CRAWL_DB = REPO / "bench" / ".work" / "summarize" / "python3-doc.crawl.db"
# Tags reported one by one; the rest are summed as "other".
TAGS = ("div", "span", "a", "p", "li", "script", "meta", "img", "svg+path")
# Text inside these is not rendered as text (HTML Living Standard 15.3.1:
# script, style, template and noscript-with-scripting are display: none).
_HIDDEN = "ancestor::script or ancestor::style or ancestor::noscript or ancestor::template"
_VISIBLE_TEXT = etree.XPath(f"//body//text()[not({_HIDDEN})]")
_SPACE = re.compile(r"\s+")


@dataclass
class PageShape:
    """One page: ``text_bytes`` is its visible text with whitespace runs collapsed."""

    bytes: int
    elements: int
    links: int
    text_bytes: int
    script_style_bytes: int
    max_depth: int
    tags: Counter[str] = field(default_factory=Counter)

    @property
    def text_share(self) -> float:
        return self.text_bytes / self.bytes if self.bytes else 0.0


def page_shape(body: bytes) -> PageShape:
    """Measure one HTML page (bytes as served)."""
    root = etree.fromstring(body, etree.HTMLParser())
    tags: Counter[str] = Counter()
    links = code = max_depth = 0
    if root is not None:
        # (element, depth) walk: getparent() chains per element would be quadratic.
        stack = [(root, 1)]
        while stack:
            element, depth = stack.pop()
            tag = element.tag
            if not isinstance(tag, str):  # comments and processing instructions
                continue
            tags["svg+path" if tag in ("svg", "path") else tag] += 1
            max_depth = max(max_depth, depth)
            if tag == "a" and element.get("href") is not None:
                links += 1
            elif tag in ("script", "style") and element.text:
                code += len(element.text.encode())
            stack.extend((child, depth + 1) for child in element)
    text = _SPACE.sub(" ", " ".join(_VISIBLE_TEXT(root))).strip() if root is not None else ""
    return PageShape(
        bytes=len(body),
        elements=sum(tags.values()),
        links=links,
        text_bytes=len(text.encode()),
        script_style_bytes=code,
        max_depth=max_depth,
        tags=tags,
    )


@dataclass(frozen=True)
class SetShape:
    """Medians (and the byte mean) over a set of pages; ``tag_share``: mean share per page."""

    name: str
    pages: int
    mean_bytes: float
    bytes: float
    elements: float
    links: float
    text_share: float
    text_bytes: float
    script_style_bytes: float
    max_depth: float
    tag_share: dict[str, float]


def set_shape(name: str, shapes: Iterable[PageShape]) -> SetShape:
    pages = list(shapes)
    if not pages:
        raise ValueError(f"{name}: no pages")
    # Mean of each page's shares, so that a few huge pages do not set the mix.
    share = {
        tag: statistics.fmean(p.tags[tag] / p.elements if p.elements else 0.0 for p in pages)
        for tag in TAGS
    }
    share["other"] = 1 - sum(share.values())

    def median(values: Iterable[float]) -> float:
        return float(statistics.median(values))

    return SetShape(
        name=name,
        pages=len(pages),
        mean_bytes=statistics.fmean(p.bytes for p in pages),
        bytes=median(p.bytes for p in pages),
        elements=median(p.elements for p in pages),
        links=median(p.links for p in pages),
        text_share=median(p.text_share for p in pages),
        text_bytes=median(p.text_bytes for p in pages),
        script_style_bytes=median(p.script_style_bytes for p in pages),
        max_depth=median(p.max_depth for p in pages),
        tag_share=share,
    )


def shape_table(sets: Iterable[SetShape]) -> str:
    """A Markdown table, one row per set."""
    head = (
        "| pages | n | KB/page median (mean) | elements | links | visible text KB (share) | "
        "script+style KB | max depth | " + " | ".join(f"% {t}" for t in (*TAGS, "other")) + " |"
    )
    lines = [head, "|" + "---|" * (10 + len(TAGS))]
    for s in sets:
        tags = " | ".join(f"{100 * s.tag_share[t]:.0f}" for t in (*TAGS, "other"))
        lines.append(
            f"| {s.name} | {s.pages} | {s.bytes / 1000:.1f} ({s.mean_bytes / 1000:.1f}) | "
            f"{s.elements:.0f} | {s.links:.0f} | {s.text_bytes / 1000:.1f} ({s.text_share:.1%}) | "
            f"{s.script_style_bytes / 1000:.1f} | {s.max_depth:.0f} | {tags} |"
        )
    return "\n".join(lines)


def news_bodies(directory: Path = NEWS_DIR) -> Iterator[bytes]:
    """The article-extraction-benchmark pages (``*.html.gz`` or plain ``*.html``)."""
    for path in sorted(directory.iterdir()):
        if path.name.endswith(".html.gz"):
            yield gzip.decompress(path.read_bytes())
        elif path.name.endswith(".html"):
            yield path.read_bytes()


def crawl_db_bodies(crawl_db: Path, limit: int | None = None) -> Iterator[bytes]:
    from summarize import page_bodies

    for n, (_url, body) in enumerate(page_bodies(crawl_db)):
        if limit is not None and n >= limit:
            break
        yield body


def main() -> None:
    from summarize import SYNTHETIC_SHAPES, synthetic_sample

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--synthetic-pages", type=int, default=1000, help="pages per shape")
    parser.add_argument("--crawl-db", type=Path, action="append", default=[], help="also measure")
    args = parser.parse_args()
    sets = [set_shape("news (article-extraction-benchmark)", map(page_shape, news_bodies()))]
    for db in [DOC_CRAWL_DB, *args.crawl_db] if DOC_CRAWL_DB.exists() else args.crawl_db:
        name = "python3-doc (crawled)" if db == DOC_CRAWL_DB else db.name
        sets.append(set_shape(name, map(page_shape, crawl_db_bodies(db))))
    for kind in SYNTHETIC_SHAPES:
        started = time.perf_counter()
        next(synthetic_sample(kind, 1))  # builds the word, sentence and script pools once
        pools = time.perf_counter() - started
        started = time.perf_counter()
        bodies = list(synthetic_sample(kind, args.synthetic_pages))
        ms = 1000 * (time.perf_counter() - started) / len(bodies)
        print(f"synthetic {kind}: {ms:.2f} ms to render a page (+{pools:.2f} s once for pools)")
        sets.append(set_shape(f"synthetic {kind}", map(page_shape, bodies)))
    print(shape_table(sets))


if __name__ == "__main__":
    main()
