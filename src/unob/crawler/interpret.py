"""From a URL's HTTP answers to its crawl log entry: what to ask, what to read, what it means.

:func:`request_headers` and :func:`body_plan` decide how a candidate is
requested; :class:`Interpreter` fills an :class:`~.records.EntryRecord` from
the answers (the status mapping is :mod:`.outcome`'s): the file and its body,
redirects and the candidates they add, and -- for HTML, analysed in a worker
thread by :mod:`.page` -- links, canonical, meta refresh and robots
directives.  No network, no database: the engine does both.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from email.utils import formatdate
from functools import partial

from multidict import CIMultiDictProxy

from unob.codes import CrawlType, ExitCode, InformationSource
from unob.crawler import body as bodylib
from unob.crawler.fetch import (
    ACCEPT_HTML,
    ACCEPT_IMAGE,
    ACCEPT_SITEMAP,
    Answer,
    BodyPlan,
    clean_text,
)
from unob.crawler.frontier import Candidate
from unob.crawler.links import parse_x_robots_tag
from unob.crawler.outcome import is_image, redirect_target, status_exit_code
from unob.crawler.page import PageAnalysis, analyse_page
from unob.crawler.politeness import parse_retry_after
from unob.crawler.records import (
    EntryRecord,
    FileRecord,
    NewCandidate,
    RedirectRecord,
    RequestRecord,
)
from unob.crawler.scope import Scope
from unob.crawler.sitemap import MAX_BYTES as SITEMAP_MAX_BYTES
from unob.crawler.sitemap import SitemapAnalysis, analyse_sitemap
from unob.settings import CrawlSettings
from unob.urls import origin_of_canonical

__all__ = ["Interpreter", "PlanFn", "body_plan", "request_headers", "request_records"]

PlanFn = Callable[[int, CIMultiDictProxy[str]], BodyPlan | None]

_ACCEPT = {CrawlType.IMAGE_CRAWL: ACCEPT_IMAGE, CrawlType.SITEMAP_CRAWL: ACCEPT_SITEMAP}


def request_headers(candidate: Candidate) -> dict[str, str]:
    """Accept, and for a recrawl the conditional headers (RFC 9110 §13.1) from the
    last contentful crawl."""
    headers = {"Accept": _ACCEPT.get(candidate.crawl_type, ACCEPT_HTML)}
    if candidate.etag:
        headers["If-None-Match"] = candidate.etag
    if candidate.last_modified_unix is not None:
        headers["If-Modified-Since"] = formatdate(candidate.last_modified_unix, usegmt=True)
    return headers


def body_plan(settings: CrawlSettings, candidate: Candidate) -> PlanFn:
    """Which bodies to read: 2xx HTML (or no Content-Type: sniffed later) up to
    ``max_body_bytes``, images up to ``max_image_bytes`` with ``--images``, a
    sitemap's whatever its type (servers label them every which way) up to the
    protocol's 50 MB; nothing else is downloaded."""
    wants_image = candidate.crawl_type == CrawlType.IMAGE_CRAWL
    wants_sitemap = candidate.crawl_type == CrawlType.SITEMAP_CRAWL

    def plan(status: int, headers: CIMultiDictProxy[str]) -> BodyPlan | None:
        if not 200 <= status < 300:
            return None
        if wants_sitemap:
            return BodyPlan(SITEMAP_MAX_BYTES)
        mime = bodylib.mime_of(headers.get("Content-Type"))
        if is_image(mime):
            return BodyPlan(settings.max_image_bytes) if settings.images else None
        if wants_image:
            return None
        if not mime or bodylib.is_html(mime):
            return BodyPlan(settings.max_body_bytes)
        return None

    return plan


def request_records(
    answers: Sequence[Answer], final: ExitCode, *, approved: bool
) -> list[RequestRecord]:
    """One ``request_info`` row per answer; the last carries the entry's outcome."""
    records = []
    for i, answer in enumerate(answers):
        last = i == len(answers) - 1
        retry_after = parse_retry_after(answer.header("Retry-After"), time.time())
        x_robots = answer.header_all("X-Robots-Tag")
        records.append(
            RequestRecord(
                sent_unix_ms=answer.sent_unix_ms,
                duration_ms=answer.duration_ms,
                robotstxt_approved=approved,
                is_retry=i > 0,
                exit_code=final if last else (answer.failure or final),
                http_status=answer.status,
                http_etag=answer.etag,
                server_last_modified_unix_utc=answer.last_modified_unix,
                content_type=answer.content_type,
                content_encoding=answer.header("Content-Encoding"),
                body_bytes=answer.body_bytes,
                retry_after_s=None if retry_after is None else int(retry_after),
                x_robots_tag=", ".join(x_robots) if x_robots else None,
            )
        )
    return records


