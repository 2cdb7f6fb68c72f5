"""Main content versus boilerplate, and the text pile built from it.

Input is a :class:`~unob.summarizer.walk.Walked` (flat nodes and blocks);
output is one boolean per block (main content or not) and the
:class:`~unob.summarizer.document.TextPile`.

Choosing the main content (the idea of readability.js, reworked for flat
lists; see docs/summarizer-extraction.md):

1. Every block with running text (>= 25 characters, mostly not link text,
   not in nav/aside/header/footer) scores ``1 + commas + min(len/100, 3)``
   and passes that score to its parent (full), grandparent (half) and three
   more ancestors (a third of the level).  A node starts from a base score
   by tag (article/div up, lists/forms down) plus its class/id weight.
2. A node's final score is its score times ``1 - link density``; the best
   node is the main container.  Its siblings join when they score at least
   a fifth of it, or are paragraphs of plain text.
3. Inside the chosen nodes, blocks are dropped when they sit in a junk
   subtree (class/id vocabulary of :mod:`~unob.summarizer.patterns`), in a
   nav/aside/footer/header that the container itself is not in, or are
   mostly link text.
"""

from __future__ import annotations

from unob.summarizer import patterns as P
from unob.summarizer.document import TextPile
from unob.summarizer.walk import Walked

MIN_BLOCK_CHARS = 25
#: A node's positive class/id weight counts only with this much text in it.
MIN_BONUS_CHARS = 400
#: The best container must score at least this much; below it the page has
#: no article-like part and everything outside the landmarks counts.
MIN_BEST_SCORE = 15.0
#: A class/id-named junk node holding more than this share of the page's text
#: is a wrapper, not junk.
JUNK_MAX_SHARE = 0.5
#: Main content shorter than this triggers a second choice without junk rules.
RETRY_BELOW_CHARS = 300
_COMMAS = (",", "，", "、", "،")
#: The characters str.split() separates words at (str.isspace), other than
#: " " and "\n"; a test checks the list against all of Unicode.
_ASCII_OTHER_SPACE = ("\t", "\v", "\f", "\r", "\x1c", "\x1d", "\x1e", "\x1f")
_OTHER_SPACE = (
    *_ASCII_OTHER_SPACE,
    *"\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a",
    *"\u2028\u2029\u202f\u205f\u3000",
)


def _commas(text: str) -> int:
    n = text.count(",")
    if n == 0 and not text.isascii():
        n = sum(text.count(c) for c in _COMMAS[1:])
    return n


def word_count(text: str) -> int:
    """``len(text.split())``, without building the list of words.

    The main text of a documentation page has thousands of words, and
    allocating each one cost ~1 M instructions a page.  Text piles separate
    words with single spaces and lines with newlines, so once no other
    whitespace is present (one fast scan per character kind), a line's words
    are its spaces plus one; lines with runs of spaces (code) are split.
    """
    others = _ASCII_OTHER_SPACE if text.isascii() else _OTHER_SPACE
    for space in others:
        if space in text:
            return len(text.split())
    words = 0
    for line in text.split("\n"):
        if not line:
            continue
        if line[0] == " " or line[-1] == " " or "  " in line:
            words += len(line.split())
        else:
            words += line.count(" ") + 1
    return words


def effective_junk(w: Walked, use_classes: bool = True) -> list[int]:
    """Per node, the nearest ancestor-or-self that is junk, or -1.

    A node named like boilerplate is not junk when it holds more than half
    of the page's text: such names on page-wide wrappers ("Page-ad-margins",
    "theiaStickySidebar") describe their decoration, not their content.
    """
    n = len(w.parent)
    eff = [-1] * n
    if not use_classes or n == 0:
        return eff
    parent = w.parent
    own = w.junk
    text_len = w.text_len
    limit = text_len[0] * JUNK_MAX_SHARE
    for node in range(n):
        if own[node] and text_len[node] <= limit:
            eff[node] = node
        else:
            par = parent[node]
            if par >= 0:
                eff[node] = eff[par]
    return eff


def score_nodes(w: Walked, junk: list[int]) -> dict[int, float]:
    """Step 1: content scores of candidate container nodes."""
    parent = w.parent
    tags = w.tag
    masks = w.mask
    weights = w.weight
    base = P.TAG_BASE_SCORE
    boiler = P.BOILERPLATE_LOCATIONS
    scores: dict[int, float] = {}
    b_node = w.b_node
    b_link = w.b_link
    text_len = w.text_len
    for i, text in enumerate(w.b_text):
        length = len(text)
        if length < MIN_BLOCK_CHARS:
            continue
        node = b_node[i]
        if node < 0 or masks[node] & boiler or junk[node] >= 0:
            continue
        if masks[node] & P.IN_HEADING:
            continue  # headings name content, they are not content mass
        if b_link[i] * 2 > length:
            continue
        content = 1.0 + _commas(text) + min(length / 100.0, 3.0)
        anc = parent[node] if tags[node] == "p" else node
        level = 0
        while anc >= 0 and level < 5:
            share = content if level == 0 else content / (2.0 if level == 1 else level * 3.0)
            current = scores.get(anc)
            if current is None:
                weight = weights[anc]
                if weight > 0 and text_len[anc] < MIN_BONUS_CHARS:
                    weight = 0.0  # a promising name on a headline box is not an article
                current = base.get(tags[anc], 0.0) + weight
            scores[anc] = current + share
            anc = parent[anc]
            level += 1
    return scores


