"""A small site written straight into a summary DB and a crawl DB.

It has every case the exports must handle: articles with full article
metadata in two languages, h1-h6 headings with ids, images of several sizes
(two near-identical, one tiny, one never fetched), a permanent redirect
chain, an exact duplicate, an old closed version, a noindex page, a failed
crawl, and a documentation page too long for one Algolia record.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from export_crawl_builder import CrawlBuilder
from export_helpers import picture
from export_summary_builder import Page, SummaryBuilder
from PIL import Image

SITE = "http://127.0.0.1:8765"
T0 = 1_780_000_000


def _near_copy(data: bytes) -> bytes:
    with Image.open(io.BytesIO(data)) as image:
        out = io.BytesIO()
        image.convert("RGB").resize((image.width - 6, image.height - 4)).save(
            out, "JPEG", quality=70
        )
        return out.getvalue()


def _html(title: str, lang: str, paragraphs: list[str]) -> bytes:
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return (
        f'<!doctype html><html lang="{lang}"><head><title>{title}</title></head>'
        f"<body><nav><a href='/'>Home</a></nav><main><h1>{title}</h1>{body}</main></body></html>"
    ).encode()


TIDE_TEXT = [
    "Twice a day the sea withdraws from the rocky shelf and leaves small worlds behind.",
    "Each tide pool holds anemones, limpets, hermit crabs and sculpins.",
    "In summer a shallow pool can warm by ten degrees in an afternoon.",
    "Visitors who turn stones should put them back the way they found them.",
]
NACHT_TEXT = [
    "Vor zehn Jahren waren die meisten Schlafwagenverbindungen Europas eingestellt.",
    "Heute eröffnen jede Saison neue Strecken, und die Sommertickets sind in Tagen weg.",
]

#: Paragraph words of the long documentation page (about 30 KB of text).
LONG_WORDS = 4800


@dataclass
class SiteDbs:
    summary: Path
    crawl: Path
    images: dict[str, bytes]


def build_site(directory: Path) -> SiteDbs:
    """Write ``summary.db`` and ``crawl.db`` for the fixture site into ``directory``."""
    large = picture(640, 480, seed=11)
    images = {
        f"{SITE}/images/anemone-large.png": large,
        f"{SITE}/images/anemone-copy.jpg": _near_copy(large),
        f"{SITE}/images/train.png": picture(300, 200, seed=12),
        f"{SITE}/images/icon.png": picture(24, 24, seed=13),
    }
    tide_html = _html("Life in the tide pools", "en", TIDE_TEXT)
    nacht_html = _html("Die Rückkehr des Nachtzugs", "de", NACHT_TEXT).decode().encode("latin-1")
    crawl_path = directory / "crawl.db"
    with CrawlBuilder(crawl_path, started=T0 - 100, finished=T0 + 50) as crawl:
        tide_sha = crawl.html(f"{SITE}/articles/tide-pools", tide_html)
        nacht_sha = crawl.html(f"{SITE}/de/nachtzug", nacht_html, compress=False)
        for url, data in images.items():
            mime = "image/jpeg" if url.endswith(".jpg") else "image/png"
            crawl.image(url, data, mime)

    summary_path = directory / "summary.db"
    long_sections = []
    words = [f"word{i}" for i in range(LONG_WORDS)]
    per = LONG_WORDS // 6
    for level in range(1, 7):
        long_sections.append((level, f"Level {level} heading", f"level-{level}"))
    long_text = "\n".join(
        f"{heading}\n" + " ".join(words[i * per : (i + 1) * per])
        for i, (_, heading, _) in enumerate(long_sections)
    )
    with SummaryBuilder(summary_path) as summary:
        tide = summary.page(
            Page(
                url=f"{SITE}/articles/tide-pools",
                title="Life in the tide pools",
                description="Small worlds between the tides.",
                language="en",
                keywords=("tide pools", "anemones", "marine biology", "ocean", "coast"),
                author="Mara Quill",
                image=f"{SITE}/images/anemone-large.png",
                category="Nature",
                published=1_773_477_000,
                modified=1_773_996_000,
                primary_headline="Life in the tide pools",
                text="Life in the tide pools\n"
                + "\n".join(TIDE_TEXT[:2])
                + "\nVisiting\n"
                + "\n".join(TIDE_TEXT[2:]),
                secondary_text="Home",
                headings=[(1, "Life in the tide pools", "top"), (2, "Visiting", "visiting")],
                images=[
                    (f"{SITE}/images/anemone-large.png", "A green anemone"),
                    (f"{SITE}/images/anemone-copy.jpg", "The same anemone"),
                    (f"{SITE}/images/icon.png", "icon"),
                    (f"{SITE}/images/never-fetched.png", None),
                ],
                links=[
                    (f"{SITE}/", "Home", "a", "in"),
                    ("https://en.wikipedia.org/wiki/Tide_pool", "Tide pool", "a", "out"),
                    ("mailto:mara@example.org", "Write to Mara", "a", "out"),
                ],
                first_seen=T0,
                last_seen=T0 + 40,
                sha256=tide_sha,
                size=len(tide_html),
            )
        )
        summary.page(
            Page(
                url=f"{SITE}/de/nachtzug",
                title="Die Rückkehr des Nachtzugs",
                description="Schlafwagen sind zurück.",
                language="de",
                keywords=("Bahnreisen", "Schlafwagen", "bahn"),
                author="Jonas Feld",
                image=f"{SITE}/images/train.png",
                category="Reisen",
                published=1_777_791_600,
                text="Die Rückkehr des Nachtzugs\n" + "\n".join(NACHT_TEXT),
                headings=[(1, "Die Rückkehr des Nachtzugs", None)],
                images=[
                    (f"{SITE}/images/train.png", "Ein Nachtzug"),
                    (f"{SITE}/images/anemone-large.png", "again"),
                ],
                links=[
                    ("https://www.oebb.at/", "ÖBB", "a", "out"),
                    ("https://en.wikipedia.org/wiki/Tide_pool", "again", "a", "out"),
                ],
                first_seen=T0 + 10,
                sha256=nacht_sha,
                charset="iso-8859-1",
                size=len(nacht_html),
            )
        )
        summary.page(
            Page(
                url=f"{SITE}/docs/reference",
                title="Reference manual",
                description="Every option, every level.",
                text=long_text,
                headings=long_sections,
                first_seen=T0 + 20,
            )
        )
        # An exact duplicate of the tide pools article at a longer URL.
        summary.page(
            Page(
                url=f"{SITE}/articles/tide-pools/print",
                title="Life in the tide pools",
                text="Life in the tide pools\n" + "\n".join(TIDE_TEXT),
                duplicate_of=tide,
                first_seen=T0 + 30,
            )
        )
        # An old version of the reference, closed when the current one was seen.
        summary.page(
            Page(
                url=f"{SITE}/docs/old-reference",
                title="Old reference",
                text="Gone now.",
                first_seen=T0 - 1000,
                closed_at=T0,
            )
        )
        summary.page(
            Page(
                url=f"{SITE}/private",
                title="Private",
                text="Do not index me.",
                noindex=True,
                first_seen=T0 + 35,
            )
        )
        summary.redirect(f"{SITE}/old-tide", f"{SITE}/articles/tide-pools", T0 - 20)
        summary.redirect(f"{SITE}/very-old-tide", f"{SITE}/old-tide", T0 - 30)
        summary.redirect(f"{SITE}/tide", f"{SITE}/articles/tide-pools", T0 - 5)
        summary.crawl(f"{SITE}/missing", T0 + 45, 44, http_status=404, message="HTTP 404")
        summary.crawl(f"{SITE}/slow", T0 + 46, 101, message="no answer in 30 s")
        summary.crawl(f"{SITE}/secret", T0 + 47, 110)  # robots.txt: not a failure
    return SiteDbs(summary_path, crawl_path, images)
