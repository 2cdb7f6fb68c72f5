"""crawl database: views for ad-hoc SQL (crawl_log_view, origin_stats, redirect_chain, frontier)

Revision ID: c0002
Revises: c0001
Create Date: 2026-11-21

The views are part of the public schema (docs/schema/crawl.md documents every
column; the meanings live in unob.query.views).  SQLite cannot ALTER a view:
a later migration that changes one drops it and creates it again with its full
text, so each migration keeps the SQL it created, verbatim.

Every view names its columns explicitly (no ``SELECT *``): columns added to
the tables later do not change a view's shape.  Times are shown twice, as the
stored Unix seconds and as ISO-8601 UTC text (``strftime`` with 'unixepoch').
"""

from __future__ import annotations

from unob.migrations.viewops import create_views, drop_views

revision = "c0002"
down_revision = "c0001"
branch_labels = None
depends_on = None

# Exit codes counted as errors in origin_stats: unobtanium's HTTP and network
# failure range (40-102) and unob's body failures (too_large, bad_content_encoding).
CRAWL_LOG_VIEW = """
CREATE VIEW crawl_log_view AS
SELECT
    e.crawl_log_entry_id,
    e.crawl_log_entry_uuid,
    e.agent_id,
    a.name AS agent_name,
    e.url_id,
    u.str_url AS url,
    o.str_origin AS origin,
    e.crawl_type,
    ct.name AS crawl_type_name,
    e.scheduling_reason,
    sr.name AS scheduling_reason_name,
    e.started_unix_utc,
    strftime('%Y-%m-%dT%H:%M:%SZ', e.started_unix_utc, 'unixepoch') AS started_iso_utc,
    e.time_taken_ms,
    e.exit_code,
    ec.name AS exit_code_name,
    e.message,
    e.depth,
    (SELECT r.http_status FROM request_info AS r
      WHERE r.crawl_log_entry_id = e.crawl_log_entry_id
      ORDER BY r.request_info_id DESC LIMIT 1) AS http_status,
    (SELECT count(*) FROM request_info AS r
      WHERE r.crawl_log_entry_id = e.crawl_log_entry_id) AS request_count
FROM crawl_log_entry AS e
JOIN url AS u ON u.url_id = e.url_id
JOIN origin AS o ON o.origin_id = u.origin_id
LEFT JOIN agent AS a ON a.agent_id = e.agent_id
LEFT JOIN crawl_type AS ct ON ct.code = e.crawl_type
LEFT JOIN scheduling_reason AS sr ON sr.code = e.scheduling_reason
LEFT JOIN exit_code AS ec ON ec.code = e.exit_code
"""

# Percentiles by the nearest-rank method: the k-th smallest of n durations
# with k = ceil(q * n), written (n * q100 + 99) / 100 in integer arithmetic.
ORIGIN_STATS = """
CREATE VIEW origin_stats AS
WITH entry_stats AS (
    SELECT
        u.origin_id,
        count(*) AS entries,
        sum(e.crawl_type = 0 AND e.exit_code IN (20, 114)) AS pages,
        sum(e.exit_code IN (31, 32)) AS redirects,
        sum(e.exit_code = 34) AS not_modified,
        sum(e.exit_code BETWEEN 40 AND 102 OR e.exit_code IN (111, 112)) AS errors,
        sum(e.exit_code = 110) AS robots_disallowed,
        min(e.started_unix_utc) AS first_crawl_unix_utc,
        max(e.started_unix_utc) AS last_crawl_unix_utc
    FROM crawl_log_entry AS e
    JOIN url AS u ON u.url_id = e.url_id
    GROUP BY u.origin_id
),
ranked_requests AS (
    SELECT
        u.origin_id,
        r.duration_ms,
        r.body_bytes,
        row_number() OVER (
            PARTITION BY u.origin_id ORDER BY r.duration_ms IS NULL, r.duration_ms
        ) AS duration_rank,
        count(r.duration_ms) OVER (PARTITION BY u.origin_id) AS timed
    FROM request_info AS r
    JOIN url AS u ON u.url_id = r.url_id
),
request_stats AS (
    SELECT
        origin_id,
        count(*) AS requests,
        sum(body_bytes) AS body_bytes,
        round(avg(duration_ms), 1) AS mean_response_ms,
        max(CASE WHEN duration_rank = (timed * 50 + 99) / 100 THEN duration_ms END)
            AS median_response_ms,
        max(CASE WHEN duration_rank = (timed * 95 + 99) / 100 THEN duration_ms END)
            AS p95_response_ms,
        max(duration_ms) AS max_response_ms
    FROM ranked_requests
    GROUP BY origin_id
)
SELECT
    o.origin_id,
    o.str_origin AS origin,
    o.host,
    coalesce(es.entries, 0) AS entries,
    coalesce(es.pages, 0) AS pages,
    coalesce(es.redirects, 0) AS redirects,
    coalesce(es.not_modified, 0) AS not_modified,
    coalesce(es.errors, 0) AS errors,
    coalesce(es.robots_disallowed, 0) AS robots_disallowed,
    round(1.0 * es.errors / es.entries, 4) AS error_rate,
    coalesce(rs.requests, 0) AS requests,
    coalesce(rs.body_bytes, 0) AS body_bytes,
    rs.mean_response_ms,
    rs.median_response_ms,
    rs.p95_response_ms,
    rs.max_response_ms,
    es.first_crawl_unix_utc,
    strftime('%Y-%m-%dT%H:%M:%SZ', es.first_crawl_unix_utc, 'unixepoch')
        AS first_crawl_iso_utc,
    es.last_crawl_unix_utc,
    strftime('%Y-%m-%dT%H:%M:%SZ', es.last_crawl_unix_utc, 'unixepoch')
        AS last_crawl_iso_utc
FROM origin AS o
LEFT JOIN entry_stats AS es ON es.origin_id = o.origin_id
LEFT JOIN request_stats AS rs ON rs.origin_id = o.origin_id
"""

