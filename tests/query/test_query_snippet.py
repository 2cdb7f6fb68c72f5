"""Search-result snippets (unob.query.snippet): where the passage is, what is highlighted."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from unob.query.snippet import SCAN_CHARS, fold, query_terms, snippet_of


def highlighted(snippet: tuple[str, tuple[tuple[int, int], ...]]) -> list[str]:
    text, spans = snippet
    return [text[a:b] for a, b in spans]


def test_passage_starts_a_few_words_before_the_first_match() -> None:
    text = " ".join(f"w{i}" for i in range(100)) + " Needle and more needle " + "tail " * 50
    snippet = snippet_of([text], query_terms(["needle"]), 10)
    assert snippet[0] == "… w96 w97 w98 w99 Needle and more needle tail tail …"
    assert highlighted(snippet) == ["Needle", "needle"]


def test_whitespace_becomes_one_space_and_punctuation_stays() -> None:
    text = "Title\n\n\nFirst  line, with\ta comma.\nSecond line."
    snippet = snippet_of([text], query_terms(["comma"]), 24)
    assert snippet[0] == "… First line, with a comma. Second line"
    assert highlighted(snippet) == ["comma"]
    assert snippet_of([text], query_terms(["line"]), 3)[0] == "… First line, with …"


def test_accents_and_case_are_ignored_like_the_index_does() -> None:
    assert fold("Café") == "cafe" == fold("CAFE")
    assert highlighted(snippet_of(["un café noir"], query_terms(["CAFE"]), 24)) == ["café"]
    assert highlighted(snippet_of(["a cafe"], query_terms(["café"]), 24)) == ["cafe"]
    # a non-ASCII match is found by the scan of the first SCAN_CHARS characters
    text = "ü " + "x " * 1000 + "Ärger"
    assert highlighted(snippet_of([text], query_terms(["arger"]), 3)) == ["Ärger"]


def test_only_whole_words_match() -> None:
    snippet = snippet_of(["concatenate cat_dog cat"], query_terms(["cat"]), 24)
    # '_' separates tokens as in FTS5's unicode61: cat_dog holds the word cat
    assert highlighted(snippet) == ["cat", "cat"]
    assert snippet[0] == "concatenate cat_dog cat"


def test_the_first_column_with_a_match_wins_else_the_first_text() -> None:
    columns = ["main text here", "", "nav needle"]
    assert snippet_of(columns, query_terms(["needle"]), 24) == ("nav needle", ((4, 10),))
    assert snippet_of(columns, query_terms(["absent"]), 2) == ("main text …", ())
    assert snippet_of([None, ""], query_terms(["x"]), 24) == ("", ())


def test_phrase_words_are_highlighted_and_terms_are_distinct() -> None:
    assert query_terms(["event loop", "Loop", "a " * 50]) == ("event", "loop", "a")
    snippet = snippet_of(["the event loop runs"], query_terms(["event loop"]), 24)
    assert highlighted(snippet) == ["event", "loop"]


def test_frequent_words_on_a_long_page() -> None:
    # FTS5's snippet() took minutes here (its work grows with matches squared)
    text = "alpha beta " * 300_000
    snippet = snippet_of([text], query_terms(["alpha", "beta"]), 24)
    assert len(snippet[1]) == 24
    late = "x " * (SCAN_CHARS // 2) + "alpha"
    assert highlighted(snippet_of([late], query_terms(["alpha"]), 24)) == ["alpha"]


@given(st.text(max_size=300), st.lists(st.text(max_size=12), max_size=4))
def test_never_raises_and_spans_are_inside(text: str, words: list[str]) -> None:
    snippet, spans = snippet_of([text], query_terms(words), 24)
    assert "\n" not in snippet
    for start, end in spans:
        assert 0 <= start < end <= len(snippet)
        assert fold(snippet[start:end]) in query_terms(words)


def test_one_token_passages_and_words_inside_longer_words() -> None:
    assert snippet_of(["a b c"], query_terms(["b"]), 0) == ("… b …", ((2, 3),))
    # the first "cat" is inside a longer word; the search for a whole one goes on
    text = "concatenation " * 1000 + "cat"
    assert highlighted(snippet_of([text], query_terms(["cat", "dog"]), 3)) == ["cat"]