def choose_main(w: Walked) -> list[bool]:
    """Steps 2 and 3: one flag per block, True when it is main content.

    When class/id junk rules leave almost nothing, they are dropped and the
    choice is made again (readability's retry with fewer flags).
    """
    main = _choose(w, effective_junk(w))
    chars = sum(len(t) for t, m in zip(w.b_text, main, strict=True) if m)
    if chars < RETRY_BELOW_CHARS:
        retry = _choose(w, effective_junk(w, use_classes=False))
        if sum(len(t) for t, m in zip(w.b_text, retry, strict=True) if m) > 2 * chars:
            return retry
    return main


def _choose(w: Walked, junk: list[int]) -> list[bool]:
    n_blocks = len(w.b_text)
    scores = score_nodes(w, junk)
    text_len = w.text_len
    link_len = w.link_len
    best = -1
    best_score = 0.0
    final: dict[int, float] = {}
    for node, score in scores.items():
        total = text_len[node]
        density = link_len[node] / total if total else 0.0
        value = score * (1.0 - density)
        final[node] = value
        if value > best_score:
            best_score = value
            best = node
    masks = w.mask
    boiler = P.BOILERPLATE_LOCATIONS
    b_node = w.b_node
    b_link = w.b_link
    b_text = w.b_text
    if best < 0 or best_score < MIN_BEST_SCORE:
        # No article-like container: everything outside landmarks and junk.
        return [node >= 0 and not masks[node] & boiler and junk[node] < 0 for node in b_node]

    roots = [best]
    par = w.parent[best]
    if par >= 0:
        threshold = max(10.0, best_score * 0.2)
        tags = w.tag
        for sib in range(par + 1, w.end[par] + 1):
            if sib == best or w.parent[sib] != par:
                continue
            if final.get(sib, 0.0) >= threshold or (
                # A paragraph, or a thin wrapper around one (CNN's lead).
                (tags[sib] == "p" or (w.end[sib] - sib <= 1 and junk[sib] < 0))
                and text_len[sib] >= 80
                and link_len[sib] * 4 < text_len[sib]
            ):
                roots.append(sib)
    roots.sort()
    ends = w.end
    tags = w.tag
    headings = P.HEADING_LEVEL
    main = [False] * n_blocks
    for i in range(n_blocks):
        node = b_node[i]
        if node < 0:
            continue
        for root in roots:
            if root <= node <= ends[root]:
                if junk[node] > root:
                    break
                if masks[node] & boiler & ~masks[root]:
                    break
                text = b_text[i]
                if b_link[i] * 2 > len(text) and len(text) < 200 and tags[node] not in headings:
                    break
                main[i] = True
                break
    return main


def build_pile(w: Walked, main: list[bool]) -> TextPile:
    """Assemble the six text-pile fields from the blocks and the main flags."""
    primary: list[str] = []
    secondary: list[str] = []
    code: list[str] = []
    quote: list[str] = []
    masks = w.mask
    b_node = w.b_node
    code_bits = P.IN_PRE
    for i, text in enumerate(w.b_text):
        if main[i]:
            primary.append(text)
            node = b_node[i]
            m = masks[node] if node >= 0 else 0
            if m & code_bits:
                code.append(text)
            if m & P.IN_QUOTE:
                quote.append(text)
        else:
            secondary.append(text)
    main_nodes = {b_node[i] for i in range(len(main)) if main[i]}
    big: list[str] = []
    small: list[str] = []
    for h in w.headings:
        text = " ".join("".join(h.pieces).split()).rstrip(P.HEADING_PERMALINK_CHARS)
        if not text:
            continue
        if h.node in main_nodes or h.level == 1:
            (big if h.level <= 3 else small).append(text)
    for text, node in w.inline_code:
        if node in main_nodes:
            code.append(text)
    return TextPile(
        text="\n".join(primary),
        secondary_text="\n".join(secondary),
        big_headlines="\n".join(big),
        small_headlines="\n".join(small),
        code_text="\n".join(code),
        quote_text="\n".join(quote),
    )
