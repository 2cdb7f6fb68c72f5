"""What runs in a derivation worker process of ``unob summarize``.

The pool pickles a reference to :func:`derive_task` for each task, and a
spawned worker imports the module named in it.  So this module imports only
the derivation (:mod:`.observe`), never the database layer: importing
:mod:`.pipeline` would pull in SQLAlchemy, and a worker took 0.5 s longer to
start, a fifth of summarizing python3-doc on two cores.

It also holds the collector policy the writer shares (:func:`collecting_less`).
"""

from __future__ import annotations

import gc
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from unob.summarizer.crawlentry import CrawlEntry
from unob.summarizer.observe import Observed, observe_timed

__all__ = ["collect_less", "collecting_less", "derive_task", "start_worker"]

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


def derive_task(pages: list[CrawlEntry]) -> tuple[list[Observed], float]:
    """A worker's task: the previous task's garbage collected, then :func:`observe_timed`."""
    gc.collect()
    return observe_timed(pages)


def start_worker(parent: int) -> None:
    """Worker initializer: see :func:`_exit_with_parent` and :func:`collect_less`."""
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
