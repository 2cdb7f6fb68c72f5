"""The streaming writers on page records built in the test (no database)."""

from __future__ import annotations

import csv
import gzip
import json
from datetime import UTC, datetime
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from export_helpers import (
    FIELDS,
    MemoryBodies,
    check_schema,
    make_page,
    picture,
    sha,
    verify_manifest,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unob.export.algolia import algolia_records
from unob.export.dataset import CrawlFacts
from unob.export.records import ImageRef, PageRecord, TextFields
from unob.export.writers import FORMATS, ExportOptions

WHEN = datetime(2026, 6, 1, tzinfo=UTC)
HTML = b"<html><body><nav>menu</nav><p>Straight from the <b>HTML</b>.</p></body></html>"


def pages() -> list[PageRecord]:
    return [
        make_page(
            key=1,
            url="http://127.0.0.1:8080/a",
            raw_html_sha256=sha(HTML),
            images=(
                ImageRef("http://127.0.0.1:8080/big.png", "Big"),
                ImageRef("http://127.0.0.1:8080/tiny.png", "Tiny"),
            ),
        ),
        make_page(key=2, url="http://127.0.0.1:8080/b", title="B", original_url=""),
        make_page(key=3, url="http://127.0.0.1:8080/a?x=2", title="A2", raw_html_sha256="0" * 64),
    ]


def bodies() -> MemoryBodies:
    return MemoryBodies(
        html={sha(HTML): HTML},
        images={
            "http://127.0.0.1:8080/big.png": (picture(200, 150), "image/png"),
            "http://127.0.0.1:8080/tiny.png": (picture(20, 20), "image/png"),
        },
    )


def run(fmt: str, root: Path, options: ExportOptions, source: MemoryBodies) -> None:
    writer = FORMATS[fmt](root, options, source)
    batch = pages()
    writer.write_batch(batch[:2])
    writer.write_batch(batch[2:])
    facts = CrawlFacts(3, (("http://127.0.0.1:8080/gone", "HTTP 404: Not Found"),), 1.234)
    written = writer.finish(lambda: facts, WHEN)
    assert written.pages == 3


@pytest.mark.parametrize("fmt", ["parquet", "csv", "jsonl"])
def test_dataset_directory(tmp_path: Path, fmt: str) -> None:
    run(fmt, tmp_path, ExportOptions(), bodies())
    names = sorted(p.name for p in tmp_path.iterdir())
    suffix = {"parquet": ".parquet", "csv": ".csv", "jsonl": ".jsonl"}[fmt]
    assert names == sorted(
        [
            f"pages{suffix}",
            f"images{suffix}",
            "crawl_report.json",
            "manifest.json",
            "readable",
            "raw_html",
            "images",
        ]
    )
    manifest = verify_manifest(tmp_path)
    assert manifest["created_at"] == "2026-06-01T00:00:00Z"
    report = json.loads((tmp_path / "crawl_report.json").read_text())
    assert report == {
        "total_pages": 3,
        "failed_pages": 3,
        "total_images": 3,  # the tiny image is excluded
        "external_links": 1,
        "time_taken_seconds": 1.23,
        "errors": [{"url": "http://127.0.0.1:8080/gone", "error": "HTTP 404: Not Found"}],
    }
    raw = tmp_path / "raw_html" / "127.0.0.1_8080"
    assert sorted(p.name for p in raw.iterdir()) == [
        f"{sha(HTML)}.html.gz",
        f"{sha(HTML)}.meta.json",
    ]
    assert gzip.decompress((raw / f"{sha(HTML)}.html.gz").read_bytes()) == HTML
    meta = json.loads((raw / f"{sha(HTML)}.meta.json").read_text())
    assert meta == {
        "url": "http://127.0.0.1:8080/a",
        "content_hash": sha(HTML),
        "status_code": 200,
        "response_time": 0.012,
        "timestamp": "2026-05-28T20:26:40Z",
        "size_bytes": len(HTML),
    }
    readable = sorted(p.name for p in (tmp_path / "readable").iterdir())
    assert len(readable) == 4 and "all_pages.md" in readable
    if fmt == "parquet":
        images = pq.read_table(tmp_path / "images.parquet").to_pylist()
        assert [i["alt_text"] for i in images] == ["Big", "An anemone", ""]
        assert [bool(i["image_path"]) for i in images] == [True, False, False]
        assert (tmp_path / images[0]["image_path"]).is_file()
        assert images[0]["image_path"].startswith("images/127.0.0.1_8080/")


def test_dataset_without_raw_html_and_images(tmp_path: Path) -> None:
    run("parquet", tmp_path, ExportOptions(raw_html=False, images=False), bodies())
    assert not (tmp_path / "raw_html").exists() and not (tmp_path / "images").exists()
    images = pq.read_table(tmp_path / "images.parquet").to_pylist()
    assert [(i["image_path"], i["alt_text"]) for i in images] == [
        ("", "Big"),
        ("", "Tiny"),
        ("", "An anemone"),
        ("", ""),
    ]
    verify_manifest(tmp_path)


def test_spideriment_uses_the_html_when_it_has_it(tmp_path: Path) -> None:
    source = bodies()
    run("spideriment", tmp_path, ExportOptions(), source)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["web_index.csv"]
    with open(tmp_path / "web_index.csv") as handle:  # the loader's exact call
        rows = [json.loads(row[0]) for row in csv.reader(handle)]
    assert [list(r) for r in rows] == [FIELDS] * 3
    assert rows[0]["content_snippet"] == "Straight from the HTML."
    assert rows[0]["content_snippet_quality"] == 1.0
    # No body: the snippet comes from the text pile.
    assert rows[1]["content_snippet"].startswith("Tide pools Twice a day")
    assert rows[2]["content_snippet"].startswith("Tide pools Twice a day")
    assert source.html_queries == 2  # one query per batch, not per page


@pytest.mark.parametrize("ndjson", [False, True])
def test_algolia_files(tmp_path: Path, ndjson: bool) -> None:
    run("algolia", tmp_path, ExportOptions(ndjson=ndjson), bodies())
    settings = json.loads((tmp_path / "settings.json").read_text())
    assert settings == {"distinct": True, "attributeForDistinct": "url"}
    if ndjson:
        lines = (tmp_path / "records.ndjson").read_text(encoding="utf-8").splitlines()
        records = [json.loads(line) for line in lines]
    else:
        records = json.loads((tmp_path / "records.json").read_text(encoding="utf-8"))
    assert len(records) == 12
    for record in records:
        check_schema(record)
    assert len({r["objectID"] for r in records}) == 12


def test_algolia_empty_export_is_an_empty_array(tmp_path: Path) -> None:
    writer = FORMATS["algolia"](tmp_path, ExportOptions(), bodies())
    writer.finish(CrawlFacts, WHEN)
    assert json.loads((tmp_path / "records.json").read_text()) == []


any_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=200)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(title=any_text, body=st.lists(any_text, max_size=4), ndjson=st.booleans())
def test_any_text_survives_the_algolia_files(
    tmp_path_factory: pytest.TempPathFactory, title: str, body: list[str], ndjson: bool
) -> None:
    root = tmp_path_factory.mktemp("algolia")
    page = make_page(title=title, headings=(), text=TextFields(text="\n".join(body)))
    writer = FORMATS["algolia"](root, ExportOptions(ndjson=ndjson), MemoryBodies())
    writer.write_batch([page, page])
    writer.finish(CrawlFacts, WHEN)
    raw = (root / ("records.ndjson" if ndjson else "records.json")).read_text(encoding="utf-8")
    records = [json.loads(line) for line in raw.splitlines()] if ndjson else json.loads(raw)
    assert records == algolia_records(page) * 2


def test_raw_html_is_gzip_level_6_and_reproducible(tmp_path: Path) -> None:
    from unob.export.rawhtml import RawHtmlWriter

    body = b"<html><body>" + b"<p>tide pools and night trains</p>" * 2000 + b"</body></html>"
    page = make_page(key=1, url="http://127.0.0.1:8080/a", raw_html_sha256=sha(body))
    written = []
    for name in ("one", "two"):
        relative = RawHtmlWriter(tmp_path / name).write(page, body)
        written.append((tmp_path / name / relative).read_bytes())
    data = written[0]
    assert written[1] == data
    assert gzip.decompress(data) == body
    # RFC 1952 header: no FNAME flag, MTIME 0, and XFL 0: neither "maximum
    # compression" (2, level 9, much slower on big pages) nor "fastest" (4).
    assert data[3] == 0 and data[4:8] == bytes(4) and data[8] == 0
