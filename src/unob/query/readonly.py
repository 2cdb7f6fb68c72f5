"""Read-only SQLite connections for `unob sql` and `unob search`.

A user's SQL runs against the database behind three independent guards, so
that no single forgotten case lets a statement change anything:

1. the file is opened with the URI parameter ``mode=ro``: SQLite itself
   refuses every write to it (https://sqlite.org/uri.html);
2. ``PRAGMA query_only=ON``: the connection refuses every statement that
   would change a database file (https://sqlite.org/pragma.html#pragma_query_only);
3. an authorizer (https://sqlite.org/c3ref/set_authorizer.html) allows
   only what a query does: SELECT, reading columns, calling functions,
   recursive CTEs and a list of read-only PRAGMAs.  It is the guard that
   explains itself (one clear line), and the only one that stops ATTACH,
   which would otherwise create a new database file, and savepoints.

The authorizer runs when a statement is compiled, so a refused statement
never starts executing.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from unob.errors import NotADatabase, ReadOnlyViolation
from unob.sqlitefile import check_sqlite_header, tidy_after_reading

# PRAGMAs that never change anything, whatever their argument (the argument
# names a table, an index or a row count).
_READ_ONLY_PRAGMAS = frozenset(
    {
        "collation_list",
        "compile_options",
        "data_version",  # FTS5 reads it on every query
        "database_list",
        "foreign_key_check",
        "foreign_key_list",
        "freelist_count",
        "function_list",
        "index_info",
        "index_list",
        "index_xinfo",
        "integrity_check",
        "module_list",
        "page_count",
        "pragma_list",
        "quick_check",
        "table_info",
        "table_list",
        "table_xinfo",
    }
)
# PRAGMAs that only read when given no argument (`PRAGMA user_version` reads,
# `PRAGMA user_version = 3` writes).
_READ_ONLY_WITHOUT_ARGUMENT = frozenset(
    {
        "application_id",
        "auto_vacuum",
        "cache_size",
        "encoding",
        "foreign_keys",
        "journal_mode",
        "page_size",
        "query_only",
        "schema_version",
        "user_version",
    }
)
_ALWAYS_ALLOWED = frozenset(
    {
        sqlite3.SQLITE_SELECT,
        sqlite3.SQLITE_READ,
        sqlite3.SQLITE_FUNCTION,
        sqlite3.SQLITE_RECURSIVE,
    }
)
_SCHEMA_TABLES = frozenset({"sqlite_master", "sqlite_temp_master", "sqlite_schema"})

# Names of the authorizer's action codes, for the refusal message.
_ACTION_NAMES = {
    sqlite3.SQLITE_INSERT: "INSERT",
    sqlite3.SQLITE_UPDATE: "UPDATE",
    sqlite3.SQLITE_DELETE: "DELETE",
    sqlite3.SQLITE_ATTACH: "ATTACH",
    sqlite3.SQLITE_DETACH: "DETACH",
    sqlite3.SQLITE_ALTER_TABLE: "ALTER TABLE",
    sqlite3.SQLITE_ANALYZE: "ANALYZE",
    sqlite3.SQLITE_REINDEX: "REINDEX",
    sqlite3.SQLITE_TRANSACTION: "a transaction",
    sqlite3.SQLITE_SAVEPOINT: "SAVEPOINT",
    sqlite3.SQLITE_PRAGMA: "PRAGMA",
    sqlite3.SQLITE_CREATE_VTABLE: "CREATE VIRTUAL TABLE",
    sqlite3.SQLITE_DROP_VTABLE: "DROP VIRTUAL TABLE",
}
for _name in dir(sqlite3):
    # SQLITE_CREATE_TABLE, SQLITE_DROP_TEMP_VIEW, ... -> "CREATE TABLE", ...
    if _name.startswith(("SQLITE_CREATE_", "SQLITE_DROP_")):
        _ACTION_NAMES.setdefault(
            getattr(sqlite3, _name), _name.removeprefix("SQLITE_").replace("_", " ")
        )


class _ReadOnlyAuthorizer:
    """Allows reading; remembers the first refused action for the message.

    One statement is compiled per connection: ``started`` tells whether the
    statement has begun as a SELECT, because SQLite reports an UPDATE of
    ``sqlite_master`` while it sets up a table-valued PRAGMA function
    (``SELECT * FROM pragma_table_info('url')``), where nothing is written.
    """

    def __init__(self) -> None:
        self.refused: str | None = None
        self.started = False

    def __call__(
        self,
        action: int,
        arg1: str | None,
        arg2: str | None,
        _database: str | None,
        _trigger_or_view: str | None,
    ) -> int:
        if action in _ALWAYS_ALLOWED:
            self.started = True
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_PRAGMA and arg1 is not None:
            name = arg1.lower()
            if name in _READ_ONLY_PRAGMAS or (name in _READ_ONLY_WITHOUT_ARGUMENT and arg2 is None):
                self.started = True
                return sqlite3.SQLITE_OK
            self._refuse(f"PRAGMA {name}" + ("" if arg2 is None else f"={arg2}"))
            return sqlite3.SQLITE_DENY
        if self.started and action == sqlite3.SQLITE_UPDATE and arg1 in _SCHEMA_TABLES:
            return sqlite3.SQLITE_OK
        self._refuse(_ACTION_NAMES.get(action, f"action {action}"))
        return sqlite3.SQLITE_DENY

    def _refuse(self, what: str) -> None:
        if self.refused is None:
            self.refused = what


_OBJECT_WORDS = frozenset(
    {"TEMP", "TEMPORARY", "UNIQUE", "VIRTUAL", "TABLE", "VIEW", "INDEX", "TRIGGER"}
)


def statement_kind(sql: str, refused_action: str | None) -> str:
    """What a refused statement is, for the message: ``DROP VIEW``, ``VACUUM``, ...

    The leading keywords say it best; a statement that starts with WITH or
    EXPLAIN is named by the action the authorizer refused (``INSERT``), and a
    PRAGMA by the authorizer's ``PRAGMA name=value``.
    """
    text = re.sub(r"--[^\n]*|/\*.*?(\*/|$)", " ", sql, flags=re.S)
    words = [w.upper() for w in re.findall(r"[A-Za-z_]+", text)[:5]]
    if not words or words[0] in ("WITH", "EXPLAIN", "SELECT", "VALUES"):
        return refused_action or "the statement"
    if words[0] == "PRAGMA" and refused_action:
        return refused_action
    kind = [words[0]]
    if words[0] in ("CREATE", "DROP", "ALTER"):
        kind += [w for w in words[1:4] if w in _OBJECT_WORDS]
    return " ".join(kind)


def check_sqlite_file(path: Path) -> None:
    """Raise :class:`NotADatabase` unless ``path`` is an existing SQLite file."""
    if not path.exists():
        raise NotADatabase(f"{path}: no such file")
    if path.is_dir():
        raise NotADatabase(f"{path}: is a directory, not a database file")
    check_sqlite_header(path)


class ReadOnlyConnection:
    """An SQLite connection that can only read, with one statement at a time."""

    def __init__(self, path: Path) -> None:
        check_sqlite_file(path)
        self.path = path
        # isolation_level=None: no implicit BEGIN from the sqlite3 module.
        self.connection = sqlite3.connect(
            f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None
        )
        self.connection.execute("PRAGMA query_only=ON")
        self.connection.execute("PRAGMA busy_timeout=30000")
        self._authorizer = _ReadOnlyAuthorizer()
        self.connection.set_authorizer(self._authorizer)

    def execute(self, sql: str, parameters: tuple[object, ...] = ()) -> sqlite3.Cursor:
        """Compile and start ``sql``; a statement that would write raises ReadOnlyViolation."""
        self._authorizer.refused = None
        self._authorizer.started = False
        try:
            return self.connection.execute(sql, parameters)
        except sqlite3.DatabaseError as exc:
            refused = self._authorizer.refused
            if refused is not None or "readonly" in str(exc) or "read-only" in str(exc):
                what = statement_kind(sql, refused)
                raise ReadOnlyViolation(
                    f"refused: {what} would change the database; unob sql only reads"
                ) from exc
            raise

    def close(self) -> None:
        self.connection.close()
        tidy_after_reading(self.path)

    def __enter__(self) -> ReadOnlyConnection:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
