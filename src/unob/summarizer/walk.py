"""One pass over an HTML page: blocks of text, headings, images, links, metadata.

The walk is the only place that touches lxml.  It turns the page into flat
Python lists that the rest of the summarizer works on:

* **nodes**: every block-level element, numbered in document (pre-)order,
  with its parent, tag, class/id weight, location bits and, once the walk is
  done, the text and link-text size of its subtree.  Because numbering is
  pre-order, "node *d* lies inside node *a*" is ``a <= d <= end[a]``.
* **blocks**: runs of text between block boundaries (one line of the text
  pile each), with the node that holds them and their link-text size.
* headings, images, raw links and head metadata, in document order.

No tree is built.  The reference walker, :class:`_Walker`, is an lxml
*parser target*: libxml2's parse events delivered as ``start(tag, attrib)``
/ ``data(text)`` / ``end(tag)`` calls (walking a built tree through element
proxies cost twice as much again).  Delivering an event to Python costs
more than libxml2 spends producing it, so the same walk also exists in C
(``_saxwalk.c``, see :func:`c_walker`): libxml2's HTML parser, taken from
lxml's module, calls it directly, and it calls back here only for the rules
that are not bookkeeping.  With it, the walk costs about what lxml's parse
alone does.
"""

from __future__ import annotations

import importlib
import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from unob.native import PURE_ENV
from unob.summarizer import patterns as P

# Page-level wrappers carry classes like "single-post has-sidebar": their
# class names describe the page, not the element, so they are never junk.
_NEVER_JUNK = frozenset({"html", "body", "main", "article"})


@dataclass(slots=True)
class RawLink:
    """A link as found, before URL resolution."""

    href: str
    kind: str
    rel: tuple[str, ...]
    mask: int
    node: int
    pieces: list[str] = field(default_factory=list)
    contains_heading: bool = False
    position: int = 0


@dataclass(slots=True)
class RawHeading:
    level: int
    node: int
    anchor: str | None
    pieces: list[str] = field(default_factory=list)


@dataclass(slots=True)
class RawImage:
    src: str
    alt: str | None
    width: str | None
    height: str | None
    node: int


@dataclass(slots=True)
class Walked:
    """Everything one walk collects (see module docstring)."""

    # Nodes (block-level elements), indexed by pre-order number.
    parent: list[int] = field(default_factory=list)
    tag: list[str] = field(default_factory=list)
    weight: list[float] = field(default_factory=list)
    mask: list[int] = field(default_factory=list)
    end: list[int] = field(default_factory=list)
    junk: list[bool] = field(default_factory=list)  # class/id says boilerplate
    ident: list[str | None] = field(default_factory=list)  # the id attribute
    text_len: list[int] = field(default_factory=list)  # subtree text chars
    link_len: list[int] = field(default_factory=list)  # subtree link-text chars
    # Blocks: parallel lists.
    b_node: list[int] = field(default_factory=list)
    b_text: list[str] = field(default_factory=list)
    b_link: list[int] = field(default_factory=list)
    headings: list[RawHeading] = field(default_factory=list)
    images: list[RawImage] = field(default_factory=list)
    links: list[RawLink] = field(default_factory=list)
    # Head metadata.
    title: str | None = None
    lang: str | None = None
    base_href: str | None = None
    meta: list[tuple[str, str]] = field(default_factory=list)  # (lowercased key, content)
    link_rel: list[tuple[tuple[str, ...], str]] = field(default_factory=list)
    json_ld: list[str] = field(default_factory=list)
    time_datetimes: list[tuple[str, int]] = field(default_factory=list)  # (value, mask)
    inline_code: list[tuple[str, int]] = field(default_factory=list)  # (text, node)


_token_cache: dict[str, int] = {}
_value_cache: dict[str, int] = {}
# Word bits.
_POS = 1
_NEG = 2
_UNLIKELY = 4
_MAYBE = 8
_HIDDEN = 16
# class/id separators: whitespace and the punctuation of BEM-style names.
_SEPARATORS = str.maketrans({c: " " for c in "-_:./\t\n"})


