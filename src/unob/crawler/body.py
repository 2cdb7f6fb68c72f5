"""Response bodies (pure): Content-Encoding decoding with a size cap, charset, MIME type.

Decoding (RFC 9110 §8.4): :class:`Decoder` undoes ``gzip``/``x-gzip``,
``deflate`` (the zlib format RFC 9110 names, or the raw deflate some servers
send: told apart by the zlib header), ``br`` and ``identity``, also chained
(``Content-Encoding: gzip, br`` is undone right to left).  It is fed the raw
chunks as they arrive and never holds more than the cap: every decompressor
call is given an output limit (``decompressobj().decompress(data,
max_length)``, brotli's ``output_buffer_limit``), so a few KiB of gzip that
would inflate to 1 GB stop at ``cap + 1`` bytes with :class:`TooLarge`
instead of filling memory.  A broken or truncated stream raises
:class:`BadEncoding`.  The engine must ask aiohttp not to decompress
(``auto_decompress=False``) and should send :data:`ACCEPT_ENCODING`.

Charset (WHATWG HTML "determining the character encoding", simplified):
byte order mark, then the Content-Type ``charset``, then ``<meta charset>``
/ ``http-equiv`` / an XML declaration in the first :data:`PRESCAN_BYTES`,
then "is it valid UTF-8?", then charset-normalizer on the first
:data:`DETECT_BYTES`.  Labels are mapped as the WHATWG Encoding standard
does (``iso-8859-1``, ``latin1`` and ``us-ascii`` all mean
``windows-1252``; ``utf-16`` in a ``<meta>`` means ``utf-8``); unknown
labels are skipped.  The result is a Python codec name that lxml also
accepts, except the rare Mac encodings lxml lacks (:mod:`.links` transcodes
those).
"""

from __future__ import annotations

import codecs
import re
import zlib
from typing import Protocol

import brotli

from unob.codes import ExitCode

__all__ = [
    "ACCEPT_ENCODING",
    "DETECT_BYTES",
    "PRESCAN_BYTES",
    "BadEncoding",
    "BodyError",
    "Decoder",
    "TooLarge",
    "decode_body",
    "is_html",
    "mime_of",
    "normalize_charset",
    "parse_content_type",
    "sniff_charset",
]

#: what :class:`Decoder` can undo, for the request's Accept-Encoding header
ACCEPT_ENCODING = "gzip, deflate, br"
#: how far into a body ``<meta charset>`` is looked for (browsers look at 1024 bytes;
#: some pages put a long comment or script first)
PRESCAN_BYTES = 4096
#: how much of a body the UTF-8 check and charset-normalizer look at
DETECT_BYTES = 64 * 1024


class BodyError(Exception):
    """A body that cannot be stored; ``exit_code`` says why."""

    exit_code: ExitCode = ExitCode.ERROR_READING_RESPONSE


class TooLarge(BodyError):
    """The body (raw or decoded) is larger than the cap."""

    exit_code = ExitCode.TOO_LARGE


class BadEncoding(BodyError):
    """An unknown Content-Encoding, or a stream that does not decode."""

    exit_code = ExitCode.BAD_CONTENT_ENCODING


class _Stage(Protocol):
    def process(self, data: bytes) -> bytes: ...
    def finish(self) -> bytes: ...


class _Identity:
    def process(self, data: bytes) -> bytes:
        return data

    def finish(self) -> bytes:
        return b""


def _looks_like_zlib(head: bytes) -> bool:
    """RFC 1950 §2.2 header: CM = 8 (deflate), and CMF*256 + FLG a multiple of 31."""
    return len(head) >= 2 and head[0] & 0x0F == 8 and (head[0] * 256 + head[1]) % 31 == 0


