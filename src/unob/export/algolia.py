"""Algolia Netlify crawler records (seed 003), split under a byte budget.

Every field of the seed's schema is produced.  Decisions where the seed is
silent (reference/export-formats.md §B, "Not found"):

* **Content** is the page's main content (text pile ``text``; the other
  visible text only when main-content detection found nothing), whitespace
  collapsed to single spaces as in the seed's example.
* **Splitting** happens first at heading sections (the hierarchical
  template: one section per heading, hierarchy ``lvl0`` = h1, one level
  shifted from DocSearch), then inside a section at word boundaries so the
  *whole* record, serialized as compact UTF-8 JSON (what Algolia measures),
  stays within ``max_record_bytes`` (default 10,000: the Crawler helper's
  ``maxRecordBytes`` and the smallest plan limit).  A word longer than a
  record is cut between characters.
* A heading with no text after it still gets a record (content ``""``), so
  every heading is searchable; text before the first heading gets a record
  only if there is some.  A page with no text at all gets one record.
* ``position`` counts a page's records from 0; ``objectID`` is
  ``url#position`` (the seed's example); ``recordUrl`` is ``url#anchor`` of
  the section's heading when it has an id, else ``url``.
* ``hierarchy`` lists the section's heading path (h1 first), ``hierarchyObj``
  maps ``lvlN`` to the h(N+1) in force, ``currentHierarchy`` is the heading
  that opened the section; all three are omitted before the first heading.
* ``contentLength`` is the UTF-8 size of ``content`` in bytes (the seed says
  "in bytes"); ``publishedDate``/``modifiedDate`` are Unix seconds
  (Algolia's guidance for sortable dates).
* Optional fields without a value are omitted (the seed: "can be missing").
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlsplit

from ..errors import ExportError, UsageError
from .records import HeadingRef, PageRecord
from .text import collapse, utf8_len

__all__ = [
    "DEFAULT_MAX_RECORD_BYTES",
    "INDEX_SETTINGS",
    "MIN_MAX_RECORD_BYTES",
    "Section",
    "algolia_records",
    "record_size",
    "sections",
    "serialize",
    "url_depth",
]

DEFAULT_MAX_RECORD_BYTES = 10_000
#: Below this a record cannot hold a long URL three times (url, objectID, recordUrl).
MIN_MAX_RECORD_BYTES = 1_000

#: The seed: every index is created with these settings, to show one hit per page.
INDEX_SETTINGS: dict[str, Any] = {"distinct": True, "attributeForDistinct": "url"}

#: Content gets at least this share of a record; longer metadata is shortened.
_MIN_CONTENT_SHARE = 4
# Upper bounds used when measuring a record before its number fields are known.
_POSITION_PLACEHOLDER = 9_999_999


def serialize(record: dict[str, Any]) -> str:
    """Compact JSON, non-ASCII kept as is: the bytes Algolia stores and counts."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def record_size(record: dict[str, Any]) -> int:
    """Size of a record in bytes, as sent to Algolia."""
    return utf8_len(serialize(record))


def url_depth(url: str) -> int:
    """The number of ``/`` in the URL's path; an empty path counts as ``/``.

    The seed: ``http://localhost/`` = 1, ``/foo`` = 1, ``/foo/`` = 2.  Query
    and fragment are ignored.
    """
    try:
        path = urlsplit(url).path
    except ValueError:
        path = ""
    return (path or "/").count("/")


@dataclass(slots=True)
class Section:
    """A run of content under one heading (or before the first one)."""

    heading: HeadingRef | None
    #: Heading text in force per level, h1..h6 (``None`` where there is none).
    levels: tuple[str | None, ...]
    lines: list[str] = field(default_factory=list)


def _level_index(heading: HeadingRef) -> int:
    """h1 -> 0 (``lvl0``) ... h6 -> 5."""
    return min(max(heading.level, 1), 6) - 1


def _apply(levels: list[str | None], heading: HeadingRef) -> None:
    """A heading sets its level (an empty one unsets it) and clears every deeper one."""
    index = _level_index(heading)
    levels[index] = collapse(heading.text) or None
    for deeper in range(index + 1, 6):
        levels[deeper] = None


