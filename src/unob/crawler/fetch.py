"""HTTP requests for the crawler: one aiohttp session, bodies streamed through a size cap.

:class:`Fetcher` makes one request and reports what happened as an
:class:`Answer` -- it never raises for anything a server or the network can
do.  Failures become exit codes (DESIGN.md §3, ``unob.codes.ExitCode``):

==============================================  =========================
what happened                                   exit code
==============================================  =========================
no connection (DNS, refused, reset, TLS)        100 connection_failed
connect, read or total timeout                  101 request_timeout
answer broke off / body could not be read       102 error_reading_response
headers not HTTP as we know it                  42  did_not_understand_answer
body larger than the cap (after decoding)       111 too_large
Content-Encoding not decodable, or a bomb       112 bad_content_encoding
==============================================  =========================

Redirects are not followed (the engine records them and enqueues the
target), except for robots.txt, which RFC 9309 §2.3.1.2 asks to follow.
Automatic decompression is off: bodies are decoded incrementally by
:mod:`unob.crawler.body` so that a compressed bomb stops at the size cap
instead of filling memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import email.utils
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult
from multidict import CIMultiDictProxy

from unob.codes import ExitCode
from unob.crawler import body as bodylib
from unob.errors import UsageError
from unob.settings import CrawlSettings

__all__ = [
    "Answer",
    "BodyPlan",
    "Fetcher",
    "MappedResolver",
    "clean_text",
    "http_date_unix",
    "parse_resolve_specs",
]

_CHUNK = 64 * 1024
#: an unwanted body up to this size (a 404 page, a redirect's text) is read and
#: dropped, so that the connection can be kept alive; a larger one closes it
_DRAIN_BYTES = 64 * 1024
ACCEPT_HTML = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"
ACCEPT_IMAGE = "image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5"
ACCEPT_SITEMAP = "application/xml,text/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5"


@dataclass(frozen=True, slots=True)
class BodyPlan:
    """How much of a body to read: ``cap`` decoded bytes; over it, fail or truncate."""

    cap: int
    truncate: bool = False


@dataclass(slots=True)
class Answer:
    """The outcome of one HTTP request."""

    url: str
    sent_unix_ms: int
    duration_ms: int | None
    """From sending to the last body byte read (or to the failure); None = not measured."""
    failure: ExitCode | None = None
    """None when an HTTP answer was read as planned; else what went wrong."""
    message: str | None = None
    status: int | None = None
    headers: CIMultiDictProxy[str] | None = None
    body: bytes | None = None
    """Decoded body; None when it was not read (by plan or because of a failure)."""
    body_bytes: int | None = None
    truncated: bool = False
    final_url: str | None = None
    """Where redirects (robots.txt only) ended; None = the requested URL."""

    def header(self, name: str) -> str | None:
        """A header's value as clean text (see :func:`clean_text`), None if absent."""
        value = self.headers.get(name) if self.headers is not None else None
        return None if value is None else clean_text(value)

    def header_all(self, name: str) -> list[str]:
        return [clean_text(v) for v in self.headers.getall(name, [])] if self.headers else []

    @property
    def content_type(self) -> str | None:
        return self.header("Content-Type")

    @property
    def etag(self) -> str | None:
        return self.header("ETag")

    @property
    def last_modified_unix(self) -> int | None:
        return http_date_unix(self.header("Last-Modified"))

    @property
    def answered(self) -> bool:
        """An HTTP status arrived (the body may still have failed)."""
        return self.status is not None


def http_date_unix(value: str | None) -> int | None:
    """Unix seconds of an HTTP date (RFC 9110 §5.6.7), or None if absent or unreadable."""
    if not value:
        return None
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    try:
        return int(when.timestamp())
    except (OverflowError, OSError, ValueError):
        return None


# --------------------------------------------------------------------------- resolver


