"""``unob summarize``: crawl databases in, summary database out, batch by batch.

For each crawl database, batches of ``batch_size`` crawl log entries after
the source's high-water mark are read (:mod:`.crawlread`), interpreted and
derived (:mod:`.observe`), decided (:mod:`.generations`) and written
(:mod:`.summarystore`, :mod:`.fts`) in ONE summary-DB transaction together
with the new high-water mark.  So the run is

* incremental: the next run starts after the mark;
* idempotent: an entry whose ``crawl_log_entry_uuid`` already has a
  ``crawl_summary`` is skipped (the same crawl DB copied elsewhere, or fed
  twice under two names);
* crash-safe: after a kill -9 the summary DB holds whole batches only, and
  a rerun continues from the last committed mark with the same batch
  boundaries, giving the same summary DB as an uninterrupted run.

The algorithm and every decision it makes are described in
``docs/summarizer.md``.
"""

from __future__ import annotations

import gc
import os
import pickle
import sqlite3
import sys
import time
import uuid
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from importlib.machinery import ModuleSpec
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from unob.errors import DatabaseError, UsageError
from unob.summarizer import fts
from unob.summarizer.crawlentry import CrawlEntry
from unob.summarizer.crawlread import CrawlReader
from unob.summarizer.document import TextPile
from unob.summarizer.generations import (
    Action,
    GenerationPlan,
    Observation,
    OpenGeneration,
    end_duplicates_of_closed,
    plan_duplicates,
    plan_generations,
)
from unob.summarizer.observe import (
    DESCRIPTION_COLUMNS,
    HEADING_COLUMNS,
    IMAGE_COLUMNS,
    LINK_COLUMNS,
    Observed,
    link_rows,
    observe_releasing,
)
from unob.summarizer.summarystore import SummaryStore
from unob.summarizer.worker import (
    SLOTS,
    close_claims,
    collecting_less,
    derive_claimed,
    derive_pages,
    front_claims,
    open_claims,
    start_worker,
)
from unob.urls import canonicalize

__all__ = ["DEFAULT_BATCH_SIZE", "SummarizeReport", "render_report", "summarize"]

DEFAULT_BATCH_SIZE = 500
#: A batch also ends before its page bodies pass this many (uncompressed)
#: bytes: memory per batch stays about the same whatever the page sizes.
#: The last batch is written while the workers have nothing left to do, so
#: smaller batches keep the CPUs busier on short runs: on python3-doc (50 MB,
#: 530 pages) CPU time was 96-97% of two cores' wall time with 8 MiB, 88-92%
#: with 16 MiB; on 10,000 news-shaped pages both gave 93-95%.
BATCH_MAX_BYTES = 8 * 1024 * 1024

_GENERATION_COLUMNS = (
    "entity_generation_id",
    "entity_generation_uuid",
    "url_id",
    "kind",
    "first_seen_unix_utc",
    "last_seen_unix_utc",
    "confirmed_end_unix_utc",
    "text_pile_id",
    "content_signature",
)
_CRAWL_SUMMARY_COLUMNS = (
    "entity_generation_id",
    "crawl_uuid",
    "crawl_source_id",
    "crawl_log_entry_id",
    "url_id",
    "agent_uuid",
    "crawl_type",
    "scheduling_reason",
    "time_started_unix_utc",
    "was_robotstxt_approved",
    "exit_code",
    "message",
    "request_duration_ms",
    "request_count",
    "time_last_modified_unix_utc",
    "http_status",
    "http_etag",
    "content_type",
    "summarizer_action",
)
_FILE_COLUMNS = (
    "entity_generation_id",
    "mime_type",
    "charset",
    "file_size",
    "content_sha256",
    "last_modified_unix_utc",
    "canonical_url_id",
    "depth",
    "robots_noindex",
    "robots_nofollow",
    "link_count",
    "derive_error",
)
_REDIRECT_COLUMNS = (
    "entity_generation_id",
    "to_url_id",
    "to_url_fragment",
    "http_status",
    "is_permanent",
    "by_security_policy",
    "information_source",
)


