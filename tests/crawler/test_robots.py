"""robots.txt: RFC 9309 group selection, matching, Crawl-delay, and HTTP status handling."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unob.crawler.robots import MAX_BYTES, RobotsRules, RobotsState, robots_url

SITE = "https://example.org"


def rules(text: str, token: str = "unob", status: int = 200) -> RobotsRules:
    return RobotsRules.from_response(status, text.encode(), 1000.0, token=token)


def allowed(r: RobotsRules, path: str) -> bool:
    return r.allowed(SITE + path)


def test_robots_url() -> None:
    assert robots_url("https://example.org") == "https://example.org/robots.txt"
    assert robots_url("http://h:8080/") == "http://h:8080/robots.txt"


GROUPS = """
User-agent: *
Disallow: /private/
Crawl-delay: 7

User-agent: UNOB/2.1
Disallow: /only-unob/
Crawl-delay: 2

User-agent: un
Disallow: /

User-agent: unobtanium
Disallow: /
"""


def test_our_group_by_product_token_case_insensitive() -> None:
    r = rules(GROUPS)
    assert not allowed(r, "/only-unob/page")
    assert allowed(r, "/private/x")  # the * group does not apply once ours does
    assert r.crawl_delay_s == 2.0


def test_prefix_names_do_not_match_our_token() -> None:
    # "un" and "unobtanium" are other crawlers' groups (RFC 9309 §2.2.1 matches the
    # whole product token): unob must not be disallowed everything by them
    r = rules(GROUPS)
    assert allowed(r, "/")
    assert allowed(r, "/docs/a.html")


def test_other_tokens_fall_back_to_the_star_group() -> None:
    r = rules(GROUPS, token="somebot")
    assert not allowed(r, "/private/x")
    assert allowed(r, "/only-unob/page")
    assert r.crawl_delay_s == 7.0
    assert not allowed(rules(GROUPS, token="unobtanium"), "/anything")


def test_no_matching_group_and_no_star_allows_everything() -> None:
    r = rules("User-agent: googlebot\nDisallow: /\n")
    assert allowed(r, "/") and allowed(r, "/x")
    assert r.crawl_delay_s is None
    assert allowed(rules(""), "/x")
    assert allowed(rules("# only a comment\n"), "/x")


def test_groups_for_our_token_are_combined() -> None:
    text = """
User-agent: unob
Disallow: /a/

User-agent: *
Disallow: /c/

User-agent: unob
Disallow: /b/
"""
    r = rules(text)
    assert not allowed(r, "/a/1") and not allowed(r, "/b/1")
    assert allowed(r, "/c/1")


def test_several_user_agent_lines_share_a_group() -> None:
    text = "User-agent: foo\nUser-agent: unob\nUser-agent: bar\nDisallow: /shared/\n"
    assert not allowed(rules(text), "/shared/x")
    assert not allowed(rules(text, token="bar"), "/shared/x")


def test_rules_before_any_user_agent_are_ignored() -> None:
    assert allowed(rules("Disallow: /\n"), "/x")


def test_comments_and_odd_spacing() -> None:
    text = "user-agent :  unob   # that's us\n  disallow: /tmp/ # temp\nUser-agent:*\nDisallow:/\n"
    r = rules(text)
    assert not allowed(r, "/tmp/x")
    assert allowed(r, "/other")


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/", True),
        ("/shop", True),
        ("/shop/", False),
        ("/shop/cart", False),
        ("/shop/public/item", True),  # longest match wins (RFC 9309 §2.2.2)
        ("/shop/public", False),  # "/shop/" is longer than no match of "/shop/public/"
        ("/tie", True),  # Allow wins a tie of equal length
        ("/docs/a.pdf", False),  # '*' and '$'
        ("/docs/a.pdf?x=1", True),  # '$' anchors the end, query included
        ("/docs/a.PDF", True),  # paths are case-sensitive
        ("/x/y/z.pdf", False),
        ("/search?q=1", False),  # the query is part of the matched path
        ("/search", True),
        ("/%7Euser/x", False),  # percent-encoding of unreserved chars is normalized
        ("/~user/x", False),
        ("/robots.txt", True),  # always allowed
    ],
)
def test_matching(path: str, expected: bool) -> None:
    text = """
