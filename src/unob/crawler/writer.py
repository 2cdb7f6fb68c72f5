"""The SQL of the crawl database writer, run on the store's thread (see :mod:`.store`).

:class:`Writer` owns the writer thread's :mod:`sqlite3` connection and the
bounded id caches; every method runs inside a transaction the store opened.
Ids of ``origin`` and ``url`` rows are found with a lookup and an INSERT when
missing, behind the caches, so memory stays flat however many URLs the crawl
meets.  Frontier reads (:meth:`Writer.pull`, :meth:`Writer.due_origins`) run
here too, so they see every entry written before them.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from unob import bodycodec
from unob.codes import CrawlType, SchedulingReason
from unob.crawler.cache import BoundedCache
from unob.crawler.frontier import Candidate, candidate_update
from unob.crawler.records import AgentInfo, EntryRecord, NewCandidate, Seed
from unob.urls import origin_of_canonical

__all__ = ["Writer"]


_INSERT_ENTRY = (
    "INSERT INTO crawl_log_entry (crawl_log_entry_uuid, agent_id, url_id, crawl_type, "
    "scheduling_reason, started_unix_utc, started_unix_ms, time_taken_ms, exit_code, message, "
    "depth) VALUES (?,?,?,?,?,?,?,?,?,?,?)"
)
_INSERT_REQUEST = (
    "INSERT INTO request_info (crawl_log_entry_id, url_id, sent_unix_utc, sent_unix_ms, "
    "duration_ms, robotstxt_approved, is_retry, http_status, http_etag, "
    "server_last_modified_unix_utc, content_type, content_encoding, body_bytes, retry_after_s, "
    "x_robots_tag, exit_code) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
)
_INSERT_FILE = (
    "INSERT INTO file_info (crawl_log_entry_id, request_info_id, url_id, mime_type, charset, "
    "size, last_modified_unix_utc, canonical_url_id, file_content_id, depth, robots_noindex, "
    "robots_nofollow, links_found) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)"
)
_INSERT_REDIRECT = (
    "INSERT INTO redirect (crawl_log_entry_id, request_info_id, url_id, to_url_id, "
    "to_url_fragment, http_status, is_permanent, by_security_policy, information_source) "
    "VALUES (?,?,?,?,?,?,?,?,?)"
)
# A URL found again at a smaller depth moves up (breadth-first depth is what
# max_depth means); a parked candidate (next_due NULL: found out of scope by
# an earlier run) found again as a link is due again.  A URL crawled before
# its sitemap's <lastmod> (:lastmod, NULL when not said) changed since: due
# now, never later than it was, with the reason why; a URL this run crawled
# already stays out of this run anyway (the pull leaves out this agent's).
_LASTMOD_FORWARD = (
    "(crawl_candidate.last_crawl_unix_utc < :lastmod AND crawl_candidate.next_due_unix_utc > :now)"
)
# A page URL that a robots.txt or a sitemap index names as a sitemap becomes one,
# due now: else a site's /sitemap.xml, linked from a page (or known from a crawl
# with sitemaps off) before robots.txt named it, would never be read as a sitemap.
# (A "sitemap" that answers HTML is still crawled as the page it is: interpret.py.)
_PROMOTE_TO_SITEMAP = (
    f"(excluded.crawl_type = {int(CrawlType.SITEMAP_CRAWL)} "
    f"AND crawl_candidate.crawl_type = {int(CrawlType.FILE_CRAWL)})"
)
_UPSERT_CANDIDATE = (
    "INSERT INTO crawl_candidate (url_id, origin_id, crawl_type, depth, discovered_via_url_id, "
    "discovered_unix_utc, scheduling_reason, next_due_unix_utc) "
    "VALUES (:url_id, :origin_id, :crawl_type, :depth, :via, :now, :reason, :now) "
    "ON CONFLICT(url_id) DO UPDATE SET depth = min(depth, excluded.depth), "
    f"next_due_unix_utc = CASE WHEN {_LASTMOD_FORWARD} OR {_PROMOTE_TO_SITEMAP} "
    "THEN min(coalesce(next_due_unix_utc, :now), :now) "
    "ELSE coalesce(next_due_unix_utc, excluded.next_due_unix_utc) END, "
    f"scheduling_reason = CASE WHEN {_LASTMOD_FORWARD} THEN :lastmod_reason "
    "ELSE scheduling_reason END, "
    f"crawl_type = CASE WHEN {_PROMOTE_TO_SITEMAP} THEN excluded.crawl_type ELSE crawl_type END "
    "WHERE excluded.depth < crawl_candidate.depth OR crawl_candidate.next_due_unix_utc IS NULL "
    f"OR {_LASTMOD_FORWARD} OR {_PROMOTE_TO_SITEMAP}"
)
# A crawl answers the <lastmod> that made its URL due: from now on it is due for the
# recrawl interval again.
_SET_LAST_CRAWL = (
    "UPDATE crawl_candidate SET last_crawl_unix_utc=?, last_crawl_exit_code=?, "
    "last_crawl_agent_id=?, next_due_unix_utc=?, scheduling_reason = CASE scheduling_reason "
    f"WHEN {int(SchedulingReason.SITEMAP_LASTMOD)} THEN {int(SchedulingReason.RECRAWL)} "
    "ELSE scheduling_reason END"
)
_UPDATE_CANDIDATE = f"{_SET_LAST_CRAWL} WHERE url_id=?"
_UPDATE_CANDIDATE_CONTENTFUL = (
    f"{_SET_LAST_CRAWL}, last_contentful_crawl_unix_utc=?, last_contentful_http_etag=?, "
    "last_contentful_last_modified_unix_utc=? WHERE url_id=?"
)
_UPDATE_CANDIDATE_NOT_MODIFIED = (
    f"{_SET_LAST_CRAWL}, last_contentful_crawl_unix_utc=?, "
    "last_contentful_http_etag=coalesce(?, last_contentful_http_etag), "
    "last_contentful_last_modified_unix_utc=coalesce(?, last_contentful_last_modified_unix_utc) "
    "WHERE url_id=?"
)
_CANDIDATE_COLUMNS = (
    "c.url_id, u.str_url, c.depth, c.crawl_type, c.scheduling_reason, c.last_crawl_unix_utc, "
    "c.last_contentful_http_etag, c.last_contentful_last_modified_unix_utc"
)
# Never attempted: breadth-first through the partial index ix_crawl_candidate_unexplored.
_PULL_UNEXPLORED = (
    f"SELECT {_CANDIDATE_COLUMNS} FROM crawl_candidate c JOIN url u ON u.url_id = c.url_id "
    "WHERE c.origin_id=? AND c.last_crawl_unix_utc IS NULL AND c.next_due_unix_utc IS NOT NULL "
    "AND c.crawl_type NOT IN (?, ?) ORDER BY c.depth, c.url_id LIMIT ?"
)
# Attempted by an earlier run and due again (ix_crawl_candidate_origin_due).  URLs this
# run attempted are never due again in it (once per run: loops end by themselves).
_PULL_RECRAWL = (
    f"SELECT {_CANDIDATE_COLUMNS} FROM crawl_candidate c JOIN url u ON u.url_id = c.url_id "
    "WHERE c.origin_id=? AND c.next_due_unix_utc <= ? AND c.last_crawl_unix_utc IS NOT NULL "
    "AND c.last_crawl_agent_id IS NOT ? AND c.crawl_type NOT IN (?, ?) "
    "ORDER BY c.next_due_unix_utc, c.depth LIMIT ?"
)
_DUE_ORIGINS_UNEXPLORED = (
    "SELECT DISTINCT c.origin_id FROM crawl_candidate c "
    "WHERE c.last_crawl_unix_utc IS NULL AND c.next_due_unix_utc IS NOT NULL "
    "AND c.crawl_type NOT IN (?, ?)"
)
_DUE_ORIGINS_RECRAWL = (
    "SELECT DISTINCT c.origin_id FROM crawl_candidate c "
    "WHERE c.next_due_unix_utc <= ? AND c.last_crawl_unix_utc IS NOT NULL "
    "AND c.last_crawl_agent_id IS NOT ? AND c.crawl_type NOT IN (?, ?)"
)


def _split_origin(str_origin: str) -> tuple[str, str, int | None]:
    parts = urlsplit(str_origin)
    return parts.scheme, parts.hostname or "", parts.port


# --------------------------------------------------------------------------- writer


class Writer:
    """State owned by the writer thread: the connection and the id caches."""

    def __init__(self, conn: sqlite3.Connection, cache_size: int) -> None:
        self.conn = conn
        self.agent_id: int | None = None
        #: two crawl types this run leaves alone (image candidates without --images,
        #: sitemaps with sitemaps off: they stay due for a run with them on); -1 = none
        self.skip_types = (-1, -1)
        self.origin_ids: BoundedCache[str, int] = BoundedCache(max(64, cache_size // 16))
        self.origin_names: BoundedCache[int, str] = BoundedCache(max(64, cache_size // 16))
        # str_url -> (url_id, smallest depth it is known as a candidate with; -1 = not one)
        self.urls: BoundedCache[str, tuple[int, int]] = BoundedCache(cache_size)

    # ids ------------------------------------------------------------------

    def origin_id(self, str_origin: str) -> int:
        cached = self.origin_ids.get(str_origin)
        if cached is not None:
            return cached
        row = self.conn.execute(
            "SELECT origin_id FROM origin WHERE str_origin=?", (str_origin,)
        ).fetchone()
        if row is not None:
            origin_id = int(row[0])
        else:
            scheme, host, port = _split_origin(str_origin)
            cursor = self.conn.execute(
                "INSERT INTO origin (scheme, host, port, str_origin) VALUES (?,?,?,?)",
                (scheme, host, port, str_origin),
            )
            origin_id = int(cursor.lastrowid or 0)
        self.origin_ids.put(str_origin, origin_id)
        return origin_id

    def origin_name(self, origin_id: int) -> str:
        cached = self.origin_names.get(origin_id)
        if cached is not None:
            return cached
        row = self.conn.execute(
            "SELECT str_origin FROM origin WHERE origin_id=?", (origin_id,)
        ).fetchone()
        name = str(row[0])
        self.origin_names.put(origin_id, name)
        return name

    def url_id(self, str_url: str, str_origin: str) -> int:
        cached = self.urls.get(str_url)
        if cached is not None:
            return cached[0]
        return self._lookup_url(str_url, str_origin)[0]

    def _lookup_url(self, str_url: str, str_origin: str) -> tuple[int, int]:
        row = self.conn.execute("SELECT url_id FROM url WHERE str_url=?", (str_url,)).fetchone()
        if row is not None:
            value = (int(row[0]), -1)
        else:
            cursor = self.conn.execute(
                "INSERT INTO url (origin_id, str_url) VALUES (?,?)",
                (self.origin_id(str_origin), str_url),
            )
            value = (int(cursor.lastrowid or 0), -1)
        self.urls.put(str_url, value)
        return value

    def add_candidate(
        self,
        found: NewCandidate,
        *,
        via_url_id: int | None,
        now: int,
        reason: SchedulingReason,
    ) -> None:
        cached = self.urls.get(found.url)
        if (
            cached is not None
            and 0 <= cached[1] <= found.depth
            and found.lastmod_unix_utc is None
            and found.crawl_type != CrawlType.SITEMAP_CRAWL  # may promote a page (above)
        ):
            return  # known as a candidate at this depth or closer: nothing to do
        url_id = cached[0] if cached is not None else self._lookup_url(found.url, found.origin)[0]
        self.conn.execute(
            _UPSERT_CANDIDATE,
            {
                "url_id": url_id,
                "origin_id": self.origin_id(found.origin),
                "crawl_type": int(found.crawl_type),
                "depth": found.depth,
                "via": via_url_id,
                "now": now,
                "reason": int(reason),
                "lastmod": found.lastmod_unix_utc,
                "lastmod_reason": int(SchedulingReason.SITEMAP_LASTMOD),
            },
        )
        # (a lastmod sends a URL known closer through here too: keep the closer depth)
        known = cached[1] if cached is not None and cached[1] >= 0 else found.depth
        self.urls.put(found.url, (url_id, min(known, found.depth)))

    # entries --------------------------------------------------------------

    def content_id(self, body: bytes, *, compress: bool) -> int:
        digest = hashlib.sha256(body).hexdigest()
        row = self.conn.execute(
            "SELECT file_content_id FROM file_content WHERE sha256=?", (digest,)
        ).fetchone()
        if row is not None:
            return int(row[0])
        # Images are compressed already: stored as-is.  Pages: see unob.bodycodec.
        codec, data = bodycodec.compress(body) if compress else ("none", body)
        cursor = self.conn.execute(
            "INSERT INTO file_content (sha256, size, compression, data) VALUES (?,?,?,?)",
            (digest, len(body), codec, data),
        )
        return int(cursor.lastrowid or 0)

    def write_entry(self, entry: EntryRecord) -> None:
        assert self.agent_id is not None, "begin_agent first"
        conn = self.conn
        url_id = entry.url_id if entry.url_id is not None else self.url_id(entry.url, entry.origin)
        started_s = entry.started_unix_ms // 1000
        entry_id = int(
            conn.execute(
                _INSERT_ENTRY,
                (
                    entry.uuid,
                    self.agent_id,
                    url_id,
                    int(entry.crawl_type),
                    int(entry.scheduling_reason),
                    started_s,
                    entry.started_unix_ms,
                    entry.time_taken_ms,
                    int(entry.exit_code),
                    entry.message,
                    entry.depth,
                ),
            ).lastrowid
            or 0
        )
        request_id: int | None = None
        for req in entry.requests:
            request_id = int(
                conn.execute(
                    _INSERT_REQUEST,
                    (
                        entry_id,
                        url_id,
                        req.sent_unix_ms // 1000,
                        req.sent_unix_ms,
                        req.duration_ms,
                        req.robotstxt_approved,
                        req.is_retry,
                        req.http_status,
                        req.http_etag,
                        req.server_last_modified_unix_utc,
                        req.content_type,
                        req.content_encoding,
                        req.body_bytes,
                        req.retry_after_s,
                        req.x_robots_tag,
                        int(req.exit_code),
                    ),
                ).lastrowid
                or 0
            )
        if entry.file is not None:
            self._write_file(entry, entry_id, request_id, url_id)
        for red in entry.redirects:
            conn.execute(
                _INSERT_REDIRECT,
                (
                    entry_id,
                    request_id,
                    url_id,
                    self.url_id(red.to_url, red.to_origin),
                    red.to_fragment,
                    red.http_status,
                    red.is_permanent,
                    red.by_security_policy,
                    int(red.information_source),
                ),
            )
        for found in entry.candidates:
            self.add_candidate(
                found, via_url_id=url_id, now=started_s, reason=SchedulingReason.EXPLORE
            )
        if entry.update_candidate:
            self._update_candidate(entry, url_id)

    def _write_file(
        self, entry: EntryRecord, entry_id: int, request_id: int | None, url_id: int
    ) -> None:
        info = entry.file
        assert info is not None
        content_id = (
            self.content_id(info.body, compress=info.compress) if info.body is not None else None
        )
        canonical_id = (
            self.url_id(info.canonical_url, origin_of_canonical(info.canonical_url))
            if info.canonical_url
            else None
        )
        self.conn.execute(
            _INSERT_FILE,
            (
                entry_id,
                request_id,
                url_id,
                info.mime_type,
                info.charset,
                info.size,
                info.last_modified_unix_utc,
                canonical_id,
                content_id,
                entry.depth,
                info.robots_noindex,
                info.robots_nofollow,
                info.links_found,
            ),
        )

    def _update_candidate(self, entry: EntryRecord, url_id: int) -> None:
        crawled = entry.started_unix_ms // 1000
        update = candidate_update(entry.exit_code, crawled, entry.recrawl_interval_s)
        if update is None:
            return
        if not update.contentful:
            self.conn.execute(
                _UPDATE_CANDIDATE,
                (
                    crawled,
                    update.last_crawl_exit_code,
                    self.agent_id,
                    update.next_due_unix_utc,
                    url_id,
                ),
            )
            return
        last = entry.requests[-1] if entry.requests else None
        etag = last.http_etag if last is not None else None
        modified = last.server_last_modified_unix_utc if last is not None else None
        self.conn.execute(
            _UPDATE_CANDIDATE_NOT_MODIFIED
            if update.keep_old_validators
            else _UPDATE_CANDIDATE_CONTENTFUL,
            (
                crawled,
                update.last_crawl_exit_code,
                self.agent_id,
                update.next_due_unix_utc,
                crawled,
                etag,
                modified,
                url_id,
            ),
        )

    # queries --------------------------------------------------------------

    def pull(
        self,
        origin_id: int,
        limit: int,
        exclude: frozenset[int],
        due_before: int,
    ) -> list[Candidate]:
        """Up to ``limit`` due candidates of an origin, never-attempted ones first
        (breadth-first), leaving out ``exclude`` (in flight)."""
        asked = limit + len(exclude)
        rows = self.conn.execute(_PULL_UNEXPLORED, (origin_id, *self.skip_types, asked)).fetchall()
        fresh = [row for row in rows if row[0] not in exclude]
        if len(fresh) < limit:
            more = self.conn.execute(
                _PULL_RECRAWL, (origin_id, due_before, self.agent_id, *self.skip_types, asked)
            ).fetchall()
            fresh.extend(row for row in more if row[0] not in exclude)
        return [_candidate(row) for row in fresh[:limit]]

    def due_origins(self, due_before: int) -> list[tuple[int, str]]:
        ids = {int(r[0]) for r in self.conn.execute(_DUE_ORIGINS_UNEXPLORED, self.skip_types)}
        recrawl = self.conn.execute(
            _DUE_ORIGINS_RECRAWL, (due_before, self.agent_id, *self.skip_types)
        )
        ids.update(int(r[0]) for r in recrawl)
        return sorted((origin_id, self.origin_name(origin_id)) for origin_id in ids)

    def park(self, url_ids: list[int]) -> None:
        self.conn.executemany(
            "UPDATE crawl_candidate SET next_due_unix_utc=NULL WHERE url_id=?",
            [(u,) for u in url_ids],
        )

    def set_crawl_types(self, *, images: bool, sitemaps: bool) -> None:
        """Whether this run crawls image candidates (``--images``) and sitemaps."""
        self.skip_types = (
            -1 if images else int(CrawlType.IMAGE_CRAWL),
            -1 if sitemaps else int(CrawlType.SITEMAP_CRAWL),
        )

    def frontier_origins(self) -> list[str]:
        """Origins of the page candidates in the database (a resumed crawl's scope)."""
        return [
            str(row[0])
            for row in self.conn.execute(
                "SELECT str_origin FROM origin WHERE origin_id IN "
                "(SELECT DISTINCT origin_id FROM crawl_candidate WHERE crawl_type=? "
                "AND next_due_unix_utc IS NOT NULL)",
                (int(CrawlType.FILE_CRAWL),),
            )
        ]

    def count_unexplored(self) -> int:
        row = self.conn.execute(
            "SELECT count(*) FROM crawl_candidate "
            "WHERE last_crawl_unix_utc IS NULL AND next_due_unix_utc IS NOT NULL"
        ).fetchone()
        return int(row[0])

    def begin_agent(self, info: AgentInfo) -> int:
        cursor = self.conn.execute(
            "INSERT INTO agent (agent_uuid, name, http_user_agent, time_started_unix_utc, "
            "settings_json, unob_version) VALUES (?,?,?,?,?,?)",
            (
                info.agent_uuid,
                info.name,
                info.http_user_agent,
                info.started_unix,
                info.settings_json,
                info.unob_version,
            ),
        )
        self.agent_id = int(cursor.lastrowid or 0)
        return self.agent_id

    def finish_agent(self, finished_unix: int, stop_reason: str) -> None:
        self.conn.execute(
            "UPDATE agent SET time_finished_unix_utc=?, stop_reason=? WHERE agent_id=?",
            (finished_unix, stop_reason, self.agent_id),
        )

    def add_seeds(self, seeds: Iterable[Seed], now: int) -> None:
        for seed in seeds:
            url_id = self.url_id(seed.url, seed.origin)
            # A seed is depth 0 and due unless crawled within the interval; a
            # parked seed (out of scope in an earlier run) is due again.
            self.conn.execute(
                "INSERT INTO crawl_candidate (url_id, origin_id, crawl_type, depth, "
                "discovered_unix_utc, scheduling_reason, next_due_unix_utc) "
                "VALUES (?,?,?,0,?,?,?) ON CONFLICT(url_id) DO UPDATE SET depth=0, "
                "next_due_unix_utc=coalesce(next_due_unix_utc, excluded.next_due_unix_utc)",
                (
                    url_id,
                    self.origin_id(seed.origin),
                    int(CrawlType.FILE_CRAWL),
                    now,
                    int(SchedulingReason.MANUAL),
                    now,
                ),
            )
            self.urls.put(seed.url, (url_id, 0))


def _candidate(row: tuple[Any, ...]) -> Candidate:
    url_id, str_url, depth, crawl_type, reason, last_crawl, etag, modified = row
    try:
        ctype = CrawlType(crawl_type)
    except ValueError:
        ctype = CrawlType.FILE_CRAWL
    try:
        sreason = SchedulingReason(reason)
    except ValueError:
        sreason = SchedulingReason.EXPLORE
    crawled_before = last_crawl is not None
    if crawled_before and sreason is not SchedulingReason.SITEMAP_LASTMOD:
        sreason = SchedulingReason.RECRAWL
    return Candidate(
        url_id=int(url_id),
        url=str(str_url),
        depth=int(depth),
        crawl_type=ctype,
        scheduling_reason=sreason,
        etag=etag if crawled_before else None,
        last_modified_unix=modified if crawled_before else None,
    )
