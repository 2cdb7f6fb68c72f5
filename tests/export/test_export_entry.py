"""unob.export.export on a fixture site's databases: every format, read back by its consumers."""

from __future__ import annotations

import csv
import json
import os
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from export_helpers import FIELDS, check_schema, read_table, sha, verify_manifest
from export_site_fixture import SITE, SiteDbs, build_site
from export_summary_builder import Page, SummaryBuilder

from unob.errors import ExportError, NotADatabase, UsageError, WrongDatabaseKind
from unob.export import export, format_report
from unob.export.dataset import IMAGES, PAGES
from unob.export.reader import SummaryReader

WHEN = datetime(2026, 7, 1, 12, 0, tzinfo=UTC)
GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("UNOB_UPDATE_GOLDEN") == "1"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> SiteDbs:
    return build_site(tmp_path_factory.mktemp("site"))


def golden(name: str, actual: str) -> None:
    """Compare with tests/export/golden/<name>; UNOB_UPDATE_GOLDEN=1 rewrites it."""
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(actual.encode("utf-8"))
    assert actual == path.read_bytes().decode("utf-8"), f"differs from {path}"


def run(site: SiteDbs, fmt: str, out: Path, **options: object) -> object:
    return export(fmt, out, site.summary, [site.crawl], now=WHEN, batch_size=2, **options)  # type: ignore[arg-type]


@pytest.mark.parametrize("fmt", ["parquet", "csv", "jsonl"])
def test_dataset_formats(site: SiteDbs, tmp_path: Path, fmt: str) -> None:
    out = tmp_path / "dataset"
    report = run(site, fmt, out)
    suffix = "." + fmt
    pages = read_table(out / f"pages{suffix}")
    images = read_table(out / f"images{suffix}")
    # Current content only: no duplicate, no closed generation, no noindex page.
    assert [p["url"] for p in pages] == [
        f"{SITE}/articles/tide-pools",
        f"{SITE}/de/nachtzug",
        f"{SITE}/docs/reference",
    ]
    assert report.pages == 3 and report.records == 3  # type: ignore[attr-defined]
    reader = {"parquet": "read_parquet", "csv": "read_csv", "jsonl": "read_json"}[fmt]
    for name, schema, count in (
        ("pages", PAGES.arrow_schema(), 3),
        ("images", IMAGES.arrow_schema(), 3),
    ):
        file = out / f"{name}{suffix}"
        relation = duckdb.sql(f"SELECT * FROM {reader}('{file}')")
        assert relation.columns == schema.names
        assert duckdb.sql(f"SELECT count(*) FROM {reader}('{file}')").fetchall() == [(count,)]
        if fmt == "parquet":
            assert pq.read_schema(file).remove_metadata() == schema
    if fmt == "parquet":
        types = duckdb.sql(f"DESCRIBE SELECT * FROM '{out / 'pages.parquet'}'").fetchall()
        assert [(t[0], t[1]) for t in types][-1] == ("word_count", "BIGINT")
    tide = pages[0]
    assert tide["title"] == "Life in the tide pools"
    assert json.loads(str(tide["headings"])) == [
        {"level": 1, "text": "Life in the tide pools"},
        {"level": 2, "text": "Visiting"},
    ]
    assert tide["meta_description"] == "Small worlds between the tides."
    assert tide["crawl_date"] == "2026-05-28T20:27:20Z"
    assert tide["word_count"] == len(str(tide["content"]).split())
    # Images: the tiny icon and the near-identical copy are gone; the unfetched
    # one is listed without a file; the repeated one on the German page is not.
    assert [(i["alt_text"], bool(i["image_path"])) for i in images] == [
        ("A green anemone", True),
        ("", False),
        ("Ein Nachtzug", True),
    ]
    large = site.images[f"{SITE}/images/anemone-large.png"]
    assert images[0]["image_path"] == f"images/127.0.0.1_8765/{sha(large)}.png"
    assert (out / str(images[0]["image_path"])).read_bytes() == large
    report_json = json.loads((out / "crawl_report.json").read_text())
    assert report_json == {
        "total_pages": 3,
        "failed_pages": 2,
        "total_images": len(images),
        "external_links": 2,
        "time_taken_seconds": 5.0,  # first to last crawl of the one run
        "errors": [
            {"url": f"{SITE}/missing", "error": "HTTP 404: Not Found"},
            {"url": f"{SITE}/slow", "error": "request_timeout: no answer in 30 s"},
        ],
    }
    raw = sorted(p.relative_to(out).as_posix() for p in (out / "raw_html").rglob("*"))
    assert len([r for r in raw if r.endswith(".html.gz")]) == 2
    readable = sorted(p.name for p in (out / "readable").iterdir())
    assert readable == [
        "127_0_0_1_8765_articles_tide_pools.md",
        "127_0_0_1_8765_de_nachtzug.md",
        "127_0_0_1_8765_docs_reference.md",
        "all_pages.md",
    ]
    manifest = verify_manifest(out)
    assert manifest["created_at"] == "2026-07-01T12:00:00Z"
    assert not any(p.name.startswith(".") for p in tmp_path.iterdir())
    if fmt == "jsonl":
        golden("dataset/pages.jsonl", (out / "pages.jsonl").read_text(encoding="utf-8"))
        golden(
            "dataset/readable_tide_pools.md",
            (out / "readable" / readable[0]).read_text(encoding="utf-8"),
        )


