"""derive_html: everything the summarizer keeps about one HTML page.

Pure: bytes and a URL in, a :class:`~unob.summarizer.document.Derived` out,
no I/O, and no exception for any input (a page that cannot be parsed gives
an empty Derived).  Steps: charset -> UTF-8 bytes (:mod:`.charset`), one
lxml parse, one walk over the tree (:mod:`.walk`), main content and text
pile (:mod:`.textpile`), metadata (:mod:`.meta`), links resolved
(:mod:`.linkresolve`), indexiness (:mod:`.indexiness`).
"""

from __future__ import annotations

from typing import cast

from unob.summarizer import patterns as P
from unob.summarizer.charset import to_utf8
from unob.summarizer.document import (
    Derived,
    DocumentDescription,
    Heading,
    Image,
    Link,
    LinkUnderConstruction,
    TextPile,
)
from unob.summarizer.indexiness import indexiness
from unob.summarizer.linkresolve import Base
from unob.summarizer.meta import MetaReader, keywords, normalize_language
from unob.summarizer.textpile import build_pile, choose_main, word_count
from unob.summarizer.walk import RawLink, Walked, walk

_EMPTY_PILE = TextPile("", "", "", "", "", "")


def derive_html(body: bytes, url: str, charset: str | None = None) -> Derived:
    """Derive text pile, description, headings, images and links of a page.

    ``charset`` is the transport-layer charset (HTTP ``Content-Type``) if
    any.  Never raises: unparseable input gives an empty result.
    """
    try:
        return _derive(body, url, charset)
    except Exception:
        # lxml errors, MemoryError on absurd input, and any bug in a heuristic:
        # one page must cost its content, not a summarize batch of thousands.
        # The property tests call _derive directly, so bugs still fail tests.
        return _empty(url)


def _empty(url: str) -> Derived:
    description = DocumentDescription(
        title=None,
        primary_headline=None,
        description=None,
        primary_language=None,
        keywords=(),
        author=None,
        image=None,
        category=None,
        published_unix_utc=None,
        modified_unix_utc=None,
        canonical_url=None,
        word_count=0,
        indexiness=0,
    )
    return Derived(_EMPTY_PILE, description, (), (), ())


def _derive(body: bytes, url: str, charset: str | None) -> Derived:
    data = to_utf8(body, charset)
    if not data.strip():
        return _empty(url)
    # The input is UTF-8 after to_utf8, and the parser's explicit encoding
    # overrides any <meta charset> libxml2 would otherwise obey.
    w = walk(data)
    main = choose_main(w)
    pile = build_pile(w, main)

    doc_base = Base(url)
    base = doc_base
    if w.base_href:
        resolved = doc_base.resolve(w.base_href)
        if resolved is not None:
            base = Base(resolved[0])
    main_nodes = {w.b_node[i] for i, flag in enumerate(main) if flag}
    links = _links(w, base, doc_base, main_nodes)
    reader = MetaReader(w)
    published = reader.published()
    headings = _headings(w)
    description = _describe(w, reader, base, headings, main_nodes, pile, links, published)
    images = _images(w, base)
    return Derived(pile, description, headings, images, links)


def _headings(w: Walked) -> tuple[Heading, ...]:
    out: list[Heading] = []
    strip_chars = P.HEADING_PERMALINK_CHARS
    for h in w.headings:
        text = " ".join("".join(h.pieces).split()).rstrip(strip_chars)
        if text:
            out.append(Heading(h.level, text, h.anchor, len(out)))
    return tuple(out)


def _links(w: Walked, base: Base, doc_base: Base, main_nodes: set[int]) -> tuple[Link, ...]:
    raw: list[RawLink] = list(w.links)
    for rels, href in w.link_rel:
        if not P.LINK_RELS.isdisjoint(rels):
            raw.append(RawLink(href, "link", rels, 0, -1, [], False, -1))
    refresh = _meta_refresh_target(w)
    if refresh is not None:
        raw.append(RawLink(refresh, "meta_refresh", (), 0, -1, [], False, -1))
    out: list[Link] = []
    resolve = base.resolve
    locality = doc_base.locality
    # Pages repeat hrefs (header and footer, "read more" beside the title).
    seen: dict[str, tuple[str, str | None, str] | None] = {}
    for link in raw:
        href = link.href
        if href in seen:
            resolved = seen[href]
        else:
            target = resolve(href)
            resolved = seen[href] = (
                None if target is None else (target[0], target[1], locality(target[0]))
            )
        if resolved is None:
            continue
        to_url, fragment, where = resolved
        pieces = link.pieces
        if len(pieces) == 1:
            text = " ".join(pieces[0].split())  # the common case: no "".join copy
        else:
            text = " ".join("".join(pieces).split()) if pieces else ""
        new = LinkUnderConstruction()
        new.to_url = to_url
        new.to_fragment = fragment
        new.text = text
        new.kind = link.kind
        new.locality = where
        new.position = len(out)
        new.rel = link.rel
        new.location = link.mask
        new.contains_heading = link.contains_heading
        new.in_main_content = link.node in main_nodes
        # Now a Link, frozen; Link(...) would cost ten times as much (see
        # LinkUnderConstruction).
        setattr(new, "__class__", Link)  # noqa: B010 (mypy rejects the plain assignment)
        out.append(cast(Link, new))
    return tuple(out)


