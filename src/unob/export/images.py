"""Image checks for the dataset export: size, file type, perceptual hash, dedup.

Seed 001: images smaller than 100 px are excluded (configurable), near
duplicates are detected by perceptual hashing, files are named by the
SHA-256 of their content.  Decisions where the seed is silent:

* "smaller than 100 px" means width *or* height below the minimum (the
  reference implementation's rule); an image Pillow cannot read (SVG, a
  truncated file) has no known size and is kept, as the reference did.
* Near duplicate = 64-bit pHash (``imagehash.phash``) within a Hamming
  distance of :data:`DEFAULT_MAX_DISTANCE` (2 bits) of an image already
  kept.  The reference demanded equal hashes, which misses a re-encoded or
  slightly resized copy (0-2 bits apart); a wider radius starts merging
  different pictures drawn in one style (4 bits apart in the demo site),
  and wrongly dropping a picture costs more than keeping a near copy.
* The seen hashes live in an SQLite file, indexed by pigeonhole bands (two
  hashes within distance d agree exactly on at least one of d+1 bands), so
  memory stays flat however many images an export has.
"""

from __future__ import annotations

import io
import mimetypes
import re
import sqlite3
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from urllib.parse import urlsplit

__all__ = [
    "DEFAULT_MAX_DISTANCE",
    "DEFAULT_MIN_SIZE",
    "ImageProbe",
    "NearDuplicateIndex",
    "SeenSet",
    "extension_for",
    "probe_image",
]

DEFAULT_MIN_SIZE = 100
DEFAULT_MAX_DISTANCE = 2

# Hashing decodes the image; beyond this many pixels it is skipped (the image
# is kept, unhashed) rather than risk a decompression bomb's memory.
_MAX_HASH_PIXELS = 64_000_000

_PIL_EXTENSIONS = {
    "JPEG": ".jpg",
    "PNG": ".png",
    "GIF": ".gif",
    "WEBP": ".webp",
    "BMP": ".bmp",
    "TIFF": ".tif",
    "ICO": ".ico",
    "AVIF": ".avif",
}
_SUFFIX = re.compile(r"^\.[a-z0-9]{1,5}$")


@dataclass(frozen=True, slots=True)
class ImageProbe:
    """What the export needs to know about an image's bytes."""

    width: int | None
    height: int | None
    #: Pillow's format name (``JPEG``, ``PNG``, ...) or ``""`` if unreadable.
    format: str
    #: 64-bit pHash as an unsigned integer, or None when not computed.
    phash: int | None

    def too_small(self, min_size: int) -> bool:
        """True when a known side is below ``min_size`` pixels."""
        return (self.width is not None and self.width < min_size) or (
            self.height is not None and self.height < min_size
        )


def probe_image(data: bytes) -> ImageProbe:
    """Size, format and pHash of an image; unreadable data gives an empty probe."""
    # Imported here: imagehash brings numpy and scipy (20 MB), which only
    # dataset exports with images need.
    import imagehash
    from PIL import Image

    try:
        with warnings.catch_warnings():
            # Pillow warns about what it meets in other people's files (palette
            # transparency, huge images: the pixel count is checked below);
            # none of it is actionable here.
            warnings.simplefilter("ignore")
            with Image.open(io.BytesIO(data)) as image:
                width, height = image.size
                fmt = image.format or ""
                if width * height > _MAX_HASH_PIXELS:
                    return ImageProbe(width, height, fmt, None)
                image.draft("L", (256, 256))  # JPEG: decode at reduced size, much faster
                phash = int(str(imagehash.phash(image)), 16)
                return ImageProbe(width, height, fmt, phash)
    except Exception:
        return ImageProbe(None, None, "", None)


def extension_for(probe: ImageProbe, mime_type: str, url: str) -> str:
    """File extension: from the decoded format, else the MIME type, else the URL."""
    if probe.format in _PIL_EXTENSIONS:
        return _PIL_EXTENSIONS[probe.format]
    if probe.format:
        return "." + probe.format.lower()
    if mime_type:
        guessed = mimetypes.guess_extension(mime_type.split(";")[0].strip().lower())
        if guessed:
            return guessed
    try:
        suffix = PurePosixPath(urlsplit(url).path).suffix.lower()
    except ValueError:
        suffix = ""
    return suffix if _SUFFIX.match(suffix) else ".bin"


