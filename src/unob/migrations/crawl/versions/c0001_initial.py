"""crawl database: initial schema

Revision ID: c0001
Revises:
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "c0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "agent",
        sa.Column("agent_id", sa.Integer(), nullable=False),
        sa.Column("agent_uuid", sa.Text(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("http_user_agent", sa.Text(), nullable=True),
        sa.Column("time_started_unix_utc", sa.Integer(), nullable=False),
        sa.Column("time_finished_unix_utc", sa.Integer(), nullable=True),
        sa.Column("settings_json", sa.Text(), nullable=True),
        sa.Column("unob_version", sa.Text(), nullable=True),
        sa.Column("stop_reason", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("agent_id", name=op.f("pk_agent")),
        sa.UniqueConstraint("agent_uuid", name=op.f("uq_agent_agent_uuid")),
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
        "file_content",
        sa.Column("file_content_id", sa.Integer(), nullable=False),
        sa.Column("sha256", sa.Text(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("compression", sa.Text(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("file_content_id", name=op.f("pk_file_content")),
        sa.UniqueConstraint("sha256", name=op.f("uq_file_content_sha256")),
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
        "crawl_candidate",
        sa.Column("url_id", sa.Integer(), nullable=False),
        sa.Column("origin_id", sa.Integer(), nullable=False),
        sa.Column("crawl_type", sa.Integer(), nullable=False),
        sa.Column("depth", sa.Integer(), nullable=False),
        sa.Column("discovered_via_url_id", sa.Integer(), nullable=True),
        sa.Column("discovered_unix_utc", sa.Integer(), nullable=False),
        sa.Column("scheduling_reason", sa.Integer(), nullable=False),
        sa.Column("last_crawl_unix_utc", sa.Integer(), nullable=True),
        sa.Column("last_crawl_exit_code", sa.Integer(), nullable=True),
        sa.Column("last_crawl_agent_id", sa.Integer(), nullable=True),
        sa.Column("last_contentful_crawl_unix_utc", sa.Integer(), nullable=True),
        sa.Column("last_contentful_http_etag", sa.Text(), nullable=True),
        sa.Column("last_contentful_last_modified_unix_utc", sa.Integer(), nullable=True),
        sa.Column("next_due_unix_utc", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["discovered_via_url_id"],
            ["url.url_id"],
            name=op.f("fk_crawl_candidate_discovered_via_url_id_url"),
        ),
        sa.ForeignKeyConstraint(
            ["last_crawl_agent_id"],
            ["agent.agent_id"],
            name=op.f("fk_crawl_candidate_last_crawl_agent_id_agent"),
        ),
        sa.ForeignKeyConstraint(
            ["origin_id"], ["origin.origin_id"], name=op.f("fk_crawl_candidate_origin_id_origin")
        ),
        sa.ForeignKeyConstraint(
            ["url_id"], ["url.url_id"], name=op.f("fk_crawl_candidate_url_id_url")
        ),
        sa.PrimaryKeyConstraint("url_id", name=op.f("pk_crawl_candidate")),
    )
    with op.batch_alter_table("crawl_candidate", schema=None) as batch_op:
        batch_op.create_index(
            "ix_crawl_candidate_due", ["next_due_unix_utc", "depth"], unique=False
        )
        batch_op.create_index(
            "ix_crawl_candidate_origin_due", ["origin_id", "next_due_unix_utc"], unique=False
        )
        batch_op.create_index(
            "ix_crawl_candidate_unexplored",
            ["origin_id", "depth", "url_id"],
            unique=False,
            sqlite_where=sa.text("last_crawl_unix_utc IS NULL AND next_due_unix_utc IS NOT NULL"),
        )

    op.create_table(
        "crawl_log_entry",
        sa.Column("crawl_log_entry_id", sa.Integer(), nullable=False),
        sa.Column("crawl_log_entry_uuid", sa.Text(), nullable=False),
        sa.Column("agent_id", sa.Integer(), nullable=False),
        sa.Column("url_id", sa.Integer(), nullable=False),
        sa.Column("crawl_type", sa.Integer(), nullable=False),
        sa.Column("scheduling_reason", sa.Integer(), nullable=False),
        sa.Column("started_unix_utc", sa.Integer(), nullable=False),
        sa.Column("started_unix_ms", sa.Integer(), nullable=False),
        sa.Column("time_taken_ms", sa.Integer(), nullable=True),
        sa.Column("exit_code", sa.Integer(), nullable=False),
        sa.Column("message", sa.Text(), nullable=True),
        sa.Column("depth", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["agent_id"], ["agent.agent_id"], name=op.f("fk_crawl_log_entry_agent_id_agent")
        ),
        sa.ForeignKeyConstraint(
            ["url_id"], ["url.url_id"], name=op.f("fk_crawl_log_entry_url_id_url")
        ),
        sa.PrimaryKeyConstraint("crawl_log_entry_id", name=op.f("pk_crawl_log_entry")),
        sa.UniqueConstraint(
            "crawl_log_entry_uuid", name=op.f("uq_crawl_log_entry_crawl_log_entry_uuid")
        ),
    )
    with op.batch_alter_table("crawl_log_entry", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_crawl_log_entry_agent_id"), ["agent_id"], unique=False)
        batch_op.create_index(
            "ix_crawl_log_entry_url_id_entry", ["url_id", "crawl_log_entry_id"], unique=False
        )

    op.create_table(
        "request_info",
        sa.Column("request_info_id", sa.Integer(), nullable=False),
        sa.Column("crawl_log_entry_id", sa.Integer(), nullable=False),
        sa.Column("url_id", sa.Integer(), nullable=False),
        sa.Column("sent_unix_utc", sa.Integer(), nullable=False),
        sa.Column("sent_unix_ms", sa.Integer(), nullable=False),
        sa.Column("duration_ms", sa.Integer(), nullable=True),
        sa.Column("robotstxt_approved", sa.Boolean(), nullable=False),
        sa.Column("is_retry", sa.Boolean(), nullable=False),
        sa.Column("http_status", sa.Integer(), nullable=True),
        sa.Column("http_etag", sa.Text(), nullable=True),
        sa.Column("server_last_modified_unix_utc", sa.Integer(), nullable=True),
        sa.Column("content_type", sa.Text(), nullable=True),
        sa.Column("content_encoding", sa.Text(), nullable=True),
        sa.Column("body_bytes", sa.Integer(), nullable=True),
        sa.Column("retry_after_s", sa.Integer(), nullable=True),
        sa.Column("x_robots_tag", sa.Text(), nullable=True),
        sa.Column("exit_code", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["crawl_log_entry_id"],
            ["crawl_log_entry.crawl_log_entry_id"],
            name=op.f("fk_request_info_crawl_log_entry_id_crawl_log_entry"),
        ),
        sa.ForeignKeyConstraint(
            ["url_id"], ["url.url_id"], name=op.f("fk_request_info_url_id_url")
        ),
        sa.PrimaryKeyConstraint("request_info_id", name=op.f("pk_request_info")),
    )
    with op.batch_alter_table("request_info", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_request_info_crawl_log_entry_id"), ["crawl_log_entry_id"], unique=False
        )

    op.create_table(
        "file_info",
        sa.Column("file_info_id", sa.Integer(), nullable=False),
        sa.Column("crawl_log_entry_id", sa.Integer(), nullable=False),
        sa.Column("request_info_id", sa.Integer(), nullable=True),
        sa.Column("url_id", sa.Integer(), nullable=False),
        sa.Column("mime_type", sa.Text(), nullable=True),
        sa.Column("charset", sa.Text(), nullable=True),
        sa.Column("size", sa.Integer(), nullable=True),
        sa.Column("last_modified_unix_utc", sa.Integer(), nullable=True),
        sa.Column("canonical_url_id", sa.Integer(), nullable=True),
        sa.Column("file_content_id", sa.Integer(), nullable=True),
        sa.Column("depth", sa.Integer(), nullable=True),
        sa.Column("robots_noindex", sa.Boolean(), nullable=False),
        sa.Column("robots_nofollow", sa.Boolean(), nullable=False),
        sa.Column("links_found", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["canonical_url_id"], ["url.url_id"], name=op.f("fk_file_info_canonical_url_id_url")
        ),
        sa.ForeignKeyConstraint(
            ["crawl_log_entry_id"],
            ["crawl_log_entry.crawl_log_entry_id"],
            name=op.f("fk_file_info_crawl_log_entry_id_crawl_log_entry"),
        ),
        sa.ForeignKeyConstraint(
            ["file_content_id"],
            ["file_content.file_content_id"],
            name=op.f("fk_file_info_file_content_id_file_content"),
        ),
        sa.ForeignKeyConstraint(
            ["request_info_id"],
            ["request_info.request_info_id"],
            name=op.f("fk_file_info_request_info_id_request_info"),
        ),
        sa.ForeignKeyConstraint(["url_id"], ["url.url_id"], name=op.f("fk_file_info_url_id_url")),
        sa.PrimaryKeyConstraint("file_info_id", name=op.f("pk_file_info")),
    )
    with op.batch_alter_table("file_info", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_file_info_crawl_log_entry_id"), ["crawl_log_entry_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_file_info_file_content_id"), ["file_content_id"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_file_info_url_id"), ["url_id"], unique=False)

    op.create_table(
        "redirect",
        sa.Column("redirect_id", sa.Integer(), nullable=False),
        sa.Column("crawl_log_entry_id", sa.Integer(), nullable=False),
        sa.Column("request_info_id", sa.Integer(), nullable=True),
        sa.Column("url_id", sa.Integer(), nullable=False),
        sa.Column("to_url_id", sa.Integer(), nullable=False),
        sa.Column("to_url_fragment", sa.Text(), nullable=True),
        sa.Column("http_status", sa.Integer(), nullable=True),
        sa.Column("is_permanent", sa.Boolean(), nullable=False),
        sa.Column("by_security_policy", sa.Boolean(), nullable=False),
        sa.Column("information_source", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["crawl_log_entry_id"],
            ["crawl_log_entry.crawl_log_entry_id"],
            name=op.f("fk_redirect_crawl_log_entry_id_crawl_log_entry"),
        ),
        sa.ForeignKeyConstraint(
            ["request_info_id"],
            ["request_info.request_info_id"],
            name=op.f("fk_redirect_request_info_id_request_info"),
        ),
        sa.ForeignKeyConstraint(
            ["to_url_id"], ["url.url_id"], name=op.f("fk_redirect_to_url_id_url")
        ),
        sa.ForeignKeyConstraint(["url_id"], ["url.url_id"], name=op.f("fk_redirect_url_id_url")),
        sa.PrimaryKeyConstraint("redirect_id", name=op.f("pk_redirect")),
    )
    with op.batch_alter_table("redirect", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_redirect_crawl_log_entry_id"), ["crawl_log_entry_id"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_redirect_to_url_id"), ["to_url_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("redirect", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_redirect_to_url_id"))
        batch_op.drop_index(batch_op.f("ix_redirect_crawl_log_entry_id"))

    op.drop_table("redirect")
    with op.batch_alter_table("file_info", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_file_info_url_id"))
        batch_op.drop_index(batch_op.f("ix_file_info_file_content_id"))
        batch_op.drop_index(batch_op.f("ix_file_info_crawl_log_entry_id"))

    op.drop_table("file_info")
    with op.batch_alter_table("request_info", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_request_info_crawl_log_entry_id"))

    op.drop_table("request_info")
    with op.batch_alter_table("crawl_log_entry", schema=None) as batch_op:
        batch_op.drop_index("ix_crawl_log_entry_url_id_entry")
        batch_op.drop_index(batch_op.f("ix_crawl_log_entry_agent_id"))

    op.drop_table("crawl_log_entry")
    with op.batch_alter_table("crawl_candidate", schema=None) as batch_op:
        batch_op.drop_index("ix_crawl_candidate_unexplored")
        batch_op.drop_index("ix_crawl_candidate_origin_due")
        batch_op.drop_index("ix_crawl_candidate_due")

    op.drop_table("crawl_candidate")
    with op.batch_alter_table("url", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_url_origin_id"))

    op.drop_table("url")
    op.drop_table("scheduling_reason")
    op.drop_table("origin")
    op.drop_table("information_source")
    op.drop_table("file_content")
    op.drop_table("exit_code")
    op.drop_table("database_info")
    op.drop_table("crawl_type")
    op.drop_table("agent")
