"""Turn HTML bytes of any encoding into UTF-8 bytes for lxml.

lxml gets bytes, never ``str``: a ``str`` with an ``<?xml ... encoding=?>``
prologue makes it raise, and libxml2 guesses ISO-8859-1 for undeclared
pages, which garbles the UTF-8 majority of the web.  So the encoding is
chosen here, in the order of the HTML standard's encoding sniffing
(https://html.spec.whatwg.org/#determining-the-character-encoding): byte
order mark, transport-layer charset (HTTP ``Content-Type``), ``<meta>``
prescan of the first bytes; then valid UTF-8; then charset-normalizer's
guess; Windows-1252 as the last resort.  The result is always valid UTF-8
(undecodable bytes become U+FFFD), so the parser never meets bad input.
"""

from __future__ import annotations

import codecs
import re
from functools import lru_cache

# The HTML standard's prescan looks at the first 1024 bytes; real pages put
# long <head> scripts first, so look a bit further (the cost is one regex).
_PRESCAN_BYTES = 4096

_META_CHARSET = re.compile(
    rb"""<meta[^>]+?charset\s*=\s*["']?\s*([A-Za-z0-9_:.+-]{1,40})""",
    re.IGNORECASE,
)

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)

# WHATWG Encoding Standard labels that differ from Python's codec names:
# browsers decode "latin1"/"ascii" labels as windows-1252, and UTF-16/32
# labels in a meta tag cannot be true for bytes the prescan just read as ASCII.
_ALIASES = {
    "latin1": "cp1252",
    "latin-1": "cp1252",
    "iso-8859-1": "cp1252",
    "iso8859-1": "cp1252",
    "l1": "cp1252",
    "ascii": "cp1252",
    "us-ascii": "cp1252",
    "x-user-defined": "cp1252",
    "utf-16": "utf-8",
    "utf-16le": "utf-8",
    "utf-16be": "utf-8",
    "unicode": "utf-8",
    "x-sjis": "shift_jis",
    "gb2312": "gb18030",
    "gbk": "gb18030",
}


@lru_cache(maxsize=256)
def _normalize_label(label: str | None) -> str | None:
    """A Python codec name for an encoding label, or None when unknown."""
    if not label:
        return None
    name = label.strip().strip("\"'").lower()
    name = _ALIASES.get(name, name)
    try:
        info = codecs.lookup(name)
        # Codecs such as "rot13" or "base64" are not text encodings of bytes,
        # "undefined" refuses everything and "idna" refuses errors="replace":
        # a probe decode rules them out.
        if not getattr(info, "_is_text_encoding", True):
            return None
        b"<html>".decode(info.name, "replace")
    except (LookupError, ValueError, UnicodeError, TypeError):
        return None
    return info.name


def sniff_encoding(body: bytes, declared: str | None = None) -> str:
    """The Python codec name to decode ``body`` with (see module docstring)."""
    for bom, name in _BOMS:
        if body.startswith(bom):
            return name
    from_header = _normalize_label(declared)
    if from_header is not None:
        return from_header
    match = _META_CHARSET.search(body, 0, _PRESCAN_BYTES)
    if match is not None:
        from_meta = _normalize_label(match.group(1).decode("ascii", "replace"))
        if from_meta is not None:
            return from_meta
    if _is_utf8(body):
        return "utf-8"
    return _guess(body)


def _is_utf8(body: bytes) -> bool:
    # isascii() first: it is a fast scan, while decoding makes a str of the
    # whole page (most pages are ASCII or UTF-8, so this runs on each).
    if body.isascii():
        return True
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _guess(body: bytes) -> str:
    """charset-normalizer's best guess on a prefix (it is slow on big pages)."""
    try:
        from charset_normalizer import from_bytes
    except ImportError:  # pragma: no cover - it is a declared dependency
        return "cp1252"
    best = from_bytes(body[:32768]).best()
    if best is None:
        return "cp1252"
    return _normalize_label(best.encoding) or "cp1252"


def to_utf8(body: bytes, declared: str | None = None) -> bytes:
    """``body`` re-encoded as valid UTF-8 without a byte order mark."""
    encoding = sniff_encoding(body, declared)
    if encoding == "utf-8":
        if body.startswith(codecs.BOM_UTF8):
            body = body[len(codecs.BOM_UTF8) :]
        if _is_utf8(body):
            return body
    try:
        text = body.decode(encoding, "replace")
    except (UnicodeError, LookupError, TypeError):
        # A codec that passed the probe but chokes on this body (odd
        # stateful codecs): windows-1252 decodes every byte.
        text = body.decode("cp1252", "replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    # Lone surrogates cannot come out of decode(); "replace" guards odd codecs.
    return text.encode("utf-8", "replace")
