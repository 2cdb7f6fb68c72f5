"""Reads page records out of a summary database, a batch at a time.

Pages are read in ``entity_generation_id`` order with keyset pagination
(``WHERE entity_generation_id > :last ORDER BY ... LIMIT :n``): each batch is
one query for the pages joined with their description, text pile and file
summary, then one query each for the batch's headings, images, links, first
crawls and redirect sources.  Memory holds one batch, whatever the size of
the database.

By default only the current web is read: open generations (no confirmed
end) of kind ``page`` that are not marked duplicate and whose page does not
ask to be kept out of indexes (meta robots / X-Robots-Tag ``noindex``: the
Spideriment reference dropped such pages, and the summarizer keeps them out
of its own search index).  ``include_all`` reads every page generation:
closed, duplicate and noindex ones too.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import Any

from .dataset import CrawlFacts
from .readonly import ReadOnlyDb
from .records import HeadingRef, ImageRef, LinkRef, PageRecord, TextFields

__all__ = ["DEFAULT_BATCH_SIZE", "FAILED_EXIT_CODES", "SummaryReader"]

DEFAULT_BATCH_SIZE = 200
#: A batch also ends once its pages hold about this much text and links, so
#: that a run of huge pages (500 KB of text, thousands of links each) is read
#: a few at a time: memory follows the budget, not the size of the pages.
BATCH_BUDGET_BYTES = 8 << 20
#: What one link costs in memory as a LinkRef with its URL and text.
_LINK_COST = 250
#: Redirect chains longer than this are not followed back (loops, traps).
MAX_REDIRECT_HOPS = 10

#: Exit codes that make a page count as failed in ``crawl_report.json``:
#: fetch and HTTP errors.  Not failures: content, redirects, 304, noindex,
#: and URLs never requested (robots.txt disallowed or unavailable, origin
#: gave up, cancelled), as the reference did not count robots-blocked pages.
FAILED_EXIT_CODES = (40, 41, 42, 44, 49, 50, 100, 101, 102, 111, 112)
_PAGE_CRAWL = 0  # crawl_type of page crawls (unob.codes.CrawlType.FILE_CRAWL)

# The current web: open, not a duplicate, and not asking to stay out of indexes.
_CURRENT = """eg.confirmed_end_unix_utc IS NULL AND NOT eg.marked_duplicate
AND NOT EXISTS (SELECT 1 FROM file_summary AS nf
                WHERE nf.entity_generation_id = eg.entity_generation_id AND nf.robots_noindex)"""

_PAGES_SQL = """
SELECT eg.entity_generation_id, u.str_url, eg.first_seen_unix_utc, eg.last_seen_unix_utc,
       dd.title, dd.description, dd.primary_language, dd.keywords, dd.author, dd.image,
       dd.category, dd.published_unix_utc, dd.modified_unix_utc, dd.primary_headline,
       tp.text, tp.secondary_text, tp.big_headlines, tp.small_headlines, tp.code_text,
       tp.quote_text,
       fs.mime_type, fs.charset, fs.file_size, fs.content_sha256, cu.str_url, fs.link_count
