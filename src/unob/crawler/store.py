"""The crawl database, written by one thread: whole entries per transaction.

Everything ``unob crawl`` reads from or writes to the crawl database goes
through :class:`CrawlStore`, which runs every statement on one dedicated
thread with its own :mod:`sqlite3` connection (:class:`~.writer.Writer`).
That keeps SQLite work (and the SHA-256 and zlib work of storing bodies,
which release the GIL) off the event loop, and it gives one simple ordering
guarantee the engine relies on: commands run in the order they were
submitted, so a frontier pull always sees every entry submitted before it.

Transactions (DESIGN.md §3): an :class:`~.records.EntryRecord` -- the
``crawl_log_entry`` with its ``request_info``, ``file_info``,
``file_content`` and ``redirect`` rows, the candidates its links add and the
update of its own candidate -- is written whole inside one transaction.
Several entries share a transaction for speed (up to ``batch_entries`` or
``batch_seconds``), but an entry is never split, so after a kill -9 the
database holds whole entries only.  A command that returns a result (a
frontier pull, the agent row) commits first, so nothing the engine acts on
can be rolled back.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from unob.crawler.frontier import Candidate
from unob.crawler.records import EntryRecord
from unob.crawler.writer import Writer
from unob.db import open_database
from unob.errors import DatabaseError

__all__ = ["CrawlStore", "StoreError"]

T = TypeVar("T")

# Far in the future: "due before" for a forced recrawl, which ignores next_due.
_FOREVER = 2**62


class StoreError(DatabaseError):
    """The crawl database failed while the crawl was writing to it."""


@dataclass(slots=True)
class _Command:
    run: Callable[[Writer], Any]
    future: concurrent.futures.Future[Any] | None
    weight: int = 0


_CLOSE = object()


class CrawlStore:
    """The crawl database, written by one thread; safe to use from one event loop.

    ``submit`` queues an entry without waiting; the ``async`` methods wait for
    their result.  Back-pressure: :meth:`wait_for_room` blocks while more than
    ``max_pending_bytes`` of entries are queued.
    """

    def __init__(
        self,
        path: Path,
        *,
        batch_entries: int = 256,
        batch_seconds: float = 0.2,
        cache_size: int = 50_000,
        max_pending_bytes: int = 32 * 1024 * 1024,
    ) -> None:
        self.path = Path(path)
        self._batch_entries = batch_entries
        self._batch_seconds = batch_seconds
        self._cache_size = cache_size
        self._max_pending = max_pending_bytes
        self._queue: queue.SimpleQueue[_Command | object] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._pending_bytes = 0
        self._room: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None
        self._reported = False  # the error reached a caller: close() stays quiet
        self.commands_run = 0
        self.transactions = 0

    # lifecycle ----------------------------------------------------------

    def open(self) -> None:
        """Create/upgrade the database (Alembic) and start the writer thread."""
        engine = open_database(self.path, "crawl")
        engine.dispose()
        ready: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._thread = threading.Thread(
            target=self._run, args=(ready,), name="unob-crawl-writer", daemon=True
        )
        self._thread.start()
        ready.result()

    def close(self) -> None:
        """Commit what is queued and stop the writer thread (idempotent)."""
        if self._thread is None:
            return
        self._queue.put(_CLOSE)
        self._thread.join()
        self._thread = None
        if self._error is not None and not self._reported:
            self._reported = True
            raise StoreError(f"{self.path}: {self._error}") from self._error

    def bind_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._room = asyncio.Event()
        self._room.set()

    # writer thread ------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA busy_timeout=30000")
        # WAL + synchronous=NORMAL: a committed transaction survives a process
        # crash (kill -9); only a power loss may drop the last few.
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA cache_size=-8192")
        return conn

    def _run(self, ready: concurrent.futures.Future[None]) -> None:
        try:
            conn = self._connect()
        except sqlite3.Error as exc:
            ready.set_exception(StoreError(f"{self.path}: {exc}"))
            return
        writer = Writer(conn, self._cache_size)
        ready.set_result(None)
        closing = False
        try:
            while not closing:
                item = self._queue.get()
                if item is _CLOSE:
                    break
                closing = self._transaction(writer, item)
        finally:
            conn.close()

    def _transaction(self, writer: Writer, first: _Command | object) -> bool:
        """Run queued commands in one transaction; return True when asked to close."""
        deadline = time.monotonic() + self._batch_seconds
        done: list[tuple[concurrent.futures.Future[Any], Any]] = []
        weight = 0
        closing = False
        item: _Command | object = first
        try:
            writer.conn.execute("BEGIN IMMEDIATE")
            count = 0
            while True:
                assert isinstance(item, _Command)
                if self._error is not None:
                    raise StoreError("an earlier write failed")
                # A query whose caller was cancelled (Ctrl-C) is skipped; once running,
                # its future can no longer be cancelled, so set_result cannot fail.
                wanted = item.future is None or item.future.set_running_or_notify_cancel()
                result = item.run(writer) if wanted else None
                weight += item.weight
                count += 1
                if item.future is not None and wanted:
                    done.append((item.future, result))
                    break  # results are handed out only after they are committed
                if count >= self._batch_entries or time.monotonic() >= deadline:
                    break
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is _CLOSE:
                    closing = True
                    break
            writer.conn.execute("COMMIT")
            self.transactions += 1
            self.commands_run += count
        except BaseException as exc:  # every failure must reach the engine
            self._fail(writer, exc, done)
            return True
        for future, result in done:
            future.set_result(result)
        self._release(weight)
        return closing

    def _fail(
        self,
        writer: Writer,
        exc: BaseException,
        done: list[tuple[concurrent.futures.Future[Any], Any]],
    ) -> None:
        if self._error is None:
            self._error = exc
        with contextlib.suppress(sqlite3.Error):
            writer.conn.execute("ROLLBACK")
        error = StoreError(f"{self.path}: {exc}")
        for future, _ in done:
            future.set_exception(error)
            self._reported = True
        # Fail everything still queued, so no caller waits forever.
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if (
                isinstance(item, _Command)
                and item.future is not None
                and item.future.set_running_or_notify_cancel()
            ):
                item.future.set_exception(error)
                self._reported = True
        self._release(self._pending_bytes)

    def _release(self, weight: int) -> None:
        if not weight:
            return
        with self._lock:
            self._pending_bytes -= weight
            wake = self._pending_bytes <= self._max_pending // 2
        if wake and self._loop is not None and self._room is not None:
            room = self._room
            self._loop.call_soon_threadsafe(room.set)

    # API ------------------------------------------------------------------

    def _check(self) -> None:
        if self._error is not None:
            self._reported = True
            raise StoreError(f"{self.path}: {self._error}") from self._error
        if self._thread is None:
            raise StoreError(f"{self.path}: the store is closed")

    def _call(self, run: Callable[[Writer], T]) -> concurrent.futures.Future[T]:
        self._check()
        future: concurrent.futures.Future[T] = concurrent.futures.Future()
        self._queue.put(_Command(run, future))
        return future

    def call(self, run: Callable[[Writer], T]) -> T:
        """Run ``run`` on the writer thread and wait (blocking; for setup and tests)."""
        return self._call(run).result()

    async def acall(self, run: Callable[[Writer], T]) -> T:
        return await asyncio.wrap_future(self._call(run))

    def submit(self, entry: EntryRecord) -> None:
        """Queue an entry for writing; it is committed whole, soon."""
        self._check()
        weight = entry.weight()
        with self._lock:
            self._pending_bytes += weight
            full = self._pending_bytes > self._max_pending
        if full and self._room is not None:
            self._room.clear()
        self._queue.put(_Command(lambda w: w.write_entry(entry), None, weight))

    async def wait_for_room(self) -> None:
        """Wait while too much is queued for the writer (bounded memory)."""
        if self._room is not None and not self._room.is_set():
            await self._room.wait()
        self._check()

    async def flush(self) -> None:
        """Wait until everything submitted so far is committed."""
        await self.acall(lambda w: None)

    def pending_bytes(self) -> int:
        return self._pending_bytes

    # typed helpers ----------------------------------------------------------

    async def pull(
        self,
        origin_id: int,
        limit: int,
        exclude: frozenset[int],
        *,
        force_recrawl: bool,
        now: int,
    ) -> list[Candidate]:
        due_before = _FOREVER if force_recrawl else now
        return await self.acall(lambda w: w.pull(origin_id, limit, exclude, due_before))

    async def due_origins(self, *, force_recrawl: bool, now: int) -> list[tuple[int, str]]:
        due_before = _FOREVER if force_recrawl else now
        return await self.acall(lambda w: w.due_origins(due_before))

    async def park(self, url_ids: list[int]) -> None:
        """Take candidates out of the frontier (out of scope) until found again."""
        await self.acall(lambda w: w.park(url_ids))

    async def count_unexplored(self) -> int:
        return await self.acall(lambda w: w.count_unexplored())
