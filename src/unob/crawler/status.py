"""``unob status``: what a crawl database holds, read-only.

:func:`crawl_status` reads a few aggregate queries (agents, entries by exit
code and crawl type, the frontier, origins, stored bodies) into a
:class:`CrawlStatus`; :func:`render_status` prints it.  The database is
opened read-only, so it can be inspected while a crawl is writing it.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table
from sqlalchemy import text

from unob.codes import CrawlType, ExitCode
from unob.db import open_database
from unob.sqlitefile import tidy_after_reading

__all__ = [
    "AgentStatus",
    "CodeCount",
    "CrawlStatus",
    "FrontierStatus",
    "OriginStatus",
    "crawl_status",
    "exit_code_markdown",
    "render_status",
]

#: agents and origins shown by ``unob status`` (the most recent / the largest)
SHOW_AGENTS = 10
SHOW_ORIGINS = 20


@dataclass(frozen=True, slots=True)
class AgentStatus:
    agent_uuid: str
    name: str
    http_user_agent: str | None
    started_unix: int
    finished_unix: int | None
    stop_reason: str | None
    entries: int


@dataclass(frozen=True, slots=True)
class CodeCount:
    code: int
    name: str
    count: int


@dataclass(frozen=True, slots=True)
class FrontierStatus:
    candidates: int
    never_crawled: int
    """Never attempted and in scope: what a resumed crawl starts with."""
    due_now: int
    """Crawled before and due again (recrawl interval passed, or a transient failure)."""
    later: int
    """Crawled and not due yet."""
    parked: int
    """Out of scope when last pulled (next_due NULL)."""


@dataclass(frozen=True, slots=True)
class OriginStatus:
    origin: str
    candidates: int
    crawled: int
    never_crawled: int


@dataclass(frozen=True, slots=True)
class CrawlStatus:
    db_path: Path
    agents_total: int
    agents: tuple[AgentStatus, ...]
    """The most recent runs, newest first."""
    entries_total: int
    entries_by_exit_code: tuple[CodeCount, ...]
    entries_by_crawl_type: tuple[CodeCount, ...]
    frontier: FrontierStatus
    origins_total: int
    origins: tuple[OriginStatus, ...]
    """The origins with the most candidates."""
    files_stored: int
    bytes_stored: int
    """Uncompressed size of the distinct bodies."""


def crawl_status(db_path: Path) -> CrawlStatus:
    """Read a crawl database's state (read-only; DatabaseError for a bad file)."""
    engine = open_database(db_path, "crawl", readonly=True)
    now = int(time.time())
    try:
        with engine.connect() as conn:

            def one(sql: str, **params: object) -> int:
                return int(conn.execute(text(sql), params).scalar() or 0)

            agents = tuple(
                AgentStatus(
                    agent_uuid=str(r[0]),
                    name=str(r[1]),
                    http_user_agent=r[2],
                    started_unix=int(r[3]),
                    finished_unix=r[4],
                    stop_reason=r[5],
                    entries=int(r[6]),
                )
                for r in conn.execute(
                    text(
                        "SELECT a.agent_uuid, a.name, a.http_user_agent, "
                        "a.time_started_unix_utc, a.time_finished_unix_utc, a.stop_reason, "
                        "(SELECT count(*) FROM crawl_log_entry e WHERE e.agent_id = a.agent_id) "
                        "FROM agent a ORDER BY a.agent_id DESC LIMIT :n"
                    ),
                    {"n": SHOW_AGENTS},
                )
            )
            by_exit = tuple(
                CodeCount(int(r[0]), str(r[1] or r[0]), int(r[2]))
                for r in conn.execute(
                    text(
                        "SELECT e.exit_code, x.name, count(*) FROM crawl_log_entry e "
                        "LEFT JOIN exit_code x ON x.code = e.exit_code "
                        "GROUP BY e.exit_code ORDER BY count(*) DESC, e.exit_code"
                    )
                )
            )
            by_type = tuple(
                CodeCount(int(r[0]), str(r[1] or r[0]), int(r[2]))
                for r in conn.execute(
                    text(
                        "SELECT e.crawl_type, t.name, count(*) FROM crawl_log_entry e "
                        "LEFT JOIN crawl_type t ON t.code = e.crawl_type "
                        "GROUP BY e.crawl_type ORDER BY e.crawl_type"
                    )
                )
            )
            row = conn.execute(
                text(
                    "SELECT count(*), "
                    "sum(last_crawl_unix_utc IS NULL AND next_due_unix_utc IS NOT NULL), "
                    "sum(last_crawl_unix_utc IS NOT NULL AND next_due_unix_utc <= :now), "
                    "sum(last_crawl_unix_utc IS NOT NULL AND next_due_unix_utc > :now), "
                    "sum(next_due_unix_utc IS NULL) FROM crawl_candidate"
                ),
                {"now": now},
            ).one()
            frontier = FrontierStatus(*(int(v or 0) for v in row))
            origins = tuple(
                OriginStatus(str(r[0]), int(r[1]), int(r[2] or 0), int(r[3] or 0))
                for r in conn.execute(
                    text(
                        "SELECT o.str_origin, count(*), sum(c.last_crawl_unix_utc IS NOT NULL), "
                        "sum(c.last_crawl_unix_utc IS NULL AND c.next_due_unix_utc IS NOT NULL) "
                        "FROM crawl_candidate c JOIN origin o ON o.origin_id = c.origin_id "
                        "GROUP BY c.origin_id ORDER BY count(*) DESC, o.str_origin LIMIT :n"
                    ),
                    {"n": SHOW_ORIGINS},
                )
            )
            return CrawlStatus(
                db_path=Path(db_path),
                agents_total=one("SELECT count(*) FROM agent"),
                agents=agents,
                entries_total=sum(c.count for c in by_exit),
                entries_by_exit_code=by_exit,
                entries_by_crawl_type=by_type,
                frontier=frontier,
                origins_total=one("SELECT count(DISTINCT origin_id) FROM crawl_candidate"),
                origins=origins,
                files_stored=one("SELECT count(*) FROM file_content"),
                bytes_stored=one("SELECT coalesce(sum(size), 0) FROM file_content"),
            )
    finally:
        engine.dispose()
        tidy_after_reading(db_path)