class _Zlib:
    """gzip (possibly several members) or deflate (zlib or raw), output capped."""

    def __init__(self, gzip: bool, cap: int) -> None:
        self.gzip = gzip
        self.cap = cap
        self.produced = 0
        self.started = False
        self.pending = b""  # a header not yet complete enough to choose a decoder
        self.d = zlib.decompressobj()

    def _start(self, head: bytes) -> None:
        if self.gzip:
            wbits = 16 + zlib.MAX_WBITS
        else:
            wbits = zlib.MAX_WBITS if _looks_like_zlib(head) else -zlib.MAX_WBITS
        self.d = zlib.decompressobj(wbits)
        self.started = True

    def process(self, data: bytes) -> bytes:
        if self.pending:
            data, self.pending = self.pending + data, b""
        out: list[bytes] = []
        try:
            while data:
                if not self.started:
                    if len(data) < 2:
                        self.pending = data
                        break
                    self._start(data[:2])
                elif self.d.eof:
                    # after a gzip member another may follow (RFC 1952 §2.2); other
                    # trailing bytes are ignored, as browsers do
                    if self.gzip and len(data) < 2 and data == b"\x1f":
                        self.pending = data
                        break
                    if not (self.gzip and data.startswith(b"\x1f\x8b")):
                        break
                    self._start(data[:2])
                # never more than one byte over the cap in one call: a bomb stops here
                budget = self.cap - self.produced + 1
                chunk = self.d.decompress(data, budget)
                self.produced += len(chunk)
                if self.produced > self.cap:
                    raise TooLarge(f"decoded body larger than {self.cap} bytes")
                out.append(chunk)
                data = self.d.unused_data if self.d.eof else self.d.unconsumed_tail
        except zlib.error as exc:
            name = "gzip" if self.gzip else "deflate"
            raise BadEncoding(f"bad {name} stream: {exc}") from None
        return b"".join(out)

    def finish(self) -> bytes:
        if not self.started and not self.pending:
            return b""  # an empty body (e.g. to a HEAD request) is not an error
        if not self.started or not self.d.eof:
            raise BadEncoding(f"truncated {'gzip' if self.gzip else 'deflate'} stream")
        return b""


