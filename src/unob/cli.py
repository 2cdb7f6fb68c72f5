"""The ``unob`` command line: a thin layer over the library.

Each command parses its options, builds settings, calls ONE library function
and renders the result.  Errors a user can cause arrive as
:class:`unob.errors.UnobError` and leave as one line on stderr with a
non-zero exit status (2 for bad usage, 1 otherwise); nothing here prints a
traceback unless ``UNOB_DEBUG=1`` is set.

Library modules are imported inside the commands so that ``unob --help``
stays fast and a problem in one phase cannot break the others' commands.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from typer.exceptions import TyperException

from unob import __version__
from unob.errors import UnobError, UsageError

app = typer.Typer(
    name="unob",
    help="A polite, resumable two-phase web crawler and summarizer on SQLite.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

CRAWL_DB = Path("crawl.db")
SUMMARY_DB = Path("summary.db")
# -q silences only the progress display: the final report is the command's result
# (what was done, where it went), so it is printed even then.
QUIET_HELP = "No progress output; the final report is still printed."


def _version(value: bool) -> None:
    if value:
        typer.echo(f"unob {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """A polite, resumable two-phase web crawler and summarizer on SQLite."""


def _help(name: str) -> str:
    """Help text of a crawl setting, declared once in :mod:`unob.settings`."""
    from unob.settings import settings_help

    return settings_help(name)


@app.command()
def crawl(
    seeds: Annotated[
        list[str] | None, typer.Argument(metavar="[SEED_URL]...", help="URLs to start from.")
    ] = None,
    config: Annotated[
        Path | None, typer.Option("--config", help="TOML file with crawl settings.")
    ] = None,
    db: Annotated[Path, typer.Option("--db", help="Crawl database to write.")] = CRAWL_DB,
    max_requests: Annotated[
        int | None, typer.Option("--max-requests", help=_help("max_requests"))
    ] = None,
    max_depth: Annotated[int | None, typer.Option("--max-depth", help=_help("max_depth"))] = None,
    delay_ms: Annotated[int | None, typer.Option("--delay-ms", help=_help("delay_ms"))] = None,
    concurrency: Annotated[
        int | None, typer.Option("--concurrency", help=_help("concurrency"))
    ] = None,
    per_origin_concurrency: Annotated[
        int | None,
        typer.Option("--per-origin-concurrency", help=_help("per_origin_concurrency")),
    ] = None,
    user_agent: Annotated[
        str | None, typer.Option("--user-agent", help=_help("user_agent"))
    ] = None,
    images: Annotated[
        bool | None, typer.Option("--images/--no-images", help=_help("images"))
    ] = None,
    sitemaps: Annotated[
        bool | None, typer.Option("--sitemaps/--no-sitemaps", help=_help("sitemaps"))
    ] = None,
    recrawl_interval: Annotated[
        str | None,
        typer.Option(
            "--recrawl-interval", help="e.g. '4 weeks', '12h'. " + _help("recrawl_interval_s")
        ),
    ] = None,
    force_recrawl: Annotated[
        bool | None, typer.Option("--force-recrawl", help=_help("force_recrawl"))
    ] = None,
    resolve: Annotated[
        list[str] | None,
        typer.Option(
            "--resolve",
            metavar="HOST:ADDR",
            help="Testing aid, like curl's: connect to ADDR for HOST (HOST may be '*').",
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=QUIET_HELP)] = False,
) -> None:
    """Crawl websites politely into a crawl database (resumable)."""
    from unob.crawler import render_report, run_crawl
    from unob.settings import load_crawl_settings, parse_duration

    overrides: dict[str, object] = {
        "max_requests": max_requests,
        "max_depth": max_depth,
        "delay_ms": delay_ms,
        "concurrency": concurrency,
        "per_origin_concurrency": per_origin_concurrency,
        "user_agent": user_agent,
        "images": images,
        "sitemaps": sitemaps,
        "force_recrawl": force_recrawl,
    }
    if seeds:
        overrides["seeds"] = tuple(seeds)
    if recrawl_interval is not None:
        overrides["recrawl_interval_s"] = parse_duration(recrawl_interval)
    settings = load_crawl_settings(config, {k: v for k, v in overrides.items() if v is not None})
    report = run_crawl(settings, db, progress=not quiet, resolve=tuple(resolve or ()))
    render_report(report)
    if report.stop_reason == "interrupted":
        # Ctrl-C stopped the crawl gracefully (all work so far is saved), but it did not
        # finish: exit like an interrupted command, so `unob crawl && ...` stops here.
        raise typer.Exit(130)


@app.command()
def status(
    db: Annotated[Path, typer.Option("--db", help="Crawl database to read.")] = CRAWL_DB,
) -> None:
    """Print a crawl database's state: agents, entries by exit code, frontier."""
    from unob.crawler import crawl_status, render_status

    render_status(crawl_status(db))


