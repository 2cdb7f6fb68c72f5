"""Indexiness: is a page an index (navigation) page or a leaf (content) page?

unobtanium's metrics (reference §5.4, DESIGN.md §5), counted over the
*relevant* links of a page: HTML ``a`` elements with text, not in
nav/aside, not in header/footer (unless inside main/article), inside
``main``/``article`` when the page has such an element, and (stricter than
unobtanium) in- and outlinks only inside the part the extractor chose as
main content, so that share bars and "more stories" lists inside
``<article>`` do not make an article look like an index (self-links count
wherever they are relevant: a link-dense table of contents is not main
content, but it is the clearest sign of a long leaf page).  Each relevant
link counts once; "in a heading" (the link is in a heading or contains one)
beats "in a list".

::

    indexiness = 2 * inlinks_in_headings + inlinks_in_lists
               - 2 * selflinks_in_headings - selflinks_in_lists
               - outlinks - 5 * has_publishing_date

Heading links weigh double: a list of headed teasers is the clearest index
signal, and anchored headings the clearest sign of a long leaf page.  The
publishing date weighs like five outlinks, so a short dated note stays a
leaf while an index with a date and a dozen headed entries stays an index.
unobtanium's own formula was not published; this one is sign-consistent with
its description (docs/summarizer-extraction.md has worked examples).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from unob.summarizer.document import (
    IN_ARTICLE,
    IN_ASIDE,
    IN_FOOTER,
    IN_HEADER,
    IN_HEADING,
    IN_LIST,
    IN_MAIN,
    IN_NAV,
    Link,
)

HEADING_WEIGHT = 2
DATE_WEIGHT = 5


@dataclass(frozen=True, slots=True)
class IndexinessMetrics:
    """The six inputs of the indexiness formula."""

    inlinks_in_headings: int = 0
    inlinks_in_lists: int = 0
    selflinks_in_headings: int = 0
    selflinks_in_lists: int = 0
    outlinks: int = 0
    has_publishing_date: bool = False

    @property
    def score(self) -> int:
        return (
            HEADING_WEIGHT * self.inlinks_in_headings
            + self.inlinks_in_lists
            - HEADING_WEIGHT * self.selflinks_in_headings
            - self.selflinks_in_lists
            - self.outlinks
            - (DATE_WEIGHT if self.has_publishing_date else 0)
        )


def metrics(links: Iterable[Link], has_publishing_date: bool) -> IndexinessMetrics:
    """Count the relevant links of a page (see module docstring)."""
    links = list(links)
    landmark = IN_MAIN | IN_ARTICLE
    has_landmark = any(link.location & landmark for link in links)
    in_headings = [0, 0]  # [inlinks, selflinks]
    in_lists = [0, 0]
    outlinks = 0
    for link in links:
        # Link.is_relevant_navigation, spelt out on the bits: this runs for
        # every link of every page.
        loc = link.location
        if (
            link.kind != "a"
            or not link.text
            or loc & (IN_NAV | IN_ASIDE)
            or (loc & (IN_HEADER | IN_FOOTER) and not loc & landmark)
            or (has_landmark and not loc & landmark)
        ):
            continue
        locality = link.locality
        if not link.in_main_content and locality != "self":
            continue
        if locality == "out":
            outlinks += 1
            continue
        slot = 0 if locality == "in" else 1
        if loc & IN_HEADING or link.contains_heading:
            in_headings[slot] += 1
        elif loc & IN_LIST:
            in_lists[slot] += 1
    return IndexinessMetrics(
        inlinks_in_headings=in_headings[0],
        inlinks_in_lists=in_lists[0],
        selflinks_in_headings=in_headings[1],
        selflinks_in_lists=in_lists[1],
        outlinks=outlinks,
        has_publishing_date=has_publishing_date,
    )


def indexiness(links: Iterable[Link], has_publishing_date: bool) -> int:
    """Positive for index/navigation pages, negative for leaf pages."""
    return metrics(links, has_publishing_date).score
