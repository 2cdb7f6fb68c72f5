"""The dataset's ``readable/`` directory (seed 001): one Markdown file per page.

Slugs follow the seed ("the domain and path are converted to lowercase
alphanumeric characters with underscores, truncated to 80 characters").
The reference implementation lets two URLs with one slug overwrite each
other (``/a?x=1`` and ``/a?x=2``, or ``/a-b`` and ``/a_b``); here the
second one gets ``_`` plus 8 hex digits of its URL's SHA-256 instead, kept
within the 80 characters.  The file system itself remembers which slugs are
taken, so memory does not grow with the number of pages.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from pathlib import Path
from typing import TextIO
from urllib.parse import urlsplit

from .records import PageRecord
from .text import collapse, iso_utc

__all__ = [
    "ALL_PAGES",
    "PAGE_SEPARATOR",
    "ReadableWriter",
    "render_page",
    "slug",
    "unique_slug",
]

SLUG_MAX = 80
ALL_PAGES = "all_pages"
#: Between pages in ``all_pages.md`` (a Markdown horizontal rule).
PAGE_SEPARATOR = "\n\n---\n\n"

_NOT_ALNUM = re.compile(r"[^a-zA-Z0-9]+")


def slug(url: str) -> str:
    """``netloc + path`` as lowercase ``[a-z0-9_]``, at most 80 characters.

    The query and fragment are not part of a slug (the seed names domain and
    path only); :func:`unique_slug` separates URLs that differ there.
    """
    try:
        parts = urlsplit(url)
        base = parts.netloc + parts.path
    except ValueError:
        base = url
    return _NOT_ALNUM.sub("_", base).strip("_").lower()[:SLUG_MAX] or "index"


def unique_slug(url: str, taken: Callable[[str], bool]) -> str:
    """A slug for ``url`` that ``taken`` does not report as used yet.

    ``all_pages`` is reserved for the combined file.  A colliding slug is
    shortened to make room for ``_`` and the first 8 hex digits of
    ``sha256(url)``; should that be taken too (the same URL exported twice
    with ``--all``), a counter follows.
    """
    first = slug(url)
    if first != ALL_PAGES and not taken(first):
        return first
    digest = hashlib.sha256(url.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    candidate = f"{first[: SLUG_MAX - 9]}_{digest}"
    counter = 1
    while taken(candidate):
        counter += 1
        suffix = f"_{digest}_{counter}"
        candidate = first[: SLUG_MAX - len(suffix)] + suffix
    return candidate


# Line starts that Markdown would read as structure (CommonMark §4): ATX
# headings, block quotes, list items, thematic breaks / setext underlines,
# code fences.  A backslash before the punctuation keeps them literal text.
_BLOCK_START = re.compile(r"^(#{1,6}(?:\s|$)|>|[-+*](?:\s|$)|(?:[-=*_]\s*){3,}$|`{3,}|~{3,})")
_ORDERED = re.compile(r"^(\d{1,9})([.)])(\s|$)")


def _paragraph(line: str) -> str:
    text = collapse(line)
    if _BLOCK_START.match(text):
        return "\\" + text
    return _ORDERED.sub(r"\1\\\2\3", text, count=1)


def render_page(page: PageRecord) -> str:
    """One page as Markdown: title, URL, description, counts, structure, content.

    The layout is the reference implementation's (reference/export-formats.md
    §C.2): ``# title``, ``**URL:**``, an optional ``**Description:**``,
    ``**Words:** N  |  **Crawled:** date``, ``## Page Structure`` with one
    bullet per heading indented by level, then ``## Content`` with one
    paragraph per content block.
    """
    content = page.content
    words = len(content.split())
    out = [f"# {collapse(page.title_or_h1) or page.url}", "", f"**URL:** {page.url}", ""]
    description = collapse(page.description)
    if description:
        out += [f"**Description:** {description}", ""]
    out += [f"**Words:** {words}  |  **Crawled:** {iso_utc(page.crawl_unix)}", ""]
    if page.headings:
        out += ["## Page Structure", ""]
        for heading in page.headings:
            indent = "  " * (min(max(heading.level, 1), 6) - 1)
            out.append(f"{indent}- **h{heading.level}:** {collapse(heading.text)}")
        out.append("")
    out += ["## Content", ""]
    paragraphs = [_paragraph(line) for line in content.splitlines() if line.strip()]
    out.append("\n\n".join(paragraphs))
    return "\n".join(out).rstrip("\n") + "\n"


class ReadableWriter:
    """Writes ``readable/{slug}.md`` per page and appends to ``all_pages.md``."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)
        self._all: TextIO = open(  # noqa: SIM115 - closed in close()
            directory / f"{ALL_PAGES}.md", "w", encoding="utf-8", newline="\n"
        )
        self._first = True

    def _taken(self, name: str) -> bool:
        return (self.directory / f"{name}.md").exists()

    def write(self, page: PageRecord) -> str:
        """Write one page; return the file name used."""
        text = render_page(page)
        name = unique_slug(page.url, self._taken) + ".md"
        (self.directory / name).write_text(text, encoding="utf-8", newline="\n")
        if not self._first:
            self._all.write(PAGE_SEPARATOR)
        self._all.write(text.rstrip("\n"))
        self._first = False
        return name

    def close(self) -> None:
        if not self._first:
            self._all.write("\n")
        self._all.close()
