"""What one crawl log entry says, before the summary database is consulted (pure).

:func:`observe` turns a :class:`~unob.summarizer.crawlread.CrawlEntry` into an
:class:`Observed`: the :class:`~unob.summarizer.generations.Outcome` for the
generation decisions, the kind of generation it would make, the derived
content of a page, and the *content signature*, which decides
self-duplicates: two crawls of a URL with the same signature are the same
generation.

Signatures (xxh3_128 over a tagged, length-prefixed serialization):

* page: the text pile digest and the document description (seed 002: "same
  digest and same description"); a page whose body could not be read
  (corrupt storage) signs its SHA-256 instead;
* redirect: target URL, fragment and permanence;
* other file types (no text): MIME type, size and body SHA-256 if stored.

Choices (see ``docs/summarizer.md``): bodies are derived as HTML when their
MIME type is HTML, XML, any ``text/*`` or unknown; other stored or unstored
files become ``file`` generations without text.  A 404/410 is GONE, a 304 is
NOT_MODIFIED, a redirect with its ``redirect`` row is CONTENT, and every other
outcome (failures, 5xx, 429, robots disallow, too large...) is FAILURE.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass

import xxhash

from unob.codes import ExitCode
from unob.summarizer.crawlread import CrawlEntry
from unob.summarizer.document import Derived, DocumentDescription
from unob.summarizer.extract import derive_html
from unob.summarizer.generations import Outcome

__all__ = ["Observed", "description_fields", "is_html_like", "observe"]

_GONE = (int(ExitCode.FILE_NOT_FOUND), int(ExitCode.FILE_GONE))
_CONTENT_WITH_FILE = (
    int(ExitCode.FILE_INGESTED),
    int(ExitCode.NOINDEX),
    int(ExitCode.FILE_OF_UNKNOWN_TYPE),
)
_HTML_MIMES = frozenset({"application/xhtml+xml", "application/xml", "application/html"})

# The description fields that take part in the signature.  A fixed list, so
# a field added to DocumentDescription later does not turn every recrawl into
# a new generation.  word_count is left out: it follows from the text pile.
_SIGNED_FIELDS = (
    "title",
    "primary_headline",
    "description",
    "primary_language",
    "keywords",
    "author",
    "image",
    "category",
    "published_unix_utc",
    "modified_unix_utc",
    "canonical_url",
    "indexiness",
    "robots",
)


@dataclass(slots=True)
class Observed:
    """One page-crawl entry, interpreted."""

    entry: CrawlEntry
    outcome: Outcome
    #: ``page``, ``file`` or ``redirect`` for CONTENT, else None.
    kind: str | None = None
    signature: bytes | None = None
    derived: Derived | None = None
    #: ``derived.text_pile.digest()``, computed once.
    digest: bytes | None = None
    derive_error: str | None = None

    @property
    def noindex(self) -> bool:
        """The page asked not to be indexed (crawler flag, exit code or meta robots)."""
        entry = self.entry
        if entry.exit_code == ExitCode.NOINDEX:
            return True
        if entry.file is not None and entry.file.robots_noindex:
            return True
        return self.derived is not None and "noindex" in self.derived.description.robots


def is_html_like(mime_type: str | None) -> bool:
    """True for MIME types whose bodies are derived as HTML (unknown counts as HTML)."""
    if mime_type is None:
        return True
    mime = mime_type.strip().lower()
    return not mime or mime.startswith("text/") or mime in _HTML_MIMES or mime.endswith("+xml")


def description_fields(description: DocumentDescription) -> dict[str, object]:
    """The signed fields of a description, JSON-ready."""
    return {name: getattr(description, name) for name in _SIGNED_FIELDS}


def _sign(*parts: str | bytes) -> bytes:
    hasher = xxhash.xxh3_128()
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        # Length prefixes: ("ab", "c") and ("a", "bc") must not sign alike.
        hasher.update(len(data).to_bytes(8, "little"))
        hasher.update(data)
    return hasher.digest()


def page_signature(digest: bytes, description: DocumentDescription) -> bytes:
    """Signature of a page: its text pile digest and its description."""
    fields = json.dumps(description_fields(description), sort_keys=True)
    return _sign("page", digest, fields)


def _body(entry: CrawlEntry) -> bytes:
    file = entry.file
    assert file is not None and file.data is not None
    if file.compression == "zlib":
        return zlib.decompress(file.data)
    if file.compression in (None, "none"):
        return bytes(file.data)
    raise ValueError(f"unknown body compression {file.compression!r}")


def _observe_page(entry: CrawlEntry) -> Observed:
    file = entry.file
    assert file is not None
    try:
        derived = derive_html(_body(entry), entry.url, file.charset)
    except Exception as exc:  # one bad file must never stop a batch
        error = f"{type(exc).__name__}: {exc}"[:500]
        signature = _sign("page-error", file.sha256 or "", error)
        return Observed(entry, Outcome.CONTENT, "page", signature, derive_error=error)
    digest = derived.text_pile.digest()
    signature = page_signature(digest, derived.description)
    return Observed(entry, Outcome.CONTENT, "page", signature, derived, digest)


def observe(entry: CrawlEntry) -> Observed:
    """Interpret a page-crawl entry; derives the page's content when it has a body."""
    code = entry.exit_code
    if entry.redirect is not None:
        red = entry.redirect
        signature = _sign(
            "redirect", red.to_url, red.to_fragment or "", "1" if red.is_permanent else "0"
        )
        return Observed(entry, Outcome.CONTENT, "redirect", signature)
    if code == ExitCode.FILE_DID_NOT_CHANGE:
        return Observed(entry, Outcome.NOT_MODIFIED)
    if code in _GONE:
        return Observed(entry, Outcome.GONE)
    file = entry.file
    if file is None or code not in _CONTENT_WITH_FILE:
        return Observed(entry, Outcome.FAILURE)
    if file.data is not None and is_html_like(file.mime_type):
        return _observe_page(entry)
    signature = _sign("file", file.mime_type or "", str(file.size), file.sha256 or "")
    return Observed(entry, Outcome.CONTENT, "file", signature)