class Interpreter:
    """Fills entries from answers for one run (its settings and scope)."""

    def __init__(self, settings: CrawlSettings, scope: Scope, pool: Executor) -> None:
        self.settings = settings
        self.scope = scope
        self.pool = pool

    async def interpret(
        self, candidate: Candidate, answers: Sequence[Answer], entry: EntryRecord
    ) -> None:
        """Set the entry's exit code, message, requests, file, redirects and candidates."""
        last = answers[-1]
        if last.failure is not None:
            entry.exit_code = last.failure
            entry.message = last.message
        else:
            status = last.status or 0
            entry.exit_code = status_exit_code(status)
            if 200 <= status < 300:
                await self._file(candidate, last, entry)
            elif entry.exit_code in (ExitCode.PERMANENT_REDIRECT, ExitCode.REDIRECT):
                self._redirect(candidate, last, entry)
            elif entry.exit_code is ExitCode.DID_NOT_UNDERSTAND_ANSWER:
                entry.message = f"HTTP status {status} not understood"
            elif entry.exit_code is not ExitCode.FILE_DID_NOT_CHANGE:
                entry.message = f"HTTP {status}"
        entry.requests = request_records(answers, entry.exit_code, approved=True)

    def _redirect(self, candidate: Candidate, answer: Answer, entry: EntryRecord) -> None:
        location = answer.header("Location")
        target = redirect_target(candidate.url, location) if location else None
        normalized = self.scope.normalize(target.url) if target is not None else None
        if target is None or normalized is None:
            entry.exit_code = ExitCode.DID_NOT_UNDERSTAND_ANSWER
            entry.message = f"HTTP {answer.status} without a usable Location ({location!r})"
            return
        to_origin = origin_of_canonical(normalized)
        entry.redirects.append(
            RedirectRecord(
                to_url=normalized,
                to_origin=to_origin,
                to_fragment=target.fragment,
                http_status=answer.status,
                is_permanent=entry.exit_code is ExitCode.PERMANENT_REDIRECT,
                by_security_policy=target.by_security_policy,
                information_source=InformationSource.RESPONSE_HEADER,
            )
        )
        entry.message = f"-> {normalized}"
        # A redirect counts as a hop (depth + 1): chains of redirects are bounded by
        # max_depth like chains of links; loops end because a URL is crawled once a run.
        depth = candidate.depth + 1
        if self.scope.accepts_type(normalized, depth, candidate.crawl_type):
            entry.candidates.append(
                NewCandidate(normalized, to_origin, depth, candidate.crawl_type)
            )

    async def _file(self, candidate: Candidate, answer: Answer, entry: EntryRecord) -> None:
        content_type = answer.content_type
        mime = bodylib.mime_of(content_type)
        noindex, nofollow = _x_robots(answer, self.settings.robots_token)
        body = answer.body
        info = FileRecord(
            mime_type=mime or None,
            charset=None,
            size=answer.body_bytes if body is not None else _content_length(answer),
            last_modified_unix_utc=answer.last_modified_unix,
            body=None,
            robots_noindex=noindex,
            robots_nofollow=nofollow,
        )
        entry.file = info
        if body is None:
            entry.exit_code = ExitCode.FILE_OF_UNKNOWN_TYPE
            entry.message = f"not stored: {mime or 'no Content-Type'}"
            return
        if candidate.crawl_type == CrawlType.SITEMAP_CRAWL:
            if not _is_html(mime, body):
                await self._sitemap(candidate, body, entry, info)
                return
            # an HTML "site map" page named as a sitemap (a common slip): crawled as
            # the page it is, so that its links are followed and it is summarized
            entry.crawl_type = CrawlType.FILE_CRAWL
        if is_image(mime):
            info.body = body
            info.compress = mime == "image/svg+xml"  # other formats are compressed already
            entry.exit_code = ExitCode.NOINDEX if noindex else ExitCode.FILE_INGESTED
            return
        if not mime and not _looks_like_html(body):
            entry.exit_code = ExitCode.FILE_OF_UNKNOWN_TYPE
            entry.message = "not stored: no Content-Type and not HTML"
            return
        if _looks_binary(body):
            entry.exit_code = ExitCode.FILE_OF_UNKNOWN_TYPE
            entry.message = f"not stored: binary data labelled {mime or 'as nothing'}"
            return
        try:
            page: PageAnalysis = await asyncio.get_running_loop().run_in_executor(
                self.pool,
                analyse_page,
                body,
                candidate.url,
                content_type,
                candidate.depth,
                self.scope,
                self.settings.images,
                self.settings.max_links_per_page,
                self.settings.robots_token,
                nofollow,
            )
        except Exception as exc:
            # a page must never stop the crawl: store it, say what went wrong
            page = PageAnalysis(charset=None)
            entry.message = f"links not extracted: {clean_text(repr(exc))}"
        info.mime_type = mime or "text/html"
        info.body = body
        info.charset = page.charset
        info.canonical_url = page.canonical_url
        info.links_found = page.links_found
        info.robots_noindex = noindex or page.noindex
        info.robots_nofollow = nofollow or page.nofollow
        entry.exit_code = ExitCode.NOINDEX if info.robots_noindex else ExitCode.FILE_INGESTED
        entry.candidates.extend(page.candidates)
        if page.refresh is not None:
            entry.redirects.append(page.refresh)
            entry.message = f"meta refresh -> {page.refresh.to_url}"
            if page.refresh_is_redirect and not info.robots_noindex:
                entry.exit_code = ExitCode.REDIRECT
            if page.refresh_candidate is not None:
                entry.candidates.append(page.refresh_candidate)

    async def _sitemap(
        self, candidate: Candidate, body: bytes, entry: EntryRecord, info: FileRecord
    ) -> None:
        """A fetched sitemap: stored as sent (queryable like any file), its entries
        enqueued (:mod:`.sitemap`, in a worker thread: a sitemap may be 50 MB)."""
        # a .xml.gz file is compressed already; anything else is XML or text
        info.body = body
        info.compress = not body.startswith(b"\x1f\x8b")
        try:
            analyse = partial(
                analyse_sitemap,
                body,
                candidate.url,
                candidate.depth,
                self.scope,
                now=entry.started_unix_ms // 1000,
            )
            found: SitemapAnalysis = await asyncio.get_running_loop().run_in_executor(
                self.pool, analyse
            )
        except bodylib.BodyError as exc:
            # a .gz that is broken or unpacks past 50 MB: nothing read, nothing stored
            info.body = None
            entry.exit_code = exc.exit_code
            entry.message = f"sitemap not read: {exc}"
            return
        except Exception as exc:
            # a sitemap must never stop the crawl: store it, say what went wrong
            entry.exit_code = ExitCode.DID_NOT_UNDERSTAND_ANSWER
            entry.message = f"sitemap not read: {clean_text(repr(exc))}"
            return
        document = found.document
        info.links_found = len(document.locs)
        entry.candidates.extend(found.candidates)
        entry.message = found.summary()
        # malformed or not a sitemap at all: the URLs read before the error still count
        entry.exit_code = (
            ExitCode.FILE_INGESTED if document.error is None else ExitCode.DID_NOT_UNDERSTAND_ANSWER
        )