def _token_bits(token: str) -> int:
    bits = _token_cache.get(token)
    if bits is None:
        bits = 0
        # One search rules out most words; only vocabulary words pay for four.
        if (
            token in P.ANY_EXACT
            or token.startswith(P.ANY_PREFIX)
            or P.ANY_CONTAINED.search(token) is not None
        ):
            if P.POSITIVE.matches(token):
                bits |= _POS
            if P.NEGATIVE.matches(token):
                bits |= _NEG
            if P.UNLIKELY.matches(token):
                bits |= _UNLIKELY
            if P.MAYBE_CONTENT.matches(token):
                bits |= _MAYBE
        if len(_token_cache) > 50000:
            _token_cache.clear()
        _token_cache[token] = bits
    return bits


def _value_bits(value: str) -> int:
    """Vocabulary bits of a class or id attribute value; cached.

    The vocabularies of :mod:`~unob.summarizer.patterns` are matched per
    word (split at whitespace and ``-_:./``: ids like "post-12345" are
    unique per page but their words are not).  _HIDDEN marks a whole class
    name of HIDDEN_CLASSES.
    """
    bits = _value_cache.get(value)
    if bits is None:
        low = value.lower()
        bits = _HIDDEN if not P.HIDDEN_CLASSES.isdisjoint(low.split()) else 0
        for token in low.translate(_SEPARATORS).split():
            bits |= _token_bits(token)
        if len(_value_cache) > 50000:
            _value_cache.clear()
        _value_cache[value] = bits
    return bits


# Score weight and junk verdict by the vocabulary bits of class and id
# together: +25 for a POSITIVE word, -25 for a NEGATIVE one; junk is an
# UNLIKELY word without a MAYBE_CONTENT word.
_WEIGHT = tuple((25.0 if b & _POS else 0.0) - (25.0 if b & _NEG else 0.0) for b in range(16))
_JUNK = tuple(bool(b & _UNLIKELY) and not b & _MAYBE for b in range(16))


_IN_PRE = P.IN_PRE
_HEADING_LEVEL = P.HEADING_LEVEL
_PERMALINK_CHARS = P.HEADING_PERMALINK_CHARS


def _normalize_block(raw: str, in_pre: bool, heading: bool) -> str:
    """A block's text as stored: whitespace collapsed (kept, minus blank edges, in ``pre``).

    Empty when nothing is left.  Shared by both walkers (see :func:`walk`).
    """
    if in_pre:
        lines = [line.rstrip() for line in raw.split("\n")]
        while lines and not lines[0].strip():
            lines.pop(0)
        while lines and not lines[-1]:
            lines.pop()
        # One line has no indentation to keep relative to others: stripped
        # like any block (a text pile field never starts with blanks otherwise).
        return "\n".join(lines) if len(lines) > 1 else "".join(lines).strip()
    text = " ".join(raw.split())
    if not text:
        return text
    if heading:
        # "Title¶": the permalink mark of documentation generators.
        return text.rstrip(_PERMALINK_CHARS)
    if text[-1] == "¶":
        return text.rstrip("¶ ")  # Sphinx puts permalinks on definitions too
    return text


def _emit(w: Walked, node: int, raw: str, link_chars: int) -> None:
    """Append one block of text (raw, not yet whitespace-normalized)."""
    if node >= 0:
        text = _normalize_block(raw, bool(w.mask[node] & _IN_PRE), w.tag[node] in _HEADING_LEVEL)
    else:
        text = _normalize_block(raw, False, False)
    if not text:
        return
    w.b_node.append(node)
    w.b_text.append(text)
    w.b_link.append(link_chars)
    if node >= 0:
        w.text_len[node] += len(text)
        w.link_len[node] += link_chars


# What the walker does with each tag (anything not listed is a block).
_K_BLOCK = 0
_K_INLINE = 1
_K_SKIP = 2
_K_A = 3
_K_HEADING = 4
_K_IMG = 5
_K_CODE = 6
_K_BREAK = 7
_K_TIME = 8
_K_AREA = 9
_K_META = 11
_K_LINK = 12
_K_TITLE = 13
_K_SCRIPT = 14
_K_BASE = 15
_K_INLINE_LOC = 16  # inline, but sets a location bit (q, tt)

