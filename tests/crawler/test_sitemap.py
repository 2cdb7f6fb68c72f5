"""Sitemap documents (pure): urlset, index, text, gzip, malformed, bounds, which locs count."""

from __future__ import annotations

import gzip

import pytest
from sites import gzip_bomb

from unob.codes import CrawlType
from unob.crawler import sitemap
from unob.crawler.body import BadEncoding, TooLarge
from unob.crawler.scope import MAX_SITEMAP_DEPTH, Scope
from unob.crawler.sitemap import (
    LASTMOD_FUTURE_TOLERANCE_S,
    analyse_sitemap,
    believable_lastmod,
    parse_lastmod,
    parse_sitemap,
    robots_sitemap_candidates,
    unpack,
)
from unob.settings import load_crawl_settings

#: the clock analyse_sitemap judges <lastmod> values by: 2025-06-01T12:00:00Z
NOW = 1_748_779_200
NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'


def urlset(*locs: str, ns: str = NS) -> bytes:
    entries = "".join(
        f"<url><loc>{loc}</loc><lastmod>2024-01-01</lastmod><priority>0.5</priority></url>"
        for loc in locs
    )
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {ns}>{entries}</urlset>'.encode()


def index(*locs: str) -> bytes:
    entries = "".join(f"<sitemap><loc>{loc}</loc></sitemap>" for loc in locs)
    return f"<?xml version='1.0'?><sitemapindex {NS}>{entries}</sitemapindex>".encode()


def scope(*seeds: str, **overrides: object) -> Scope:
    return Scope(load_crawl_settings(None, {"seeds": seeds or ("http://a.test/",), **overrides}))


def test_urlset_locs_in_order_whitespace_trimmed_entities_decoded() -> None:
    body = urlset(" http://a.test/1 ", "http://a.test/2?x=1&amp;y=2")
    doc = parse_sitemap(body)
    assert doc.kind == "urlset"
    assert doc.locs == ["http://a.test/1", "http://a.test/2?x=1&y=2"]
    assert not doc.truncated and doc.error is None


def test_namespace_does_not_matter_and_locs_outside_entries_are_ignored() -> None:
    # old Google namespaces and none at all are common; only <url><loc> counts
    body = (
        b'<urlset xmlns="http://www.google.com/schemas/sitemap/0.84">'
        b"<loc>http://a.test/stray</loc><url><loc>http://a.test/1</loc>"
        b"<image:image xmlns:image='http://www.google.com/schemas/sitemap-image/1.1'>"
        b"<image:loc>http://a.test/img.png</image:loc></image:image></url></urlset>"
    )
    assert parse_sitemap(body).locs == ["http://a.test/1"]
    assert parse_sitemap(urlset("http://a.test/x", ns="")).locs == ["http://a.test/x"]


def test_sitemap_index() -> None:
    doc = parse_sitemap(index("http://a.test/s1.xml", "http://a.test/s2.xml.gz"))
    assert doc.kind == "sitemapindex"
    assert doc.locs == ["http://a.test/s1.xml", "http://a.test/s2.xml.gz"]


def test_text_sitemap_one_url_per_line() -> None:
    doc = parse_sitemap(b"\xef\xbb\xbfhttp://a.test/1\r\n\n  HTTPS://a.test/2  \n/3\nnote\n")
    assert doc.kind == "text"
    assert doc.locs == ["http://a.test/1", "HTTPS://a.test/2"]  # only absolute URLs count
    assert doc.error is None


def test_whitespace_before_the_xml_declaration_is_forgiven() -> None:
    doc = parse_sitemap(b"\xef\xbb\xbf\n\n  " + urlset("http://a.test/1"))
    assert (doc.kind, doc.locs, doc.error) == ("urlset", ["http://a.test/1"], None)


def test_elements_are_bounded_whatever_their_names(monkeypatch: pytest.MonkeyPatch) -> None:
    # unknown elements are dropped as read; a document of too many, or an entry of too
    # many, stops (a 51 KB .xml.gz of 13 million <x/> took 1.7 GB before)
    monkeypatch.setattr(sitemap, "MAX_ELEMENTS", 1000)
    monkeypatch.setattr(sitemap, "MAX_ENTRY_ELEMENTS", 100)
    fine = b"<urlset>" + b"<x/>" * 900 + b"<url><loc>http://a.test/1</loc></url></urlset>"
    assert parse_sitemap(fine).locs == ["http://a.test/1"]
    many = parse_sitemap(b"<urlset>" + b"<x/>" * 2000 + b"</urlset>")
    assert many.error == "more than 1,000 elements"
    fat = b"<urlset><url><loc>http://a.test/1</loc>" + b"<x/>" * 200 + b"</url></urlset>"
    assert parse_sitemap(fat).error == "an entry of more than 100 elements"


