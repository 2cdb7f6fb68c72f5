"""robots.txt rules for our product token (RFC 9309), over protego.

The engine fetches ``/robots.txt`` itself (following at most
:data:`MAX_REDIRECTS` redirects, RFC 9309 §2.3.1.2, reading at most
:data:`MAX_BYTES`) and hands the outcome to :meth:`RobotsRules.from_response`.
What the outcome means (RFC 9309 §2.3.1):

==========================  =======================================  ==============
answer                      rules                                    valid for
==========================  =======================================  ==============
2xx                         the file, parsed (first 500 KiB)         refetch_s
3xx (redirects exhausted)   "unavailable": allow all (§2.3.1.2)      refetch_s
4xx except 429              "unavailable": allow all (§2.3.1.3)      refetch_s
429, 5xx, other, no answer  "unreachable": disallow all (§2.3.1.4),  retry_s
                            or the previous good file if there is
                            one (§2.4 allows the cached copy)
==========================  =======================================  ==============

429 is treated like 5xx (as Google does): a server that rate-limits its
robots.txt is not saying "no rules here".  ``/robots.txt`` itself is always
allowed.

Group selection follows RFC 9309 §2.2.1 exactly: a group applies when one of
its user-agent lines carries our product token (case-insensitive; the line's
own token is its leading run of letters, ``_`` and ``-``, so ``unob/1.0``
names ``unob``); all such groups are combined; without one, the ``*`` groups
apply; without those, nothing is disallowed.  protego alone would also let a
group named ``un`` apply to ``unob`` (it matches group names as prefixes), so
every user-agent line is renamed before protego sees the file: our groups to
one name, ``*`` stays, the rest to a name that matches nothing.  protego then
does what it is good at: longest match, Allow winning ties, ``*`` and ``$``,
percent-encoding, Crawl-delay.
"""

from __future__ import annotations

import re
from enum import Enum
from urllib.parse import urlsplit

from protego import Protego

__all__ = ["MAX_BYTES", "MAX_REDIRECTS", "RobotsRules", "RobotsState", "robots_url"]

#: RFC 9309 §2.5: crawlers must parse at least the first 500 KiB.
MAX_BYTES = 500 * 1024
#: RFC 9309 §2.3.1.2: follow at least five consecutive redirects for robots.txt.
MAX_REDIRECTS = 5

_OURS = "matched-agent"
_OTHER = "other-agent"  # not a substring of _OURS: protego matches names as substrings
_UA_LINE = re.compile(r"\s*(?:user-agent|useragent|user agent)\s*(?::|\s)(.*)", re.IGNORECASE)
_TOKEN = re.compile(r"[A-Za-z_-]*")


class RobotsState(Enum):
    """How a robots.txt answer was read."""

    PARSED = "parsed"  # 2xx: the file's rules apply
    ALLOW_ALL = "allow_all"  # unavailable (3xx, 4xx): no rules
    DISALLOW_ALL = "disallow_all"  # unreachable (5xx, 429, network error): nothing allowed


def robots_url(origin: str) -> str:
    """The robots.txt URL of an origin (``scheme://host[:port]``)."""
    return origin.rstrip("/") + "/robots.txt"


