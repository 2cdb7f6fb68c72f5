"""The crawl database writer: whole entries, deduplicated bodies, the frontier's order."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from unob import bodycodec
from unob.codes import CrawlType, ExitCode, InformationSource, SchedulingReason
from unob.crawler.cache import BoundedCache
from unob.crawler.frontier import OriginQueue, candidate_update
from unob.crawler.records import (
    AgentInfo,
    EntryRecord,
    FileRecord,
    NewCandidate,
    RedirectRecord,
    RequestRecord,
    Seed,
)
from unob.crawler.store import CrawlStore
from unob.crawler.writer import Writer

ORIGIN = "http://a.test"
DAY = 86400


@pytest.fixture
def store(tmp_path: Path) -> Iterator[CrawlStore]:
    s = CrawlStore(tmp_path / "crawl.db")
    s.open()
    s.call(
        lambda w: w.begin_agent(
            AgentInfo("00000000-0000-4000-8000-000000000000", "test", "ua", 1000, "{}", "0")
        )
    )
    yield s
    s.close()


def rows(store: CrawlStore, sql: str) -> list[tuple[object, ...]]:
    store.call(lambda w: None)  # everything submitted is committed
    with sqlite3.connect(store.path) as conn:
        return conn.execute(sql).fetchall()


def page_entry(
    url: str, *, body: bytes, links: list[str], started_ms: int = 2_000_000
) -> EntryRecord:
    return EntryRecord(
        uuid=f"uuid-{url}",
        url=url,
        origin=ORIGIN,
        crawl_type=CrawlType.FILE_CRAWL,
        scheduling_reason=SchedulingReason.EXPLORE,
        started_unix_ms=started_ms,
        time_taken_ms=5,
        exit_code=ExitCode.FILE_INGESTED,
        message=None,
        depth=0,
        requests=[
            RequestRecord(
                sent_unix_ms=started_ms,
                duration_ms=3,
                robotstxt_approved=True,
                is_retry=False,
                exit_code=ExitCode.FILE_INGESTED,
                http_status=200,
                http_etag='"v1"',
            )
        ],
        file=FileRecord(
            mime_type="text/html",
            charset="utf-8",
            size=len(body),
            last_modified_unix_utc=None,
            body=body,
            canonical_url=url,
        ),
        candidates=[NewCandidate(link, ORIGIN, 1) for link in links],
        recrawl_interval_s=DAY,
    )


def test_bounded_cache_keeps_recent_keys_and_stays_bounded() -> None:
    cache: BoundedCache[int, int] = BoundedCache(4)
    for i in range(100):
        cache.put(i, i * 10)
        assert cache.get(0) == 0 or i >= 4  # 0 is evicted once untouched long enough
        assert len(cache) <= 8
    assert cache.get(99) == 990
    assert cache.get(1) is None


def test_entry_is_written_whole_with_content_dedup_and_candidates(store: CrawlStore) -> None:
    store.call(lambda w: w.add_seeds([Seed(f"{ORIGIN}/", ORIGIN)], 1000))
    body = b"<html><body>same</body></html>" * 20
    store.submit(page_entry(f"{ORIGIN}/", body=body, links=[f"{ORIGIN}/b", f"{ORIGIN}/c"]))
    store.submit(page_entry(f"{ORIGIN}/copy", body=body, links=[f"{ORIGIN}/b"]))

    assert rows(store, "SELECT count(*) FROM crawl_log_entry") == [(2,)]
    assert rows(store, "SELECT count(*) FROM request_info") == [(2,)]
    assert rows(store, "SELECT count(*) FROM file_info") == [(2,)]
    # the same body is stored once, compressed (unob.bodycodec)
    (content,) = rows(store, "SELECT size, compression, data FROM file_content")
    assert content[0] == len(body) and content[1] == "zstd"
    assert bodycodec.decompress("zstd", content[2], len(body)) == body  # type: ignore[arg-type]
    links = rows(
        store,
        "SELECT u.str_url, c.depth, c.discovered_via_url_id IS NOT NULL FROM crawl_candidate c "
        "JOIN url u USING (url_id) WHERE c.last_crawl_unix_utc IS NULL ORDER BY u.str_url",
    )
    assert links == [(f"{ORIGIN}/b", 1, 1), (f"{ORIGIN}/c", 1, 1)]
    # the seed's own candidate row was updated: crawled, due again after the interval
    (seed,) = rows(
        store,
        "SELECT last_crawl_exit_code, next_due_unix_utc - last_crawl_unix_utc, "
        "last_contentful_http_etag FROM crawl_candidate c JOIN url u USING (url_id) "
        f"WHERE u.str_url = '{ORIGIN}/'",
    )
    assert seed == (20, DAY, '"v1"')


def test_redirect_rows_reference_both_urls(store: CrawlStore) -> None:
    entry = page_entry(f"{ORIGIN}/old", body=b"", links=[])
    entry.file = None
    entry.exit_code = ExitCode.PERMANENT_REDIRECT
    entry.redirects = [
        RedirectRecord(
            f"{ORIGIN}/new", ORIGIN, "top", 301, True, False, InformationSource.RESPONSE_HEADER
        )
    ]
    store.submit(entry)
    assert rows(
        store,
        "SELECT f.str_url, t.str_url, r.to_url_fragment, r.is_permanent FROM redirect r "
        "JOIN url f ON f.url_id = r.url_id JOIN url t ON t.url_id = r.to_url_id",
    ) == [(f"{ORIGIN}/old", f"{ORIGIN}/new", "top", 1)]


def test_a_failing_entry_rolls_back_whole_and_fails_the_store(store: CrawlStore) -> None:
    good = page_entry(f"{ORIGIN}/ok", body=b"ok", links=[])
    store.submit(good)
    store.call(lambda w: None)
    bad = page_entry(f"{ORIGIN}/bad", body=b"bad", links=[f"{ORIGIN}/never"])
    bad.uuid = good.uuid  # crawl_log_entry_uuid is UNIQUE: the INSERT fails
    store.submit(bad)
    with pytest.raises(Exception, match="UNIQUE"):
        store.call(lambda w: None)
    with sqlite3.connect(store.path) as conn:
        assert conn.execute("SELECT count(*) FROM crawl_log_entry").fetchone() == (1,)
        assert conn.execute("SELECT count(*) FROM url WHERE str_url LIKE '%never'").fetchone() == (
            0,
        )


def test_pull_is_breadth_first_and_skips_in_flight_and_crawled(store: CrawlStore) -> None:
    def setup(w: Writer) -> int:
        w.add_seeds([Seed(f"{ORIGIN}/", ORIGIN)], 1000)
        for depth, name in ((3, "deep"), (1, "one"), (2, "two"), (1, "uno")):
            w.add_candidate(
                NewCandidate(f"{ORIGIN}/{name}", ORIGIN, depth),
                via_url_id=None,
                now=1000,
                reason=SchedulingReason.EXPLORE,
            )
        return w.origin_id(ORIGIN)

    origin_id = store.call(setup)
    pulled = store.call(lambda w: w.pull(origin_id, 10, frozenset(), 1000))
    assert [c.url.rsplit("/", 1)[1] for c in pulled] == ["", "one", "uno", "two", "deep"]
    assert pulled[0].scheduling_reason is SchedulingReason.MANUAL
    in_flight = frozenset({pulled[0].url_id})
    again = store.call(lambda w: w.pull(origin_id, 2, in_flight, 1000))
    assert [c.url.rsplit("/", 1)[1] for c in again] == ["one", "uno"]
    # a URL found again closer to a seed moves up
    store.call(
        lambda w: w.add_candidate(
            NewCandidate(f"{ORIGIN}/deep", ORIGIN, 1),
            via_url_id=None,
            now=1000,
            reason=SchedulingReason.EXPLORE,
        )
    )
    depths = dict(
        rows(store, "SELECT u.str_url, c.depth FROM crawl_candidate c JOIN url u USING (url_id)")
    )
    assert depths[f"{ORIGIN}/deep"] == 1


def test_crawled_urls_are_due_again_only_after_the_interval(store: CrawlStore) -> None:
    store.call(lambda w: w.add_seeds([Seed(f"{ORIGIN}/", ORIGIN)], 1000))
    store.submit(page_entry(f"{ORIGIN}/", body=b"x", links=[], started_ms=2_000_000))
    origin_id = store.call(lambda w: w.origin_id(ORIGIN))
    # in the run that crawled it, never again (once per run), whatever the interval
    assert store.call(lambda w: w.pull(origin_id, 5, frozenset(), 2**62)) == []
    # a later run before the interval: nothing due
    store.call(lambda w: w.begin_agent(AgentInfo("later", "test", "ua", 3000, "{}", "0")))
    assert store.call(lambda w: w.pull(origin_id, 5, frozenset(), 3000)) == []
    # after the interval: due, as a recrawl carrying the validators
    (due,) = store.call(lambda w: w.pull(origin_id, 5, frozenset(), 2000 + DAY))
    assert due.scheduling_reason is SchedulingReason.RECRAWL and due.etag == '"v1"'
    assert store.call(lambda w: w.due_origins(2000 + DAY)) == [(origin_id, ORIGIN)]


def sitemap_listing(url: str, lastmod: int | None, *, depth: int = 1) -> Callable[[Writer], None]:
    """What a sitemap entry does to the frontier: a candidate carrying its lastmod, at 5000."""
    found = NewCandidate(url, ORIGIN, depth, lastmod_unix_utc=lastmod)
    return lambda w: w.add_candidate(
        found, via_url_id=None, now=5000, reason=SchedulingReason.EXPLORE
    )


def frontier_row(store: CrawlStore, url: str) -> tuple[object, ...]:
    (row,) = rows(
        store,
        "SELECT c.next_due_unix_utc, c.scheduling_reason, c.depth FROM crawl_candidate c "
        f"JOIN url u USING (url_id) WHERE u.str_url = '{url}'",
    )
    return row


def test_a_sitemap_lastmod_after_the_last_crawl_makes_a_url_due_now(store: CrawlStore) -> None:
    home, page = f"{ORIGIN}/", f"{ORIGIN}/page"
    store.call(lambda w: w.add_seeds([Seed(home, ORIGIN)], 1000))
    store.submit(page_entry(home, body=b"x", links=[page], started_ms=2_000_000))
    store.submit(page_entry(page, body=b"y", links=[], started_ms=2_000_000))
    origin_id = store.call(lambda w: w.origin_id(ORIGIN))

    # the run that crawled it: lastmod after the crawl makes it due, but not in this run
    store.call(sitemap_listing(page, 3000))
    assert frontier_row(store, page) == (5000, SchedulingReason.SITEMAP_LASTMOD, 1)
    assert store.call(lambda w: w.pull(origin_id, 5, frozenset(), 2**62)) == []

    # a later run: due now, said why, still conditional
    store.call(lambda w: w.begin_agent(AgentInfo("later", "test", "ua", 5000, "{}", "0")))
    (due,) = store.call(lambda w: w.pull(origin_id, 5, frozenset(), 5000))
    assert due.url == page and due.etag == '"v1"'
    assert due.scheduling_reason is SchedulingReason.SITEMAP_LASTMOD
    # crawled: due after the interval again, for the interval's reason
    again = page_entry(page, body=b"y2", links=[], started_ms=6_000_000)
    again.uuid = "uuid-again"
    store.submit(again)
    assert frontier_row(store, page) == (6000 + DAY, SchedulingReason.RECRAWL, 1)
    # a lastmod before the last crawl changes nothing; neither does none at all
    store.call(sitemap_listing(page, 5500))
    store.call(sitemap_listing(page, None))
    assert frontier_row(store, page) == (6000 + DAY, SchedulingReason.RECRAWL, 1)
    # the seed (cached at depth 0, listed at depth 1): the lastmod gets through, the
    # depth stays
    store.call(sitemap_listing(home, 4000, depth=1))
    assert frontier_row(store, home) == (5000, SchedulingReason.SITEMAP_LASTMOD, 0)


def test_a_sitemap_lastmod_never_makes_a_url_due_later(store: CrawlStore) -> None:
    page = f"{ORIGIN}/flaky"
    store.call(lambda w: w.add_seeds([Seed(page, ORIGIN)], 1000))
    failed = page_entry(page, body=b"", links=[], started_ms=2_000_000)
    failed.exit_code, failed.file = ExitCode.SERVER_INTERNAL_ERROR, None
    store.submit(failed)  # transient: due again at 2000
    store.call(sitemap_listing(page, 3000))
    assert frontier_row(store, page) == (2000, SchedulingReason.MANUAL, 0)
    # never crawled: due already, untouched
    store.call(sitemap_listing(f"{ORIGIN}/new", None))
    store.call(sitemap_listing(f"{ORIGIN}/new", 4000))
    assert frontier_row(store, f"{ORIGIN}/new") == (5000, SchedulingReason.EXPLORE, 1)


@pytest.mark.parametrize(
    ("code", "due_after"),
    [
        (ExitCode.FILE_INGESTED, DAY),
        (ExitCode.FILE_NOT_FOUND, DAY),
        (ExitCode.ROBOTS_DISALLOWED, DAY),
        (ExitCode.SERVER_INTERNAL_ERROR, 0),
        (ExitCode.REQUEST_TIMEOUT, 0),
        (ExitCode.CANCELLED, None),
        (ExitCode.ORIGIN_GAVE_UP, None),
    ],
)
def test_candidate_update_rules(code: ExitCode, due_after: int | None) -> None:
    update = candidate_update(code, 5000, DAY)
    if due_after is None:
        assert update is None
    else:
        assert update is not None and update.next_due_unix_utc == 5000 + due_after
        assert update.contentful == code.is_contentful


def test_origin_queue_excludes_in_flight_and_reports_finished() -> None:
    from unob.crawler.frontier import Candidate

    def cand(i: int) -> Candidate:
        return Candidate(
            i, f"{ORIGIN}/{i}", 0, CrawlType.FILE_CRAWL, SchedulingReason.EXPLORE, None, None
        )

    q = OriginQueue()
    assert q.needs_pull
    q.refill([cand(1), cand(2)], short=False)
    first = q.take()
    assert first is not None and first.url_id == 1 and q.in_flight == {1}
    q.refill([cand(1), cand(3)], short=True)  # 1 is in flight: not queued twice
    assert [q.take().url_id, q.take().url_id] == [2, 3]  # type: ignore[union-attr]
    assert q.take() is None and not q.finished
    for i in (1, 2, 3):
        q.done(i)
    assert q.finished
