"""Crawl scope: origins and modes, patterns, depth, spider traps, query policy."""

from __future__ import annotations

import pytest

from unob.crawler.scope import Scope, keep_query_params
from unob.settings import load_crawl_settings


def scope(*seeds: str, **overrides: object) -> Scope:
    return Scope(load_crawl_settings(None, {"seeds": seeds, **overrides}))


def test_default_scope_is_the_seeds_origins() -> None:
    s = scope("http://example.org/docs/", "http://127.0.0.1:8080/")
    assert s.accepts("http://example.org/other", 1)
    assert s.accepts("http://127.0.0.1:8080/x", 1)
    assert not s.accepts("http://127.0.0.1:8081/x", 1)  # another port is another origin
    assert not s.accepts("http://sub.example.org/", 1)
    assert not s.accepts("http://example.com/", 1)
    assert s.rejection("http://example.com/", 1) == "origin not in scope"


def test_http_and_https_of_a_seed_host_are_one_site() -> None:
    # a seed that redirects http -> https must not end the crawl after one page
    s = scope("http://example.org/")
    assert s.accepts("https://example.org/a", 1)
    assert s.accepts_origin("https://example.org")
    assert scope("https://example.org/").accepts("http://example.org/a", 1)
    # not for explicit ports: https on 8443 is not http on 8080
    assert not scope("http://example.org:8080/").accepts("https://example.org:8080/", 1)


def test_allowed_origins_and_extra_origins() -> None:
    s = scope("http://a.example/", allowed_origins=("https://cdn.example/path/ignored",))
    assert s.accepts("https://cdn.example/x", 1)
    resumed = Scope(load_crawl_settings(None, {}), extra_origins=["http://old.example"])
    assert resumed.accepts("http://old.example/page", 3)
    assert not resumed.accepts("http://new.example/page", 3)
    assert resumed.origins == {"http://old.example", "https://old.example"}


def test_host_mode_ignores_scheme_and_port() -> None:
    s = scope("http://example.org/", scope="host")
    assert s.accepts("https://example.org:8443/x", 1)
    assert not s.accepts("http://www.example.org/", 1)


def test_domain_mode_takes_subdomains() -> None:
    s = scope("http://example.org/", scope="domain")
    assert s.accepts("http://www.example.org/", 1)
    assert s.accepts("https://a.b.example.org/", 1)
    assert not s.accepts("http://notexample.org/", 1)
    assert not s.accepts("http://example.org.evil.com/", 1)


def test_any_mode() -> None:
    s = scope("http://example.org/", scope="any")
    assert s.accepts("https://anything.example.net/x", 1)


def test_accepts_origin() -> None:
    s = scope("http://example.org/x")
    assert s.accepts_origin("http://EXAMPLE.org:80")
    assert not s.accepts_origin("http://example.net")
    assert not s.accepts_origin("not an origin")


def test_depth() -> None:
    s = scope("http://example.org/", max_depth=2)
    assert s.accepts("http://example.org/a", 2)
    assert s.rejection("http://example.org/a", 3) == "deeper than max_depth 2"
    assert scope("http://example.org/", max_depth="unlimited").accepts("http://example.org/a", 999)


def test_seeds_are_always_in_scope() -> None:
    s = scope("http://example.org/private/start", exclude=("/private/",), max_depth=0)
    assert s.accepts("http://example.org/private/start", 0)
    assert not s.accepts("http://example.org/private/other", 0)


def test_include_and_exclude_patterns() -> None:
    s = scope(
        "http://example.org/",
        include=(r"^http://example\.org/docs/", r"/blog/\d{4}/"),
        exclude=(r"\.pdf$", r"/docs/old/"),
    )
    assert s.accepts("http://example.org/docs/a.html", 1)
    assert s.accepts("http://example.org/blog/2024/x", 1)
    assert s.rejection("http://example.org/shop/", 1) == "matches no include pattern"
    assert s.rejection("http://example.org/docs/a.pdf", 1) == "matches an exclude pattern"
    assert not s.accepts("http://example.org/docs/old/a.html", 1)


def test_url_length_cap() -> None:
    s = scope("http://example.org/", max_url_length=40)
    assert s.accepts("http://example.org/" + "a" * 21, 1)
    assert not s.accepts("http://example.org/" + "a" * 22, 1)


@pytest.mark.parametrize(
    ("path", "trap"),
    [
        ("/a/b/c/d/e/f", False),
        ("/2024/01/01/post", False),
        ("/a/a/a", False),
        ("/a/a/a/a", True),
        ("/x/a/b/a/b/a/b/a/b", True),  # relative links that keep growing the path
        ("/cal/2024/cal/2025/cal/2026/cal/2027", True),
    ],
)
def test_repeated_path_segments_are_spider_traps(path: str, trap: bool) -> None:
    s = scope("http://example.org/")
    assert s.accepts("http://example.org" + path, 1) is not trap


def test_too_many_query_parameters() -> None:
    s = scope("http://example.org/", max_query_params=3, query_policy="keep")
    assert s.accepts("http://example.org/?a=1&b=2&c=3", 1)
    assert not s.accepts("http://example.org/?a=1&b=2&c=3&d=4", 1)


@pytest.mark.parametrize(
    ("policy", "url", "expected"),
    [
        ("keep", "http://example.org/p?utm_source=x&id=3", "http://example.org/p?utm_source=x&id=3"),
        ("drop-listed", "http://example.org/p?utm_source=x&id=3&fbclid=9", "http://example.org/p?id=3"),
        ("drop-listed", "http://example.org/p?utm_medium=a", "http://example.org/p"),
        ("drop-all", "http://example.org/p?id=3", "http://example.org/p"),
        ("keep-listed", "http://example.org/p?id=3&page=2&sort=asc", "http://example.org/p?id=3&page=2"),
        ("keep-listed", "http://example.org/p?sort=asc", "http://example.org/p"),
    ],
)  # fmt: skip
def test_query_policy(policy: str, url: str, expected: str) -> None:
    s = scope("http://example.org/", query_policy=policy, keep_query_params=("id", "pag*"))
    assert s.normalize(url) == expected


def test_normalize_canonicalizes() -> None:
    s = scope("http://example.org/")
    assert s.normalize("HTTP://Example.ORG:80/a/../b#frag") == "http://example.org/b"
    assert s.normalize("mailto:someone@example.org") is None
    assert s.normalize("http://") is None


def test_seeds_are_normalized_with_the_query_policy() -> None:
    s = scope("http://example.org/?utm_source=mail", exclude=(".",))
    assert s.accepts("http://example.org/", 0)


def test_keep_query_params_helper() -> None:
    assert keep_query_params("http://e/x", ["a"]) == "http://e/x"
    assert keep_query_params("http://e/x?a=1&b=2&a=3", ["a"]) == "http://e/x?a=1&a=3"


def test_images() -> None:
    s = scope("http://example.org/", exclude=(r"\.gif$",), max_depth=0)
    assert s.accepts_image("https://cdn.example.net/a.png")  # any origin by default
    assert not s.accepts_image("https://cdn.example.net/a.gif")
    own = scope("http://example.org/", images_any_origin=False)
    assert not own.accepts_image("https://cdn.example.net/a.png")
    assert own.accepts_image("http://example.org/a.png")
