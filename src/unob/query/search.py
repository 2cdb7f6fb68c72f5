"""`unob search`: full-text search of the current web in a summary database.

The summarizer keeps the FTS5 table ``search_index`` (rowid =
``entity_generation_id``) over the open generations that have text.  A
search matches it and keeps only current pages: open, not marked duplicate,
and passing the ``site:`` / ``host:`` filters.  Ranking has two stages:

1. FTS5's bm25() with a weight per column, computed and sorted inside the
   virtual table (``ORDER BY rank``), for the best :data:`MIN_CANDIDATES`
   current pages.  The weights start from unobtanium's defaults (title 5.0,
   description 1.5, text 1.0, secondary_text 0.75, big_headlines 5.0,
   small_headlines 3.1, code_text 1.2, quote_text 1.0; reference/unobtanium.md
   §7.1).  As in unobtanium's gen1 text pile, ``text`` already contains the
   headings, code and quotes, so a heading word is counted in ``text`` *and*
   in ``big_headlines``: those columns get their weight minus the text
   weight, so that a heading hit totals the intended weight (§3.9).  The URL
   is indexed too; its weight is :data:`URL_WEIGHT`.
2. :mod:`unob.query.rank` boosts the pages whose URL is named like the query.

Snippets are made for the returned pages only, by :mod:`unob.query.snippet`
from the columns read back by rowid (not FTS5's ``snippet()``, whose work
grows with the square of the number of matches in a page).
"""

from __future__ import annotations

import dataclasses
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from unob.errors import DatabaseError, NotADatabase, UsageError, WrongDatabaseKind
from unob.query.parse import Query, SiteFilter, parse_query, parse_site, to_fts5
from unob.query.rank import MIN_CANDIDATES, boost, query_words, rerank
from unob.query.readonly import ReadOnlyConnection
from unob.query.snippet import Snippet, query_terms, snippet_of

FTS_TABLE = "search_index"

#: bm25 weight per ``search_index`` column, in column order (see module doc).
TEXT_WEIGHT = 1.0
URL_WEIGHT = 3.0
COLUMN_WEIGHTS: dict[str, float] = {
    "title": 5.0,
    "description": 1.5,
    "text": TEXT_WEIGHT,
    "secondary_text": 0.75,
    "big_headlines": 5.0 - TEXT_WEIGHT,
    "small_headlines": 3.1 - TEXT_WEIGHT,
    "code_text": 1.2 - TEXT_WEIGHT,
    "quote_text": 1.0 - TEXT_WEIGHT,
    "url": URL_WEIGHT,
}
#: Columns a snippet may come from, best first: the first with a matching
#: term wins, else the first one (the start of the main text).
SNIPPET_COLUMNS = ("text", "description", "secondary_text")
SNIPPET_TOKENS = 24
DEFAULT_LIMIT = 10


@dataclass(frozen=True)
class SearchResult:
    """One page found by :func:`search`, best first."""

    entity_generation_uuid: str
    url: str
    title: str | None
    description: str | None
    #: A passage of the page's text around the matches ("…" where cut).
    snippet: str
    #: (start, end) character offsets of the matched terms in ``snippet``.
    highlights: tuple[tuple[int, int], ...]
    #: Relevance, higher is better: FTS5's bm25 score negated, times the
    #: :mod:`unob.query.rank` boost.
    score: float


def rank_expression(weights: dict[str, float] = COLUMN_WEIGHTS) -> str:
    """The FTS5 ``rank`` function call for ``weights`` (``rank MATCH ...``)."""
    return "bm25(" + ", ".join(f"{w:g}" for w in weights.values()) + ")"


def build_search_sql(query: Query, limit: int) -> tuple[str, list[object]] | None:
    """The candidate query and its parameters, or None if ``query`` cannot match anything."""
    match = to_fts5(query)
    if match is None:
        return None
    params: list[object] = [match, rank_expression()]
    conditions = [
        f"{FTS_TABLE} MATCH ?1",
        f"{FTS_TABLE}.rank MATCH ?2",
        "eg.confirmed_end_unix_utc IS NULL",
        "eg.marked_duplicate = 0",
    ]
    if query.sites:
        conditions.append("(" + " OR ".join(_site_sql(s, params) for s in query.sites) + ")")
    conditions.extend(f"NOT {_site_sql(s, params)}" for s in query.excluded_sites)
    params.append(limit)
    sql = f"""
SELECT eg.entity_generation_id, eg.entity_generation_uuid, u.str_url, dd.title, dd.description,
       {FTS_TABLE}.rank
FROM {FTS_TABLE}
JOIN entity_generation AS eg ON eg.entity_generation_id = {FTS_TABLE}.rowid
JOIN url AS u ON u.url_id = eg.url_id
JOIN origin AS o ON o.origin_id = u.origin_id
LEFT JOIN document_description AS dd ON dd.entity_generation_id = eg.entity_generation_id
WHERE {" AND ".join(conditions)}
ORDER BY {FTS_TABLE}.rank
LIMIT ?{len(params)}
"""
    return sql, params


