"""Fixture databases for the query tests, written row by row through unob.schema.

The crawl database tells a small, known story (times are T0 + seconds):

* agent `first` crawls http://site.test and http://other.test at T0;
  agent `second` recrawls two pages a day later;
* site.test: robots.txt, `/` (200, then 304 on the recrawl), `/a` (200, then
  200 with new content), `/b` (200, links to `/a` and the broken `/missing`),
  `/b-copy` (the same page: an exact duplicate of `/b`), `/de` (German),
  `/orphan` (a seed no page links to, without a meta description),
  `/old` -301-> `/a`, `/chain` -302-> `/old`
  (a 2-hop chain), `/loop1` <-> `/loop2` (a loop), `/missing` (404),
  `/private` (robots.txt disallows), `/slow` (timed out twice: a fluke retry);
* other.test: `/` (200) and `/error` (500);
* the frontier also holds `/new` (never crawled) and `/gone` (retired); `/b`
  is due in 2100 (`waiting`), the other crawled URLs are `due`.
"""

from __future__ import annotations

import hashlib
import uuid
import zlib
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, insert, select

from unob.codes import CrawlType, ExitCode, InformationSource, SchedulingReason
from unob.db import open_database
from unob.schema import crawl as cs

T0 = 1_700_000_000  # 2023-11-14T22:13:20Z
DAY = 86_400
FAR_FUTURE = 4_102_444_800  # 2100-01-01: /b is `waiting`, the rest `due`


def _uuid(n: int) -> str:
    return str(uuid.UUID(int=n))


