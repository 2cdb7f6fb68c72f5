"""Body decoding (codings, caps, bombs), charset sniffing and Content-Type parsing."""

from __future__ import annotations

import codecs
import gzip
import tracemalloc
import zlib

import brotli
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unob.codes import ExitCode
from unob.crawler.body import (
    BadEncoding,
    Decoder,
    TooLarge,
    decode_body,
    is_html,
    mime_of,
    normalize_charset,
    parse_content_type,
    sniff_charset,
)

PAGE = b"<html><body>" + b"<p>Hello, world. Hallo Welt.</p>" * 2000 + b"</body></html>"
MiB = 1 << 20


def _feed_in_chunks(decoder: Decoder, data: bytes, size: int) -> bytes:
    for i in range(0, len(data), size):
        decoder.feed(data[i : i + size])
    return decoder.finish()


ENCODED = {
    "gzip": gzip.compress(PAGE),
    "x-gzip": gzip.compress(PAGE),
    "deflate": zlib.compress(PAGE),  # RFC 9110's deflate: the zlib format
    "br": brotli.compress(PAGE),
    "identity": PAGE,
    "GZIP": gzip.compress(PAGE),  # codings are case-insensitive
    "gzip, br": brotli.compress(gzip.compress(PAGE)),  # applied left to right
    "deflate, gzip": gzip.compress(zlib.compress(PAGE)),
}


@pytest.mark.parametrize("coding", sorted(ENCODED))
@pytest.mark.parametrize("chunk", [1, 7, 4096, 1 << 30])
def test_codings_round_trip_in_any_chunking(coding: str, chunk: int) -> None:
    assert _feed_in_chunks(Decoder(coding, 10 * MiB), ENCODED[coding], chunk) == PAGE


def test_raw_deflate_is_accepted_too() -> None:
    # some servers send deflate without the zlib wrapper; the header tells them apart
    raw = zlib.compressobj(6, zlib.DEFLATED, -15)
    data = raw.compress(PAGE) + raw.flush()
    assert decode_body(data, "deflate", 10 * MiB) == PAGE
    assert _feed_in_chunks(Decoder("deflate", 10 * MiB), data, 1) == PAGE


def test_multi_member_gzip_even_split_inside_the_magic() -> None:
    data = gzip.compress(b"first ") + gzip.compress(b"second")
    assert decode_body(data, "gzip", MiB) == b"first second"
    assert _feed_in_chunks(Decoder("gzip", MiB), data, 1) == b"first second"


def test_no_coding_and_empty_bodies() -> None:
    assert decode_body(PAGE, None, 10 * MiB) == PAGE
    assert decode_body(b"", "gzip", MiB) == b""  # e.g. a HEAD or 304 answer
    assert decode_body(b"", "br", MiB) == b""


def test_identity_over_the_cap_is_too_large() -> None:
    decoder = Decoder(None, 1000)
    decoder.feed(b"x" * 1000)
    with pytest.raises(TooLarge) as info:
        decoder.feed(b"x")
    assert info.value.exit_code is ExitCode.TOO_LARGE


def test_exactly_the_cap_is_fine() -> None:
    assert decode_body(gzip.compress(b"y" * 5000), "gzip", 5000) == b"y" * 5000


@pytest.mark.parametrize(
    ("coding", "data", "message"),
    [
        ("gzip", gzip.compress(PAGE)[:-12], "truncated"),
        ("gzip", b"this is not gzip at all", "bad gzip"),
        ("deflate", zlib.compress(PAGE)[:100], "truncated"),
        ("br", b"\xff\xff\xff garbage", "bad br"),
        ("br", brotli.compress(PAGE)[:50], "truncated"),
        ("compress", b"anything", "unsupported"),
        ("zstd", b"anything", "unsupported"),
    ],
)
def test_broken_streams_are_bad_encoding(coding: str, data: bytes, message: str) -> None:
    with pytest.raises(BadEncoding, match=message) as info:
        decode_body(data, coding, 10 * MiB)
    assert info.value.exit_code is ExitCode.BAD_CONTENT_ENCODING