class MappedResolver(AbstractResolver):
    """Resolve chosen host names to fixed addresses (a testing aid, like curl's --resolve).

    ``mapping`` maps a lower-case host name, or ``"*"`` for every name, to an
    IP address.  Names not mapped go to ``fallback`` (the normal resolver), or
    fail when there is none.
    """

    def __init__(self, mapping: dict[str, str], fallback: AbstractResolver | None = None) -> None:
        self.mapping = {k.lower().rstrip("."): v for k, v in mapping.items()}
        self.fallback = fallback

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        name = host.lower().rstrip(".")
        address = self.mapping.get(name, self.mapping.get("*"))
        if address is None:
            if self.fallback is None:
                raise OSError(f"no address for {host!r}")
            return await self.fallback.resolve(host, port, family)
        fam = socket.AF_INET6 if ":" in address else socket.AF_INET
        return [
            ResolveResult(
                hostname=host,
                host=address,
                port=port,
                family=fam,
                proto=0,
                flags=socket.AI_NUMERICHOST,
            )
        ]

    async def close(self) -> None:
        if self.fallback is not None:
            await self.fallback.close()


def parse_resolve_specs(specs: Sequence[str]) -> dict[str, str]:
    """``["HOST:ADDR", ...]`` (HOST may be ``*``) as a mapping; UsageError when malformed."""
    mapping: dict[str, str] = {}
    for spec in specs:
        host, sep, address = spec.partition(":")
        address = address.strip().strip("[]")
        if not sep or not host.strip() or not address:
            raise UsageError(f"--resolve {spec!r}: expected HOST:ADDR, e.g. example.org:127.0.0.1")
        try:
            socket.inet_pton(socket.AF_INET6 if ":" in address else socket.AF_INET, address)
        except OSError:
            raise UsageError(f"--resolve {spec!r}: {address!r} is not an IP address") from None
        mapping[host.strip().lower()] = address
    return mapping


# --------------------------------------------------------------------------- fetcher


def _exit_for(exc: BaseException, *, reading_body: bool) -> ExitCode:
    """The exit code of an exception raised by aiohttp while requesting or reading."""
    if isinstance(exc, asyncio.TimeoutError | TimeoutError):
        return ExitCode.REQUEST_TIMEOUT
    if isinstance(exc, aiohttp.ClientPayloadError):
        return ExitCode.ERROR_READING_RESPONSE
    if isinstance(exc, aiohttp.ClientResponseError):
        # raised by aiohttp's parser for answers that are not valid HTTP
        return ExitCode.DID_NOT_UNDERSTAND_ANSWER
    if reading_body:
        return ExitCode.ERROR_READING_RESPONSE
    return ExitCode.CONNECTION_FAILED


def clean_text(value: str) -> str:
    """``value`` without lone surrogates, so that it can be stored as UTF-8.

    aiohttp decodes header bytes that are not UTF-8 with ``surrogateescape``;
    SQLite (through :mod:`sqlite3`) cannot store such strings.  The bytes are
    decoded again with replacement characters instead.
    """
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return value


async def _drain(response: aiohttp.ClientResponse) -> None:
    """Read and drop a small unwanted body (errors only cost the keep-alive)."""
    with contextlib.suppress(aiohttp.ClientError, OSError, TimeoutError, ValueError):
        read = 0
        async for chunk in response.content.iter_chunked(_CHUNK):
            read += len(chunk)
            if read > _DRAIN_BYTES:
                break  # a server that lied about the length: stop, close the connection


def _describe(exc: BaseException) -> str:
    text = clean_text(str(exc).strip())
    name = type(exc).__name__
    return f"{name}: {text}" if text else name


