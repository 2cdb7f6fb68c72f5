"""Crash safety: ``unob crawl`` killed with SIGKILL and started again finishes the same crawl.

The crawler runs as a real subprocess (``python -m unob crawl``) against the
fixture server; the test kills it mid-crawl, checks that the database holds
whole entries only, starts it again, and compares with an uninterrupted crawl
of the same site: the same pages, and no URL fetched twice except the few that
were in flight (or not yet committed) when the process died.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from aiohttp import web
from crawling import TEST_UA, CrawlFn
from sites import FixtureServer, Handler, html, page, slow
from sites import links as page_linking

HOSTS = ("a.test", "b.test", "c.test")
PAGES = 40  # per host
CONCURRENCY = 4


def tree_page(host_index: int, n: int) -> Handler:
    """Page n of a host: links to its children 3n+1..3n+3 and to the next host's page n."""
    children = "".join(
        f"<a href='/p/{c}'>{c}</a>" for c in range(3 * n + 1, 3 * n + 4) if c < PAGES
    )
    other = HOSTS[(host_index + 1) % len(HOSTS)]

    async def handle(request: web.Request) -> web.StreamResponse:
        await asyncio.sleep(0.003)  # slow enough to be killed mid-crawl
        port = request.host.rsplit(":", 1)[1]
        body = html(f"{children}<a href='http://{other}:{port}/p/{n}'>next host</a>")
        return web.Response(body=body, content_type="text/html")

    return handle


def build_site(server: FixtureServer) -> None:
    for i, host in enumerate(HOSTS):
        site = server.site(host)
        for n in range(PAGES):
            site.add(f"/p/{n}", tree_page(i, n))


def unob_argv(db: Path, *seeds: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "unob",
        "crawl",
        *seeds,
        "--db",
        str(db),
        "--delay-ms",
        "0",
        "--concurrency",
        str(CONCURRENCY),
        "--user-agent",
        TEST_UA,
        "--resolve",
        "*:127.0.0.1",
        "--quiet",
    ]


def page_hits(server: FixtureServer) -> Counter[str]:
    return Counter(f"{h.host}{h.path_qs}" for h in server.hits if h.path_qs != "/robots.txt")


def urls(db: Path, sql: str) -> set[str]:
    with sqlite3.connect(db) as conn:
        return {url for (url,) in conn.execute(sql)}


def committed_urls(db: Path) -> set[str]:
    return urls(
        db,
        "SELECT u.str_url FROM crawl_log_entry e JOIN url u USING (url_id) WHERE e.crawl_type = 0",
    )


def stored(db: Path) -> set[str]:
    return urls(
        db,
        "SELECT u.str_url FROM file_info f JOIN url u USING (url_id) "
        "WHERE f.file_content_id IS NOT NULL",
    )


def wait_for(proc: subprocess.Popen[bytes], condition: Callable[[], bool]) -> None:
    """Poll until ``condition()`` holds; fail if the crawl ends first or makes no progress."""
    deadline = time.monotonic() + 60
    while not condition():
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        assert time.monotonic() < deadline, "the crawl made no progress"
        time.sleep(0.01)


def as_hit_key(url: str) -> str:
    """``http://a.test:PORT/p/1`` -> ``a.test/p/1`` (how page_hits names requests)."""
    rest = url.split("://", 1)[1]
    hostport, _, path = rest.partition("/")
    return f"{hostport.rsplit(':', 1)[0]}/{path}"