@dataclass
class SummarizeReport:
    """What one ``summarize`` run did (counts are for this run only)."""

    crawl_dbs: list[str] = field(default_factory=list)
    summary_db: str = ""
    #: Crawl log entries read after the high-water marks.
    entries_read: int = 0
    #: Entries already summarized (their uuid has a crawl_summary): skipped.
    entries_skipped: int = 0
    #: robots.txt fetches and image crawls: no generations (not pages).
    entries_not_pages: int = 0
    crawl_summaries: int = 0
    pages_derived: int = 0
    #: Pages whose body could not be read or derived (kept with derive_error).
    derive_errors: int = 0
    generations_created: int = 0
    #: Stored or new generations closed (changed content, 404/410).
    generations_closed: int = 0
    #: Crawls (incl. 304s) that confirmed an open generation instead of making one.
    self_duplicates: int = 0
    #: Generations newly marked as exact duplicates.
    exact_duplicates: int = 0
    batches: int = 0
    elapsed_s: float = 0.0
    #: CPU seconds spent deriving page content (in workers or in-process).
    derive_cpu_s: float = 0.0
    #: CPU seconds of the summarizing process itself, derivation done there excluded.
    write_cpu_s: float = 0.0
    #: A bulk run: the link-target index was dropped at the start (see _is_bulk_run).
    bulk: bool = False
    #: Seconds spent building the link-target index at the end (0: it was there).
    link_index_s: float = 0.0

    @property
    def entries_per_s(self) -> float:
        return self.entries_read / self.elapsed_s if self.elapsed_s > 0 else 0.0


def render_report(report: SummarizeReport) -> None:
    """Print the final report (one line per figure) on stdout."""
    figures = [
        ("entries read", report.entries_read),
        ("already summarized", report.entries_skipped),
        ("not pages (robots.txt, images)", report.entries_not_pages),
        ("crawl summaries", report.crawl_summaries),
        ("pages derived", report.pages_derived),
        ("  of which unreadable", report.derive_errors),
        ("generations created", report.generations_created),
        ("generations closed", report.generations_closed),
        ("self-duplicates", report.self_duplicates),
        ("exact duplicates marked", report.exact_duplicates),
    ]
    width = max(len(label) for label, _ in figures)
    lines = [
        f"summarized {len(report.crawl_dbs)} crawl DB(s) into {report.summary_db} "
        f"in {report.elapsed_s:.1f} s ({report.entries_per_s:.0f} entries/s, "
        f"{report.batches} batches)",
        *(f"  {label:<{width}}  {value}" for label, value in figures),
        f"  {'CPU seconds':<{width}}  {report.derive_cpu_s:.1f} deriving pages, "
        f"{report.write_cpu_s:.1f} reading and writing databases",
    ]
    if report.link_index_s:
        why = "bulk run" if report.bulk else "it was missing"
        lines.append(
            f"  {'link target index':<{width}}  built in {report.link_index_s:.1f} s ({why})"
        )
    sys.stdout.write("\n".join(lines) + "\n")


class _Progress:
    """A rich progress bar on stderr when it is a terminal; otherwise nothing."""

    def __init__(self, enabled: bool, total: int) -> None:
        self._bar: Any = None
        if not (enabled and sys.stderr.isatty()):
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        self._bar = Progress(
            TextColumn("summarizing"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]} entries/s"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
        )
        self._task = self._bar.add_task("summarize", total=total, rate="-")
        self._started = time.monotonic()
        self._done = 0
        self._bar.start()

    def advance(self, n: int) -> None:
        if self._bar is None:
            return
        self._done += n
        rate = self._done / max(time.monotonic() - self._started, 1e-9)
        self._bar.update(self._task, advance=n, rate=f"{rate:.0f}")

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


_Task = Future[tuple[list[tuple[int, bytes]], float]]


