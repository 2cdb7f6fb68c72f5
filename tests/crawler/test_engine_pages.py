"""What the engine does with HTML pages: charsets, robots directives, canonical, refresh, images."""

from __future__ import annotations

import random

from crawling import CrawlFn
from sites import FixtureServer, html, links, page, raw

from unob import bodycodec
from unob.codes import CrawlType, ExitCode, InformationSource


def file_row(done: object, url: str, columns: str) -> tuple[object, ...]:
    (row,) = done.rows(  # type: ignore[attr-defined]
        f"SELECT {columns} FROM file_info f JOIN url u USING (url_id) WHERE u.str_url = ?", url
    )
    return row  # type: ignore[no-any-return]


def test_charsets_from_header_meta_and_detection(server: FixtureServer, crawl: CrawlFn) -> None:
    site = server.site("a.test")
    site.add("/", links("/header", "/meta", "/none", "/wrong", "/bogus"))
    latin = "<html><body><p>Grüße aus Köln, déjà vu, naïve café</p><a href='/x'>x</a></body></html>"
    site.add("/header", raw(latin.encode("cp1252"), content_type="text/html; charset=ISO-8859-1"))
    site.add(
        "/meta",
        raw(html("Grüße <a href='/x'>x</a>", charset="iso-8859-2"), content_type="text/html"),
    )
    site.add("/none", raw(latin.encode("cp1252"), content_type="text/html"))
    # the header lies (says UTF-8, the bytes are Latin-1): the page is still stored and its
    # links followed; the charset recorded is the declared one
    site.add("/wrong", raw(latin.encode("cp1252"), content_type="text/html; charset=utf-8"))
    site.add("/bogus", raw(latin.encode("utf-8"), content_type="text/html; charset=x-no-such"))
    site.add("/x", page("x"))
    done = crawl(server.url("a.test"))
    charset = {
        p: file_row(done, server.url("a.test", p), "charset")[0]
        for p in ("/header", "/meta", "/none", "/wrong", "/bogus")
    }
    # no declaration and not UTF-8: charset-normalizer's guess (a single-byte code page)
    assert charset.pop("/none").startswith("windows-125")
    assert charset == {
        "/header": "windows-1252",
        "/meta": "iso-8859-2",
        "/wrong": "utf-8",
        "/bogus": "utf-8",
    }
    assert server.count("a.test", "/x") == 1
    codes = done.exit_codes()
    for path in ("/header", "/meta", "/none", "/wrong", "/bogus"):
        assert codes[server.url("a.test", path)] == [ExitCode.FILE_INGESTED]
    # bodies are stored as sent (bytes), compressed (unob.bodycodec)
    (codec, data) = done.rows(
        "SELECT c.compression, c.data FROM file_content c JOIN file_info f USING (file_content_id) "
        "JOIN url u USING (url_id) WHERE u.str_url = ?",
        server.url("a.test", "/header"),
    )[0]
    assert bodycodec.decompress(codec, data) == latin.encode("cp1252")


def test_noindex_and_nofollow(server: FixtureServer, crawl: CrawlFn) -> None:
    site = server.site("a.test")
    site.add("/", links("/noindex", "/nofollow", "/header", "/linkrel", "/stealth"))
    site.add(
        "/noindex",
        page("<a href='/from-noindex'>a</a>", head='<meta name="robots" content="noindex">'),
    )
    site.add(
        "/nofollow",
        page("<a href='/hidden1'>a</a>", head='<meta name="robots" content="nofollow">'),
    )
    site.add(
        "/header",
        page("<a href='/hidden2'>a</a>", headers={"X-Robots-Tag": "noindex, nofollow"}),
    )
    site.add("/linkrel", page("<a rel='nofollow' href='/hidden3'>a</a><a href='/shown'>b</a>"))
    # directives for another crawler do not apply to us
    site.add(
        "/stealth",
        page("<a href='/shown2'>a</a>", head='<meta name="googlebot" content="noindex,nofollow">'),
    )
    for p in ("/from-noindex", "/hidden1", "/hidden2", "/hidden3", "/shown", "/shown2"):
        site.add(p, page(p))
    done = crawl(server.url("a.test"))
    codes = done.exit_codes()
    assert codes[server.url("a.test", "/noindex")] == [ExitCode.NOINDEX]
    assert codes[server.url("a.test", "/header")] == [ExitCode.NOINDEX]
    assert codes[server.url("a.test", "/stealth")] == [ExitCode.FILE_INGESTED]
    # noindex pages are stored, flagged
    assert file_row(
        done, server.url("a.test", "/noindex"), "robots_noindex, file_content_id IS NOT NULL"
    ) == (1, 1)
    assert file_row(done, server.url("a.test", "/header"), "robots_noindex, robots_nofollow") == (
        1,
        1,
    )
    assert file_row(done, server.url("a.test", "/nofollow"), "robots_noindex, robots_nofollow") == (
        0,
        1,
    )
    fetched = set(server.paths("a.test"))
    assert {"/from-noindex", "/shown", "/shown2"} <= fetched
    assert not {"/hidden1", "/hidden2", "/hidden3"} & fetched