@app.command()
def summarize(
    crawl_db: Annotated[
        list[Path] | None,
        typer.Option(
            "--crawl-db", help="Crawl database(s) to read (repeatable). [default: crawl.db]"
        ),
    ] = None,
    summary_db: Annotated[
        Path, typer.Option("--summary-db", help="Summary database to write.")
    ] = SUMMARY_DB,
    batch_size: Annotated[
        int, typer.Option("--batch-size", min=1, help="Files per batch (one transaction each).")
    ] = 500,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=QUIET_HELP)] = False,
) -> None:
    """Summarize crawl database(s) into the summary database, in batches."""
    from unob.summarizer import render_report
    from unob.summarizer import summarize as run_summarize

    report = run_summarize(
        crawl_db or [CRAWL_DB], summary_db, batch_size=batch_size, progress=not quiet
    )
    render_report(report)


@app.command("export")
def export_(
    output: Annotated[Path, typer.Argument(help="Directory to write (appears when complete).")],
    fmt: Annotated[
        str, typer.Option("--format", help="parquet, csv, jsonl, spideriment or algolia.")
    ] = "parquet",
    summary_db: Annotated[
        Path, typer.Option("--summary-db", help="Summary database to read.")
    ] = SUMMARY_DB,
    crawl_db: Annotated[
        list[Path] | None,
        typer.Option(
            "--crawl-db",
            help="Crawl database(s) with the page bodies and images (repeatable). "
            "[default: crawl.db if it exists]",
        ),
    ] = None,
    no_raw_html: Annotated[
        bool, typer.Option("--no-raw-html", help="Dataset formats: leave out raw_html/.")
    ] = False,
    no_images: Annotated[
        bool, typer.Option("--no-images", help="Dataset formats: leave out images.")
    ] = False,
    include_all: Annotated[
        bool,
        typer.Option("--all", help="Also closed, duplicate and noindex pages (not only current)."),
    ] = False,
    max_record_bytes: Annotated[
        int,
        typer.Option("--max-record-bytes", min=1000, help="Algolia: byte budget per record."),
    ] = 10_000,
    ndjson: Annotated[
        bool, typer.Option("--ndjson", help="Algolia: records.ndjson instead of records.json.")
    ] = False,
    overwrite: Annotated[
        bool, typer.Option("--overwrite", help="Replace an earlier export at OUTPUT.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=QUIET_HELP)] = False,
) -> None:
    """Export current pages as a dataset directory, a Spideriment index or Algolia records."""
    from unob.export import export, render_report

    if crawl_db is None:
        crawl_db = [CRAWL_DB] if CRAWL_DB.exists() else []
    report = export(
        fmt,
        output,
        summary_db,
        crawl_db,
        raw_html=not no_raw_html,
        images=not no_images,
        include_all=include_all,
        max_record_bytes=max_record_bytes,
        ndjson=ndjson,
        overwrite=overwrite,
        progress=False if quiet else None,
    )
    render_report(report)


@app.command()
def demo(
    output: Annotated[
        Path, typer.Option("--output", help="Directory for the databases and exports.")
    ] = Path("demo-output"),
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=QUIET_HELP)] = False,
) -> None:
    """Crawl, summarize, export and search a demo site served on 127.0.0.1."""
    from unob.demo import run_demo

    run_demo(output, echo=typer.echo, progress=not quiet)


