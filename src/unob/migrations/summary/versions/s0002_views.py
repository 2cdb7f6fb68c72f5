"""summary database: views for ad-hoc SQL (current_page, duplicate_view, link_graph, ...)

Revision ID: s0002
Revises: s0001
Create Date: 2026-11-21

The views are part of the public schema (docs/schema/summary.md documents
every column; the meanings live in unob.query.views).  SQLite cannot ALTER a
view: a later migration that changes one drops it and creates it again with
its full text, so each migration keeps the SQL it created, verbatim.

Every view names its columns explicitly (no ``SELECT *``): columns added to
the tables later do not change a view's shape.  Times are shown twice, as the
stored Unix seconds and as ISO-8601 UTC text (``strftime`` with 'unixepoch').
"""

from __future__ import annotations

from unob.migrations.viewops import create_views, drop_views

revision = "s0002"
down_revision = "s0001"
branch_labels = None
depends_on = None

# "The current web": open generations that are pages and not marked duplicate.
CURRENT_PAGE = """
CREATE VIEW current_page AS
SELECT
    eg.entity_generation_id,
    eg.entity_generation_uuid,
    eg.url_id,
    u.str_url AS url,
    o.str_origin AS origin,
    o.host,
    dd.title,
    dd.primary_headline,
    dd.description,
    dd.primary_language,
    dd.word_count,
    dd.indexiness,
    dd.author,
    dd.published_unix_utc,
    strftime('%Y-%m-%dT%H:%M:%SZ', dd.published_unix_utc, 'unixepoch') AS published_iso_utc,
    dd.modified_unix_utc,
    strftime('%Y-%m-%dT%H:%M:%SZ', dd.modified_unix_utc, 'unixepoch') AS modified_iso_utc,
    fs.mime_type,
    fs.file_size,
    fs.link_count,
    fs.depth,
    cu.str_url AS canonical_url,
    eg.first_seen_unix_utc,
    strftime('%Y-%m-%dT%H:%M:%SZ', eg.first_seen_unix_utc, 'unixepoch') AS first_seen_iso_utc,
    eg.last_seen_unix_utc,
    strftime('%Y-%m-%dT%H:%M:%SZ', eg.last_seen_unix_utc, 'unixepoch') AS last_seen_iso_utc,
    eg.text_pile_id
FROM entity_generation AS eg
JOIN url AS u ON u.url_id = eg.url_id
JOIN origin AS o ON o.origin_id = u.origin_id
LEFT JOIN document_description AS dd ON dd.entity_generation_id = eg.entity_generation_id
LEFT JOIN file_summary AS fs ON fs.entity_generation_id = eg.entity_generation_id
LEFT JOIN url AS cu ON cu.url_id = fs.canonical_url_id
WHERE eg.confirmed_end_unix_utc IS NULL
  AND eg.marked_duplicate = 0
  AND eg.kind = 'page'
"""

# Every generation of every URL, with a state, for history questions.
GENERATION_VIEW = """
CREATE VIEW generation_view AS
SELECT
    eg.entity_generation_id,
    eg.entity_generation_uuid,
    eg.url_id,
    u.str_url AS url,
    o.str_origin AS origin,
    eg.kind,
    CASE
        WHEN eg.confirmed_end_unix_utc IS NOT NULL THEN 'closed'
        WHEN eg.marked_duplicate THEN 'duplicate'
        ELSE 'current'
    END AS state,
    dd.title,
    dd.word_count,
    eg.text_pile_id,
    eg.first_seen_unix_utc,
    strftime('%Y-%m-%dT%H:%M:%SZ', eg.first_seen_unix_utc, 'unixepoch') AS first_seen_iso_utc,
    eg.last_seen_unix_utc,
    strftime('%Y-%m-%dT%H:%M:%SZ', eg.last_seen_unix_utc, 'unixepoch') AS last_seen_iso_utc,
    eg.confirmed_end_unix_utc,
    strftime('%Y-%m-%dT%H:%M:%SZ', eg.confirmed_end_unix_utc, 'unixepoch')
        AS confirmed_end_iso_utc
FROM entity_generation AS eg
JOIN url AS u ON u.url_id = eg.url_id
JOIN origin AS o ON o.origin_id = u.origin_id
LEFT JOIN document_description AS dd ON dd.entity_generation_id = eg.entity_generation_id
"""

DUPLICATE_VIEW = """
CREATE VIEW duplicate_view AS
SELECT
    ds.duplicate_summary_id,
    ds.subject_entity_generation_id,
    su.str_url AS duplicate_url,
    ds.original_entity_generation_id,
    ou.str_url AS original_url,
    o.str_origin AS origin,
    ds.ended_unix_utc IS NULL AS holds,
    ds.detected_unix_utc,
    strftime('%Y-%m-%dT%H:%M:%SZ', ds.detected_unix_utc, 'unixepoch') AS detected_iso_utc,
    ds.ended_unix_utc,
    strftime('%Y-%m-%dT%H:%M:%SZ', ds.ended_unix_utc, 'unixepoch') AS ended_iso_utc
FROM duplicate_summary AS ds
JOIN entity_generation AS se ON se.entity_generation_id = ds.subject_entity_generation_id
JOIN url AS su ON su.url_id = se.url_id
JOIN entity_generation AS oe ON oe.entity_generation_id = ds.original_entity_generation_id
JOIN url AS ou ON ou.url_id = oe.url_id
JOIN origin AS o ON o.origin_id = su.origin_id
"""