def _x_robots(answer: Answer, token: str) -> tuple[bool, bool]:
    values = answer.header_all("X-Robots-Tag")
    if not values:
        return False, False
    return parse_x_robots_tag(values, token)


def _content_length(answer: Answer) -> int | None:
    value = answer.header("Content-Length")
    return int(value) if value is not None and value.isdigit() else None


# WHATWG MIME Sniffing §7.1: the "binary data bytes", control characters no text uses.
_BINARY_BYTES = bytes([*range(0x00, 0x09), 0x0B, *range(0x0E, 0x1B), *range(0x1C, 0x20)])
_UTF16_BOMS = (b"\xfe\xff", b"\xff\xfe")  # UTF-16 text is full of NULs
#: binary data bytes, per 1024 bytes of the body's start, above which it is not text:
#: random bytes have about 108; a real page has none or a stray one or two
BINARY_BYTES_PER_KIB = 16
_MIN_BINARY_BYTES = 8


def _looks_binary(body: bytes) -> bool:
    """Whether a body labelled as HTML (or not labelled) is binary data: an image,
    an archive or junk served as text/html would otherwise be stored and indexed
    as a page of mojibake."""
    head = body[:1024]
    if not head or head.startswith(_UTF16_BOMS):
        return False
    binary = len(head) - len(head.translate(None, _BINARY_BYTES))
    # at least a few: a short page with a stray byte or two is still a page
    return binary > max(_MIN_BINARY_BYTES, BINARY_BYTES_PER_KIB * len(head) // 1024)


def _is_html(mime: str, body: bytes) -> bool:
    """An answer that is an HTML page, by its type or (untyped or generic) its start."""
    if mime in ("text/html", "application/xhtml+xml"):
        return True
    return mime in ("", "text/plain", "application/octet-stream") and _looks_like_html(body)


def _looks_like_html(body: bytes) -> bool:
    """Sniff a body without Content-Type (WHATWG MIME sniffing, the HTML patterns)."""
    head = body[:1024].lstrip().lower()
    return head.startswith((b"<!doctype html", b"<html", b"<head", b"<body", b"<title"))