def _bands(distance: int) -> list[tuple[int, int]]:
    """(shift, width) of ``distance + 1`` bands covering 64 bits."""
    count = distance + 1
    out: list[tuple[int, int]] = []
    shift = 0
    for index in range(count):
        width = 64 // count + (1 if index < 64 % count else 0)
        out.append((shift, width))
        shift += width
    return out


def _signed(value: int) -> int:
    """SQLite integers are signed 64-bit."""
    return value - (1 << 64) if value >= 1 << 63 else value


class NearDuplicateIndex:
    """Remembers kept pHashes; tells whether a new one is a near duplicate."""

    def __init__(self, db: sqlite3.Connection, max_distance: int = DEFAULT_MAX_DISTANCE) -> None:
        if not 0 <= max_distance < 64:
            raise ValueError("max_distance must be between 0 and 63")
        self._db = db
        self._distance = max_distance
        self._bands = _bands(max_distance)
        db.execute(
            "CREATE TABLE IF NOT EXISTS phash_band (band INTEGER, value INTEGER, hash INTEGER)"
        )
        db.execute("CREATE INDEX IF NOT EXISTS phash_band_lookup ON phash_band (band, value)")

    def _keys(self, phash: int) -> list[tuple[int, int]]:
        return [
            (band, _signed((phash >> shift) & ((1 << width) - 1)))
            for band, (shift, width) in enumerate(self._bands)
        ]

    def keep(self, hashes: Sequence[int | None]) -> list[bool]:
        """For each hash in order: True if kept (no near duplicate seen before).

        ``None`` (no hash) is always kept.  Hashes kept earlier in the same
        call count as seen.  One query finds the candidates of the whole batch.
        """
        known = [h for h in hashes if h is not None]
        candidates: set[int] = set()
        keys = sorted({key for h in known for key in self._keys(h)})
        for start in range(0, len(keys), 400):  # stay under SQLite's variable limit
            chunk = keys[start : start + 400]
            where = " OR ".join("(band = ? AND value = ?)" for _ in chunk)
            params = [v for key in chunk for v in key]
            rows = self._db.execute(f"SELECT hash FROM phash_band WHERE {where}", params)
            candidates.update(h & ((1 << 64) - 1) for (h,) in rows)
        kept_now: list[int] = []
        result: list[bool] = []
        for phash in hashes:
            if phash is None:
                result.append(True)
                continue
            near = any(
                (phash ^ other).bit_count() <= self._distance for other in (*candidates, *kept_now)
            )
            result.append(not near)
            if not near:
                kept_now.append(phash)
        self._db.executemany(
            "INSERT INTO phash_band (band, value, hash) VALUES (?, ?, ?)",
            [(band, value, _signed(h)) for h in kept_now for band, value in self._keys(h)],
        )
        return result


class SeenSet:
    """A set of strings kept in SQLite rather than in memory."""

    def __init__(self, db: sqlite3.Connection, name: str) -> None:
        if not name.isidentifier():
            raise ValueError(f"bad table name {name!r}")
        self._db = db
        self._table = f"seen_{name}"
        db.execute(f"CREATE TABLE IF NOT EXISTS {self._table} (key TEXT PRIMARY KEY) WITHOUT ROWID")

    def add_new(self, keys: Sequence[str]) -> list[bool]:
        """For each key in order: True the first time it is seen (then remembered)."""
        unique = sorted(set(keys))
        seen: set[str] = set()
        for start in range(0, len(unique), 500):
            chunk = unique[start : start + 500]
            marks = ",".join("?" * len(chunk))
            seen.update(
                k
                for (k,) in self._db.execute(
                    f"SELECT key FROM {self._table} WHERE key IN ({marks})", chunk
                )
            )
        result: list[bool] = []
        for key in keys:
            fresh = key not in seen
            result.append(fresh)
            seen.add(key)
        fresh_keys = [(k,) for k, new in zip(keys, result, strict=True) if new]
        self._db.executemany(f"INSERT INTO {self._table} (key) VALUES (?)", fresh_keys)
        return result