class _Brotli:
    """br (RFC 7932), output capped with brotli's output_buffer_limit."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.produced = 0
        self.seen_input = False
        self.d = brotli.Decompressor()

    def _take(self, chunk: bytes, out: list[bytes]) -> None:
        self.produced += len(chunk)
        if self.produced > self.cap:
            raise TooLarge(f"decoded body larger than {self.cap} bytes")
        out.append(chunk)

    def process(self, data: bytes) -> bytes:
        if not data:
            return b""
        self.seen_input = True
        out: list[bytes] = []
        try:
            if self.d.is_finished():
                return b""  # trailing bytes after the stream: ignored
            self._take(self.d.process(data, output_buffer_limit=self.cap - self.produced + 1), out)
            while not self.d.can_accept_more_data():
                budget = self.cap - self.produced + 1
                self._take(self.d.process(b"", output_buffer_limit=budget), out)
        except brotli.error as exc:
            raise BadEncoding(f"bad br stream: {exc}") from None
        return b"".join(out)

    def finish(self) -> bytes:
        if self.seen_input and not self.d.is_finished():
            raise BadEncoding("truncated br stream")
        return b""


def _codings(content_encoding: str | None) -> list[str]:
    """The codings of a Content-Encoding header, in the order they were applied."""
    if not content_encoding:
        return []
    out = []
    for coding in content_encoding.lower().split(","):
        coding = coding.strip()
        if coding in ("", "identity"):
            continue
        if coding == "x-gzip":  # RFC 9110 §8.4.1.3
            coding = "gzip"
        if coding not in ("gzip", "deflate", "br"):
            raise BadEncoding(f"unsupported Content-Encoding {coding!r}")
        out.append(coding)
    return out


class Decoder:
    """Incremental Content-Encoding decoder with a cap on raw and decoded size.

    ``feed()`` each raw chunk as it arrives, then ``finish()`` for the whole
    decoded body.  Both raise :class:`TooLarge` or :class:`BadEncoding`
    (``exit_code`` gives the crawl exit code); the constructor raises
    :class:`BadEncoding` for an unknown coding.
    """

    def __init__(self, content_encoding: str | None, cap: int) -> None:
        self.cap = cap
        self.raw_size = 0
        self.decoded_size = 0
        self._parts: list[bytes] = []
        stages: list[_Stage] = []
        # undo the last-applied coding first; every stage is capped, intermediate ones too
        for coding in reversed(_codings(content_encoding)):
            if coding == "br":
                stages.append(_Brotli(cap))
            else:
                stages.append(_Zlib(coding == "gzip", cap))
        self._stages: list[_Stage] = stages or [_Identity()]

    def _push(self, data: bytes, start: int) -> None:
        for stage in self._stages[start:]:
            if not data:
                return
            data = stage.process(data)
        self._keep(data)

    def _keep(self, data: bytes) -> None:
        if data:
            self.decoded_size += len(data)
            if self.decoded_size > self.cap:
                raise TooLarge(f"body larger than {self.cap} bytes")
            self._parts.append(data)

    def feed(self, chunk: bytes) -> None:
        """Decode one raw chunk (raises as soon as a cap is passed)."""
        self.raw_size += len(chunk)
        if self.raw_size > self.cap:
            raise TooLarge(f"body larger than {self.cap} bytes")
        self._push(chunk, 0)

    def finish(self) -> bytes:
        """Flush every stage; return the whole decoded body."""
        for i, stage in enumerate(self._stages):
            tail = stage.finish()
            if tail:
                self._push(tail, i + 1)
        return b"".join(self._parts)


def decode_body(data: bytes, content_encoding: str | None, cap: int) -> bytes:
    """One-shot :class:`Decoder`: the decoded ``data`` (raises like it)."""
    decoder = Decoder(content_encoding, cap)
    decoder.feed(data)
    return decoder.finish()


# ----------------------------------------------------------------------------------
# Content-Type


def parse_content_type(value: str | None) -> tuple[str, str | None]:
    """``(mime, charset label)`` of a Content-Type header; mime lowercased, "" if absent."""
    if not value:
        return "", None
    mime, _, params = value.partition(";")
    charset = None
    for param in params.split(";"):
        name, eq, raw = param.partition("=")
        if eq and name.strip().lower() == "charset":
            charset = raw.strip().strip("\"'").strip() or None
            break
    return mime.strip().lower(), charset


def mime_of(content_type: str | None) -> str:
    """The lowercased ``type/subtype`` of a Content-Type header ("" if absent)."""
    return parse_content_type(content_type)[0]


def is_html(mime: str) -> bool:
    """Is ``mime`` (from :func:`mime_of`) a type whose links the crawler follows?"""
    return mime in ("text/html", "application/xhtml+xml")


# ----------------------------------------------------------------------------------
# charset

# WHATWG Encoding standard labels (https://encoding.spec.whatwg.org/#names-and-labels)
# for the encodings met on the web, mapped to a name Python and libxml2 both know.
_LABELS: dict[str, tuple[str, ...]] = {
    "utf-8": ("unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8",
              "x-unicode20utf8"),
    "windows-1252": ("ansi_x3.4-1968", "ascii", "cp1252", "cp819", "csisolatin1", "ibm819",
                     "iso-8859-1", "iso-ir-100", "iso8859-1", "iso88591", "iso_8859-1",
                     "iso_8859-1:1987", "l1", "latin1", "us-ascii", "windows-1252",
                     "x-cp1252", "latin-1", "iso-8859-1:1987"),
    "iso-8859-2": ("csisolatin2", "iso-8859-2", "iso-ir-101", "iso8859-2", "iso88592",
                   "iso_8859-2", "iso_8859-2:1987", "l2", "latin2"),
    "iso-8859-3": ("csisolatin3", "iso-8859-3", "iso-ir-109", "iso8859-3", "iso88593",
                   "iso_8859-3", "iso_8859-3:1988", "l3", "latin3"),
    "iso-8859-4": ("csisolatin4", "iso-8859-4", "iso-ir-110", "iso8859-4", "iso88594",
                   "iso_8859-4", "iso_8859-4:1988", "l4", "latin4"),
    "iso-8859-5": ("csisolatincyrillic", "cyrillic", "iso-8859-5", "iso-ir-144", "iso8859-5",
                   "iso88595", "iso_8859-5", "iso_8859-5:1988"),
    "iso-8859-6": ("arabic", "asmo-708", "csiso88596e", "csiso88596i", "csisolatinarabic",
                   "ecma-114", "iso-8859-6", "iso-8859-6-e", "iso-8859-6-i", "iso-ir-127",
                   "iso8859-6", "iso88596", "iso_8859-6", "iso_8859-6:1987"),
    "iso-8859-7": ("csisolatingreek", "ecma-118", "elot_928", "greek", "greek8",
                   "iso-8859-7", "iso-ir-126", "iso8859-7", "iso88597", "iso_8859-7",
                   "iso_8859-7:1987", "sun_eu_greek"),
    "iso-8859-8": ("csiso88598e", "csisolatinhebrew", "hebrew", "iso-8859-8", "iso-8859-8-e",
                   "iso-ir-138", "iso8859-8", "iso88598", "iso_8859-8", "iso_8859-8:1988",
                   "visual", "csiso88598i", "iso-8859-8-i", "logical"),
    "iso-8859-10": ("csisolatin6", "iso-8859-10", "iso-ir-157", "iso8859-10", "iso885910",
                    "l6", "latin6"),
    "iso-8859-13": ("iso-8859-13", "iso8859-13", "iso885913"),
    "iso-8859-14": ("iso-8859-14", "iso8859-14", "iso885914"),
    "iso-8859-15": ("csisolatin9", "iso-8859-15", "iso8859-15", "iso885915", "iso_8859-15",
                    "l9"),
    "iso-8859-16": ("iso-8859-16",),
    "koi8-r": ("cskoi8r", "koi", "koi8", "koi8-r", "koi8_r"),
    "koi8-u": ("koi8-ru", "koi8-u"),
    "mac-roman": ("csmacintosh", "mac", "macintosh", "x-mac-roman"),
    "cp874": ("dos-874", "iso-8859-11", "iso8859-11", "iso885911", "tis-620",
                    "windows-874"),
    "windows-1250": ("cp1250", "windows-1250", "x-cp1250"),
    "windows-1251": ("cp1251", "windows-1251", "x-cp1251"),
    "windows-1253": ("cp1253", "windows-1253", "x-cp1253"),
    "windows-1254": ("cp1254", "csisolatin5", "iso-8859-9", "iso-ir-148", "iso8859-9",
                     "iso88599", "iso_8859-9", "iso_8859-9:1989", "l5", "latin5",
                     "windows-1254", "x-cp1254"),
    "windows-1255": ("cp1255", "windows-1255", "x-cp1255"),
    "windows-1256": ("cp1256", "windows-1256", "x-cp1256"),
    "windows-1257": ("cp1257", "windows-1257", "x-cp1257"),
    "windows-1258": ("cp1258", "windows-1258", "x-cp1258"),
    "mac-cyrillic": ("x-mac-cyrillic", "x-mac-ukrainian"),
    "cp866": ("866", "cp866", "csibm866", "ibm866"),
    "gbk": ("chinese", "csgb2312", "csiso58gb231280", "gb2312", "gb_2312", "gb_2312-80",
            "gbk", "iso-ir-58", "x-gbk"),
    "gb18030": ("gb18030",),
    "big5": ("big5", "big5-hkscs", "cn-big5", "csbig5", "x-x-big5"),
    "euc-jp": ("cseucpkdfmtjapanese", "euc-jp", "x-euc-jp"),
    "iso-2022-jp": ("csiso2022jp", "iso-2022-jp"),
    "shift_jis": ("csshiftjis", "ms932", "ms_kanji", "shift-jis", "shift_jis", "sjis",
                  "windows-31j", "x-sjis"),
    "euc-kr": ("cseuckr", "csksc56011987", "euc-kr", "iso-ir-149", "korean",
               "ks_c_5601-1987", "ks_c_5601-1989", "ksc5601", "ksc_5601", "windows-949"),
    "utf-16be": ("unicodefffe", "utf-16be"),
    "utf-16le": ("csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff",
                 "utf-16", "utf-16le"),
}  # fmt: skip
_LABEL_TO_NAME = {label: name for name, labels in _LABELS.items() for label in labels}
# Python codec names (charset-normalizer's answers, odd labels) -> the names above
_CODEC_TO_NAME = {codecs.lookup(name).name: name for name in _LABELS}
# Python codecs whose labels WHATWG maps to a superset (latin-1 is read as windows-1252)
_CODEC_TO_NAME.update(
    {"ascii": "windows-1252", "iso8859-1": "windows-1252", "iso8859-9": "windows-1254",
     "iso8859-11": "cp874"}
)  # fmt: skip
# encodings WHATWG refuses (script injection through UTF-7, and friends)
_REFUSED = frozenset({"utf-7", "utf_7", "utf-32", "utf-32-be", "utf-32-le"})

_META_CHARSET = re.compile(
    rb"""<meta[^>]*?charset\s*=\s*["']?\s*([A-Za-z0-9_.:\-]+)""", re.IGNORECASE
)
_XML_DECL = re.compile(rb"""^\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9_.:\-]+)""")
_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_BE, "utf-16be"),
    (codecs.BOM_UTF16_LE, "utf-16le"),
)


