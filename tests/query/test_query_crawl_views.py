"""The crawl database's views return what the fixture crawl says."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from query_fixtures import FAR_FUTURE, OTHER, SITE, T0


def rows(db: Path, sql: str) -> list[dict[str, Any]]:
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    try:
        return [dict(r) for r in conn.execute(sql)]
    finally:
        conn.close()


def test_crawl_log_view_names_codes_and_times(crawl_db: Path) -> None:
    log = rows(crawl_db, "SELECT * FROM crawl_log_view ORDER BY crawl_log_entry_id")
    assert len(log) == 18
    robots = log[0]
    assert robots["url"] == f"{SITE}/robots.txt"
    assert robots["crawl_type_name"] == "robotstxt_fetch"
    assert robots["scheduling_reason_name"] == "manual"
    assert robots["started_iso_utc"] == "2023-11-14T22:13:20Z"
    assert robots["started_unix_utc"] == T0
    by_url = {(r["url"], r["agent_name"]): r for r in log}
    missing = by_url[(f"{SITE}/missing", "first")]
    assert (missing["exit_code_name"], missing["http_status"]) == ("file_not_found", 404)
    slow = by_url[(f"{SITE}/slow", "first")]
    assert (slow["exit_code_name"], slow["http_status"], slow["request_count"]) == (
        "request_timeout",
        None,
        2,
    )
    private = by_url[(f"{SITE}/private", "first")]
    assert private["request_count"] == 0
    assert private["message"] == "disallowed by robots.txt"
    recrawl = by_url[(f"{SITE}/", "second")]
    assert (recrawl["exit_code_name"], recrawl["scheduling_reason_name"]) == (
        "file_did_not_change",
        "recrawl",
    )
    assert recrawl["origin"] == SITE


def test_origin_stats_counts_and_percentiles(crawl_db: Path) -> None:
    stats = {r["origin"]: r for r in rows(crawl_db, "SELECT * FROM origin_stats")}
    site, other = stats[SITE], stats[OTHER]
    assert site["entries"] == 16
    assert site["pages"] == 7  # /, /a twice, /b, /b-copy, /de, /orphan (not robots.txt)
    assert site["redirects"] == 4
    assert site["not_modified"] == 1
    assert site["errors"] == 2  # 404 and the timeout
    assert site["robots_disallowed"] == 1
    assert site["error_rate"] == 0.125
    assert site["requests"] == 16  # 15 answered or timed out + 1 retry, none for /private
    # answered durations: 10 20 30 30 40 50 50 50 50 50 60 70 80 80 -> nearest rank
    assert (site["median_response_ms"], site["p95_response_ms"], site["max_response_ms"]) == (
        50,
        80,
        80,
    )
    assert site["mean_response_ms"] == round(670 / 14, 1)
    assert (other["entries"], other["pages"], other["errors"]) == (2, 1, 1)
    assert (other["median_response_ms"], other["p95_response_ms"]) == (300, 500)
    assert other["first_crawl_iso_utc"] == "2023-11-14T22:13:31Z"
    assert other["last_crawl_iso_utc"] == "2023-11-14T22:14:32Z"


def test_redirect_chain_follows_hops_and_stops_at_loops(crawl_db: Path) -> None:
    chains = {r["start_url"]: r for r in rows(crawl_db, "SELECT * FROM redirect_chain")}
    assert set(chains) == {f"{SITE}/old", f"{SITE}/chain", f"{SITE}/loop1", f"{SITE}/loop2"}
    direct = chains[f"{SITE}/old"]
    assert (direct["final_url"], direct["hops"], direct["statuses"]) == (f"{SITE}/a", 1, "301")
    assert (direct["all_permanent"], direct["is_loop"]) == (1, 0)
    assert direct["final_exit_code_name"] == "file_ingested"
    two = chains[f"{SITE}/chain"]
    assert two["path"] == f"{SITE}/chain -> {SITE}/old -> {SITE}/a"
    assert (two["hops"], two["statuses"], two["all_permanent"]) == (2, "302 -> 301", 0)
    loop = chains[f"{SITE}/loop1"]
    assert (loop["is_loop"], loop["final_url"], loop["hops"]) == (1, f"{SITE}/loop1", 2)


def test_frontier_states(crawl_db: Path) -> None:
    frontier = {r["url"]: r for r in rows(crawl_db, "SELECT * FROM frontier")}
    assert len(frontier) == 19
    sitemap = frontier[f"{SITE}/sitemap.xml"]
    assert (sitemap["crawl_type_name"], sitemap["discovered_via_url"]) == (
        "sitemap_crawl",
        f"{SITE}/robots.txt",
    )
    assert frontier[f"{SITE}/listed"]["discovered_via_url"] == f"{SITE}/sitemap.xml"
    assert frontier[f"{SITE}/new"]["state"] == "new"
    assert frontier[f"{SITE}/new"]["discovered_via_url"] == f"{SITE}/a"
    assert frontier[f"{SITE}/gone"]["state"] == "retired"
    assert frontier[f"{SITE}/gone"]["last_crawl_exit_code_name"] == "file_gone"
    assert frontier[f"{SITE}/b"]["state"] == "waiting"
    assert frontier[f"{SITE}/b"]["next_due_unix_utc"] == FAR_FUTURE
    assert frontier[f"{SITE}/missing"]["state"] == "due"
    assert frontier[f"{SITE}/"]["discovered_via_url"] is None
    assert frontier[f"{SITE}/"]["last_crawl_exit_code_name"] == "file_did_not_change"
