"""summary database: link_summary keeps its 24 flags in one `flags` bitmask

Revision ID: s0003
Revises: s0002
Create Date: 2026-11-22

Writing a link_summary row cost the summarizer 24 bound parameters and 24
stored values for the rel and location flags (python3-doc: 317 links a page).
The flags now live in one ``flags INTEGER`` (bit k = the k-th name of
``FLAG_NAMES`` below), and every old flag column stays readable under its
name as a VIRTUAL generated column ``(flags >> k) & 1``: computed when read,
not stored, so every query, view and export that names them keeps working,
and they cannot be written.  (SQLite does evaluate them on each insert: a
link row costs about 28,700 instructions to insert, against 34,200 with the
24 stored columns and 23,600 with no named columns at all.)  The bit order is public API (documented in
docs/summarizer.md and docs/schema/summary.md) and never changes: a new flag
takes the next free bit.

SQLite cannot add a generated column computed from existing columns to a
table that has rows, nor drop the 24 columns in place, so the table is
rebuilt (SQLite's "make other kinds of table schema changes" procedure):
create the new table, copy the rows with their flags packed, drop the old
table, rename the new one into place and recreate the index.  The view
``link_graph`` names link_summary; the migrations environment runs with
``legacy_alter_table=ON`` (unob.db.run_migrations_env), so the rename does
not re-check it, and it resolves to the new table again by name.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "s0003"
down_revision = "s0002"
branch_labels = None
depends_on = None

# Bit k of `flags` is FLAG_NAMES[k]: the order the columns had in s0001.
# Kept here verbatim (not imported) so that this migration never changes.
FLAG_NAMES = (
    "rel_nofollow",
    "rel_ugc",
    "rel_sponsored",
    "rel_noopener",
    "rel_noreferrer",
    "rel_me",
    "rel_tag",
    "in_nav",
    "in_header",
    "in_footer",
    "in_aside",
    "in_main",
    "in_article",
    "in_heading",
    "in_list",
    "in_form",
    "in_section",
    "in_table",
    "in_figure",
    "in_address",
    "in_code",
    "in_paragraph",
    "contains_heading",
    "in_main_content",
)
KEPT = (
    "entity_generation_id",
    "position",
    "to_url_id",
    "to_url_fragment",
    "text",
    "kind",
    "locality",
    "rel",
)
NEW = "_link_summary_s0003"


def _link_table(name: str, flag_columns: list[sa.Column[object]]) -> None:
    """Create link_summary's shape under ``name`` with ``flag_columns`` after ``rel``."""
    op.create_table(
        name,
        sa.Column("entity_generation_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("to_url_id", sa.Integer(), nullable=False),
        sa.Column("to_url_fragment", sa.Text(), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("kind", sa.Text(), nullable=False),
        sa.Column("locality", sa.Text(), nullable=False),
        sa.Column("rel", sa.Text(), nullable=True),
        *flag_columns,
        sa.ForeignKeyConstraint(
            ["entity_generation_id"],
            ["entity_generation.entity_generation_id"],
            name=op.f("fk_link_summary_entity_generation_id_entity_generation"),
        ),
        sa.ForeignKeyConstraint(
            ["to_url_id"], ["url.url_id"], name=op.f("fk_link_summary_to_url_id_url")
        ),
        sa.PrimaryKeyConstraint("entity_generation_id", "position", name=op.f("pk_link_summary")),
        sqlite_with_rowid=False,
    )


def _replace(select_flags: str, new_flag_columns: list[str]) -> None:
    """Copy link_summary into NEW (flags through ``select_flags``), then swap the tables."""
    kept = ", ".join(KEPT)
    op.execute(
        f"INSERT INTO {NEW} ({kept}, {', '.join(new_flag_columns)}) "
        f"SELECT {kept}, {select_flags} FROM link_summary "
        "ORDER BY entity_generation_id, position"
    )
    op.drop_index(op.f("ix_link_summary_to_url_id"), table_name="link_summary")
    op.drop_table("link_summary")
    op.rename_table(NEW, "link_summary")
    op.create_index(op.f("ix_link_summary_to_url_id"), "link_summary", ["to_url_id"])


def upgrade() -> None:
    # The generated columns come first and `flags` last, so `SELECT *` keeps the
    # old column order (with one more column at the end).
    _link_table(
        NEW,
        [
            sa.Column(name, sa.Boolean(), sa.Computed(f"(flags >> {bit}) & 1", persisted=False))
            for bit, name in enumerate(FLAG_NAMES)
        ]
        + [sa.Column("flags", sa.Integer(), nullable=False)],
    )
    _replace(
        " | ".join(f"(({name} <> 0) << {bit})" for bit, name in enumerate(FLAG_NAMES)), ["flags"]
    )


def downgrade() -> None:
    _link_table(NEW, [sa.Column(name, sa.Boolean(), nullable=False) for name in FLAG_NAMES])
    _replace(", ".join(f"(flags >> {bit}) & 1" for bit in range(len(FLAG_NAMES))), list(FLAG_NAMES))