def test_the_images_table_has_one_row_per_distinct_image(site: SiteDbs, tmp_path: Path) -> None:
    run(site, "parquet", tmp_path / "out")
    images = pq.read_table(tmp_path / "out" / "images.parquet").to_pylist()
    assert [(i["alt_text"], i["source_page"]) for i in images] == [
        ("A green anemone", f"{SITE}/articles/tide-pools"),
        ("", f"{SITE}/articles/tide-pools"),
        ("Ein Nachtzug", f"{SITE}/de/nachtzug"),
    ]
    on_disk = sorted(p.name for p in (tmp_path / "out" / "images").rglob("*") if p.is_file())
    assert len(on_disk) == 2


def test_all_includes_duplicates_closed_and_noindex_pages(site: SiteDbs, tmp_path: Path) -> None:
    run(site, "jsonl", tmp_path / "out", include_all=True, raw_html=False, images=False)
    urls = [row["url"] for row in read_table(tmp_path / "out" / "pages.jsonl")]
    assert len(urls) == 6
    assert f"{SITE}/articles/tide-pools/print" in urls and f"{SITE}/private" in urls
    assert not (tmp_path / "out" / "raw_html").exists()
    assert not (tmp_path / "out" / "images").exists()
    images = read_table(tmp_path / "out" / "images.jsonl")
    assert len(images) == 5 and all(i["image_path"] == "" for i in images)


def test_spideriment(site: SiteDbs, tmp_path: Path) -> None:
    report = run(site, "spideriment", tmp_path / "out")
    path = tmp_path / "out" / "web_index.csv"
    with open(path) as handle:  # the search server's loader, verbatim
        rows = [json.loads(row[0]) for row in csv.reader(handle)]
    assert report.records == 3  # type: ignore[attr-defined]
    assert all(list(row) == FIELDS for row in rows)
    tide, nacht, reference = rows
    # The redirect seen first (a chain: very-old-tide -> old-tide -> the article).
    assert tide["original_url"] == f"{SITE}/very-old-tide"
    assert tide["final_url"] == f"{SITE}/articles/tide-pools"
    assert tide["final_canonical_url"] == "127.0.0.1:8765/articles/tide-pools"
    assert tide["content_snippet"].startswith("Twice a day the sea withdraws")  # from the HTML
    assert tide["total_links_count"] == 2
    assert nacht["language"] == "de"
    assert nacht["content_snippet"].startswith("Vor zehn Jahren")  # latin-1 body decoded
    assert nacht["original_url"] == nacht["final_url"]
    assert reference["content_snippet"].startswith("Level 1 heading word0")  # text pile
    # Cut at 2250 characters; the 2250th is a space, stripped after the cut.
    assert len(reference["content_snippet"]) == 2249
    assert path.read_bytes().isascii() and path.read_bytes().count(b"\r\n") == 3
    golden("web_index.csv", path.read_bytes().decode("ascii"))


def test_algolia(site: SiteDbs, tmp_path: Path) -> None:
    report = run(site, "algolia", tmp_path / "out", max_record_bytes=4000)
    records = json.loads((tmp_path / "out" / "records.json").read_text(encoding="utf-8"))
    assert report.records == len(records)  # type: ignore[attr-defined]
    for record in records:
        check_schema(record, 4000)
    by_url: dict[str, list[dict[str, object]]] = {}
    for record in records:
        by_url.setdefault(str(record["url"]), []).append(record)
    reference = by_url[f"{SITE}/docs/reference"]
    assert len(reference) > 6  # split by section, then by size
    levels = {str(r["currentHierarchy"]): r["hierarchyObj"] for r in reference}
    assert levels["Level 6 heading"] == {f"lvl{i}": f"Level {i + 1} heading" for i in range(6)}
    assert [r["position"] for r in reference] == list(range(len(reference)))
    tide = by_url[f"{SITE}/articles/tide-pools"]
    assert tide[0]["keywords"] == ["tide pools", "anemones", "marine biology", "ocean", "coast"]
    assert tide[0]["publishedDate"] == 1_773_477_000 and tide[0]["lang"] == "en"
    assert tide[1]["recordUrl"] == f"{SITE}/articles/tide-pools#visiting"
    settings = json.loads((tmp_path / "out" / "settings.json").read_text())
    assert settings == {"distinct": True, "attributeForDistinct": "url"}
    golden("algolia_records.json", (tmp_path / "out" / "records.json").read_bytes().decode())