def _when(unix: int | None) -> str:
    if unix is None:
        return "-"
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(unix))


def render_status(status: CrawlStatus, console: Console | None = None) -> None:
    """Print a :class:`CrawlStatus` as tables (plain text when not on a terminal)."""
    # piped output is not cut to 80 columns: agent UUIDs and URLs must stay whole
    out = console or Console(width=None if sys.stdout.isatty() else 200)
    out.print(f"[bold]{status.db_path}[/bold]", highlight=False)

    agents = Table(title=f"agents ({status.agents_total} runs, newest first)", title_justify="left")
    for col in ("started", "finished", "stop reason", "entries", "name", "agent uuid"):
        agents.add_column(col, justify="right" if col == "entries" else "left")
    for a in status.agents:
        reason = a.stop_reason or ("running or killed" if a.finished_unix is None else "-")
        agents.add_row(
            _when(a.started_unix),
            _when(a.finished_unix),
            reason,
            str(a.entries),
            a.name,
            a.agent_uuid,
        )
    out.print(agents)

    entries = Table(title=f"crawl log entries ({status.entries_total})", title_justify="left")
    entries.add_column("exit code", justify="right")
    entries.add_column("name")
    entries.add_column("entries", justify="right")
    for c in status.entries_by_exit_code:
        entries.add_row(str(c.code), c.name, str(c.count))
    for c in status.entries_by_crawl_type:
        entries.add_row("", f"(crawl type {c.name})", str(c.count))
    out.print(entries)

    f = status.frontier
    frontier = Table(title=f"frontier ({f.candidates} known URLs)", title_justify="left")
    frontier.add_column("state")
    frontier.add_column("URLs", justify="right")
    frontier.add_row("never crawled (next run starts here)", str(f.never_crawled))
    frontier.add_row("due again now", str(f.due_now))
    frontier.add_row("crawled, due later", str(f.later))
    frontier.add_row("parked (out of scope)", str(f.parked))
    out.print(frontier)

    origins = Table(
        title=f"origins ({status.origins_total}; largest {len(status.origins)})",
        title_justify="left",
    )
    for col in ("origin", "known URLs", "crawled", "never crawled"):
        origins.add_column(col, justify="left" if col == "origin" else "right")
    for o in status.origins:
        origins.add_row(o.origin, str(o.candidates), str(o.crawled), str(o.never_crawled))
    out.print(origins)
    out.print(
        f"stored bodies: {status.files_stored} distinct, "
        f"{status.bytes_stored / 1e6:.1f} MB uncompressed",
        highlight=False,
    )


def exit_code_markdown() -> str:
    """The exit code and crawl type tables of ``docs/exit-codes.md`` (checked by a test)."""
    lines = ["| code | name | meaning |", "|---:|---|---|"]
    lines += [f"| {int(c)} | `{c.name.lower()}` | {c.meaning} |" for c in ExitCode]
    lines += ["", "| crawl type | name | meaning |", "|---:|---|---|"]
    lines += [f"| {int(t)} | `{t.name.lower()}` | {t.meaning} |" for t in CrawlType]
    return "\n".join(lines) + "\n"