def sections(page: PageRecord) -> list[Section]:
    """Split the page's content lines at its headings.

    The content is one line per block with headings inline; headings are
    matched to lines in document order.  A heading that is not in the
    content (in a header or sidebar) still updates the hierarchy when a
    later heading is found, as it came earlier in the document.
    """
    headings = page.headings
    # Heading text -> its positions in document order, to find the next match fast.
    wanted: dict[str, list[int]] = {}
    for index, heading in enumerate(headings):
        wanted.setdefault(collapse(heading.text), []).append(index)
    levels: list[str | None] = [None] * 6
    current = Section(None, tuple(levels))
    out = [current]
    next_heading = 0
    for raw_line in page.text.content.splitlines():
        line = collapse(raw_line)
        if not line:
            continue
        match = _find(wanted, line, next_heading)
        if match is None:
            current.lines.append(line)
            continue
        for skipped in headings[next_heading:match]:
            _apply(levels, skipped)
        _apply(levels, headings[match])
        next_heading = match + 1
        current = Section(headings[match], tuple(levels))
        out.append(current)
    if not out[0].lines and len(out) > 1:
        del out[0]
    return out


def _find(wanted: dict[str, list[int]], line: str, start: int) -> int | None:
    """The first heading at or after ``start`` whose text is ``line``."""
    positions = wanted.get(line)
    if not positions:
        return None
    found = bisect.bisect_left(positions, start)
    return positions[found] if found < len(positions) else None


def _base_record(page: PageRecord) -> dict[str, Any]:
    """The page-level fields, in the seed's order; content fields come later."""
    record: dict[str, Any] = {"objectID": "", "url": page.url}
    optional: tuple[tuple[str, Any], ...] = (
        ("lang", page.language),
        ("title", collapse(page.title)),
        ("description", collapse(page.description)),
        ("keywords", [k for k in (collapse(k) for k in page.keywords) if k]),
        ("image", page.image),
        ("author", collapse(page.author)),
        ("publishedDate", page.published_unix),
        ("modifiedDate", page.modified_unix),
        ("category", collapse(page.category)),
    )
    for key, value in optional:
        if value is not None and value != "" and value != []:
            record[key] = value
    record["urlDepth"] = url_depth(page.url)
    return record


def _section_fields(url: str, levels: Sequence[str | None], section: Section) -> dict[str, Any]:
    """hierarchy, hierarchyObj, currentHierarchy and recordUrl of a section."""
    fields: dict[str, Any] = {}
    path = [text for text in levels if text is not None]
    if path:
        fields["hierarchy"] = path
        fields["hierarchyObj"] = {f"lvl{i}": text for i, text in enumerate(levels) if text}
    heading = section.heading
    if heading is not None:
        fields["currentHierarchy"] = levels[_level_index(heading)] or ""
    anchor = heading.anchor if heading is not None else ""
    fields["recordUrl"] = f"{url}#{quote(anchor, safe=_FRAGMENT_SAFE)}" if anchor else url
    return fields


# RFC 3986 §3.5: a fragment may hold pchar, "/" and "?" unencoded.
_FRAGMENT_SAFE = "!$&'()*+,;=:@/?-._~"


def _assemble(
    base: dict[str, Any], fields: dict[str, Any], content: str, position: int
) -> dict[str, Any]:
    """A record with every field in the seed's order."""
    record = dict(base)
    record["objectID"] = f"{base['url']}#{position}"
    record["content"] = content
    for key in ("hierarchy", "hierarchyObj", "currentHierarchy"):
        if key in fields:
            record[key] = fields[key]
    record["contentLength"] = utf8_len(content)
    record["recordUrl"] = fields["recordUrl"]
    record["position"] = position
    return record


# What json.dumps(ensure_ascii=False) escapes: quote, backslash, C0 controls.
_JSON_ESCAPED = re.compile(r'[\x00-\x1f"\\]')


def _escaped_len(text: str) -> int:
    """Bytes ``text`` takes inside a JSON string (quotes, escapes, UTF-8).

    Called once per word of every page, so the common cases skip json.dumps.
    """
    if _JSON_ESCAPED.search(text) is None:
        return len(text) if text.isascii() else utf8_len(text)
    return utf8_len(json.dumps(text, ensure_ascii=False)) - 2


