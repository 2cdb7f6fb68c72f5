"""The summarize pipeline on crawl databases written the way the crawler writes them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from crawl_db_builder import CrawlDbBuilder, page
from summary_dump import count, dump, rows, semantic

from unob.codes import CrawlType, ExitCode
from unob.errors import DatabaseError, SchemaTooNew, WrongDatabaseKind
from unob.summarizer import summarize
from unob.summarizer.fts import check

SITE = "http://site.test"


@pytest.fixture
def crawl_db(tmp_path: Path) -> Path:
    return tmp_path / "crawl.db"


@pytest.fixture
def summary_db(tmp_path: Path) -> Path:
    return tmp_path / "summary.db"


def three_pages(builder: CrawlDbBuilder, at: int, *, changed: bool = False) -> None:
    builder.add(f"{SITE}/", at=at, body=page("Home", "Welcome to the site, dear reader."))
    builder.add(
        f"{SITE}/a",
        at=at + 1,
        body=page("Alpha", "Alpha article text " + ("was rewritten." if changed else "first.")),
    )
    builder.add(f"{SITE}/b", at=at + 2, body=page("Beta", "Beta article text, quite unique."))


def open_generations(summary_db: Path) -> list[tuple[str, int, int]]:
    return rows(
        summary_db,
        "SELECT u.str_url, eg.first_seen_unix_utc, eg.last_seen_unix_utc "
        "FROM entity_generation eg JOIN url u USING (url_id) "
        "WHERE eg.confirmed_end_unix_utc IS NULL ORDER BY u.str_url",
    )


def test_first_summarize_creates_generations_and_search_index(
    crawl_db: Path, summary_db: Path
) -> None:
    with CrawlDbBuilder(crawl_db) as b:
        three_pages(b, 1000)
    report = summarize([crawl_db], summary_db)
    assert (report.entries_read, report.generations_created, report.crawl_summaries) == (3, 3, 3)
    assert open_generations(summary_db) == [
        (f"{SITE}/", 1000, 1000),
        (f"{SITE}/a", 1001, 1001),
        (f"{SITE}/b", 1002, 1002),
    ]
    assert count(summary_db, "SELECT count(*) FROM text_pile") == 3
    title = rows(
        summary_db,
        "SELECT dd.title, dd.primary_language FROM document_description dd "
        "JOIN entity_generation eg USING (entity_generation_id) JOIN url u USING (url_id) "
        "WHERE u.str_url = ?",
        f"{SITE}/a",
    )
    assert title == [("Alpha", "en")]
    hits = rows(
        summary_db,
        "SELECT u.str_url FROM search_index JOIN entity_generation eg "
        "ON eg.entity_generation_id = search_index.rowid JOIN url u USING (url_id) "
        "WHERE search_index MATCH 'unique'",
    )
    assert hits == [(f"{SITE}/b",)]
    assert count(summary_db, "SELECT count(*) FROM link_summary") > 0
    assert count(summary_db, "SELECT count(*) FROM heading WHERE level = 1") == 3
    summary = rows(
        summary_db,
        "SELECT http_status, exit_code, summarizer_action, request_count FROM crawl_summary "
        "ORDER BY crawl_summary_id LIMIT 1",
    )
    assert summary == [(200, int(ExitCode.FILE_INGESTED), "new_generation", 1)]


def test_summarizing_twice_adds_nothing(crawl_db: Path, summary_db: Path) -> None:
    with CrawlDbBuilder(crawl_db) as b:
        three_pages(b, 1000)
    summarize([crawl_db], summary_db, batch_size=2)
    before = dump(summary_db)
    again = summarize([crawl_db], summary_db, batch_size=2)
    assert again.entries_read == 0
    assert dump(summary_db) == before


def test_entries_already_summarized_are_skipped_by_uuid(crawl_db: Path, summary_db: Path) -> None:
    with CrawlDbBuilder(crawl_db) as b:
        three_pages(b, 1000)
    summarize([crawl_db], summary_db)
    before = dump(summary_db)
    conn = sqlite3.connect(summary_db)
    conn.execute("UPDATE crawl_source SET high_water_crawl_log_entry_id = 0")
    conn.commit()
    conn.close()
    report = summarize([crawl_db], summary_db)
    assert (report.entries_read, report.entries_skipped, report.crawl_summaries) == (3, 3, 0)
    after = dump(summary_db)
    assert after.pop("crawl_source") != before.pop("crawl_source")  # entries_integrated grew
    assert after == before


def test_unchanged_recrawl_gives_self_duplicates_only(crawl_db: Path, summary_db: Path) -> None:
    with CrawlDbBuilder(crawl_db) as b:
        three_pages(b, 1000)
        summarize([crawl_db], summary_db)
        three_pages(b, 2000)
        b.add(f"{SITE}/b", at=2500, status=304, body=None)
    report = summarize([crawl_db], summary_db)
    assert report.generations_created == 0
    assert report.self_duplicates == 4
    assert open_generations(summary_db) == [
        (f"{SITE}/", 1000, 2000),
        (f"{SITE}/a", 1001, 2001),
        (f"{SITE}/b", 1002, 2500),
    ]
    actions = rows(
        summary_db, "SELECT summarizer_action, count(*) FROM crawl_summary GROUP BY 1 ORDER BY 1"
    )
    assert actions == [("new_generation", 3), ("self_duplicate", 4)]


def test_two_identical_crawls_in_one_batch_make_one_generation(
    crawl_db: Path, summary_db: Path
) -> None:
    with CrawlDbBuilder(crawl_db) as b:
        b.add(f"{SITE}/", at=10, body=page("Home", "Same text."))
        b.add(f"{SITE}/", at=20, body=page("Home", "Same text."))
    report = summarize([crawl_db], summary_db)
    assert (report.generations_created, report.self_duplicates) == (1, 1)
    assert open_generations(summary_db) == [(f"{SITE}/", 10, 20)]


def test_changed_page_makes_new_generation_and_closes_old(crawl_db: Path, summary_db: Path) -> None:
    with CrawlDbBuilder(crawl_db) as b:
        three_pages(b, 1000)
        summarize([crawl_db], summary_db)
        three_pages(b, 2000, changed=True)
    report = summarize([crawl_db], summary_db)
    assert (report.generations_created, report.generations_closed) == (1, 1)
    history = rows(
        summary_db,
        "SELECT first_seen_unix_utc, last_seen_unix_utc, confirmed_end_unix_utc "
        "FROM entity_generation JOIN url USING (url_id) WHERE str_url = ? ORDER BY 1",
        f"{SITE}/a",
    )
    assert history == [(1001, 1001, 2001), (2001, 2001, None)]
    # The search index follows: the old text is gone, the new one is found.
    assert (
        count(summary_db, "SELECT count(*) FROM search_index WHERE search_index MATCH 'first'") == 0
    )
    assert (
        count(summary_db, "SELECT count(*) FROM search_index WHERE search_index MATCH 'rewritten'")
        == 1
    )
    with sqlite3.connect(summary_db) as conn:
        assert check(conn)


def test_404_closes_and_failures_do_not(crawl_db: Path, summary_db: Path) -> None:
    with CrawlDbBuilder(crawl_db) as b:
        three_pages(b, 1000)
        b.add(f"{SITE}/a", at=1500, status=404)
        b.add(f"{SITE}/b", at=1500, status=None)  # connection failed
        b.add(f"{SITE}/", at=1500, status=500)
        b.add(f"{SITE}/never", at=1500, status=None)
    report = summarize([crawl_db], summary_db)
    assert report.generations_closed == 1
    assert open_generations(summary_db) == [(f"{SITE}/", 1000, 1000), (f"{SITE}/b", 1002, 1002)]
    actions = rows(
        summary_db,
        "SELECT u.str_url, cs.summarizer_action, cs.entity_generation_id IS NOT NULL "
        "FROM crawl_summary cs JOIN url u USING (url_id) WHERE cs.time_started_unix_utc = 1500 "
        "ORDER BY u.str_url",
    )
    assert actions == [
        (f"{SITE}/", "attached", 1),
        (f"{SITE}/a", "closed_generation", 1),
        (f"{SITE}/b", "attached", 1),
        (f"{SITE}/never", "unattached", 0),
    ]
    assert (
        count(summary_db, "SELECT count(*) FROM search_index WHERE search_index MATCH 'alpha'") == 0
    )


def test_page_coming_back_after_404_is_a_new_generation(crawl_db: Path, summary_db: Path) -> None:
    with CrawlDbBuilder(crawl_db) as b:
        b.add(f"{SITE}/", at=10, body=page("Home", "Text."))
        b.add(f"{SITE}/", at=20, status=410)
        b.add(f"{SITE}/", at=30, body=page("Home", "Text."))
    summarize([crawl_db], summary_db)
    history = rows(
        summary_db,
        "SELECT first_seen_unix_utc, confirmed_end_unix_utc FROM entity_generation ORDER BY 1",
    )
    assert history == [(10, 20), (30, None)]


def test_exact_duplicates_within_an_origin_only(crawl_db: Path, summary_db: Path) -> None:
    same = page("Copy", "The very same main content on several addresses.")
    with CrawlDbBuilder(crawl_db) as b:
        b.add(f"{SITE}/docs/long/copy.html", at=10, body=same)
        b.add(f"{SITE}/copy", at=11, body=same)
        b.add("http://other.test/x", at=12, body=same)
    report = summarize([crawl_db], summary_db)
    assert report.exact_duplicates == 1
    dup = rows(
        summary_db,
        "SELECT su.str_url, ou.str_url, ds.detected_unix_utc, ds.ended_unix_utc "
        "FROM duplicate_summary ds "
        "JOIN entity_generation s ON s.entity_generation_id = ds.subject_entity_generation_id "
        "JOIN url su ON su.url_id = s.url_id "
        "JOIN entity_generation o ON o.entity_generation_id = ds.original_entity_generation_id "
        "JOIN url ou ON ou.url_id = o.url_id",
    )
    assert dup == [(f"{SITE}/docs/long/copy.html", f"{SITE}/copy", 11, None)]
    marked = rows(
        summary_db,
        "SELECT u.str_url FROM entity_generation eg JOIN url u USING (url_id) "
        "WHERE eg.marked_duplicate",
    )
    assert marked == [(f"{SITE}/docs/long/copy.html",)]
    assert count(summary_db, "SELECT count(*) FROM text_pile") == 1


def test_duplicate_detection_across_batches_and_original_closing(
    crawl_db: Path, summary_db: Path
) -> None:
    same = page("Copy", "Shared main content.")
    with CrawlDbBuilder(crawl_db) as b:
        b.add(f"{SITE}/longer-name", at=10, body=same)
        b.add(f"{SITE}/mid", at=11, body=same)
        b.add(f"{SITE}/x", at=12, body=same)  # shorter: takes over as the original
        b.add(f"{SITE}/x", at=20, body=page("Copy", "Now different."))  # original changes
    summarize([crawl_db], summary_db, batch_size=1)
    marked = rows(
        summary_db,
        "SELECT u.str_url, eg.marked_duplicate FROM entity_generation eg JOIN url u "
        "USING (url_id) WHERE eg.confirmed_end_unix_utc IS NULL ORDER BY 1",
    )
    assert marked == [(f"{SITE}/longer-name", 1), (f"{SITE}/mid", 0), (f"{SITE}/x", 0)]
    current = rows(
        summary_db,
        "SELECT su.str_url, ou.str_url FROM duplicate_summary ds "
        "JOIN entity_generation s ON s.entity_generation_id = ds.subject_entity_generation_id "
        "JOIN url su ON su.url_id = s.url_id "
        "JOIN entity_generation o ON o.entity_generation_id = ds.original_entity_generation_id "
        "JOIN url ou ON ou.url_id = o.url_id WHERE ds.ended_unix_utc IS NULL",
    )
    assert current == [(f"{SITE}/longer-name", f"{SITE}/mid")]
    assert count(summary_db, "SELECT count(*) FROM duplicate_summary") == 4


def test_pages_without_main_text_are_not_duplicates(crawl_db: Path, summary_db: Path) -> None:
    empty = b"<html><head><title>x</title></head><body></body></html>"
    with CrawlDbBuilder(crawl_db) as b:
        b.add(f"{SITE}/one", at=10, body=empty)
        b.add(f"{SITE}/two", at=11, body=empty)
    report = summarize([crawl_db], summary_db)
    assert report.exact_duplicates == 0
    assert count(summary_db, "SELECT count(*) FROM duplicate_summary") == 0


def test_redirects_become_generations(crawl_db: Path, summary_db: Path) -> None:
    with CrawlDbBuilder(crawl_db) as b:
        b.add(f"{SITE}/old", at=10, status=301, redirect_to=f"{SITE}/new#part")
        b.add(f"{SITE}/old", at=20, status=301, redirect_to=f"{SITE}/new#part")
        b.add(f"{SITE}/old", at=30, status=302, redirect_to=f"{SITE}/newer")
    report = summarize([crawl_db], summary_db)
    assert (report.generations_created, report.self_duplicates) == (2, 1)
    redirects = rows(
        summary_db,
        "SELECT eg.kind, eg.first_seen_unix_utc, eg.last_seen_unix_utc, "
        "eg.confirmed_end_unix_utc, u.str_url, rs.to_url_fragment, rs.is_permanent "
        "FROM redirect_summary rs JOIN entity_generation eg USING (entity_generation_id) "
        "JOIN url u ON u.url_id = rs.to_url_id ORDER BY 2",
    )
    assert redirects == [
        ("redirect", 10, 20, 30, f"{SITE}/new", "part", 1),
        ("redirect", 30, 30, None, f"{SITE}/newer", None, 0),
    ]


def test_robots_and_image_crawls_are_not_pages(crawl_db: Path, summary_db: Path) -> None:
    with CrawlDbBuilder(crawl_db) as b:
        b.add(
            f"{SITE}/robots.txt",
            at=1,
            body=b"User-agent: *\nDisallow:\n",
            mime="text/plain",
            crawl_type=CrawlType.ROBOTSTXT_FETCH,
        )
        b.add(
            f"{SITE}/i.png",
            at=2,
            body=b"\x89PNG\r\n\x1a\n",
            mime="image/png",
            charset=None,
            crawl_type=CrawlType.IMAGE_CRAWL,
        )
        b.add(f"{SITE}/", at=3, body=page("Home", "Hello."))
    report = summarize([crawl_db], summary_db)
    assert (report.entries_not_pages, report.generations_created) == (2, 1)
    assert count(summary_db, "SELECT count(*) FROM crawl_summary") == 1


def test_non_html_files_are_file_generations(crawl_db: Path, summary_db: Path) -> None:
    with CrawlDbBuilder(crawl_db) as b:
        for at in (1, 2):
            b.add(
                f"{SITE}/doc.pdf",
                at=at,
                body=b"%PDF-1.4",
                mime="application/pdf",
                charset=None,
                exit_code=ExitCode.FILE_OF_UNKNOWN_TYPE,
                store_body=False,
            )
    report = summarize([crawl_db], summary_db)
    assert (report.generations_created, report.self_duplicates) == (1, 1)
    assert rows(
        summary_db,
        "SELECT eg.kind, eg.text_pile_id, fs.mime_type, fs.file_size FROM entity_generation eg "
        "JOIN file_summary fs USING (entity_generation_id)",
    ) == [("file", None, "application/pdf", 8)]


def test_noindex_pages_are_summarized_but_not_searchable(crawl_db: Path, summary_db: Path) -> None:
    with CrawlDbBuilder(crawl_db) as b:
        b.add(f"{SITE}/secret", at=1, body=page("Secret", "Hidden words."), noindex=True)
    summarize([crawl_db], summary_db)
    assert count(summary_db, "SELECT robots_noindex FROM file_summary") == 1
    assert (
        count(summary_db, "SELECT count(*) FROM search_index WHERE search_index MATCH 'hidden'")
        == 0
    )


@pytest.mark.parametrize(
    ("body", "mime", "charset"),
    [
        (b"\x00\xff\xfe\x00" * 5000 + bytes(range(256)) * 40, "text/html", "utf-8"),
        (b"<html><body><p>unclosed <b><i><div></span></table>" * 50, "text/html", None),
        (b"<p>" + "d\u00e9j\u00e0 vu, na\u00efve ".encode("utf-8") * 10, "text/html", "shift_jis"),
        (b"<html><body>" + b"<div><p>deep" * 5000 + b"</body></html>", "text/html", "utf-8"),
        (b"<html><body><p>" + b"word " * 200_000 + b"</body></html>", "text/html", "utf-8"),
        (b"", "text/html", "utf-8"),
        (b"plain words in a text file", "text/plain", "utf-8"),
    ],
    ids=["binary-junk", "broken-html", "wrong-charset", "deep-nesting", "huge", "empty", "plain"],
)
def test_bad_pages_never_crash_a_batch(
    crawl_db: Path, summary_db: Path, body: bytes, mime: str, charset: str | None
) -> None:
    with CrawlDbBuilder(crawl_db) as b:
        b.add(f"{SITE}/bad", at=1, body=body, mime=mime, charset=charset)
        b.add(f"{SITE}/good", at=2, body=page("Good", "Fine text."))
    report = summarize([crawl_db], summary_db)
    assert report.generations_created == 2
    assert count(summary_db, "SELECT count(*) FROM file_summary") == 2


@pytest.mark.parametrize(
    ("damage", "error_starts"),
    [
        ("data = x'00010203'", "BodyDecodeError: stored zstd body is damaged"),
        # A row whose frame says more than its recorded size is not decompressed.
        ("size = 10", "BodyDecodeError: stored zstd body declares"),
    ],
)
def test_damaged_stored_body_is_recorded_not_fatal(
    crawl_db: Path, summary_db: Path, damage: str, error_starts: str
) -> None:
    with CrawlDbBuilder(crawl_db) as b:
        b.add(f"{SITE}/bad", at=1, body=page("Bad", "Will be damaged. " * 50))
        b.add(f"{SITE}/good", at=2, body=page("Good", "Fine text."))
        b.conn.execute(f"UPDATE file_content SET {damage} WHERE file_content_id = 1")
    report = summarize([crawl_db], summary_db)
    assert (report.generations_created, report.derive_errors) == (2, 1)
    error = count(
        summary_db, "SELECT derive_error FROM file_summary WHERE derive_error IS NOT NULL"
    )
    assert error.startswith(error_starts)


def test_several_crawl_dbs_feed_one_summary_db(tmp_path: Path, summary_db: Path) -> None:
    one, two = tmp_path / "one.db", tmp_path / "two.db"
    with CrawlDbBuilder(one) as b:
        b.add(f"{SITE}/", at=10, body=page("Home", "Shared home."))
    with CrawlDbBuilder(two) as b:
        b.add(f"{SITE}/", at=20, body=page("Home", "Shared home."))
        b.add("http://other.test/", at=21, body=page("Other", "Other site."))
    report = summarize([one, two, one], summary_db)
    assert (report.entries_read, report.generations_created, report.self_duplicates) == (3, 2, 1)
    assert count(summary_db, "SELECT count(*) FROM crawl_source") == 2
    assert count(summary_db, "SELECT count(DISTINCT agent_uuid) FROM crawl_summary") == 2


def test_late_crawl_from_second_db_does_not_close(tmp_path: Path, summary_db: Path) -> None:
    newer, older = tmp_path / "newer.db", tmp_path / "older.db"
    with CrawlDbBuilder(newer) as b:
        b.add(f"{SITE}/", at=100, body=page("Home", "Current text."))
    with CrawlDbBuilder(older) as b:
        b.add(f"{SITE}/", at=50, body=page("Home", "Old text."))
        b.add(f"{SITE}/", at=60, status=404)
    summarize([newer, older], summary_db)
    history = rows(
        summary_db,
        "SELECT first_seen_unix_utc, last_seen_unix_utc, confirmed_end_unix_utc "
        "FROM entity_generation ORDER BY 1",
    )
    assert history == [(50, 50, 100), (100, 100, None)]


def test_wrong_databases_are_refused_in_one_line(tmp_path: Path, crawl_db: Path) -> None:
    with CrawlDbBuilder(crawl_db) as b:
        b.add(f"{SITE}/", at=1, body=page("Home", "x"))
    summary_db = tmp_path / "s.db"
    summarize([crawl_db], summary_db)
    with pytest.raises(WrongDatabaseKind):
        summarize([summary_db], tmp_path / "s2.db")
    with pytest.raises(WrongDatabaseKind):
        summarize([crawl_db], crawl_db)
    with pytest.raises(DatabaseError, match="no such file"):
        summarize([tmp_path / "missing.db"], summary_db)
    conn = sqlite3.connect(crawl_db)
    conn.execute("UPDATE alembic_version SET version_num = 'c9999'")
    conn.commit()
    conn.close()
    with pytest.raises(SchemaTooNew) as info:
        summarize([crawl_db], summary_db)
    assert "\n" not in str(info.value) and "newer unob" in str(info.value)


def test_busy_summary_db_is_a_one_line_error(crawl_db: Path, summary_db: Path) -> None:
    with CrawlDbBuilder(crawl_db) as b:
        b.add(f"{SITE}/", at=1, body=page("Home", "x"))
    summarize([crawl_db], summary_db)
    with CrawlDbBuilder(crawl_db) as b:
        b.add(f"{SITE}/", at=2, body=page("Home", "y"))
    other = sqlite3.connect(summary_db, timeout=0)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the lock
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr("unob.db._set_pragmas", _short_busy_timeout)
            with pytest.raises(DatabaseError, match="database is locked"):
                summarize([crawl_db], summary_db)
    finally:
        other.rollback()
        other.close()
    assert summarize([crawl_db], summary_db).generations_created == 1


def _short_busy_timeout(dbapi_connection: sqlite3.Connection, _record: object) -> None:
    dbapi_connection.execute("PRAGMA busy_timeout=50")


def test_batches_also_end_at_a_byte_budget(
    crawl_db: Path, summary_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with CrawlDbBuilder(crawl_db) as b:
        for i in range(6):
            b.add(f"{SITE}/{i}", at=i, body=page(f"P{i}", "word " * 200 * (i + 1)))
    whole = summarize([crawl_db], summary_db)
    monkeypatch.setattr("unob.summarizer.pipeline.BATCH_MAX_BYTES", 3000)
    small = tmp_path / "small.db"
    cut = summarize([crawl_db], small)
    assert (whole.batches, cut.batches) == (1, 6)  # every page is over 1000 bytes
    assert semantic(small) == semantic(summary_db)


def test_link_rows_bind_plain_ints() -> None:
    # sqlite3 binds an exact int directly but sends a bool through its adapter
    # lookup, which doubled the cost of each link_summary row.  The flags are
    # one int, bit k for LINK_FLAG_NAMES[k] (link_summary.flags, migration s0003).
    from unob.summarizer.document import LINK_FLAG_NAMES
    from unob.summarizer.extract import derive_html
    from unob.summarizer.observe import LINK_COLUMNS, link_row, page_content

    derived = derive_html(page("T", "text", links=("/a", "https://x.test/b")), f"{SITE}/p")
    content = page_content(derived, derived.text_pile.digest())
    assert len(content.links) == 3
    by_url = {}
    for position, (link, compact) in enumerate(zip(derived.links, content.links, strict=True)):
        row = link_row(7, position, 100 + position, compact)
        assert row[:3] == (7, position, 100 + position)
        named = dict(zip(LINK_COLUMNS, row[2:], strict=True))
        assert type(named["flags"]) is int
        flags = [(named["flags"] >> bit) & 1 for bit in range(len(LINK_FLAG_NAMES))]
        assert flags == [int(getattr(link, name)) for name in LINK_FLAG_NAMES]
        by_url[compact[0]] = dict(zip(LINK_FLAG_NAMES, flags, strict=True)) | named
    assert by_url[f"{SITE}/"]["in_nav"] == 1 and by_url[f"{SITE}/"]["in_main"] == 0
    assert by_url["https://x.test/b"]["locality"] == "out"


def test_bodies_stored_by_older_unob_give_the_same_summary(tmp_path: Path) -> None:
    # unob before bodycodec stored pages zlib-compressed; such crawl DBs are still read.
    summaries = []
    for legacy in (False, True):
        crawl_db = tmp_path / f"crawl-{legacy}.db"
        with CrawlDbBuilder(crawl_db, legacy_zlib=legacy) as b:
            b.add(f"{SITE}/", at=1, body=page("Home", "Some words on the home page."))
            b.add(f"{SITE}/a", at=2, body=page("A", "Other words on page a."))
        summary_db = tmp_path / f"summary-{legacy}.db"
        summarize([crawl_db], summary_db)
        summaries.append(
            count(summary_db, "SELECT group_concat(text, '|') FROM text_pile ORDER BY text_pile_id")
        )
    assert summaries[0] == summaries[1] and "home page" in summaries[0]
