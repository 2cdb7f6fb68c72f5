"""`unob sql`: run one read-only SQL statement and stream its rows out.

Rows are fetched in batches and written as they come, so a query over
millions of rows runs in flat memory: ``csv`` writes a header and one line
per row, ``json`` writes a JSON array with one object per line, ``table``
draws a rich table when the whole result is small and goes to the terminal,
and otherwise aligns plain text columns on the widths of the first batch.
"""

from __future__ import annotations

import csv
import json
import math
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TextIO

from unob.errors import UnobError, UsageError
from unob.query.readonly import ReadOnlyConnection

FORMATS = ("table", "csv", "json")
# `--db crawl` and `--db summary` name the default files in the current
# directory; anything else is a path.
DB_SHORTHANDS = {"crawl": Path("crawl.db"), "summary": Path("summary.db")}
BATCH_ROWS = 500
# A rich table needs every row before it can size its columns: only results
# up to this many rows are drawn that way.
RICH_TABLE_MAX_ROWS = 1000

Row = Sequence[object]


def resolve_db(spec: str | Path) -> Path:
    """``crawl`` -> ./crawl.db, ``summary`` -> ./summary.db, anything else as a path."""
    return DB_SHORTHANDS.get(str(spec), Path(spec))


def run_sql(db: Path, query: str, fmt: str, out: TextIO) -> int:
    """Run ``query`` read-only against ``db`` and write its rows to ``out`` as ``fmt``.

    Returns the number of rows written.  A statement that would change the
    database raises :class:`~unob.errors.ReadOnlyViolation` before it runs;
    bad SQL raises :class:`~unob.errors.UnobError` with SQLite's message.
    """
    if fmt not in FORMATS:
        raise UsageError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    if not _has_statement(query):
        raise UsageError("no SQL statement given")
    with ReadOnlyConnection(db) as conn:
        try:
            cursor = conn.execute(query)
            if cursor.description is None:
                return 0  # a statement without a result (e.g. an empty PRAGMA)
            columns = [d[0] for d in cursor.description]
            batches = _batches(cursor)
            if fmt == "csv":
                return write_csv(columns, batches, out)
            if fmt == "json":
                return write_json(columns, batches, out)
            return write_table(columns, batches, out)
        except sqlite3.ProgrammingError as exc:
            if "one statement" in str(exc):
                # sqlite3 runs nothing of such a script; say so in our words.
                raise UsageError(
                    "refused: give one SQL statement at a time (nothing was run)"
                ) from exc
            raise UsageError(f"{exc}") from exc
        except sqlite3.Error as exc:
            raise UnobError(f"SQL error: {exc}") from exc


def _has_statement(query: str) -> bool:
    """False for text SQLite would run as nothing: blanks, ``;`` and comments only.

    A scan, not a regular expression: one with nested repetition backtracked
    exponentially on a line of dashes (``-- ------...``, a common separator).
    SQLite ends an unclosed ``/*`` comment at the end of the text.
    """
    i, n = 0, len(query)
    while i < n:
        if query[i].isspace() or query[i] == ";":
            i += 1
        elif query.startswith("--", i):
            end = query.find("\n", i)
            if end < 0:
                return False
            i = end + 1
        elif query.startswith("/*", i):
            end = query.find("*/", i + 2)
            if end < 0:
                return False
            i = end + 2
        else:
            return True
    return False


def _batches(cursor: sqlite3.Cursor) -> Iterator[list[Row]]:
    while batch := cursor.fetchmany(BATCH_ROWS):
        yield batch


def _text(value: object) -> str:
    """A cell as text: BLOBs as hex, NULL as the empty string."""
    if value is None:
        return ""
    if isinstance(value, bytes):
        return value.hex()
    return str(value)


def _json_value(value: object) -> object:
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, float) and not math.isfinite(value):
        return None  # JSON has no Infinity; SQLite never yields NaN
    return value


def unique_keys(columns: Sequence[str]) -> list[str]:
    """JSON object keys for ``columns``: repeated names get ``_2``, ``_3``, ..."""
    used: set[str] = set()
    keys = []
    for name in columns:
        key, n = name, 1
        while key in used:
            n += 1
            key = f"{name}_{n}"
        used.add(key)
        keys.append(key)
    return keys


def write_csv(columns: Sequence[str], batches: Iterator[list[Row]], out: TextIO) -> int:
    """RFC 4180 CSV with a header row; NULL is an empty field, BLOBs are hex."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    count = 0
    for batch in batches:
        writer.writerows([_text(v) for v in row] for row in batch)
        count += len(batch)
    return count


def write_json(columns: Sequence[str], batches: Iterator[list[Row]], out: TextIO) -> int:
    """A JSON array of objects (column -> value), one object per line."""
    keys = unique_keys(columns)
    count = 0
    out.write("[")
    for batch in batches:
        for row in batch:
            obj = {k: _json_value(v) for k, v in zip(keys, row, strict=True)}
            out.write(("\n" if count == 0 else ",\n") + json.dumps(obj, ensure_ascii=False))
            count += 1
    out.write("\n]\n" if count else "]\n")
    return count


def _cell(value: object) -> str:
    """A cell for the text table: one line, NULL spelled out."""
    if value is None:
        return "NULL"
    text = _text(value)
    return text.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t")


def write_table(columns: Sequence[str], batches: Iterator[list[Row]], out: TextIO) -> int:
    """Aligned columns; a rich table on a terminal when the result is small."""
    first: list[Row] = []
    complete = True
    for batch in batches:
        first.extend(batch)
        if len(first) > RICH_TABLE_MAX_ROWS:
            complete = False
            break
    if complete and out.isatty():
        return _write_rich_table(columns, first, out)
    widths = [len(name) for name in columns]
    for row in first:
        widths = [max(w, len(_cell(v))) for w, v in zip(widths, row, strict=True)]
    numeric = [
        all(isinstance(row[i], int | float) or row[i] is None for row in first) and bool(first)
        for i in range(len(columns))
    ]

    def line(cells: Sequence[str]) -> str:
        parts = [
            c.rjust(w) if num else c.ljust(w)
            for c, w, num in zip(cells, widths, numeric, strict=True)
        ]
        return "  ".join(parts).rstrip() + "\n"

    out.write(line(list(columns)))
    out.write(line(["-" * w for w in widths]))
    count = 0
    for row in first:
        out.write(line([_cell(v) for v in row]))
        count += 1
    if not complete:
        for batch in batches:
            out.writelines(line([_cell(v) for v in row]) for row in batch)
            count += len(batch)
    out.write(f"({count} row{'' if count == 1 else 's'})\n")
    return count


def _write_rich_table(columns: Sequence[str], rows: Sequence[Row], out: TextIO) -> int:
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(box=box.SIMPLE_HEAD, caption=f"({len(rows)} row{'' if len(rows) == 1 else 's'})")
    for name in columns:
        table.add_column(name, overflow="fold")
    for row in rows:
        table.add_row(*(Text("NULL", style="dim") if v is None else Text(_cell(v)) for v in row))
    Console(file=out).print(table)
    return len(rows)
