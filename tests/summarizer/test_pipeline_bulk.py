"""Bulk runs: the link-target index is dropped at the start and built at the end."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from crawl_db_builder import CrawlDbBuilder, page
from summary_dump import dump

from unob.db import open_database
from unob.summarizer import pipeline, summarize
from unob.summarizer.summarystore import LINK_TARGET_INDEX, LINK_TARGET_INDEX_SQL, SummaryStore

SITE = "http://site.test"
BATCH = 4


def build_crawl(path: Path, first: int = 0, pages: int = 14) -> None:
    with CrawlDbBuilder(path) as b:
        for i in range(first, first + pages):
            links = "".join(f'<a href="/p/{(i * 7 + k) % 20}">to {k}</a>' for k in range(5))
            b.add(f"{SITE}/p/{i}", at=100 + i, body=page(f"P{i}", f"Page {i} body. {links}"))


def schema(path: Path) -> list[tuple[str, str]]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT name, sql FROM sqlite_master ORDER BY name").fetchall()
    finally:
        conn.close()


def has_index(path: Path) -> bool:
    return any(name == LINK_TARGET_INDEX for name, _ in schema(path))


def test_the_index_sql_is_the_schemas(tmp_path: Path) -> None:
    open_database(tmp_path / "s.db", "summary").dispose()
    assert dict(schema(tmp_path / "s.db"))[LINK_TARGET_INDEX] == LINK_TARGET_INDEX_SQL


def test_bulk_run_gives_the_same_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    crawl_db = tmp_path / "crawl.db"
    build_crawl(crawl_db)
    plain = summarize([crawl_db], tmp_path / "plain.db", batch_size=BATCH)
    monkeypatch.setattr(pipeline, "_BULK_MIN_ENTRIES", 1)
    bulk = summarize([crawl_db], tmp_path / "bulk.db", batch_size=BATCH)
    assert (plain.bulk, bulk.bulk) == (False, True)
    assert bulk.link_index_s > 0 and plain.link_index_s == 0
    assert dump(tmp_path / "bulk.db") == dump(tmp_path / "plain.db")
    assert schema(tmp_path / "bulk.db") == schema(tmp_path / "plain.db")


def test_a_run_smaller_than_the_database_keeps_the_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pipeline, "_BULK_MIN_ENTRIES", 1)
    first, second = tmp_path / "first.db", tmp_path / "second.db"
    build_crawl(first)
    build_crawl(second, first=14, pages=5)
    assert summarize([first], tmp_path / "s.db", batch_size=BATCH).bulk
    dropped: list[bool] = []
    original = SummaryStore.drop_link_target_index

    def drop(self: SummaryStore) -> None:
        dropped.append(True)
        original(self)

    monkeypatch.setattr(SummaryStore, "drop_link_target_index", drop)
    report = summarize([first, second], tmp_path / "s.db", batch_size=BATCH)
    assert not report.bulk and not dropped and report.link_index_s == 0
    assert has_index(tmp_path / "s.db")


def test_a_failed_bulk_run_leaves_the_index_to_the_next_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    crawl_db = tmp_path / "crawl.db"
    build_crawl(crawl_db)
    summarize([crawl_db], tmp_path / "clean.db", batch_size=BATCH)

    monkeypatch.setattr(pipeline, "_BULK_MIN_ENTRIES", 1)
    calls: list[int] = []
    original = pipeline._integrate_batch

    def failing(*args: object, **kwargs: object) -> None:
        calls.append(1)
        if len(calls) == 2:
            raise sqlite3.OperationalError("disk I/O error")
        original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "_integrate_batch", failing)
    broken = tmp_path / "broken.db"
    with pytest.raises(sqlite3.OperationalError):
        summarize([crawl_db], broken, batch_size=BATCH)
    assert not has_index(broken)  # one whole batch in, the index not yet built

    monkeypatch.setattr(pipeline, "_integrate_batch", original)
    monkeypatch.setattr(pipeline, "_BULK_MIN_ENTRIES", 10**9)  # the rerun is no bulk run
    report = summarize([crawl_db], broken, batch_size=BATCH)
    assert not report.bulk and report.link_index_s > 0
    assert dump(broken) == dump(tmp_path / "clean.db")
    assert schema(broken) == schema(tmp_path / "clean.db")


def test_two_summarizers_ensuring_the_index_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # B checked before A built the index; B's CREATE must not fail afterwards.
    path = tmp_path / "s.db"
    open_database(path, "summary").dispose()
    first, second = SummaryStore(path), SummaryStore(path)
    try:
        first.drop_link_target_index()
        assert first.ensure_link_target_index()
        monkeypatch.setattr(SummaryStore, "has_link_target_index", lambda self: False)
        assert second.ensure_link_target_index()  # built "again": IF NOT EXISTS
    finally:
        first.close()
        second.close()
    assert has_index(path)
