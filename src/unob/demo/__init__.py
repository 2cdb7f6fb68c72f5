"""The quick start's main job: crawl, summarize, export and search a demo site.

:func:`run_demo` serves :mod:`unob.demo.site` on 127.0.0.1, crawls it into
``OUTPUT/crawl.db`` (with images), summarizes into ``OUTPUT/summary.db``,
writes every export format under ``OUTPUT/export-<format>/`` and runs a
search, each step through the same library function as its command.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from unob.errors import UsageError

DEMO_FORMATS = ("parquet", "csv", "jsonl", "spideriment", "algolia")
DEMO_QUERIES = ("night train", "tide pools", '"polite crawler"')


def run_demo(output: Path, *, echo: Callable[[str], None] = print, progress: bool = True) -> None:
    """Run crawl -> summarize -> export -> search on the demo site into ``output``."""
    from unob.crawler import render_report, run_crawl
    from unob.demo.site import serve_demo_site
    from unob.export import export
    from unob.query.search import search
    from unob.settings import load_crawl_settings
    from unob.summarizer import render_report as render_summary
    from unob.summarizer import summarize

    if output.exists() and not output.is_dir():
        raise UsageError(f"--output {output}: exists and is not a directory")
    output.mkdir(parents=True, exist_ok=True)
    crawl_db, summary_db = output / "crawl.db", output / "summary.db"
    # The demo site listens on a new port each run, so an old crawl DB would
    # only add a second copy of the site: start from scratch every time.
    for stale in output.glob("*.db*"):
        stale.unlink()

    with serve_demo_site() as base_url:
        echo(f"== crawl {base_url} (served by unob on 127.0.0.1)")
        settings = load_crawl_settings(
            None, {"seeds": (base_url,), "delay_ms": 0, "images": True, "max_requests": 500}
        )
        render_report(run_crawl(settings, crawl_db, progress=progress))

    echo("== summarize")
    render_summary(summarize([crawl_db], summary_db, progress=progress))

    for fmt in DEMO_FORMATS:
        target = output / f"export-{fmt}"
        if target.exists():
            shutil.rmtree(target)
        report = export(fmt, target, summary_db, [crawl_db], progress=False)
        echo(f"== export {fmt}: {report.pages} pages -> {target}")

    for query in DEMO_QUERIES:
        echo(f"== search {query}")
        for rank, hit in enumerate(search(summary_db, query, limit=3), 1):
            echo(f"  {rank}. {hit.title or '(untitled)'}  <{hit.url}>")
    echo(f"done: databases and exports are in {output}/")