class _Derivation:
    """The observations of one batch's page entries, being derived.

    In worker mode each worker has the batch as one task and claims pages
    from the front; :meth:`result` has the writer claim pages from the back
    until none is left, then collect the workers' pages (see
    :mod:`.worker`, "Page claims").  In-process, the writer derives them all.
    """

    def __init__(
        self,
        entries: list[CrawlEntry],
        pages: list[CrawlEntry],
        claims: Any = None,
        seq: int = 0,
        tasks: list[_Task] | None = None,
    ) -> None:
        self.entries = entries
        self._pages = pages
        self._claims = claims
        self._seq = seq
        self._tasks = tasks or []
        #: CPU seconds this (the writer's) process spent deriving.
        self.local_cpu = 0.0

    def result(self) -> tuple[list[Observed], float]:
        """The observations, in entry order, and the CPU seconds their derivation took."""
        pages = self._pages
        if self._claims is None:
            started = time.process_time()
            observed = [observe_releasing(page) for page in pages]
            self.local_cpu = time.process_time() - started
            return observed, self.local_cpu
        done, self.local_cpu = derive_pages(self._claims, self._seq, pages, from_front=False)
        cpu = self.local_cpu
        # Every page is claimed now.  A worker that claimed none has nothing
        # to wait for (at the first batch the worker may still be starting).
        if front_claims(self._claims, self._seq):
            for task in self._tasks:
                part, spent = task.result()
                done += [(index, pickle.loads(data)) for index, data in part]
                cpu += spent
        by_index = dict(done)
        if len(by_index) != len(pages):  # a broken claim array: never write a partial batch
            raise RuntimeError(f"{len(by_index)} of {len(pages)} pages derived")
        return [by_index[i] for i in range(len(pages))], cpu


class _Deriver:
    """Derives batches in worker processes (``workers`` > 0) or in-process.

    With workers, the next batch is derived while the current one is written:
    derivation is most of the CPU time and needs no database, the writer is
    one process by design.  Results are the same either way (derivation is
    pure), so batch contents and the summary DB do not depend on it.
    """

    def __init__(self, workers: int) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._claims: Any = None
        self._workers = workers
        self._seq = 0
        if workers > 0:
            # spawn: workers are fresh interpreters, without the writer's
            # SQLite connections (a fork would share them).
            context = get_context("spawn")
            self._claims = context.Array("q", 3 * SLOTS)
            self._pool = ProcessPoolExecutor(
                workers,
                mp_context=context,
                initializer=start_worker,
                initargs=(os.getpid(), self._claims),
            )

    def _submit(self, seq: int, pages: list[CrawlEntry]) -> _Task:
        # Workers are started on demand by submit(): while they are, the
        # caller's __main__ is hidden from multiprocessing, which would
        # otherwise re-run the caller's script in every worker (a script
        # without a __main__ guard would summarize again in each).  Only
        # importable functions are sent to the workers, so they need no
        # __main__.
        assert self._pool is not None
        main = sys.modules["__main__"]
        saved = getattr(main, "__spec__", None)
        main.__spec__ = ModuleSpec("__main__", None)
        try:
            return self._pool.submit(derive_claimed, seq, pages)
        finally:
            main.__spec__ = saved

    def submit(self, entries: list[CrawlEntry]) -> _Derivation:
        pages = [entry for entry in entries if entry.is_page_crawl]
        if self._pool is None or not pages:
            return _Derivation(entries, pages)
        self._seq += 1
        open_claims(self._claims, self._seq, len(pages))
        tasks = [self._submit(self._seq, pages) for _ in range(self._workers)]
        return _Derivation(entries, pages, self._claims, self._seq, tasks)

    def close(self) -> None:
        if self._pool is not None:
            close_claims(self._claims)
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


# A bulk run drops the link_summary.to_url_id index at its start and builds it
# once at its end.  Row by row, each batch's link rows land on random pages of
# that index: once it outgrows the page cache, every batch rewrites most of
# it (WAL, then checkpoint).  At 50,000 news pages that upkeep was 1.15 ms a
# page, a third of the writer; building it at the end takes a few seconds.
# Even while the index fits in the cache, each link row costs 5,500
# instructions more with it (python3-doc has 317 links a page), and sorting
# the keys once is cheaper: summarizing python3-doc into a new DB took
# 14.3-15.7 ms of CPU a page as a bulk run, 15.2-17.1 without.
# Bulk: at least this many new entries (runs that start worker processes),
# and at least as many as are stored.
_BULK_MIN_ENTRIES = 200


def _is_bulk_run(pending: int, stored: int) -> bool:
    return pending >= _BULK_MIN_ENTRIES and pending >= stored


