"""The summary database's views return what the summarized fixture crawl says."""

from __future__ import annotations

from pathlib import Path

from query_fixtures import OTHER, SITE, T0
from test_query_crawl_views import rows


def test_current_page_is_open_non_duplicate_pages(summary_db: Path) -> None:
    pages = {r["url"]: r for r in rows(summary_db, "SELECT * FROM current_page")}
    assert set(pages) == {
        f"{SITE}/",
        f"{SITE}/a",
        f"{SITE}/b",
        f"{SITE}/de",
        f"{SITE}/orphan",
        f"{OTHER}/",
    }  # not /b-copy (duplicate), not the redirects, not the first version of /a
    a = pages[f"{SITE}/a"]
    assert (a["title"], a["primary_language"]) == ("Page A", "en")
    assert a["first_seen_iso_utc"] == "2023-11-15T22:13:21Z"  # the recrawl's new version
    assert pages[f"{SITE}/de"]["primary_language"] == "de"
    home = pages[f"{SITE}/"]
    assert home["description"] == "All about Home"
    # the 304 a day later confirmed the first version
    assert (home["first_seen_unix_utc"], home["last_seen_unix_utc"]) == (T0 + 1, T0 + 86_400)
    assert home["host"] == "site.test" and home["mime_type"] == "text/html"
    assert pages[f"{SITE}/b"]["word_count"] > pages[f"{SITE}/orphan"]["word_count"]


def test_generation_view_keeps_history(summary_db: Path) -> None:
    history = rows(
        summary_db,
        "SELECT state, first_seen_unix_utc, confirmed_end_iso_utc FROM generation_view "
        f"WHERE url = '{SITE}/a' ORDER BY first_seen_unix_utc",
    )
    assert [h["state"] for h in history] == ["closed", "current"]
    assert history[0]["confirmed_end_iso_utc"] == "2023-11-15T22:13:21Z"
    states = {
        r["url"]: r["state"] for r in rows(summary_db, "SELECT url, state FROM generation_view")
    }
    assert states[f"{SITE}/b-copy"] == "duplicate"
    assert states[f"{SITE}/old"] == "current"


def test_duplicate_view_names_both_urls(summary_db: Path) -> None:
    dups = rows(summary_db, "SELECT * FROM duplicate_view")
    assert [(d["duplicate_url"], d["original_url"], d["holds"]) for d in dups] == [
        (f"{SITE}/b-copy", f"{SITE}/b", 1)
    ]
    assert dups[0]["origin"] == SITE and dups[0]["ended_unix_utc"] is None


def test_link_graph_from_page_to_target(summary_db: Path) -> None:
    links = {(r["from_url"], r["to_url"]): r for r in rows(summary_db, "SELECT * FROM link_graph")}
    assert set(links) == {
        (f"{SITE}/", f"{SITE}/a"),
        (f"{SITE}/", f"{SITE}/b"),
        (f"{SITE}/", f"{SITE}/de"),
        (f"{SITE}/b", f"{SITE}/a"),
        (f"{SITE}/b", f"{SITE}/missing"),
        (f"{SITE}/de", f"{SITE}/"),
        (f"{OTHER}/", f"{SITE}/"),
    }  # nothing from /b-copy: duplicates are not the current web
    external = links[(f"{OTHER}/", f"{SITE}/")]
    assert (external["is_external"], external["locality"]) == (1, "out")
    assert external["to_kind"] == "page"
    broken = links[(f"{SITE}/b", f"{SITE}/missing")]
    assert (broken["is_external"], broken["to_entity_generation_id"]) == (0, None)
    assert links[(f"{SITE}/", f"{SITE}/a")]["text"] == "/a"


def test_redirect_view(summary_db: Path) -> None:
    redirects = {r["from_url"]: r for r in rows(summary_db, "SELECT * FROM redirect_view")}
    assert set(redirects) == {f"{SITE}/old", f"{SITE}/chain", f"{SITE}/loop1", f"{SITE}/loop2"}
    old = redirects[f"{SITE}/old"]
    assert (old["to_url"], old["http_status"], old["is_permanent"]) == (f"{SITE}/a", 301, 1)
    assert old["information_source_name"] == "response_header"
    assert old["is_current"] == 1


def test_crawl_history_per_url(summary_db: Path) -> None:
    history = rows(
        summary_db,
        "SELECT exit_code_name, http_status, summarizer_action, time_started_iso_utc "
        f"FROM crawl_history WHERE url = '{SITE}/' ORDER BY time_started_unix_utc",
    )
    assert [(h["exit_code_name"], h["http_status"]) for h in history] == [
        ("file_ingested", 200),
        ("file_did_not_change", 304),
    ]
    assert history[1]["summarizer_action"] == "self_duplicate"
    failures = {
        r["url"]: r["exit_code_name"]
        for r in rows(
            summary_db, "SELECT url, exit_code_name FROM crawl_history WHERE exit_code >= 40"
        )
    }
    assert failures == {
        f"{SITE}/missing": "file_not_found",
        f"{SITE}/private": "robots_disallowed",
        f"{SITE}/slow": "request_timeout",
        f"{OTHER}/error": "server_internal_error",
    }
