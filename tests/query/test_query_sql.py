"""`unob sql`: read-only at every level, streaming output in three formats."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import shutil
from pathlib import Path

import pytest

from unob.errors import NotADatabase, ReadOnlyViolation, UnobError, UsageError
from unob.query.sql import RICH_TABLE_MAX_ROWS, resolve_db, run_sql, unique_keys


def sql(db: Path, query: str, fmt: str = "csv") -> str:
    out = io.StringIO()
    run_sql(db, query, fmt, out)
    return out.getvalue()


@pytest.fixture
def crawl_copy(crawl_db: Path, tmp_path: Path) -> Path:
    """A private copy, so that a failed guard could not spoil the shared fixture."""
    copy = tmp_path / "crawl.db"
    shutil.copyfile(crawl_db, copy)
    return copy


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_csv_has_header_and_one_line_per_row(crawl_db: Path) -> None:
    text = sql(crawl_db, "SELECT origin, entries, error_rate FROM origin_stats ORDER BY origin")
    assert list(csv.reader(io.StringIO(text))) == [
        ["origin", "entries", "error_rate"],
        ["http://other.test", "2", "0.5"],
        ["http://site.test", "16", "0.125"],
    ]


def test_csv_nulls_are_empty_and_blobs_hex(crawl_db: Path) -> None:
    text = sql(crawl_db, "SELECT NULL AS n, x'00ff' AS b, 'a,\"b' AS s")
    assert text == 'n,b,s\n,00ff,"a,""b"\n'


def test_json_is_an_array_of_objects(crawl_db: Path) -> None:
    text = sql(
        crawl_db,
        "SELECT url, http_status, message FROM crawl_log_view WHERE exit_code = 110",
        "json",
    )
    assert json.loads(text) == [
        {
            "url": "http://site.test/private",
            "http_status": None,
            "message": "disallowed by robots.txt",
        }
    ]
    assert sql(crawl_db, "SELECT 1 AS x WHERE 0", "json") == "[]\n"


def test_json_keys_stay_unique() -> None:
    assert unique_keys(["url", "url", "url_2", "x"]) == ["url", "url_2", "url_2_2", "x"]


def test_table_aligns_columns_and_counts_rows(crawl_db: Path) -> None:
    text = sql(crawl_db, "SELECT host, entries FROM origin_stats ORDER BY host", "table")
    assert text.splitlines() == [
        "host        entries",
        "----------  -------",
        "other.test        2",
        "site.test        16",
        "(2 rows)",
    ]


def test_big_results_stream_as_plain_table(crawl_db: Path) -> None:
    n = RICH_TABLE_MAX_ROWS * 3 + 7
    query = (
        "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < "
        f"{n}) SELECT i, 'row ' || i AS label FROM c"
    )
    lines = sql(crawl_db, query, "table").splitlines()
    assert lines[-1] == f"({n} rows)"
    assert len(lines) == n + 3
    assert lines[-2].split() == [str(n), "row", str(n)]
    assert len(list(csv.reader(io.StringIO(sql(crawl_db, query))))) == n + 1


def test_reads_through_views_and_pragmas(crawl_db: Path) -> None:
    assert "str_url" in sql(crawl_db, "PRAGMA table_info(url)")
    assert "str_url" in sql(crawl_db, "SELECT name FROM pragma_table_info('url')")
    assert sql(crawl_db, "PRAGMA user_version") == "user_version\n0\n"
    assert sql(crawl_db, "EXPLAIN QUERY PLAN SELECT * FROM url WHERE url_id = 1")


@pytest.mark.parametrize(
    "statement",
    [
        "INSERT INTO url (origin_id, str_url) VALUES (1, 'http://x.test/')",
        "WITH x AS (SELECT 1) INSERT INTO database_info SELECT 'k', 'v' FROM x",
        "UPDATE url SET str_url = 'http://x.test/'",
        "DELETE FROM crawl_log_entry",
        "REPLACE INTO database_info VALUES ('kind', 'summary')",
        "DROP TABLE crawl_log_entry",
        "DROP VIEW origin_stats",
        "CREATE TABLE t (a)",
        "CREATE TEMP TABLE t (a)",
        "CREATE INDEX ix ON url (str_url)",
        "ALTER TABLE url ADD COLUMN b",
        "PRAGMA user_version = 7",
        "PRAGMA journal_mode = DELETE",
        "PRAGMA writable_schema = ON",
        "PRAGMA query_only = OFF",
        "VACUUM",
        "REINDEX",
        "ANALYZE",
        "SAVEPOINT s",
        "BEGIN IMMEDIATE",
    ],
)
def test_writes_are_refused_and_change_nothing(crawl_copy: Path, statement: str) -> None:
    before = digest(crawl_copy)
    with pytest.raises(ReadOnlyViolation) as refused:
        sql(crawl_copy, statement)
    message = str(refused.value)
    assert "\n" not in message
    assert message.startswith("refused: ")
    assert digest(crawl_copy) == before


def test_attach_and_vacuum_into_create_no_file(crawl_copy: Path, tmp_path: Path) -> None:
    before = digest(crawl_copy)
    for statement in (
        f"ATTACH DATABASE '{tmp_path / 'new.db'}' AS other",
        f"VACUUM INTO '{tmp_path / 'copy.db'}'",
    ):
        with pytest.raises(ReadOnlyViolation):
            sql(crawl_copy, statement)
    assert not (tmp_path / "new.db").exists()
    assert not (tmp_path / "copy.db").exists()
    assert digest(crawl_copy) == before


def test_a_second_statement_never_runs(crawl_copy: Path) -> None:
    before = digest(crawl_copy)
    with pytest.raises(UsageError):
        sql(crawl_copy, "SELECT 1; DELETE FROM crawl_log_entry")
    assert digest(crawl_copy) == before


def test_bad_sql_and_bad_files_are_one_line_errors(crawl_db: Path, tmp_path: Path) -> None:
    with pytest.raises(UnobError, match="SQL error: no such table: nope"):
        sql(crawl_db, "SELECT * FROM nope")
    with pytest.raises(UsageError):
        sql(crawl_db, "   ")
    with pytest.raises(UsageError):
        sql(crawl_db, "SELECT 1", "xml")
    with pytest.raises(NotADatabase, match="no such file"):
        sql(tmp_path / "absent.db", "SELECT 1")
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 10)
    with pytest.raises(NotADatabase, match="not an SQLite database"):
        sql(junk, "SELECT 1")


def test_db_shorthands() -> None:
    assert resolve_db("crawl") == Path("crawl.db")
    assert resolve_db("summary") == Path("summary.db")
    assert resolve_db("data/x.db") == Path("data/x.db")


def test_the_authorizer_alone_refuses_writes(crawl_copy: Path) -> None:
    """Layer 3 by itself: on a writable connection, the authorizer still stops writes."""
    import sqlite3

    from unob.query.readonly import _ReadOnlyAuthorizer

    before = digest(crawl_copy)
    conn = sqlite3.connect(crawl_copy, isolation_level=None)
    authorizer = _ReadOnlyAuthorizer()
    conn.set_authorizer(authorizer)
    try:
        with pytest.raises(sqlite3.DatabaseError, match="not authorized"):
            conn.execute("DELETE FROM crawl_log_entry")
        assert authorizer.refused == "DELETE"
        assert conn.execute("SELECT count(*) FROM crawl_log_entry").fetchone() == (18,)
    finally:
        conn.close()
    assert digest(crawl_copy) == before