class CrawlWriter:
    """Writes crawl-DB rows the way a crawler would, one entry at a time."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.next_uuid = 1

    def url(self, str_url: str) -> int:
        scheme, rest = str_url.split("://", 1)
        host = rest.split("/", 1)[0]
        origin = f"{scheme}://{host}"
        origin_id = self.conn.execute(
            select(cs.metadata.tables["origin"].c.origin_id).where(
                cs.metadata.tables["origin"].c.str_origin == origin
            )
        ).scalar()
        if origin_id is None:
            origin_id = self.conn.execute(
                insert(cs.metadata.tables["origin"]).values(
                    scheme=scheme, host=host, port=None, str_origin=origin
                )
            ).inserted_primary_key[0]
        url_table = cs.metadata.tables["url"]
        url_id = self.conn.execute(
            select(url_table.c.url_id).where(url_table.c.str_url == str_url)
        ).scalar()
        if url_id is None:
            url_id = self.conn.execute(
                insert(url_table).values(origin_id=origin_id, str_url=str_url)
            ).inserted_primary_key[0]
        return int(url_id)

    def origin_of(self, url_id: int) -> int:
        url_table = cs.metadata.tables["url"]
        return int(
            self.conn.execute(
                select(url_table.c.origin_id).where(url_table.c.url_id == url_id)
            ).scalar_one()
        )

    def agent(self, name: str, started: int) -> int:
        self.next_uuid += 1
        return int(
            self.conn.execute(
                insert(cs.agent).values(
                    agent_uuid=_uuid(self.next_uuid),
                    name=name,
                    http_user_agent="unob-test",
                    time_started_unix_utc=started,
                    time_finished_unix_utc=started + 600,
                    settings_json="{}",
                    unob_version="test",
                    stop_reason="frontier_empty",
                )
            ).inserted_primary_key[0]
        )

    def entry(
        self,
        agent_id: int,
        url: str,
        *,
        started: int,
        exit_code: ExitCode,
        status: int | None = None,
        duration_ms: int | None = 50,
        body: bytes | None = None,
        mime: str = "text/html",
        redirect_to: str | None = None,
        crawl_type: CrawlType = CrawlType.FILE_CRAWL,
        reason: SchedulingReason = SchedulingReason.EXPLORE,
        requests: int = 1,
        depth: int = 1,
        message: str | None = None,
    ) -> int:
        url_id = self.url(url)
        self.next_uuid += 1
        entry_id = int(
            self.conn.execute(
                insert(cs.crawl_log_entry).values(
                    crawl_log_entry_uuid=_uuid(self.next_uuid),
                    agent_id=agent_id,
                    url_id=url_id,
                    crawl_type=int(crawl_type),
                    scheduling_reason=int(reason),
                    started_unix_utc=started,
                    started_unix_ms=started * 1000,
                    time_taken_ms=None if duration_ms is None else duration_ms * requests + 5,
                    exit_code=int(exit_code),
                    message=message,
                    depth=depth,
                )
            ).inserted_primary_key[0]
        )
        request_id = None
        for attempt in range(requests):
            request_id = self.conn.execute(
                insert(cs.request_info).values(
                    crawl_log_entry_id=entry_id,
                    url_id=url_id,
                    sent_unix_utc=started,
                    sent_unix_ms=started * 1000 + attempt,
                    duration_ms=duration_ms if status is not None else None,
                    robotstxt_approved=True,
                    is_retry=attempt > 0,
                    http_status=status,
                    http_etag=None,
                    server_last_modified_unix_utc=None,
                    content_type=mime if status is not None else None,
                    content_encoding=None,
                    body_bytes=len(body) if body is not None else None,
                    retry_after_s=None,
                    x_robots_tag=None,
                    exit_code=int(exit_code),
                )
            ).inserted_primary_key[0]
        if body is not None:
            self._file(entry_id, request_id, url_id, body, mime, depth)
        if redirect_to is not None:
            self.conn.execute(
                insert(cs.redirect).values(
                    crawl_log_entry_id=entry_id,
                    request_info_id=request_id,
                    url_id=url_id,
                    to_url_id=self.url(redirect_to),
                    to_url_fragment=None,
                    http_status=status,
                    is_permanent=status in (301, 308),
                    by_security_policy=False,
                    information_source=int(InformationSource.RESPONSE_HEADER),
                )
            )
        return entry_id

    def _file(
        self, entry_id: int, request_id: int | None, url_id: int, body: bytes, mime: str, depth: int
    ) -> None:
        sha = hashlib.sha256(body).hexdigest()
        content = cs.file_content
        content_id = self.conn.execute(
            select(content.c.file_content_id).where(content.c.sha256 == sha)
        ).scalar()
        if content_id is None:
            content_id = self.conn.execute(
                insert(content).values(
                    sha256=sha, size=len(body), compression="zlib", data=zlib.compress(body)
                )
            ).inserted_primary_key[0]
        self.conn.execute(
            insert(cs.file_info).values(
                crawl_log_entry_id=entry_id,
                request_info_id=request_id,
                url_id=url_id,
                mime_type=mime,
                charset="utf-8",
                size=len(body),
                last_modified_unix_utc=None,
                canonical_url_id=None,
                file_content_id=content_id,
                depth=depth,
                robots_noindex=False,
                robots_nofollow=False,
                links_found=3,
            )
        )

    def candidate(
        self,
        url: str,
        *,
        depth: int,
        discovered: int,
        last_crawl: int | None,
        last_exit: ExitCode | None,
        next_due: int | None,
        via: str | None = None,
        contentful: bool = False,
        crawl_type: CrawlType = CrawlType.FILE_CRAWL,
    ) -> None:
        url_id = self.url(url)
        values: dict[str, Any] = {
            "url_id": url_id,
            "origin_id": self.origin_of(url_id),
            "crawl_type": int(crawl_type),
            "depth": depth,
            "discovered_via_url_id": None if via is None else self.url(via),
            "discovered_unix_utc": discovered,
            "scheduling_reason": int(
                SchedulingReason.MANUAL if via is None else SchedulingReason.EXPLORE
            ),
            "last_crawl_unix_utc": last_crawl,
            "last_crawl_exit_code": None if last_exit is None else int(last_exit),
            "last_contentful_crawl_unix_utc": last_crawl if contentful else None,
            "last_contentful_http_etag": None,
            "last_contentful_last_modified_unix_utc": None,
            "next_due_unix_utc": next_due,
        }
        self.conn.execute(insert(cs.crawl_candidate).values(**values))


def page(
    title: str, body: str, links: tuple[str, ...] = (), lang: str = "en", described: bool = True
) -> bytes:
    anchors = "".join(f'<li><a href="{href}">{href}</a></li>' for href in links)
    meta = f'<meta name="description" content="All about {title}">' if described else ""
    return (
        f"<!doctype html><html lang={lang}><head><title>{title}</title>{meta}</head>"
        f"<body><main><article><h1>{title}</h1><p>{body}</p><ul>{anchors}</ul></article></main>"
        "</body></html>"
    ).encode()


B_PAGE = page("Page B", "bee " * 40, ("/a", "/missing"))


SITE = "http://site.test"
OTHER = "http://other.test"

ok = ExitCode.FILE_INGESTED
manual, recrawl = SchedulingReason.MANUAL, SchedulingReason.RECRAWL
# (agent, url, started, exit code, other columns): the crawl log of the story.
CRAWLS: list[tuple[str, str, int, ExitCode, dict[str, Any]]] = [
    ("first", f"{SITE}/robots.txt", T0, ok, {"status": 200, "duration_ms": 10, "depth": 0,
     "crawl_type": CrawlType.ROBOTSTXT_FETCH, "reason": manual}),
    ("first", f"{SITE}/", T0 + 1, ok, {"status": 200, "duration_ms": 40, "depth": 0,
     "body": page("Home", "welcome", ("/a", "/b", "/de")), "reason": manual}),
    ("first", f"{SITE}/a", T0 + 2, ok, {"status": 200, "duration_ms": 60,
     "body": page("Page A", "first version of a")}),
    ("first", f"{SITE}/b", T0 + 3, ok, {"status": 200, "duration_ms": 80, "body": B_PAGE}),
    ("first", f"{SITE}/b-copy", T0 + 3, ok, {"status": 200, "duration_ms": 80, "body": B_PAGE}),
    ("first", f"{SITE}/de", T0 + 3, ok, {"status": 200, "duration_ms": 30, "body": page(
     "Seite", "deutsch", ("/",), lang="de")}),
    ("first", f"{SITE}/orphan", T0 + 3, ok, {"status": 200, "duration_ms": 30, "body": page(
     "Orphan", "nobody links here", described=False), "reason": manual, "depth": 0}),
    ("first", f"{SITE}/old", T0 + 4, ExitCode.PERMANENT_REDIRECT, {"status": 301,
     "redirect_to": f"{SITE}/a"}),
    ("first", f"{SITE}/chain", T0 + 5, ExitCode.REDIRECT, {"status": 302,
     "redirect_to": f"{SITE}/old"}),
    ("first", f"{SITE}/loop1", T0 + 6, ExitCode.REDIRECT, {"status": 302,
     "redirect_to": f"{SITE}/loop2"}),
    ("first", f"{SITE}/loop2", T0 + 7, ExitCode.REDIRECT, {"status": 302,
     "redirect_to": f"{SITE}/loop1"}),
    ("first", f"{SITE}/missing", T0 + 8, ExitCode.FILE_NOT_FOUND, {"status": 404,
     "duration_ms": 20}),
    ("first", f"{SITE}/private", T0 + 9, ExitCode.ROBOTS_DISALLOWED, {"requests": 0,
     "message": "disallowed by robots.txt"}),
    ("first", f"{SITE}/slow", T0 + 10, ExitCode.REQUEST_TIMEOUT, {"requests": 2,
     "duration_ms": None, "message": "timed out after 30 s"}),
    ("first", f"{OTHER}/", T0 + 11, ok, {"status": 200, "duration_ms": 300, "depth": 0,
     "body": page("Other", "another site", (f"{SITE}/",)), "reason": manual}),
    ("first", f"{OTHER}/error", T0 + 72, ExitCode.SERVER_INTERNAL_ERROR, {"status": 500,
     "duration_ms": 500}),
    ("second", f"{SITE}/", T0 + DAY, ExitCode.FILE_DID_NOT_CHANGE, {"status": 304,
     "reason": recrawl, "depth": 0}),
    ("second", f"{SITE}/a", T0 + DAY + 1, ok, {"status": 200, "duration_ms": 70,
     "body": page("Page A", "second version of a"), "reason": recrawl}),
]  # fmt: skip


def build_crawl_db(path: Path) -> Path:
    """Write the crawl story of the module docstring into a new crawl DB at ``path``."""
    engine = open_database(path, "crawl")
    with engine.begin() as conn:
        w = CrawlWriter(conn)
        agents = {"first": w.agent("first", T0), "second": w.agent("second", T0 + DAY)}
        for agent, url, started, exit_code, details in CRAWLS:
            w.entry(agents[agent], url, started=started, exit_code=exit_code, **details)
        t = T0 + DAY
        ok = ExitCode.FILE_INGESTED

        due = T0 + 30 * DAY
        crawled: tuple[tuple[str, int, ExitCode, str | None], ...] = (
            (f"{SITE}/", t, ExitCode.FILE_DID_NOT_CHANGE, None),
            (f"{SITE}/a", t + 1, ok, f"{SITE}/"),
            (f"{SITE}/b", T0 + 3, ok, f"{SITE}/"),
            (f"{SITE}/b-copy", T0 + 3, ok, f"{SITE}/"),
            (f"{SITE}/de", T0 + 3, ok, f"{SITE}/"),
            (f"{SITE}/orphan", T0 + 3, ok, None),
            (f"{SITE}/old", T0 + 4, ExitCode.PERMANENT_REDIRECT, f"{SITE}/"),
            (f"{SITE}/chain", T0 + 5, ExitCode.REDIRECT, f"{SITE}/"),
            (f"{SITE}/loop1", T0 + 6, ExitCode.REDIRECT, f"{SITE}/"),
            (f"{SITE}/loop2", T0 + 7, ExitCode.REDIRECT, f"{SITE}/loop1"),
            (f"{SITE}/missing", T0 + 8, ExitCode.FILE_NOT_FOUND, f"{SITE}/"),
            (f"{SITE}/private", T0 + 9, ExitCode.ROBOTS_DISALLOWED, f"{SITE}/"),
            (f"{SITE}/slow", T0 + 10, ExitCode.REQUEST_TIMEOUT, f"{SITE}/"),
            (f"{OTHER}/", T0 + 11, ok, None),
            (f"{OTHER}/error", T0 + 72, ExitCode.SERVER_INTERNAL_ERROR, f"{OTHER}/"),
        )
        # (url, depth, discovered, last crawl, its exit code, next due, found via, type)
        candidates: list[tuple[Any, ...]] = [
            (
                url,
                0 if via is None else 1,
                T0,
                last,
                code,
                FAR_FUTURE if url == f"{SITE}/b" else due,
                via,
                CrawlType.FILE_CRAWL,
            )
            for url, last, code, via in crawled
        ]
        # never tried; robots.txt's sitemap and the page it listed; retired
        candidates += [
            (f"{SITE}/new", 2, T0 + 2, None, None, T0 + 2, f"{SITE}/a", CrawlType.FILE_CRAWL),
            (f"{SITE}/sitemap.xml", 0, T0, None, None, T0, f"{SITE}/robots.txt",
             CrawlType.SITEMAP_CRAWL),
            (f"{SITE}/listed", 1, T0 + 1, None, None, T0 + 1, f"{SITE}/sitemap.xml",
             CrawlType.FILE_CRAWL),
            (f"{SITE}/gone", 2, T0 + 2, T0 + 50, ExitCode.FILE_GONE, None, f"{SITE}/a",
             CrawlType.FILE_CRAWL),
        ]  # fmt: skip
        for url, depth, found, last, code, next_due, via, crawl_type in candidates:
            w.candidate(
                url,
                depth=depth,
                discovered=found,
                last_crawl=last,
                last_exit=code,
                next_due=next_due,
                via=via,
                contentful=code is not None and code.is_contentful,
                crawl_type=crawl_type,
            )
    engine.dispose()
    return path


DOCS = "http://docs.test"
BLOG = "http://blog.docs.test"


def article(title: str, paragraphs: tuple[str, ...], headings: tuple[str, ...] = ()) -> bytes:
    """A documentation-like page: a nav, then the article with headings and paragraphs."""
    parts = [f"<h1>{title}</h1>"]
    for i, text in enumerate(paragraphs):
        if i < len(headings):
            parts.append(f"<h2>{headings[i]}</h2>")
        parts.append(f"<p>{text}</p>")
    return (
        f"<!doctype html><html lang=en><head><title>{title}</title></head><body>"
        '<nav><ul><li><a href="/">Docs home</a></li><li><a href="/faq.html">FAQ</a></li>'
        f"</ul></nav><main><article>{''.join(parts)}</article></main>"
        "<footer>Documentation footer</footer></body></html>"
    ).encode()


FILLER = (
    "This section describes details of the standard library that most programs use, "
    "with examples and notes about portability across platforms and versions."
)
ASYNCIO_PAGE = article(
    "asyncio — Asynchronous I/O",
    (
        "asyncio is a library to write concurrent code using the async and await syntax.",
        "It provides high-level APIs to run coroutines concurrently and control them. " + FILLER,
    ),
    ("Overview", "High-level APIs"),
)
# (url, first-crawl body, recrawl body or None)
SEARCH_PAGES: list[tuple[str, bytes, bytes | None]] = [
    (f"{DOCS}/library/asyncio.html", ASYNCIO_PAGE, None),
    # the same page under a longer URL: an exact duplicate, never a result
    (f"{DOCS}/library/asyncio-copy.html", ASYNCIO_PAGE, None),
    (
        f"{DOCS}/library/asyncio-task.html",
        article(
            "Coroutines and Tasks",
            (
                "Coroutines declared with async/await are the preferred way of writing "
                "asyncio applications. Tasks are used to schedule coroutines in asyncio.",
                FILLER,
            ),
        ),
        None,
    ),
    (
        f"{DOCS}/whatsnew/3.7.html",
        article(
            "What's New In Python 3.7",
            (
                "This article explains the new features in Python 3.7. " + FILLER,
                "Several modules got improvements, among them asyncio and the "
                "data classes module. " + FILLER,
            ),
        ),
        None,
    ),
    (
        f"{DOCS}/tutorial/datastructures.html",
        article(
            "Data Structures",
            (
                "This chapter describes some things you have learned about already. " + FILLER,
                "List comprehensions provide a concise way to create lists from sequences.",
            ),
            ("More on Lists", "List Comprehensions"),
        ),
        None,
    ),
    (
        f"{DOCS}/faq.html",
        article(
            "Programming FAQ",
            (
                "How do I make a list of items? Use a comprehension or a loop. " + FILLER,
                "A set comprehension builds a set instead of a list.",
            ),
        ),
        None,
    ),
    (
        f"{DOCS}/legacy.html",
        article(
            "Legacy notes",
            ("There was no asyncio module in Python 2 at all; " + FILLER,),
        ),
        None,
    ),
    (
        f"{DOCS}/changing.html",
        article("Airships", ("The zeppelin is a rigid airship. " + FILLER,)),
        article("Airships", ("The blimp is a non-rigid airship. " + FILLER,)),
    ),
    (
        f"{BLOG}/post.html",
        article("Blog post", ("We moved our service to asyncio last year. " + FILLER,)),
        None,
    ),
    (
        f"{OTHER}/asyncio.html",
        article("asyncio notes", ("Notes about asyncio from another site. " + FILLER,)),
        None,
    ),
]


# Pages about other things: bm25 needs a term to be rare to count (an IDF of a
# term in more than half the pages is clamped to ~0), as in any real site.
SEARCH_PAGES += [
    (f"{DOCS}/library/{topic}.html", article(f"{topic} — {topic} module", (FILLER, FILLER)), None)
    for topic in ("json", "csv", "re", "os", "sys", "math", "time", "heapq", "bisect", "array")
]


def build_search_crawl_db(path: Path) -> Path:
    """A crawl of SEARCH_PAGES, with a recrawl a day later that changes one page."""
    engine = open_database(path, "crawl")
    with engine.begin() as conn:
        w = CrawlWriter(conn)
        first, second = w.agent("first", T0), w.agent("second", T0 + DAY)
        ok = ExitCode.FILE_INGESTED
        for i, (url, body, later) in enumerate(SEARCH_PAGES):
            w.entry(first, url, started=T0 + i, exit_code=ok, status=200, body=body)
            if later is not None:
                w.entry(second, url, started=T0 + DAY + i, exit_code=ok, status=200, body=later)
    engine.dispose()
    return path