class Fetcher:
    """One aiohttp session for a crawl; :meth:`get` makes one request."""

    def __init__(
        self,
        settings: CrawlSettings,
        *,
        resolver: AbstractResolver | None = None,
        limit: int | None = None,
    ) -> None:
        self.settings = settings
        self._resolver = resolver
        self._limit = limit or settings.concurrency
        self._session: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> Fetcher:
        settings = self.settings
        connector = aiohttp.TCPConnector(
            limit=self._limit,
            limit_per_host=0,  # per-origin limits are the engine's (politeness)
            ttl_dns_cache=300,
            resolver=self._resolver,
        )
        timeout = aiohttp.ClientTimeout(
            total=settings.total_timeout_s,
            sock_connect=settings.connect_timeout_s,
            sock_read=settings.read_timeout_s,
        )
        self._session = aiohttp.ClientSession(
            connector=connector,
            timeout=timeout,
            auto_decompress=False,  # decoded here, with a cap (bombs)
            # A crawler's traffic goes where its URLs say: no proxies from the
            # environment, and loopback test servers are never routed away.
            trust_env=False,
            headers={
                "User-Agent": settings.user_agent,
                "Accept-Encoding": bodylib.ACCEPT_ENCODING,
            },
            cookie_jar=aiohttp.DummyCookieJar(),  # stateless: no session cookies
            skip_auto_headers=("Accept-Encoding",),
        )
        # aiohttp >= 3.10 silently resends an idempotent request once when the
        # connection drops (RFC 9112 §9.3.1).  The engine makes that retry itself,
        # so that every request that reached the network is a request_info row.
        if hasattr(self._session, "_retry_connection"):
            self._session._retry_connection = False
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def get(
        self,
        url: str,
        *,
        headers: dict[str, str] | None = None,
        plan: Callable[[int, CIMultiDictProxy[str]], BodyPlan | None],
        max_redirects: int = 0,
    ) -> Answer:
        """GET ``url``; ``plan(status, headers)`` says whether and how much body to read.

        Never raises for network or server trouble (see the module docstring);
        :class:`asyncio.CancelledError` passes through.
        """
        assert self._session is not None, "use `async with Fetcher(...)`"
        sent_ms = int(time.time() * 1000)
        started = time.perf_counter()
        answer = Answer(url=url, sent_unix_ms=sent_ms, duration_ms=None)

        def elapsed_ms() -> int:
            return int((time.perf_counter() - started) * 1000)

        try:
            response = await self._session.get(
                url,
                headers=headers,
                allow_redirects=max_redirects > 0,
                max_redirects=max(1, max_redirects),
            )
        except aiohttp.TooManyRedirects as exc:
            last = exc.history[-1] if exc.history else None
            answer.status = last.status if last is not None else None
            answer.headers = last.headers if last is not None else None
            answer.duration_ms = elapsed_ms()
            answer.message = "too many redirects"
            if answer.status is None:
                answer.failure = ExitCode.ERROR_READING_RESPONSE
            return answer
        except (aiohttp.ClientError, OSError, TimeoutError, ValueError) as exc:
            answer.failure = _exit_for(exc, reading_body=False)
            answer.message = _describe(exc)
            answer.duration_ms = elapsed_ms()
            return answer
        try:
            answer.status = response.status
            answer.headers = response.headers
            if str(response.url) != url:
                answer.final_url = str(response.url)
            how = plan(response.status, response.headers)
            if how is not None:
                await self._read_body(response, how, answer)
            elif (response.content_length or 0) <= _DRAIN_BYTES:
                await _drain(response)
        finally:
            response.release()
        answer.duration_ms = elapsed_ms()
        return answer

    async def _read_body(
        self, response: aiohttp.ClientResponse, plan: BodyPlan, answer: Answer
    ) -> None:
        encoding = response.headers.get("Content-Encoding")
        declared = response.content_length
        identity = not encoding or encoding.strip().lower() == "identity"
        if not plan.truncate and identity and declared is not None and declared > plan.cap:
            answer.failure = ExitCode.TOO_LARGE
            answer.message = f"Content-Length {declared} is over the cap of {plan.cap} bytes"
            return
        try:
            if plan.truncate and identity:
                data = await self._read_prefix(response, plan.cap, answer)
            else:
                # (a truncating plan with a Content-Encoding still fails over the cap:
                # only robots.txt truncates, and one over 500 KiB *decoded* is absurd)
                decoder = bodylib.Decoder(encoding, plan.cap)
                async for chunk in response.content.iter_chunked(_CHUNK):
                    decoder.feed(chunk)
                data = decoder.finish()
        except bodylib.BodyError as exc:
            answer.failure = exc.exit_code
            answer.message = str(exc)
            return
        except (aiohttp.ClientError, OSError, TimeoutError, ValueError) as exc:
            answer.failure = _exit_for(exc, reading_body=True)
            answer.message = _describe(exc)
            return
        answer.body = data
        answer.body_bytes = len(data)

    @staticmethod
    async def _read_prefix(response: aiohttp.ClientResponse, cap: int, answer: Answer) -> bytes:
        """The first ``cap`` bytes of an unencoded body (the rest is not read)."""
        parts: list[bytes] = []
        size = 0
        async for chunk in response.content.iter_chunked(_CHUNK):
            if size + len(chunk) > cap:
                parts.append(chunk[: cap - size])
                answer.truncated = True
                break
            parts.append(chunk)
            size += len(chunk)
        return b"".join(parts)
