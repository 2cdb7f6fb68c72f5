"""Opening unob's SQLite databases: kind checks, pragmas, migrations.

Both databases are plain SQLite files in WAL mode, created and upgraded by
the Alembic migrations shipped inside the package (``unob/migrations/crawl``
and ``unob/migrations/summary``).  :func:`open_database` is the one way in:

* a writer (``readonly=False``) creates a missing file, upgrades an older
  schema to the head revision and records the database's kind;
* a reader (``readonly=True``) opens the file with SQLite's ``mode=ro``, so
  it cannot change it, and requires the head revision;
* either refuses, with one :class:`~unob.errors.DatabaseError` line, a file
  that is not SQLite, a unob database of the other kind, or a schema newer
  than this unob knows.

There is one writer per file; it batches its work into transactions.
"""

from __future__ import annotations

import sqlite3
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, MetaData, create_engine, event, text
from sqlalchemy.exc import DatabaseError as SADatabaseError
from sqlalchemy.pool import NullPool

from unob import __version__
from unob.codes import LOOKUP_TABLES, lookup_rows
from unob.errors import DatabaseError, NotADatabase, SchemaTooNew, WrongDatabaseKind
from unob.schema.base import DATABASE_KINDS

if TYPE_CHECKING:
    from alembic.config import Config

SQLITE_MAGIC = b"SQLite format 3\x00"
MIGRATIONS_DIR = Path(__file__).parent / "migrations"

#: The newest migration of each kind.  A database already there is opened
#: with plain SQL, without importing Alembic (about a second of start-up for
#: every command).  A test checks these against the migration scripts.
HEAD_REVISIONS = {"crawl": "c0002", "summary": "s0002"}


def _set_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # synchronous=NORMAL is safe in WAL mode against process crashes (kill -9):
    # a committed transaction is in the WAL file; only an OS crash may lose
    # the last few, never corrupt the database (sqlite.org/wal.html).
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def make_engine(path: Path, *, readonly: bool) -> Engine:
    """A SQLAlchemy engine on ``path`` with unob's pragmas (no checks, no migration)."""
    if readonly:
        url = f"sqlite+pysqlite:///file:{path.resolve()}?mode=ro&uri=true"
    else:
        url = f"sqlite+pysqlite:///{path.resolve()}"
    # NullPool: SQLite connections are cheap and a pool would keep file
    # handles open after the command is done with the database.
    engine = create_engine(url, poolclass=NullPool)
    event.listen(engine, "connect", _set_pragmas)
    return engine


