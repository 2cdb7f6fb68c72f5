"""Crawl the demo site on 127.0.0.1, summarize it, export every format, read it all back.

The demo site has what the exports must cope with: a permanent and a
temporary redirect, an exact duplicate, images of several sizes (two
near-identical), English and German pages, h1-h6 headings with ids, article
meta tags, and a guide too long for one Algolia record.
"""

from __future__ import annotations

import csv
import gzip
import json
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pytest
from export_helpers import FIELDS, check_schema, read_table, verify_manifest

from unob.export import export


@dataclass
class Crawled:
    base: str
    crawl: Path
    summary: Path


@pytest.fixture(scope="module")
def crawled(tmp_path_factory: pytest.TempPathFactory) -> Crawled:
    from unob.crawler import run_crawl
    from unob.demo.site import serve_demo_site
    from unob.settings import load_crawl_settings
    from unob.summarizer import summarize

    directory = tmp_path_factory.mktemp("demo")
    crawl_db, summary_db = directory / "crawl.db", directory / "summary.db"
    with serve_demo_site() as base:
        settings = load_crawl_settings(
            None, {"seeds": (base,), "delay_ms": 0, "images": True, "max_requests": 200}
        )
        run_crawl(settings, crawl_db, progress=False)
    summarize([crawl_db], summary_db, progress=False)
    return Crawled(base.rstrip("/"), crawl_db, summary_db)


@pytest.fixture(scope="module")
def dataset(crawled: Crawled, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("exports") / "parquet"
    export("parquet", out, crawled.summary, [crawled.crawl], progress=False)
    return out


def test_dataset_pages_and_images(crawled: Crawled, dataset: Path) -> None:
    pages = read_table(dataset / "pages.parquet")
    urls = {str(p["url"]) for p in pages}
    assert f"{crawled.base}/articles/tide-pools.html" in urls
    assert f"{crawled.base}/articles/tide-pools-print.html" not in urls  # the exact duplicate
    assert f"{crawled.base}/old-guide" not in urls  # a redirect is not a page
    assert duckdb.sql(f"SELECT count(*) FROM '{dataset / 'pages.parquet'}'").fetchall() == [
        (len(pages),)
    ]
    guide = next(p for p in pages if str(p["url"]).endswith("/docs/guide.html"))
    levels = {h["level"] for h in json.loads(str(guide["headings"]))}
    assert levels == {1, 2, 3, 4, 5, 6}
    german = next(p for p in pages if str(p["url"]).endswith("/nachtzug.html"))
    assert german["title"] == "Die langsame Rückkehr des Nachtzugs"
    images = read_table(dataset / "images.parquet")
    kept = {str(i["image_url"]).rsplit("/", 1)[1]: i for i in images}
    # The near-identical copy and the 32 px icon are left out.
    assert set(kept) == {"anemone-large.png", "train.png"}
    for image in kept.values():
        assert (dataset / str(image["image_path"])).is_file()
    report = json.loads((dataset / "crawl_report.json").read_text())
    assert report["total_pages"] == len(pages) and report["total_images"] == 2
    assert any(e["url"].endswith("/articles/missing.html") for e in report["errors"])
    for gz in (dataset / "raw_html").rglob("*.html.gz"):
        body = gzip.decompress(gz.read_bytes())
        meta = json.loads(gz.with_name(gz.name.replace(".html.gz", ".meta.json")).read_text())
        assert meta["size_bytes"] == len(body) and meta["status_code"] == 200
    verify_manifest(dataset)


def test_spideriment_follows_redirects(crawled: Crawled, tmp_path: Path) -> None:
    export("spideriment", tmp_path / "s", crawled.summary, [crawled.crawl], progress=False)
    with open(tmp_path / "s" / "web_index.csv") as handle:
        rows = [json.loads(row[0]) for row in csv.reader(handle)]
    assert all(list(row) == FIELDS for row in rows)
    by_final = {row["final_url"]: row for row in rows}
    guide = by_final[f"{crawled.base}/docs/guide.html"]
    assert guide["original_url"] == f"{crawled.base}/old-guide"
    night = by_final[f"{crawled.base}/articles/night-trains.html"]
    assert night["original_url"] == f"{crawled.base}/moved-temporarily"
    tide = by_final[f"{crawled.base}/articles/tide-pools.html"]
    assert tide["author"] and tide["content_snippet_quality"] == 1.0
    # Every <p> in document order, the byline and the footer paragraph included.
    assert "Twice a day the sea withdraws" in tide["content_snippet"]


def test_algolia_splits_the_long_guide(crawled: Crawled, tmp_path: Path) -> None:
    export("algolia", tmp_path / "a", crawled.summary, [crawled.crawl], progress=False)
    records = json.loads((tmp_path / "a" / "records.json").read_text(encoding="utf-8"))
    for record in records:
        check_schema(record)
    guide = [r for r in records if str(r["url"]).endswith("/docs/guide.html")]
    assert len(guide) > 1
    assert guide[0]["hierarchyObj"]["lvl0"] == "The field guide to crawling politely"
    deepest = [r for r in guide if "lvl5" in r.get("hierarchyObj", {})]
    assert deepest and str(deepest[0]["recordUrl"]).endswith("-fine")
    tide = next(r for r in records if str(r["url"]).endswith("/tide-pools.html"))
    assert tide["lang"] == "en" and tide["category"] == "Nature"
    assert {"ocean", "coast"} <= set(tide["keywords"])
    assert isinstance(tide["publishedDate"], int) and tide["author"]