def _chunks(content: str, available: int) -> Iterator[str]:
    """Cut content at spaces into pieces of at most ``available`` JSON bytes."""
    if not content:
        yield ""
        return
    piece: list[str] = []
    size = 0
    for word in content.split(" "):
        cost = _escaped_len(word)
        if cost > available:  # a single word larger than a record: cut it
            if piece:
                yield " ".join(piece)
                piece, size = [], 0
            yield from _cut_word(word, available)
            continue
        extra = cost + (1 if piece else 0)
        if size + extra > available:
            yield " ".join(piece)
            piece, size = [word], cost
        else:
            piece.append(word)
            size += extra
    if piece:
        yield " ".join(piece)


def _cut_word(word: str, available: int) -> Iterator[str]:
    start, size = 0, 0
    for index, char in enumerate(word):
        cost = _escaped_len(char)
        if size + cost > available:
            yield word[start:index]
            start, size = index, 0
        size += cost
    if start < len(word):
        yield word[start:]


def _largest(record: dict[str, Any]) -> tuple[int, str, bool] | None:
    """(JSON size, key, inside a one-item list?) of the largest shortenable value."""
    best: tuple[int, str, bool] | None = None
    for key, value in record.items():
        if key in _NEVER_SHORTENED:
            continue
        inner = isinstance(value, list) and len(value) == 1
        item = value[0] if inner else value
        if isinstance(item, str | list) and len(item) > 1:
            size = utf8_len(json.dumps(item, ensure_ascii=False))
            if best is None or size > best[0]:
                best = (size, key, inner)
    return best


def _halve(record: dict[str, Any], key: str, inner: bool) -> None:
    value = record[key]
    if inner:
        record[key] = [value[0][: len(value[0]) // 2]]
    else:
        record[key] = value[: len(value) // 2]


_NEVER_SHORTENED = frozenset({"objectID", "url", "urlDepth", "publishedDate", "modifiedDate"})


def _fit_metadata(
    page_base: dict[str, Any], page: PageRecord, section: Section, budget: int
) -> tuple[dict[str, Any], dict[str, Any], int]:
    """The section's metadata, shortened until content has its share of a record.

    Only needed for pages with kilobytes of description, keywords or heading
    text: losing the tail of those beats a record Algolia rejects.  The
    largest value is halved until the content gets a quarter of the budget.
    Heading texts are shortened in ``levels``, so ``hierarchy``,
    ``hierarchyObj`` and ``currentHierarchy`` stay consistent.
    """
    base = page_base
    levels = list(section.levels)
    while True:
        fields = _section_fields(page.url, levels, section)
        probe = _assemble(base, fields, "", _POSITION_PLACEHOLDER)
        # contentLength is at most the content's JSON size, itself < budget.
        probe["contentLength"] = budget
        available = budget - record_size(probe)
        if available >= budget // _MIN_CONTENT_SHARE:
            return base, fields, available
        in_base = _largest(base)
        level = max(
            (i for i, text in enumerate(levels) if text is not None and len(text) > 1),
            key=lambda i: utf8_len(levels[i] or ""),
            default=None,
        )
        level_size = -1 if level is None else utf8_len(levels[level] or "")
        if in_base is not None and in_base[0] >= level_size:
            base = dict(base)
            _halve(base, in_base[1], in_base[2])
        elif level is not None:
            text = levels[level] or ""
            levels[level] = text[: len(text) // 2]
        elif available > 0:
            return base, fields, available
        else:
            raise ExportError(f"an Algolia record for {page.url} cannot fit in {budget} bytes")


def algolia_records(
    page: PageRecord, max_record_bytes: int = DEFAULT_MAX_RECORD_BYTES
) -> list[dict[str, Any]]:
    """All records of one page, each at most ``max_record_bytes`` serialized."""
    if max_record_bytes < MIN_MAX_RECORD_BYTES:
        raise UsageError(f"--max-record-bytes must be at least {MIN_MAX_RECORD_BYTES}")
    page_base = _base_record(page)
    records: list[dict[str, Any]] = []
    for section in sections(page):
        base, fields, available = _fit_metadata(page_base, page, section, max_record_bytes)
        content = " ".join(section.lines)  # lines are collapsed and non-empty
        for chunk in _chunks(content, available):
            records.append(_assemble(base, fields, chunk, len(records)))
    return records