def test_canonical_and_meta_refresh(server: FixtureServer, crawl: CrawlFn) -> None:
    site = server.site("a.test")
    site.add("/", links("/print?id=1", "/moved"))
    site.add("/print?id=1", page("print", head='<link rel="canonical" href="/article/1">'))
    site.add("/article/1", page("article"))
    site.add(
        "/moved",
        page("gone", head='<meta http-equiv="refresh" content="0; url=/new-home#welcome">'),
    )
    site.add("/new-home", page("home"))
    done = crawl(server.url("a.test"))
    (canonical,) = done.rows(
        "SELECT c.str_url FROM file_info f JOIN url u USING (url_id) "
        "JOIN url c ON c.url_id = f.canonical_url_id WHERE u.str_url = ?",
        server.url("a.test", "/print?id=1"),
    )
    assert canonical == (server.url("a.test", "/article/1"),)
    assert server.count("a.test", "/article/1") == 1  # the canonical is enqueued too
    codes = done.exit_codes()
    assert codes[server.url("a.test", "/moved")] == [ExitCode.REDIRECT]
    assert done.rows(
        "SELECT t.str_url, r.to_url_fragment, r.http_status, r.information_source "
        "FROM redirect r JOIN url t ON t.url_id = r.to_url_id"
    ) == [(server.url("a.test", "/new-home"), "welcome", None, InformationSource.FILE_BODY)]
    assert codes[server.url("a.test", "/new-home")] == [ExitCode.FILE_INGESTED]


def test_images_are_fetched_and_stored_with_images_on(
    server: FixtureServer, crawl: CrawlFn
) -> None:
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8
    site = server.site("a.test")
    site.add(
        "/",
        page(
            "<img src='/i/a.png'><img src='/i/huge.png'><img src='/i/not-image'>"
            f"<img src='{server.url('cdn.test', '/c.png')}'><a href='/p'>p</a>"
        ),
    )
    site.add("/p", page("<img src='/i/a.png'>"))
    site.add("/i/a.png", raw(png, content_type="image/png"))
    site.add("/i/huge.png", raw(png * 100, content_type="image/png"))
    site.add("/i/not-image", page("surprise"))
    server.site("cdn.test").add("/c.png", raw(png + b"cdn", content_type="image/png"))
    done = crawl(server.url("a.test"), images=True, max_image_bytes=10_000)
    codes = done.exit_codes()
    assert codes[server.url("a.test", "/i/a.png")] == [ExitCode.FILE_INGESTED]
    assert codes[server.url("a.test", "/i/huge.png")] == [ExitCode.TOO_LARGE]
    assert codes[server.url("a.test", "/i/not-image")] == [ExitCode.FILE_OF_UNKNOWN_TYPE]
    assert codes[server.url("cdn.test", "/c.png")] == [ExitCode.FILE_INGESTED]  # any origin
    assert server.count("a.test", "/i/a.png") == 1  # shown twice, fetched once
    assert server.count("cdn.test", "/robots.txt") == 1  # same politeness
    (stored,) = done.rows(
        "SELECT c.compression, c.data, f.mime_type FROM file_content c JOIN file_info f "
        "USING (file_content_id) JOIN url u USING (url_id) WHERE u.str_url = ?",
        server.url("a.test", "/i/a.png"),
    )
    assert stored == ("none", png, "image/png")
    types = dict(
        done.rows("SELECT u.str_url, e.crawl_type FROM crawl_log_entry e JOIN url u USING (url_id)")
    )
    assert types[server.url("a.test", "/i/a.png")] == CrawlType.IMAGE_CRAWL
    assert done.report.images == 2

    without = crawl(server.url("a.test"), db=done.db.with_name("noimg.db"))
    assert not any("/i/" in u for u in without.exit_codes())

    # image candidates left by a run with --images wait (due) for the next such run
    site.add("/new", page("<img src='/i/new.png'>"))
    site.add("/i/new.png", raw(png + b"new", content_type="image/png"))
    crawl(server.url("a.test", "/new"), db=done.db, images=True, max_requests=1)
    crawl(db=done.db)  # no --images: the image is not requested, and stays due
    assert server.count("a.test", "/i/new.png") == 0
    again = crawl(db=done.db, images=True)
    assert again.exit_codes()[server.url("a.test", "/i/new.png")] == [ExitCode.FILE_INGESTED]


def test_binary_data_labelled_html_is_not_stored(server: FixtureServer, crawl: CrawlFn) -> None:
    junk = random.Random(7).randbytes(20_000)
    stray = html("\x00 stray bytes \x1a")  # an old page may have one or two
    utf16 = "\ufeff<html><title>x</title><body>UTF-16</body></html>".encode("utf-16-le")
    site = server.site("a.test")
    site.add("/", links("/junk", "/png-as-html", "/stray", "/utf16"))
    site.add("/junk", raw(junk))
    site.add("/png-as-html", raw(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(1000)))
    site.add("/stray", raw(stray))
    site.add("/utf16", raw(utf16, content_type="text/html; charset=utf-16"))
    done = crawl(server.url("a.test"))
    codes = done.exit_codes()
    for path in ("/junk", "/png-as-html"):
        assert codes[server.url("a.test", path)] == [ExitCode.FILE_OF_UNKNOWN_TYPE], path
    (message,) = done.rows(
        "SELECT e.message FROM crawl_log_entry e JOIN url u USING (url_id) WHERE u.str_url = ?",
        server.url("a.test", "/junk"),
    )[0]
    assert message == "not stored: binary data labelled text/html"
    for path in ("/stray", "/utf16"):
        assert codes[server.url("a.test", path)] == [ExitCode.FILE_INGESTED], path
    assert server.url("a.test", "/junk") not in done.stored_pages()