FROM entity_generation AS eg
JOIN url AS u ON u.url_id = eg.url_id
LEFT JOIN document_description AS dd ON dd.entity_generation_id = eg.entity_generation_id
LEFT JOIN text_pile AS tp ON tp.text_pile_id = eg.text_pile_id
LEFT JOIN file_summary AS fs ON fs.entity_generation_id = eg.entity_generation_id
LEFT JOIN url AS cu ON cu.url_id = fs.canonical_url_id
WHERE eg.kind = 'page' AND eg.entity_generation_id > ? {filter}
ORDER BY eg.entity_generation_id
LIMIT ?
"""


def _marks(ids: Sequence[Any]) -> str:
    return ",".join("?" * len(ids))


@dataclass(slots=True)
class _FirstCrawl:
    http_status: int | None
    duration_ms: int | None


class SummaryReader:
    """A summary database opened read-only for exporting."""

    def __init__(self, path: Path, *, include_all: bool = False) -> None:
        self.path = path
        self.include_all = include_all
        self._db = ReadOnlyDb(path, "summary")
        self._query = self._db.query

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> SummaryReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def _filter(self) -> str:
        return "" if self.include_all else f"AND {_CURRENT}"

    def count(self) -> int:
        """How many pages :meth:`batches` will yield."""
        sql = f"SELECT count(*) FROM entity_generation AS eg WHERE eg.kind = 'page' {self._filter}"
        return int(self._query(sql).fetchone()[0])

    def batches(self, size: int = DEFAULT_BATCH_SIZE) -> Iterator[list[PageRecord]]:
        """Page records in ``entity_generation_id`` order: at most ``size`` at a time,
        fewer when they exceed :data:`BATCH_BUDGET_BYTES`."""
        last = 0
        sql = _PAGES_SQL.format(filter=self._filter)
        while True:
            cursor = self._query(sql, (last, size))
            rows: list[tuple[Any, ...]] = []
            budget = 0
            for row in cursor:  # SQLite steps lazily: unread rows are never loaded
                rows.append(row)
                budget += sum(len(v) for v in row[14:20] if v) + _LINK_COST * (row[25] or 0)
                if budget >= BATCH_BUDGET_BYTES:
                    break
            cursor.close()
            if not rows:
                return
            last = rows[-1][0]
            yield self._records(rows)

    def _records(self, rows: list[tuple[Any, ...]]) -> list[PageRecord]:
        ids = [row[0] for row in rows]
        headings = self._headings(ids)
        images = self._images(ids)
        links = self._links(ids)
        crawls = self._first_crawls(ids)
        sources = self._redirect_sources(ids)
        records = []
        for row in rows:
            (gid, url, first_seen, last_seen, title, description, language, keywords, author) = row[
                :9
            ]
            (image, category, published, modified, headline) = row[9:14]
            text = TextFields(*(value or "" for value in row[14:20]))
            mime, charset, size, sha256, canonical = row[20:25]  # row[25]: link count
            crawl = crawls.get(gid, _FirstCrawl(None, None))
            records.append(
                PageRecord(
                    key=gid,
                    url=url,
                    crawl_unix=last_seen,
                    fetched_unix=first_seen,
                    original_url=sources.get(gid, ""),
                    canonical_url=canonical or "",
                    title=title or "",
                    primary_headline=headline or "",
                    description=description or "",
                    language=language or "",
                    keywords=_keywords(keywords),
                    author=author or "",
                    image=image or "",
                    category=category or "",
                    published_unix=published,
                    modified_unix=modified,
                    http_status=crawl.http_status,
                    response_time_ms=crawl.duration_ms,
                    size_bytes=size,
                    mime_type=mime or "",
                    charset=charset or "",
                    headings=tuple(headings.get(gid, ())),
                    images=tuple(images.get(gid, ())),
                    links=tuple(links.get(gid, ())),
                    text=text,
                    raw_html_sha256=sha256 or "",
                )
            )
        return records

    def _headings(self, ids: list[int]) -> dict[int, list[HeadingRef]]:
        out: dict[int, list[HeadingRef]] = defaultdict(list)
        sql = (
            "SELECT entity_generation_id, level, text, anchor FROM heading "
            f"WHERE entity_generation_id IN ({_marks(ids)}) "
            "ORDER BY entity_generation_id, position"
        )
        for gid, level, text, anchor in self._query(sql, ids):
            out[gid].append(HeadingRef(level, text, anchor or ""))
        return out

    def _images(self, ids: list[int]) -> dict[int, list[ImageRef]]:
        out: dict[int, list[ImageRef]] = defaultdict(list)
        sql = (
            "SELECT entity_generation_id, src, alt FROM image "
            f"WHERE entity_generation_id IN ({_marks(ids)}) "
            "ORDER BY entity_generation_id, position"
        )
        for gid, src, alt in self._query(sql, ids):
            out[gid].append(ImageRef(src, alt or ""))
        return out

    def _links(self, ids: list[int]) -> dict[int, list[LinkRef]]:
        out: dict[int, list[LinkRef]] = defaultdict(list)
        sql = (
            "SELECT ls.entity_generation_id, u.str_url, ls.text, ls.kind, ls.locality "
            "FROM link_summary AS ls JOIN url AS u ON u.url_id = ls.to_url_id "
            f"WHERE ls.entity_generation_id IN ({_marks(ids)}) "
            "ORDER BY ls.entity_generation_id, ls.position"
        )
        for gid, url, text, kind, locality in self._query(sql, ids):
            out[gid].append(LinkRef(url, text, kind, locality))
        return out

    def _first_crawls(self, ids: list[int]) -> dict[int, _FirstCrawl]:
        """HTTP status and duration of the crawl that fetched each generation's body.

        SQLite takes the bare columns of a ``min()`` aggregate from the row
        holding the minimum (sqlite.org/lang_select.html#bareagg).
        """
        sql = (
            "SELECT entity_generation_id, min(time_started_unix_utc), http_status, "
            "request_duration_ms FROM crawl_summary "
            f"WHERE entity_generation_id IN ({_marks(ids)}) AND http_status IS NOT NULL "
            "AND http_status <> 304 GROUP BY entity_generation_id"
        )
        return {gid: _FirstCrawl(status, ms) for gid, _, status, ms in self._query(sql, ids)}

    def _redirect_sources(self, ids: list[int]) -> dict[int, str]:
        """The URL first navigated to, for pages that redirects lead to.

        Follows open redirect generations backwards from each page's URL
        (chains up to :data:`MAX_REDIRECT_HOPS`) and picks the source seen
        first (ties: the shorter, then the smaller URL).
        """
        sql = f"""
        WITH RECURSIVE
        page(gid, url_id) AS (
            SELECT entity_generation_id, url_id FROM entity_generation
            WHERE entity_generation_id IN ({_marks(ids)})
        ),
        chain(gid, final_id, from_id, seen, hops) AS (
            SELECT p.gid, p.url_id, r.url_id, r.first_seen_unix_utc, 1
            FROM page AS p
            JOIN redirect_summary AS rs ON rs.to_url_id = p.url_id
            JOIN entity_generation AS r ON r.entity_generation_id = rs.entity_generation_id
            WHERE r.kind = 'redirect' AND r.confirmed_end_unix_utc IS NULL
            UNION
            SELECT c.gid, c.final_id, r.url_id, r.first_seen_unix_utc, c.hops + 1
            FROM chain AS c
            JOIN redirect_summary AS rs ON rs.to_url_id = c.from_id
            JOIN entity_generation AS r ON r.entity_generation_id = rs.entity_generation_id
            WHERE r.kind = 'redirect' AND r.confirmed_end_unix_utc IS NULL
              AND c.hops < {MAX_REDIRECT_HOPS}
        )
        SELECT c.gid, u.str_url FROM chain AS c JOIN url AS u ON u.url_id = c.from_id
        WHERE c.from_id <> c.final_id
        ORDER BY c.gid, c.seen, length(u.str_url), u.str_url
        """
        out: dict[int, str] = {}
        for gid, url in self._query(sql, ids):
            out.setdefault(gid, url)
        return out

    def crawl_facts(self) -> CrawlFacts:
        """Failed pages and crawl time for ``crawl_report.json``.

        A page URL failed when its latest summarized page crawl ended with
        one of :data:`FAILED_EXIT_CODES`.  The time is the span between the
        first and the last crawl summarized (crawl databases know better:
        see :func:`unob.export.crawlsource.CrawlSources.time_taken_seconds`).
        """
        codes = ",".join(str(code) for code in FAILED_EXIT_CODES)
        latest = f"""
        WITH latest AS (
            SELECT url_id, max(time_started_unix_utc) AS t, exit_code, http_status, message,
                   crawl_summary_id
            FROM crawl_summary WHERE crawl_type = {_PAGE_CRAWL} GROUP BY url_id
        )
        SELECT u.str_url, l.exit_code, l.http_status, l.message, ec.name
        FROM latest AS l JOIN url AS u ON u.url_id = l.url_id
        LEFT JOIN exit_code AS ec ON ec.code = l.exit_code
        WHERE l.exit_code IN ({codes})
        ORDER BY l.t, l.crawl_summary_id
        """
        failed = 0
        errors: list[tuple[str, str]] = []
        for url, _code, status, message, name in self._query(latest):
            failed += 1
            if len(errors) < 100:
                errors.append((url, _error_text(status, name, message)))
        span = self._query(
            "SELECT min(time_started_unix_utc), max(time_started_unix_utc) FROM crawl_summary"
        ).fetchone()
        seconds = float(span[1] - span[0]) if span[0] is not None else 0.0
        return CrawlFacts(failed, tuple(errors), seconds)


def _keywords(value: str | None) -> tuple[str, ...]:
    if not value:
        return ()
    try:
        loaded = json.loads(value)
    except ValueError:
        return (value,)
    if isinstance(loaded, list):
        return tuple(str(item) for item in loaded if item is not None)
    return (str(loaded),)


def _error_text(status: int | None, name: str | None, message: str | None) -> str:
    """``HTTP 404: Not Found`` for an HTTP error, else ``too_large: <message>``.

    An HTTP error (a 4xx or 5xx answer) is named by its status and reason
    phrase (``http.HTTPStatus``; the exit code name for a status it does not
    know); the crawler's message would only repeat the status.  Every other
    failure is ``<exit code name>: <message>``, also when the answer's status
    was 200 (a body over the size cap, a broken encoding).
    """
    label = name or "error"
    if status is not None and 400 <= status <= 599:
        try:
            reason = HTTPStatus(status).phrase
        except ValueError:
            reason = label
        return f"HTTP {status}: {reason}"
    return f"{label}: {message}" if message else label