def test_kill_9_and_resume_ends_with_the_same_pages(
    server: FixtureServer, crawl: CrawlFn, tmp_path: Path
) -> None:
    build_site(server)
    seeds = [server.url(host, "/p/0") for host in HOSTS]
    reference = crawl(*seeds, db=tmp_path / "reference.db", concurrency=CONCURRENCY)
    expected = reference.stored_pages()
    assert len(expected) == len(HOSTS) * PAGES
    server.hits.clear()

    db = tmp_path / "killed.db"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(unob_argv(db, *seeds), env=env, stderr=subprocess.PIPE)
    wait_for(proc, lambda: sum(page_hits(server).values()) >= len(expected) // 3)
    proc.send_signal(signal.SIGKILL)
    proc.wait(30)
    first_hits = page_hits(server)

    # the database holds whole entries only: every page entry has its request and file
    with sqlite3.connect(db) as conn:
        broken = conn.execute(
            "SELECT count(*) FROM crawl_log_entry e WHERE e.exit_code = 20 AND ("
            "e.crawl_log_entry_id NOT IN (SELECT crawl_log_entry_id FROM request_info) OR "
            "e.crawl_log_entry_id NOT IN (SELECT crawl_log_entry_id FROM file_info))"
        ).fetchone()
        assert broken == (0,)
        assert conn.execute("SELECT time_finished_unix_utc FROM agent").fetchall() == [(None,)]
    done_before_kill = committed_urls(db)
    assert 0 < len(done_before_kill) < len(expected)

    resumed = subprocess.run(
        unob_argv(db, *seeds), env=env, capture_output=True, text=True, timeout=120
    )
    assert resumed.returncode == 0, resumed.stderr
    assert stored(db) == expected

    total = page_hits(server)
    second = total - first_hits
    # nothing committed before the kill was fetched again ...
    assert not {as_hit_key(u) for u in done_before_kill} & set(second)
    # ... and only what was in flight or not yet committed at the kill was fetched twice
    uncommitted = set(first_hits) - {as_hit_key(u) for u in done_before_kill}
    twice = {key for key, n in total.items() if n > 1}
    assert twice <= uncommitted
    assert all(n <= 2 for n in total.values())
    with sqlite3.connect(db) as conn:
        agents = conn.execute("SELECT stop_reason FROM agent ORDER BY agent_id").fetchall()
        entries = conn.execute(
            "SELECT count(*), count(DISTINCT url_id) FROM crawl_log_entry WHERE crawl_type = 0"
        ).fetchone()
    assert agents == [(None,), ("frontier_empty",)]
    assert entries[0] == entries[1] == len(expected)  # one entry per page, over both runs


def test_ctrl_c_finishes_quick_requests_cancels_hung_ones_and_records_the_stop(
    server: FixtureServer, tmp_path: Path
) -> None:
    site = server.site("a.test")
    site.add("/", page_linking("/hang", *(f"/p/{n}" for n in range(30))))
    site.add("/hang", slow(60, page("never")))
    for n in range(30):
        site.add(f"/p/{n}", slow(0.02, page("quick")))
    db = tmp_path / "crawl.db"
    config = tmp_path / "fast.toml"
    # the 5 s grace after Ctrl-C becomes 0.5 s: long enough for a 20 ms page, not for /hang
    config.write_text("time_scale = 0.1\n")
    argv = [*unob_argv(db, server.url("a.test", "/")), "--config", str(config)]
    argv += ["--per-origin-concurrency", "2"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wait_for(proc, lambda: server.count("a.test", "/hang") > 0 and server.count("a.test") >= 8)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert b"interrupted" in out
    with sqlite3.connect(db) as conn:
        agent = conn.execute("SELECT time_finished_unix_utc IS NOT NULL, stop_reason FROM agent")
        assert agent.fetchall() == [(1, "interrupted")]
        codes = dict(
            conn.execute(
                "SELECT u.str_url, e.exit_code FROM crawl_log_entry e JOIN url u USING (url_id) "
                "WHERE e.crawl_type = 0"
            ).fetchall()
        )
        hang_due = conn.execute(
            "SELECT c.last_crawl_unix_utc FROM crawl_candidate c JOIN url u USING (url_id) "
            "WHERE u.str_url = ?",
            (server.url("a.test", "/hang"),),
        ).fetchall()
    assert codes.pop(server.url("a.test", "/hang")) == -2  # cancelled ...
    assert hang_due == [(None,)]  # ... and still due for the next run
    # every other page that was requested finished and was written
    assert set(codes.values()) == {20}
    requested = {h.path_qs for h in server.hits} - {"/robots.txt", "/hang"}
    assert {u.split(str(server.port), 1)[1] for u in codes} == requested
