"""A small website for the demo and for end-to-end tests, served on 127.0.0.1.

It has what a real site throws at a crawler and what every export format
needs to show: robots.txt with a disallowed area, articles with article meta
tags (author, section, published/modified time, og:image, keywords,
article:tag) in two languages, a documentation page with h1-h6 headings and
ids that is too long for one Algolia record, a permanent and a temporary
redirect, a page whose main content duplicates another's, a broken link (404),
images of several sizes (two of them near-identical), a gzip-encoded page and
a non-HTML file, and a sitemap (named by robots.txt) that lists a page no
page links to.
"""

from __future__ import annotations

import asyncio
import gzip
import io
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from html import escape

from aiohttp import web

#: what /sitemap.xml lists (named by robots.txt); /letters.html is linked from nowhere
_SITEMAP_PATHS = ("/", "/articles/", "/about.html", "/letters.html")

_ARTICLES: dict[str, dict[str, str]] = {
    "tide-pools": {
        "lang": "en",
        "title": "Life in the tide pools of the northern coast",
        "author": "Mara Quill",
        "section": "Nature",
        "published": "2026-03-14T08:30:00Z",
        "modified": "2026-03-20T10:00:00Z",
        "keywords": "tide pools, anemones, marine biology",
        "tags": "ocean,coast",
        "image": "/images/anemone-large.png",
        "body": (
            "Twice a day the sea withdraws from the rocky shelf and leaves behind a "
            "scattering of small worlds. Each tide pool holds its own community of "
            "anemones, limpets, hermit crabs and sculpins, all of them adapted to a "
            "life of sudden change.|In summer the water in a shallow pool can warm "
            "by ten degrees in an afternoon, and rain can turn it almost fresh in an "
            "hour. The animals that thrive here close up, cling on or burrow until "
            "the sea returns.|Visitors who turn stones should put them back the way "
            "they found them: the underside of a boulder is a home, and a stone left "
            "upside down is a small catastrophe for everything that lived beneath it."
        ),
    },
    "night-trains": {
        "lang": "en",
        "title": "The slow return of the night train",
        "author": "Jonas Feld",
        "section": "Travel",
        "published": "2026-05-02T19:00:00Z",
        "modified": "2026-05-02T19:00:00Z",
        "keywords": "rail travel, sleeper trains, Europe",
        "tags": "rail,travel",
        "image": "/images/train.png",
        "body": (
            "A decade ago most of Europe's sleeper services had been cut, the "
            "carriages sold or scrapped. Today new routes open every season, and "
            "tickets for the summer sell out within days.|Travellers describe the "
            "pleasure of falling asleep in one country and waking in another, of "
            "arriving in a city centre rested rather than queuing at an airport on "
            "its edge.|Operators still struggle with old rolling stock, track access "
            "charges and timetables that cross several national networks, each "
            "with its own rules."
        ),
    },
    "nachtzug": {
        "lang": "de",
        "title": "Die langsame Rückkehr des Nachtzugs",
        "author": "Jonas Feld",
        "section": "Reisen",
        "published": "2026-05-03T07:00:00Z",
        "modified": "2026-05-04T07:00:00Z",
        "keywords": "Bahnreisen, Schlafwagen, Europa",
        "tags": "bahn,reisen",
        "image": "/images/train.png",
        "body": (
            "Vor zehn Jahren waren die meisten Schlafwagenverbindungen Europas "
            "eingestellt, die Wagen verkauft oder verschrottet. Heute eröffnen in "
            "jeder Saison neue Strecken, und die Fahrkarten für den Sommer sind "
            "innerhalb weniger Tage ausverkauft.|Reisende beschreiben das Vergnügen, "
            "in einem Land einzuschlafen und in einem anderen aufzuwachen, "
            "ausgeruht mitten in der Stadt anzukommen.|Die Betreiber kämpfen noch "
            "mit altem Wagenmaterial, Trassenpreisen und Fahrplänen, die mehrere "
            "nationale Netze mit eigenen Regeln kreuzen."
        ),
    },
}

_NAV = (
    '<header><nav><a href="/">Home</a> <a href="/articles/">Articles</a> '
    '<a href="/docs/guide.html">Guide</a> <a href="/about.html">About</a></nav></header>'
)
_FOOTER = (
    '<footer><p>© 2026 The Demo Gazette. <a href="/about.html">About us</a> · '
    '<a href="/private/drafts.html">Drafts</a> · <a href="/old-guide">Old guide</a> · '
    '<a href="/moved-temporarily">Latest</a></p></footer>'
)


