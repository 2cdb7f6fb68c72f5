"""Helpers for the export tests: page records and bodies built in memory."""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Callable, Collection, Iterator, Sequence
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
from PIL import Image, ImageDraw

from unob.export.algolia import DEFAULT_MAX_RECORD_BYTES, record_size
from unob.export.bodies import Body, StoredImage
from unob.export.records import HeadingRef, ImageRef, LinkRef, PageRecord, TextFields
from unob.urls import origin_of


class MemoryBodies:
    """A :class:`~unob.export.bodies.BodySource` over dicts."""

    def __init__(
        self,
        html: dict[str, bytes] | None = None,
        images: dict[str, tuple[bytes, str]] | None = None,
    ) -> None:
        self.html = html or {}
        self.image_files = images or {}
        self.html_queries = 0

    def html_bodies(self, sha256s: Collection[str]) -> Iterator[Body]:
        self.html_queries += 1
        for sha in sorted(set(sha256s)):
            if sha in self.html:
                yield Body(sha, self.html[sha])

    def images(self, urls: Sequence[str]) -> Iterator[StoredImage]:
        for url in urls:
            if url in self.image_files:
                data, mime = self.image_files[url]
                yield StoredImage(url, data, mime)


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def picture(
    width: int, height: int, *, seed: int = 0, fmt: str = "PNG", quality: int = 90
) -> bytes:
    """A picture with structure (so pHash is meaningful), deterministic per seed."""
    image = Image.new("RGB", (width, height), (240, 240, 240))
    draw = ImageDraw.Draw(image)
    for i in range(8):
        x = (seed * 37 + i * 53) % max(width, 1)
        y = (seed * 91 + i * 29) % max(height, 1)
        colour = ((seed * 50 + i * 30) % 256, (i * 70) % 256, (seed * 20 + 90) % 256)
        draw.rectangle([x, y, x + width // 3, y + height // 4], fill=colour)
    draw.ellipse([width // 4, height // 4, width // 2, height // 2], fill=(10, 10, 10))
    buffer = io.BytesIO()
    options = {"quality": quality} if fmt == "JPEG" else {}
    image.save(buffer, fmt, **options)
    return buffer.getvalue()


def make_page(
    key: int = 1, url: str = "https://example.org/docs/page", **changes: object
) -> PageRecord:
    """A typical article page; keyword arguments replace fields."""
    base = PageRecord(
        key=key,
        url=url,
        crawl_unix=1_780_000_000,
        original_url="http://example.org/old",
        title="A page about tide pools",
        description="Anemones, limpets and hermit crabs.",
        language="en",
        keywords=("tide pools", "anemones", "ocean"),
        author="Mara Quill",
        image="https://example.org/images/anemone.png",
        category="Nature",
        published_unix=1_773_477_000,
        modified_unix=1_773_996_000,
        http_status=200,
        response_time_ms=12,
        size_bytes=2048,
        mime_type="text/html",
        headings=(
            HeadingRef(1, "Tide pools", "top"),
            HeadingRef(2, "Who lives there", "who"),
            HeadingRef(3, "Anemones", ""),
            HeadingRef(2, "Visiting", "visiting"),
        ),
        images=(
            ImageRef("https://example.org/images/anemone.png", "An anemone"),
            ImageRef("https://example.org/images/crab.png", ""),
        ),
        links=(
            LinkRef("https://example.org/", "Home", "a", "in"),
            LinkRef("https://other.example/", "Elsewhere", "a", "out"),
            LinkRef("mailto:someone@example.org", "Mail", "a", "out"),
            LinkRef("https://example.org/next", "", "link", "in"),
        ),
        text=TextFields(
            text="Tide pools\nTwice a day the sea withdraws.\nWho lives there\n"
            "Anemones, limpets and crabs.\nAnemones\nThey close up.\nVisiting\nPut stones back.",
            secondary_text="Home Elsewhere",
            big_headlines="Tide pools\nWho lives there\nAnemones\nVisiting",
        ),
        raw_html_sha256="",
    )
    fields = {name: getattr(base, name) for name in base.__dataclass_fields__}
    fields.update(changes)
    return PageRecord(**fields)  # type: ignore[arg-type]


def read_table(path: Path) -> list[dict[str, object]]:
    """Read a dataset table with the consumer its format is meant for."""
    if path.suffix == ".parquet":
        rows: list[dict[str, object]] = pq.read_table(path).to_pylist()
        return rows
    if path.suffix == ".csv":
        with open(path, encoding="utf-8", newline="") as handle:
            loaded: list[dict[str, object]] = list(csv.DictReader(handle))
        for row in loaded:
            if "word_count" in row:
                row["word_count"] = int(str(row["word_count"]))
        return loaded
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


class UrlIds:
    """Numbers URLs and their origins the way both databases' base tables want them."""

    def __init__(self, emit: Callable[[str, dict[str, Any]], None]) -> None:
        self._emit = emit
        self._origins: dict[str, int] = {}
        self._urls: dict[str, int] = {}

    def __call__(self, url: str) -> int:
        if url not in self._urls:
            origin = origin_of(url) or "http://invalid"
            if origin not in self._origins:
                scheme, _, rest = origin.partition("://")
                host, _, port = rest.partition(":")
                self._origins[origin] = len(self._origins) + 1
                self._emit(
                    "origin",
                    {
                        "origin_id": self._origins[origin],
                        "scheme": scheme,
                        "host": host,
                        "port": int(port) if port else None,
                        "str_origin": origin,
                    },
                )
            self._urls[url] = len(self._urls) + 1
            row = {"url_id": self._urls[url], "origin_id": self._origins[origin], "str_url": url}
            self._emit("url", row)
        return self._urls[url]


#: The sixteen fields of a Spideriment row, in the reference's order (seed 000).
FIELDS = [
    "original_url",
    "final_url",
    "original_canonical_url",
    "final_canonical_url",
    "crawl_timestamp",
    "language",
    "title",
    "headings",
    "description",
    "keywords",
    "author",
    "content_snippet",
    "content_snippet_quality",
    "image_alts",
    "link_texts",
    "total_links_count",
]


#: Seed 003's schema: field -> allowed JSON types; the first four are never missing.
SCHEMA: dict[str, tuple[type, ...]] = {
    "objectID": (str,),
    "url": (str,),
    "content": (str,),
    "recordUrl": (str,),
    "lang": (str,),
    "title": (str,),
    "description": (str,),
    "keywords": (list,),
    "image": (str,),
    "author": (str,),
    "publishedDate": (int,),
    "modifiedDate": (int,),
    "category": (str,),
    "urlDepth": (int,),
    "hierarchy": (list,),
    "hierarchyObj": (dict,),
    "currentHierarchy": (str,),
    "contentLength": (int,),
    "position": (int,),
}
REQUIRED = ("objectID", "url", "content", "recordUrl")


def check_schema(record: dict[str, object], budget: int = DEFAULT_MAX_RECORD_BYTES) -> None:
    assert set(record) <= set(SCHEMA), set(record) - set(SCHEMA)
    for key in REQUIRED:
        assert key in record
    for key, value in record.items():
        assert isinstance(value, SCHEMA[key]), (key, value)
        assert not isinstance(value, bool)
    assert record["objectID"] == f"{record['url']}#{record['position']}"
    assert str(record["recordUrl"]).startswith(str(record["url"]))
    assert record["contentLength"] == len(str(record["content"]).encode("utf-8"))
    if "hierarchyObj" in record:
        obj = record["hierarchyObj"]
        assert isinstance(obj, dict)
        assert set(obj) <= {f"lvl{i}" for i in range(7)}
        assert list(obj.values()) == record["hierarchy"]
    assert record_size(record) <= budget


def verify_manifest(root: Path) -> dict[str, object]:
    """Check a manifest against the files on disk; return it."""
    manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    assert list(manifest) == ["created_at", "total_files", "files"]
    on_disk = sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file() and p.relative_to(root).as_posix() != "manifest.json"
    )
    listed = [entry["path"] for entry in manifest["files"]]
    assert sorted(listed) == on_disk and len(listed) == len(set(listed))
    assert manifest["total_files"] == len(on_disk)
    for entry in manifest["files"]:
        data = (root / entry["path"]).read_bytes()
        assert entry["size_bytes"] == len(data)
        assert entry["sha256"] == hashlib.sha256(data).hexdigest()
    return manifest  # type: ignore[no-any-return]
