"""One pass over a parsed HTML tree: blocks of text, headings, images, links, metadata.

The walk is the only place that touches lxml elements.  It turns the tree
into flat Python lists that the rest of the summarizer works on:

* **nodes**: every block-level element, numbered in document (pre-)order,
  with its parent, tag, class/id weight, location bits and, once the walk is
  done, the text and link-text size of its subtree.  Because numbering is
  pre-order, "node *d* lies inside node *a*" is ``a <= d <= end[a]``.
* **blocks**: runs of text between block boundaries (one line of the text
  pile each), with the node that holds them and their link-text size.
* headings, images, raw links and head metadata, in document order.

It is written as one flat loop over ``lxml.etree.iterwalk`` events with
local variables, because it runs once per crawled page and its cost is most
of :func:`~unob.summarizer.extract.derive_html` after the parse itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from unob.summarizer import patterns as P

_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
# Location bit for the walker only: inside <head>, where text is not content.
_IN_HEAD = 1 << 24
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
    label: list[str] = field(default_factory=list)  # "class id", for debugging and tuning
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


_weight_cache: dict[str, tuple[float, bool, bool]] = {}


def _class_weight(key: str) -> tuple[float, bool, bool]:
    """(score weight, is junk, is hidden) for a "class id" string; cached."""
    hit = _weight_cache.get(key)
    if hit is not None:
        return hit
    low = key.lower()
    weight = 0.0
    if P.POSITIVE.search(low):
        weight += 25.0
    if P.NEGATIVE.search(low):
        weight -= 25.0
    junk = P.UNLIKELY.search(low) is not None and P.MAYBE_CONTENT.search(low) is None
    hidden = not P.HIDDEN_CLASSES.isdisjoint(low.split())
    result = (weight, junk, hidden)
    if len(_weight_cache) > 20000:
        _weight_cache.clear()
    _weight_cache[key] = result
    return result


def _flush_text(pieces: list[str], pre: bool) -> str:
    raw = "".join(pieces)
    if pre:
        lines = [line.rstrip() for line in raw.split("\n")]
        while lines and not lines[0].strip():
            lines.pop(0)
        while lines and not lines[-1]:
            lines.pop()
        return "\n".join(lines)
    return " ".join(raw.split())


def walk(root: etree._Element) -> Walked:
    """Walk the tree under ``root`` once (see module docstring)."""
    w = Walked()
    parent = w.parent
    tags = w.tag
    weights = w.weight
    masks = w.mask
    ends = w.end
    junks = w.junk
    text_len = w.text_len
    link_len = w.link_len
    b_node = w.b_node
    b_text = w.b_text
    b_link = w.b_link
    links = w.links
    headings = w.headings

    skip_tags = P.SKIP_TAGS
    inline_tags = P.INLINE_TAGS
    tag_location = P.TAG_LOCATION
    heading_level = P.HEADING_LEVEL
    role_location = P.ROLE_LOCATION
    hidden_style = P.HIDDEN_STYLE
    in_pre_bit = P.IN_PRE
    in_code_bit = P.IN_CODE

    # The element stack: per open element, what to undo at its end event.
    # kinds: 0 inline, 1 block node, 2 skipped, 3 link, 4 heading, 6 inline code
    kind_stack: list[int] = []
    mask_stack: list[int] = []
    node_stack: list[int] = [-1]
    cur_node = -1
    mask = 0
    buf: list[str] = []
    buf_link = 0
    in_link = 0
    captures: list[list[str]] = []
    open_links: list[RawLink] = []
    code_stack: list[list[str]] = []
    code_pieces: list[str]
    open_heading: RawHeading | None = None
    position = 0

    labels = w.label

    def add_node(tag: str, weight: float, node_mask: int, junk: bool, label: str) -> int:
        nid = len(parent)
        par = node_stack[-1]
        parent.append(par)
        tags.append(tag)
        weights.append(weight)
        masks.append(node_mask)
        ends.append(nid)
        labels.append(label)
        junks.append(junk)
        text_len.append(0)
        link_len.append(0)
        return nid

    walker = etree.iterwalk(root, events=("start", "end"))
    for event, el in walker:
        tag = el.tag
        if event == "start":
            if type(tag) is not str:
                # Comments, processing instructions, entities: no text of ours.
                walker.skip_subtree()
                kind_stack.append(2)
                mask_stack.append(mask)
                continue
            if tag in skip_tags:
                walker.skip_subtree()
                kind_stack.append(2)
                mask_stack.append(mask)
                if tag == "head":
                    _read_head(el, w)
                elif tag == "title" and w.title is None and not (mask & P.IN_HEADING):
                    w.title = " ".join(
                        etree.tostring(el, method="text", encoding="unicode").split()
                    )
                elif tag == "meta":
                    _read_meta(el, w)
                elif tag == "link":
                    _read_link(el, w)
                elif tag == "script" and (el.get("type") or "").lower() == "application/ld+json":
                    if el.text:
                        w.json_ld.append(el.text)
                continue

            cls = el.get("class")
            ident = el.get("id")
            weight = 0.0
            junk = False
            label = ""
            if cls or ident:
                label = f"{cls or ''} {ident or ''}"
                weight, junk, hidden = _class_weight(label)
                if junk and tag in _NEVER_JUNK:
                    junk = False
            else:
                hidden = False
            # Hidden content is not content (HTML "hidden" attribute, ARIA
            # hidden, screen-reader-only classes, inline display:none).
            if hidden or el.get("hidden") is not None or el.get("aria-hidden") == "true":
                walker.skip_subtree()
                kind_stack.append(2)
                mask_stack.append(mask)
                continue
            style = el.get("style")
            if style and hidden_style.search(style):
                walker.skip_subtree()
                kind_stack.append(2)
                mask_stack.append(mask)
                continue

            mask_stack.append(mask)
            loc = tag_location.get(tag)
            if loc:
                mask |= loc
            role = el.get("role")
            if role:
                loc = role_location.get(role.strip().lower())
                if loc:
                    mask |= loc
            if tag == "html" or tag == "body":
                if w.lang is None:
                    lang = el.get("lang") or el.get("xml:lang") or el.get(_XML_LANG)
                    if lang and lang.strip():
                        w.lang = lang.strip()

            if tag in inline_tags:
                if tag == "a" or tag == "area":
                    href = el.get("href")
                    if href is not None:
                        rel = el.get("rel")
                        link = RawLink(
                            href,
                            tag,
                            tuple(rel.lower().split()) if rel else (),
                            mask,
                            cur_node,
                            [],
                            False,
                            position,
                        )
                        position += 1
                        links.append(link)
                        if tag == "a":
                            open_links.append(link)
                            captures.append(link.pieces)
                            in_link += 1
                            kind_stack.append(3)
                        else:
                            alt = el.get("alt")
                            if alt:
                                link.pieces.append(alt)
                            kind_stack.append(0)
                    else:
                        kind_stack.append(0)
                elif tag == "img":
                    src = (
                        el.get("src")
                        or el.get("data-src")
                        or el.get("data-lazy-src")
                        or el.get("data-original")
                    )
                    if not src or src.startswith("data:"):
                        srcset = el.get("srcset") or el.get("data-srcset")
                        if srcset:
                            src = srcset.strip().split(",")[0].split()[0] if srcset.strip() else src
                    if src and not src.startswith("data:"):
                        w.images.append(
                            RawImage(
                                src, el.get("alt"), el.get("width"), el.get("height"), cur_node
                            )
                        )
                    kind_stack.append(0)
                elif tag == "time":
                    dt = el.get("datetime")
                    if dt:
                        w.time_datetimes.append((dt, mask))
                    kind_stack.append(0)
                elif (tag == "code" or tag == "kbd" or tag == "samp") and not (
                    mask_stack[-1] & in_code_bit
                ):
                    code_pieces = []
                    code_stack.append(code_pieces)
                    captures.append(code_pieces)
                    kind_stack.append(6)
                else:
                    kind_stack.append(0)
                text = el.text
                if text:
                    buf.append(text)
                    if in_link:
                        buf_link += len(text)
                    for cap in captures:
                        cap.append(text)
                continue

            # A block-level element: what came before belongs to the outer node.
            if buf:
                pre = bool(masks[cur_node] & in_pre_bit) if cur_node >= 0 else False
                flushed = _flush_text(buf, pre)
                if flushed:
                    b_node.append(cur_node)
                    b_text.append(flushed)
                    b_link.append(buf_link)
                    if cur_node >= 0:
                        text_len[cur_node] += len(flushed)
                        link_len[cur_node] += buf_link
                buf = []
                buf_link = 0
            if tag == "br" or tag == "hr" or tag == "wbr":
                kind_stack.append(0)
                continue
            nid = add_node(tag, weight, mask, junk, label)
            node_stack.append(nid)
            cur_node = nid
            level = heading_level.get(tag)
            if level is not None and open_heading is None:
                anchor = ident
                if not anchor:
                    anchor = _heading_anchor(el)
                open_heading = RawHeading(level, nid, anchor, [])
                headings.append(open_heading)
                captures.append(open_heading.pieces)
                for lk in open_links:
                    lk.contains_heading = True
                kind_stack.append(4)
            else:
                kind_stack.append(1)
            text = el.text
            if text:
                buf.append(text)
                if in_link:
                    buf_link += len(text)
                for cap in captures:
                    cap.append(text)
            continue

        # ---- end event ----
        kind = kind_stack.pop()
        mask = mask_stack.pop()
        if kind == 1 or kind == 4:
            nid = node_stack.pop()
            if buf:
                flushed = _flush_text(buf, bool(masks[nid] & in_pre_bit))
                if flushed:
                    b_node.append(nid)
                    b_text.append(flushed)
                    b_link.append(buf_link)
                    text_len[nid] += len(flushed)
                    link_len[nid] += buf_link
                buf = []
                buf_link = 0
            ends[nid] = len(parent) - 1
            par = parent[nid]
            if par >= 0:
                text_len[par] += text_len[nid]
                link_len[par] += link_len[nid]
            cur_node = node_stack[-1]
            if kind == 4 and open_heading is not None:
                captures.pop()
                open_heading = None
        elif kind == 3:
            link = open_links.pop()
            captures.pop()
            in_link -= 1
        elif kind == 6:
            code_pieces = code_stack.pop()
            captures.pop()
            code_text = " ".join("".join(code_pieces).split())
            if code_text:
                w.inline_code.append((code_text, cur_node))
        elif tag == "br" and buf:
            buf.append("\n")
        tail = el.tail
        if tail:
            buf.append(tail)
            if in_link:
                buf_link += len(tail)
            for cap in captures:
                cap.append(tail)

    if buf:
        flushed = _flush_text(buf, False)
        if flushed:
            b_node.append(-1)
            b_text.append(flushed)
            b_link.append(buf_link)
    return w


def _heading_anchor(el: etree._Element) -> str | None:
    """The fragment that addresses a heading without its own id.

    Tried in order: an ``<a id|name>`` inside it; a permalink ``<a
    href="#x">`` inside it (Sphinx, MkDocs, Hugo); the id of the section it
    opens (Sphinx puts the id on ``<section>``/``<div class="section">``).
    """
    for child in el.iter("a"):
        ident = child.get("id") or child.get("name")
        if ident:
            return ident
        href = child.get("href")
        if href and href.startswith("#") and len(href) > 1:
            return href[1:]
    par = el.getparent()
    if par is not None and par.tag in ("section", "div", "article"):
        ident = par.get("id")
        if ident:
            prev = el.getprevious()
            while prev is not None and type(prev.tag) is not str:
                prev = prev.getprevious()
            if prev is None:
                return ident
    return None


def _read_head(head: etree._Element, w: Walked) -> None:
    for el in head:
        tag = el.tag
        if tag == "meta":
            _read_meta(el, w)
        elif tag == "link":
            _read_link(el, w)
        elif tag == "title":
            if w.title is None:
                w.title = " ".join((el.text or "").split())
        elif tag == "base":
            href = el.get("href")
            if href and w.base_href is None:
                w.base_href = href
        elif tag == "script":
            if (el.get("type") or "").lower() == "application/ld+json" and el.text:
                w.json_ld.append(el.text)


def _read_meta(el: etree._Element, w: Walked) -> None:
    content = el.get("content")
    if content is None:
        return
    key = el.get("property") or el.get("name") or el.get("itemprop") or el.get("http-equiv")
    if key:
        w.meta.append((key.strip().lower(), content))


def _read_link(el: etree._Element, w: Walked) -> None:
    rel = el.get("rel")
    href = el.get("href")
    if rel and href:
        w.link_rel.append((tuple(rel.lower().split()), href))
