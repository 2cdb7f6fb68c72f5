"""Deterministic news-like pages for the synthetic site of ``_synthetic.py``.

``render_page`` of ``_synthetic.py`` writes 5-20 KB pages that are almost all
plain paragraphs from an 80-word vocabulary.  libxml2 parses such text many
times faster than real markup, so a summarize benchmark on them measures
per-page fixed costs against an unrealistically low parse floor.  The pages
here copy the *shape* of the 181 real news pages of
``tests/data/article-extraction-benchmark`` as ``_pageshape.py`` measures it
(medians: about 115 KB, 740 elements, 130 links, 6% visible text, 30 KB of
inline script and style, depth 17; divs, links and list items make half the
elements): a head full of meta/link/script tags, JSON-LD and inline CSS; a
header with a menu of many links and social icons; breadcrumbs; the article
(h1, byline, figure, paragraphs with inline links and emphasis, h2s, an inset
"read also" list, tags); a sidebar; related-article cards; a footer of link
columns; and trailing scripts.  Class names are long BEM-style CMS names.

Each page is a pure function of (site shape, host, page, port): a seeded RNG
draws from pools built once per process from seeded RNGs (no file is read),
so a page is the same on every run and machine.  The graph links of
``page_links`` (the same out-links ``render_page`` gives the page) are in the
article text and the related cards; menu, sidebar and footer links point at
a fixed set of the host's pages (the section fronts), so every link is a
page of the site.  Rendering takes about 1 ms a page.
"""

from __future__ import annotations

import json
import math
import random
from functools import cache

from _synthetic import Link, SiteShape, page_links, page_path

# The most frequent English words, in rough frequency order: the top of the
# Zipf ranking, so the text has the function-word skeleton of English (the
# stopword share that text-density heuristics such as jusText look at).
_FUNCTION_WORDS = (
    "the of and to a in is that for it was on with he as you at by this had not are but "
    "from or have an they which one were all we she there been his her has would when who "
    "will more no if out so said what up its about than into them can only other new some "
    "could time these two may then do first any my now such like our over man me even "
    "most made after also did many before must through back years where much your way "
    "well down should because each just those people how too little state good very make "
    "world still own see men work long get here between both life being under never day "
    "same another know while last might us great old year off come since against go came "
    "right used take three"
)
_ONSETS = "b c d f g h j k l m n p r s t v w z br ch cl cr dr fl gr pl pr sh st th tr"
_NUCLEI = "a e i o u ai ea ee ie oo ou"
_CODAS = ["", "", "", "n", "r", "s", "t", "l", "m", "nd", "st", "ng", "rt", "ck"]
_VOCABULARY_SIZE = 6000
_SENTENCE_POOL = 8192
_ZIPF_EXPONENT = 1.0


@cache
def vocabulary() -> tuple[str, ...]:
    """Function words, then distinct pronounceable pseudo-words: a Zipf rank order."""
    rng = random.Random("newslike-vocabulary")
    words = _FUNCTION_WORDS.split()
    seen = set(words)
    onsets, nuclei = _ONSETS.split(), _NUCLEI.split()
    while len(words) < _VOCABULARY_SIZE:
        syllables = rng.choices((1, 2, 2, 3, 3, 4))[0]
        word = "".join(
            rng.choice(onsets) + rng.choice(nuclei) + rng.choice(_CODAS) for _ in range(syllables)
        )
        if word not in seen:
            seen.add(word)
            words.append(word)
    return tuple(words)


@cache
def _cumulative_zipf() -> tuple[float, ...]:
    total, out = 0.0, []
    for rank in range(1, _VOCABULARY_SIZE + 1):
        total += 1 / rank**_ZIPF_EXPONENT
        out.append(total)
    return tuple(out)


def _words(rng: random.Random, k: int) -> list[str]:
    return rng.choices(vocabulary(), cum_weights=_cumulative_zipf(), k=k)


@cache
def _sentences() -> tuple[str, ...]:
    """Sentences of 6-32 Zipf-drawn words, some with a comma: the article text."""
    rng = random.Random("newslike-sentences")
    pool = []
    for _ in range(_SENTENCE_POOL):
        words = _words(rng, rng.randint(6, 32))
        if len(words) > 12 and rng.random() < 0.5:
            words[rng.randrange(3, len(words) - 3)] += ","
        pool.append(" ".join(words).capitalize() + rng.choice(".....?!"))
    return tuple(pool)