def _rename_agents(text: str, token: str) -> str:
    """Rename user-agent lines so protego's matching becomes RFC 9309's exact matching."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        match = _UA_LINE.match(line)
        if match is None:
            continue
        value = match.group(1).split("#", 1)[0].strip()
        if not value:
            continue  # protego ignores an empty user-agent value; leave the line alone
        if value == "*":
            name = "*"
        else:
            line_token = _TOKEN.match(value)
            name = _OURS if line_token and line_token.group(0).lower() == token else _OTHER
        lines[i] = f"User-agent: {name}"
    return "\n".join(lines)


def _decode(body: bytes) -> str:
    """The first MAX_BYTES of a robots.txt body as text (RFC 9309 §2.3: UTF-8)."""
    if len(body) > MAX_BYTES:
        # cut at a line end so that no rule is read half ("Allow: /p" of "Allow: /private")
        body = body[: body.rfind(b"\n", 0, MAX_BYTES) + 1]
    return body.decode("utf-8-sig", errors="replace")


class RobotsRules:
    """The robots.txt rules of one origin, as they apply to our product token."""

    __slots__ = (
        "_parser",
        "crawl_delay_s",
        "expires_unix",
        "fetched_unix",
        "sitemaps",
        "state",
        "status",
    )

    def __init__(
        self,
        state: RobotsState,
        *,
        status: int | None,
        fetched_unix: float,
        expires_unix: float,
        parser: Protego | None = None,
    ) -> None:
        self.state = state
        #: HTTP status of the robots.txt answer (None: no answer at all)
        self.status = status
        self.fetched_unix = fetched_unix
        #: when to fetch robots.txt again (Unix seconds)
        self.expires_unix = expires_unix
        self._parser = parser
        #: seconds asked for between requests (Crawl-delay, or Request-rate as an
        #: interval, whichever is longer); None when the file says nothing.  Uncapped:
        #: :mod:`unob.crawler.politeness` caps it.
        self.crawl_delay_s: float | None = None
        #: Sitemap URLs the file lists (site-wide, whatever the groups say)
        self.sitemaps: tuple[str, ...] = ()
        if parser is not None:
            delays = []
            if (delay := parser.crawl_delay(_OURS)) is not None:
                delays.append(delay)
            rate = parser.request_rate(_OURS)
            if rate is not None and rate.requests > 0:
                delays.append(rate.seconds / rate.requests)
            self.crawl_delay_s = max(delays) if delays else None
            self.sitemaps = tuple(parser.sitemaps)

    @classmethod
    def from_response(
        cls,
        status: int | None,
        body: bytes | None,
        fetched_unix: float,
        *,
        token: str,
        refetch_s: float = 1800,
        retry_s: float = 300,
        previous: RobotsRules | None = None,
    ) -> RobotsRules:
        """Rules from a robots.txt answer (see the module docstring for the table).

        ``status`` None means no answer (connection failure, timeout, too many
        redirects is a 3xx).  ``token`` is our product token
        (``CrawlSettings.robots_token``).  ``previous`` is the origin's current
        rules: when robots.txt is unreachable, a previously parsed file keeps
        applying (RFC 9309 §2.4) instead of disallowing everything.
        """
        if status is not None and 200 <= status < 300:
            text = _rename_agents(_decode(body or b""), token.lower())
            parser = Protego.parse(text)
            return cls(
                RobotsState.PARSED,
                status=status,
                fetched_unix=fetched_unix,
                expires_unix=fetched_unix + refetch_s,
                parser=parser,
            )
        if status is not None and 300 <= status < 500 and status != 429:
            return cls(
                RobotsState.ALLOW_ALL,
                status=status,
                fetched_unix=fetched_unix,
                expires_unix=fetched_unix + refetch_s,
            )
        if previous is not None and previous.state is RobotsState.PARSED:
            return cls(
                RobotsState.PARSED,
                status=previous.status,
                fetched_unix=previous.fetched_unix,
                expires_unix=fetched_unix + retry_s,
                parser=previous._parser,
            )
        return cls(
            RobotsState.DISALLOW_ALL,
            status=status,
            fetched_unix=fetched_unix,
            expires_unix=fetched_unix + retry_s,
        )

    @property
    def unavailable(self) -> bool:
        """True while everything is disallowed because robots.txt was unreachable.

        The engine should wait for :attr:`expires_unix` and refetch rather than
        log every URL of the origin as disallowed.
        """
        return self.state is RobotsState.DISALLOW_ALL

    def expired(self, now_unix: float) -> bool:
        """True when robots.txt should be fetched again."""
        return now_unix >= self.expires_unix

    def allowed(self, url: str) -> bool:
        """May our crawler fetch ``url`` (an absolute URL on this origin)?"""
        try:
            path = urlsplit(url).path
        except ValueError:
            path = ""
        if path == "/robots.txt":
            return True
        if self.state is RobotsState.ALLOW_ALL:
            return True
        if self._parser is None:
            return False
        return self._parser.can_fetch(url, _OURS)

    def __repr__(self) -> str:
        return (
            f"RobotsRules({self.state.value}, status={self.status}, "
            f"crawl_delay_s={self.crawl_delay_s}, expires_unix={self.expires_unix})"
        )
