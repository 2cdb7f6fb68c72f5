"""The crawl phase: ``unob crawl`` and ``unob status`` (DESIGN.md §4).

Public entry points (what the CLI and other tools call):

* :func:`run_crawl` -- crawl into a crawl database, returns a :class:`CrawlReport`;
  :func:`render_report` prints it;
* :func:`crawl_status` -- a crawl database's state as a :class:`CrawlStatus`;
  :func:`render_status` prints it.

Pure parts: :mod:`.robots`, :mod:`.politeness`, :mod:`.scope`, :mod:`.links`,
:mod:`.body`, :mod:`.outcome`, :mod:`.frontier`.  I/O: :mod:`.fetch` (HTTP),
:mod:`.store` (the database writer), :mod:`.engine` (scheduling),
:mod:`.run` and :mod:`.status`.  Heavy modules are imported on first use, so
that ``import unob.crawler`` (and ``unob --help``) stays fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from unob.crawler.progress import ProgressSnapshot
    from unob.crawler.run import CrawlReport, render_report, run_crawl
    from unob.crawler.status import CrawlStatus, crawl_status, render_status

__all__ = [
    "CrawlReport",
    "CrawlStatus",
    "ProgressSnapshot",
    "crawl_status",
    "render_report",
    "render_status",
    "run_crawl",
]

_WHERE = {
    "CrawlReport": "unob.crawler.run",
    "render_report": "unob.crawler.run",
    "run_crawl": "unob.crawler.run",
    "CrawlStatus": "unob.crawler.status",
    "crawl_status": "unob.crawler.status",
    "render_status": "unob.crawler.status",
    "ProgressSnapshot": "unob.crawler.progress",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'unob.crawler' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
