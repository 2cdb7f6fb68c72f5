"""Dataset tables: schemas, row builders, and round trips through real readers."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from export_helpers import make_page, read_table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unob.export.dataset import IMAGES, PAGES, page_row
from unob.export.records import HeadingRef, PageRecord, TextFields
from unob.export.tables import TABLE_FORMATS, open_table

PAGES_SCHEMA = PAGES.arrow_schema()
IMAGES_SCHEMA = IMAGES.arrow_schema()


def test_schemas_are_the_seeds() -> None:
    assert PAGES_SCHEMA.names == [
        "url",
        "title",
        "headings",
        "content",
        "meta_description",
        "crawl_date",
        "word_count",
    ]
    assert [f.type for f in PAGES_SCHEMA] == [pa.string()] * 6 + [pa.int64()]
    assert IMAGES_SCHEMA.names == ["image_path", "source_page", "alt_text", "image_url"]
    assert all(f.type == pa.string() for f in IMAGES_SCHEMA)


def test_page_row(page: PageRecord) -> None:
    row = page_row(page)
    assert row["url"] == "https://example.org/docs/page"
    assert row["title"] == "A page about tide pools"
    assert json.loads(row["headings"]) == [
        {"level": 1, "text": "Tide pools"},
        {"level": 2, "text": "Who lives there"},
        {"level": 3, "text": "Anemones"},
        {"level": 2, "text": "Visiting"},
    ]
    assert row["content"].splitlines()[1] == "Twice a day the sea withdraws."
    assert row["meta_description"] == "Anemones, limpets and hermit crabs."
    assert row["crawl_date"] == "2026-05-28T20:26:40Z"
    assert row["word_count"] == len(row["content"].split()) == 23


def test_title_falls_back_to_the_first_h1_and_content_to_secondary_text() -> None:
    page = make_page(
        title=" ",
        headings=(HeadingRef(2, "Sub"), HeadingRef(1, "Main heading")),
        text=TextFields(text="", secondary_text="only boilerplate here"),
    )
    row = page_row(page)
    assert row["title"] == "Main heading"
    assert row["content"] == "only boilerplate here" and row["word_count"] == 3


@pytest.mark.parametrize("fmt", sorted(TABLE_FORMATS))
def test_tables_stream_in_batches_and_read_back(tmp_path: Path, fmt: str) -> None:
    writer = open_table(fmt, tmp_path, PAGES)
    expected = []
    for batch in range(3):
        rows = [page_row(make_page(key=i, url=f"https://e.org/{batch}/{i}")) for i in range(800)]
        writer.write(rows)
        expected += rows
    writer.close()
    assert writer.rows == 2400
    assert read_table(writer.path) == expected
    # A second consumer: DuckDB agrees on row count and column names.
    reader = {"parquet": "read_parquet", "csv": "read_csv", "jsonl": "read_json"}[fmt]
    relation = duckdb.sql(f"SELECT * FROM {reader}('{writer.path}')")
    assert relation.columns == PAGES_SCHEMA.names
    assert duckdb.sql(f"SELECT count(*) FROM {reader}('{writer.path}')").fetchall() == [(2400,)]
    if fmt == "parquet":
        assert pq.read_schema(writer.path).remove_metadata() == PAGES_SCHEMA
        assert pq.ParquetFile(writer.path).metadata.num_row_groups >= 2


@pytest.mark.parametrize("fmt", sorted(TABLE_FORMATS))
def test_empty_tables_are_still_written(tmp_path: Path, fmt: str) -> None:
    writer = open_table(fmt, tmp_path, IMAGES)
    writer.close()
    assert read_table(writer.path) == []
    if fmt == "parquet":
        assert pq.read_table(writer.path).schema.names == IMAGES_SCHEMA.names
    if fmt == "csv":
        assert writer.path.read_bytes() == b"image_path,source_page,alt_text,image_url\r\n"


any_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=80)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(values=st.lists(st.tuples(any_text, any_text, any_text), min_size=1, max_size=5))
def test_any_text_survives_every_table_format(
    tmp_path_factory: pytest.TempPathFactory, values: list[tuple[str, str, str]]
) -> None:
    directory = tmp_path_factory.mktemp("roundtrip")
    rows = [
        {"image_path": a, "source_page": b, "alt_text": c, "image_url": a + c} for a, b, c in values
    ]
    for fmt in TABLE_FORMATS:
        writer = open_table(fmt, directory, IMAGES, f"t_{fmt}")
        writer.write(rows)
        writer.close()
        assert read_table(writer.path) == rows, fmt


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    title=any_text.filter(str.strip),
    description=any_text,
    content=any_text.filter(str.strip),
    heading=any_text.filter(str.strip),
)
def test_any_text_survives_the_pages_table(
    tmp_path_factory: pytest.TempPathFactory,
    title: str,
    description: str,
    content: str,
    heading: str,
) -> None:
    # The pages table carries the free text (title, content, headings as JSON):
    # quotes, commas, newlines, control characters and non-ASCII must all come
    # back from parquet, csv and jsonl through their ordinary readers.
    page = make_page(
        title=title,
        description=description,
        headings=(HeadingRef(1, heading, "h"),),
        text=TextFields(text=content),
    )
    row = page_row(page)
    directory = tmp_path_factory.mktemp("pages-roundtrip")
    for fmt in TABLE_FORMATS:
        writer = open_table(fmt, directory, PAGES, f"p_{fmt}")
        writer.write([row])
        writer.close()
        (back,) = read_table(writer.path)
        assert back == row, fmt
    assert json.loads(str(row["headings"])) == [{"level": 1, "text": heading}]
    assert row["title"] == title and row["content"] == content