# <head> is an ordinary block: its children are meta/title/... (read as
# specials) and whitespace, which makes no block of text.
_KIND: dict[str, int] = {tag: _K_INLINE for tag in P.INLINE_TAGS}
_KIND.update({tag: _K_SKIP for tag in P.SKIP_TAGS})
_KIND.update({tag: _K_HEADING for tag in P.HEADING_LEVEL})
_KIND.update(
    {
        "a": _K_A,
        "area": _K_AREA,
        "img": _K_IMG,
        "code": _K_CODE,
        "kbd": _K_CODE,
        "samp": _K_CODE,
        "br": _K_BREAK,
        "hr": _K_BREAK,
        "time": _K_TIME,
        "meta": _K_META,
        "link": _K_LINK,
        "title": _K_TITLE,
        "script": _K_SCRIPT,
        "base": _K_BASE,
    }
)
_KIND.update(
    {
        tag: _K_INLINE_LOC
        for tag in P.INLINE_TAGS
        if _KIND[tag] == _K_INLINE and tag in P.TAG_LOCATION
    }
)


_TAG_LOCATION = P.TAG_LOCATION


class _Walker:
    """The parser target.  State lives in slots; see :func:`walk`."""

    __slots__ = (
        "buf",
        "buf_link",
        "captures",
        "cur_node",
        "in_link",
        "mask",
        "node_stack",
        "open_heading",
        "open_links",
        "position",
        "skip",
        "special",
        "special_kind",
        "stack",
        "w",
    )

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.w = Walked()
        # Per open element: (the mask to restore at its end) << 5 | its kind.
        self.stack: list[int] = []
        self.node_stack: list[int] = [-1]
        self.cur_node = -1
        self.mask = 0
        self.buf: list[str] = []
        self.buf_link = 0
        self.in_link = 0
        self.captures: list[list[str]] = []
        self.open_links: list[RawLink] = []
        self.open_heading: RawHeading | None = None
        self.position = 0
        self.skip = 0
        self.special: list[str] | None = None
        self.special_kind = 0

    # -- SAX events --------------------------------------------------------

    def start(self, tag: str, attrib: Mapping[str, str]) -> None:
        if self.skip:
            self.skip += 1
            return
        kind = _KIND.get(tag, _K_BLOCK)
        if kind == _K_INLINE:
            # Fast path for the commonest elements (<b>, <em>, <span
            # class="pre">): only hiding, ARIA roles and q/tt location matter.
            mask = new_mask = self.mask
            if attrib:
                cls = attrib.get("class")
                if cls:
                    bits = _value_cache.get(cls)
                    if bits is None:
                        bits = _value_bits(cls)
                    if bits & _HIDDEN:
                        self.skip = 1
                        return
                # Most inline elements carry a class and nothing else
                # (syntax highlighting): then the other checks are moot.
                if cls is None or len(attrib) > 1:
                    if "hidden" in attrib or attrib.get("aria-hidden") == "true":
                        self.skip = 1
                        return
                    style = attrib.get("style")
                    if style and ("none" in style or "hidden" in style) and _hidden_style(style):
                        self.skip = 1
                        return
                    role = attrib.get("role")
                    if role:
                        new_mask |= _role_bits(role)
            self.stack.append(mask << 5 | _K_INLINE)
            self.mask = new_mask
            return
        if kind == _K_SKIP or _K_META <= kind <= _K_BASE:
            self._start_special(kind, tag, attrib)
            return
        w = self.w
        ident = role = None
        weight = 0.0
        junk = False
        if attrib:
            if "hidden" in attrib or attrib.get("aria-hidden") == "true":
                # HTML's hidden attribute and ARIA hiding: not shown, not content.
                self.skip = 1
                return
            style = attrib.get("style")
            # The substring test spares the regex for most style attributes.
            if style and ("none" in style or "hidden" in style) and _hidden_style(style):
                self.skip = 1
                return
            cls = attrib.get("class")
            ident = attrib.get("id")
            role = attrib.get("role")
            if cls or ident:
                bits = 0
                if cls:
                    bits = _value_cache.get(cls)
                    if bits is None:
                        bits = _value_bits(cls)
                    if bits & _HIDDEN:
                        self.skip = 1
                        return
                if ident:
                    id_bits = _value_cache.get(ident)
                    bits |= _value_bits(ident) if id_bits is None else id_bits
                bits &= 15
                weight = _WEIGHT[bits]
                junk = _JUNK[bits] and tag not in _NEVER_JUNK
        saved_mask = mask = self.mask
        loc = _TAG_LOCATION.get(tag)
        if loc:
            mask |= loc
        if role:
            mask |= _role_bits(role)
        self.mask = mask

        if kind in (_K_BLOCK, _K_HEADING):
            buf = self.buf
            if buf:
                raw = "".join(buf)
                if not raw.isspace():
                    _emit(w, self.cur_node, raw, self.buf_link)
                self.buf = []
                self.buf_link = 0
            parent = w.parent
            nid = len(parent)
            parent.append(self.cur_node)
            w.tag.append(tag)
            w.weight.append(weight)
            w.mask.append(mask)
            w.end.append(nid)
            w.junk.append(junk)
            w.ident.append(ident)
            w.text_len.append(0)
            w.link_len.append(0)
            if kind == _K_HEADING and self.open_heading is None:
                anchor = ident
                par = self.cur_node
                if (
                    not anchor
                    and par == nid - 1
                    and w.tag[par] in _SECTIONING
                    and not (w.b_node and w.b_node[-1] == par)
                ):
                    # The heading opens its section (no block or text before
                    # it there): Sphinx and others put the id on the section.
                    anchor = w.ident[par]
                new_heading = RawHeading(P.HEADING_LEVEL[tag], nid, anchor, [])
                self.open_heading = new_heading
                w.headings.append(new_heading)
                self.captures.append(new_heading.pieces)
                for lk in self.open_links:
                    lk.contains_heading = True
            else:
                kind = _K_BLOCK
            self.node_stack.append(nid)
            self.cur_node = nid
            if nid < 3 and w.lang is None and (tag == "html" or tag == "body") and attrib:
                lang = attrib.get("lang") or attrib.get("xml:lang")
                if lang:
                    w.lang = _strip_lang(lang)
        elif kind in (_K_A, _K_AREA):
            href = attrib.get("href") if attrib else None
            if href is None:
                kind = _K_INLINE
                heading = self.open_heading
                if heading is not None and heading.anchor is None and attrib:
                    heading.anchor = attrib.get("id") or attrib.get("name")
            else:
                rel = attrib.get("rel")
                link = RawLink(
                    href,
                    tag,
                    _rel_tokens(rel) if rel else (),
                    mask,
                    self.cur_node,
                    [],
                    False,
                    self.position,
                )
                self.position += 1
                w.links.append(link)
                heading = self.open_heading
                if heading is not None and heading.anchor is None:
                    # A permalink inside the heading names its anchor.
                    anchor = attrib.get("id") or attrib.get("name")
                    if not anchor and href.startswith("#") and len(href) > 1:
                        anchor = href[1:]
                    heading.anchor = anchor or None
                if kind == _K_A:
                    self.open_links.append(link)
                    self.captures.append(link.pieces)
                    self.in_link += 1
                else:
                    alt = attrib.get("alt")
                    if alt:
                        link.pieces.append(alt)
        elif kind == _K_BREAK:
            buf = self.buf
            if buf:
                raw = "".join(buf)
                if not raw.isspace():
                    _emit(w, self.cur_node, raw, self.buf_link)
                self.buf = []
                self.buf_link = 0
        elif kind == _K_IMG:
            if attrib:
                _read_img(attrib, self.cur_node, w)
        elif kind == _K_CODE:
            if saved_mask & P.IN_CODE:
                kind = _K_INLINE  # code inside pre/code is part of that
            else:
                self.captures.append([])
        elif kind == _K_TIME:
            dt = attrib.get("datetime") if attrib else None
            if dt:
                w.time_datetimes.append((dt, mask))
        self.stack.append(saved_mask << 5 | kind)

    def _start_special(self, kind: int, tag: str, attrib: Mapping[str, str]) -> None:
        """Elements whose content is skipped but whose attributes or text count."""
        self.skip = 1
        w = self.w
        if kind == _K_META:
            if attrib:
                _read_meta(attrib, w)
        elif kind == _K_LINK:
            if attrib:
                _read_link_rel(attrib, w)
        elif kind == _K_BASE:
            if attrib:
                _read_base(attrib, w)
        elif kind == _K_TITLE:
            if w.title is None and not self.mask & P.IN_HEADING:
                self.special = []
                self.special_kind = kind
        elif kind == _K_SCRIPT and attrib and _is_json_ld(attrib):
            self.special = []
            self.special_kind = kind

    def data(self, text: str) -> None:
        if self.skip:
            special = self.special
            if special is not None and self.skip == 1:
                special.append(text)
            return
        self.buf.append(text)
        if self.in_link:
            self.buf_link += len(text)
        for cap in self.captures:
            cap.append(text)

    def end(self, tag: str) -> None:
        if self.skip:
            self.skip -= 1
            if not self.skip and self.special is not None:
                _finish_special(self.w, self.special_kind == _K_TITLE, "".join(self.special))
                self.special = None
            return
        entry = self.stack.pop()
        kind = entry & 31
        self.mask = entry >> 5
        if kind == _K_INLINE:
            return  # the commonest end: nothing to close
        if kind in (_K_BLOCK, _K_HEADING):
            w = self.w
            nid = self.node_stack.pop()
            buf = self.buf
            if buf:
                raw = "".join(buf)
                if not raw.isspace():
                    _emit(w, nid, raw, self.buf_link)
                self.buf = []
                self.buf_link = 0
            w.end[nid] = len(w.parent) - 1
            cur = self.node_stack[-1]
            self.cur_node = cur
            if cur >= 0:
                w.text_len[cur] += w.text_len[nid]
                w.link_len[cur] += w.link_len[nid]
            if kind == _K_HEADING:
                self.captures.pop()
                self.open_heading = None
        elif kind == _K_A:
            self.open_links.pop()
            self.captures.pop()
            self.in_link -= 1
        elif kind == _K_CODE:
            code_text = _collapse("".join(self.captures.pop()))
            if code_text:
                self.w.inline_code.append((code_text, self.cur_node))

    def close(self) -> Walked:
        buf = self.buf
        if buf:
            raw = "".join(buf)
            if not raw.isspace():
                _emit(self.w, -1, raw, self.buf_link)
        w = self.w
        self.reset()
        return w