def _crc32_of_zeros(length: int) -> int:
    """zlib.crc32(b"\\0" * length) without touching that many bytes (zlib's crc32_combine)."""

    def times(matrix: list[int], vector: int) -> int:
        out, i = 0, 0
        while vector:
            if vector & 1:
                out ^= matrix[i]
            vector >>= 1
            i += 1
        return out

    def square(matrix: list[int]) -> list[int]:
        return [times(matrix, matrix[n]) for n in range(32)]

    def combine(crc1: int, crc2: int, len2: int) -> int:
        odd = [0xEDB88320] + [1 << n for n in range(31)]  # one zero bit
        even = square(odd)
        odd = square(even)
        while True:
            even = square(odd)
            if len2 & 1:
                crc1 = times(even, crc1)
            len2 >>= 1
            if not len2:
                break
            odd = square(even)
            if len2 & 1:
                crc1 = times(odd, crc1)
            len2 >>= 1
            if not len2:
                break
        return crc1 ^ crc2

    block = zlib.crc32(b"\0" * MiB)
    crc, done = block, MiB
    while done < length:
        crc, done = combine(crc, crc, done), done * 2
    assert done == length, "length must be MiB times a power of two"
    return crc


def _zero_bomb(mebibytes: int, *, gzip_format: bool) -> bytes:
    """A valid gzip (or zlib) stream of ``mebibytes`` MiB of zeros, built in milliseconds.

    After a full flush a deflate compressor starts afresh, so every MiB of
    zeros compresses to the same bytes: compress one, repeat it, add a trailer.
    """
    wbits = 31 if gzip_format else 15
    compressor = zlib.compressobj(9, zlib.DEFLATED, wbits)
    first = compressor.compress(b"\0" * MiB) + compressor.flush(zlib.Z_FULL_FLUSH)
    block = compressor.compress(b"\0" * MiB) + compressor.flush(zlib.Z_FULL_FLUSH)
    final = compressor.compress(b"") + compressor.flush(zlib.Z_FINISH)
    body = first + block * (mebibytes - 1)
    length = mebibytes * MiB
    if gzip_format:
        # final = empty final block + CRC32 + ISIZE of what *this* compressor saw: replace
        trailer = _crc32_of_zeros(length).to_bytes(4, "little") + (length % 2**32).to_bytes(
            4, "little"
        )
        return body + final[:-8] + trailer
    adler = ((length % 65521) << 16) | 1  # Adler-32 of n zeros: a = 1, b = n mod 65521
    return body + final[:-4] + adler.to_bytes(4, "big")


@pytest.mark.parametrize("gzip_format", [True, False])
def test_bomb_builder_makes_valid_streams(gzip_format: bool) -> None:
    data = _zero_bomb(4, gzip_format=gzip_format)
    assert zlib.decompress(data, 31 if gzip_format else 15) == b"\0" * (4 * MiB)


@pytest.mark.parametrize(("coding", "gzip_format"), [("gzip", True), ("deflate", False)])
def test_one_gib_bomb_stops_at_the_cap_in_little_memory(coding: str, gzip_format: bool) -> None:
    bomb = _zero_bomb(1024, gzip_format=gzip_format)  # 1 GiB of zeros in ~1 MB
    assert len(bomb) < 2 * MiB
    cap = 4 * MiB
    tracemalloc.start()
    try:
        decoder = Decoder(coding, cap)
        with pytest.raises(TooLarge):
            _feed_in_chunks(decoder, bomb, 64 * 1024)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert decoder.decoded_size <= cap
    assert peak < 4 * cap  # never near the 1 GiB


def test_one_chunk_bomb_cannot_expand_past_the_cap_in_one_call() -> None:
    bomb = _zero_bomb(64, gzip_format=True)
    tracemalloc.start()
    try:
        with pytest.raises(TooLarge):
            decode_body(bomb, "gzip", MiB)  # the whole bomb in one feed()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * MiB


def test_brotli_bomb_stops_at_the_cap() -> None:
    bomb = brotli.compress(b"\0" * (64 * MiB), quality=1)
    assert len(bomb) < 100_000
    with pytest.raises(TooLarge):
        decode_body(bomb, "br", MiB)


def test_chained_bomb_stops_at_the_cap() -> None:
    inner = _zero_bomb(32, gzip_format=True)
    with pytest.raises(TooLarge):
        decode_body(brotli.compress(inner), "gzip, br", MiB)


@settings(max_examples=200, deadline=None)
@given(
    data=st.binary(max_size=300),
    coding=st.sampled_from(["gzip", "deflate", "br", "gzip, br", None, "x-gzip, deflate"]),
)
def test_any_bytes_decode_or_raise_a_body_error(data: bytes, coding: str | None) -> None:
    try:
        out = decode_body(data, coding, 4096)
    except (TooLarge, BadEncoding):
        return
    assert len(out) <= 4096