def _page(title: str, body: str, *, lang: str = "en", head: str = "") -> bytes:
    return (
        f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title>{head}</head><body>{_NAV}{body}{_FOOTER}</body></html>"
    ).encode()


def _article(slug: str) -> bytes:
    a = _ARTICLES[slug]
    head = (
        f'<meta name="description" content="{escape(a["body"].split("|")[0][:150])}">'
        f'<meta name="author" content="{escape(a["author"])}">'
        f'<meta name="keywords" content="{escape(a["keywords"])}">'
        f'<meta property="article:section" content="{escape(a["section"])}">'
        f'<meta property="article:published_time" content="{a["published"]}">'
        f'<meta property="article:modified_time" content="{a["modified"]}">'
        f'<meta property="og:image" content="{a["image"]}">'
        + "".join(
            f'<meta property="article:tag" content="{escape(t)}">' for t in a["tags"].split(",")
        )
    )
    paragraphs = "".join(f"<p>{escape(p)}</p>" for p in a["body"].split("|"))
    body = (
        f'<main><article><h1 id="top">{escape(a["title"])}</h1>'
        f'<p class="byline">By {escape(a["author"])}, <time datetime="{a["published"]}">'
        f"{a['published'][:10]}</time></p>"
        f'<img src="{a["image"]}" alt="Illustration for {escape(a["title"])}">'
        f'{paragraphs}<img src="/images/icon.png" alt="tiny icon"></article></main>'
        '<aside><h2>Read next</h2><ul><li><a href="/articles/">All articles</a></li></ul></aside>'
    )
    return _page(a["title"], body, lang=a["lang"], head=head)


def _articles_index() -> bytes:
    items = "".join(
        f'<li><h2><a href="/articles/{slug}.html">{escape(a["title"])}</a></h2>'
        f"<p>{escape(a['body'].split('|')[0][:120])}…</p></li>"
        for slug, a in _ARTICLES.items()
    )
    body = (
        f"<main><h1>Articles</h1><ul>{items}"
        '<li><h2><a href="/articles/tide-pools-print.html">Tide pools (print)</a></h2></li>'
        '<li><h2><a href="/articles/missing.html">A story we took down</a></h2></li>'
        "</ul></main>"
    )
    return _page("Articles", body)


def _guide() -> bytes:
    """A long documentation page: h1-h6 with ids, code, quotes; > 10 KB of text."""
    parts = ['<main><h1 id="guide">The field guide to crawling politely</h1>']
    topics = ["Robots", "Delays", "Retries", "Redirects", "Recrawls", "Storage"]
    for i, topic in enumerate(topics):
        parts.append(f'<h2 id="{topic.lower()}">{topic}</h2>')
        for j in range(3):
            parts.append(f'<h3 id="{topic.lower()}-{j}">{topic}, part {j + 1}</h3>')
            parts.append(
                "<p>"
                + " ".join(
                    f"{topic} rule {j}.{k}: a polite crawler reads the site's wishes, waits "
                    f"between requests to the same origin, and keeps a record of every "
                    f"attempt so that nothing is fetched twice without reason."
                    for k in range(6)
                )
                + "</p>"
            )
        parts.append(f'<h4 id="{topic.lower()}-notes">Notes on {topic.lower()}</h4>')
        parts.append(f'<h5 id="{topic.lower()}-detail">Detail</h5>')
        parts.append(f'<h6 id="{topic.lower()}-fine">Fine print {i}</h6>')
        parts.append(
            f"<pre><code>unob crawl https://example.org/ --delay-ms {1000 + i}</code></pre>"
        )
        parts.append(f"<blockquote>Be kind to servers, rule {i}.</blockquote>")
    parts.append("</main>")
    return _page("The field guide to crawling politely", "".join(parts))


def _home() -> bytes:
    body = (
        "<main><h1>The Demo Gazette</h1><p>Stories from the coast and the rails, "
        "and a guide for people who build crawlers.</p><ul>"
        '<li><a href="/articles/">Articles</a></li>'
        '<li><a href="/docs/guide.html">The field guide</a></li>'
        '<li><a href="/report.pdf">Annual report (PDF)</a></li>'
        '<li><a href="/compressed.html">A compressed page</a></li>'
        "</ul></main>"
    )
    return _page("The Demo Gazette", body)


