"""Document metadata from ``<head>``: title, description, language, article meta, dates.

Sources, first hit wins (seed 001 and seed 003 name most of them):

* title: ``<title>``, ``og:title``, ``twitter:title``, then the first h1;
* description: ``meta name=description``, ``og:description``,
  ``twitter:description``;
* language: ``<html lang>`` (or ``xml:lang``, or ``<body lang>``), ``meta
  http-equiv=content-language``, ``og:locale``; never guessed from the text;
* keywords: ``meta name=keywords`` (comma separated) then ``article:tag``;
* author: ``meta name=author``, ``article:author``, JSON-LD ``author.name``;
* image: ``og:image``, ``twitter:image``; category: ``article:section``,
  ``product:category``;
* published / modified: ``article:published_time`` / ``article:modified_time``
  and their common aliases, then JSON-LD ``datePublished`` / ``dateModified``,
  then a ``<time datetime>`` inside an article.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime

from unob.summarizer import patterns as P
from unob.summarizer.walk import Walked

_PUBLISHED_KEYS = (
    "article:published_time",
    "og:article:published_time",
    "datepublished",
    "article.published",
    "published_time",
    "pubdate",
    "publishdate",
    "publish-date",
    "date",
    "dc.date.issued",
    "dc.date",
    "dcterms.created",
    "dcterms.date",
    "sailthru.date",
    "parsely-pub-date",
    "citation_publication_date",
)
_MODIFIED_KEYS = (
    "article:modified_time",
    "og:updated_time",
    "og:article:modified_time",
    "datemodified",
    "article.updated",
    "last-modified",
    "dcterms.modified",
    "dc.date.modified",
)
# An ISO 8601 date with optional time; also "2019-11-18 10:00:00" and
# compact offsets ("+0100") that fromisoformat accepts in Python 3.11.
_DATE_PREFIX = re.compile(r"\s*(\d{4})-?(\d{2})-?(\d{2})")


def parse_date(value: str) -> int | None:
    """Unix seconds UTC of an ISO 8601 date/time; naive times count as UTC."""
    value = value.strip()
    if not _DATE_PREFIX.match(value):
        return None
    candidate = value.replace("Z", "+00:00").replace("z", "+00:00")
    try:
        parsed = datetime.fromisoformat(candidate)
    except ValueError:
        match = _DATE_PREFIX.match(value)
        assert match is not None
        try:
            parsed = datetime(int(match[1]), int(match[2]), int(match[3]))
        except ValueError:
            return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    try:
        return int(parsed.timestamp())
    except (OverflowError, OSError, ValueError):
        return None


def normalize_language(tag: str | None) -> str | None:
    """A language tag lowercased with ``-`` separators (``en_US`` -> ``en-us``)."""
    if not tag:
        return None
    tag = tag.strip().replace("_", "-").lower().split(",")[0].strip()
    if not tag or len(tag) > 35 or not re.fullmatch(r"[a-z]{1,8}(-[a-z0-9]{1,8})*", tag):
        return None
    return tag


class MetaReader:
    """Lookups over the ``<meta>`` pairs and JSON-LD of one document."""

    def __init__(self, w: Walked) -> None:
        self._w = w
        self._first: dict[str, str] = {}
        self._all: dict[str, list[str]] = {}
        for key, content in w.meta:
            content = content.strip()
            if not content:
                continue
            self._first.setdefault(key, content)
            self._all.setdefault(key, []).append(content)
        self._json_ld: list[dict[str, object]] | None = None

    def first(self, *keys: str) -> str | None:
        for key in keys:
            value = self._first.get(key)
            if value:
                return value
        return None

    def every(self, key: str) -> list[str]:
        return self._all.get(key, [])

    def json_ld(self) -> list[dict[str, object]]:
        """The JSON-LD objects of the page, flattened from lists and @graph."""
        if self._json_ld is None:
            found: list[dict[str, object]] = []
            for raw in self._w.json_ld:
                try:
                    data = json.loads(raw)
                except (ValueError, RecursionError):
                    continue
                found.extend(_objects(data))
            self._json_ld = found
        return self._json_ld

    def json_ld_value(self, key: str) -> str | None:
        for obj in self.json_ld():
            value = obj.get(key)
            if isinstance(value, str) and value.strip():
                return value.strip()
        return None

    def json_ld_author(self) -> str | None:
        for obj in self.json_ld():
            name = _name_of(obj.get("author"))
            if name:
                return name
        return None

    def published(self) -> int | None:
        return self._date(_PUBLISHED_KEYS, "datePublished", in_article_only=True)

    def modified(self) -> int | None:
        return self._date(_MODIFIED_KEYS, "dateModified", in_article_only=False)

    def _date(self, keys: Iterable[str], ld_key: str, in_article_only: bool) -> int | None:
        for key in keys:
            value = self._first.get(key)
            if value:
                parsed = parse_date(value)
                if parsed is not None:
                    return parsed
        value = self.json_ld_value(ld_key) if self._w.json_ld else None
        if value:
            parsed = parse_date(value)
            if parsed is not None:
                return parsed
        if in_article_only:
            # A <time datetime> inside <article> or <main> dates the page only
            # when it is the only date there: a blog index has one per teaser,
            # and a sidebar of recent posts is outside.
            found = {
                value.strip()
                for value, mask in self._w.time_datetimes
                if mask & (P.IN_ARTICLE | P.IN_MAIN) and not mask & P.BOILERPLATE_LOCATIONS
            }
            if len(found) == 1:
                return parse_date(found.pop())
        return None


def _objects(data: object, depth: int = 0) -> Iterator[dict[str, object]]:
    if depth > 4:
        return
    if isinstance(data, list):
        for item in data:
            yield from _objects(item, depth + 1)
    elif isinstance(data, dict):
        yield data
        graph = data.get("@graph")
        if graph is not None:
            yield from _objects(graph, depth + 1)


def _name_of(value: object) -> str | None:
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, dict):
        name = value.get("name")
        return name.strip() or None if isinstance(name, str) else None
    if isinstance(value, list):
        names = [n for n in (_name_of(v) for v in value) if n]
        return ", ".join(names) if names else None
    return None


def keywords(reader: MetaReader) -> tuple[str, ...]:
    """``meta name=keywords`` (comma separated) then each ``article:tag``, deduplicated."""
    found: list[str] = []
    seen: set[str] = set()
    sources = [*reader.every("keywords"), *reader.every("news_keywords")]
    items = [part for raw in sources for part in raw.split(",")]
    items += [part for raw in reader.every("article:tag") for part in raw.split(",")]
    for item in items:
        item = " ".join(item.split())
        if item and item.lower() not in seen:
            seen.add(item.lower())
            found.append(item)
    return tuple(found)