def test_reader_queries_per_batch_do_not_grow_with_pages(tmp_path: Path) -> None:
    with SummaryBuilder(tmp_path / "s.db") as builder:
        for i in range(40):
            builder.page(
                Page(
                    url=f"http://e.org/{i}",
                    text=f"page {i}",
                    headings=[(1, f"h{i}", None)],
                    images=[(f"http://e.org/{i}.png", "")],
                    links=[("http://e.org/", "home", "a", "in")],
                )
            )
    statements: list[str] = []
    with SummaryReader(tmp_path / "s.db") as reader:
        reader._db.connection.set_trace_callback(statements.append)
        batches = list(reader.batches(10))
    assert [len(b) for b in batches] == [10, 10, 10, 10]
    # One query for the pages plus five per batch, and the final empty page query.
    assert len(statements) == 4 * 6 + 1


def test_errors_are_one_line_unob_errors(site: SiteDbs, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="unknown export format"):
        export("xml", tmp_path / "o", site.summary)
    with pytest.raises(UsageError, match="max-record-bytes"):
        export("algolia", tmp_path / "o", site.summary, max_record_bytes=10)
    with pytest.raises(UsageError, match="between 0 and 63"):
        export("csv", tmp_path / "o", site.summary, image_hash_distance=64)
    with pytest.raises(NotADatabase):
        export("csv", tmp_path / "o", tmp_path / "missing.db")
    with pytest.raises(WrongDatabaseKind):
        export("csv", tmp_path / "o", site.crawl)
    with pytest.raises(WrongDatabaseKind):
        export("csv", tmp_path / "o", site.summary, [site.summary])
    (tmp_path / "o").mkdir()
    (tmp_path / "o" / "keep").write_text("x")
    with pytest.raises(ExportError, match="already exists"):
        export("csv", tmp_path / "o", site.summary)
    assert (tmp_path / "o" / "keep").exists()


def test_an_interrupted_export_leaves_no_output(
    site: SiteDbs, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from unob.export import writers

    calls = []

    def explode(self: object, pages: object) -> None:
        calls.append(pages)
        if len(calls) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(writers.DatasetWriter, "write_batch", explode)
    with pytest.raises(KeyboardInterrupt):
        run(site, "parquet", tmp_path / "out")
    assert list(tmp_path.iterdir()) == []


def test_without_crawl_db_the_export_still_works_and_says_what_is_missing(
    site: SiteDbs, tmp_path: Path
) -> None:
    report = export("parquet", tmp_path / "out", site.summary, now=WHEN)
    assert any("no --crawl-db" in w for w in report.warnings)
    text = format_report(report)
    assert text.startswith(f"exported 3 pages as parquet to {tmp_path / 'out'} in ")
    assert "3 page rows, 5 image rows" in text and "\nwarning: no --crawl-db given" in text
    assert not (tmp_path / "out" / "raw_html").exists()
    images = pq.read_table(tmp_path / "out" / "images.parquet")
    assert images.schema.field("image_path").type == pa.string()
    assert set(images.column("image_path").to_pylist()) == {""}
    verify_manifest(tmp_path / "out")


def test_batches_also_end_at_the_byte_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from unob.export import reader as reader_module

    with SummaryBuilder(tmp_path / "s.db") as builder:
        for i in range(6):
            builder.page(
                Page(
                    url=f"http://e.org/{i}",
                    text="x" * 1000,
                    links=[("http://e.org/", "home", "a", "in")],
                )
            )
    # 1000 characters of text plus one link (250) per page: two pages per 2500 bytes.
    monkeypatch.setattr(reader_module, "BATCH_BUDGET_BYTES", 2500)
    with SummaryReader(tmp_path / "s.db") as reader:
        sizes = [len(batch) for batch in reader.batches(5)]
        keys = [page.key for batch in reader.batches(5) for page in batch]
    assert sizes == [2, 2, 2]
    assert keys == sorted(keys) and len(set(keys)) == 6


def test_crawl_report_errors_have_the_documented_shape(tmp_path: Path) -> None:
    # Messages as the crawler writes them: an HTTP error's only repeats the status.
    cap = "Content-Length 13500108 is over the cap of 10485760 bytes"
    failures = [
        ("/missing", 44, 404, "HTTP 404"),
        ("/down", 50, 503, "HTTP 503"),
        ("/odd", 50, 599, "HTTP 599"),  # no reason phrase: the exit code name
        ("/huge", 111, 200, cap),  # failed with a 200 answer: not an HTTP error
        ("/refused", 100, None, "connection refused"),
    ]
    with SummaryBuilder(tmp_path / "s.db") as summary:
        for n, (path, code, status, message) in enumerate(failures):
            summary.crawl(
                f"{SITE}{path}", 1_780_000_000 + n, code, http_status=status, message=message
            )
    with SummaryReader(tmp_path / "s.db") as reader:
        errors = reader.crawl_facts().errors
    assert errors == (
        (f"{SITE}/missing", "HTTP 404: Not Found"),
        (f"{SITE}/down", "HTTP 503: Service Unavailable"),
        (f"{SITE}/odd", "HTTP 599: server_internal_error"),
        (f"{SITE}/huge", f"too_large: {cap}"),
        (f"{SITE}/refused", "connection_failed: connection refused"),
    )
