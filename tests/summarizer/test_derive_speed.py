"""The shortcuts that make derive_html cheaper give exactly what the plain code gives.

Each shortcut replaces a straightforward expression (``Link(...)``,
``len(text.split())``); these tests hold
them to that expression.
"""

from __future__ import annotations

import pickle
import random
import sys
from dataclasses import FrozenInstanceError, fields

import pytest

from unob.summarizer.document import Link, LinkUnderConstruction
from unob.summarizer.extract import derive_html
from unob.summarizer.textpile import _OTHER_SPACE, word_count


def test_other_space_lists_every_separator_of_str_split() -> None:
    # word_count trusts that no other character separates words.
    separators = {chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()}
    assert separators - {" ", "\n"} == set(_OTHER_SPACE)


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "\n",
        "one",
        "two words",
        "a line\nanother line",
        "  indented code\n\n    more\n",
        "trailing \nspace",
        "tab\tseparated",
        "no\xa0break space",
        "ideographic\u3000space and é",
        "x\x1cy",
    ],
)
def test_word_count_is_len_split(text: str) -> None:
    assert word_count(text) == len(text.split())


def test_word_count_random_texts() -> None:
    rng = random.Random(7)
    alphabet = [" ", " ", "\n", "\n", "a", "b", "é", "\t", "\xa0", "\u2028", "\r"]
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        assert word_count(text) == len(text.split()), repr(text)


def test_link_under_construction_has_the_slots_of_link() -> None:
    assert LinkUnderConstruction.__slots__ == tuple(f.name for f in fields(Link))
    assert LinkUnderConstruction.__annotations__.keys() == Link.__annotations__.keys()


PAGE = b"""<html><head><title>T</title>
<link rel=next href="/p/2"><meta http-equiv=refresh content="5; url=/moved"></head>
<body><nav><a href="/">Home</a> <a href="docs/a.html#s1">Docs</a></nav>
<main><h1><a href="#top">Title</a></h1>
<p>Some text with a <a href="https://other.test/x?b=1" rel="nofollow ugc">link out</a>,
another to <a href="docs/a.html#s2">docs</a> and <a href="/p/2">page two</a>.</p>
<ul><li><a href="../up.html">Up</a></li><li><a href="mailto:x@y">mail</a></li></ul>
</main></body></html>"""


def test_derived_links_are_real_links() -> None:
    links = derive_html(PAGE, "https://site.test/dir/page.html").links
    assert len(links) >= 7
    for link in links:
        assert type(link) is Link
        rebuilt = Link(*(getattr(link, f.name) for f in fields(Link)))
        assert link == rebuilt
        assert hash(link) == hash(rebuilt)
        assert repr(link) == repr(rebuilt)
        assert pickle.dumps(link) == pickle.dumps(rebuilt)
        with pytest.raises(FrozenInstanceError):
            link.text = "changed"  # type: ignore[misc]