# Below this many pending entries, derivation runs in-process: starting the
# workers (fresh interpreters importing lxml) costs about a second.
_POOL_MIN_ENTRIES = 200


def _auto_workers(pending: int) -> int:
    """Worker processes for derivation: one per usable CPU but the writer's, 1 to 4.

    The writer (this process) keeps a core busy on its own for small pages;
    more workers than cores would only add memory.
    """
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if (cpus or 1) < 2 or pending < _POOL_MIN_ENTRIES:
        return 0
    return min((cpus or 1) - 1, 4)


def summarize(
    crawl_dbs: Sequence[Path],
    summary_db: Path,
    *,
    batch_size: int = DEFAULT_BATCH_SIZE,
    progress: bool = False,
    workers: int | None = None,
) -> SummarizeReport:
    """Integrate the new crawl log entries of ``crawl_dbs`` into ``summary_db``.

    The summary DB is created (and migrated) if needed.  Each crawl DB is
    opened read-only; a missing file, a summary DB given as crawl DB, or a
    schema newer than this unob raise a one-line
    :class:`~unob.errors.DatabaseError` before anything is written.
    ``workers``: processes deriving page content (0 = in this process;
    None = one per CPU for runs of more than a few batches).
    """
    if batch_size < 1:
        raise UsageError("--batch-size must be at least 1")
    started, started_cpu = time.monotonic(), time.process_time()
    local_cpu = 0.0  # CPU seconds this process spent deriving
    report = SummarizeReport(crawl_dbs=[str(p) for p in crawl_dbs], summary_db=str(summary_db))
    with ExitStack() as stack:
        stack.enter_context(collecting_less())
        readers: list[CrawlReader] = []
        seen: set[str] = set()
        for path in crawl_dbs:
            reader = CrawlReader(Path(path))
            stack.callback(reader.close)
            if reader.database_uuid not in seen:  # the same DB given twice
                seen.add(reader.database_uuid)
                readers.append(reader)
        store = SummaryStore(Path(summary_db))
        stack.callback(store.close)
        sources = [(reader, *store.source(reader.database_uuid, reader.path)) for reader in readers]
        pending = sum(r.count_after(mark) for r, _, mark in sources)
        report.bulk = _is_bulk_run(pending, store.crawl_summary_count())
        if report.bulk:
            store.drop_link_target_index()
        bar = _Progress(progress, pending)
        stack.callback(bar.close)
        deriver = _Deriver(_auto_workers(pending) if workers is None else workers)
        stack.callback(deriver.close)
        for reader, source_id, mark in sources:
            first = reader.read_batch(mark, batch_size, BATCH_MAX_BYTES)
            current = deriver.submit(first) if first else None
            while current is not None:
                entries = current.entries
                # Read and start deriving the next batch before writing this one.
                following = reader.read_batch(entries[-1].entry_id, batch_size, BATCH_MAX_BYTES)
                upcoming = deriver.submit(following) if following else None
                _integrate_batch(store, source_id, mark, current, report)
                gc.collect()  # the written batch is garbage now (see worker.collect_less)
                local_cpu += current.local_cpu
                mark = entries[-1].entry_id
                report.batches += 1
                bar.advance(len(entries))
                current = upcoming
        # Only when every batch is in: a run that fails or is killed leaves
        # the index to the next run (which builds it even with nothing to do).
        bar.close()
        deriver.close()
        building = time.monotonic()
        if store.ensure_link_target_index():
            report.link_index_s = time.monotonic() - building
    report.elapsed_s = time.monotonic() - started
    report.write_cpu_s = time.process_time() - started_cpu - local_cpu
    return report