# -- charset --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content_type", "body", "expected"),
    [
        # a byte order mark beats everything (WHATWG)
        ("text/html; charset=iso-8859-1", codecs.BOM_UTF8 + b"<p>x", "utf-8"),
        (None, codecs.BOM_UTF16_LE + "<p>x".encode("utf-16-le"), "utf-16le"),
        (None, codecs.BOM_UTF16_BE + "<p>x".encode("utf-16-be"), "utf-16be"),
        # then the header, whatever the page says
        ("text/html; charset=UTF-8", b'<meta charset="iso-8859-2">', "utf-8"),
        ('text/html; charset="Shift_JIS"', b"", "shift_jis"),
        # WHATWG labels: latin-1 and ASCII mean windows-1252
        ("text/html; charset=ISO-8859-1", b"", "windows-1252"),
        ("text/html; charset=us-ascii", b"", "windows-1252"),
        ("text/html; charset=latin1", b"", "windows-1252"),
        ("text/html; charset=gb2312", b"", "gbk"),
        ("text/html; charset=x-sjis", b"", "shift_jis"),
        ("text/html; charset=iso-8859-9", b"", "windows-1254"),
        # an unknown label is skipped: the meta decides
        ("text/html; charset=no-such-thing", b'<meta charset="koi8-r">', "koi8-r"),
        # meta in its two forms, and an XML declaration
        (None, b'<html><head><meta charset="windows-1251">', "windows-1251"),
        (
            "text/html",
            b'<meta http-equiv="Content-Type" content="text/html; charset=euc-kr">',
            "euc-kr",
        ),
        (None, b'<?xml version="1.0" encoding="ISO-8859-15"?><html>', "iso-8859-15"),
        # utf-16 declared in a meta that was readable as ASCII: it is utf-8
        (None, b'<meta charset="utf-16">', "utf-8"),
        # nothing declared: valid UTF-8 is UTF-8, ASCII too
        (None, "<p>Grüße</p>".encode(), "utf-8"),
        (None, b"<p>plain</p>", "utf-8"),
        (None, b"", "utf-8"),
        # rot13 and base64 are Python codecs, not charsets; utf-7 is refused (WHATWG)
        ("text/html; charset=rot13", b"<p>x</p>", "utf-8"),
        ("text/html; charset=utf-7", b"<p>x</p>", "utf-8"),
    ],
)
def test_sniff_charset(content_type: str | None, body: bytes, expected: str) -> None:
    assert sniff_charset(content_type, body) == expected


def test_meta_beyond_the_prescan_window_is_not_seen() -> None:
    body = b"<!--" + b"x" * 5000 + b'--><meta charset="koi8-r">'
    assert sniff_charset(None, body) == "utf-8"


def test_undeclared_non_utf8_is_detected() -> None:
    text = "Съешь же ещё этих мягких французских булок, да выпей чаю. " * 20
    assert sniff_charset(None, f"<p>{text}</p>".encode("cp1251")) == "windows-1251"


def test_utf8_cut_inside_a_character_at_the_prefix_end_is_still_utf8() -> None:
    body = b"a" * (64 * 1024 - 1) + "é".encode() + b"tail"
    assert sniff_charset(None, body) == "utf-8"


def test_undeclared_garbage_falls_back_to_windows_1252() -> None:
    name = sniff_charset(None, bytes(range(128, 256)) * 3)
    assert codecs.lookup(name)  # always something Python can decode with


def test_every_sniffed_name_is_a_python_codec() -> None:
    from unob.crawler.body import _LABELS

    for name, labels in _LABELS.items():
        assert codecs.lookup(name)
        for label in labels:
            assert normalize_charset(label) == name
            assert normalize_charset(label.upper()) == name


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("text/html; charset=utf-8", ("text/html", "utf-8")),
        ('Text/HTML;Charset="UTF-8"', ("text/html", "UTF-8")),
        ("application/xhtml+xml", ("application/xhtml+xml", None)),
        ("text/html; foo=bar; charset=latin1", ("text/html", "latin1")),
        ("", ("", None)),
        (None, ("", None)),
    ],
)
def test_parse_content_type(header: str | None, expected: tuple[str, str | None]) -> None:
    assert parse_content_type(header) == expected
    assert mime_of(header) == expected[0]


def test_is_html() -> None:
    assert is_html("text/html") and is_html("application/xhtml+xml")
    assert not is_html("application/pdf") and not is_html("")
