"""Opening databases: creation, kind checks, refusal of junk and newer schemas."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import text

from unob.codes import ExitCode
from unob.db import HEAD_REVISIONS, head_revision, open_database
from unob.errors import DatabaseError, NotADatabase, SchemaTooNew, WrongDatabaseKind


def test_creates_crawl_db_with_identity_and_lookups(tmp_path: Path) -> None:
    engine = open_database(tmp_path / "c.db", "crawl")
    with engine.connect() as conn:
        info = dict(conn.execute(text("SELECT key, value FROM database_info")).all())
        assert info["kind"] == "crawl"
        assert len(info["database_uuid"]) == 36
        names = dict(conn.execute(text("SELECT code, name FROM exit_code")).all())
        assert names[int(ExitCode.FILE_NOT_FOUND)] == "file_not_found"
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
    engine.dispose()


def test_reopen_keeps_uuid(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    first = open_database(path, "crawl")
    with first.connect() as conn:
        uuid1 = conn.execute(text("SELECT value FROM database_info WHERE key='database_uuid'"))
        before = uuid1.scalar()
    first.dispose()
    again = open_database(path, "crawl")
    with again.connect() as conn:
        uuid2 = conn.execute(text("SELECT value FROM database_info WHERE key='database_uuid'"))
        assert uuid2.scalar() == before
    again.dispose()


def test_readonly_cannot_write(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    open_database(path, "crawl").dispose()
    reader = open_database(path, "crawl", readonly=True)
    with reader.connect() as conn, pytest.raises(Exception, match="readonly"):
        conn.execute(text("DELETE FROM exit_code"))
    reader.dispose()


def test_wrong_kind_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    open_database(path, "crawl").dispose()
    with pytest.raises(WrongDatabaseKind, match="is a unob crawl database, not a summary"):
        open_database(path, "summary", readonly=True)


@pytest.mark.parametrize("content", [b"hello, not a database" * 10, b"\x00\xff" * 100])
def test_junk_file_refused(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "junk.db"
    path.write_bytes(content)
    with pytest.raises(NotADatabase):
        open_database(path, "crawl")
    assert path.read_bytes() == content  # untouched


def test_foreign_sqlite_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (x)")
    with pytest.raises(NotADatabase, match="not a unob crawl database"):
        open_database(path, "crawl")


def test_missing_file_for_reader(tmp_path: Path) -> None:
    with pytest.raises(NotADatabase, match="no such file"):
        open_database(tmp_path / "nope.db", "crawl", readonly=True)
    with pytest.raises(NotADatabase, match="does not exist"):
        open_database(tmp_path / "no" / "dir.db", "crawl")


def test_newer_schema_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    open_database(path, "crawl").dispose()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE alembic_version SET version_num='zz9999'")
    for readonly in (False, True):
        with pytest.raises(SchemaTooNew, match="newer unob"):
            open_database(path, "crawl", readonly=readonly)
    assert issubclass(SchemaTooNew, DatabaseError)


@pytest.mark.parametrize("kind", ["crawl", "summary"])
def test_pinned_head_revision_is_the_migrations_head(kind: str) -> None:
    # A new migration must bump HEAD_REVISIONS, or databases at the old head
    # would be taken as current and never upgraded.
    assert HEAD_REVISIONS[kind] == head_revision(kind)


def test_database_at_head_opens_without_alembic(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    open_database(path, "crawl").dispose()
    script = (
        "import sys; from unob.db import open_database; "
        f"open_database({str(path)!r}, 'crawl').dispose(); "
        f"open_database({str(path)!r}, 'crawl', readonly=True).dispose(); "
        "print('alembic' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stderr


def test_an_interrupted_creation_leaves_a_file_that_opens_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import unob.db

    statements = unob.db.snapshot_statements("summary")
    broken = [*statements[:10], "CREATE TABLE broken (", *statements[10:]]
    monkeypatch.setattr(unob.db, "snapshot_statements", lambda kind: broken)
    path = tmp_path / "s.db"
    with pytest.raises(DatabaseError):
        open_database(path, "summary")
    monkeypatch.undo()
    open_database(path, "summary").dispose()  # created afresh, not "not a unob database"
