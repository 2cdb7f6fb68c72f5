"""docs/schema/*.md are generated from the migrations and cannot drift from them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine
from sqlalchemy.pool import NullPool

from unob.docgen import (
    SchemaInfo,
    load_schema,
    migrate_into,
    nullable_without_null_meaning,
    render_schema,
    schema_metadata,
    shadow_tables,
    stale_view_docs,
    undocumented,
)

DOCS = Path(__file__).resolve().parents[2] / "docs"
KINDS = ["crawl", "summary"]


@pytest.fixture(scope="module", params=KINDS)
def schema(request: pytest.FixtureRequest) -> SchemaInfo:
    return load_schema(request.param)


def test_every_nullable_column_says_what_null_means(schema: SchemaInfo) -> None:
    # The schema is public API: a user writing `WHERE x IS NULL` must know what it selects.
    assert nullable_without_null_meaning(schema) == []


def test_every_table_view_and_column_is_documented(schema: SchemaInfo) -> None:
    missing = undocumented(schema)
    assert missing == [], (
        f"document these in unob.schema.{schema.kind} (comment=) or unob.query.views: {missing}"
    )


def test_view_docs_name_only_existing_columns(schema: SchemaInfo) -> None:
    assert stale_view_docs(schema) == []


def test_checked_in_schema_doc_is_current(schema: SchemaInfo) -> None:
    path = DOCS / "schema" / f"{schema.kind}.md"
    assert path.read_text(encoding="utf-8") == render_schema(schema), (
        f"{path} is stale: run `python -m unob.docgen`"
    )


@pytest.mark.parametrize("kind", KINDS)
def test_schema_module_matches_the_migrations(kind: str, tmp_path: Path) -> None:
    """unob.schema.<kind> declares exactly what the migrations build (alembic autogenerate)."""
    path = tmp_path / f"{kind}.db"
    migrate_into(path, kind)
    raw = sqlite3.connect(path)
    outside_metadata = shadow_tables(raw) | {
        name
        for (name,) in raw.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL%'"
        )
    }
    raw.close()

    def include(obj: object, name: str | None, type_: str, reflected: bool, _cmp: object) -> bool:
        return not (type_ == "table" and reflected and name in outside_metadata)

    engine = create_engine(f"sqlite:///{path}", poolclass=NullPool)
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"include_object": include})
        differences = compare_metadata(context, schema_metadata(kind))
    engine.dispose()
    assert differences == []


def _master(path: Path) -> list[tuple[str, str, str, str]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
        ).fetchall()
    finally:
        conn.close()


@pytest.mark.parametrize("kind", KINDS)
def test_new_databases_from_the_snapshot_equal_migrated_ones(kind: str, tmp_path: Path) -> None:
    from unob.db import HEAD_REVISIONS, open_database
    from unob.docgen import stale_snapshots

    assert stale_snapshots() == []  # else: python -m unob.docgen
    migrated, snapshot = tmp_path / "migrated.db", tmp_path / "snapshot.db"
    migrate_into(migrated, kind)
    open_database(snapshot, kind).dispose()
    assert _master(snapshot) == _master(migrated)
    conn = sqlite3.connect(snapshot)
    try:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [
            (HEAD_REVISIONS[kind],)
        ]
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        conn.close()
    open_database(snapshot, kind).dispose()  # reopening needs no migration