User-agent: unob
Disallow: /shop/
Allow: /shop/public/
Disallow: /tie
Allow: /tie
Disallow: /*.pdf$
Disallow: /search?
Disallow: /~user/
Disallow: /robots.txt
"""
    assert allowed(rules(text), path) is expected


def test_empty_disallow_allows_everything() -> None:
    assert allowed(rules("User-agent: unob\nDisallow:\n"), "/anything")


def test_crawl_delay_and_request_rate() -> None:
    assert rules("User-agent: unob\nCrawl-delay: 0.5\n").crawl_delay_s == 0.5
    assert rules("User-agent: unob\nCrawl-delay: soon\n").crawl_delay_s is None
    # Request-rate 1/10s means one request per ten seconds: the longer of the two wins
    r = rules("User-agent: unob\nCrawl-delay: 3\nRequest-rate: 1/10s\n")
    assert r.crawl_delay_s == 10.0
    # not capped here (politeness caps it at 120 s)
    assert rules("User-agent: *\nCrawl-delay: 86400\n").crawl_delay_s == 86400.0


def test_sitemaps_are_site_wide() -> None:
    text = "Sitemap: https://example.org/a.xml\nUser-agent: other\nSitemap: https://example.org/b.xml\n"
    assert rules(text).sitemaps == ("https://example.org/a.xml", "https://example.org/b.xml")


def test_utf8_bom_and_non_utf8_bytes_do_not_break_parsing() -> None:
    body = b"\xef\xbb\xbfUser-agent: unob\nDisallow: /caf\xe9/\nDisallow: /x/\n"
    r = RobotsRules.from_response(200, body, 0.0, token="unob")
    assert not allowed(r, "/x/1")


def test_only_the_first_500_kib_are_parsed() -> None:
    filler = ("# " + "x" * 97 + "\n") * (MAX_BYTES // 100 + 10)
    text = "User-agent: unob\nDisallow: /early/\n" + filler + "Disallow: /late/\n"
    r = rules(text)
    assert not allowed(r, "/early/1")
    assert allowed(r, "/late/1")


def test_a_rule_cut_at_the_limit_is_dropped_not_shortened() -> None:
    # the limit falls right after "Allow: /" of "Allow: /public/": read as "Allow: /",
    # it would tie with "Disallow: /" and allow everything
    head = "User-agent: unob\nDisallow: /\n"
    head += "#" * (MAX_BYTES - len(head) - len("Allow: /") - 1) + "\n"
    assert len(head + "Allow: /") == MAX_BYTES
    r = rules(head + "Allow: /public/\n")
    assert r.state is RobotsState.PARSED
    assert not allowed(r, "/private")
    assert not allowed(r, "/public/x")  # the cut line is gone entirely


@pytest.mark.parametrize("status", [400, 401, 403, 404, 410, 451, 301, 308])
def test_unavailable_robots_allows_everything(status: int) -> None:
    r = RobotsRules.from_response(status, b"User-agent: *\nDisallow: /", 100.0, token="unob")
    assert r.state is RobotsState.ALLOW_ALL and not r.unavailable
    assert allowed(r, "/anything")
    assert r.expires_unix == 100.0 + 1800


@pytest.mark.parametrize("status", [500, 502, 503, 504, 429, None, 999, 102])
def test_unreachable_robots_disallows_everything_for_a_while(status: int | None) -> None:
    r = RobotsRules.from_response(status, None, 100.0, token="unob", retry_s=60)
    assert r.state is RobotsState.DISALLOW_ALL and r.unavailable
    assert not allowed(r, "/")
    assert allowed(r, "/robots.txt")
    assert r.expires_unix == 160.0
    assert not r.expired(159.0) and r.expired(160.0)


def test_unreachable_keeps_the_previous_good_file() -> None:
    good = RobotsRules.from_response(
        200, b"User-agent: *\nDisallow: /no/\nCrawl-delay: 4", 0.0, token="unob"
    )
    r = RobotsRules.from_response(503, None, 2000.0, token="unob", retry_s=60, previous=good)
    assert not r.unavailable
    assert allowed(r, "/yes") and not allowed(r, "/no/x")
    assert r.crawl_delay_s == 4.0
    assert r.expires_unix == 2060.0
    # a previous allow-all (404) is not "a good file": unreachable now means disallow
    gone = RobotsRules.from_response(404, None, 0.0, token="unob")
    assert RobotsRules.from_response(None, None, 1.0, token="unob", previous=gone).unavailable


def test_refetch_interval_is_configurable() -> None:
    r = RobotsRules.from_response(200, b"", 10.0, token="unob", refetch_s=5)
    assert r.expires_unix == 15.0


# -- differential test against Google's own matcher (fast-robotstxt) ------------------------

_AGENTS = ["unob", "UNOB", "unob/1.0", "Unob bot", "un", "unobtanium", "*", "other", "unob-x"]
# no percent-escapes: Google's matcher ranks "/%41" by its written length and protego
# by its decoded one (RFC 9309 §2.2.2 leaves it open); everything else must agree
_PATTERNS = ["/", "/a", "/a/", "/ab", "/a*", "/*b", "/a$", "/*.html$", "/b/c", "", "*", "/a?x"]
_PATHS = ["/", "/a", "/a/", "/ab", "/abc", "/b", "/b/c", "/x.html", "/x.htm", "/a?x=1", "/aa/b"]

_group = st.tuples(
    st.lists(st.sampled_from(_AGENTS), min_size=1, max_size=2),
    st.lists(
        st.tuples(st.sampled_from(["Allow", "Disallow"]), st.sampled_from(_PATTERNS)),
        max_size=3,
    ),
)


@settings(max_examples=150, deadline=None)
@given(groups=st.lists(_group, max_size=4))
def test_agrees_with_googles_matcher(
    groups: list[tuple[list[str], list[tuple[str, str]]]],
) -> None:
    robotstxt = pytest.importorskip("robotstxt")
    lines = []
    for agents, rule_lines in groups:
        lines += [f"User-agent: {agent}" for agent in agents]
        lines += [f"{field}: {pattern}" for field, pattern in rule_lines]
    text = "\n".join(lines) + "\n"
    ours = rules(text)
    google = robotstxt.RobotsMatcher()
    for path in _PATHS:
        expected = google.is_allowed(text, "unob", SITE + path)
        assert allowed(ours, path) == expected, (text, path)
