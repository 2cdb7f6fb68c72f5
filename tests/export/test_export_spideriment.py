"""Spideriment rows: field limits, the snippet algorithm, and the loader round trip."""

from __future__ import annotations

import csv
import io
import json

from export_helpers import FIELDS, make_page
from hypothesis import given
from hypothesis import strategies as st

from unob.export.records import HeadingRef, ImageRef, LinkRef, PageRecord, TextFields
from unob.export.spideriment import (
    LIMITS,
    Snippet,
    canonical_url,
    encode_row,
    snippet_from_html,
    snippet_from_text,
    spideriment_row,
)


def load(text: str) -> list[dict[str, object]]:
    """The search server's loader: csv.reader, then json.loads(row[0])."""
    return [json.loads(row[0]) for row in csv.reader(io.StringIO(text))]


def test_row_has_the_sixteen_fields_in_order(page: PageRecord) -> None:
    row = spideriment_row(page, Snippet("Some text", 1.0))
    assert list(row) == FIELDS
    assert row["original_url"] == "http://example.org/old"
    assert row["final_url"] == "https://example.org/docs/page"
    assert row["original_canonical_url"] == "example.org/old"
    assert row["final_canonical_url"] == "example.org/docs/page"
    assert row["crawl_timestamp"] == 1_780_000_000
    assert row["headings"] == {
        "h1": ["Tide pools"],
        "h2": ["Who lives there", "Visiting"],
        "h3": ["Anemones"],
        "h4": [],
        "h5": [],
        "h6": [],
    }
    assert row["keywords"] == "tide pools, anemones, ocean"
    assert row["image_alts"] == "An anemone"
    # Only <a href> to http(s) counts: not mailto:, not <link rel=next>.
    assert row["total_links_count"] == 2
    assert row["link_texts"] == "Home Elsewhere"


def test_original_url_defaults_to_the_page_url() -> None:
    row = spideriment_row(make_page(original_url=""), Snippet("", 0.0))
    assert row["original_url"] == row["final_url"]
    assert row["original_canonical_url"] == row["final_canonical_url"]


def test_canonical_url_drops_the_scheme_only() -> None:
    assert canonical_url("https://Example.org/A/b/?q=1") == "Example.org/A/b/?q=1"
    assert canonical_url("http://example.org/") == "example.org/"


def test_limits_cut_by_characters_and_collapse_whitespace() -> None:
    page = make_page(
        title="word " * 100,
        description="d\n\t" * 200,
        author="Ä" * 80,
        keywords=("k" * 99, "tail"),
        language=" en - GB ",
        headings=tuple(HeadingRef(2, f"  heading   {i} " + "x" * 100) for i in range(8)),
    )
    row = spideriment_row(page, Snippet("s " * 3000, 0.5))
    assert len(row["title"]) <= LIMITS.title and row["title"] == row["title"].strip()
    assert row["title"].startswith("word word")
    assert "\n" not in row["description"] and len(row["description"]) <= LIMITS.description
    assert row["author"] == "Ä" * LIMITS.author
    assert len(row["keywords"]) == LIMITS.keywords
    # The reference does not strip keywords after cutting: a cut can end on a space.
    assert row["keywords"] == ("k" * 99 + ",")[: LIMITS.keywords]
    assert row["language"] == "en-GB"
    assert len(row["headings"]["h2"]) == LIMITS.headings_per_level
    assert all(len(h) <= LIMITS.heading for h in row["headings"]["h2"])
    assert row["headings"]["h2"][0].startswith("heading 0 x")
    assert len(row["content_snippet"]) <= LIMITS.snippet
    assert row["content_snippet_quality"] == 0.5


def test_empty_headings_use_up_a_slot_like_the_reference() -> None:
    headings = (HeadingRef(3, ""),) * 4 + (HeadingRef(3, "fifth"), HeadingRef(3, "sixth"))
    row = spideriment_row(make_page(headings=headings), Snippet("", 0.0))
    assert row["headings"]["h3"] == ["fifth"]


