"""Stored-body compression: unob.bodycodec (crawl DB ``file_content.compression``)."""

from __future__ import annotations

import zlib

import pytest
import zstandard
from hypothesis import given
from hypothesis import strategies as st

from unob import bodycodec
from unob.bodycodec import BodyDecodeError

PAGE = b"<html><head><title>T</title></head><body>" + b"<p>text</p>" * 500 + b"</body></html>"


@given(st.binary(max_size=5000))
def test_what_is_compressed_comes_back(body: bytes) -> None:
    codec, data = bodycodec.compress(body)
    assert codec == "zstd"
    assert bodycodec.decompress(codec, data) == body
    assert bodycodec.decompress(codec, data, len(body)) == body


def test_pages_shrink() -> None:
    _, data = bodycodec.compress(PAGE)
    assert len(data) < len(PAGE) // 10


def test_bodies_of_older_unob_and_uncompressed_ones_are_read() -> None:
    assert bodycodec.decompress("zlib", zlib.compress(PAGE, 3), len(PAGE)) == PAGE
    assert bodycodec.decompress("none", PAGE) == PAGE
    assert bodycodec.decompress(None, PAGE) == PAGE


@pytest.mark.parametrize(
    ("codec", "data", "message"),
    [
        ("zstd", b"\x00\x01\x02\x03", "stored zstd body is damaged"),
        ("zlib", b"\x00\x01\x02\x03", "stored zlib body is damaged"),
        ("brotli", PAGE, "unknown body compression 'brotli'"),
        ("zstd", bodycodec.compress(PAGE)[1][:-20], "stored zstd body is damaged"),
        ("zlib", zlib.compress(PAGE)[:-20], "stored zlib body is damaged"),
    ],
)
def test_damaged_or_unknown_is_one_error(codec: str, data: bytes, message: str) -> None:
    with pytest.raises(BodyDecodeError, match=message):
        bodycodec.decompress(codec, data)


def test_size_is_checked_before_anything_is_allocated() -> None:
    _, data = bodycodec.compress(PAGE)
    with pytest.raises(BodyDecodeError, match="declares"):
        bodycodec.decompress("zstd", data, len(PAGE) - 1)
    with pytest.raises(BodyDecodeError, match="expected"):
        bodycodec.decompress("zlib", zlib.compress(PAGE), len(PAGE) + 1)
    # A frame that does not say its size, or claims more than any body.
    unsized = zstandard.ZstdCompressor(write_content_size=False).compress(PAGE)
    with pytest.raises(BodyDecodeError, match="declares"):
        bodycodec.decompress("zstd", unsized)
    bomb = zstandard.ZstdCompressor().compress(b"\0" * (1 << 20))
    with pytest.raises(BodyDecodeError, match="declares"):
        bodycodec.decompress("zstd", bomb, 1000)
    # zlib records no size: inflating stops just past the expected one.
    zlib_bomb = zlib.compress(b"\0" * (1 << 24))
    with pytest.raises(BodyDecodeError, match="inflates past 1000 bytes"):
        bodycodec.decompress("zlib", zlib_bomb, 1000)