# Elements whose id a heading opening them stands for.
_SECTIONING = frozenset({"section", "div", "article"})

_PARSER_OPTIONS = {
    "encoding": "utf-8",
    "remove_comments": True,
    "remove_pis": True,
    "no_network": True,
    "collect_ids": False,
    "default_doctype": False,
}
_local = threading.local()


def walk(data: bytes) -> Walked:
    """Parse UTF-8 HTML bytes and walk them once (see module docstring).

    With the C walker (:func:`c_walker`), libxml2's parser (the one lxml
    uses) delivers its events to C code; otherwise :class:`_Walker` is
    lxml's parser target.  Both give equal results
    (tests/summarizer/test_saxwalk.py).
    """
    module = c_walker()
    return walk_events(data) if module is None else walk_c(data, module)


def walk_c(data: bytes, module: Any) -> Walked:
    """:func:`walk` by the C walker ``module`` (libxml2's parser, its events handled in C)."""
    walked: Walked = module.walk(data)
    return walked


def walk_events(data: bytes) -> Walked:
    """:func:`walk` with :class:`_Walker` as lxml's parser target (the reference).

    One parser and target per thread: lxml parsers must not be shared
    between threads, and building one costs more than a small page.
    """
    pair = getattr(_local, "pair", None)
    if pair is None:
        target = _Walker()
        parser = etree.HTMLParser(target=target, **_PARSER_OPTIONS)
        pair = (parser, target)
        _local.pair = pair
    parser, target = pair
    try:
        result: Walked = etree.fromstring(data, parser)
    except BaseException:
        target.reset()
        raise
    return result