# Links of the current web: from open, non-duplicate generations.  The target's
# open generation is found through the partial unique index on open URLs.
LINK_GRAPH = """
CREATE VIEW link_graph AS
SELECT
    ls.entity_generation_id AS from_entity_generation_id,
    fu.str_url AS from_url,
    ls.position,
    ls.to_url_id,
    tu.str_url AS to_url,
    ls.to_url_fragment,
    ls.text,
    ls.kind,
    ls.locality,
    ls.locality = 'out' AS is_external,
    ls.rel,
    ls.rel_nofollow,
    ls.in_nav,
    ls.in_header,
    ls.in_footer,
    ls.in_aside,
    ls.in_main_content,
    te.entity_generation_id AS to_entity_generation_id,
    te.kind AS to_kind
FROM link_summary AS ls
JOIN entity_generation AS fe ON fe.entity_generation_id = ls.entity_generation_id
JOIN url AS fu ON fu.url_id = fe.url_id
JOIN url AS tu ON tu.url_id = ls.to_url_id
LEFT JOIN entity_generation AS te
    ON te.url_id = ls.to_url_id
    AND te.confirmed_end_unix_utc IS NULL
    AND te.url_fragment IS NULL
WHERE fe.confirmed_end_unix_utc IS NULL
  AND fe.marked_duplicate = 0
"""

REDIRECT_VIEW = """
CREATE VIEW redirect_view AS
SELECT
    eg.entity_generation_id,
    fu.str_url AS from_url,
    rs.to_url_id,
    tu.str_url AS to_url,
    rs.to_url_fragment,
    rs.http_status,
    rs.is_permanent,
    rs.by_security_policy,
    rs.information_source,
    src.name AS information_source_name,
    eg.confirmed_end_unix_utc IS NULL AS is_current,
    eg.first_seen_unix_utc,
    strftime('%Y-%m-%dT%H:%M:%SZ', eg.first_seen_unix_utc, 'unixepoch') AS first_seen_iso_utc,
    eg.last_seen_unix_utc,
    strftime('%Y-%m-%dT%H:%M:%SZ', eg.last_seen_unix_utc, 'unixepoch') AS last_seen_iso_utc
FROM redirect_summary AS rs
JOIN entity_generation AS eg ON eg.entity_generation_id = rs.entity_generation_id
JOIN url AS fu ON fu.url_id = eg.url_id
JOIN url AS tu ON tu.url_id = rs.to_url_id
LEFT JOIN information_source AS src ON src.code = rs.information_source
"""

CRAWL_HISTORY = """
CREATE VIEW crawl_history AS
SELECT
    cs.crawl_summary_id,
    cs.url_id,
    u.str_url AS url,
    cs.time_started_unix_utc,
    strftime('%Y-%m-%dT%H:%M:%SZ', cs.time_started_unix_utc, 'unixepoch') AS time_started_iso_utc,
    cs.crawl_type,
    ct.name AS crawl_type_name,
    cs.scheduling_reason,
    sr.name AS scheduling_reason_name,
    cs.exit_code,
    ec.name AS exit_code_name,
    cs.http_status,
    cs.request_duration_ms,
    cs.content_type,
    cs.message,
    cs.summarizer_action,
    cs.entity_generation_id,
    eg.entity_generation_uuid,
    cs.crawl_uuid,
    cs.agent_uuid,
    src.path AS crawl_db_path
FROM crawl_summary AS cs
JOIN url AS u ON u.url_id = cs.url_id
LEFT JOIN entity_generation AS eg ON eg.entity_generation_id = cs.entity_generation_id
LEFT JOIN crawl_type AS ct ON ct.code = cs.crawl_type
LEFT JOIN scheduling_reason AS sr ON sr.code = cs.scheduling_reason
LEFT JOIN exit_code AS ec ON ec.code = cs.exit_code
LEFT JOIN crawl_source AS src ON src.crawl_source_id = cs.crawl_source_id
"""

VIEWS = {
    "current_page": CURRENT_PAGE,
    "generation_view": GENERATION_VIEW,
    "duplicate_view": DUPLICATE_VIEW,
    "link_graph": LINK_GRAPH,
    "redirect_view": REDIRECT_VIEW,
    "crawl_history": CRAWL_HISTORY,
}


def upgrade() -> None:
    create_views(VIEWS)


def downgrade() -> None:
    drop_views(VIEWS)