def test_image_alts_and_link_texts_stop_accumulating_at_their_limits() -> None:
    images = tuple(ImageRef(f"https://e.org/{i}.png", f"alt {i} " + "a" * 30) for i in range(10))
    links = tuple(LinkRef(f"https://e.org/{i}", "link " + "t" * 60, "a", "in") for i in range(10))
    row = spideriment_row(make_page(images=images, links=links), Snippet("", 0.0))
    assert len(row["image_alts"]) == LIMITS.image_alts
    assert row["image_alts"].startswith("alt 0 ")
    assert len(row["link_texts"]) == LIMITS.link_texts
    assert row["total_links_count"] == 10  # counted beyond the text limit


def test_quality_is_clamped() -> None:
    assert spideriment_row(make_page(), Snippet("x", 7.0))["content_snippet_quality"] == 1.0
    assert spideriment_row(make_page(), Snippet("x", -1.0))["content_snippet_quality"] == 0.0


def test_snippet_tiers_follow_the_reference_order() -> None:
    html = b"""<html><head><style>p{}</style><script>var p;</script></head><body>
      <div>menu <b>bold</b> <i>italic</i></div>
      <p> First   paragraph.</p><p></p><p>Second <em>one</em>.</p>
    </body></html>"""
    assert snippet_from_html(html) == Snippet("First paragraph. Second one.", 1.0)
    assert snippet_from_html(b"<div>x <strong>strong</strong> <b>b</b></div>") == Snippet(
        "strong b", 0.75
    )
    assert snippet_from_html(b"<div><i>it</i><u>u</u></div>") == Snippet("it u", 0.4)
    assert snippet_from_html(b"<table><tr><td>cell</td></tr></table>") == Snippet("cell", 0.15)
    # Nested divs repeat their text, as find_all + get_text did in the reference.
    assert snippet_from_html(b"<div>a<div>b</div></div>") == Snippet("ab b", 0.1)
    assert snippet_from_html(b"<html><body>bare text</body></html>") == Snippet("bare text", 0.05)
    assert snippet_from_html(b"<html><body><script>x</script></body></html>") == Snippet("", 0.0)
    assert snippet_from_html(b"") == Snippet("", 0.0)


def test_snippet_stops_after_the_limit_and_is_cut() -> None:
    paragraphs = "".join(f"<p>{'w' * 1000} {i}</p>" for i in range(10)).encode()
    snippet = snippet_from_html(paragraphs)
    assert len(snippet.text) == LIMITS.snippet
    assert snippet.text.startswith("w" * 1000 + " 0 ")


def test_snippet_uses_the_recorded_charset() -> None:
    body = "<p>Rückkehr des Nachtzugs</p>".encode("latin-1")
    assert snippet_from_html(body, "iso-8859-1").text == "Rückkehr des Nachtzugs"
    assert snippet_from_html(body, "no-such-charset").quality == 1.0


def test_snippet_from_text_pile_prefers_main_content() -> None:
    assert snippet_from_text(TextFields(text="a\nb", secondary_text="nav")) == Snippet("a b", 1.0)
    assert snippet_from_text(TextFields(text="", secondary_text="nav\nfoot")) == Snippet(
        "nav foot", 0.05
    )
    assert snippet_from_text(TextFields()) == Snippet("", 0.0)


def test_encoded_row_is_one_quoted_ascii_csv_field() -> None:
    row = spideriment_row(make_page(title='Say "hi", Zoë\nnow'), Snippet("x", 1.0))
    line = encode_row(row)
    assert line.endswith("\r\n") and line.count("\n") == 1
    assert line.isascii()
    assert line.startswith('"{""original_url"": ')
    assert load(line) == [row]


printable_or_not = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=300
)


@given(
    title=printable_or_not,
    description=printable_or_not,
    author=printable_or_not,
    keyword=printable_or_not,
    alt=printable_or_not,
    link_text=printable_or_not,
    heading=printable_or_not,
    snippet=printable_or_not,
)
def test_any_text_survives_the_loader(
    title: str,
    description: str,
    author: str,
    keyword: str,
    alt: str,
    link_text: str,
    heading: str,
    snippet: str,
) -> None:
    page = make_page(
        title=title,
        description=description,
        author=author,
        keywords=(keyword,),
        images=(ImageRef("https://e.org/i.png", alt),),
        links=(LinkRef("https://e.org/x", link_text, "a", "in"),),
        headings=(HeadingRef(1, heading),),
    )
    row = spideriment_row(page, Snippet(snippet, 0.3))
    path_like = io.StringIO(encode_row(row) + encode_row(row))
    assert [json.loads(r[0]) for r in csv.reader(path_like)] == [row, row]
