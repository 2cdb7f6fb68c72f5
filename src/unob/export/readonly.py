"""A unob database opened read-only, as a plain sqlite3 connection.

Exports stream many rows with hand-written SQL; the raw DB-API cursor does
that with the least overhead.  The file is still opened through
:func:`unob.db.open_database`, so its kind and schema revision are checked
and SQLite's ``mode=ro`` guarantees it is not changed.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..db import open_database
from ..errors import DatabaseError
from ..sqlitefile import tidy_after_reading

__all__ = ["ReadOnlyDb"]


class ReadOnlyDb:
    """One read-only connection to a crawl or summary database."""

    def __init__(self, path: Path, kind: str) -> None:
        self.path = Path(path)
        self._engine = open_database(self.path, kind, readonly=True)
        self._raw = self._engine.raw_connection()
        conn = self._raw.driver_connection
        assert isinstance(conn, sqlite3.Connection)
        self.connection = conn

    def query(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        """Run one statement; SQLite errors become one-line DatabaseErrors."""
        try:
            return self.connection.execute(sql, params)
        except sqlite3.Error as error:
            raise DatabaseError(f"{self.path}: {error}") from error

    def close(self) -> None:
        self._raw.close()
        self._engine.dispose()
        tidy_after_reading(self.path)
