"""Fixture websites for crawler tests: one aiohttp server on 127.0.0.1, many host names.

A :class:`FixtureServer` answers for any number of :class:`Site` objects,
picked by the request's ``Host`` header; the crawler reaches them through a
resolver that maps every name to 127.0.0.1 (``run_crawl(resolver=...)`` or
``--resolve '*:127.0.0.1'``).  Every request is recorded (:class:`Hit`), so
tests count what the server really saw.  The server runs on its own thread
and event loop: ``run_crawl`` runs its own.

Handlers are plain functions ``(request) -> web.StreamResponse`` (async), so a
test can misbehave in any way: sleep, drop the connection, send a bomb.
"""

from __future__ import annotations

import asyncio
import gzip
import threading
import time
import zlib
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from aiohttp import web

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True, slots=True)
class Hit:
    host: str
    path_qs: str
    headers: dict[str, str]
    at: float
    """time.monotonic() when the request arrived"""


def html(body: str, *, title: str = "page", head: str = "", charset: str | None = "utf-8") -> bytes:
    meta = f'<meta charset="{charset}">' if charset else ""
    return (
        f"<!DOCTYPE html><html><head>{meta}<title>{title}</title>{head}</head>"
        f"<body>{body}</body></html>"
    ).encode(charset or "utf-8")


def page(
    body: str = "", *, status: int = 200, head: str = "", headers: dict[str, str] | None = None
) -> Handler:
    """A handler answering an HTML page."""
    data = html(body, head=head)

    async def handle(_request: web.Request) -> web.StreamResponse:
        return web.Response(
            body=data, status=status, content_type="text/html", charset="utf-8", headers=headers
        )

    return handle


def links(*hrefs: str, extra: str = "") -> Handler:
    """A handler answering a page that links to ``hrefs``."""
    return page("".join(f'<a href="{h}">{h}</a> ' for h in hrefs) + extra)


def raw(
    body: bytes,
    *,
    status: int = 200,
    content_type: str = "text/html",
    headers: dict[str, str] | None = None,
) -> Handler:
    async def handle(_request: web.Request) -> web.StreamResponse:
        all_headers = {"Content-Type": content_type, **(headers or {})}
        return web.Response(body=body, status=status, headers=all_headers)

    return handle


def redirect(location: str, status: int = 301) -> Handler:
    async def handle(_request: web.Request) -> web.StreamResponse:
        return web.Response(status=status, headers={"Location": location})

    return handle


def status(code: int, headers: dict[str, str] | None = None) -> Handler:
    async def handle(_request: web.Request) -> web.StreamResponse:
        return web.Response(status=code, text=f"status {code}", headers=headers)

    return handle


def slow(seconds: float, then: Handler) -> Handler:
    """Answer like ``then``, after ``seconds``."""

    async def handle(request: web.Request) -> web.StreamResponse:
        await asyncio.sleep(seconds)
        return await then(request)

    return handle


def raw_http(response: bytes) -> Handler:
    """Answer with exactly these bytes (status line, headers, body), then close."""

    async def handle(request: web.Request) -> web.StreamResponse:
        assert request.transport is not None
        request.transport.write(response)
        request.transport.close()
        raise asyncio.CancelledError  # aiohttp ends the handler quietly

    return handle


def gzip_bomb(decoded_size: int) -> bytes:
    """A gzip stream of ``decoded_size`` zero bytes (about 1000x smaller)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    chunk = b"\0" * (1 << 20)
    parts = []
    left = decoded_size
    while left > 0:
        parts.append(compressor.compress(chunk[: min(left, len(chunk))]))
        left -= len(chunk)
    parts.append(compressor.flush())
    return b"".join(parts)


def gzipped(body: bytes) -> bytes:
    return gzip.compress(body)


@dataclass
class Site:
    """One host name's routes (path with query -> handler) and robots.txt."""

    routes: dict[str, Handler] = field(default_factory=dict)
    robots: str | None = None
    """robots.txt text; None = 404."""

    def add(self, path: str, handler: Handler) -> Site:
        self.routes[path] = handler
        return self


class FixtureServer:
    """Serves many :class:`Site` objects on one 127.0.0.1 port (see the module docstring)."""

    def __init__(self) -> None:
        self.sites: dict[str, Site] = {}
        self.hits: list[Hit] = []
        self.port = 0
        self.fallback: Callable[[str, str], Handler | None] | None = None

    def site(self, host: str) -> Site:
        return self.sites.setdefault(host, Site())

    def url(self, host: str, path: str = "/") -> str:
        return f"http://{host}:{self.port}{path}"

    def origin(self, host: str) -> str:
        return f"http://{host}:{self.port}"

    def count(self, host: str | None = None, path: str | None = None) -> int:
        return sum(
            1
            for h in list(self.hits)
            if (host is None or h.host == host) and (path is None or h.path_qs == path)
        )

    def paths(self, host: str) -> list[str]:
        return [h.path_qs for h in list(self.hits) if h.host == host]

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        host = (request.host or "").rsplit(":", 1)[0]
        self.hits.append(Hit(host, request.path_qs, dict(request.headers), time.monotonic()))
        site = self.sites.get(host)
        if site is None:
            return web.Response(status=421, text="unknown host")
        if request.path == "/robots.txt" and "/robots.txt" not in site.routes:
            if site.robots is None:
                return web.Response(status=404, text="no robots.txt")
            return web.Response(text=site.robots, content_type="text/plain")
        handler = site.routes.get(request.path_qs) or site.routes.get(request.path)
        if handler is None and self.fallback is not None:
            handler = self.fallback(host, request.path_qs)
        if handler is None:
            return web.Response(status=404, text="not found")
        return await handler(request)


@contextmanager
def serve(server: FixtureServer) -> Iterator[FixtureServer]:
    """Run ``server`` on 127.0.0.1 (a free port) in a thread for the ``with`` block."""
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    state: dict[str, web.AppRunner] = {}

    async def start() -> None:
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", server._handle)
        runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=0.1)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        sockets = site._server.sockets if site._server is not None else []  # type: ignore[union-attr]
        server.port = sockets[0].getsockname()[1]
        state["runner"] = runner

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(start())
        ready.set()
        loop.run_forever()

    thread = threading.Thread(target=run, name="fixture-server", daemon=True)
    thread.start()
    ready.wait(10)
    try:
        yield server
    finally:
        asyncio.run_coroutine_threadsafe(state["runner"].cleanup(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
