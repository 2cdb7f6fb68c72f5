"""One ``unob crawl`` per crawl database: an advisory lock beside the database file.

Two crawls on one database would each keep their own per-origin delays and
fetch most URLs twice, doubling the load on every site.  So a crawl holds an
exclusive ``flock`` on ``<db>.lock`` while it runs, and a second one is refused
at once (:class:`~unob.errors.CrawlInProgress`, exit status 1) before it
opens the database.

Why a separate file and ``flock``:

* the kernel drops the lock when its holder dies, ``kill -9`` included, so a
  killed crawl can always be resumed: a lock file left behind by a killed
  crawl is merely a file, it locks nothing;
* SQLite locks the database file itself with POSIX ``fcntl`` locks, which a
  process loses when it closes *any* descriptor of that file
  (sqlite.org/howtocorrupt.html §2.2): a second descriptor on the database,
  opened and closed for our lock, could drop a connection's locks in the same
  process.  A file of our own cannot touch SQLite's locking.

The holder deletes the file when it is done, *before* closing it (closing
unlocks).  A process that opened the old file just then may lock a file that
no longer has a name; it notices (the name now leads to another file or none)
and tries again, so two crawls never hold "the" lock at once.

Without ``fcntl`` (Windows), or where the file system refuses ``flock``,
crawls are not locked: keeping to one crawl per database is then the user's
job, as before.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from unob.errors import CrawlInProgress

try:
    import fcntl
except ImportError:  # Windows: no flock
    fcntl = None  # type: ignore[assignment]

__all__ = ["crawl_lock", "lock_path"]


def lock_path(db_path: Path) -> Path:
    """The lock file of a crawl database: ``crawl.db`` -> ``crawl.db.lock``, beside the
    real file (a symbolic link to the database must not get a lock of its own)."""
    return Path(f"{os.path.realpath(db_path)}.lock")


def _acquire(db_path: Path) -> int | None:
    """The descriptor holding the lock, or None when locking is not possible here."""
    if fcntl is None:
        return None
    path = lock_path(db_path)
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError:
            # A missing or read-only directory: opening the database says so better.
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise CrawlInProgress(
                f"{db_path}: another unob crawl is running on this database "
                f"(it holds {path}); wait for it to end or stop it"
            ) from None
        except OSError:
            os.close(fd)
            return None  # the file system does not do flock (some network ones)
        try:
            current = os.stat(path)
        except FileNotFoundError:
            current = None
        if current is not None and os.path.samestat(os.fstat(fd), current):
            return fd
        os.close(fd)  # locked a file its holder just deleted: take the current one


@contextmanager
def crawl_lock(db_path: Path) -> Iterator[None]:
    """Hold the crawl lock of ``db_path`` for the block; raise CrawlInProgress if taken."""
    fd = _acquire(db_path)
    try:
        yield
    finally:
        if fd is not None:
            with suppress(OSError):
                os.unlink(lock_path(db_path))
            os.close(fd)