@pytest.mark.parametrize(
    ("body", "error"),
    [
        (b"", "empty document"),
        (b"<html><body><a href='/x'>x</a></body></html>", "not a sitemap (root element <html>)"),
        (b"\x89PNG\r\n\x1a\n\0\0\0", "not a sitemap (binary data)"),
        # a text answer that is no list of URLs must not become URLs on the site
        (b'{"error": "rate limited"}\nPlease try again later\n', "not a sitemap (no line is"),
    ],
)
def test_not_a_sitemap(body: bytes, error: str) -> None:
    doc = parse_sitemap(body)
    assert doc.kind is None and doc.locs == [] and (doc.error or "").startswith(error)


def test_malformed_xml_keeps_the_entries_before_the_error() -> None:
    body = urlset("http://a.test/1").replace(b"</urlset>", b"<url><loc>http://a.test/2</lo")
    doc = parse_sitemap(body)
    assert doc.kind == "urlset"
    assert doc.locs == ["http://a.test/1"]
    assert doc.error is not None and doc.error.startswith("malformed XML")


def test_entities_and_dtds_are_never_expanded_or_loaded() -> None:
    bomb = (
        b'<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa">'
        b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">'
        b'<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
        b"<urlset><url><loc>http://a.test/&c;</loc></url><url><loc>&xxe;</loc></url></urlset>"
    )
    doc = parse_sitemap(bomb)
    assert doc.locs == ["http://a.test/"]  # the entity reference is left out, not expanded


def test_at_most_max_urls_entries_are_read() -> None:
    doc = parse_sitemap(urlset(*(f"http://a.test/{i}" for i in range(12))), max_urls=10)
    assert doc.truncated and len(doc.locs) == 10
    text = parse_sitemap(b"".join(b"http://a.test/%d\n" % i for i in range(12)), max_urls=10)
    assert text.truncated and len(text.locs) == 10


def test_gzip_files_are_unpacked_with_a_cap() -> None:
    body = urlset("http://a.test/1")
    assert unpack(gzip.compress(body)) == body
    assert unpack(body) == body
    with pytest.raises(TooLarge):
        unpack(gzip_bomb(2 << 20), cap=1 << 20)
    with pytest.raises(BadEncoding):
        unpack(gzip.compress(body)[:-12])


def test_analyse_urlset_enqueues_pages_one_hop_deeper() -> None:
    body = gzip.compress(urlset("http://a.test/1", "/relative", "http://a.test/1#dup"))
    found = analyse_sitemap(body, "http://a.test/sitemap.xml.gz", 0, scope(), now=NOW)
    assert [(c.url, c.depth, c.crawl_type) for c in found.candidates] == [
        ("http://a.test/1", 1, CrawlType.FILE_CRAWL),
        # the protocol wants absolute URLs; a relative one is resolved as a browser would
        ("http://a.test/relative", 1, CrawlType.FILE_CRAWL),
    ]
    assert found.dropped == 0
    assert found.summary() == "urlset: 3 URLs read; 2 in scope"


def test_analyse_drops_other_hosts_non_http_and_out_of_scope() -> None:
    body = urlset(
        "http://a.test/deep/page",  # anywhere on the host: robots.txt vouches for it
        "https://a.test/tls",  # http and https are one site
        "http://a.test:8080/port",  # another port: another site
        "http://b.test/other-host",
        "mailto:me@a.test",
        "ftp://a.test/file",
        "http://a.test/private/x",
    )
    s = scope("http://a.test/", allowed_origins=("http://b.test",), exclude=("/private/",))
    found = analyse_sitemap(body, "http://a.test/catalog/sitemap.xml", 0, s, now=NOW)
    assert [c.url for c in found.candidates] == ["http://a.test/deep/page", "https://a.test/tls"]
    assert found.dropped == 5
    assert "5 dropped" in found.summary()