def _integrate_batch(
    store: SummaryStore,
    source_id: int,
    mark: int,
    derivation: _Derivation,
    report: SummarizeReport,
) -> None:
    """One batch, one transaction: everything it derives plus the new high-water mark."""
    entries = derivation.entries
    observed, derive_cpu = derivation.result()
    report.derive_cpu_s += derive_cpu
    try:
        store.begin()
        store.check_mark(source_id, mark)
        done = store.existing_crawl_uuids([o.entry.uuid for o in observed])
        todo = [o for o in observed if o.entry.uuid not in done]
        report.entries_read += len(entries)
        report.entries_not_pages += len(entries) - len(observed)
        report.entries_skipped += len(observed) - len(todo)
        if todo:
            _write(store, source_id, todo, report)
        store.set_mark(source_id, entries[-1].entry_id, len(entries))
        store.commit()
    except sqlite3.OperationalError as exc:  # locked, disk full, I/O error: the user's to fix
        store.rollback()
        raise DatabaseError(f"{store.path}: {exc}") from exc
    except BaseException:
        store.rollback()
        raise


def _write(
    store: SummaryStore, source_id: int, observed: list[Observed], report: SummarizeReport
) -> None:
    url_ids = store.url_ids(o.entry.url for o in observed)
    open_rows = store.open_generations(url_ids.values())
    plan = plan_generations(
        [Observation(url_ids[o.entry.url], o.entry.time, o.outcome, o.signature) for o in observed],
        {
            url_id: OpenGeneration(r.generation_id, r.first_seen, r.last_seen, r.signature)
            for url_id, r in open_rows.items()
        },
    )
    creators = [observed[g.observation] for g in plan.new_generations]
    piles: dict[bytes, TextPile] = {
        o.content.digest: o.content.pile for o in creators if o.content is not None
    }
    pile_ids = store.text_pile_ids(piles)
    targets = store.url_ids(_target_urls(creators))
    base = store.next_generation_id()
    ids = {g.key: base + i for i, g in enumerate(plan.new_generations)}

    # The index's delete needs the values it indexed: unindex before closing.
    closed_existing = plan.closed_existing
    fts.unindex(store.conn, closed_existing)
    # Close before inserting: at most one open generation per URL (unique index).
    store.update_generation_times(
        [(u.first_seen, u.last_seen, u.confirmed_end, gid) for gid, u in plan.updates.items()]
    )
    store.insert(
        "entity_generation",
        _GENERATION_COLUMNS,
        [
            (
                ids[g.key],
                str(uuid.uuid4()),
                g.url_id,
                o.kind,
                g.first_seen,
                g.last_seen,
                g.confirmed_end,
                pile_ids.get(o.digest) if o.digest is not None else None,
                g.signature,
            )
            for g, o in zip(plan.new_generations, creators, strict=True)
        ],
    )
    _write_crawl_summaries(store, source_id, observed, url_ids, plan, ids)
    _write_contents(store, creators, [ids[g.key] for g in plan.new_generations], targets)
    fts.index(store.conn, [ids[g.key] for g in plan.new_generations if g.confirmed_end is None])

    closed_at: dict[int, int] = {}
    for gid in closed_existing:
        end = plan.updates[gid].confirmed_end
        assert end is not None
        closed_at[gid] = end
    affected = {pile_ids[o.digest] for o in creators if o.digest is not None}
    affected |= {
        r.text_pile_id
        for r in open_rows.values()
        if r.generation_id in closed_at and r.text_pile_id is not None
    }
    report.exact_duplicates += _mark_duplicates(store, affected, closed_at)

    report.crawl_summaries += len(observed)
    report.pages_derived += sum(1 for o in observed if o.kind == "page")
    report.derive_errors += sum(1 for o in observed if o.derive_error is not None)
    report.generations_created += len(plan.new_generations)
    report.generations_closed += len(closed_existing) + sum(
        1 for g in plan.new_generations if g.confirmed_end is not None
    )
    report.self_duplicates += sum(1 for a, _ in plan.decisions if a is Action.SELF_DUPLICATE)


def _target_urls(creators: list[Observed]) -> set[str]:
    """Every URL the new generations reference: links, canonical URLs, redirect targets."""
    urls: set[str] = set()
    for o in creators:
        if o.entry.redirect is not None:
            urls.add(o.entry.redirect.to_url)
        canonical = _canonical_url(o)
        if canonical is not None:
            urls.add(canonical)
        if o.content is not None:
            urls.update(row[0] for row in o.content.links)
    return urls


