"""Search-result snippets: a short passage of a page around the query's words (pure).

unob used FTS5's ``snippet()`` until a review found it taking minutes: it
scores each candidate passage against every instance of every query phrase
in the column, so its work grows with the square of the number of matches.
A word that occurs 100,000 times in a 7 MB page took over 100 s for one
result, and a query repeating a word 50 times took 70 s on ordinary pages.

This module takes the passage around the *first* match instead, in time
bounded by the column's length and independent of the number of matches:

1. ``str.find`` on the lower-cased text finds the first whole-token match of
   each of the query's tokens (as typed and folded), at C speed;
2. when that finds nothing in a text that is not pure ASCII, the first
   :data:`SCAN_CHARS` characters are tokenized and each token folded the way
   the index folds it (FTS5 ``unicode61 remove_diacritics 2``: case and
   diacritics ignored), which finds ``café`` for ``cafe`` and the reverse;
3. the passage starts :data:`LEAD_TOKENS` tokens before the match and holds
   ``tokens`` tokens; every token in it that matches the query is highlighted.

Tokens are runs of letters and digits, as unicode61 makes them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from itertools import islice

__all__ = ["SCAN_CHARS", "Snippet", "fold", "query_terms", "snippet_of"]

#: characters of a non-ASCII text scanned token by token when the fast search
#: finds nothing (about 50 ms of Python work)
SCAN_CHARS = 256 * 1024
#: tokens shown before the first match
LEAD_TOKENS = 4
#: at most this many distinct query tokens are looked for
MAX_TERMS = 64
_TOKEN = re.compile(r"[^\W_]+")
_SPACE = re.compile(r"\s+")
#: how far back the lead tokens are looked for (a token this long is rare)
_LEAD_CHARS = 512
_ELLIPSIS = "…"

#: (snippet, highlighted (start, end) character spans in it)
Snippet = tuple[str, tuple[tuple[int, int], ...]]


def fold(token: str) -> str:
    """``token`` as the index compares it: case-folded, diacritics removed."""
    if token.isascii():
        return token.lower()
    decomposed = unicodedata.normalize("NFKD", token)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


def query_terms(parts: Iterable[str]) -> tuple[str, ...]:
    """The distinct tokens of the query's words and phrases, in order: each lower-cased
    as typed and folded (they differ when it has accents)."""
    terms: dict[str, None] = {}
    for part in parts:
        for token in _TOKEN.findall(part):
            terms[token.lower()] = None
            terms[fold(token)] = None
    return tuple(islice(terms, MAX_TERMS))


def _token_at_edges(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is a whole token (no letter or digit joins it)."""
    return (start == 0 or not text[start - 1].isalnum()) and (
        end == len(text) or not text[end].isalnum()
    )


class _Finder:
    """The search for one query's terms (reused for every column of a page)."""

    def __init__(self, terms: tuple[str, ...]) -> None:
        self.terms = frozenset(terms)
        # a whole token: no letter or digit next to it ('_' separates, as in unicode61)
        self.patterns = [
            (term, re.compile(r"(?<![^\W_])" + re.escape(term) + r"(?![^\W_])")) for term in terms
        ]

    def first(self, text: str) -> int | None:
        """Offset of the first token of ``text`` that matches a term, or None."""
        lowered = text.lower()
        if len(lowered) == len(text):  # else some letter lower-cased to two: offsets shift
            best = len(text)
            for term, pattern in self.patterns:
                # str.find is ten times as fast as a regular expression; the expression
                # only runs when the first find is inside a longer word
                at = lowered.find(term, 0, best)
                if at >= 0 and not _token_at_edges(lowered, at, at + len(term)):
                    # (a match must start before the best so far: stop looking there)
                    found = pattern.search(lowered, at + 1, min(len(text), best + len(term) + 1))
                    at = -1 if found is None else found.start()
                if 0 <= at < best:
                    best = at
            if best < len(text):
                return best
        if text.isascii():
            return None  # folding changes nothing the search above did not try
        for token in _TOKEN.finditer(text, 0, SCAN_CHARS):
            if fold(token.group()) in self.terms:
                return token.start()
        return None


def _passage(text: str, start: int, tokens: int, terms: frozenset[str]) -> Snippet:
    """``tokens`` tokens of ``text`` from offset ``start``, matches highlighted; runs of
    whitespace between them become one space (the text pile has a block per line)."""
    out = _ELLIPSIS + " " if _TOKEN.search(text, 0, start) else ""
    spans: list[tuple[int, int]] = []
    cursor: int | None = None
    for taken, token in enumerate(_TOKEN.finditer(text, start)):
        if taken == tokens:
            out += " " + _ELLIPSIS
            break
        if cursor is not None:
            out += _SPACE.sub(" ", text[cursor : token.start()])
        word = token.group()
        if fold(word) in terms:
            spans.append((len(out), len(out) + len(word)))
        out += word
        cursor = token.end()
    return out, tuple(spans)


def snippet_of(columns: Iterable[str | None], terms: tuple[str, ...], tokens: int) -> Snippet:
    """The passage of the first of ``columns`` that matches ``terms``, else the start of
    the first non-empty one (FTS5 ``snippet()`` did the same); ``tokens`` >= 1."""
    tokens = max(1, tokens)
    finder = _Finder(terms)
    first_text: str | None = None
    for text in columns:
        if not text:
            continue
        if first_text is None:
            first_text = text
        at = finder.first(text)
        if at is not None:
            # a few words of context, but the match itself always in the passage
            wanted = min(LEAD_TOKENS, (tokens - 1) // 2)
            lead = [m.start() for m in _TOKEN.finditer(text, max(0, at - _LEAD_CHARS), at)]
            begin = lead[-min(wanted, len(lead))] if wanted and lead else at
            return _passage(text, begin, tokens, finder.terms)
    if first_text is None:
        return "", ()
    return _passage(first_text, 0, tokens, finder.terms)
