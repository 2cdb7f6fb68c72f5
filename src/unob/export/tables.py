"""Streaming writers for the dataset's tables: Parquet, CSV or JSON Lines.

Rows arrive in batches and leave in batches; nothing holds a whole table.
Every table file is written even when it has no rows, so a consumer can
always open ``pages.<ext>`` and find the schema (the reference
implementation skipped empty tables; the seed does not say).

* Parquet: ``pyarrow.parquet.ParquetWriter``, one row group per flushed
  batch, Snappy compression (pyarrow's default, as the reference files).
* CSV: a header row, UTF-8, the csv module's default dialect (RFC 4180
  quoting, ``\\r\\n`` line ends); any text, newlines included, round-trips.
* JSON Lines: one ``json.dumps(row, ensure_ascii=False)`` per line; JSON
  escapes every control character, so a row is always one line.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Protocol

from .dataset import TableSpec

__all__ = ["TABLE_FORMATS", "TableWriter", "open_table"]

#: Dataset format name -> table file suffix.
TABLE_FORMATS = {"parquet": ".parquet", "csv": ".csv", "jsonl": ".jsonl"}

# A Parquet row group is flushed at whichever comes first.
_FLUSH_ROWS = 2048
_FLUSH_BYTES = 4 << 20


class TableWriter(Protocol):
    """A table file being written."""

    path: Path
    rows: int

    def write(self, rows: Iterable[dict[str, Any]]) -> None: ...

    def close(self) -> None: ...


def _approx_size(row: dict[str, Any]) -> int:
    return sum(len(v) if isinstance(v, str) else 8 for v in row.values())


class ParquetTable:
    def __init__(self, path: Path, spec: TableSpec) -> None:
        # 50 MB of libraries, loaded by this format only.
        import pyarrow as pa
        import pyarrow.parquet as pq

        self._from_pylist = pa.Table.from_pylist
        self.path = path
        self.rows = 0
        self._schema = spec.arrow_schema()
        self._writer = pq.ParquetWriter(path, self._schema, compression="snappy")
        self._pending: list[dict[str, Any]] = []
        self._pending_bytes = 0

    def write(self, rows: Iterable[dict[str, Any]]) -> None:
        for row in rows:
            self._pending.append(row)
            self._pending_bytes += _approx_size(row)
            if len(self._pending) >= _FLUSH_ROWS or self._pending_bytes >= _FLUSH_BYTES:
                self._flush()

    def _flush(self) -> None:
        if self._pending:
            self._writer.write_table(self._from_pylist(self._pending, schema=self._schema))
            self.rows += len(self._pending)
            self._pending = []
            self._pending_bytes = 0

    def close(self) -> None:
        self._flush()
        self._writer.close()


class CsvTable:
    def __init__(self, path: Path, spec: TableSpec) -> None:
        self.path = path
        self.rows = 0
        self._names = spec.names
        self._file = open(path, "w", encoding="utf-8", newline="")  # noqa: SIM115 - see close()
        self._writer = csv.writer(self._file)
        self._writer.writerow(self._names)

    def write(self, rows: Iterable[dict[str, Any]]) -> None:
        for row in rows:
            self._writer.writerow([row[name] for name in self._names])
            self.rows += 1

    def close(self) -> None:
        self._file.close()


class JsonlTable:
    def __init__(self, path: Path, spec: TableSpec) -> None:
        self.path = path
        self.rows = 0
        self._names = spec.names
        self._file = open(path, "w", encoding="utf-8", newline="\n")  # noqa: SIM115 - see close()

    def write(self, rows: Iterable[dict[str, Any]]) -> None:
        for row in rows:
            ordered = {name: row[name] for name in self._names}
            self._file.write(json.dumps(ordered, ensure_ascii=False) + "\n")
            self.rows += 1

    def close(self) -> None:
        self._file.close()


_WRITERS: dict[str, type[ParquetTable] | type[CsvTable] | type[JsonlTable]] = {
    "parquet": ParquetTable,
    "csv": CsvTable,
    "jsonl": JsonlTable,
}


def open_table(fmt: str, directory: Path, spec: TableSpec, name: str = "") -> TableWriter:
    """Start ``directory/<name or spec.name>.<ext>`` in the dataset format ``fmt``."""
    return _WRITERS[fmt](directory / f"{name or spec.name}{TABLE_FORMATS[fmt]}", spec)
