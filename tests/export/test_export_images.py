"""Image probing, near-duplicate detection and the images table."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

from export_helpers import MemoryBodies, make_page, picture, sha
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from unob.export.images import (
    ImageProbe,
    NearDuplicateIndex,
    SeenSet,
    extension_for,
    probe_image,
)
from unob.export.imagestore import ImageStore
from unob.export.records import ImageRef


def test_probe_reads_size_format_and_hash() -> None:
    probe = probe_image(picture(320, 200))
    assert (probe.width, probe.height, probe.format) == (320, 200, "PNG")
    assert probe.phash is not None and 0 <= probe.phash < 1 << 64
    assert probe.too_small(100) is False
    assert probe_image(picture(99, 300)).too_small(100) is True
    assert probe_image(picture(300, 99)).too_small(100) is True


def test_unreadable_images_have_no_size_and_are_not_too_small() -> None:
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'
    probe = probe_image(svg)
    assert probe == ImageProbe(None, None, "", None)
    assert probe.too_small(100) is False
    assert extension_for(probe, "image/svg+xml", "https://e.org/x") == ".svg"
    assert extension_for(probe, "", "https://e.org/pic.WEBP?x=1") == ".webp"
    assert extension_for(probe, "", "https://e.org/pic") == ".bin"
    assert extension_for(probe_image(picture(120, 120, fmt="JPEG")), "", "x.png") == ".jpg"


def near_copy(data: bytes) -> bytes:
    """Re-encode slightly smaller at another JPEG quality: same picture, other bytes."""
    with Image.open(io.BytesIO(data)) as image:
        smaller = image.convert("RGB").resize((image.width - 7, image.height - 5))
        out = io.BytesIO()
        smaller.save(out, "JPEG", quality=60)
        return out.getvalue()


def test_near_identical_pictures_are_duplicates_and_different_ones_are_not() -> None:
    db = sqlite3.connect(":memory:")
    index = NearDuplicateIndex(db)
    original = picture(400, 300, seed=1)
    copy = near_copy(original)
    other = picture(400, 300, seed=2)
    assert sha(original) != sha(copy)
    hashes = [probe_image(d).phash for d in (original, copy, other)]
    assert index.keep(hashes) == [True, False, True]
    # Remembered across calls (batches).
    assert index.keep([probe_image(near_copy(other)).phash, None]) == [False, True]


@settings(max_examples=50, deadline=None)
@given(
    distance=st.integers(min_value=0, max_value=8),
    hashes=st.lists(st.integers(min_value=0, max_value=(1 << 64) - 1), max_size=30),
    flips=st.lists(st.integers(min_value=0, max_value=63), max_size=10),
)
def test_band_index_agrees_with_brute_force(
    distance: int, hashes: list[int], flips: list[int]
) -> None:
    # Add near variants of the first hash so that matches actually happen.
    if hashes:
        variant = hashes[0]
        for bit in flips:
            variant ^= 1 << bit
            hashes.append(variant)
    index = NearDuplicateIndex(sqlite3.connect(":memory:"), distance)
    half = len(hashes) // 2
    got = index.keep(hashes[:half]) + index.keep(hashes[half:])
    kept: list[int] = []
    expected = []
    for h in hashes:
        new = all((h ^ k).bit_count() > distance for k in kept)
        expected.append(new)
        if new:
            kept.append(h)
    assert got == expected


def test_seen_set() -> None:
    seen = SeenSet(sqlite3.connect(":memory:"), "things")
    assert seen.add_new(["a", "b", "a"]) == [True, True, False]
    assert seen.add_new(["b", "c"]) == [False, True]


def test_image_store_rows_files_and_dedup(tmp_path: Path) -> None:
    big = picture(300, 200, seed=3)
    images = {
        "https://example.org/big.png": (big, "image/png"),
        "https://example.org/copy.jpg": (near_copy(big), "image/jpeg"),
        "https://example.org/icon.png": (picture(32, 32, seed=4), "image/png"),
        "https://example.org/other.png": (picture(300, 200, seed=5), "image/png"),
    }
    store = ImageStore(
        tmp_path, sqlite3.connect(":memory:"), MemoryBodies(images=images), download=True
    )
    first = make_page(
        url="http://127.0.0.1:8080/a",
        images=(
            ImageRef("https://example.org/big.png#frag", "Big"),
            ImageRef("https://example.org/copy.jpg", "Copy"),
            ImageRef("https://example.org/icon.png", "Icon"),
            ImageRef("https://example.org/missing.png", "Missing"),
            ImageRef("https://example.org/big.png", "Big again"),
        ),
    )
    second = make_page(
        url="http://127.0.0.1:8080/b",
        images=(
            ImageRef("https://example.org/other.png", "Other"),
            ImageRef("https://example.org/big.png", "Big on b"),
        ),
    )
    rows = store.rows([first]) + store.rows([second])
    big_path = f"images/127.0.0.1_8080/{sha(big)}.png"
    assert [(r.image_path, r.alt_text, r.source_page) for r in rows] == [
        (big_path, "Big", "http://127.0.0.1:8080/a"),
        ("", "Missing", "http://127.0.0.1:8080/a"),
        (
            f"images/127.0.0.1_8080/{sha(images['https://example.org/other.png'][0])}.png",
            "Other",
            "http://127.0.0.1:8080/b",
        ),
    ]
    assert rows[0].image_url == "https://example.org/big.png"
    assert (tmp_path / big_path).read_bytes() == big
    assert store.files == 2 and store.too_small == 1 and store.near_duplicates == 1


def test_image_store_without_downloads_lists_every_new_image(tmp_path: Path) -> None:
    store = ImageStore(tmp_path, sqlite3.connect(":memory:"), MemoryBodies(), download=False)
    page = make_page()
    rows = store.rows([page, page])
    assert [(r.image_path, r.image_url) for r in rows] == [
        ("", "https://example.org/images/anemone.png"),
        ("", "https://example.org/images/crab.png"),
    ]
    assert not any(tmp_path.iterdir())
