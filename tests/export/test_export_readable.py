"""readable/: slugs (no overwrites) and the Markdown of one page."""

from __future__ import annotations

from pathlib import Path

from export_helpers import make_page

from unob.export.readable import ReadableWriter, render_page, slug, unique_slug
from unob.export.records import HeadingRef, PageRecord, TextFields


def test_slug_rule() -> None:
    assert slug("https://Example.org/Docs/Tide-Pools.html") == "example_org_docs_tide_pools_html"
    assert slug("http://127.0.0.1:8080/") == "127_0_0_1_8080"
    assert slug("https://example.org/a?x=1#f") == "example_org_a"
    assert slug("https://example.org/" + "a/" * 100) == ("example_org_" + "a_" * 40)[:80]
    assert slug("") == "index"


def test_unique_slug_never_reuses_a_taken_name() -> None:
    taken: set[str] = set()
    urls = [
        "https://example.org/a?x=1",
        "https://example.org/a?x=2",
        "https://example.org/a-b",
        "https://example.org/a_b",
        "https://example.org/a?x=1",  # the same URL twice (export --all)
        "http://all/pages",  # would be the combined file's name
    ]
    names = []
    for url in urls:
        name = unique_slug(url, taken.__contains__)
        assert name not in taken and len(name) <= 80
        taken.add(name)
        names.append(name)
    assert names[0] == "example_org_a"
    assert names[1].startswith("example_org_a_") and len(names[1]) == len("example_org_a") + 9
    assert names[5] != "all_pages"
    long = "https://example.org/" + "x" * 200
    first = unique_slug(long, taken.__contains__)
    taken.add(first)
    assert len(first) == 80 and len(unique_slug(long + "?q", taken.__contains__)) == 80


def test_markdown_layout(page: PageRecord) -> None:
    text = render_page(page)
    assert text.startswith("# A page about tide pools\n\n**URL:** https://example.org/docs/page\n")
    assert "**Description:** Anemones, limpets and hermit crabs." in text
    assert "**Words:** 23  |  **Crawled:** 2026-05-28T20:26:40Z" in text
    assert "## Page Structure\n\n- **h1:** Tide pools\n  - **h2:** Who lives there\n" in text
    assert "    - **h3:** Anemones\n" in text
    assert text.endswith(
        "## Content\n\nTide pools\n\nTwice a day the sea withdraws.\n\n"
        "Who lives there\n\nAnemones, limpets and crabs.\n\nAnemones\n\n"
        "They close up.\n\nVisiting\n\nPut stones back.\n"
    )


def test_markdown_keeps_content_lines_literal() -> None:
    page = make_page(
        title="",
        headings=(HeadingRef(1, "First h1"),),
        text=TextFields(text="# not a heading\n- not a list\n1. not ordered\n---\n> no quote"),
        description="",
    )
    text = render_page(page)
    assert text.startswith("# First h1\n")
    assert "**Description:**" not in text
    assert text.endswith(
        "\\# not a heading\n\n\\- not a list\n\n1\\. not ordered\n\n\\---\n\n\\> no quote\n"
    )


def test_writer_keeps_both_pages_with_one_slug(tmp_path: Path) -> None:
    writer = ReadableWriter(tmp_path)
    first = writer.write(make_page(url="https://example.org/a?x=1", title="One"))
    second = writer.write(make_page(url="https://example.org/a?x=2", title="Two"))
    writer.close()
    assert first != second
    assert (tmp_path / first).read_text().startswith("# One\n")
    assert (tmp_path / second).read_text().startswith("# Two\n")
    combined = (tmp_path / "all_pages.md").read_text()
    assert combined.count("\n\n---\n\n") == 1
    assert combined.startswith("# One\n") and "\n\n---\n\n# Two\n" in combined
    assert combined.endswith("Put stones back.\n")