def _site_sql(site: SiteFilter, params: list[object]) -> str:
    """SQL true for the URLs ``site`` keeps (mirrors :meth:`SiteFilter.matches`).

    Parameters are numbered (``?N``) because the MATCH parameters are.
    """
    params.append(site.host)
    host = f"?{len(params)}"
    condition = f"o.host = {host}"
    if site.include_subdomains:
        condition = f"(o.host = {host} OR substr(o.host, -length({host}) - 1) = '.' || {host})"
    if site.path_prefix:
        params.append(site.path_prefix)
        prefix = f"?{len(params)}"
        condition += (
            f" AND substr(u.str_url, length(o.str_origin) + 1, length({prefix})) = {prefix}"
        )
    return f"({condition})"


_SNIPPET_SOURCE = (
    f"SELECT {', '.join(SNIPPET_COLUMNS)} FROM search_index_source WHERE entity_generation_id = ?"
)


@dataclass(frozen=True)
class _Candidate:
    generation_id: int
    uuid: str
    url: str
    title: str | None
    description: str | None
    score: float


class Searcher:
    """Searches one open summary database (reuse it for many queries)."""

    def __init__(self, conn: ReadOnlyConnection) -> None:
        self.conn = conn

    def search(self, query: Query, limit: int = DEFAULT_LIMIT) -> list[SearchResult]:
        built = build_search_sql(query, max(limit, MIN_CANDIDATES))
        if built is None:
            return []
        sql, params = built
        candidates = [
            _Candidate(gid, uuid, url, title, description, -float(rank))
            for gid, uuid, url, title, description, rank in self.conn.execute(sql, tuple(params))
        ]
        best = rerank(candidates, query, url=lambda c: c.url, score=lambda c: c.score)[:limit]
        wanted = query_words(query)
        terms = query_terms((*query.words, *query.phrases))
        results = []
        for c in best:
            snippet, highlights = self._snippet(terms, c.generation_id)
            score = c.score * boost(c.url, wanted)
            results.append(
                SearchResult(c.uuid, c.url, c.title, c.description, snippet, highlights, score)
            )
        return results

    def _snippet(self, terms: tuple[str, ...], generation_id: int) -> Snippet:
        """The passage around the first match in the first of :data:`SNIPPET_COLUMNS`
        that has one, else the text's start (:mod:`unob.query.snippet`)."""
        row = self.conn.execute(_SNIPPET_SOURCE, (generation_id,)).fetchone()
        return snippet_of(row or (), terms, SNIPPET_TOKENS)


def open_summary(path: Path) -> ReadOnlyConnection:
    """Open a summary database read-only, checking its kind and its search index."""
    conn = ReadOnlyConnection(path)
    try:
        tables = {
            row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table')")
        }
        kind = None
        if "database_info" in tables:
            row = conn.execute("SELECT value FROM database_info WHERE key = 'kind'").fetchone()
            kind = None if row is None else row[0]
        if kind is None:
            raise NotADatabase(f"{path}: not a unob summary database")
        if kind != "summary":
            raise WrongDatabaseKind(f"{path}: is a unob {kind} database, not a summary database")
        if FTS_TABLE not in tables:
            raise DatabaseError(f"{path}: has no search index; run `unob summarize` to upgrade it")
    except BaseException:
        conn.close()
        raise
    return conn


def search(
    summary_db: Path, query: str, limit: int = DEFAULT_LIMIT, site: str | None = None
) -> list[SearchResult]:
    """Search the current pages of ``summary_db`` for ``query`` (best first).

    ``site`` is the same as a ``site:`` filter in the query (host and its
    subdomains, optional path prefix; several site filters mean any of them).
    The query syntax is in :mod:`unob.query.parse`; no input makes it fail.
    """
    if limit < 1:
        raise UsageError(f"--limit must be at least 1, not {limit}")
    parsed = parse_query(query)
    if site is not None:
        extra = parse_site(site, include_subdomains=True)
        if extra is None:
            raise UsageError(f"--site {site!r}: not a host name")
        parsed = dataclasses.replace(parsed, sites=(*parsed.sites, extra))
    try:
        with open_summary(summary_db) as conn:
            return Searcher(conn).search(parsed, limit)
    except sqlite3.Error as exc:
        raise DatabaseError(f"{summary_db}: {exc}") from exc
