"""The crawl engine: many origins at once, each one politely (DESIGN.md §4).

Scheduling.  A dispatcher asks the database which origins have due
candidates and starts ``per_origin_concurrency`` workers for each (at most
``max_active_origins`` origins at a time).  A worker takes the origin's next
candidate (:class:`~unob.crawler.frontier.OriginQueue`, refilled from the
database in small batches), makes sure robots.txt is fresh, waits for the
origin's :class:`~unob.crawler.politeness.Pacer`, takes one of the global
``concurrency`` slots, fetches, interprets the answer and hands the
resulting :class:`~unob.crawler.records.EntryRecord` to the store.  When an
origin runs dry its workers end; links found later to that origin wake the
dispatcher, which starts it again.  The crawl ends when no worker runs and
the database has nothing due (every entry submitted before that question is
part of the answer: the store runs commands in order).

Per URL, in order: robots.txt (disallowed -> entry 110, no request);
``max_requests`` (reached -> the run stops, the URL stays due); the request,
with one immediate retry when the connection failed, timed out or broke off
(a second ``request_info`` row with ``is_retry``); the answer's meaning
(:mod:`unob.crawler.interpret`; for HTML, link extraction in a worker thread
by :mod:`unob.crawler.page`); patience (an origin that keeps failing is given
up for the run).  Redirects are recorded and their targets enqueued, never
followed.  The sitemaps a robots.txt names are enqueued with its entry and
crawled like pages (:mod:`unob.crawler.sitemap` reads them).

Ctrl-C: the first stops taking new URLs and lets requests in flight finish
for :data:`GRACE_S` seconds; then (or at a second Ctrl-C) they are
cancelled and logged as ``cancelled`` (their candidates stay due).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from multidict import CIMultiDictProxy

from unob.codes import CrawlType, ExitCode, SchedulingReason
from unob.crawler import body as bodylib
from unob.crawler.cache import BoundedCache
from unob.crawler.fetch import Answer, BodyPlan, Fetcher
from unob.crawler.frontier import Candidate, OriginQueue
from unob.crawler.interpret import Interpreter, PlanFn, body_plan, request_headers, request_records
from unob.crawler.outcome import FLUKE_FAILURES, is_image, status_exit_code
from unob.crawler.politeness import Pacer, Patience, parse_retry_after
from unob.crawler.progress import CrawlStats
from unob.crawler.records import (
    EntryRecord,
)
from unob.crawler.robots import MAX_BYTES as ROBOTS_MAX_BYTES
from unob.crawler.robots import MAX_REDIRECTS as ROBOTS_MAX_REDIRECTS
from unob.crawler.robots import RobotsRules, RobotsState, robots_url
from unob.crawler.scope import Scope
from unob.crawler.sitemap import robots_sitemap_candidates
from unob.crawler.store import CrawlStore
from unob.settings import CrawlSettings

__all__ = [
    "GRACE_S",
    "STOP_FRONTIER_EMPTY",
    "STOP_GAVE_UP",
    "STOP_INTERRUPTED",
    "STOP_MAX_REQUESTS",
    "Engine",
]

#: how long requests in flight may finish after Ctrl-C before they are cancelled
GRACE_S = 5.0
#: candidates pulled from the database per origin at a time
PULL_BATCH = 32
#: robots.txt fetches in a row that may answer 5xx or 429 before the origin is given up
#: for the run: each waits ``robots_retry_s`` (RFC 9309 §2.3.1.4: meanwhile everything
#: is disallowed).  No answer at all gives the origin up at once.
ROBOTS_ATTEMPTS = 3

STOP_FRONTIER_EMPTY = "frontier_empty"
STOP_MAX_REQUESTS = "max_requests"
STOP_INTERRUPTED = "interrupted"
STOP_GAVE_UP = "origins_gave_up"
STOP_ERROR = "error"


def _now_ms() -> int:
    return int(time.time() * 1000)


class _Origin:
    """Run-time state of one origin: its queue, pacer, patience and robots.txt rules."""

    __slots__ = (
        "changed",
        "fate_logged",
        "gave_up",
        "id",
        "name",
        "pacer",
        "patience",
        "pull_lock",
        "queue",
        "robots",
        "robots_failures",
        "robots_lock",
        "workers",
    )

    def __init__(self, origin_id: int, name: str, settings: CrawlSettings) -> None:
        self.id = origin_id
        self.name = name
        self.queue = OriginQueue()
        self.pacer = Pacer.from_settings(settings)
        self.patience = Patience(settings.patience)
        self.robots: RobotsRules | None = None
        self.robots_failures = 0
        self.robots_lock = asyncio.Lock()
        self.pull_lock = asyncio.Lock()
        self.changed = asyncio.Event()
        self.gave_up = False
        #: the one entry that says why the origin was given up is written
        self.fate_logged = False
        self.workers = 0


class _Stopping(Exception):
    """The run is stopping: leave the URL in hand alone (it stays due)."""


@dataclass(slots=True)
class _Attempt:
    """Whether the URL's request went out (a cancelled one is then logged)."""

    requested: bool = False


