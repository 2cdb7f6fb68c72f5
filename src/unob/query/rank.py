"""The second ranking stage of `unob search`, pure: a boost for pages named like the query.

FTS5's bm25() ranks the candidates first (:mod:`unob.query.search`).  Its
column weights multiply term frequencies *before* bm25 saturates them, so a
word that a page's text repeats often scores about the same whether or not
it is also in the title: on a documentation site every page of the asyncio
chapter scores alike for ``asyncio``.  One signal separates the page about a
thing from the pages that mention it, on any site: its URL is named after it
(``/library/asyncio.html``, ``/wiki/Asyncio``, ``/docs/asyncio/``).  So the
candidates whose URL *slug* (last path segment, without a file extension or
an ``index`` file name) has exactly the query's words get their bm25 score
multiplied by ``1 + SLUG_BOOST``.

On python3-doc (30 queries with a known best page, bench/search.py) the boost
lifts the best page to first place in 26 of 30 queries instead of 18 (mean
reciprocal rank 0.92 instead of 0.76); boosting title matches as well made
no further difference, so only the slug counts.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import TypeVar

from unob.query.parse import Query

SLUG_BOOST = 0.25
# Enough candidates that the page named like the query is among them even
# when a dozen siblings out-score it on bm25 alone.
MIN_CANDIDATES = 50
_FILE_EXTENSIONS = re.compile(r"\.(?:s?html?|php\d?|aspx?|jsp|cgi|md|txt)$", re.I)
_INDEX_NAMES = frozenset({"index", "default", "home"})
_WORD = re.compile(r"[^\W_]+")

T = TypeVar("T")


def words(text: str) -> list[str]:
    """Case- and accent-folded words, split like FTS5's unicode61 tokenizer does."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _WORD.findall(plain)


def slug_words(url: str) -> list[str]:
    """Words of a URL's last path segment: ``.../library/asyncio-task.html`` -> asyncio, task.

    A trailing slash or an ``index.html`` names the directory instead.
    """
    path = url.split("://", 1)[-1]
    path = path.split("#", 1)[0].split("?", 1)[0]
    segments = [s for s in path.split("/")[1:] if s]
    while segments:
        last = _FILE_EXTENSIONS.sub("", segments[-1])
        if last.casefold() not in _INDEX_NAMES:
            return words(last)
        segments.pop()
    return []


def query_words(query: Query) -> list[str]:
    """The words a page must be named with to be boosted: the query's positive words."""
    return [w for part in (*query.words, *query.phrases) for w in words(part)]


def boost(url: str, wanted: Sequence[str]) -> float:
    """The factor a candidate's bm25 score is multiplied by (1 = no boost)."""
    return 1.0 + SLUG_BOOST if wanted and slug_words(url) == list(wanted) else 1.0


def rerank(
    candidates: Sequence[T], query: Query, url: Callable[[T], str], score: Callable[[T], float]
) -> list[T]:
    """``candidates`` (bm25 order, higher score = better) in their final order."""
    wanted = query_words(query)
    return sorted(candidates, key=lambda c: score(c) * boost(url(c), wanted), reverse=True)