def normalize_charset(label: str | None) -> str | None:
    """The encoding a charset label means (WHATWG labels first), or None if unknown."""
    if not label:
        return None
    label = label.strip().strip("\"'").strip().lower()
    name = _LABEL_TO_NAME.get(label)
    if name is not None:
        return name
    if label in _REFUSED:
        return None
    try:
        info = codecs.lookup(label)
    except (LookupError, ValueError):
        return None
    if not getattr(info, "_is_text_encoding", True) or info.name in _REFUSED:
        return None  # rot13, base64, zlib...: Python codecs that are not charsets
    return _CODEC_TO_NAME.get(info.name, info.name)


def _prescan(head: bytes) -> str | None:
    """Charset declared by ``<meta>`` or an XML declaration in ``head``."""
    match = _XML_DECL.match(head) or _META_CHARSET.search(head)
    if match is None:
        return None
    name = normalize_charset(match.group(1).decode("ascii"))
    # a <meta> that could be read as ASCII cannot be UTF-16 (WHATWG: use UTF-8)
    if name in ("utf-16be", "utf-16le"):
        return "utf-8"
    return name


def _valid_utf8_prefix(prefix: bytes, complete: bool) -> bool:
    try:
        prefix.decode("utf-8")
    except UnicodeDecodeError as exc:
        # a multi-byte character cut by the prefix end is fine
        return not complete and exc.start >= len(prefix) - 3 and exc.reason.startswith("unexp")
    return True


def sniff_charset(content_type: str | None, body: bytes) -> str:
    """The charset to decode ``body`` with (see the module docstring for the order)."""
    for bom, name in _BOMS:
        if body.startswith(bom):
            return name
    declared = normalize_charset(parse_content_type(content_type)[1])
    if declared is not None:
        return declared
    meta = _prescan(body[:PRESCAN_BYTES])
    if meta is not None:
        return meta
    prefix = body[:DETECT_BYTES]
    if _valid_utf8_prefix(prefix, complete=len(body) <= DETECT_BYTES):
        return "utf-8"
    from charset_normalizer import from_bytes  # imported late: slow to import, rarely used

    best = from_bytes(prefix).best()
    detected = normalize_charset(best.encoding) if best is not None else None
    # undeclared bytes that are not UTF-8: windows-1252 decodes anything (WHATWG's default)
    return detected or "windows-1252"