_c_module: list[Any] = []  # [the configured C walker module, or None], once decided


def c_walker() -> Any:
    """The C walker (``unob.summarizer._saxwalk``), configured; None to use :class:`_Walker`.

    None when the sources are in use (``UNOB_PURE_PYTHON``, see
    :mod:`unob.native`), the extension was not built, or the installed lxml
    does not export libxml2's parser functions.
    """
    if not _c_module:
        module: Any = None
        if os.environ.get(PURE_ENV) != "1":
            try:
                # import_module: mypyc's compiled `from unob.summarizer import
                # _saxwalk` looks for an attribute and does not import it.
                module = importlib.import_module("unob.summarizer._saxwalk")
            except ImportError:
                module = None
        if module is not None:
            try:
                module.configure(*_c_config())
            except ImportError:
                module = None
        _c_module.append(module)
    return _c_module[0]


def _c_config() -> tuple[Any, ...]:
    """What the C walker needs of this module, in the order of its configure()."""
    tags = {*_KIND, *_TAG_LOCATION, *_HEADING_LEVEL, *_NEVER_JUNK, *_SECTIONING, "html", "body"}
    info = {
        tag: (
            _KIND.get(tag, _K_BLOCK),
            _TAG_LOCATION.get(tag, 0),
            _HEADING_LEVEL.get(tag, 0),
            (_F_SECTIONING if tag in _SECTIONING else 0)
            | (_F_NEVER_JUNK if tag in _NEVER_JUNK else 0)
            | (_F_HTML_OR_BODY if tag in ("html", "body") else 0),
        )
        for tag in tags
    }
    return (
        info,
        _role_bits,
        _value_cache,
        _value_bits,
        _hidden_style,
        _normalize_block,
        _collapse,
        _read_img,
        _read_meta,
        _read_link_rel,
        _read_base,
        _is_json_ld,
        _finish_special,
        _strip_lang,
        _rel_tokens,
        Walked,
        RawLink,
        RawHeading,
        etree.__file__,
        _WEIGHT,
        _JUNK,
        _HIDDEN,
        P.IN_PRE,
        P.IN_CODE,
        P.IN_HEADING,
    )