def test_analyse_index_enqueues_sitemaps_and_bounds_nesting() -> None:
    body = index("http://a.test/s1.xml", "http://b.test/s2.xml")
    s = scope("http://a.test/", "http://b.test/")
    found = analyse_sitemap(body, "http://a.test/index.xml", 0, s, now=NOW)
    assert [(c.url, c.depth, c.crawl_type) for c in found.candidates] == [
        ("http://a.test/s1.xml", 1, CrawlType.SITEMAP_CRAWL)
    ]
    too_deep = analyse_sitemap(body, "http://a.test/index.xml", MAX_SITEMAP_DEPTH, s, now=NOW)
    assert too_deep.candidates == [] and too_deep.dropped == 2


def test_sitemap_pages_obey_max_depth_and_include() -> None:
    body = urlset("http://a.test/blog/1", "http://a.test/shop/1")
    found = analyse_sitemap(body, "http://a.test/s.xml", 0, scope(include=("/blog/",)), now=NOW)
    assert [c.url for c in found.candidates] == ["http://a.test/blog/1"]
    assert (
        analyse_sitemap(body, "http://a.test/s.xml", 0, scope(max_depth=0), now=NOW).candidates
        == []
    )


def test_analyse_malformed_summary_names_the_error() -> None:
    found = analyse_sitemap(
        b"<urlset><url><loc>http://a.test/1</loc></url><url>",
        "http://a.test/s",
        0,
        scope(),
        now=NOW,
    )
    assert [c.url for c in found.candidates] == ["http://a.test/1"]
    assert found.document.error is not None
    assert found.summary().startswith("urlset: 1 URLs read; 1 in scope; malformed XML")


def test_robots_sitemaps_become_depth_0_sitemap_candidates_in_scope() -> None:
    s = scope("http://a.test/", exclude=("/old-sitemap",))
    found = robots_sitemap_candidates(
        (
            "http://a.test/sitemap.xml",
            "http://a.test/sitemap.xml",  # twice: once
            "http://b.test/sitemap.xml",  # out of scope
            "http://a.test/old-sitemap.xml",  # excluded
            "not a url",
        ),
        s,
    )
    assert [(c.url, c.origin, c.depth, c.crawl_type) for c in found] == [
        ("http://a.test/sitemap.xml", "http://a.test", 0, CrawlType.SITEMAP_CRAWL)
    ]
    # include patterns and max_depth describe pages: a sitemap is still followed
    assert robots_sitemap_candidates(
        ("http://a.test/sitemap.xml",), scope(include=("/blog/",), max_depth=0)
    )


# ----------------------------------------------------------------------- <lastmod>

DAY = 86_400


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2025-06-01", NOW - 12 * 3600),  # a date: its midnight, UTC
        (" 2025-06-01\n", NOW - 12 * 3600),
        ("2025-06-01T12:00:00Z", NOW),
        ("2025-06-01T12:00:00.123456789Z", NOW),
        ("2025-06-01T12:00Z", NOW),
        ("2025-06-01T14:00:00+02:00", NOW),
        ("2025-06-01T07:30:00-04:30", NOW),
        ("2025-06-01T14:00:00+0200", NOW),  # no colon in the zone: seen in the wild
        ("2025-06-01T12:00:00", NOW),  # no zone: UTC
        ("2025-06-01 12:00:00Z", NOW),
        ("2025-06", NOW - 12 * 3600),  # W3C Datetime: a month, a year
        ("2025", NOW - (31 + 28 + 31 + 30 + 31) * DAY - 12 * 3600),
    ],
)
def test_parse_lastmod_reads_w3c_datetime(text: str, expected: int) -> None:
    assert parse_lastmod(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "yesterday",
        "2025-02-30",
        "2025-13-01",
        "2025-06-01T25:00:00Z",
        "2025-06-01T12:00:00+24:00",
        "0000-01-01",
        "01/06/2025",
        "Sun, 01 Jun 2025 12:00:00 GMT",
        "2025-06-01T12:00:00Zjunk",
        "2025-06-01T12:00:00.1234567890123456789012345Z",  # too long to be one
        "9" * 10_000,
    ],
)
def test_parse_lastmod_ignores_garbage(text: str) -> None:
    assert parse_lastmod(text) is None


