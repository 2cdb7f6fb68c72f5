"""SQLAlchemy Core tables of both databases: the public SQL contract.

The tables here are what the migrations create (a test checks that they
agree) and what ``docs/schema/`` is generated from: every column carries its
meaning, and what NULL means, in its ``comment``.  Conventions, shared by
both databases:

* times are integer Unix seconds, UTC, in ``*_unix_utc`` columns (with
  millisecond variants ``*_unix_ms`` where ordering within a second matters);
  durations are integer milliseconds in ``*_ms`` columns;
* UUIDs are 36-character lower-case TEXT (``uuid.uuid4()``'s ``str``): easy
  to read and to join across databases in the sqlite3 shell, DuckDB or pandas;
* enumerations are integers with a lookup table of the same name
  (``exit_code``, ``crawl_type``, ...) holding ``code, name, meaning``;
* URLs are stored without fragment, in the canonical form of
  :func:`unob.urls.canonicalize`, once, in ``url``; fragments live in
  separate ``*_fragment`` columns.
"""

from unob.schema.base import DATABASE_KINDS

__all__ = ["DATABASE_KINDS"]
