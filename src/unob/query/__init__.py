"""The databases as a public interface: `unob sql` (read-only SQL) and `unob search`.

* :func:`run_sql` runs one read-only statement and streams rows as table,
  CSV or JSON (:mod:`unob.query.sql`, guards in :mod:`unob.query.readonly`);
* :func:`search` ranks the current pages of a summary database with FTS5
  bm25 (:mod:`unob.query.search`) for a query in unobtanium's syntax
  (:mod:`unob.query.parse`);
* :mod:`unob.query.views` documents the views the migrations create.
"""

from unob.query.parse import Query, SiteFilter, parse_query, to_fts5
from unob.query.search import Searcher, SearchResult, open_summary, search
from unob.query.sql import FORMATS, resolve_db, run_sql

__all__ = [
    "FORMATS",
    "Query",
    "SearchResult",
    "Searcher",
    "SiteFilter",
    "open_summary",
    "parse_query",
    "resolve_db",
    "run_sql",
    "search",
    "to_fts5",
]
