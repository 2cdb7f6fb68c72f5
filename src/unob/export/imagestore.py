"""The dataset's ``images`` table and ``images/{domain}/{sha256}{ext}`` files.

One row per distinct image, in the order pages reference them: an image URL
already listed (on any page) is not listed again, and an image whose bytes
are a near duplicate of one already kept, or which is smaller than the
minimum size, gets no row and no file (the seed: images are "deduplicated"
and small ones "excluded").  ``{domain}`` is the host of the page the image
was first found on (the seed's "organized by source domain"; the table
calls that page ``source_page``).  An image whose bytes are not available
(``--no-images``, or the crawl did not fetch images) is listed with an
empty ``image_path``, as the seed says for disabled downloads.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path

from ..urls import canonicalize, split_fragment
from .bodies import BodySource, StoredImage
from .dataset import ImageRow
from .images import (
    DEFAULT_MAX_DISTANCE,
    DEFAULT_MIN_SIZE,
    NearDuplicateIndex,
    SeenSet,
    extension_for,
    probe_image,
)
from .rawhtml import domain_dir
from .records import PageRecord

__all__ = ["ImageStore"]


class ImageStore:
    """Turns the images of a batch of pages into rows, writing kept files."""

    def __init__(
        self,
        root: Path,
        scratch: sqlite3.Connection,
        bodies: BodySource,
        *,
        download: bool,
        min_size: int = DEFAULT_MIN_SIZE,
        max_distance: int = DEFAULT_MAX_DISTANCE,
    ) -> None:
        self.root = root
        self.bodies = bodies
        self.download = download
        self.min_size = min_size
        self.files = 0
        self.too_small = 0
        self.near_duplicates = 0
        self._urls = SeenSet(scratch, "image_url")
        self._hashes = NearDuplicateIndex(scratch, max_distance)

    def rows(self, pages: Sequence[PageRecord]) -> list[ImageRow]:
        """The new image rows of a batch of pages, in reference order."""
        found: list[tuple[PageRecord, str, str]] = []
        for page in pages:
            for image in page.images:
                url = canonicalize(split_fragment(image.src)[0])
                if url is not None:
                    found.append((page, url, image.alt))
        fresh = self._urls.add_new([url for _, url, _ in found])
        new = [entry for entry, is_new in zip(found, fresh, strict=True) if is_new]
        if not self.download:
            return [ImageRow("", page.url, alt, url) for page, url, alt in new]
        stored = self.bodies.images([url for _, url, _ in new])
        out: list[ImageRow] = []
        for (page, url, alt), stored_image in _align(new, stored):
            path = "" if stored_image is None else self._store(page, stored_image)
            if path is not None:
                out.append(ImageRow(path, page.url, alt, url))
        return out

    def _store(self, page: PageRecord, image: StoredImage) -> str | None:
        """Write a kept image; None when it is too small or a near duplicate."""
        probe = probe_image(image.data)
        if probe.too_small(self.min_size):
            self.too_small += 1
            return None
        if not self._hashes.keep([probe.phash])[0]:
            self.near_duplicates += 1
            return None
        sha256 = hashlib.sha256(image.data).hexdigest()
        name = sha256 + extension_for(probe, image.mime_type, image.url)
        relative = f"images/{domain_dir(page.url)}/{name}"
        target = self.root / relative
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(image.data)
            self.files += 1
        return relative


def _align(
    wanted: Sequence[tuple[PageRecord, str, str]], stored: Iterator[StoredImage]
) -> Iterator[tuple[tuple[PageRecord, str, str], StoredImage | None]]:
    """Pair each wanted image with its stored bytes (both in the same order)."""
    pending = next(stored, None)
    for entry in wanted:
        if pending is not None and pending.url == entry[1]:
            yield entry, pending
            pending = next(stored, None)
        else:
            yield entry, None
