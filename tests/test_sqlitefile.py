"""Readers leave no stray -wal/-shm files, and never disturb a writer or its WAL."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from unob.crawler.status import crawl_status
from unob.db import open_database
from unob.errors import NotADatabase
from unob.export.readonly import ReadOnlyDb
from unob.query.readonly import ReadOnlyConnection
from unob.sqlitefile import check_sqlite_header, tidy_after_reading
from unob.summarizer.crawlread import CrawlReader


def sidecars(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir() if p.name != path.name)


@pytest.fixture
def crawl_db(tmp_path: Path) -> Path:
    path = tmp_path / "c.db"
    open_database(path, "crawl").dispose()
    assert sidecars(path) == []  # the writer's last close removed them
    return path


def read_with_export_reader(path: Path) -> None:
    db = ReadOnlyDb(path, "crawl")
    assert db.query("SELECT count(*) FROM exit_code").fetchone()[0] > 0
    db.close()


def read_with_query_connection(path: Path) -> None:
    with ReadOnlyConnection(path) as conn:
        assert conn.execute("SELECT count(*) FROM exit_code").fetchone()[0] > 0


def read_with_crawl_reader(path: Path) -> None:
    with CrawlReader(path) as reader:
        assert reader.database_uuid


def read_status(path: Path) -> None:
    assert crawl_status(path).files_stored == 0


READERS = [read_with_export_reader, read_with_query_connection, read_with_crawl_reader, read_status]


@pytest.mark.parametrize("read", READERS)
def test_readers_leave_no_wal_files(crawl_db: Path, read: Callable[[Path], None]) -> None:
    read(crawl_db)
    assert sidecars(crawl_db) == []


@pytest.mark.parametrize("read", READERS)
def test_a_reader_beside_an_open_writer_removes_nothing(
    crawl_db: Path, read: Callable[[Path], None]
) -> None:
    writer = sqlite3.connect(crawl_db)
    writer.execute("CREATE TABLE scratch (x)")
    writer.commit()
    read(crawl_db)
    assert sidecars(crawl_db) == ["c.db-shm", "c.db-wal"]
    writer.execute("INSERT INTO scratch VALUES (1)")  # the writer goes on undisturbed
    writer.commit()
    other = sqlite3.connect(f"file:{crawl_db}?mode=ro", uri=True)
    assert other.execute("SELECT x FROM scratch").fetchall() == [(1,)]
    other.close()
    writer.close()


def test_a_crashed_writers_wal_is_left_for_the_next_writer(crawl_db: Path) -> None:
    # The child commits into the WAL and dies without closing: the WAL keeps data
    # that only a writer may checkpoint into the database.
    code = (
        "import os, sqlite3, sys\n"
        "c = sqlite3.connect(sys.argv[1])\n"
        "c.execute('CREATE TABLE scratch (x)')\n"
        "c.execute('INSERT INTO scratch VALUES (7)')\n"
        "c.commit()\n"
        "os._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", code, str(crawl_db)], check=True)
    wal = Path(f"{crawl_db}-wal")
    size_before, db_before = wal.stat().st_size, crawl_db.read_bytes()
    assert size_before > 0
    read_with_query_connection(crawl_db)
    assert wal.stat().st_size == size_before
    assert crawl_db.read_bytes() == db_before  # nothing checkpointed by a reader
    with ReadOnlyConnection(crawl_db) as conn:
        assert conn.execute("SELECT x FROM scratch").fetchall() == [(7,)]


def test_tidy_without_wal_files_does_nothing(crawl_db: Path) -> None:
    tidy_after_reading(crawl_db)
    tidy_after_reading(crawl_db.parent / "missing.db")
    assert sidecars(crawl_db) == []


def test_header_check(tmp_path: Path, crawl_db: Path) -> None:
    check_sqlite_header(crawl_db)
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    check_sqlite_header(empty, allow_empty=True)
    with pytest.raises(NotADatabase, match="not an SQLite database"):
        check_sqlite_header(empty)
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"SQLite format 2\x00" + bytes(100))
    with pytest.raises(NotADatabase, match="not an SQLite database"):
        check_sqlite_header(junk, allow_empty=True)
    with pytest.raises(NotADatabase, match="cannot read"):
        check_sqlite_header(tmp_path)