class Engine:
    """One crawl run over an open store (see the module docstring)."""

    def __init__(
        self,
        settings: CrawlSettings,
        store: CrawlStore,
        fetcher: Fetcher,
        scope: Scope,
        stats: CrawlStats,
        *,
        parse_threads: int = 1,
        max_active_origins: int | None = None,
    ) -> None:
        self.settings = settings
        self.store = store
        self.fetcher = fetcher
        self.scope = scope
        self.stats = stats
        self.stop_reason: str | None = None
        self.given_up: dict[int, str] = {}
        self._slots = asyncio.Semaphore(settings.concurrency)
        self._active: dict[int, _Origin] = {}
        self._active_names: set[str] = set()
        self._idle: BoundedCache[int, _Origin] = BoundedCache(1024)
        self._max_active = max_active_origins or max(64, settings.concurrency * 8)
        self._wake = asyncio.Event()
        self._stopped = asyncio.Event()
        self.failure: BaseException | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._requests = 0
        self._pool = ThreadPoolExecutor(parse_threads, thread_name_prefix="unob-parse")
        self._interrupts = 0
        self.interpreter = Interpreter(settings, scope, self._pool)

    # ------------------------------------------------------------------ control

    def stop(self, reason: str) -> None:
        """Stop taking new URLs (requests in flight finish)."""
        if self.stop_reason is None:
            self.stop_reason = reason
            self.stats.stopping = reason
        self._stopped.set()
        self._wake.set()
        for origin in self._active.values():
            origin.changed.set()

    def interrupt(self) -> None:
        """Ctrl-C: stop; cancel in-flight requests after the grace time or a second Ctrl-C."""
        self._interrupts += 1
        self.stop(STOP_INTERRUPTED)
        if self._interrupts == 1:
            grace = GRACE_S * min(1.0, self.settings.time_scale)
            asyncio.get_running_loop().call_later(grace, self._cancel_all)
        else:
            self._cancel_all()

    async def _sleep(self, seconds: float) -> None:
        """Sleep, but wake up at once when the run stops (Retry-After may be an hour)."""
        if seconds <= 0 or self._stopped.is_set():
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopped.wait(), seconds)

    def _cancel_all(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    # ------------------------------------------------------------------ dispatcher

    async def run(self) -> str:
        """Crawl until the frontier is empty, max_requests is reached or Ctrl-C."""
        try:
            while True:
                self._wake.clear()
                if self.stop_reason is None:
                    await self._start_due_origins()
                if not self._active:
                    if self.stop_reason is None:
                        self.stop_reason = STOP_GAVE_UP if self.given_up else STOP_FRONTIER_EMPTY
                    break
                await self._wake.wait()
        finally:
            if self._tasks:
                await asyncio.gather(*self._tasks, return_exceptions=True)
            self._pool.shutdown(wait=True, cancel_futures=True)
        if self.failure is not None:
            raise self.failure
        return self.stop_reason

    async def _start_due_origins(self) -> None:
        due = await self.store.due_origins(
            force_recrawl=self.settings.force_recrawl,
            now=int(time.time()),
        )
        for origin_id, name in due:
            if len(self._active) >= self._max_active or self.stop_reason is not None:
                break
            if origin_id in self._active or origin_id in self.given_up:
                continue
            origin = self._idle.get(origin_id) or _Origin(origin_id, name, self.settings)
            origin.queue.reopen()
            self._active[origin_id] = origin
            self._active_names.add(name)
            for _ in range(self.settings.per_origin_concurrency):
                origin.workers += 1
                task = asyncio.create_task(self._worker(origin), name=f"crawl {name}")
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
        self.stats.active_origins = len(self._active)

    def _worker_done(self, origin: _Origin) -> None:
        origin.workers -= 1
        if origin.workers > 0:
            return
        self._active.pop(origin.id, None)
        self._active_names.discard(origin.name)
        if not origin.gave_up:
            self._idle.put(origin.id, origin)
        self.stats.active_origins = len(self._active)
        self._wake.set()

    # ------------------------------------------------------------------ per origin

    async def _worker(self, origin: _Origin) -> None:
        try:
            await self._work(origin)
        except Exception as exc:
            # a database failure or a bug: stop the whole run and report it
            if self.failure is None:
                self.failure = exc
            self.stop(STOP_ERROR)
        finally:
            self._worker_done(origin)

    async def _work(self, origin: _Origin) -> None:
        while self.stop_reason is None and not origin.gave_up:
            candidate = origin.queue.take()
            if candidate is None:
                if origin.queue.needs_pull:
                    await self._pull(origin)
                    continue
                if origin.queue.busy:
                    origin.changed.clear()
                    await origin.changed.wait()
                    continue
                return
            try:
                await self._crawl(origin, candidate)
            finally:
                origin.queue.done(candidate.url_id)
                origin.queue.reopen()
                origin.changed.set()

    async def _pull(self, origin: _Origin) -> None:
        async with origin.pull_lock:
            if not origin.queue.needs_pull:
                return
            batch = await self.store.pull(
                origin.id,
                PULL_BATCH,
                origin.queue.in_flight,
                force_recrawl=self.settings.force_recrawl,
                now=int(time.time()),
            )
            keep: list[Candidate] = []
            park: list[int] = []
            for candidate in batch:
                if self._in_scope(candidate):
                    keep.append(candidate)
                else:
                    park.append(candidate.url_id)
            if park:
                # out of scope for this run's settings: parked (next_due NULL) until
                # found again as a link or given as a seed
                await self.store.park(park)
            origin.queue.refill(keep, short=len(batch) < PULL_BATCH)

    def _in_scope(self, candidate: Candidate) -> bool:
        # (images are only pulled with --images, sitemaps only with sitemaps on)
        return self.scope.accepts_type(candidate.url, candidate.depth, candidate.crawl_type)

    # ------------------------------------------------------------------ robots.txt

    async def _robots(self, origin: _Origin) -> RobotsRules | None:
        """Fresh robots.txt rules of the origin; None when it was given up meanwhile."""
        rules = origin.robots
        if rules is not None and not rules.expired(time.time()):
            return rules
        async with origin.robots_lock:
            while not origin.gave_up:
                if self.stop_reason is not None:
                    raise _Stopping
                rules = origin.robots
                if rules is not None and not rules.expired(time.time()):
                    if not rules.unavailable:
                        return rules
                    await self._sleep(rules.expires_unix - time.time())
                    continue
                rules = await self._fetch_robots(origin, refetch=rules is not None)
                origin.robots = rules
                origin.pacer.set_crawl_delay(rules.crawl_delay_s)
                if not rules.unavailable:
                    origin.robots_failures = 0
                    return rules
                origin.robots_failures += 1
                exhausted = origin.patience.on_outcome(ExitCode.ROBOTS_UNAVAILABLE)
                # No answer at all (no such host, refused, timed out, even on the fluke
                # retry): waiting minutes for a host that is not there helps nobody.
                silent = rules.status is None
                if silent or exhausted or origin.robots_failures >= ROBOTS_ATTEMPTS:
                    self._give_up(origin, log_next=False)
        return None

    async def _fetch_robots(self, origin: _Origin, *, refetch: bool) -> RobotsRules:
        url = robots_url(origin.name)
        started_ms = _now_ms()
        t0 = time.perf_counter()

        def plan(status: int, _headers: CIMultiDictProxy[str]) -> BodyPlan | None:
            return BodyPlan(ROBOTS_MAX_BYTES, truncate=True) if 200 <= status < 300 else None

        answers = await self._fetch(origin, url, {}, plan, max_redirects=ROBOTS_MAX_REDIRECTS)
        last = answers[-1]
        scale = self.settings.time_scale
        # an answer whose body could not be read is no answer (RFC 9309 §2.3.1.4)
        status = last.status if last.failure is None else None
        rules = RobotsRules.from_response(
            status,
            last.body,
            time.time(),
            token=self.settings.robots_token,
            refetch_s=self.settings.robots_refetch_s * scale,
            retry_s=self.settings.robots_retry_s * scale,
            previous=origin.robots,
        )
        exit_code = last.failure if last.failure is not None else status_exit_code(last.status or 0)
        message = last.message
        # RFC 9309 §2.2.4: Sitemap lines are not rules and belong to no group; they are
        # enqueued with this entry, so that a crawl killed later still has them
        sitemaps = (
            robots_sitemap_candidates(rules.sitemaps, self.scope)
            if self.settings.sitemaps and rules.state is RobotsState.PARSED
            else []
        )
        if sitemaps:
            # the queue may hold them as pages, pulled before this answer came
            origin.queue.promote_to_sitemaps({c.url for c in sitemaps})
        if rules.unavailable:
            why = message or f"HTTP {last.status}"
            message = f"robots.txt unreachable, nothing allowed for now ({why})"
        self._submit(
            EntryRecord(
                uuid=str(uuid.uuid4()),
                url=url,
                origin=origin.name,
                crawl_type=CrawlType.ROBOTSTXT_FETCH,
                scheduling_reason=(
                    SchedulingReason.RECRAWL if refetch else SchedulingReason.EXPLORE
                ),
                started_unix_ms=started_ms,
                time_taken_ms=int((time.perf_counter() - t0) * 1000),
                exit_code=exit_code,
                message=message,
                depth=None,
                requests=request_records(answers, exit_code, approved=True),
                candidates=sitemaps,
                update_candidate=False,
            )
        )
        return rules

    # ------------------------------------------------------------------ one URL

    async def _crawl(self, origin: _Origin, candidate: Candidate) -> None:
        started_ms = _now_ms()
        t0 = time.perf_counter()
        entry = EntryRecord(
            uuid=str(uuid.uuid4()),
            url=candidate.url,
            origin=origin.name,
            crawl_type=candidate.crawl_type,
            scheduling_reason=candidate.scheduling_reason,
            started_unix_ms=started_ms,
            time_taken_ms=None,
            exit_code=ExitCode.CANCELLED,
            message=None,
            depth=candidate.depth,
            url_id=candidate.url_id,
            # sitemaps more often than pages: their <lastmod> dates are how changed
            # pages become due before the recrawl interval (writer.py)
            recrawl_interval_s=(
                self.settings.sitemap_recrawl_interval_s
                if candidate.crawl_type == CrawlType.SITEMAP_CRAWL
                else self.settings.recrawl_interval_s
            ),
        )
        attempt = _Attempt()
        try:
            await self._crawl_into(origin, candidate, entry, attempt)
        except _Stopping:
            return  # the run is stopping: not requested, stays due, no entry
        except asyncio.CancelledError:
            if attempt.requested:
                # the request was on the wire: say so (the URL stays due)
                entry.exit_code = ExitCode.CANCELLED
                entry.message = "cancelled (Ctrl-C) before the answer was complete"
                entry.file = None
                entry.redirects = []
                entry.candidates = []
                entry.time_taken_ms = int((time.perf_counter() - t0) * 1000)
                self._submit(entry)
            raise
        if entry.exit_code is ExitCode.CANCELLED:
            return  # nothing to log (another worker logged the origin's fate)
        entry.time_taken_ms = int((time.perf_counter() - t0) * 1000)
        self._submit(entry)
        await self.store.wait_for_room()

    async def _crawl_into(
        self, origin: _Origin, candidate: Candidate, entry: EntryRecord, attempt: _Attempt
    ) -> None:
        """Fill ``entry`` with what crawling ``candidate`` gives (CANCELLED = no entry)."""
        max_requests = self.settings.max_requests
        if max_requests is not None and self._requests >= max_requests:
            self.stop(STOP_MAX_REQUESTS)
            raise _Stopping
        rules = await self._robots(origin)
        if rules is None:
            if origin.gave_up and not origin.fate_logged:
                origin.fate_logged = True
                entry.exit_code = ExitCode.ROBOTS_UNAVAILABLE
                entry.message = "robots.txt stayed unreachable; origin given up for this run"
            return
        if not rules.allowed(candidate.url):
            entry.exit_code = ExitCode.ROBOTS_DISALLOWED
            entry.message = "disallowed by robots.txt"
            return
        answers = await self._fetch(
            origin,
            candidate.url,
            request_headers(candidate),
            body_plan(self.settings, candidate),
            attempt=attempt,
        )
        await self.interpreter.interpret(candidate, answers, entry)
        if origin.patience.on_outcome(entry.exit_code):
            self._give_up(origin, log_next=True)
            entry.message = (entry.message + "; " if entry.message else "") + (
                "origin given up for this run (patience exhausted)"
            )

    async def _fetch(
        self,
        origin: _Origin,
        url: str,
        headers: dict[str, str],
        plan: PlanFn,
        *,
        max_redirects: int = 0,
        attempt: _Attempt | None = None,
    ) -> list[Answer]:
        """Paced request plus one immediate retry on a fluke failure (the last answer counts).

        Raises :class:`_Stopping` when the run stops while waiting for the pace.
        """
        start = origin.pacer.reserve(time.monotonic())
        await self._sleep(start - time.monotonic())
        answers: list[Answer] = []
        async with self._slots:
            if self.stop_reason is not None:
                raise _Stopping
            if attempt is not None:
                limit = self.settings.max_requests
                if limit is not None and self._requests >= limit:
                    self.stop(STOP_MAX_REQUESTS)
                    raise _Stopping
                attempt.requested = True
                self._requests += 1
                self.stats.requests += 1
            for _attempt in range(2):
                answer = await self.fetcher.get(
                    url, headers=headers, plan=plan, max_redirects=max_redirects
                )
                answers.append(answer)
                now = time.monotonic()
                if answer.answered:
                    retry_after = parse_retry_after(answer.header("Retry-After"), time.time())
                    origin.pacer.on_response(
                        now, (answer.duration_ms or 0) / 1000, answer.status or 0, retry_after
                    )
                else:
                    origin.pacer.on_no_answer(now)
                if answer.body_bytes:
                    self.stats.bytes_read += answer.body_bytes
                if answer.failure not in FLUKE_FAILURES:
                    break
        return answers

    # ------------------------------------------------------------------ bookkeeping

    def _submit(self, entry: EntryRecord) -> None:
        self.store.submit(entry)
        # links to an origin without workers wake the dispatcher (after the submit, so
        # that its query sees them)
        if any(found.origin not in self._active_names for found in entry.candidates):
            self._wake.set()
        stored = entry.file is not None and entry.file.body is not None
        mime = entry.file.mime_type or "" if entry.file is not None else ""
        self.stats.count_entry(
            int(entry.exit_code),
            stored_page=stored and bodylib.is_html(mime),
            stored_image=stored and is_image(mime),
        )

    def _give_up(self, origin: _Origin, *, log_next: bool) -> None:
        """Stop crawling ``origin`` in this run; its URLs stay due.

        ``log_next``: record the fact as one ``origin_gave_up`` entry on the next
        URL it would have crawled (the robots.txt path logs on the URL in hand).
        """
        if origin.gave_up:
            return
        origin.gave_up = True
        self.given_up[origin.id] = origin.name
        self.stats.origins_given_up = len(self.given_up)
        left = origin.queue.drain()
        if left and log_next and not origin.fate_logged:
            origin.fate_logged = True
            nxt = left[0]
            # One entry records that the origin was given up; its URLs stay due.
            self._submit(
                EntryRecord(
                    uuid=str(uuid.uuid4()),
                    url=nxt.url,
                    origin=origin.name,
                    crawl_type=nxt.crawl_type,
                    scheduling_reason=nxt.scheduling_reason,
                    started_unix_ms=_now_ms(),
                    time_taken_ms=0,
                    exit_code=ExitCode.ORIGIN_GAVE_UP,
                    message=f"not requested: {origin.name} ran out of patience in this run",
                    depth=nxt.depth,
                    url_id=nxt.url_id,
                )
            )
        origin.changed.set()