# ignore_unknown_options: a statement may start with a "-- comment" line (every recipe
# in docs/sql-recipes.md does), which the option parser would otherwise refuse.
@app.command(context_settings={"ignore_unknown_options": True})
def sql(
    query: Annotated[
        str,
        typer.Argument(metavar="QUERY", help="One SQL statement; `-` reads it from stdin."),
    ],
    db: Annotated[
        str,
        typer.Option(
            "--db",
            metavar="crawl|summary|PATH",
            help="`crawl` (./crawl.db), `summary` (./summary.db) or a database file.",
        ),
    ] = "crawl",
    fmt: Annotated[
        str, typer.Option("--format", metavar="table|csv|json", help="Output format.")
    ] = "table",
) -> None:
    """Run one read-only SQL statement; rows stream out.

    Writes, several statements at once and an empty query are refused as bad usage
    (exit 2) and nothing runs; an SQL error exits 1.
    """
    import sys

    from unob.query import resolve_db, run_sql

    if query == "-":
        try:
            query = sys.stdin.read()
        except UnicodeDecodeError:
            raise UsageError("standard input: not UTF-8 text") from None
    elif re.fullmatch(r"-\S+", query):
        # ignore_unknown_options passed a mistyped option on as the statement
        raise UsageError(f"no such option: {query}")
    run_sql(resolve_db(db), query, fmt, sys.stdout)


# ignore_unknown_options: a query may start with -"phrase" (an exclusion), which
# the option parser would otherwise take for an unknown option.
@app.command(context_settings={"ignore_unknown_options": True})
def search(
    query_words: Annotated[
        list[str],
        typer.Argument(
            metavar="QUERY...",
            help='Words, "exact phrases", -"excluded phrases", site:HOST, host:HOST.',
        ),
    ],
    summary_db: Annotated[
        Path, typer.Option("--summary-db", help="Summary database to search.")
    ] = SUMMARY_DB,
    limit: Annotated[int, typer.Option("--limit", min=1, help="Results to show.")] = 10,
    site: Annotated[
        str | None,
        typer.Option("--site", metavar="HOST", help="Only HOST and its subdomains (site:HOST)."),
    ] = None,
) -> None:
    """Full-text search of the current pages in a summary database, best first."""
    import sys

    from unob.query import search as run_search
    from unob.query.render import render_results

    query = " ".join(query_words)
    if not query.strip():
        raise UsageError("QUERY is empty: give words or phrases to search for")
    render_results(run_search(summary_db, query, limit=limit, site=site), sys.stdout)


def _fail(message: str, code: int = 1) -> NoReturn:
    typer.echo(f"unob: error: {message}", err=True)
    raise SystemExit(code)


def main(argv: list[str] | None = None) -> None:
    """Console entry point: run the app, turning errors into one stderr line."""
    debug = os.environ.get("UNOB_DEBUG") == "1"
    try:
        result = app(args=argv, prog_name="unob", standalone_mode=False)
    except typer.Exit as exc:
        raise SystemExit(exc.exit_code) from None
    except typer.Abort:
        _fail("aborted", 130)
    except TyperException as exc:  # bad flags and values (typer vendors click's UsageError)
        if type(exc).__name__ == "NoArgsIsHelpError":  # bare `unob`: the help is the answer
            typer.echo(exc.format_message())
            raise SystemExit(0) from None
        _fail(exc.format_message(), exc.exit_code)
    except UnobError as exc:
        if debug:
            raise
        _fail(str(exc), exc.exit_code)
    except KeyboardInterrupt:
        _fail("interrupted", 130)
    except Exception as exc:
        if debug:
            raise
        _fail(f"internal error: {type(exc).__name__}: {exc} (set UNOB_DEBUG=1 for a traceback)")
    raise SystemExit(result if isinstance(result, int) else 0)


__all__ = ["UsageError", "app", "main"]
