"""What an HTTP answer means for the crawl (pure): exit codes, redirects, what to read.

The mapping from HTTP status to exit code (unobtanium's numbers, DESIGN.md §3):

=====================  =============================================
status                 exit code
=====================  =============================================
2xx                    20 file_ingested (HTML; images with --images),
                       29 file_of_unknown_type (anything else),
                       114 noindex (HTML asking not to be indexed)
301, 308               31 permanent_redirect
302, 303, 307          32 redirect
304                    34 file_did_not_change
other 3xx, 1xx, >= 600 42 did_not_understand_answer
404                    44 file_not_found
410                    41 file_gone
429                    49 rate_limited
other 4xx              40 server_blamed_client
5xx                    50 server_internal_error
=====================  =============================================
"""

from __future__ import annotations

from dataclasses import dataclass

from unob.codes import ExitCode
from unob.urls import Resolver

__all__ = [
    "FLUKE_FAILURES",
    "RedirectTarget",
    "is_image",
    "redirect_target",
    "status_exit_code",
]

#: Failures worth one immediate retry ("fluke events", reference/unobtanium.md §6.6):
#: the connection, not the server's answer, went wrong.
FLUKE_FAILURES = frozenset(
    {ExitCode.CONNECTION_FAILED, ExitCode.REQUEST_TIMEOUT, ExitCode.ERROR_READING_RESPONSE}
)

_REDIRECTS = {
    301: ExitCode.PERMANENT_REDIRECT,
    308: ExitCode.PERMANENT_REDIRECT,
    302: ExitCode.REDIRECT,
    303: ExitCode.REDIRECT,
    307: ExitCode.REDIRECT,
}
_CLIENT = {404: ExitCode.FILE_NOT_FOUND, 410: ExitCode.FILE_GONE, 429: ExitCode.RATE_LIMITED}


def status_exit_code(status: int) -> ExitCode:
    """The exit code of an HTTP status (2xx is refined by the body: see the module docs)."""
    if 200 <= status < 300:
        return ExitCode.FILE_INGESTED
    if status == 304:
        return ExitCode.FILE_DID_NOT_CHANGE
    if status in _REDIRECTS:
        return _REDIRECTS[status]
    if 400 <= status < 500:
        return _CLIENT.get(status, ExitCode.SERVER_BLAMED_CLIENT)
    if 500 <= status < 600:
        return ExitCode.SERVER_INTERNAL_ERROR
    return ExitCode.DID_NOT_UNDERSTAND_ANSWER


def is_image(mime: str) -> bool:
    """Is ``mime`` (from :func:`unob.crawler.body.mime_of`) an image type?"""
    return mime.startswith("image/")


@dataclass(frozen=True, slots=True)
class RedirectTarget:
    """Where a redirect points: the canonical absolute URL and its fragment."""

    url: str
    fragment: str | None
    by_security_policy: bool


def redirect_target(from_url: str, location: str) -> RedirectTarget | None:
    """Resolve a ``Location`` (or meta refresh URL) against the URL that answered.

    ``Location`` is a URI reference resolved as RFC 3986 §5 says (RFC 9110
    §10.2.2), by the same :class:`~unob.urls.Resolver` as links.
    ``by_security_policy`` is unobtanium's flag for redirects that only
    upgrade the scheme (``http://h/p`` -> ``https://h/p``, e.g. HSTS or a site's
    blanket https redirect).  None when the value cannot be resolved.
    """
    resolved = Resolver(from_url).resolve(location)
    if resolved is None:
        return None
    url, fragment = resolved
    source = Resolver(from_url).base
    upgrade = source.startswith("http://") and url == "https://" + source[len("http://") :]
    return RedirectTarget(url=url, fragment=fragment or None, by_security_policy=upgrade)
