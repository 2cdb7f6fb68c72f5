"""One crawl per crawl database: a second ``unob crawl`` is refused while one runs.

Real subprocesses against the fixture server, as in test_resume: the lock must
hold between processes and be gone when its holder is killed with SIGKILL.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
from pathlib import Path

import pytest
from aiohttp import web
from sites import FixtureServer, html, page
from sites import links as page_linking
from test_resume import unob_argv, wait_for

from unob.crawler.dblock import crawl_lock, lock_path
from unob.errors import CrawlInProgress

SECOND_UA = "second-crawler/1.0 (+https://example.org/second)"


def refused_line(db: Path) -> str:
    return (
        f"unob: error: {db}: another unob crawl is running on this database "
        f"(it holds {lock_path(db)}); wait for it to end or stop it\n"
    )


def agents(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM agent").fetchone()[0])


def test_crawl_is_refused_while_the_lock_is_held_and_runs_once_it_is_free(
    server: FixtureServer, tmp_path: Path
) -> None:
    server.site("a.test").add("/", page("hello"))
    db = tmp_path / "crawl.db"
    argv = unob_argv(db, server.url("a.test", "/"))
    with crawl_lock(db):
        refused = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert refused.returncode == 1
    assert refused.stderr == refused_line(db)
    assert not db.exists() and server.count() == 0
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert server.count("a.test", "/") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["crawl.db"]  # no lock file left


def test_second_crawl_is_refused_and_a_killed_crawl_can_be_resumed(
    server: FixtureServer, tmp_path: Path
) -> None:
    # The pages hang until the first crawl is dead: it is surely still running when the
    # second one starts, however slowly the machine starts processes.
    hanging = {"on": True}

    async def hang_then_answer(request: web.Request) -> web.StreamResponse:
        while hanging["on"]:
            await asyncio.sleep(0.01)
        return web.Response(body=html("late"), content_type="text/html")

    site = server.site("a.test")
    site.add("/", page_linking(*(f"/p/{n}" for n in range(5))))
    for n in range(5):
        site.add(f"/p/{n}", hang_then_answer)
    db = tmp_path / "crawl.db"
    seed = server.url("a.test", "/")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    first = subprocess.Popen(unob_argv(db, seed), env=env, stderr=subprocess.PIPE)
    try:
        wait_for(first, lambda: any(h.path_qs.startswith("/p/") for h in server.hits))
        # a distinct User-Agent tells the second crawl's requests apart (it must make none)
        second = subprocess.run(
            [*unob_argv(db, seed), "--user-agent", SECOND_UA],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert second.returncode == 1
        assert second.stderr == refused_line(db)
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(30)
        hanging["on"] = False
    assert not [h for h in server.hits if h.headers.get("User-Agent") == SECOND_UA]
    assert agents(db) == 1  # the refused crawl did not even register
    assert lock_path(db).exists()  # left by the killed crawl, and harmless:
    resumed = subprocess.run(unob_argv(db), env=env, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert agents(db) == 2
    assert not lock_path(db).exists()


def test_without_fcntl_crawls_are_not_locked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Windows has no fcntl: the lock degrades to nothing rather than failing.
    from unob.crawler import dblock

    monkeypatch.setattr(dblock, "fcntl", None)
    db = tmp_path / "crawl.db"
    with crawl_lock(db), crawl_lock(db):
        assert not lock_path(db).exists()


def test_a_symbolic_link_to_the_database_shares_its_lock(tmp_path: Path) -> None:
    real = tmp_path / "real.db"
    link = tmp_path / "link.db"
    link.symlink_to(real)
    with crawl_lock(real), pytest.raises(CrawlInProgress), crawl_lock(link):
        pass