def test_believable_lastmod_drops_the_far_future_and_caps_the_near_one_at_now() -> None:
    assert believable_lastmod(None, NOW) is None
    assert believable_lastmod(NOW - DAY, NOW) == NOW - DAY
    # a site a few hours ahead (time zones, skew): it changed, but not after now
    assert believable_lastmod(NOW + 3600, NOW) == NOW
    assert believable_lastmod(NOW + LASTMOD_FUTURE_TOLERANCE_S, NOW) == NOW
    assert believable_lastmod(NOW + LASTMOD_FUTURE_TOLERANCE_S + 1, NOW) is None


def test_lastmod_is_read_per_entry_in_any_order() -> None:
    body = (
        f"<urlset {NS}>"
        "<url><lastmod>2025-05-01</lastmod><loc>http://a.test/before</loc></url>"
        "<url><loc>http://a.test/after</loc><lastmod>2025-05-02T00:00:00Z</lastmod></url>"
        "<url><loc>http://a.test/none</loc></url>"
        "<url><loc>http://a.test/bad</loc><lastmod>soon</lastmod></url>"
        "<url><loc>http://a.test/twice</loc><lastmod>2025-05-03</lastmod>"
        "<lastmod>2025-05-04</lastmod></url>"
        "<url><lastmod>2025-05-05</lastmod></url>"  # no loc: nothing, nor its lastmod
        "<url><loc>http://a.test/last</loc></url>"
        "</urlset>"
    ).encode()
    doc = parse_sitemap(body)
    assert doc.locs == [
        "http://a.test/before",
        "http://a.test/after",
        "http://a.test/none",
        "http://a.test/bad",
        "http://a.test/twice",
        "http://a.test/last",
    ]
    assert doc.lastmods == {
        0: parse_lastmod("2025-05-01"),
        1: parse_lastmod("2025-05-02"),
        4: parse_lastmod("2025-05-03"),
    }


def test_candidates_carry_believable_lastmods() -> None:
    future = "2025-06-03"  # more than a day after NOW: bogus
    soon = "2025-06-01T18:00:00Z"  # hours after NOW: now
    body = (
        f"<sitemapindex {NS}>"
        "<sitemap><loc>http://a.test/s1.xml</loc><lastmod>2025-05-01</lastmod></sitemap>"
        f"<sitemap><loc>http://a.test/s2.xml</loc><lastmod>{future}</lastmod></sitemap>"
        f"<sitemap><loc>http://a.test/s3.xml</loc><lastmod>{soon}</lastmod></sitemap>"
        "<sitemap><loc>http://a.test/s4.xml</loc></sitemap>"
        "</sitemapindex>"
    ).encode()
    found = analyse_sitemap(body, "http://a.test/index.xml", 0, scope(), now=NOW)
    assert [(c.url, c.lastmod_unix_utc) for c in found.candidates] == [
        ("http://a.test/s1.xml", parse_lastmod("2025-05-01")),
        ("http://a.test/s2.xml", None),
        ("http://a.test/s3.xml", NOW),
        ("http://a.test/s4.xml", None),
    ]
    text = analyse_sitemap(b"http://a.test/1\n", "http://a.test/s.txt", 0, scope(), now=NOW)
    assert [c.lastmod_unix_utc for c in text.candidates] == [None]


def test_a_stamp_on_every_entry_is_not_a_date_of_change() -> None:
    # generated sitemaps often date every entry with their own generation time:
    # believed, the whole site would be due on every read of the sitemap
    def sitemap(dates: list[str]) -> bytes:
        entries = "".join(
            f"<url><loc>http://a.test/{i}</loc><lastmod>{d}</lastmod></url>"
            for i, d in enumerate(dates)
        )
        return f"<urlset {NS}>{entries}</urlset>".encode()

    stamped = ["2025-06-01T10:00:00Z"] * 19 + ["2025-05-01"]
    found = analyse_sitemap(sitemap(stamped), "http://a.test/s.xml", 0, scope(), now=NOW)
    assert [c.lastmod_unix_utc for c in found.candidates] == [None] * 20
    varied = [f"2025-05-{day:02d}" for day in range(1, 21)]
    found = analyse_sitemap(sitemap(varied), "http://a.test/s.xml", 0, scope(), now=NOW)
    assert [c.lastmod_unix_utc for c in found.candidates] == [parse_lastmod(d) for d in varied]
    few = ["2025-05-01"] * 9  # too few entries to tell
    found = analyse_sitemap(sitemap(few), "http://a.test/s.xml", 0, scope(), now=NOW)
    assert {c.lastmod_unix_utc for c in found.candidates} == {parse_lastmod("2025-05-01")}