# One row per URL that redirects, following its latest recorded redirect hop
# by hop until a URL that does not redirect, a loop, or 20 hops.  ``seen``
# holds the visited url_ids as ",1,2,3," so a loop is detected with instr().
REDIRECT_CHAIN = """
CREATE VIEW redirect_chain AS
WITH RECURSIVE
latest_redirect AS (
    SELECT r.url_id, r.to_url_id, r.to_url_fragment, r.http_status, r.is_permanent
    FROM redirect AS r
    JOIN (SELECT max(redirect_id) AS redirect_id FROM redirect GROUP BY url_id) AS newest
        ON newest.redirect_id = r.redirect_id
),
chain (start_url_id, url_id, hops, seen, path, statuses, all_permanent, fragment) AS (
    SELECT
        lr.url_id,
        lr.to_url_id,
        1,
        ',' || lr.url_id || ',',
        fu.str_url || ' -> ' || tu.str_url,
        coalesce(CAST(lr.http_status AS TEXT), 'meta'),
        lr.is_permanent,
        lr.to_url_fragment
    FROM latest_redirect AS lr
    JOIN url AS fu ON fu.url_id = lr.url_id
    JOIN url AS tu ON tu.url_id = lr.to_url_id
    UNION ALL
    SELECT
        c.start_url_id,
        lr.to_url_id,
        c.hops + 1,
        c.seen || c.url_id || ',',
        c.path || ' -> ' || tu.str_url,
        c.statuses || ' -> ' || coalesce(CAST(lr.http_status AS TEXT), 'meta'),
        c.all_permanent AND lr.is_permanent,
        lr.to_url_fragment
    FROM chain AS c
    JOIN latest_redirect AS lr ON lr.url_id = c.url_id
    JOIN url AS tu ON tu.url_id = lr.to_url_id
    WHERE instr(c.seen, ',' || c.url_id || ',') = 0 AND c.hops < 20
),
longest AS (
    SELECT
        c.*,
        row_number() OVER (PARTITION BY c.start_url_id ORDER BY c.hops DESC) AS pick
    FROM chain AS c
)
SELECT
    l.start_url_id,
    su.str_url AS start_url,
    l.url_id AS final_url_id,
    fu.str_url AS final_url,
    l.fragment AS final_url_fragment,
    l.hops,
    l.path,
    l.statuses,
    l.all_permanent,
    instr(l.seen, ',' || l.url_id || ',') > 0 AS is_loop,
    cc.last_crawl_exit_code AS final_exit_code,
    ec.name AS final_exit_code_name
FROM longest AS l
JOIN url AS su ON su.url_id = l.start_url_id
JOIN url AS fu ON fu.url_id = l.url_id
LEFT JOIN crawl_candidate AS cc ON cc.url_id = l.url_id
LEFT JOIN exit_code AS ec ON ec.code = cc.last_crawl_exit_code
WHERE l.pick = 1
"""

FRONTIER = """
CREATE VIEW frontier AS
SELECT
    c.url_id,
    u.str_url AS url,
    o.str_origin AS origin,
    c.crawl_type,
    ct.name AS crawl_type_name,
    c.depth,
    dv.str_url AS discovered_via_url,
    c.discovered_unix_utc,
    strftime('%Y-%m-%dT%H:%M:%SZ', c.discovered_unix_utc, 'unixepoch') AS discovered_iso_utc,
    c.scheduling_reason,
    sr.name AS scheduling_reason_name,
    c.last_crawl_unix_utc,
    strftime('%Y-%m-%dT%H:%M:%SZ', c.last_crawl_unix_utc, 'unixepoch') AS last_crawl_iso_utc,
    c.last_crawl_exit_code,
    ec.name AS last_crawl_exit_code_name,
    c.last_contentful_crawl_unix_utc,
    strftime('%Y-%m-%dT%H:%M:%SZ', c.last_contentful_crawl_unix_utc, 'unixepoch')
        AS last_contentful_crawl_iso_utc,
    c.next_due_unix_utc,
    strftime('%Y-%m-%dT%H:%M:%SZ', c.next_due_unix_utc, 'unixepoch') AS next_due_iso_utc,
    CASE
        WHEN c.next_due_unix_utc IS NULL THEN 'retired'
        WHEN c.last_crawl_unix_utc IS NULL THEN 'new'
        WHEN c.next_due_unix_utc <= CAST(strftime('%s', 'now') AS INTEGER) THEN 'due'
        ELSE 'waiting'
    END AS state
FROM crawl_candidate AS c
JOIN url AS u ON u.url_id = c.url_id
JOIN origin AS o ON o.origin_id = c.origin_id
LEFT JOIN url AS dv ON dv.url_id = c.discovered_via_url_id
LEFT JOIN crawl_type AS ct ON ct.code = c.crawl_type
LEFT JOIN scheduling_reason AS sr ON sr.code = c.scheduling_reason
LEFT JOIN exit_code AS ec ON ec.code = c.last_crawl_exit_code
"""

VIEWS = {
    "crawl_log_view": CRAWL_LOG_VIEW,
    "origin_stats": ORIGIN_STATS,
    "redirect_chain": REDIRECT_CHAIN,
    "frontier": FRONTIER,
}


def upgrade() -> None:
    create_views(VIEWS)


def downgrade() -> None:
    drop_views(VIEWS)
