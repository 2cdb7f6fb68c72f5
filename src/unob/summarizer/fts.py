"""The full-text index of the summary database: ``search_index`` (SQLite FTS5).

Design (created by migration ``s0001``):

* an FTS5 *external content* table whose content is the view
  ``search_index_source``; ``rowid`` = ``entity_generation_id``, so a hit joins
  back to ``entity_generation`` (and ``url``, ``document_description``, ...)
  on that id, and ``snippet()`` / ``highlight()`` work (they read the text
  back through the view);
* one row per generation that is open, has a text pile, and is not
  ``robots_noindex``: exactly the rows of the view.  Exact duplicates stay in
  the index (filter ``marked_duplicate = 0`` when searching), so marking and
  unmarking never touches it;
* columns, in order: :data:`COLUMNS`.  ``text`` already contains the page's
  headings, code and quotes, so a weight on ``big_headlines`` adds to the
  weight on ``text`` for a heading hit (unobtanium weights them that way);
* tokenizer ``unicode61 remove_diacritics 2``, no stemming (pages come in
  every language).

The summarizer keeps the index in step, inside each batch's transaction:
:func:`unindex` before a stored generation is closed (the FTS5 ``delete``
command needs the indexed values, which the view only shows while the
generation is open), :func:`index` for the new generations at batch end.

Searching, best first (``bm25`` is lower for better matches)::

    SELECT eg.entity_generation_id, u.str_url, dd.title,
           snippet(search_index, 2, '[', ']', '…', 12) AS snippet
    FROM search_index
    JOIN entity_generation AS eg ON eg.entity_generation_id = search_index.rowid
    JOIN url AS u ON u.url_id = eg.url_id
    LEFT JOIN document_description AS dd USING (entity_generation_id)
    WHERE search_index MATCH :query AND eg.marked_duplicate = 0
    ORDER BY bm25(search_index, 5.0, 1.5, 1.0, 0.75, 4.0, 2.1, 0.2, 0.0, 0.5)
    LIMIT 10
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence

__all__ = ["COLUMNS", "SOURCE_VIEW", "TABLE", "check", "index", "unindex"]

TABLE = "search_index"
SOURCE_VIEW = "search_index_source"
#: The indexed columns, in table order (bm25 weights are given in this order).
COLUMNS = (
    "title",
    "description",
    "text",
    "secondary_text",
    "big_headlines",
    "small_headlines",
    "code_text",
    "quote_text",
    "url",
)
_COLS = ", ".join(COLUMNS)
_CHUNK = 500


def _chunks(ids: Iterable[int]) -> Iterator[Sequence[int]]:
    items = sorted(set(ids))
    for start in range(0, len(items), _CHUNK):
        yield items[start : start + _CHUNK]


def _from_view(conn: sqlite3.Connection, generation_ids: Iterable[int], command: str) -> None:
    """Feed the view's rows of these generations to the index, in chunks.

    ``command`` is ``""`` to add them, or ``"'delete', "`` for FTS5's delete
    command (an external-content table needs the values it indexed).
    """
    target = f"{TABLE}, rowid" if command else "rowid"
    for chunk in _chunks(generation_ids):
        conn.execute(
            f"INSERT INTO {TABLE} ({target}, {_COLS}) "
            f"SELECT {command}entity_generation_id, {_COLS} FROM {SOURCE_VIEW} "
            f"WHERE entity_generation_id IN ({','.join('?' * len(chunk))})",
            chunk,
        )


def index(conn: sqlite3.Connection, generation_ids: Iterable[int]) -> None:
    """Add generations to the index (those the view shows: open, with text, indexable)."""
    _from_view(conn, generation_ids, "")


def unindex(conn: sqlite3.Connection, generation_ids: Iterable[int]) -> None:
    """Remove generations from the index; call while they are still open."""
    _from_view(conn, generation_ids, "'delete', ")


def check(conn: sqlite3.Connection) -> bool:
    """True when the index holds exactly the view's rows (for tests and doctors)."""
    conn.execute(f"INSERT INTO {TABLE} ({TABLE}) VALUES ('integrity-check')")
    indexed = {row[0] for row in conn.execute(f"SELECT id FROM {TABLE}_docsize")}
    wanted = {row[0] for row in conn.execute(f"SELECT entity_generation_id FROM {SOURCE_VIEW}")}
    return indexed == wanted
