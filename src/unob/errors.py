"""Exceptions raised by unob's library code.

Every error that a user can cause (a bad flag, a bad config file, a database
of the wrong kind) derives from :class:`UnobError`; the CLI turns it into one
line on stderr and an exit status, never a traceback.  Failures of single URLs
during a crawl are *not* exceptions: they are data (a ``crawl_log_entry`` row
with an exit code).

::

    UnobError                      exit status 1 unless noted
    ├── UsageError                 exit status 2: bad option values, bad seeds
    │   ├── ConfigError            a config file that cannot be read or is invalid
    │   └── ReadOnlyViolation      `unob sql` was asked to change a database
    ├── DatabaseError              a database that cannot be opened or used
    │   ├── WrongDatabaseKind      a summary DB given as crawl DB, or the reverse
    │   ├── NotADatabase           a file that is not SQLite, or a missing file
    │   ├── SchemaTooNew           written by a newer unob than this one
    │   └── CrawlInProgress        another `unob crawl` is writing the crawl database
    └── ExportError                an export could not be written
"""

from __future__ import annotations


class UnobError(Exception):
    """Base class: a problem the user can act on, reported in one line."""

    exit_code = 1


class UsageError(UnobError):
    """Bad command-line usage or option values."""

    exit_code = 2


class ConfigError(UsageError):
    """A configuration file that cannot be read, parsed or validated."""


class DatabaseError(UnobError):
    """A database that cannot be opened, created or upgraded."""


class WrongDatabaseKind(DatabaseError):
    """The file is a unob database, but of the other kind (crawl vs summary)."""


class NotADatabase(DatabaseError):
    """The file is missing, or not an SQLite database made by unob."""


class SchemaTooNew(DatabaseError):
    """The database was written by a newer version of unob."""


class CrawlInProgress(DatabaseError):
    """Another ``unob crawl`` holds the crawl database's lock (see unob.crawler.dblock)."""


class ReadOnlyViolation(UsageError):
    """A statement given to `unob sql` would change the database.

    A usage error (exit 2) like the other statements `unob sql` refuses to run
    (several at once, none at all): the input is what is wrong, and nothing ran.
    """


class ExportError(UnobError):
    """An export could not be written."""
