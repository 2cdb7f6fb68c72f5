"""The summarizer's writer runs without foreign-key enforcement, so its rows must prove them.

SummaryStore turns ``PRAGMA foreign_keys`` off on its connection (the parent
look-ups cost about 1.15 million instructions a python3-doc page); the ids it
writes are its own, handed out under the write lock.  These tests summarize
crawls that make every kind of row (pages from the extraction fixtures, with
links, images, headings and canonical URLs; redirects; files; 404s and
failures; exact duplicates; changed pages; a late crawl from a second crawl
DB; several batches) and require ``PRAGMA foreign_key_check`` to find nothing.
"""

from __future__ import annotations

import gzip
import sqlite3
from pathlib import Path

from crawl_db_builder import CrawlDbBuilder, page
from summary_dump import rows

from unob.db import open_database
from unob.summarizer import summarize
from unob.summarizer.summarystore import SummaryStore

FIXTURES = Path(__file__).parent / "fixtures"
SITE = "http://site.test"


def fixture_pages() -> list[bytes]:
    """The extraction fixtures' HTML (real pages: hundreds of links, images, headings)."""
    bodies = []
    for path in sorted(FIXTURES.glob("*.html*")):
        data = path.read_bytes()
        bodies.append(gzip.decompress(data) if path.suffix == ".gz" else data)
    return bodies


def fill_first(b: CrawlDbBuilder) -> None:
    for i, body in enumerate(fixture_pages()):
        b.add(f"{SITE}/fixture/{i}", at=10 + i, body=body)
    b.add(f"{SITE}/", at=20, body=page("Home", "Welcome.", links=("/a", "/b", "https://x.test/")))
    b.add(f"{SITE}/a", at=21, body=page("Same", "The same words on two pages."))
    b.add(f"{SITE}/a-copy", at=22, body=page("Same", "The same words on two pages."))
    b.add(f"{SITE}/old", at=23, status=301, redirect_to=f"{SITE}/never-crawled#part")
    b.add(f"{SITE}/doc.pdf", at=24, body=b"%PDF-1.4", mime="application/pdf")
    b.add(f"{SITE}/down", at=25, status=None)  # a failure: no generation
    b.add(f"{SITE}/hidden", at=26, body=page("Hidden", "Not for the index."), noindex=True)
    # Later crawls: a change, a 404 closing the original of a duplicate pair,
    # a redirect that moved, a self-duplicate.
    b.add(f"{SITE}/", at=30, body=page("Home", "Welcome back.", links=("/c",)))
    b.add(f"{SITE}/a", at=31, status=404)
    b.add(f"{SITE}/old", at=32, status=302, redirect_to=f"{SITE}/newer")
    b.add(f"{SITE}/a-copy", at=33, body=page("Same", "The same words on two pages."))


def fill_second(b: CrawlDbBuilder) -> None:
    # Crawls older than the first DB's: late generations and a late 404.
    b.add(f"{SITE}/", at=5, body=page("Home", "An early home.", links=("/early",)))
    b.add(f"{SITE}/a-copy", at=6, status=404)
    b.add("http://other.test/", at=7, body=page("Other", "The same words on two pages."))


def foreign_key_problems(path: Path) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA foreign_key_check").fetchall()
    finally:
        conn.close()


def test_summarized_rows_satisfy_every_foreign_key(tmp_path: Path) -> None:
    first, second, summary_db = tmp_path / "one.db", tmp_path / "two.db", tmp_path / "s.db"
    with CrawlDbBuilder(first) as b:
        fill_first(b)
    with CrawlDbBuilder(second) as b:
        fill_second(b)
    summarize([first, second], summary_db, batch_size=4)  # several batches each

    assert foreign_key_problems(summary_db) == []
    # Not vacuous: every table with a foreign key got rows, and the check sees them.
    children = [
        table
        for (table,) in rows(summary_db, "SELECT name FROM sqlite_master WHERE type = 'table'")
        if rows(summary_db, f"SELECT * FROM pragma_foreign_key_list('{table}')")
    ]
    empty = [t for t in children if not rows(summary_db, f"SELECT 1 FROM {t} LIMIT 1")]
    assert empty == []
    assert rows(summary_db, "SELECT count(*) FROM link_summary")[0][0] > 300
    assert rows(summary_db, "SELECT count(*) FROM file_summary WHERE canonical_url_id NOT NULL")
    conn = sqlite3.connect(summary_db)
    with conn:
        conn.execute("UPDATE link_summary SET to_url_id = 1000000 WHERE position = 0")
    assert {row[0] for row in conn.execute("PRAGMA foreign_key_check")} == {"link_summary"}
    conn.close()


def test_only_the_writer_connection_skips_enforcement(tmp_path: Path) -> None:
    store = SummaryStore(tmp_path / "s.db")
    try:
        assert store.conn.execute("PRAGMA foreign_keys").fetchone() == (0,)
    finally:
        store.close()
    engine = open_database(tmp_path / "s.db", "summary")
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA foreign_keys").fetchone() == (1,)
    engine.dispose()
