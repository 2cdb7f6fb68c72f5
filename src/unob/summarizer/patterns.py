"""Extraction knowledge kept as data: tag sets and class/id patterns.

The walker in :mod:`unob.summarizer.extract` and the main-content chooser in
:mod:`unob.summarizer.textpile` read these tables; tuning the extractor
means editing this file and re-running ``bench/extraction.py``.  The
class/id vocabularies follow what readability.js, trafilatura and jusText
learnt from the web (words, not code, are borrowed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from unob.summarizer.document import (
    IN_ADDRESS as IN_ADDRESS,
)
from unob.summarizer.document import (
    IN_ARTICLE as IN_ARTICLE,
)
from unob.summarizer.document import (
    IN_ASIDE as IN_ASIDE,
)
from unob.summarizer.document import (
    IN_CODE as IN_CODE,
)
from unob.summarizer.document import (
    IN_FIGURE as IN_FIGURE,
)
from unob.summarizer.document import (
    IN_FOOTER as IN_FOOTER,
)
from unob.summarizer.document import (
    IN_FORM as IN_FORM,
)
from unob.summarizer.document import (
    IN_HEADER as IN_HEADER,
)
from unob.summarizer.document import (
    IN_HEADING as IN_HEADING,
)
from unob.summarizer.document import (
    IN_LIST as IN_LIST,
)
from unob.summarizer.document import (
    IN_MAIN as IN_MAIN,
)
from unob.summarizer.document import (
    IN_NAV as IN_NAV,
)
from unob.summarizer.document import (
    IN_PARAGRAPH as IN_PARAGRAPH,
)
from unob.summarizer.document import (
    IN_PRE as IN_PRE,
)
from unob.summarizer.document import (
    IN_QUOTE as IN_QUOTE,
)
from unob.summarizer.document import (
    IN_SECTION as IN_SECTION,
)
from unob.summarizer.document import (
    IN_TABLE as IN_TABLE,
)

#: Subtrees whose text is never visible or never content.
SKIP_TAGS: frozenset[str] = frozenset(
    {
        "script",
        "style",
        "noscript",
        "template",
        "svg",
        "math",
        "canvas",
        "iframe",
        "frame",
        "frameset",
        "object",
        "embed",
        "video",
        "audio",
        "select",
        "option",
        "optgroup",
        "datalist",
        "textarea",
        "button",
        "input",
        "title",
        "meta",
        "link",
        "base",
        "dialog",
    }
)

#: Elements that do not break a line of text.  Everything else (including
#: unknown custom elements) is treated as a block, so that the text of two
#: sibling blocks never runs together into one word.
INLINE_TAGS: frozenset[str] = frozenset(
    {
        "a",
        "abbr",
        "acronym",
        "b",
        "bdi",
        "bdo",
        "big",
        "cite",
        "code",
        "data",
        "del",
        "dfn",
        "em",
        "font",
        "i",
        "img",
        "ins",
        "kbd",
        "label",
        "mark",
        "nobr",
        "picture",
        "q",
        "rp",
        "rt",
        "ruby",
        "s",
        "samp",
        "small",
        "source",
        "span",
        "strike",
        "strong",
        "sub",
        "sup",
        "time",
        "tt",
        "u",
        "var",
        "wbr",
        "meter",
        "output",
        "progress",
        "area",
        "map",
    }
)

HEADING_LEVEL: dict[str, int] = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}

#: Blocks that hold running text: their text scores for main content.
PARAGRAPH_TAGS = frozenset({"p", "pre", "blockquote", "td", "dd", "li", "div", "section"})

#: Readability's base score by container tag: article-like containers up,
#: list/heading/form containers down.
TAG_BASE_SCORE = {
    "article": 8.0,
    "main": 5.0,
    "div": 5.0,
    "section": 3.0,
    "pre": 3.0,
    "td": 3.0,
    "blockquote": 3.0,
    "address": -3.0,
    "ol": -3.0,
    "ul": -3.0,
    "dl": -3.0,
    "dd": -3.0,
    "dt": -3.0,
    "li": -3.0,
    "form": -3.0,
    "th": -5.0,
}

# Location bits (a bitmask inherited down the tree) are Link.location bits,
# imported at the top of this module.

#: Tag -> location bit it sets for its whole subtree.
TAG_LOCATION: dict[str, int] = {
    "header": IN_HEADER,
    "footer": IN_FOOTER,
    "aside": IN_ASIDE,
    "nav": IN_NAV,
    "form": IN_FORM,
    "main": IN_MAIN,
    "article": IN_ARTICLE,
    "section": IN_SECTION,
    "table": IN_TABLE,
    "figure": IN_FIGURE,
    "address": IN_ADDRESS,
    "code": IN_CODE,
    "kbd": IN_CODE,
    "samp": IN_CODE,
    "tt": IN_CODE,
    "pre": IN_CODE | IN_PRE,
    "h1": IN_HEADING,
    "h2": IN_HEADING,
    "h3": IN_HEADING,
    "h4": IN_HEADING,
    "h5": IN_HEADING,
    "h6": IN_HEADING,
    "ul": IN_LIST,
    "ol": IN_LIST,
    "dl": IN_LIST,
    "menu": IN_LIST,
    "p": IN_PARAGRAPH,
    "blockquote": IN_QUOTE,
    "q": IN_QUOTE,
}

#: ARIA landmark roles (WAI-ARIA 1.2 §5.3.4) -> the location bit of the
#: element they stand for.
ROLE_LOCATION = {
    "banner": IN_HEADER,
    "contentinfo": IN_FOOTER,
    "complementary": IN_ASIDE,
    "navigation": IN_NAV,
    "search": IN_FORM,
    "form": IN_FORM,
    "main": IN_MAIN,
    "article": IN_ARTICLE,
    "heading": IN_HEADING,
    "list": IN_LIST,
    "menu": IN_NAV,
    "menubar": IN_NAV,
    "tablist": IN_NAV,
}

#: Landmarks that are boilerplate when found outside the chosen main content.
BOILERPLATE_LOCATIONS = IN_HEADER | IN_FOOTER | IN_ASIDE | IN_NAV

# Class/id vocabularies.  The walker splits a "class id" string into
# lowercase words at whitespace and "-_:./" and classifies each word.  A
# vocabulary is three lists: words that must match whole ("ad" must not
# match "head"), prefixes, and substrings (so camelCase "articleBody" still
# holds "body").  Plain words, not regular expressions with anchors: one
# search over an alternation of literals lets the regex engine skip ahead by
# first character (anchors disable that), and classifying the words of a
# site never seen before was a fifth of a page's cost with anchored patterns.


@dataclass(frozen=True, slots=True)
class Vocabulary:
    exact: frozenset[str]
    prefixes: tuple[str, ...]
    contains: tuple[str, ...]
    #: ``contains`` as one alternation of literals (built in __post_init__).
    contained: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        pattern = re.compile("|".join(re.escape(c) for c in self.contains))
        object.__setattr__(self, "contained", pattern)

    def matches(self, word: str) -> bool:
        return (
            word in self.exact
            or word.startswith(self.prefixes)
            or self.contained.search(word) is not None
        )


#: The element is boilerplate: its subtree is neither scored nor kept as
#: main content, unless one of its words is MAYBE_CONTENT.
UNLIKELY = Vocabulary(
    exact=frozenset({"ad", "ads", "rss", "pager", "signup", "bio", "nav"}),
    prefixes=(
        "advert", "adslot", "adwrap", "extra", "share", "modal", "overlay", "trending",
        "popular",
    ),
    contains=(
        "adcontainer", "ai2html", "banner", "breadcrumb", "combx", "comment", "community",
        "disqus", "footer", "gdpr", "header", "legends", "menu", "related", "remark",
        "replies", "shoutbox", "sidebar", "skyscraper", "social", "sponsor", "supplement",
        "agegate", "pagination", "popup", "sharing", "newsletter", "cookie", "consent",
        "outbrain", "taboola", "recommend", "subscribe", "toolbar", "byline", "authorbio",
        "navbar", "navigation",
    ),
)  # fmt: skip

#: Words that rescue an UNLIKELY element: it may hold the content.
MAYBE_CONTENT = Vocabulary(
    exact=frozenset({"main"}),
    prefixes=("entry",),
    contains=("article", "body", "column", "content", "shadow", "story", "posttext"),
)

#: +25 to a container's score.
POSITIVE = Vocabulary(
    exact=frozenset({"main", "page", "post", "text", "prose"}),
    prefixes=("entry", "blog"),
    contains=("article", "body", "content", "hentry", "story", "markdown", "richtext"),
)

#: -25 to a container's score.
NEGATIVE = Vocabulary(
    exact=frozenset({"ad", "ads", "hidden", "hid", "com", "media", "meta", "tag", "tags"}),
    prefixes=("foot", "scroll", "share", "tool", "author"),
    contains=(
        "banner", "combx", "comment", "contact", "footnote", "masthead", "outbrain", "promo",
        "related", "shoutbox", "sidebar", "skyscraper", "sponsor", "shopping", "widget",
        "caption", "credit", "newsletter", "subscribe", "social", "byline", "timestamp",
        "dateline", "published", "breadcrumb",
    ),
)  # fmt: skip

_VOCABULARIES = (UNLIKELY, MAYBE_CONTENT, POSITIVE, NEGATIVE)
#: Any word of any vocabulary (most words match none): exact, prefix, substring.
ANY_EXACT: frozenset[str] = frozenset().union(*(v.exact for v in _VOCABULARIES))
ANY_PREFIX = tuple(sorted({p for v in _VOCABULARIES for p in v.prefixes}))
ANY_CONTAINED = re.compile(
    "|".join(sorted({re.escape(c) for v in _VOCABULARIES for c in v.contains}))
)

#: Class names (whole tokens) of elements that are never shown on screen.
HIDDEN_CLASSES = frozenset(
    {
        "hidden",
        "d-none",
        "is-hidden",
        "u-hidden",
        "sr-only",
        "visually-hidden",
        "visuallyhidden",
        "screen-reader-text",
        "screen-reader-only",
        "element-invisible",
        "offscreen",
    }
)

#: ``style`` attributes that hide an element.
HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)

#: Trailing permalink marks that documentation generators put in headings.
HEADING_PERMALINK_CHARS = "¶#§🔗⚓\u00b6 \t\n"

#: ``<link rel=...>`` values that name a document worth a link_summary row.
LINK_RELS = frozenset(
    {
        "next",
        "prev",
        "previous",
        "alternate",
        "canonical",
        "author",
        "license",
        "help",
        "index",
        "up",
        "first",
        "last",
        "contents",
        "search",
    }
)
