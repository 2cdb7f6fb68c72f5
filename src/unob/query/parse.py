"""The search query language of `unob search`, parsed without touching a database.

It follows unobtanium's query syntax (reference/unobtanium.md §7.2):

* words are required, in any order and any indexed field;
* a quoted phrase (``"..."``, ``»...«``, ``«...»`` or ``“...”``) must appear as
  written; a quote opens a phrase only at the start of a word and closes at a
  matching quote that is not followed by more of the word; inside a phrase a
  backslash escapes the next character; a quote that is never closed is an
  ordinary character;
* ``-"phrase"`` excludes pages containing the phrase.  A minus *without*
  quotes does not exclude: ``-word`` is the word (so a pasted error message
  such as ``gcc -Wall`` cannot drop results by accident);
* ``site:host`` keeps pages of that host and its subdomains, ``host:host``
  of exactly that host; a ``site:`` argument may carry a path prefix
  (``site:docs.python.org/3/library``); ``-site:`` / ``-host:`` exclude.
  Several positive filters of one kind mean any of them.  ``key:value`` with an
  unknown key is an ordinary word (``std::vector``, ``http://...``).

:func:`to_fts5` turns a :class:`Query` into an FTS5 MATCH expression in which
every piece of user text is an FTS5 string, so no input can be FTS5 syntax
(``AND``, ``NEAR``, ``*``, ``^``, column filters) or make the query fail.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from unob.urls import canonicalize, host_of

# Opening quote -> the closing quote it pairs with.
QUOTES = {'"': '"', "»": "«", "«": "»", "“": "”", "„": "“"}
FILTER_KEYS = ("site", "host")


@dataclass(frozen=True)
class SiteFilter:
    """``site:`` (subdomains too) or ``host:`` (exact host), maybe with a path prefix."""

    host: str
    path_prefix: str = ""
    include_subdomains: bool = True

    def matches(self, host: str, path: str) -> bool:
        """Whether a URL with this host and path passes (the pure rule the SQL mirrors)."""
        host = host.lower()
        host_ok = host == self.host or (self.include_subdomains and host.endswith("." + self.host))
        return host_ok and path.startswith(self.path_prefix)


@dataclass(frozen=True)
class Query:
    """A parsed search query."""

    words: tuple[str, ...] = ()
    phrases: tuple[str, ...] = ()
    excluded_phrases: tuple[str, ...] = ()
    sites: tuple[SiteFilter, ...] = ()
    excluded_sites: tuple[SiteFilter, ...] = field(default=())

    @property
    def is_empty(self) -> bool:
        """No positive text to match: nothing can be ranked."""
        return not any(has_token(t) for t in (*self.words, *self.phrases))


def has_token(text: str) -> bool:
    """Whether FTS5's unicode61 tokenizer finds a token in ``text``.

    unicode61 makes tokens of letters and numbers (Unicode categories L* and
    N*); a "word" like ``-`` or ``...`` has none, and an FTS5 string without
    tokens matches no row, so such words are left out of the match.
    """
    return any(ch.isalnum() for ch in text)


def parse_site(argument: str, *, include_subdomains: bool) -> SiteFilter | None:
    """``docs.python.org/3/`` or ``https://Docs.Python.org`` -> a filter; junk -> None.

    The argument is canonicalized like stored URLs (:mod:`unob.urls`:
    lower-case IDNA host, normalized percent-encoding) so it compares equal.
    """
    text = argument.strip()
    canonical = canonicalize(text if "://" in text else f"http://{text}")
    host = None if canonical is None else host_of(canonical)
    if canonical is None or host is None:
        return None
    path = urlsplit(canonical).path
    return SiteFilter(host, "" if path == "/" else path, include_subdomains)


def _closing_quote(text: str, start: int, close: str) -> tuple[int, str] | None:
    """Index of the quote closing a phrase opened before ``start``, and the phrase."""
    chars: list[str] = []
    i = start
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            chars.append(text[i + 1])
            i += 2
            continue
        if ch == close and (i + 1 == len(text) or text[i + 1].isspace()):
            return i, "".join(chars)
        chars.append(ch)
        i += 1
    return None


def parse_query(text: str) -> Query:
    """Parse user input into a :class:`Query`; never raises."""
    words: list[str] = []
    phrases: list[str] = []
    excluded: list[str] = []
    sites: list[SiteFilter] = []
    excluded_sites: list[SiteFilter] = []
    i = 0
    n = len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        negated = text[i] == "-" and i + 1 < n and text[i + 1] in QUOTES
        quote_at = i + 1 if negated else i
        if text[quote_at] in QUOTES:
            closed = _closing_quote(text, quote_at + 1, QUOTES[text[quote_at]])
            if closed is not None:
                end, phrase = closed
                phrase = " ".join(phrase.split())
                if phrase:
                    (excluded if negated else phrases).append(phrase)
                i = end + 1
                continue
        end = i
        while end < n and not text[end].isspace():
            end += 1
        word = text[i:end]
        i = end
        key, colon, argument = word.lstrip("-").partition(":")
        if colon and key.lower() in FILTER_KEYS and argument:
            site = parse_site(argument, include_subdomains=key.lower() == "site")
            if site is not None:
                (excluded_sites if word.startswith("-") else sites).append(site)
                continue
        words.append(word)
    return Query(tuple(words), tuple(phrases), tuple(excluded), tuple(sites), tuple(excluded_sites))


def fts5_string(text: str) -> str:
    """``text`` as an FTS5 string literal: its tokens as one phrase, no syntax.

    A NUL would end the string early inside SQLite (C strings), leaving an
    unterminated literal: it becomes a space, which separates tokens anyway.
    """
    return '"' + text.replace("\x00", " ").replace('"', '""') + '"'


def _distinct(texts: Iterable[str]) -> list[str]:
    """The FTS5 strings of ``texts``, each once (compared as the index compares: case
    ignored), in order."""
    first: dict[str, str] = {}
    for text in texts:
        first.setdefault(" ".join(text.lower().split()), text)
    return [fts5_string(text) for text in first.values()]


def to_fts5(query: Query) -> str | None:
    """The FTS5 MATCH expression for ``query``; None when it has nothing to match.

    Words and phrases are ANDed; excluded phrases are subtracted with NOT
    (binary in FTS5: ``a NOT b NOT c`` is ``(a NOT b) NOT c``).
    """
    # Each repeat of a word would be one more phrase for FTS5 to evaluate (a query of
    # 50 times "a" took 70 s), and a repeat changes nothing: the index ignores case.
    positive = _distinct(t for t in (*query.words, *query.phrases) if has_token(t))
    if not positive:
        return None
    expression = " AND ".join(positive)
    negative = _distinct(t for t in query.excluded_phrases if has_token(t))
    if negative:
        expression = f"({expression}) NOT " + " NOT ".join(negative)
    return expression