def alembic_config(kind: str, connection: Connection | None = None) -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR / kind))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head_revision(kind: str) -> str:
    """The head revision according to the migration scripts (imports Alembic)."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config(kind)).get_current_head()
    assert head is not None, f"no migrations for {kind}"
    return head


def managed_only(
    _obj: object, _name: str | None, type_: str, reflected: bool, compare_to: object
) -> bool:
    """Alembic ``include_object``: leave alone tables the schema modules do not declare.

    Those are the FTS5 virtual table and its shadow tables, created with raw
    SQL in the migrations; without this filter autogenerate proposes dropping them.
    """
    return not (type_ == "table" and reflected and compare_to is None)


def run_migrations_env(metadata: MetaData) -> None:
    """Body of each migrations ``env.py``: run on the connection unob passes in."""
    from alembic import context

    connection = context.config.attributes.get("connection")
    if connection is None:  # pragma: no cover - alembic CLI use is not supported
        raise RuntimeError("unob migrations run through unob.db.open_database")
    # render_as_batch: SQLite cannot ALTER most things; batch mode copies tables.
    # Batch mode renames the copy into place, which SQLite refuses while a view
    # names the table ("error in view ...") unless the legacy rename is on.
    connection.exec_driver_sql("PRAGMA legacy_alter_table=ON")
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=True,
        include_object=managed_only,
    )
    with context.begin_transaction():
        context.run_migrations()


def _check_sqlite_file(path: Path) -> None:
    try:
        with path.open("rb") as handle:
            header = handle.read(16)
    except OSError as exc:
        raise NotADatabase(f"{path}: cannot read ({exc.strerror})") from exc
    if header and header != SQLITE_MAGIC:
        raise NotADatabase(f"{path}: not an SQLite database")


def _read_kind(conn: Connection) -> str | None:
    has_info = conn.execute(
        text("SELECT 1 FROM sqlite_master WHERE type='table' AND name='database_info'")
    ).first()
    if not has_info:
        return None
    row = conn.execute(text("SELECT value FROM database_info WHERE key='kind'")).first()
    return None if row is None else str(row[0])


def _has_tables(conn: Connection) -> bool:
    return conn.execute(text("SELECT 1 FROM sqlite_master WHERE type='table'")).first() is not None


def _current_revision(conn: Connection) -> str | None:
    has_version = conn.execute(
        text("SELECT 1 FROM sqlite_master WHERE type='table' AND name='alembic_version'")
    ).first()
    if not has_version:
        return None
    return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def _check_kind_and_revision(
    conn: Connection, path: Path, kind: str, *, readonly: bool
) -> str | None:
    """Refuse what cannot be opened as ``kind``; return the current revision."""
    found = _read_kind(conn)
    if found is None:
        if readonly or _has_tables(conn):
            raise NotADatabase(f"{path}: not a unob {kind} database")
        return None  # a new, empty file: the migrations will create it
    if found != kind:
        raise WrongDatabaseKind(f"{path}: is a unob {found} database, not a {kind} database")
    revision = _current_revision(conn)
    if revision == HEAD_REVISIONS[kind]:
        return revision
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config(kind))
    known = {rev.revision for rev in script.walk_revisions()}
    if revision is not None and revision not in known:
        raise SchemaTooNew(
            f"{path}: written by a newer unob (schema revision {revision}); upgrade unob"
        )
    if readonly:
        hint = "unob crawl --max-requests 0" if kind == "crawl" else "unob summarize"
        raise DatabaseError(
            f"{path}: has an older schema (revision {revision}); open it once with "
            f"`{hint}` to upgrade it"
        )
    return revision


def _record_identity(conn: Connection, kind: str) -> None:
    existing = {row[0] for row in conn.execute(text("SELECT key FROM database_info"))}
    defaults = {
        "kind": kind,
        "database_uuid": str(uuid.uuid4()),
        "created_unix_utc": str(int(time.time())),
        "created_by": f"unob {__version__}",
    }
    rows = [{"k": k, "v": v} for k, v in defaults.items() if k not in existing]
    if rows:
        conn.execute(text("INSERT INTO database_info (key, value) VALUES (:k, :v)"), rows)


def _sync_lookup_tables(conn: Connection) -> None:
    """Keep the lookup tables equal to :mod:`unob.codes` (new codes need no migration)."""
    for table in LOOKUP_TABLES:
        conn.execute(
            text(
                f"INSERT INTO {table} (code, name, meaning) VALUES (:code, :name, :meaning) "
                "ON CONFLICT(code) DO UPDATE SET name=excluded.name, meaning=excluded.meaning"
            ),
            lookup_rows(table),
        )


def open_database(path: Path | str, kind: str, *, readonly: bool = False) -> Engine:
    """Open (creating and upgrading when writable) a unob database of ``kind``.

    Raises :class:`~unob.errors.DatabaseError` subclasses with a one-line
    message for every problem a user can cause.
    """
    if kind not in DATABASE_KINDS:
        raise ValueError(f"unknown database kind {kind!r}")
    path = Path(path)
    if path.exists():
        if path.is_dir():
            raise NotADatabase(f"{path}: is a directory, not a database file")
        _check_sqlite_file(path)
    elif readonly:
        raise NotADatabase(f"{path}: no such file")
    elif not path.parent.exists():
        raise NotADatabase(f"{path}: directory {path.parent} does not exist")

    engine = make_engine(path, readonly=readonly)
    try:
        with engine.connect() as conn:
            revision = _check_kind_and_revision(conn, path, kind, readonly=readonly)
        if not readonly:
            with engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA journal_mode=WAL")
            with engine.begin() as conn:
                if revision != HEAD_REVISIONS[kind]:
                    from alembic import command

                    command.upgrade(alembic_config(kind, conn), "head")
                _record_identity(conn, kind)
                _sync_lookup_tables(conn)
    except SADatabaseError as exc:
        engine.dispose()
        orig = getattr(exc, "orig", exc)
        raise DatabaseError(f"{path}: {orig}") from exc
    except sqlite3.Error as exc:  # pragma: no cover - surfaced through SQLAlchemy normally
        engine.dispose()
        raise DatabaseError(f"{path}: {exc}") from exc
    except DatabaseError:
        engine.dispose()
        raise
    return engine
