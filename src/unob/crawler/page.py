"""What a crawled HTML page adds to the crawl (pure): candidates, canonical, refresh, robots.

:func:`analyse_page` runs in a worker thread (lxml parses without the GIL):
it sniffs the charset, extracts links with :mod:`unob.crawler.links`, and
turns them into what the store needs -- normalized, in-scope, deduplicated
candidates one hop deeper, the canonical URL, a meta refresh as a redirect,
and the page's meta robots directives.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from unob.codes import CrawlType, InformationSource
from unob.crawler import body as bodylib
from unob.crawler.links import MetaRefresh, extract
from unob.crawler.outcome import redirect_target
from unob.crawler.records import NewCandidate, RedirectRecord
from unob.crawler.scope import Scope
from unob.urls import origin_of_canonical

__all__ = ["PageAnalysis", "analyse_page"]

#: a meta refresh at most this many seconds away is a redirect, not a page that
#: happens to reload (exit code 32 instead of 20)
REFRESH_IS_REDIRECT_S = 1.0


@dataclass(slots=True)
class PageAnalysis:
    charset: str | None
    candidates: list[NewCandidate] = field(default_factory=list)
    links_found: int = 0
    """Distinct crawlable (http/https) links on the page, in scope or not."""
    canonical_url: str | None = None
    noindex: bool = False
    nofollow: bool = False
    refresh: RedirectRecord | None = None
    refresh_is_redirect: bool = False
    refresh_candidate: NewCandidate | None = None


def analyse_page(
    body: bytes,
    url: str,
    content_type: str | None,
    depth: int,
    scope: Scope,
    want_images: bool,
    max_links: int,
    robots_token: str,
    header_nofollow: bool = False,
) -> PageAnalysis:
    """Analyse one HTML page crawled at ``depth`` (see the module docstring).

    ``header_nofollow``: the answer's ``X-Robots-Tag`` said nofollow.  A
    nofollow page (header or meta robots) adds no links, but its images and
    its meta refresh target are still enqueued: they are part of the page and a
    redirect, not links.
    """
    charset = bodylib.sniff_charset(content_type, body)
    found = extract(
        body,
        url,
        charset,
        want_images=want_images,
        robots_token=robots_token,
        max_links=max_links,
    )
    result = PageAnalysis(
        charset=charset,
        noindex=found.noindex,
        nofollow=found.nofollow or header_nofollow,
        links_found=len(found.links),
    )
    next_depth = depth + 1
    seen: set[str] = {url}

    def enqueue(target: str, crawl_type: CrawlType = CrawlType.FILE_CRAWL) -> None:
        normalized = scope.apply_query_policy(target)
        if normalized in seen:
            return
        seen.add(normalized)
        accepted = (
            scope.accepts_image(normalized)
            if crawl_type is CrawlType.IMAGE_CRAWL
            else scope.accepts(normalized, next_depth)
        )
        if accepted:
            result.candidates.append(
                NewCandidate(normalized, origin_of_canonical(normalized), next_depth, crawl_type)
            )

    if found.canonical is not None:
        result.canonical_url = scope.apply_query_policy(found.canonical)
    if not result.nofollow:
        for link in found.links:
            if not link.nofollow:
                enqueue(link.url)
        if found.canonical is not None:
            enqueue(found.canonical)  # a link like any other (RFC 6596 is a hint)
    if want_images:
        # images are fetched even from nofollow pages: they are part of the page
        for image_url in found.images:
            enqueue(image_url, CrawlType.IMAGE_CRAWL)
    if found.meta_refresh is not None:
        _add_refresh(result, url, found.meta_refresh, scope, next_depth)
    return result


def _add_refresh(
    result: PageAnalysis, url: str, refresh: MetaRefresh, scope: Scope, depth: int
) -> None:
    resolved = redirect_target(url, refresh.url)
    normalized = scope.normalize(resolved.url) if resolved is not None else None
    if resolved is None or normalized is None or normalized == url:
        return  # a page that reloads itself is not a redirect
    origin = origin_of_canonical(normalized)
    result.refresh = RedirectRecord(
        to_url=normalized,
        to_origin=origin,
        to_fragment=refresh.fragment,
        http_status=None,
        is_permanent=False,
        by_security_policy=resolved.by_security_policy,
        information_source=InformationSource.FILE_BODY,
    )
    result.refresh_is_redirect = refresh.delay_s <= REFRESH_IS_REDIRECT_S
    if scope.accepts(normalized, depth):
        result.refresh_candidate = NewCandidate(normalized, origin, depth)