# Tag flags of the C walker's table (its F_* values).
_F_SECTIONING = 1
_F_NEVER_JUNK = 2
_F_HTML_OR_BODY = 4


def _read_img(attrib: Mapping[str, str], node: int, w: Walked) -> None:
    get = attrib.get
    src = get("src")
    if not src or src.startswith("data:"):
        # Lazy loading: a placeholder (or nothing) in src, the image elsewhere.
        src = get("data-src") or get("data-lazy-src") or get("data-original")
        if not src:
            candidate = (get("srcset") or get("data-srcset") or "").split(",")[0].split()
            if candidate:
                src = candidate[0]
    if src and not src.startswith("data:"):
        w.images.append(RawImage(src, get("alt"), get("width"), get("height"), node))


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _role_bits(role: str) -> int:
    """Location bits of an ARIA role attribute."""
    return P.ROLE_LOCATION.get(role.strip().lower(), 0)


def _rel_tokens(rel: str) -> tuple[str, ...]:
    return tuple(rel.lower().split())


def _hidden_style(style: str) -> bool:
    return P.HIDDEN_STYLE.search(style) is not None


def _strip_lang(lang: str) -> str | None:
    return lang.strip() or None


def _read_link_rel(attrib: Mapping[str, str], w: Walked) -> None:
    rel = attrib.get("rel")
    href = attrib.get("href")
    if rel and href:
        w.link_rel.append((tuple(rel.lower().split()), href))


def _read_base(attrib: Mapping[str, str], w: Walked) -> None:
    href = attrib.get("href")
    if href and w.base_href is None:
        w.base_href = href


def _is_json_ld(attrib: Mapping[str, str]) -> bool:
    return (attrib.get("type") or "").strip().lower() == "application/ld+json"


def _finish_special(w: Walked, title: bool, text: str) -> None:
    """The text of a <title> or JSON-LD <script>, once its element ends."""
    if title:
        w.title = _collapse(text)
    elif text.strip():
        w.json_ld.append(text)


def _read_meta(attrib: Mapping[str, str], w: Walked) -> None:
    content = attrib.get("content")
    if content is None:
        return
    key = (
        attrib.get("property")
        or attrib.get("name")
        or attrib.get("itemprop")
        or attrib.get("http-equiv")
    )
    if key:
        w.meta.append((key.strip().lower(), content))
