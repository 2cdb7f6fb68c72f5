"""``unob export``: the summary database as a dataset, a Spideriment index or Algolia records.

:func:`export` is the one entry point: it reads pages from the summary
database in batches (:mod:`.reader`), takes raw bodies and images from the
crawl databases when given (:mod:`.crawlsource`), hands each batch to the
format's writer (:mod:`.writers`, registry :data:`FORMATS`), and writes
everything into a staging directory that becomes ``output`` only when the
export is complete (:mod:`.staging`).  Formats are documented in
``docs/export-formats.md``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

from ..errors import ExportError, UsageError
from .algolia import DEFAULT_MAX_RECORD_BYTES, MIN_MAX_RECORD_BYTES
from .bodies import BodySource, NoBodies
from .crawlsource import CrawlSources
from .dataset import CrawlFacts
from .images import DEFAULT_MAX_DISTANCE, DEFAULT_MIN_SIZE
from .reader import DEFAULT_BATCH_SIZE, SummaryReader
from .staging import staged_directory
from .writers import FORMATS, ExportOptions, Writer

__all__ = ["FORMATS", "ExportReport", "export", "format_report", "render_report"]

#: Formats that read raw bodies from crawl databases, and what for.
_NEEDS_BODIES = {
    "parquet": "raw_html/ and images/",
    "csv": "raw_html/ and images/",
    "jsonl": "raw_html/ and images/",
    "spideriment": "content snippets from the HTML (the text pile is used instead)",
}


@dataclass(slots=True)
class ExportReport:
    """What :func:`export` wrote."""

    format: str
    output: Path
    pages: int = 0
    #: Rows of the pages table, lines of the web index, or Algolia records.
    records: int = 0
    #: Rows of the images table (dataset formats).
    images: int = 0
    #: Top-level files and directories written, relative to ``output``.
    files: list[str] = field(default_factory=list)
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)


def export(
    fmt: str,
    output: Path,
    summary_db: Path,
    crawl_dbs: Sequence[Path] = (),
    *,
    raw_html: bool = True,
    images: bool = True,
    include_all: bool = False,
    max_record_bytes: int = DEFAULT_MAX_RECORD_BYTES,
    ndjson: bool = False,
    overwrite: bool = False,
    min_image_size: int = DEFAULT_MIN_SIZE,
    image_hash_distance: int = DEFAULT_MAX_DISTANCE,
    batch_size: int = DEFAULT_BATCH_SIZE,
    progress: bool | None = None,
    now: datetime | None = None,
) -> ExportReport:
    """Export the pages of ``summary_db`` in format ``fmt`` into the directory ``output``.

    ``output`` appears only when the export is complete; an existing
    non-empty directory is replaced only with ``overwrite``.  ``progress``
    shows a progress bar (default: when stderr is a terminal); ``now`` fixes
    the manifest's ``created_at`` (tests).  Raises :class:`UsageError` for
    bad options and :class:`ExportError` / :class:`DatabaseError` for
    problems with the files.
    """
    if fmt not in FORMATS:
        raise UsageError(f"unknown export format {fmt!r} (choose from {', '.join(FORMATS)})")
    if max_record_bytes < MIN_MAX_RECORD_BYTES:
        raise UsageError(f"--max-record-bytes must be at least {MIN_MAX_RECORD_BYTES}")
    if min_image_size < 0:
        raise UsageError("the minimum image size cannot be negative")
    if not 0 <= image_hash_distance < 64:
        raise UsageError("the image hash distance must be between 0 and 63 bits")
    if batch_size < 1:
        raise UsageError("the batch size must be at least 1")
    options = ExportOptions(
        raw_html=raw_html,
        images=images,
        max_record_bytes=max_record_bytes,
        ndjson=ndjson,
        min_image_size=min_image_size,
        image_hash_distance=image_hash_distance,
    )
    report = ExportReport(fmt, output)
    started = time.monotonic()
    with SummaryReader(summary_db, include_all=include_all) as reader, _sources(crawl_dbs) as src:
        if not crawl_dbs and fmt in _NEEDS_BODIES and (raw_html or images or fmt == "spideriment"):
            report.warnings.append(f"no --crawl-db given: no raw bodies for {_NEEDS_BODIES[fmt]}")
        total = reader.count()
        try:
            keep = [summary_db, *crawl_dbs]
            with staged_directory(output, overwrite=overwrite, keep=keep) as staging:
                writer: Writer = FORMATS[fmt](staging, options, src)
                try:
                    with _progress(total, progress) as advance:
                        for batch in reader.batches(batch_size):
                            writer.write_batch(batch)
                            advance(len(batch))
                    written = writer.finish(
                        lambda: _crawl_facts(reader, src), now or datetime.now(UTC)
                    )
                except BaseException:
                    writer.abort()
                    raise
        except OSError as error:
            raise ExportError(f"cannot write {output}: {error.strerror or error}") from error
    report.pages = written.pages
    report.records = written.records
    report.images = written.images
    report.files = written.files
    report.seconds = time.monotonic() - started
    return report


def _crawl_facts(reader: SummaryReader, sources: BodySource) -> CrawlFacts:
    """Failures from the summary DB; the crawl time from crawl DBs when given."""
    facts = reader.crawl_facts()
    if isinstance(sources, CrawlSources):
        crawl_time = sources.time_taken_seconds()
        if crawl_time is not None:
            facts = replace(facts, time_taken_seconds=crawl_time)
    return facts


def format_report(report: ExportReport) -> str:
    """The lines ``unob export`` prints when it is done."""
    what = {"spideriment": "index rows", "algolia": "records"}.get(report.format, "page rows")
    lines = [
        f"exported {report.pages} pages as {report.format} to {report.output} "
        f"in {report.seconds:.1f} s: {report.records} {what}"
        + (f", {report.images} image rows" if report.format in ("parquet", "csv", "jsonl") else ""),
        "files: " + (", ".join(report.files) or "none"),
    ]
    lines += [f"warning: {warning}" for warning in report.warnings]
    return "\n".join(lines)


def render_report(report: ExportReport) -> None:
    """Print :func:`format_report` on stdout."""
    sys.stdout.write(format_report(report) + "\n")


@contextmanager
def _sources(crawl_dbs: Sequence[Path]) -> Iterator[BodySource]:
    if not crawl_dbs:
        yield NoBodies()
        return
    with CrawlSources(crawl_dbs) as sources:
        yield sources


@contextmanager
def _progress(total: int, show: bool | None) -> Iterator[Callable[[int], None]]:
    """A rich progress bar on stderr when it is a terminal (or when asked)."""
    if show is None:
        show = sys.stderr.isatty()
    if not show:
        yield lambda _n: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("exporting pages"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True)) as bar:
        task = bar.add_task("export", total=total)
        yield lambda n: bar.advance(task, n)