def _canonical_url(o: Observed) -> str | None:
    """The crawler's recorded canonical URL, else the page's own claim (canonicalized)."""
    if o.entry.file is not None and o.entry.file.canonical_url:
        return o.entry.file.canonical_url
    if o.content is not None and o.content.canonical_url:
        return canonicalize(o.content.canonical_url)
    return None


def _write_crawl_summaries(
    store: SummaryStore,
    source_id: int,
    observed: list[Observed],
    url_ids: dict[str, int],
    plan: GenerationPlan,
    ids: dict[int, int],
) -> None:
    rows = []
    for o, (action, key) in zip(observed, plan.decisions, strict=True):
        e, req = o.entry, o.entry.request
        rows.append(
            (
                None if key is None else (key if key > 0 else ids[key]),
                e.uuid,
                source_id,
                e.entry_id,
                url_ids[e.url],
                e.agent_uuid,
                e.crawl_type,
                e.scheduling_reason,
                e.time,
                None if req is None else req.robotstxt_approved,
                e.exit_code,
                e.message,
                None if req is None else req.duration_ms,
                0 if req is None else req.count,
                None if req is None else req.server_last_modified_unix_utc,
                None if req is None else req.http_status,
                None if req is None else req.http_etag,
                None if req is None else req.content_type,
                str(action),
            )
        )
    store.insert("crawl_summary", _CRAWL_SUMMARY_COLUMNS, rows)


def _write_contents(
    store: SummaryStore, creators: list[Observed], gen_ids: list[int], targets: dict[str, int]
) -> None:
    """file_summary, document_description, headings, images, links, redirect_summary."""
    files: list[tuple[Any, ...]] = []
    descriptions: list[tuple[Any, ...]] = []
    headings: list[tuple[Any, ...]] = []
    images: list[tuple[Any, ...]] = []
    links: list[tuple[Any, ...]] = []
    redirects: list[tuple[Any, ...]] = []
    for gid, o in zip(gen_ids, creators, strict=True):
        entry, content = o.entry, o.content
        if entry.redirect is not None:
            red = entry.redirect
            redirects.append(
                (
                    gid,
                    targets[red.to_url],
                    red.to_fragment,
                    red.http_status,
                    red.is_permanent,
                    red.by_security_policy,
                    red.information_source,
                )
            )
            continue
        file = entry.file
        assert file is not None
        canonical = _canonical_url(o)
        files.append(
            (
                gid,
                file.mime_type,
                file.charset,
                file.size,
                file.sha256,
                file.last_modified_unix_utc,
                None if canonical is None else targets[canonical],
                file.depth,
                o.noindex,
                o.nofollow,
                0 if content is None else len(content.links),
                o.derive_error,
            )
        )
        if content is None:
            continue
        descriptions.append((gid, *content.description))
        headings.extend((gid, *row) for row in content.headings)
        images.extend((gid, *row) for row in content.images)
        links += link_rows(gid, content.links, targets)
    store.insert("file_summary", _FILE_COLUMNS, files)
    store.insert(
        "document_description", ("entity_generation_id", *DESCRIPTION_COLUMNS), descriptions
    )
    store.insert("heading", ("entity_generation_id", *HEADING_COLUMNS), headings)
    store.insert("image", ("entity_generation_id", *IMAGE_COLUMNS), images)
    store.insert("link_summary", ("entity_generation_id", "position", *LINK_COLUMNS), links)
    store.insert("redirect_summary", _REDIRECT_COLUMNS, redirects)


def _mark_duplicates(store: SummaryStore, piles: set[int], closed_at: dict[int, int]) -> int:
    """Recompute the exact-duplicate groups of ``piles``; returns how many were newly marked.

    Piles without main text never group (pages whose main content is empty
    are not duplicates of each other just because nothing was found).
    """
    groups = store.duplicate_groups(store.nonempty_piles(piles))
    members = [m.generation_id for group in groups.values() for m in group]
    current = store.current_duplicates([*members, *closed_at])
    plan = end_duplicates_of_closed(current, closed_at)
    still = [c for c in current if c.duplicate_summary_id not in plan.end]
    for key in sorted(groups):
        plan.merge(plan_duplicates(groups[key], still))
    store.apply_duplicates(plan)
    return sum(1 for marked in plan.marks.values() if marked)
