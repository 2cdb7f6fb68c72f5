"""The summary schema: migration == tables declared in unob.schema.summary; FTS shape; digests."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from crawl_db_builder import CrawlDbBuilder, page
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from summary_dump import rows

from unob.db import open_database
from unob.schema.summary import metadata
from unob.summarizer import summarize
from unob.summarizer.document import TextPile
from unob.summarizer.extract import derive_html
from unob.summarizer.fts import COLUMNS, SOURCE_VIEW, TABLE


def test_migration_matches_declared_tables(tmp_path: Path) -> None:
    engine = open_database(tmp_path / "s.db", "summary")
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    engine.dispose()
    # The FTS5 table and its shadow tables are created by SQL in the migration.
    diff = [d for d in diff if not (d[0] == "remove_table" and d[1].name.startswith(TABLE))]
    assert diff == []


def test_fts_columns_and_view_agree(tmp_path: Path) -> None:
    open_database(tmp_path / "s.db", "summary").dispose()
    conn = sqlite3.connect(tmp_path / "s.db")
    fts_cols = [row[1] for row in conn.execute(f"PRAGMA table_info({TABLE})")]
    view_cols = [row[1] for row in conn.execute(f"PRAGMA table_info({SOURCE_VIEW})")]
    conn.close()
    assert tuple(fts_cols) == COLUMNS
    assert view_cols == ["entity_generation_id", *COLUMNS]


def test_bm25_can_rank_title_and_headings_above_body(tmp_path: Path) -> None:
    crawl_db, summary_db = tmp_path / "c.db", tmp_path / "s.db"
    with CrawlDbBuilder(crawl_db) as b:
        b.add("http://s.test/body", at=1, body=page("Other", "Mentions zebra once in body."))
        b.add("http://s.test/title", at=2, body=page("Zebra", "Nothing else here at all."))
    summarize([crawl_db], summary_db)
    weights = ", ".join("5.0" if c in ("title", "big_headlines") else "1.0" for c in COLUMNS)
    ranked = rows(
        summary_db,
        "SELECT u.str_url FROM search_index JOIN entity_generation eg "
        "ON eg.entity_generation_id = search_index.rowid JOIN url u USING (url_id) "
        f"WHERE search_index MATCH 'zebra' ORDER BY bm25(search_index, {weights})",
    )
    assert ranked == [("http://s.test/title",), ("http://s.test/body",)]
    snippet = rows(
        summary_db,
        "SELECT snippet(search_index, 2, '[', ']', '', 5) FROM search_index "
        "WHERE search_index MATCH 'once'",
    )
    assert snippet and "[once]" in snippet[0][0]


html_bodies = st.builds(
    lambda parts: "".join(parts).encode(),
    st.lists(
        st.one_of(
            st.sampled_from(["<p>", "</p>", "<h2>", "</h2>", "<pre>", "<li>", "<nav>", "</nav>"]),
            st.text(min_size=0, max_size=30),
        ),
        max_size=40,
    ),
)


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(html_bodies)
def test_digest_is_stable_for_the_same_page(body: bytes) -> None:
    first = derive_html(body, "http://s.test/").text_pile
    second = derive_html(body, "http://s.test/").text_pile
    assert first.digest() == second.digest()
    assert len(first.digest()) == 16


def test_digest_does_not_depend_on_the_process() -> None:
    pile = TextPile("main text", "nav", "Heading", "", "code()", "")
    script = (
        "from unob.summarizer.document import TextPile;"
        "print(TextPile('main text','nav','Heading','','code()','').digest().hex())"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout.strip()
        for seed in ("1", "2")
    }
    assert outputs == {pile.digest().hex()}


def test_same_crawl_gives_same_digests_in_two_summary_dbs(tmp_path: Path) -> None:
    crawl_db = tmp_path / "c.db"
    with CrawlDbBuilder(crawl_db) as b:
        for i in range(5):
            b.add(f"http://s.test/{i}", at=i, body=page(f"T{i}", f"Body number {i}."))
    digests = []
    for name in ("one.db", "two.db"):
        summarize([crawl_db], tmp_path / name)
        digests.append(rows(tmp_path / name, "SELECT digest FROM text_pile ORDER BY digest"))
    assert digests[0] == digests[1] and len(digests[0]) == 5


def test_row_layouts_name_existing_columns() -> None:
    from unob.schema.summary import document_description, heading, image, link_summary
    from unob.summarizer.observe import (
        DESCRIPTION_COLUMNS,
        HEADING_COLUMNS,
        IMAGE_COLUMNS,
        LINK_COLUMNS,
    )

    for table, layout in (
        (document_description, DESCRIPTION_COLUMNS),
        (heading, HEADING_COLUMNS),
        (image, IMAGE_COLUMNS),
        (link_summary, ("position", *LINK_COLUMNS)),
    ):
        written = {c.name for c in table.columns if c.computed is None}  # not generated
        assert written == {"entity_generation_id", *layout}
