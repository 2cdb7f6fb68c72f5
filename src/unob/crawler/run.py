"""``run_crawl``: one crawl run from settings to report (the library side of ``unob crawl``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import socket
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from aiohttp.abc import AbstractResolver

from unob import __version__
from unob.crawler.dblock import crawl_lock
from unob.crawler.engine import STOP_ERROR, STOP_MAX_REQUESTS, Engine
from unob.crawler.fetch import Fetcher, MappedResolver, parse_resolve_specs
from unob.crawler.progress import CrawlStats, ProgressSnapshot, Reporter, make_reporter
from unob.crawler.records import AgentInfo, Seed
from unob.crawler.scope import Scope
from unob.crawler.store import CrawlStore
from unob.errors import UsageError
from unob.settings import CrawlSettings
from unob.urls import origin_of_canonical

__all__ = ["CrawlReport", "render_report", "run_crawl"]

#: how often the progress display recounts the never-crawled candidates
_COUNT_EVERY_S = 2.0


@dataclass(frozen=True, slots=True)
class CrawlReport:
    """What one ``unob crawl`` run did."""

    db_path: Path
    agent_uuid: str | None
    """None when nothing ran (``max_requests`` 0 only opens the database)."""
    stop_reason: str
    """``frontier_empty``, ``max_requests``, ``interrupted`` or ``origins_gave_up``."""
    totals: ProgressSnapshot
    """The counters at the end (pages, images, requests, errors, entries by exit code)."""
    origins_given_up: tuple[str, ...]
    frontier_left: int
    """Never-attempted candidates left in the database."""

    @property
    def elapsed_s(self) -> float:
        return self.totals.elapsed_s

    @property
    def requests(self) -> int:
        """Page and image requests (robots.txt fetches and fluke retries not counted)."""
        return self.totals.requests

    @property
    def pages(self) -> int:
        """HTML pages stored (file_ingested or noindex)."""
        return self.totals.pages

    @property
    def images(self) -> int:
        return self.totals.images

    @property
    def entries(self) -> int:
        """crawl_log_entry rows written, robots.txt fetches included."""
        return self.totals.entries

    @property
    def errors(self) -> int:
        return self.totals.errors

    @property
    def by_exit_code(self) -> dict[str, int]:
        return self.totals.by_exit_code


def run_crawl(
    settings: CrawlSettings,
    db_path: Path,
    *,
    progress: bool | Callable[[ProgressSnapshot], None] = False,
    resolve: Sequence[str] = (),
    resolver: AbstractResolver | None = None,
) -> CrawlReport:
    """Crawl into the crawl database at ``db_path`` (created or upgraded as needed).

    ``progress``: True for a live display on a terminal (plain lines on
    stderr otherwise), or a callback receiving :class:`ProgressSnapshot`.
    ``resolve`` (``"HOST:ADDR"``, HOST may be ``*``) or ``resolver`` map host
    names to addresses: a testing aid, like curl's ``--resolve``.
    Raises :class:`~unob.errors.UnobError` subclasses for bad usage and
    database problems (:class:`~unob.errors.CrawlInProgress` while another
    crawl runs on ``db_path``); failures of single URLs are entries in the
    database.
    """
    mapping = parse_resolve_specs(resolve)
    if not settings.seeds and not Path(db_path).exists():
        # Checked before the store creates the file: a refused command leaves nothing behind.
        raise UsageError(
            f"no seed URLs given and {db_path} does not exist: give at least one SEED_URL"
        )
    # Taken before the database is opened: a refused crawl writes nothing at all.
    with crawl_lock(Path(db_path)):
        store = CrawlStore(Path(db_path))
        store.open()
        try:
            if settings.max_requests == 0:
                # "0 = only open or upgrade the database": nothing else is written
                return _empty_report(Path(db_path))
            return asyncio.run(_crawl(settings, store, progress, mapping, resolver))
        finally:
            store.close()


def _empty_report(db_path: Path) -> CrawlReport:
    return CrawlReport(
        db_path=db_path,
        agent_uuid=None,
        stop_reason=STOP_MAX_REQUESTS,
        totals=CrawlStats().snapshot(),
        origins_given_up=(),
        frontier_left=0,
    )


async def _crawl(
    settings: CrawlSettings,
    store: CrawlStore,
    progress: bool | Callable[[ProgressSnapshot], None],
    mapping: dict[str, str],
    resolver: AbstractResolver | None,
) -> CrawlReport:
    loop = asyncio.get_running_loop()
    store.bind_loop(loop)
    plain = Scope(settings)
    seeds = [
        Seed(url, origin_of_canonical(url))
        for url in dict.fromkeys(n for n in map(plain.normalize, settings.seeds) if n)
    ]
    frontier_origins = await store.acall(lambda w: w.frontier_origins())
    if not seeds and not frontier_origins:
        raise UsageError(
            f"no seed URLs given and {store.path} has no frontier to resume: "
            "give at least one SEED_URL"
        )
    scope = Scope(settings, extra_origins=frontier_origins)
    started = int(time.time())
    agent = AgentInfo(
        agent_uuid=str(uuid.uuid4()),
        name=settings.agent_name or socket.gethostname(),
        http_user_agent=settings.user_agent,
        started_unix=started,
        settings_json=json.dumps(settings.as_dict(), sort_keys=True),
        unob_version=__version__,
    )
    await store.acall(lambda w: w.begin_agent(agent))
    await store.acall(
        lambda w: w.set_crawl_types(images=settings.images, sitemaps=settings.sitemaps)
    )
    await store.acall(lambda w: w.add_seeds(seeds, started))

    if resolver is None and mapping:
        resolver = MappedResolver(mapping)
    stats = CrawlStats()
    reporter = make_reporter(progress)
    async with Fetcher(settings, resolver=resolver, limit=settings.concurrency + 8) as fetcher:
        engine = Engine(settings, store, fetcher, scope, stats)
        handled = _install_signals(loop, engine.interrupt)
        ticker = asyncio.create_task(_report_progress(reporter, stats, store))
        try:
            reason = await engine.run()
        except Exception:
            # a database failure or a bug: record the end if the database still works
            with contextlib.suppress(Exception):
                await store.acall(lambda w: w.finish_agent(int(time.time()), STOP_ERROR))
            raise
        finally:
            ticker.cancel()
            for signum in handled:
                loop.remove_signal_handler(signum)
    await store.acall(lambda w: w.finish_agent(int(time.time()), reason))
    frontier_left = await store.count_unexplored()
    stats.frontier = frontier_left
    snap = stats.snapshot()
    if reporter is not None:
        reporter.stop(snap)
    return CrawlReport(
        db_path=store.path,
        agent_uuid=agent.agent_uuid,
        stop_reason=reason,
        totals=snap,
        origins_given_up=tuple(sorted(engine.given_up.values())),
        frontier_left=frontier_left,
    )


def _install_signals(
    loop: asyncio.AbstractEventLoop, handler: Callable[[], None]
) -> list[signal.Signals]:
    """Route Ctrl-C (and SIGTERM, as from a service manager) to a graceful stop."""
    handled = []
    for signum in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(signum, handler)
        except (ValueError, RuntimeError, NotImplementedError):
            continue  # not the main thread, or a platform without it
        handled.append(signum)
    return handled


async def _report_progress(reporter: Reporter | None, stats: CrawlStats, store: CrawlStore) -> None:
    if reporter is None:
        return
    reporter.start()
    counted = 0.0
    while True:
        await asyncio.sleep(reporter.interval_s)
        if time.monotonic() - counted >= _COUNT_EVERY_S:
            counted = time.monotonic()
            stats.frontier = await store.count_unexplored()
        reporter.update(stats.snapshot())


def render_report(report: CrawlReport) -> None:
    """Print a run's summary (the end of ``unob crawl``)."""
    print(format_report(report))


def format_report(report: CrawlReport) -> str:
    if report.agent_uuid is None:
        return f"{report.db_path}: database ready (max_requests 0: nothing crawled)"
    rate = report.pages / report.elapsed_s if report.elapsed_s > 0 else 0.0
    lines = [
        f"crawl stopped ({report.stop_reason}) after {report.elapsed_s:.1f} s: "
        f"{report.pages} pages, {report.images} images, {report.requests} requests "
        f"({rate:.1f} pages/s), {report.errors} errors",
        "entries by exit code: "
        + (", ".join(f"{name} {n}" for name, n in report.by_exit_code.items()) or "none"),
        f"never-crawled URLs left: {report.frontier_left}",
    ]
    if report.origins_given_up:
        lines.append("origins given up (patience): " + ", ".join(report.origins_given_up))
    lines.append(f"database: {report.db_path}  (agent {report.agent_uuid})")
    return "\n".join(lines)
