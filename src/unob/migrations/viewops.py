"""Helpers for migrations that create views (SQLite cannot ALTER a view).

A migration that adds or changes views keeps their full SQL, verbatim, in a
``{name: "CREATE VIEW name AS ..."}`` dict, and calls :func:`create_views` in
``upgrade`` and :func:`drop_views` in ``downgrade``.  To change a view later,
a new migration drops it and creates it again with its new text (and its
``downgrade`` restores the old text).
"""

from __future__ import annotations

from alembic import op


def create_views(views: dict[str, str]) -> None:
    for sql in views.values():
        op.execute(sql.strip())


def drop_views(views: dict[str, str]) -> None:
    for name in reversed(views):
        op.execute(f"DROP VIEW IF EXISTS {name}")
