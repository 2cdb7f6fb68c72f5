"""Progress of a running crawl: counters, a live display on a terminal, log lines otherwise.

The engine updates one :class:`CrawlStats`; a reporter samples it every
fraction of a second (:class:`LiveProgress`, a rich display on a terminal),
every few seconds (:class:`LineProgress`, one plain line on stderr, for logs
and pipes) or hands a :class:`ProgressSnapshot` to a callback.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, TextIO

from rich.console import Console
from rich.live import Live
from rich.table import Table

from unob.codes import ExitCode

__all__ = [
    "CallbackProgress",
    "CrawlStats",
    "LineProgress",
    "LiveProgress",
    "ProgressSnapshot",
    "Reporter",
    "exit_name",
    "make_reporter",
]


def exit_name(code: int) -> str:
    """``file_ingested`` for 20; the number as text for codes unob does not know."""
    try:
        return ExitCode(code).name.lower()
    except ValueError:
        return str(code)


def is_error(code: int) -> bool:
    """Errors: every outcome but content, redirects, unchanged, and robots.txt's no."""
    try:
        known = ExitCode(code)
    except ValueError:
        return True
    return not known.is_contentful and known is not ExitCode.ROBOTS_DISALLOWED


@dataclass(frozen=True, slots=True)
class ProgressSnapshot:
    """A copy of the counters at one moment."""

    elapsed_s: float
    requests: int
    pages: int
    images: int
    entries: int
    errors: int
    bytes_read: int
    frontier: int | None
    """Never-attempted candidates in the database (None = not counted yet)."""
    active_origins: int
    origins_given_up: int
    by_exit_code: dict[str, int]
    stopping: str | None

    @property
    def pages_per_s(self) -> float:
        return self.pages / self.elapsed_s if self.elapsed_s > 0 else 0.0


@dataclass(slots=True)
class CrawlStats:
    """Counters the engine updates as entries are produced (event-loop thread only)."""

    started: float = field(default_factory=time.monotonic)
    requests: int = 0
    pages: int = 0
    images: int = 0
    entries: int = 0
    errors: int = 0
    bytes_read: int = 0
    frontier: int | None = None
    active_origins: int = 0
    origins_given_up: int = 0
    by_exit: Counter[int] = field(default_factory=Counter)
    stopping: str | None = None

    def count_entry(self, exit_code: int, *, stored_page: bool, stored_image: bool) -> None:
        self.entries += 1
        self.by_exit[exit_code] += 1
        if stored_page:
            self.pages += 1
        elif stored_image:
            self.images += 1
        if is_error(exit_code):
            self.errors += 1

    def snapshot(self) -> ProgressSnapshot:
        return ProgressSnapshot(
            elapsed_s=time.monotonic() - self.started,
            requests=self.requests,
            pages=self.pages,
            images=self.images,
            entries=self.entries,
            errors=self.errors,
            bytes_read=self.bytes_read,
            frontier=self.frontier,
            active_origins=self.active_origins,
            origins_given_up=self.origins_given_up,
            by_exit_code={exit_name(k): v for k, v in sorted(self.by_exit.items())},
            stopping=self.stopping,
        )


class Reporter(Protocol):
    interval_s: float

    def start(self) -> None: ...
    def update(self, snap: ProgressSnapshot) -> None: ...
    def stop(self, snap: ProgressSnapshot) -> None: ...


def _errors_text(snap: ProgressSnapshot) -> str:
    parts = [f"{name} {n}" for name, n in snap.by_exit_code.items() if is_error_name(name)]
    return ", ".join(parts) if parts else "none"


def is_error_name(name: str) -> bool:
    try:
        return is_error(ExitCode[name.upper()])
    except KeyError:
        return True


def _line(snap: ProgressSnapshot) -> str:
    frontier = "?" if snap.frontier is None else str(snap.frontier)
    text = (
        f"{snap.elapsed_s:7.1f}s  pages {snap.pages}  images {snap.images}  "
        f"requests {snap.requests}  {snap.pages_per_s:.1f} pages/s  queue {frontier}  "
        f"origins {snap.active_origins}  errors {snap.errors}"
    )
    if snap.stopping:
        text += f"  (stopping: {snap.stopping})"
    return text


class LineProgress:
    """One plain line every few seconds (stderr), for logs and pipes."""

    def __init__(self, stream: TextIO | None = None, interval_s: float = 5.0) -> None:
        self.stream = stream or sys.stderr
        self.interval_s = interval_s

    def start(self) -> None:
        return None

    def update(self, snap: ProgressSnapshot) -> None:
        print("crawl: " + _line(snap), file=self.stream, flush=True)

    def stop(self, snap: ProgressSnapshot) -> None:
        print("crawl: " + _line(snap), file=self.stream, flush=True)


class LiveProgress:
    """A rich live table on a terminal: pages, rate, queue, errors by kind."""

    def __init__(self, console: Console | None = None, interval_s: float = 0.25) -> None:
        self.console = console or Console(stderr=True)
        self.interval_s = interval_s
        self._live: Live | None = None

    def _render(self, snap: ProgressSnapshot) -> Table:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold")
        table.add_column()
        frontier = "counting…" if snap.frontier is None else f"{snap.frontier:,}"
        table.add_row("elapsed", f"{snap.elapsed_s:.1f} s")
        table.add_row("pages", f"{snap.pages:,}  ({snap.pages_per_s:.1f}/s)")
        if snap.images:
            table.add_row("images", f"{snap.images:,}")
        table.add_row("requests", f"{snap.requests:,}  ({snap.bytes_read / 1e6:.1f} MB read)")
        table.add_row("queue", f"{frontier} never-crawled URLs")
        table.add_row("origins", f"{snap.active_origins} active, {snap.origins_given_up} given up")
        table.add_row("errors", _errors_text(snap))
        if snap.stopping:
            table.add_row("stopping", snap.stopping)
        return table

    def start(self) -> None:
        self._live = Live(console=self.console, auto_refresh=False, transient=True)
        self._live.start()

    def update(self, snap: ProgressSnapshot) -> None:
        if self._live is not None:
            self._live.update(self._render(snap), refresh=True)

    def stop(self, snap: ProgressSnapshot) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None


class CallbackProgress:
    """Calls a function with each snapshot (library users, tests)."""

    def __init__(self, callback: Callable[[ProgressSnapshot], None], interval_s: float = 0.5):
        self.callback = callback
        self.interval_s = interval_s

    def start(self) -> None:
        return None

    def update(self, snap: ProgressSnapshot) -> None:
        self.callback(snap)

    def stop(self, snap: ProgressSnapshot) -> None:
        self.callback(snap)


def make_reporter(progress: bool | Callable[[ProgressSnapshot], None]) -> Reporter | None:
    """The reporter for ``run_crawl(progress=...)``: live on a terminal, lines otherwise."""
    if callable(progress):
        return CallbackProgress(progress)
    if not progress:
        return None
    if sys.stderr.isatty():
        return LiveProgress()
    return LineProgress()
