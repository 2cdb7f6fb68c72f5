"""unob: a polite, resumable two-phase web crawler and summarizer on SQLite.

The crawl phase (:mod:`unob.crawler`) writes a crawl database; the summarize
phase (:mod:`unob.summarizer`) turns it into a summary database; exports
(:mod:`unob.export`) and queries (:mod:`unob.query`) read the summary.  The
phases never import each other: they meet only in the databases.
"""

from unob.native import use_sources

__version__ = "0.1.0"

# Before any compiled module is imported: stale or unwanted compiled modules
# give way to their sources (see unob.native).
use_sources()
