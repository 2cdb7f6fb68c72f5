"""An SQLite database as files on disk: its header, and the WAL files beside it.

Plain :mod:`sqlite3` only, so that ``unob sql`` and ``unob search`` can use it
without importing SQLAlchemy.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from unob.errors import NotADatabase

__all__ = ["SQLITE_MAGIC", "check_sqlite_header", "tidy_after_reading"]

#: the first 16 bytes of every SQLite database file (sqlite.org/fileformat.html §1.3)
SQLITE_MAGIC = b"SQLite format 3\x00"


def check_sqlite_header(path: Path, *, allow_empty: bool = False) -> None:
    """Raise :class:`NotADatabase` unless ``path`` starts like an SQLite file.

    ``allow_empty``: a zero-byte file passes (SQLite makes it a database on
    the first write, and an interrupted creation can leave one).
    """
    try:
        with path.open("rb") as handle:
            header = handle.read(16)
    except OSError as exc:
        raise NotADatabase(f"{path}: cannot read ({exc.strerror})") from exc
    if header != SQLITE_MAGIC and not (allow_empty and not header):
        raise NotADatabase(f"{path}: not an SQLite database")


def tidy_after_reading(path: Path) -> None:
    """Remove the empty ``-wal`` and ``-shm`` files a reader left beside ``path``.

    A connection opened with ``mode=ro`` to a WAL database creates these two
    files when they are missing, but may not delete them when it closes: only
    a connection that can write checkpoints and deletes them, and only when
    it is the last one open (sqlite.org/wal.html#read_only_databases).  So
    after a read-only command the directory kept two stray files.

    This opens one connection that could write (but is ``query_only``), reads
    the schema and closes, which lets SQLite itself do its usual last-closer
    cleanup.  That is safe beside a running writer: SQLite deletes nothing
    while another connection has the database open.  Nothing is done when
    the WAL holds data (a writer that crashed left it for the next writer to
    checkpoint: a read-only command must not write it into the database), or
    when the file or directory is not writable.
    """
    wal = Path(f"{path}-wal")
    try:
        if wal.stat().st_size != 0:
            return
    except OSError:
        return  # no WAL file: nothing to tidy
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True)
    except sqlite3.Error:
        return
    try:
        conn.execute("PRAGMA query_only=ON")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error:
        pass  # e.g. read-only directory or file: the files are harmless, leave them
    finally:
        conn.close()
