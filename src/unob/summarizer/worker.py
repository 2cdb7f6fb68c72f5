"""What runs in a derivation worker process of ``unob summarize``.

The pool pickles a reference to :func:`derive_claimed` for each task, and a
spawned worker imports the module named in it.  So this module imports only
the derivation (:mod:`.observe`), never the database layer: importing
:mod:`.pipeline` would pull in SQLAlchemy, and a worker took 0.5 s longer to
start, a fifth of summarizing python3-doc on two cores.

It also holds what the writer shares with the workers: the collector policy
(:func:`collecting_less`) and the page claims (:func:`claim`).

**Page claims.**  A batch's pages go to each worker as one task.  The
workers derive pages from the front of the batch and the writer, when it
comes for the batch's results, derives them from the back, until the two
meet: each page is claimed once, under a lock, from a small array of shared
counters.  So the writer never waits for more than the page a worker is on,
and the CPUs stay busy without per-chunk tasks.  The pool queues a task ahead
of the one running and that one cannot be cancelled: with tasks of 5-40 pages
the writer waited for up to two of them per batch, and the worker sat idle
3 ms between tasks while the writer, busy in compiled code, held the GIL that
its feeder threads needed (16% of a 10,000-page run).
"""

from __future__ import annotations

import gc
import os
import pickle
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from unob.summarizer.crawlentry import CrawlEntry
from unob.summarizer.observe import Observed, observe_releasing

__all__ = [
    "SLOTS",
    "claim",
    "close_claims",
    "collect_less",
    "collecting_less",
    "derive_claimed",
    "derive_pages",
    "front_claims",
    "open_claims",
    "start_worker",
]

#: Batches whose claims can be open at once (the writer keeps two in flight).
#: A batch uses slot ``seq % SLOTS``; each slot holds three counters: the
#: batch's sequence number, the next page from the front, the next from the back.
SLOTS = 4

#: This worker's view of the writer's claim counters (set by start_worker).
_claims: Any = None

# Python's cyclic garbage collector runs a young-generation pass every 700
# container allocations (net) and, every so often, a pass over everything
# alive.  A batch's results are hundreds of thousands of lists and link
# objects, none of them in a reference cycle, and they stay alive until the
# batch is written: the collector kept re-walking them.  On python3-doc,
# deriving in the pipeline took 6.1 ms a page with it, 4.3 without, against
# 3.5 for derive_html on one page at a time.  So while summarizing, automatic
# collection is off (modules loaded so far are also frozen out of it), and
# the collector runs once per batch in the writer and once per task in a
# worker, when the previous results are garbage: cycles, should any form,
# are still freed.


def collect_less() -> None:
    """Automatic collection off; what is alive now is left out of later collections."""
    gc.freeze()
    gc.disable()


@contextmanager
def collecting_less() -> Iterator[None]:
    """:func:`collect_less` for a block, then the collector as it was."""
    enabled = gc.isenabled()
    collect_less()
    try:
        yield
    finally:
        gc.unfreeze()
        if enabled:
            gc.enable()


def open_claims(claims: Any, seq: int, pages: int) -> None:
    """Open batch ``seq`` (of ``pages`` pages) for claiming, in slot ``seq % SLOTS``."""
    base = 3 * (seq % SLOTS)
    with claims.get_lock():
        claims[base], claims[base + 1], claims[base + 2] = seq, 0, pages - 1


def close_claims(claims: Any) -> None:
    """Close every slot: running tasks stop after the page they are on.

    When a run stops early (an error, Ctrl-C), the pool cannot cancel tasks
    already running or queued, and they would derive their whole batch for
    nothing before the run could end (1.8-3.3 s measured).
    """
    with claims.get_lock():
        for slot in range(SLOTS):
            claims[3 * slot] = -1


def claim(claims: Any, seq: int, from_front: bool) -> int | None:
    """The index of an unclaimed page of batch ``seq``, or None when none is left.

    A task that starts after its slot went to a later batch finds another
    sequence number there and claims nothing.
    """
    base = 3 * (seq % SLOTS)
    with claims.get_lock():
        if claims[base] != seq:
            return None
        front, back = claims[base + 1], claims[base + 2]
        if front > back:
            return None
        if from_front:
            claims[base + 1] = front + 1
            return int(front)
        claims[base + 2] = back - 1
        return int(back)


def front_claims(claims: Any, seq: int) -> int:
    """How many pages of batch ``seq`` were claimed from the front (by workers)."""
    base = 3 * (seq % SLOTS)
    with claims.get_lock():
        return int(claims[base + 1]) if claims[base] == seq else 0


def derive_pages(
    claims: Any, seq: int, pages: list[CrawlEntry], from_front: bool
) -> tuple[list[tuple[int, Observed]], float]:
    """Claim and derive pages of batch ``seq`` until none is left.

    Returns ``(page index, observation)`` pairs and the CPU seconds spent.
    """
    started = time.process_time()
    done: list[tuple[int, Observed]] = []
    while (index := claim(claims, seq, from_front)) is not None:
        done.append((index, observe_releasing(pages[index])))
    return done, time.process_time() - started


def derive_claimed(seq: int, pages: list[CrawlEntry]) -> tuple[list[tuple[int, bytes]], float]:
    """A worker's task: the previous task's garbage collected, then pages from the front.

    Each observation is pickled as soon as it is made, while the writer is
    busy with its own work: when the writer comes for the results, only
    bytes remain to be sent.  Pickling a batch's results at the end made
    the writer wait 40 ms a batch.
    """
    gc.collect()
    started = time.process_time()
    done = [
        (index, pickle.dumps(observe_releasing(pages[index]), pickle.HIGHEST_PROTOCOL))
        for index in iter(lambda: claim(_claims, seq, from_front=True), None)
    ]
    return done, time.process_time() - started


def start_worker(parent: int, claims: Any) -> None:
    """Worker initializer: the shared claims, :func:`_exit_with_parent`, :func:`collect_less`."""
    global _claims
    _claims = claims
    collect_less()
    _exit_with_parent(parent)


def _exit_with_parent(parent: int) -> None:
    """Exit when the process that started this one dies (kill -9 too).

    A pool worker holds both ends of its task pipe, so it never sees EOF when
    the summarizer vanishes; without this it would wait for work forever.
    (A dead parent's children are re-parented at once, even while the parent
    itself is an unreaped zombie.)  ``parent`` is the summarizer's pid, passed
    in: a worker still starting up when the summarizer died has already been
    re-parented, so its own first getppid() would not tell.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()