def _png(size: int, *, shade: int = 0) -> bytes:
    """A deterministic picture; ``shade`` makes a near-identical variant."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (size, size), (20, 60 + shade, 120))
    draw = ImageDraw.Draw(image)
    for i in range(0, size, max(size // 8, 1)):
        draw.ellipse(
            (i // 2, i // 3, size - i // 3, size - i // 2), outline=(230, 200 - i % 50, 90)
        )
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def build_app() -> web.Application:
    """The demo site as an aiohttp application."""
    pages: dict[str, bytes] = {
        "/": _home(),
        "/articles/": _articles_index(),
        "/docs/guide.html": _guide(),
        "/about.html": _page(
            "About the Demo Gazette",
            "<main><h1>About</h1><p>The Demo Gazette is a made-up paper that exists so "
            "that unob has something to crawl.</p></main>",
        ),
        "/private/drafts.html": _page("Drafts", "<main><p>Not for robots.</p></main>"),
        "/letters.html": _page(
            "Letters to the editor",
            "<main><h1>Letters to the editor</h1><p>Readers write about tide pools, night "
            "trains and the lighthouse keepers of the northern coast. No page links here: "
            "the crawler finds this page through the sitemap that robots.txt names.</p></main>",
        ),
    }
    for slug in _ARTICLES:
        pages[f"/articles/{slug}.html"] = _article(slug)
    # Same main content as the article, at a longer URL: an exact duplicate.
    pages["/articles/tide-pools-print.html"] = pages["/articles/tide-pools.html"]
    images = {
        "/images/anemone-large.png": _png(320),
        "/images/anemone-large-copy.png": _png(320, shade=2),
        "/images/train.png": _png(240),
        "/images/icon.png": _png(32),
    }
    # The copy is near-identical to the large anemone: both are linked from the guide.
    pages["/docs/guide.html"] = pages["/docs/guide.html"].replace(
        b"</main>",
        b'<img src="/images/anemone-large.png" alt="Anemone"><img '
        b'src="/images/anemone-large-copy.png" alt="Anemone again"></main>',
    )

    async def robots(request: web.Request) -> web.Response:
        sitemap = f"{request.scheme}://{request.host}/sitemap.xml"
        return web.Response(
            text=f"User-agent: *\nDisallow: /private/\nSitemap: {sitemap}\n",
            content_type="text/plain",
        )

    async def sitemap(request: web.Request) -> web.Response:
        # Lists the letters page, which no page links to: only the sitemap finds it.
        base = f"{request.scheme}://{request.host}"
        locs = "".join(f"<url><loc>{base}{path}</loc></url>" for path in _SITEMAP_PATHS)
        body = (
            '<?xml version="1.0" encoding="UTF-8"?>'
            f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{locs}</urlset>'
        )
        return web.Response(text=body, content_type="application/xml")

    async def page(request: web.Request) -> web.StreamResponse:
        path = request.path
        if path in pages:
            return web.Response(body=pages[path], content_type="text/html", charset="utf-8")
        if path in images:
            return web.Response(body=images[path], content_type="image/png")
        if path == "/old-guide":
            raise web.HTTPMovedPermanently("/docs/guide.html")
        if path == "/moved-temporarily":
            raise web.HTTPFound("/articles/night-trains.html")
        if path == "/compressed.html":
            body = _page("A compressed page", "<main><h1>Compressed</h1><p>Sent gzip.</p></main>")
            return web.Response(
                body=gzip.compress(body),
                headers={"Content-Encoding": "gzip", "Content-Type": "text/html; charset=utf-8"},
            )
        if path == "/report.pdf":
            return web.Response(body=b"%PDF-1.4\n%demo\n", content_type="application/pdf")
        raise web.HTTPNotFound(text="not here", content_type="text/plain")

    app = web.Application()
    app.router.add_get("/robots.txt", robots)
    app.router.add_get("/sitemap.xml", sitemap)
    app.router.add_get("/{tail:.*}", page)
    return app


@contextmanager
def serve_demo_site(host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serve the demo site in a background thread; yields its base URL."""
    ready = threading.Event()
    state: dict[str, object] = {}

    def run() -> None:
        loop = asyncio.new_event_loop()
        state["loop"] = loop
        runner = web.AppRunner(build_app(), access_log=None)
        loop.run_until_complete(runner.setup())
        site = web.TCPSite(runner, host, port)
        loop.run_until_complete(site.start())
        server = site._server
        assert server is not None
        sockets = getattr(server, "sockets", None) or []
        state["port"] = sockets[0].getsockname()[1]
        ready.set()
        loop.run_forever()
        loop.run_until_complete(runner.cleanup())
        loop.close()

    thread = threading.Thread(target=run, name="unob-demo-site", daemon=True)
    thread.start()
    if not ready.wait(10):
        raise RuntimeError("demo site did not start")
    try:
        yield f"http://{host}:{state['port']}/"
    finally:
        loop = state["loop"]
        assert isinstance(loop, asyncio.AbstractEventLoop)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