@cache
def _titles() -> tuple[str, ...]:
    """Headline-case phrases of 3-11 words: headlines, card titles, captions."""
    rng = random.Random("newslike-titles")
    # Headlines skip the commonest function words more often than prose does.
    return tuple(
        " ".join(w if w in ("of", "and", "to", "in", "for") else w.capitalize() for w in words)
        for words in (_words(rng, rng.randint(3, 11)) for _ in range(4096))
    )


def _pseudo_js(rng: random.Random, size: int) -> str:
    """Minified-looking JavaScript of about ``size`` characters (never ``</``)."""
    names = _words(rng, 64)
    parts: list[str] = []
    n = 0
    while n < size:
        a, b, c = rng.choice(names), rng.choice(names), rng.choice(names)
        piece = rng.choice(
            (
                f"var {a}_{b}=function(e,t){{return e&&e.{c}?e.{c}(t):null}};",
                f'window.{a}=window.{a}||{{}};window.{a}.{b}="{c}-{rng.randrange(10**6)}";',
                f"if(typeof {a}!=='undefined'){{{a}.push({{event:'{b}',{c}:{rng.random():.4f}}})}}",
                f"function {a}{rng.randrange(99)}(n){{for(var i=0;i<n.length;i++){{n[i].{b}=!0}}}}",
                f'document.querySelectorAll(".{a}-{b}").forEach(function(x){{x.{c}()}});',
            )
        )
        parts.append(piece)
        n += len(piece)
    return "".join(parts)


@cache
def _script_pool() -> tuple[str, ...]:
    """Inline scripts of 0.3-6 KB: tag managers, ad and consent configs, polyfills."""
    rng = random.Random("newslike-scripts")
    return tuple(_pseudo_js(rng, int(math.exp(rng.uniform(5.7, 8.7)))) for _ in range(96))


@cache
def _state_chunks() -> tuple[str, ...]:
    """JSON objects of about 1.5 KB: the pieces of a page's hydration state blob."""
    rng = random.Random("newslike-state")
    chunks = []
    for i in range(256):
        item = {
            "id": f"{rng.getrandbits(64):016x}",
            "type": rng.choice(("story", "gallery", "video", "promo")),
            "headline": rng.choice(_titles()),
            "description": " ".join(rng.choice(_sentences()) for _ in range(2)),
            "taxonomy": {"sections": _words(rng, 4), "tags": _words(rng, 6)},
            "promo_items": {
                "basic": {
                    "url": f"/resizer/{rng.getrandbits(96):024x}/1280x0/smart/{i}.jpg",
                    "width": 1280,
                    "height": 720,
                    "caption": rng.choice(_sentences()),
                }
            },
            "display_date": f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T12:00:00Z",
        }
        chunks.append(json.dumps(item, separators=(",", ":")))
    return tuple(chunks)


@cache
def _css_pool() -> tuple[str, ...]:
    """CSS rules with BEM-style selectors: the critical CSS inlined in the head."""
    rng = random.Random("newslike-css")
    props = (
        "display:flex",
        "margin:0 auto",
        "padding:.5rem 1rem",
        "font-size:1.125rem",
        "line-height:1.5",
        "color:#1a1a1a",
        "background:#fff",
        "border-bottom:1px solid #e5e5e5",
        "position:relative",
        "max-width:1200px",
        "font-weight:700",
        "text-decoration:none",
    )
    return tuple(
        f".{block}__{elem}{{{';'.join(rng.sample(props, rng.randint(2, 5)))}}}"
        for block, elem in zip(_words(rng, 1024), _words(rng, 1024), strict=True)
    )


@cache
def _site(host: int, pages_per_host: int) -> tuple[str, tuple[tuple[str, int], ...]]:
    """A host's brand name and its sections: (name, page number), fixed per host."""
    rng = random.Random(f"newslike-site:{host}")
    brand = "".join(w.capitalize() for w in _words(rng, 2) if len(w) > 1) or "Daily"
    names = [w.capitalize() for w in vocabulary()[200:] if len(w) > 3]
    picks = rng.sample(names, 48)
    # Section fronts are pages 1..48 of the host (wrapped on tiny sites).
    return brand, tuple((name, 1 + i % max(1, pages_per_host - 1)) for i, name in enumerate(picks))


