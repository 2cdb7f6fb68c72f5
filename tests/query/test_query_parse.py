"""The search query parser: unobtanium's syntax, and no input can break FTS5."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unob.query.parse import Query, SiteFilter, fts5_string, parse_query, parse_site, to_fts5


def test_words_and_phrases() -> None:
    q = parse_query('asyncio "event loop"  Tasks')
    assert q.words == ("asyncio", "Tasks")
    assert q.phrases == ("event loop",)
    assert to_fts5(q) == '"asyncio" AND "Tasks" AND "event loop"'


def test_repeated_words_are_matched_once() -> None:
    # every repeat was one more phrase for FTS5: 50 times "a" took 70 s to search
    q = parse_query("a " * 50 + 'A tasks "Event  loop" "event loop" -"x y" -"X Y"')
    assert to_fts5(q) == '("a" AND "tasks" AND "Event loop") NOT "x y"'


@pytest.mark.parametrize(
    ("text", "phrase"),
    [('"a b"', "a b"), ("»a b«", "a b"), ("«a b»", "a b"), ("“a b”", "a b"), ("„a b“", "a b")],
)
def test_quote_pairs(text: str, phrase: str) -> None:
    assert parse_query(text).phrases == (phrase,)


def test_excluding_needs_quotes() -> None:
    q = parse_query('python -"python 2" -legacy')
    assert q.excluded_phrases == ("python 2",)
    # a minus without quotes is part of the word, never an exclusion
    assert q.words == ("python", "-legacy")
    assert to_fts5(q) == '("python" AND "-legacy") NOT "python 2"'


def test_quotes_open_only_at_a_word_start_and_close_before_a_space() -> None:
    assert parse_query('it"s here').words == ('it"s', "here")
    # the inner quote is followed by a letter, so it does not close the phrase
    assert parse_query('"say "hi"there" x').phrases == ('say "hi"there',)
    assert parse_query('"never closed').words == ('"never', "closed")


def test_backslash_escapes_inside_phrases() -> None:
    assert parse_query(r'"a \" b"').phrases == ('a " b',)


def test_site_and_host_filters() -> None:
    q = parse_query("tasks site:Docs.Python.org/3/library -site:bugs.python.org host:x.org")
    assert q.words == ("tasks",)
    assert q.sites == (
        SiteFilter("docs.python.org", "/3/library", include_subdomains=True),
        SiteFilter("x.org", "", include_subdomains=False),
    )
    assert q.excluded_sites == (SiteFilter("bugs.python.org", "", include_subdomains=True),)


def test_unknown_keys_and_urls_are_words() -> None:
    assert parse_query("std::vector lang:de").words == ("std::vector", "lang:de")
    assert parse_query("site:").words == ("site:",)


def test_site_filter_matching_rule() -> None:
    site = parse_site("https://Python.org/3", include_subdomains=True)
    assert site == SiteFilter("python.org", "/3", include_subdomains=True)
    assert site.matches("docs.python.org", "/3/library/")
    assert site.matches("python.org", "/3")
    assert not site.matches("notpython.org", "/3")
    assert not site.matches("python.org", "/2/")
    host = parse_site("python.org", include_subdomains=False)
    assert host is not None and not host.matches("docs.python.org", "/")
    assert parse_site("bücher.de", include_subdomains=True) == SiteFilter("xn--bcher-kva.de")


def test_nothing_to_match() -> None:
    for text in ("", "   ", "- -- ...", '""', '-"only excluded"', "site:python.org"):
        q = parse_query(text)
        assert q.is_empty
        assert to_fts5(q) is None


def test_tokenless_words_are_dropped_not_required() -> None:
    assert to_fts5(parse_query("asyncio - ...")) == '"asyncio"'


def test_fts5_string_doubles_quotes() -> None:
    assert fts5_string('a"b') == '"a""b"'


@pytest.fixture(scope="module")
def fts() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.execute(
        "CREATE VIRTUAL TABLE t USING fts5(a, b, tokenize='unicode61 remove_diacritics 2')"
    )
    conn.executemany(
        "INSERT INTO t VALUES (?, ?)",
        [("asyncio event loop", "tasks"), ("NEAR AND OR NOT", "col:on * ^ {x}")],
    )
    return conn


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=60))
def test_no_input_breaks_fts5(fts: sqlite3.Connection, text: str) -> None:
    expression = to_fts5(parse_query(text))
    if expression is not None:
        fts.execute("SELECT rowid FROM t WHERE t MATCH ?", (expression,)).fetchall()


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.text(alphabet='ab "-:»«\\site.', max_size=12),
        max_size=6,
    )
)
def test_parser_never_raises_on_syntax_soup(fts: sqlite3.Connection, parts: list[str]) -> None:
    q = parse_query(" ".join(parts))
    assert isinstance(q, Query)
    expression = to_fts5(q)
    if expression is not None:
        fts.execute("SELECT rowid FROM t WHERE t MATCH ?", (expression,)).fetchall()


def test_syntax_words_are_matched_as_text(fts: sqlite3.Connection) -> None:
    expression = to_fts5(parse_query("NEAR NOT col:on"))
    assert fts.execute("SELECT rowid FROM t WHERE t MATCH ?", (expression,)).fetchall() == [(2,)]
