"""``unob status`` (crawl_status / render_status) and the exit-code documentation."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from crawling import CrawlFn
from rich.console import Console
from sites import FixtureServer, links, page, status

from unob.codes import ExitCode
from unob.crawler import crawl_status, render_report, render_status
from unob.crawler.status import exit_code_markdown
from unob.errors import DatabaseError

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_status_counts_agents_entries_and_the_frontier(
    server: FixtureServer, crawl: CrawlFn, capsys: pytest.CaptureFixture[str]
) -> None:
    site = server.site("a.test")
    site.add("/", links("/a", "/b", "/missing"))
    site.add("/a", links("/c"))
    site.add("/b", page("b"))
    site.add("/c", page("c"))
    site.add("/missing", status(404))
    done = crawl(server.url("a.test"), max_requests=3)
    render_report(done.report)
    assert "max_requests" in capsys.readouterr().out

    state = crawl_status(done.db)
    assert state.agents_total == 1
    (agent,) = state.agents
    assert agent.stop_reason == "max_requests" and agent.entries == 4  # robots.txt + 3
    by_name = {c.name: c.count for c in state.entries_by_exit_code}
    assert sum(by_name.values()) == state.entries_total == 4
    assert by_name["file_not_found"] == 1  # the robots.txt fetch
    assert state.frontier.candidates == 5
    assert state.frontier.never_crawled == 2
    assert state.frontier.later == 3
    (origin,) = state.origins
    assert (origin.origin, origin.crawled, origin.never_crawled) == (
        server.origin("a.test"),
        3,
        2,
    )
    assert state.files_stored >= 2

    out = io.StringIO()
    render_status(state, Console(file=out, width=200))
    text = out.getvalue()
    for expected in ("file_ingested", "never crawled", server.origin("a.test"), agent.agent_uuid):
        assert expected in text


def test_status_refuses_a_file_that_is_not_a_crawl_database(tmp_path: Path) -> None:
    bogus = tmp_path / "notes.db"
    bogus.write_text("hello")
    with pytest.raises(DatabaseError):
        crawl_status(bogus)
    with pytest.raises(DatabaseError):
        crawl_status(tmp_path / "missing.db")


def test_docs_exit_code_table_is_generated_from_the_codes() -> None:
    text = (DOCS / "exit-codes.md").read_text()
    assert exit_code_markdown() in text, "docs/exit-codes.md is stale: python -m unob.docgen"
    for code in ExitCode:
        assert f"`{code.name.lower()}`" in text


def test_progress_goes_to_a_callback_or_to_plain_lines(
    server: FixtureServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from crawling import FAST

    from unob.crawler import ProgressSnapshot, run_crawl
    from unob.crawler.fetch import MappedResolver
    from unob.settings import load_crawl_settings

    site = server.site("a.test")
    site.add("/", links("/a", "/gone"))
    site.add("/a", page("a"))
    site.add("/gone", status(410))
    settings = load_crawl_settings(None, {**FAST, "seeds": (server.url("a.test"),)})
    seen: list[ProgressSnapshot] = []
    report = run_crawl(
        settings,
        tmp_path / "a.db",
        progress=seen.append,
        resolver=MappedResolver({"*": "127.0.0.1"}),
    )
    final = seen[-1]
    assert (final.pages, final.requests, final.frontier) == (2, 3, 0)
    assert (
        final.by_exit_code
        == report.by_exit_code
        == {
            "file_ingested": 2,
            "file_gone": 1,
            "file_not_found": 1,
        }
    )
    assert final.errors == 2  # 410 and robots.txt's 404

    # not a terminal: plain lines on stderr
    run_crawl(
        settings, tmp_path / "b.db", progress=True, resolver=MappedResolver({"*": "127.0.0.1"})
    )
    err = capsys.readouterr().err
    assert "crawl:" in err and "pages 2" in err and "errors 2" in err


def test_the_live_display_shows_pages_queue_and_errors_by_kind() -> None:
    from unob.crawler.progress import CrawlStats, LiveProgress

    out = io.StringIO()
    live = LiveProgress(Console(file=out, force_terminal=True, width=120))
    stats = CrawlStats()
    stats.frontier = 1234
    for code in (20, 20, 44, 101):
        stats.count_entry(code, stored_page=code == 20, stored_image=False)
    live.start()
    live.update(stats.snapshot())
    live.stop(stats.snapshot())
    text = out.getvalue()
    assert "1,234 never-crawled URLs" in text
    assert "file_not_found 1, request_timeout 1" in text
    assert "pages" in text and "2  (" in text