# Utility classes (Tailwind style) on the layout containers, as many CMS themes have.
_CONTAINER = "l-container u-mx-auto u-px-4 lg:u-max-w-screen-xl"
_SVG_PATHS = (
    "M12 2C6.48 2 2 6.48 2 12c0 5.02 3.66 9.18 8.44 9.94v-7.03H7.9V12h2.54V9.8c0-2.51 "
    "1.49-3.89 3.78-3.89 1.09 0 2.24.2 2.24.2v2.46h-1.26c-1.24 0-1.63.77-1.63 1.56V12h2.78l-.44 "
    "2.91h-2.34v7.03C18.34 21.18 22 17.02 22 12c0-5.52-4.48-10-10-10z",
    "M22.46 6c-.77.35-1.6.58-2.46.69.88-.53 1.56-1.37 1.88-2.38-.83.5-1.75.85-2.72 1.05C18.37 "
    "4.5 17.26 4 16 4c-2.35 0-4.27 1.92-4.27 4.29 0 .34.04.67.11.98C8.28 9.09 5.11 7.38 3 "
    "4.79c-.37.63-.58 1.37-.58 2.15 0 1.49.75 2.81 1.91 3.56-.71 0-1.37-.2-1.95-.5v.03c0 "
    "2.08 1.48 3.82 3.44 4.21a4.22 4.22 0 0 1-1.93.07 4.28 4.28 0 0 0 4 2.98 8.52 8.52 0 0 "
    "1-5.33 1.84c-.34 0-.68-.02-1.02-.06C3.44 20.29 5.7 21 8.12 21 16 21 20.33 14.46 20.33 "
    "8.79c0-.19 0-.37-.01-.56.84-.6 1.56-1.36 2.14-2.23z",
    "M19 3a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h14m-.5 "
    "15.5v-5.3a3.26 3.26 0 0 0-3.26-3.26c-.85 0-1.84.52-2.32 1.3v-1.11h-2.79v8.37h2.79"
    "v-4.93c0-.77.62-1.4 1.39-1.4a1.4 1.4 0 0 1 1.4 1.4v4.93h2.79M6.88 8.56a1.68 1.68 0 0 0 "
    "1.68-1.68c0-.93-.75-1.69-1.68-1.69a1.69 "
    "1.69 0 0 0-1.69 1.69c0 .93.76 1.68 1.69 1.68m1.39 9.94v-8.37H5.5v8.37h2.77z",
)


# An inline SVG sprite (symbols referenced by <use>), as icon systems emit it.
_SPRITE = (
    '<svg xmlns="http://www.w3.org/2000/svg" style="display:none" aria-hidden="true">'
    + "".join(
        f'<symbol id="icon-{name}" viewBox="0 0 24 24"><title>{name}</title>'
        f'<path d="{_SVG_PATHS[i % len(_SVG_PATHS)]}"></path></symbol>'
        for i, name in enumerate(
            ("facebook", "twitter", "linkedin", "mail", "search", "chevron-down", "arrow", "play")
        )
    )
    + "</svg>"
)
_PLACEHOLDER = (
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAJCAYAAAA7KqwyAAAAFklEQVR42mN8"
    "+J+BgYGBgYGBgYGBAAAwHgHxWz0aCwAAAABJRU5ErkJggg=="
)
_ICON_USE = (
    '<svg class="c-icon c-icon--{0}" width="16" height="16" aria-hidden="true">'
    '<use href="#icon-{0}"></use></svg>'
)
_VENDORS = ("vendor", "ads", "consent", "analytics")


def _svg(rng: random.Random, label: str) -> str:
    d = rng.choice(_SVG_PATHS)
    return (
        f'<svg class="c-icon c-icon--{label}" viewBox="0 0 24 24" width="24" height="24" '
        f'aria-hidden="true" focusable="false"><path fill="currentColor" d="{d}"></path></svg>'
    )


