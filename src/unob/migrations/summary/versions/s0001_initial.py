"""summary database: initial schema, with the full-text index

Revision ID: s0001
Revises:
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "s0001"
down_revision = None
branch_labels = None
depends_on = None

# The full-text index is an FTS5 *external content* table over this view:
# the text lives once in text_pile / document_description, the index holds
# only the tokens, and snippet()/highlight() read the text back through the
# view by rowid (= entity_generation_id).  The view's WHERE clause is the
# membership rule (open, has text, not noindex), so
# `INSERT INTO search_index(search_index) VALUES('rebuild')` reproduces
# exactly what unob.summarizer.fts maintains incrementally.
# unicode61 without stemming: pages come in every language.
SEARCH_SOURCE_VIEW = """
CREATE VIEW search_index_source AS
SELECT eg.entity_generation_id AS entity_generation_id,
       coalesce(dd.title, '') AS title,
       coalesce(dd.description, '') AS description,
       tp.text AS text,
       tp.secondary_text AS secondary_text,
       tp.big_headlines AS big_headlines,
       tp.small_headlines AS small_headlines,
       tp.code_text AS code_text,
       tp.quote_text AS quote_text,
       u.str_url AS url
FROM entity_generation AS eg
JOIN text_pile AS tp ON tp.text_pile_id = eg.text_pile_id
JOIN url AS u ON u.url_id = eg.url_id
LEFT JOIN document_description AS dd ON dd.entity_generation_id = eg.entity_generation_id
LEFT JOIN file_summary AS fs ON fs.entity_generation_id = eg.entity_generation_id
WHERE eg.confirmed_end_unix_utc IS NULL AND NOT coalesce(fs.robots_noindex, 0)
"""

SEARCH_INDEX = """
CREATE VIRTUAL TABLE search_index USING fts5(
    title, description, text, secondary_text, big_headlines, small_headlines,
    code_text, quote_text, url,
    content='search_index_source', content_rowid='entity_generation_id',
    tokenize='unicode61 remove_diacritics 2'
)
"""


def upgrade() -> None:
    op.create_table(
        "crawl_source",
        sa.Column("crawl_source_id", sa.Integer(), nullable=False),
        sa.Column("database_uuid", sa.Text(), nullable=False),
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("high_water_crawl_log_entry_id", sa.Integer(), nullable=False),
        sa.Column("entries_integrated", sa.Integer(), nullable=False),
        sa.Column("first_integrated_unix_utc", sa.Integer(), nullable=False),
        sa.Column("last_integrated_unix_utc", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("crawl_source_id", name=op.f("pk_crawl_source")),
        sa.UniqueConstraint("database_uuid", name=op.f("uq_crawl_source_database_uuid")),
    )
    op.create_table(
        "crawl_type",
        sa.Column("code", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("meaning", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("code", name=op.f("pk_crawl_type")),
        sa.UniqueConstraint("name", name=op.f("uq_crawl_type_name")),
    )
    op.create_table(
        "database_info",
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_database_info")),
    )
    op.create_table(
        "exit_code",
        sa.Column("code", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("meaning", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("code", name=op.f("pk_exit_code")),
        sa.UniqueConstraint("name", name=op.f("uq_exit_code_name")),
    )
    op.create_table(
        "information_source",
        sa.Column("code", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("meaning", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("code", name=op.f("pk_information_source")),
        sa.UniqueConstraint("name", name=op.f("uq_information_source_name")),
    )
    op.create_table(
        "origin",
        sa.Column("origin_id", sa.Integer(), nullable=False),
        sa.Column("scheme", sa.Text(), nullable=False),
        sa.Column("host", sa.Text(), nullable=False),
        sa.Column("port", sa.Integer(), nullable=True),
        sa.Column("str_origin", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("origin_id", name=op.f("pk_origin")),
        sa.UniqueConstraint("str_origin", name=op.f("uq_origin_str_origin")),
    )
    op.create_table(
        "scheduling_reason",
        sa.Column("code", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("meaning", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("code", name=op.f("pk_scheduling_reason")),
        sa.UniqueConstraint("name", name=op.f("uq_scheduling_reason_name")),
    )
    op.create_table(
        "text_pile",
        sa.Column("text_pile_id", sa.Integer(), nullable=False),
        sa.Column("digest", sa.LargeBinary(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("secondary_text", sa.Text(), nullable=False),
        sa.Column("big_headlines", sa.Text(), nullable=False),
        sa.Column("small_headlines", sa.Text(), nullable=False),
        sa.Column("code_text", sa.Text(), nullable=False),
        sa.Column("quote_text", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("text_pile_id", name=op.f("pk_text_pile")),
        sa.UniqueConstraint("digest", name=op.f("uq_text_pile_digest")),
    )
    op.create_table(
        "url",
        sa.Column("url_id", sa.Integer(), nullable=False),
        sa.Column("origin_id", sa.Integer(), nullable=False),
        sa.Column("str_url", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["origin_id"], ["origin.origin_id"], name=op.f("fk_url_origin_id_origin")
        ),
        sa.PrimaryKeyConstraint("url_id", name=op.f("pk_url")),
        sa.UniqueConstraint("str_url", name=op.f("uq_url_str_url")),
    )
    with op.batch_alter_table("url", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_url_origin_id"), ["origin_id"], unique=False)

    op.create_table(
        "entity_generation",
        sa.Column("entity_generation_id", sa.Integer(), nullable=False),
        sa.Column("entity_generation_uuid", sa.Text(), nullable=False),
        sa.Column("url_id", sa.Integer(), nullable=False),
        sa.Column("url_fragment", sa.Text(), nullable=True),
        sa.Column("kind", sa.Text(), nullable=False),
        sa.Column("first_seen_unix_utc", sa.Integer(), nullable=False),
        sa.Column("last_seen_unix_utc", sa.Integer(), nullable=False),
        sa.Column("confirmed_end_unix_utc", sa.Integer(), nullable=True),
        sa.Column("marked_duplicate", sa.Boolean(), server_default=sa.text("0"), nullable=False),
        sa.Column("text_pile_id", sa.Integer(), nullable=True),
        sa.Column("content_signature", sa.LargeBinary(), nullable=False),
        sa.CheckConstraint("kind IN ('page', 'file', 'redirect')", name="kind"),
        sa.CheckConstraint("first_seen_unix_utc <= last_seen_unix_utc", name="seen_order"),
        sa.ForeignKeyConstraint(
            ["text_pile_id"],
            ["text_pile.text_pile_id"],
            name=op.f("fk_entity_generation_text_pile_id_text_pile"),
        ),
        sa.ForeignKeyConstraint(
            ["url_id"], ["url.url_id"], name=op.f("fk_entity_generation_url_id_url")
        ),
        sa.PrimaryKeyConstraint("entity_generation_id", name=op.f("pk_entity_generation")),
        sa.UniqueConstraint(
            "entity_generation_uuid", name=op.f("uq_entity_generation_entity_generation_uuid")
        ),
    )
    with op.batch_alter_table("entity_generation", schema=None) as batch_op:
        batch_op.create_index(
            "ix_entity_generation_first_seen", ["first_seen_unix_utc"], unique=False
        )
        batch_op.create_index(
            "ix_entity_generation_open_url",
            ["url_id"],
            unique=True,
            sqlite_where=sa.text("confirmed_end_unix_utc IS NULL AND url_fragment IS NULL"),
        )
        batch_op.create_index(
            batch_op.f("ix_entity_generation_text_pile_id"), ["text_pile_id"], unique=False
        )

    op.create_table(
        "crawl_summary",
        sa.Column("crawl_summary_id", sa.Integer(), nullable=False),
        sa.Column("entity_generation_id", sa.Integer(), nullable=True),
        sa.Column("crawl_uuid", sa.Text(), nullable=False),
        sa.Column("crawl_source_id", sa.Integer(), nullable=False),
        sa.Column("crawl_log_entry_id", sa.Integer(), nullable=False),
        sa.Column("url_id", sa.Integer(), nullable=False),
        sa.Column("agent_uuid", sa.Text(), nullable=False),
        sa.Column("crawl_type", sa.Integer(), nullable=False),
        sa.Column("scheduling_reason", sa.Integer(), nullable=False),
        sa.Column("time_started_unix_utc", sa.Integer(), nullable=False),
        sa.Column("was_robotstxt_approved", sa.Boolean(), nullable=True),
        sa.Column("exit_code", sa.Integer(), nullable=False),
        sa.Column("message", sa.Text(), nullable=True),
        sa.Column("request_duration_ms", sa.Integer(), nullable=True),
        sa.Column("request_count", sa.Integer(), nullable=False),
        sa.Column("time_last_modified_unix_utc", sa.Integer(), nullable=True),
        sa.Column("http_status", sa.Integer(), nullable=True),
        sa.Column("http_etag", sa.Text(), nullable=True),
        sa.Column("content_type", sa.Text(), nullable=True),
        sa.Column("summarizer_action", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["crawl_source_id"],
            ["crawl_source.crawl_source_id"],
            name=op.f("fk_crawl_summary_crawl_source_id_crawl_source"),
        ),
        sa.ForeignKeyConstraint(
            ["entity_generation_id"],
            ["entity_generation.entity_generation_id"],
            name=op.f("fk_crawl_summary_entity_generation_id_entity_generation"),
        ),
        sa.ForeignKeyConstraint(
            ["url_id"], ["url.url_id"], name=op.f("fk_crawl_summary_url_id_url")
        ),
        sa.PrimaryKeyConstraint("crawl_summary_id", name=op.f("pk_crawl_summary")),
        sa.UniqueConstraint("crawl_uuid", name=op.f("uq_crawl_summary_crawl_uuid")),
    )
    with op.batch_alter_table("crawl_summary", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_crawl_summary_entity_generation_id"),
            ["entity_generation_id"],
            unique=False,
        )

    op.create_table(
        "document_description",
        sa.Column("entity_generation_id", sa.Integer(), nullable=False),
        sa.Column("title", sa.Text(), nullable=True),
        sa.Column("primary_headline", sa.Text(), nullable=True),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("primary_language", sa.Text(), nullable=True),
        sa.Column("keywords", sa.Text(), nullable=True),
        sa.Column("author", sa.Text(), nullable=True),
        sa.Column("image", sa.Text(), nullable=True),
        sa.Column("category", sa.Text(), nullable=True),
        sa.Column("published_unix_utc", sa.Integer(), nullable=True),
        sa.Column("modified_unix_utc", sa.Integer(), nullable=True),
        sa.Column("canonical_url", sa.Text(), nullable=True),
        sa.Column("word_count", sa.Integer(), nullable=False),
        sa.Column("indexiness", sa.Integer(), nullable=False),
        sa.Column("robots", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["entity_generation_id"],
            ["entity_generation.entity_generation_id"],
            name=op.f("fk_document_description_entity_generation_id_entity_generation"),
        ),
        sa.PrimaryKeyConstraint("entity_generation_id", name=op.f("pk_document_description")),
    )
    op.create_table(
        "duplicate_summary",
        sa.Column("duplicate_summary_id", sa.Integer(), nullable=False),
        sa.Column("subject_entity_generation_id", sa.Integer(), nullable=False),
        sa.Column("original_entity_generation_id", sa.Integer(), nullable=False),
        sa.Column("detected_unix_utc", sa.Integer(), nullable=False),
        sa.Column("ended_unix_utc", sa.Integer(), nullable=True),
        sa.CheckConstraint(
            "subject_entity_generation_id <> original_entity_generation_id", name="not_self"
        ),
        sa.ForeignKeyConstraint(
            ["original_entity_generation_id"],
            ["entity_generation.entity_generation_id"],
            name=op.f("fk_duplicate_summary_original_entity_generation_id_entity_generation"),
        ),
        sa.ForeignKeyConstraint(
            ["subject_entity_generation_id"],
            ["entity_generation.entity_generation_id"],
            name=op.f("fk_duplicate_summary_subject_entity_generation_id_entity_generation"),
        ),
        sa.PrimaryKeyConstraint("duplicate_summary_id", name=op.f("pk_duplicate_summary")),
    )
    with op.batch_alter_table("duplicate_summary", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_duplicate_summary_original_entity_generation_id"),
            ["original_entity_generation_id"],
            unique=False,
        )
        batch_op.create_index(
            batch_op.f("ix_duplicate_summary_subject_entity_generation_id"),
            ["subject_entity_generation_id"],
            unique=False,
        )

    op.create_table(
        "file_summary",
        sa.Column("entity_generation_id", sa.Integer(), nullable=False),
        sa.Column("mime_type", sa.Text(), nullable=True),
        sa.Column("charset", sa.Text(), nullable=True),
        sa.Column("file_size", sa.Integer(), nullable=True),
        sa.Column("content_sha256", sa.Text(), nullable=True),
        sa.Column("last_modified_unix_utc", sa.Integer(), nullable=True),
        sa.Column("canonical_url_id", sa.Integer(), nullable=True),
        sa.Column("depth", sa.Integer(), nullable=True),
        sa.Column("robots_noindex", sa.Boolean(), nullable=False),
        sa.Column("robots_nofollow", sa.Boolean(), nullable=False),
        sa.Column("link_count", sa.Integer(), nullable=False),
        sa.Column("derive_error", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["canonical_url_id"], ["url.url_id"], name=op.f("fk_file_summary_canonical_url_id_url")
        ),
        sa.ForeignKeyConstraint(
            ["entity_generation_id"],
            ["entity_generation.entity_generation_id"],
            name=op.f("fk_file_summary_entity_generation_id_entity_generation"),
        ),
        sa.PrimaryKeyConstraint("entity_generation_id", name=op.f("pk_file_summary")),
    )
    op.create_table(
        "heading",
        sa.Column("entity_generation_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("anchor", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["entity_generation_id"],
            ["entity_generation.entity_generation_id"],
            name=op.f("fk_heading_entity_generation_id_entity_generation"),
        ),
        sa.PrimaryKeyConstraint("entity_generation_id", "position", name=op.f("pk_heading")),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "image",
        sa.Column("entity_generation_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("src", sa.Text(), nullable=False),
        sa.Column("alt", sa.Text(), nullable=True),
        sa.Column("width", sa.Integer(), nullable=True),
        sa.Column("height", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["entity_generation_id"],
            ["entity_generation.entity_generation_id"],
            name=op.f("fk_image_entity_generation_id_entity_generation"),
        ),
        sa.PrimaryKeyConstraint("entity_generation_id", "position", name=op.f("pk_image")),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "link_summary",
        sa.Column("entity_generation_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("to_url_id", sa.Integer(), nullable=False),
        sa.Column("to_url_fragment", sa.Text(), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("kind", sa.Text(), nullable=False),
        sa.Column("locality", sa.Text(), nullable=False),
        sa.Column("rel", sa.Text(), nullable=True),
        sa.Column("rel_nofollow", sa.Boolean(), nullable=False),
        sa.Column("rel_ugc", sa.Boolean(), nullable=False),
        sa.Column("rel_sponsored", sa.Boolean(), nullable=False),
        sa.Column("rel_noopener", sa.Boolean(), nullable=False),
        sa.Column("rel_noreferrer", sa.Boolean(), nullable=False),
        sa.Column("rel_me", sa.Boolean(), nullable=False),
        sa.Column("rel_tag", sa.Boolean(), nullable=False),
        sa.Column("in_nav", sa.Boolean(), nullable=False),
        sa.Column("in_header", sa.Boolean(), nullable=False),
        sa.Column("in_footer", sa.Boolean(), nullable=False),
        sa.Column("in_aside", sa.Boolean(), nullable=False),
        sa.Column("in_main", sa.Boolean(), nullable=False),
        sa.Column("in_article", sa.Boolean(), nullable=False),
        sa.Column("in_heading", sa.Boolean(), nullable=False),
        sa.Column("in_list", sa.Boolean(), nullable=False),
        sa.Column("in_form", sa.Boolean(), nullable=False),
        sa.Column("in_section", sa.Boolean(), nullable=False),
        sa.Column("in_table", sa.Boolean(), nullable=False),
        sa.Column("in_figure", sa.Boolean(), nullable=False),
        sa.Column("in_address", sa.Boolean(), nullable=False),
        sa.Column("in_code", sa.Boolean(), nullable=False),
        sa.Column("in_paragraph", sa.Boolean(), nullable=False),
        sa.Column("contains_heading", sa.Boolean(), nullable=False),
        sa.Column("in_main_content", sa.Boolean(), nullable=False),
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
    with op.batch_alter_table("link_summary", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_link_summary_to_url_id"), ["to_url_id"], unique=False)

    op.create_table(
        "redirect_summary",
        sa.Column("entity_generation_id", sa.Integer(), nullable=False),
        sa.Column("to_url_id", sa.Integer(), nullable=False),
        sa.Column("to_url_fragment", sa.Text(), nullable=True),
        sa.Column("http_status", sa.Integer(), nullable=True),
        sa.Column("is_permanent", sa.Boolean(), nullable=False),
        sa.Column("by_security_policy", sa.Boolean(), nullable=False),
        sa.Column("information_source", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["entity_generation_id"],
            ["entity_generation.entity_generation_id"],
            name=op.f("fk_redirect_summary_entity_generation_id_entity_generation"),
        ),
        sa.ForeignKeyConstraint(
            ["to_url_id"], ["url.url_id"], name=op.f("fk_redirect_summary_to_url_id_url")
        ),
        sa.PrimaryKeyConstraint("entity_generation_id", name=op.f("pk_redirect_summary")),
    )
    with op.batch_alter_table("redirect_summary", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_redirect_summary_to_url_id"), ["to_url_id"], unique=False
        )

    op.execute(SEARCH_SOURCE_VIEW)
    op.execute(SEARCH_INDEX)


def downgrade() -> None:
    op.execute("DROP TABLE search_index")
    op.execute("DROP VIEW search_index_source")
    with op.batch_alter_table("redirect_summary", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_redirect_summary_to_url_id"))

    op.drop_table("redirect_summary")
    with op.batch_alter_table("link_summary", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_link_summary_to_url_id"))

    op.drop_table("link_summary")
    op.drop_table("image")
    op.drop_table("heading")
    op.drop_table("file_summary")
    with op.batch_alter_table("duplicate_summary", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_duplicate_summary_subject_entity_generation_id"))
        batch_op.drop_index(batch_op.f("ix_duplicate_summary_original_entity_generation_id"))

    op.drop_table("duplicate_summary")
    op.drop_table("document_description")
    with op.batch_alter_table("crawl_summary", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_crawl_summary_entity_generation_id"))

    op.drop_table("crawl_summary")
    with op.batch_alter_table("entity_generation", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_entity_generation_text_pile_id"))
        batch_op.drop_index(
            "ix_entity_generation_open_url",
            sqlite_where=sa.text("confirmed_end_unix_utc IS NULL AND url_fragment IS NULL"),
        )
        batch_op.drop_index("ix_entity_generation_first_seen")

    op.drop_table("entity_generation")
    with op.batch_alter_table("url", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_url_origin_id"))

    op.drop_table("url")
    op.drop_table("text_pile")
    op.drop_table("scheduling_reason")
    op.drop_table("origin")
    op.drop_table("information_source")
    op.drop_table("exit_code")
    op.drop_table("database_info")
    op.drop_table("crawl_type")
    op.drop_table("crawl_source")
