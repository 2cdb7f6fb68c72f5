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

import json
import sys
import time
import uuid
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import Boolean

from unob.errors import UsageError
from unob.schema.summary import link_summary
from unob.summarizer import fts
from unob.summarizer.crawlread import CrawlEntry, CrawlReader
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
from unob.summarizer.observe import Observed, observe
from unob.summarizer.summarystore import SummaryStore
from unob.urls import canonicalize

__all__ = ["DEFAULT_BATCH_SIZE", "SummarizeReport", "render_report", "summarize"]

DEFAULT_BATCH_SIZE = 500

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
_DESCRIPTION_COLUMNS = (
    "entity_generation_id",
    "title",
    "primary_headline",
    "description",
    "primary_language",
    "keywords",
    "author",
    "image",
    "category",
    "published_unix_utc",
    "modified_unix_utc",
    "canonical_url",
    "word_count",
    "indexiness",
    "robots",
)
# The boolean columns of link_summary (rel and location flags) are read from
# the Link attributes of the same names.
_LINK_FLAGS = tuple(
    column.name for column in link_summary.columns if isinstance(column.type, Boolean)
)
_LINK_COLUMNS = (
    "entity_generation_id",
    "position",
    "to_url_id",
    "to_url_fragment",
    "text",
    "kind",
    "locality",
    "rel",
    *_LINK_FLAGS,
)
_HEADING_COLUMNS = ("entity_generation_id", "position", "level", "text", "anchor")
_IMAGE_COLUMNS = ("entity_generation_id", "position", "src", "alt", "width", "height")
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

    @property
    def entries_per_s(self) -> float:
        return self.entries_read / self.elapsed_s if self.elapsed_s > 0 else 0.0


def render_report(report: SummarizeReport) -> None:
    """Print the final report (one line per figure) on stdout."""
    lines = [
        f"summarized {len(report.crawl_dbs)} crawl DB(s) into {report.summary_db} "
        f"in {report.elapsed_s:.1f} s ({report.entries_per_s:.0f} entries/s, "
        f"{report.batches} batches)",
        f"  entries read           {report.entries_read}",
        f"  already summarized     {report.entries_skipped}",
        f"  not pages (robots.txt, images) {report.entries_not_pages}",
        f"  crawl summaries        {report.crawl_summaries}",
        f"  pages derived          {report.pages_derived}"
        + (f" ({report.derive_errors} unreadable)" if report.derive_errors else ""),
        f"  generations created    {report.generations_created}",
        f"  generations closed     {report.generations_closed}",
        f"  self-duplicates        {report.self_duplicates}",
        f"  exact duplicates       {report.exact_duplicates}",
    ]
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


def summarize(
    crawl_dbs: Sequence[Path],
    summary_db: Path,
    *,
    batch_size: int = DEFAULT_BATCH_SIZE,
    progress: bool = False,
) -> SummarizeReport:
    """Integrate the new crawl log entries of ``crawl_dbs`` into ``summary_db``.

    The summary DB is created (and migrated) if needed.  Each crawl DB is
    opened read-only; a missing file, a summary DB given as crawl DB, or a
    schema newer than this unob raise a one-line
    :class:`~unob.errors.DatabaseError` before anything is written.
    """
    if batch_size < 1:
        raise UsageError("--batch-size must be at least 1")
    started = time.monotonic()
    report = SummarizeReport(crawl_dbs=[str(p) for p in crawl_dbs], summary_db=str(summary_db))
    with ExitStack() as stack:
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
        bar = _Progress(progress, sum(r.count_after(mark) for r, _, mark in sources))
        stack.callback(bar.close)
        for reader, source_id, mark in sources:
            while True:
                entries = reader.read_batch(mark, batch_size)
                if not entries:
                    break
                _integrate_batch(store, source_id, mark, entries, report)
                mark = entries[-1].entry_id
                report.batches += 1
                bar.advance(len(entries))
    report.elapsed_s = time.monotonic() - started
    return report


def _integrate_batch(
    store: SummaryStore,
    source_id: int,
    mark: int,
    entries: list[CrawlEntry],
    report: SummarizeReport,
) -> None:
    """One batch, one transaction: everything it derives plus the new high-water mark."""
    store.begin()
    try:
        store.check_mark(source_id, mark)
        pages = [e for e in entries if e.is_page_crawl]
        done = store.existing_crawl_uuids([e.uuid for e in pages])
        todo = [e for e in pages if e.uuid not in done]
        report.entries_read += len(entries)
        report.entries_not_pages += len(entries) - len(pages)
        report.entries_skipped += len(pages) - len(todo)
        if todo:
            _write(store, source_id, [observe(e) for e in todo], report)
        store.set_mark(source_id, entries[-1].entry_id, len(entries))
        store.commit()
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
        o.digest: o.derived.text_pile
        for o in creators
        if o.derived is not None and o.digest is not None
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
    report.pages_derived += sum(1 for o in observed if o.derived is not None)
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
        if o.derived is not None:
            urls.update(link.to_url for link in o.derived.links)
    return urls


def _canonical_url(o: Observed) -> str | None:
    """The crawler's recorded canonical URL, else the page's own claim (canonicalized)."""
    if o.entry.file is not None and o.entry.file.canonical_url:
        return o.entry.file.canonical_url
    if o.derived is not None and o.derived.description.canonical_url:
        return canonicalize(o.derived.description.canonical_url)
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
        entry, derived = o.entry, o.derived
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
        nofollow = file.robots_nofollow or (
            derived is not None and "nofollow" in derived.description.robots
        )
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
                nofollow,
                0 if derived is None else len(derived.links),
                o.derive_error,
            )
        )
        if derived is None:
            continue
        d = derived.description
        descriptions.append(
            (
                gid,
                d.title,
                d.primary_headline,
                d.description,
                d.primary_language,
                _json_list(d.keywords),
                d.author,
                d.image,
                d.category,
                d.published_unix_utc,
                d.modified_unix_utc,
                d.canonical_url,
                d.word_count,
                d.indexiness,
                " ".join(d.robots) or None,
            )
        )
        # Positions are renumbered 0.. in document order, so the primary keys
        # hold whatever the extractor returns.
        headings.extend((gid, i, h.level, h.text, h.anchor) for i, h in enumerate(derived.headings))
        images.extend(
            (gid, i, im.src, im.alt, im.width, im.height) for i, im in enumerate(derived.images)
        )
        links.extend(
            (
                gid,
                i,
                targets[link.to_url],
                link.to_fragment,
                link.text,
                link.kind,
                link.locality,
                " ".join(link.rel) or None,
                *(getattr(link, flag) for flag in _LINK_FLAGS),
            )
            for i, link in enumerate(derived.links)
        )
    store.insert("file_summary", _FILE_COLUMNS, files)
    store.insert("document_description", _DESCRIPTION_COLUMNS, descriptions)
    store.insert("heading", _HEADING_COLUMNS, headings)
    store.insert("image", _IMAGE_COLUMNS, images)
    store.insert("link_summary", _LINK_COLUMNS, links)
    store.insert("redirect_summary", _REDIRECT_COLUMNS, redirects)


def _json_list(values: tuple[str, ...]) -> str | None:
    return json.dumps(list(values), ensure_ascii=False) if values else None


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