def render_news_page(shape: SiteShape, host: int, page: int, port: int) -> str:
    """The HTML of one news-like page (medians about 105 KB, 700 elements, 130 links)."""
    rng = random.Random(f"newslike:{host}:{page}")
    sentences, titles = _sentences(), _titles()
    n_pages = shape.pages_per_host
    brand, sections = _site(host, n_pages)
    suffix = "" if port == 80 else f":{port}"

    def origin(h: int) -> str:
        return f"http://{shape.host_name(h)}{suffix}"

    here = origin(host)

    def href(link: Link) -> str:
        # CMS output mixes absolute and root-relative links; both resolve to the page.
        path = page_path(link.page)
        return path if link.host == host and rng.random() < 0.5 else origin(link.host) + path

    def track(area: str, label: str, position: int) -> str:
        # Analytics attributes: much of a real page's markup is attributes like this.
        return (
            f'data-track=\'{{"event":"click","area":"{area}",'
            f'"label":"{label}","position":{position}}}\''
        )

    def section_href(index: int) -> str:
        return here + page_path(sections[index % len(sections)][1])

    def local_href() -> str:
        return f"{here}{page_path(rng.randrange(n_pages))}"

    def image(cls: str, width: int, alt: str) -> str:
        key = f"{rng.getrandbits(80):020x}"
        srcset = ", ".join(
            f"{here}/static/img/{key}-{w}w.jpg {w}w" for w in (320, 480, 640, 768, 960, width)
        )
        return (
            # A lazy-loading placeholder in src, the real image in data-src: common CMS output.
            f'<img class="{cls} js-lazy" src="{_PLACEHOLDER}" '
            f'data-src="{here}/static/img/{key}-{width}w.jpg" srcset="{srcset}" '
            f'sizes="(max-width: 768px) 100vw, {width}px" alt="{alt}" width="{width}" '
            f'height="{width * 9 // 16}" loading="lazy" decoding="async" '
            'style="aspect-ratio:16/9;object-fit:cover;width:100%;height:auto">'
        )

    title = rng.choice(titles)
    section_name, _ = sections[rng.randrange(8)]
    author = " ".join(w.capitalize() for w in _words(rng, 2))
    date = f"2026-{1 + page % 12:02d}-{1 + (host + page) % 28:02d}"
    canonical = f"{here}{page_path(page)}"
    lede = rng.choice(sentences)
    key = f"{rng.getrandbits(80):020x}"
    out: list[str] = []
    w = out.append

    # ---- head: meta, link, scripts, JSON-LD, inline CSS
    w('<!DOCTYPE html>\n<html lang="en" class="no-js"><head><meta charset="utf-8">')
    w('<meta http-equiv="X-UA-Compatible" content="IE=edge">')
    w('<meta name="viewport" content="width=device-width, initial-scale=1">')
    w(f"<title>{title} | {section_name} | {brand}</title>")
    metas = (
        ("name", "description", lede),
        ("name", "keywords", ",".join(_words(rng, 8))),
        ("name", "author", author),
        ("name", "robots", "index, follow, max-image-preview:large"),
        ("property", "og:type", "article"),
        ("property", "og:site_name", brand),
        ("property", "og:title", title),
        ("property", "og:description", lede),
        ("property", "og:url", canonical),
        ("property", "og:image", f"{here}/static/img/{key}-1200w.jpg"),
        ("property", "og:image:width", "1200"),
        ("property", "og:image:height", "675"),
        ("property", "og:locale", "en_US"),
        ("property", "article:published_time", f"{date}T08:00:00Z"),
        ("property", "article:modified_time", f"{date}T09:30:00Z"),
        ("property", "article:section", section_name),
        ("property", "article:author", author),
        ("name", "twitter:card", "summary_large_image"),
        ("name", "twitter:site", f"@{brand.lower()}"),
        ("name", "twitter:title", title),
        ("name", "twitter:description", lede),
        ("name", "twitter:image", f"{here}/static/img/{key}-1200w.jpg"),
        ("name", "theme-color", "#0a2540"),
        ("name", "apple-mobile-web-app-title", brand),
        ("name", "format-detection", "telephone=no"),
        ("name", "referrer", "no-referrer-when-downgrade"),
        ("property", "fb:app_id", str(1_000_000 + host)),
        ("name", "google-site-verification", key),
        *(("property", "article:tag", tag) for tag in _words(rng, 3)),
    )
    out.extend(f'<meta {kind}="{name}" content="{value}">' for kind, name, value in metas)
    w(f'<link rel="canonical" href="{canonical}">')
    w(f'<link rel="amphtml" href="{canonical}?amp=1">')
    w(f'<link rel="alternate" type="application/rss+xml" title="{brand}" href="{here}/feed.xml">')
    for i in range(rng.randint(8, 16)):
        w(
            f'<link rel="{("preload", "preconnect", "stylesheet", "dns-prefetch")[i % 4]}" '
            f'href="{here}/static/{("css", "fonts", "js")[i % 3]}/{rng.getrandbits(48):012x}'
            f'.{("css", "woff2", "js")[i % 3]}" crossorigin="anonymous">'
        )
    w(f'<link rel="icon" href="{here}/favicon.ico" sizes="32x32">')
    scripts = _script_pool()
    pool = _css_pool()
    start = rng.randrange(len(pool) - 80)
    w(f"<style>{''.join(pool[start : start + rng.randint(20, 80)])}</style>")
    for _ in range(rng.randint(3, 6)):
        w(f"<script>{rng.choice(scripts)}</script>")
    for i in range(rng.randint(6, 10)):
        w(
            f'<script async src="{here}/static/js/{_VENDORS[i % 4]}'
            f'.{rng.getrandbits(48):012x}.js"></script>'
        )
    ld = {
        "@context": "https://schema.org",
        "@type": "NewsArticle",
        "mainEntityOfPage": {"@type": "WebPage", "@id": canonical},
        "headline": title,
        "description": lede,
        "image": [f"{here}/static/img/{key}-{s}w.jpg" for s in (1200, 960, 640)],
        "datePublished": f"{date}T08:00:00Z",
        "dateModified": f"{date}T09:30:00Z",
        "author": [{"@type": "Person", "name": author, "url": section_href(40)}],
        "publisher": {
            "@type": "Organization",
            "name": brand,
            "logo": {"@type": "ImageObject", "url": f"{here}/static/logo.png"},
        },
        "articleSection": section_name,
        "keywords": _words(rng, 6),
    }
    w(f'<script type="application/ld+json">{json.dumps(ld, indent=1)}</script>')
    w("</head>")

    # ---- header: skip link, top bar with social icons, logo, menu with submenus, search
    w(f'<body class="page page--article section-{section_name.lower()}">')
    w(_SPRITE)
    w('<a class="c-skip-link visually-hidden-focusable" href="#main-content">Skip to content</a>')
    w('<div id="app" class="l-app"><div class="l-app__inner">')
    w('<header class="c-site-header js-sticky-header" role="banner">')
    w(f'<div class="c-site-header__top-bar"><div class="{_CONTAINER}">')
    w('<ul class="c-social-links c-social-links--header">')
    for i, net in enumerate(("facebook", "twitter", "linkedin", "instagram", "youtube")):
        w(
            f'<li class="c-social-links__item"><a class="c-social-links__link" '
            f'href="{section_href(30 + i)}" aria-label="{brand} on {net}">{_svg(rng, net)}</a></li>'
        )
    w("</ul></div></div>")
    w(
        '<div class="c-ad-slot c-ad-slot--leaderboard"><div class="c-ad-slot__wrapper">'
        '<div class="c-ad-slot__inner" id="ad-top"></div></div></div>'
    )
    w(f'<div class="c-site-header__main"><div class="{_CONTAINER} c-site-header__inner">')
    w(
        '<button class="c-hamburger js-menu-toggle" type="button" aria-expanded="false" '
        'aria-controls="main-nav"><span class="c-hamburger__bar"></span>'
        '<span class="c-hamburger__bar"></span><span class="c-hamburger__bar"></span></button>'
    )
    w(
        f'<div class="c-site-header__brand"><a class="c-logo" href="{here}/" title="{brand}">'
        f'<span class="c-logo__text">{brand}</span></a></div>'
    )
    w('<nav class="c-main-nav" aria-label="Main"><ul class="c-main-nav__list">')
    menu = rng.randint(8, 12)
    for i in range(menu):
        name, _ = sections[i]
        w(
            '<li class="c-main-nav__item c-main-nav__item--level-1 u-relative u-inline-flex '
            'u-items-center">'
            f'<a class="c-main-nav__link js-nav-link" href="{section_href(i)}" '
            f"{track('nav', name, i)}>{name}</a>"
        )
        if i < 5:
            w('<div class="c-main-nav__dropdown"><ul class="c-main-nav__sublist">')
            for j in range(rng.randint(3, 7)):
                sub, _ = sections[(12 + 5 * i + j) % len(sections)]
                w(
                    '<li class="c-main-nav__item c-main-nav__item--level-2 u-block u-px-3 '
                    'u-py-2">'
                    f'<a class="c-main-nav__link c-main-nav__link--sub" '
                    f'href="{section_href(12 + 5 * i + j)}" {track("subnav", sub, j)}>'
                    f"{sub}</a></li>"
                )
            w("</ul></div>")
        w("</li>")
    w("</ul></nav>")
    w(
        f'<form class="c-search-form" action="{here}/search" method="get" role="search">'
        '<label class="visually-hidden" for="q">Search</label>'
        '<input class="c-search-form__input" id="q" type="search" name="q" placeholder="Search">'
        '<button class="c-search-form__button" type="submit" aria-label="Search">'
        '<i class="icon icon-search"></i></button></form>'
    )
    w('<div class="c-edition"><select class="c-edition__select" name="edition">')
    out.extend(f'<option value="{e}">{e.upper()}</option>' for e in ("us", "uk", "au", "ca", "in"))
    w("</select></div></div></div></header>")

    # ---- main column: breadcrumbs, article, tags, related cards
    w(
        f'<main id="main-content" class="l-main"><div class="l-section"><div class="{_CONTAINER}">'
        '<div class="l-grid">'
    )
    w('<div class="l-grid__main">')
    w('<nav class="c-breadcrumbs" aria-label="Breadcrumb"><ol class="c-breadcrumbs__list">')
    crumbs = ((brand, f"{here}/"), (section_name, section_href(rng.randrange(8))))
    for name, url in crumbs:
        w(
            f'<li class="c-breadcrumbs__item"><a class="c-breadcrumbs__link" href="{url}">'
            f"<span>{name}</span></a></li>"
        )
    w(f'<li class="c-breadcrumbs__item" aria-current="page"><span>{title}</span></li></ol></nav>')
    w('<article class="c-article" itemscope itemtype="https://schema.org/NewsArticle">')
    w('<header class="c-article__header"><div class="c-article__header-inner">')
    w(
        f'<div class="c-article__kicker"><a class="c-kicker" href="{section_href(0)}">'
        f"{section_name}</a></div>"
    )
    w(f'<h1 class="c-article__title" itemprop="headline">{title}</h1>')
    w(f'<p class="c-article__standfirst">{lede}</p>')
    w(
        '<div class="c-byline"><div class="c-byline__author"><span class="c-byline__by">By</span> '
        f'<a class="c-byline__link" href="{section_href(40)}" rel="author">{author}</a></div>'
        f'<div class="c-byline__meta"><time class="c-byline__date" datetime="{date}T08:00:00Z">'
        f"{date}</time></div></div>"
    )
    w('<div class="c-share"><ul class="c-share__list">')
    for net in ("facebook", "twitter", "email"):
        w(
            f'<li class="c-share__item"><button class="c-share__button c-share__button--{net} '
            f'js-share" type="button" data-network="{net}" aria-label="Share on {net}">'
            f'<span class="c-share__label">{net}</span></button></li>'
        )
    w("</ul></div></div></header>")
    w(
        '<figure class="c-article__lead-media c-figure"><div class="c-figure__media">'
        f'<picture><source type="image/webp" srcset="{here}/static/img/{key}-960w.webp">'
        f"{image('c-figure__image', 1200, title)}</picture></div>"
        f'<figcaption class="c-figure__caption"><span class="c-figure__text">'
        f"{rng.choice(sentences)}</span> "
        f'<span class="c-figure__credit">{author}/{brand}</span></figcaption></figure>'
    )
    w('<div class="c-article__body" itemprop="articleBody"><div class="c-article__content">')
    graph = page_links(shape, host, page)
    in_text = graph[: len(graph) // 2 + 1]
    related_graph = graph[len(in_text) :]
    paragraphs = rng.randint(5, 15)
    link_at = sorted(rng.sample(range(paragraphs), min(paragraphs, len(in_text))))
    for p in range(paragraphs):
        if p and p % 5 == 0:
            w(f'<h2 class="c-article__subheading">{rng.choice(titles)}</h2>')
        if p == 5:
            w(
                '<div class="c-promo c-promo--newsletter"><div class="c-promo__inner">'
                f'<h3 class="c-promo__title">{rng.choice(titles)}</h3>'
                f'<form class="c-promo__form" action="{here}/subscribe" method="post">'
                '<input type="hidden" name="source" value="article-inline">'
                '<input class="c-promo__input" type="email" name="email" placeholder="Email">'
                '<button class="c-button c-button--primary" type="submit">Subscribe</button>'
                "</form></div></div>"
            )
        if p == 3:
            w('<aside class="c-read-also"><h3 class="c-read-also__title">Read also</h3><ul>')
            for _ in range(3):
                w(f'<li><a href="{local_href()}">{rng.choice(titles)}</a></li>')
            w("</ul></aside>")
        if p % 4 == 2:
            w(
                f'<div class="c-ad-slot c-ad-slot--inline" data-slot="inline-{p}">'
                '<div class="c-ad-slot__label">Advertisement</div><div class="c-ad-slot__wrapper">'
                f'<div class="c-ad-slot__inner" id="ad-inline-{p}"></div></div></div>'
            )
        parts = [rng.choice(sentences) for _ in range(rng.randint(1, 3))]
        roll = rng.random()
        if roll < 0.25:
            parts[0] = f"<strong>{parts[0]}</strong>"
        elif roll < 0.45:
            parts[-1] = f"<em>{parts[-1]}</em>"
        while link_at and link_at[0] == p:
            link_at.pop(0)
            link = in_text.pop()
            words = rng.choice(titles).lower()
            parts.insert(rng.randrange(len(parts) + 1), f'<a href="{href(link)}">{words}</a>')
        # Block-editor comments around each paragraph, as WordPress's Gutenberg writes them.
        w(
            f'<!-- wp:paragraph -->\n<p class="c-article__paragraph" data-block="{p}">'
            f"{' '.join(parts)}</p>\n<!-- /wp:paragraph -->"
        )
    for link in in_text:  # more graph links than paragraphs: a "more on this" line
        w(f'<p class="c-article__more"><a href="{href(link)}">{rng.choice(titles)}</a></p>')
    w("</div></div>")
    w('<footer class="c-article__footer"><ul class="c-tags">')
    for i in range(rng.randint(3, 7)):
        w(
            f'<li class="c-tags__item"><a class="c-tags__link" href="{section_href(20 + i)}">'
            f"{sections[20 + i][0]}</a></li>"
        )
    w("</ul></footer>")
    w(
        '<div class="c-author-box"><div class="c-author-box__media">'
        f"{image('c-author-box__image', 320, author)}</div>"
        f'<div class="c-author-box__body"><h4 class="c-author-box__name">{author}</h4>'
        f'<p class="c-author-box__bio">{rng.choice(titles)}</p><ul class="c-author-box__links">'
    )
    for net in ("twitter", "linkedin", "mail"):
        w(
            f'<li><a href="{section_href(40)}" title="{author} on {net}" rel="noopener">'
            f'<span class="c-author-box__network">{net}</span></a></li>'
        )
    w("</ul></div></div>")
    w(
        '<div class="c-comments"><div class="c-comments__header">'
        '<button class="c-button c-comments__toggle" type="button">'
        '<span class="c-comments__label">Comments</span>'
        f'<span class="c-comments__count">{rng.randrange(200)}</span></button></div>'
        '<div class="c-comments__thread" id="comments" data-lazy="true"></div></div>'
    )
    w("</article>")
    w('<section class="c-related" aria-labelledby="related-title">')
    w('<h2 id="related-title" class="c-related__title">More stories</h2><div class="c-cards">')
    cards = related_graph + [Link(host, rng.randrange(n_pages)) for _ in range(rng.randint(2, 8))]
    for i, link in enumerate(cards):
        url = href(link)
        w(
            '<div class="c-card c-card--horizontal u-flex u-flex-row u-gap-4 u-items-start" '
            f'data-component="Card" data-content-id="{rng.getrandbits(64):016x}">'
            '<div class="c-card__media">'
            f'<a class="c-card__media-link" href="{url}" tabindex="-1" {track("card", "media", i)}>'
            '<div class="c-ratio c-ratio--16x9">'
            f"{image('c-card__image', 640, '')}</div></a></div>"
            f'<div class="c-card__body"><span class="c-card__kicker">{rng.choice(sections)[0]}'
            '</span><h3 class="c-card__title">'
            f'<a class="c-card__link" href="{url}" {track("card", "title", i)}>'
            f"{rng.choice(titles)}</a></h3>"
            f'<p class="c-card__excerpt">{rng.choice(titles)}</p>'
            f'<div class="c-card__meta"><span class="c-card__author">{author}</span>'
            f'<time class="c-card__date">{date}</time>'
            "</div>"
            "</div></div>"
        )
    w("</div></section></div>")

    # ---- sidebar: most read, newsletter box, ad
    w('<aside class="l-grid__sidebar c-sidebar">')
    for widget in ("Most read", "Latest"):
        w(
            f'<div class="c-widget c-widget--list"><h3 class="c-widget__title">{widget}</h3>'
            '<ol class="c-widget__list">'
        )
        for i in range(rng.randint(3, 6)):
            w(
                f'<li class="c-widget__item"><div class="c-widget__item-inner">'
                f'<span class="c-widget__rank">{i + 1}</span>'
                f'<a class="c-widget__link" href="{local_href()}" {track(widget, "item", i)}>'
                f"{rng.choice(titles)}</a>"
                "</div></li>"
            )
        w("</ol></div>")
    w(
        '<div class="c-widget c-newsletter"><p class="c-newsletter__text">'
        f'{rng.choice(sentences)}</p><form class="c-newsletter__form" '
        f'action="{here}/subscribe">'
        '<input type="email" name="email" placeholder="Email address" required>'
        '<button type="submit">Sign up</button></form></div>'
        '<div class="c-ad-slot c-ad-slot--sidebar"><div class="c-ad-slot__inner"></div></div>'
    )
    w("</aside></div></div></div></main>")

    # ---- footer: link columns, legal links, copyright
    w(f'<footer class="c-site-footer" role="contentinfo"><div class="{_CONTAINER}">')
    w('<div class="c-site-footer__columns">')
    for col in range(rng.randint(4, 6)):
        w(
            '<div class="c-site-footer__column"><div class="c-site-footer__column-inner">'
            f'<h4 class="c-site-footer__heading">{sections[col][0]}</h4>'
            '<ul class="c-site-footer__list">'
        )
        for j in range(rng.randint(3, 6)):
            index = 6 * col + j
            w(
                '<li class="c-site-footer__item u-mb-2"><a class="c-site-footer__link u-text-sm '
                f'u-text-gray-300 hover:u-underline" title="{sections[index % len(sections)][0]}" '
                f'href="{section_href(index)}" {track("footer", str(col), j)}>'
                f"{sections[index % len(sections)][0]}</a></li>"
            )
        w("</ul></div></div>")
    w('</div><div class="c-site-footer__follow"><ul class="c-social-links c-social-links--footer">')
    for i, net in enumerate(("facebook", "twitter", "linkedin", "mail", "play")):
        w(
            f'<li class="c-social-links__item"><a class="c-social-links__link" '
            f'href="{section_href(30 + i)}" title="{brand} on {net}" target="_blank" '
            f'rel="noopener noreferrer">{net}</a></li>'
        )
    w('</ul><div class="c-app-badges">')
    for store in ("app-store", "google-play"):
        w(
            f'<span class="c-app-badges__item"><img src="{here}/static/badges/{store}.svg" '
            f'alt="Get the {brand} app: {store}" width="135" height="40" loading="lazy"></span>'
        )
    w('</div></div><ul class="c-site-footer__legal">')
    for i, name in enumerate(("About", "Contact", "Privacy", "Cookies", "Terms", "Advertise")):
        w(f'<li><a href="{section_href(42 + i)}">{name}</a></li>')
    w(
        f'</ul><p class="c-site-footer__copyright">&copy; 2026 {brand}. {rng.choice(sentences)}'
        "</p></div></footer></div></div>"
    )

    w(
        '<div class="c-consent" role="dialog" aria-modal="true" hidden><div class="c-consent__box">'
        f'<div class="c-consent__body"><p class="c-consent__text">{rng.choice(sentences)}</p>'
        f'<p><a class="c-consent__link" href="{section_href(44)}">Privacy</a></p></div>'
        '<div class="c-consent__actions"><button class="c-button" type="button">Accept</button>'
        '<button class="c-button c-button--secondary" type="button">Settings</button></div>'
        "</div></div>"
    )

    # ---- trailing scripts: hydration state, more inline and external scripts
    chunks = _state_chunks()
    # 1-27 chunks of ~1.5 KB; a quarter of the pages carry a 40-180 KB blob, the long
    # tail of real page sizes (the news pages' mean is 1.5x their median).
    high = 4.8 if rng.random() < 0.25 else 3.3
    state_size = int(math.exp(rng.uniform(0.0, high)))
    first = rng.randrange(len(chunks) - state_size)
    w(
        f'<script id="__STATE__" type="application/json">{{"page":{{"id":"{key}",'
        f'"items":[{",".join(chunks[first : first + state_size])}]}}}}</script>'
    )
    for _ in range(rng.randint(3, 8)):
        w(f"<script>{rng.choice(scripts)}</script>")
    for i in range(rng.randint(8, 18)):
        w(f'<script defer src="{here}/static/js/chunk-{i}.{rng.getrandbits(48):012x}.js"></script>')
    w('<noscript><img src="' + here + '/pixel.gif" alt="" width="1" height="1"></noscript>')
    w("</body></html>\n")
    # Templates indent their output: whitespace between tags is part of real pages.
    return "\n  ".join(out)