def _meta_refresh_target(w: Walked) -> str | None:
    """The URL of ``<meta http-equiv=refresh content="5; url=...">`` (HTML §4.2.5.3)."""
    for key, content in w.meta:
        if key == "refresh":
            _, sep, rest = content.partition(";")
            if not sep:
                _, sep, rest = content.partition(",")
            rest = rest.strip()
            if rest[:3].lower() == "url":
                rest = rest[3:].lstrip()
                if rest.startswith("="):
                    rest = rest[1:].strip()
            rest = rest.strip("'\"")
            return rest or None
    return None


def _images(w: Walked, base: Base) -> tuple[Image, ...]:
    out: list[Image] = []
    for img in w.images:
        resolved = base.resolve(img.src)
        if resolved is None:
            continue
        src = resolved[0] if resolved[1] is None else f"{resolved[0]}#{resolved[1]}"
        alt = " ".join(img.alt.split()) if img.alt is not None else None
        out.append(Image(src, alt, _dimension(img.width), _dimension(img.height), len(out)))
    return tuple(out)


def _dimension(value: str | None) -> int | None:
    """The integer of a width/height attribute ("300", "300px"); None otherwise."""
    if not value:
        return None
    digits = ""
    for ch in value.strip():
        if "0" <= ch <= "9":
            digits += ch
        else:
            break
    if not digits or len(digits) > 6:
        return None
    return int(digits)


def _describe(
    w: Walked,
    reader: MetaReader,
    base: Base,
    headings: tuple[Heading, ...],
    main_nodes: set[int],
    pile: TextPile,
    links: tuple[Link, ...],
    published: int | None,
) -> DocumentDescription:
    h1s = [h for h in headings if h.level == 1]
    title = w.title or reader.first("og:title", "twitter:title")
    if not title and h1s:
        title = h1s[0].text
    # The primary headline: the first h1 (main-content ones preferred),
    # else og:title, else the first heading of any level.
    primary: str | None = None
    for raw_heading in w.headings:
        if raw_heading.level == 1 and raw_heading.node in main_nodes:
            text = " ".join("".join(raw_heading.pieces).split())
            if text:
                primary = text.rstrip(P.HEADING_PERMALINK_CHARS)
                break
    if primary is None and h1s:
        primary = h1s[0].text
    if primary is None:
        primary = reader.first("og:title") or (headings[0].text if headings else None)
    language = (
        normalize_language(w.lang)
        or normalize_language(reader.first("content-language", "language", "dc.language"))
        or normalize_language(reader.first("og:locale"))
    )
    image = reader.first("og:image", "og:image:url", "og:image:secure_url", "twitter:image")
    if image:
        resolved = base.resolve(image)
        image = resolved[0] if resolved else None
    canonical = None
    for rels, href in w.link_rel:
        if "canonical" in rels:
            resolved = base.resolve(href)
            if resolved is not None:
                canonical = resolved[0]
                break
    author = reader.first("author", "article:author", "dc.creator", "byl", "parsely-author")
    if author is None and w.json_ld:
        author = reader.json_ld_author()
    robots = reader.first("robots")
    return DocumentDescription(
        title=title or None,
        primary_headline=primary or None,
        description=reader.first("description", "og:description", "twitter:description"),
        primary_language=language,
        keywords=keywords(reader),
        author=author,
        image=image,
        category=reader.first("article:section", "product:category"),
        published_unix_utc=published,
        modified_unix_utc=reader.modified(),
        canonical_url=canonical,
        word_count=word_count(pile.text),
        indexiness=indexiness(links, published is not None),
        robots=tuple(robots.lower().replace(",", " ").split()) if robots else (),
        og_title=" ".join(og_title.split()) if (og_title := reader.first("og:title")) else None,
    )
