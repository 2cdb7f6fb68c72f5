"""Per-origin pacing and patience (pure: every method takes the time as an argument).

Pacing (DESIGN.md §4, reference/unobtanium.md §6.5).  Between two requests
to one origin the crawler waits::

    wait = max(min_delay,
               min(Crawl-delay, max_crawl_delay),          # robots.txt, capped at 120 s
               min(last_response_time * 2**politeness, 300 s))

* ``politeness`` starts at 2 and every answer that is not 429 or 5xx lowers
  it by 1 (not below 0) once the wait after that answer is over, so the waits
  after the first three answers of a healthy server are 4x, 2x and 1x its
  response time ("wait as long as the server took" from then on).  429 and
  503 raise it by 1 (at most to 8); a 429 also freezes it for the rest of the
  run: no more decay (as unobtanium does).  Other 5xx neither raise nor
  lower it (patience deals with them).
* ``last_response_time`` is the duration of the last answered request,
  headers to last body byte; failures without an answer do not change it.
* ``Retry-After`` on 429/503 (seconds or an HTTP date, RFC 9110 §10.2.3)
  blocks the origin that long, capped at ``max_retry_after_s`` (1 h).
* ``delay_ms = 0`` turns pacing off ("as fast as the server answers"):
  no minimum, and the response-time term only applies while the server has
  pushed back (politeness starts at 0 and the term counts only when
  politeness > 0).  Crawl-delay and Retry-After still apply: they are the
  site's explicit wishes.  On a loopback server nothing else slows a crawl.
* The wait runs from the later of the last request's start and the last
  answer, so with ``per_origin_concurrency`` 1 it is the idle gap after an
  answer, and with more slots request starts are spaced by ``wait``.
* ``time_scale`` multiplies every wait (tests use 0.001).

Patience (reference/unobtanium.md §6.7): each origin starts with
``CrawlSettings.patience`` (10) points.  An outcome in
:data:`PATIENCE_COSTS` (connection failure or timeout after the one fluke
retry, a broken answer, 5xx, 429, robots.txt unreachable) costs one point;
any other answered request gives one back (never above the start value); a
database error empties it at once.  At 0 the origin is given up for the rest
of the run (its URLs are logged as ``origin_gave_up`` or left for the next
run).
"""

from __future__ import annotations

import email.utils
import math
from datetime import UTC

from unob.codes import ExitCode
from unob.settings import CrawlSettings

__all__ = [
    "INITIAL_POLITENESS",
    "MAX_POLITENESS",
    "MAX_RESPONSE_TERM_S",
    "PATIENCE_COSTS",
    "Pacer",
    "Patience",
    "parse_retry_after",
]

INITIAL_POLITENESS = 2
MAX_POLITENESS = 8
#: cap on ``last_response_time * 2**politeness``: a 20 s answer after a few 503s
#: would otherwise park the origin for hours
MAX_RESPONSE_TERM_S = 300.0

#: outcomes that cost an origin one point of patience
PATIENCE_COSTS = frozenset(
    {
        ExitCode.CONNECTION_FAILED,
        ExitCode.REQUEST_TIMEOUT,
        ExitCode.ERROR_READING_RESPONSE,
        ExitCode.SERVER_INTERNAL_ERROR,
        ExitCode.RATE_LIMITED,
        ExitCode.ROBOTS_UNAVAILABLE,
    }
)
# outcomes that say nothing about the server (no request was made)
_NEUTRAL = frozenset(
    {
        ExitCode.CANCELLED,
        ExitCode.ROBOTS_DISALLOWED,
        ExitCode.ORIGIN_GAVE_UP,
    }
)


def parse_retry_after(value: str | None, now_unix: float) -> float | None:
    """Seconds to wait from a ``Retry-After`` value (RFC 9110 §10.2.3), or None.

    ``value`` is delay-seconds (``"120"``) or an HTTP date; a date in the past
    gives 0.  Unreadable values give None.  Not capped here (the pacer caps).
    """
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)  # RFC 9110 §5.6.7: HTTP dates are GMT
    return max(0.0, when.timestamp() - now_unix)


class Pacer:
    """When the next request to one origin may start (see the module docstring).

    Times are seconds on one clock of the caller's choosing (the engine uses
    ``time.monotonic()``).
    """

    __slots__ = (
        "_blocked_until",
        "_crawl_delay_s",
        "_decay_pending",
        "_mark",
        "adaptive",
        "frozen",
        "last_response_s",
        "max_crawl_delay_s",
        "max_retry_after_s",
        "min_delay_s",
        "politeness",
        "time_scale",
    )

    def __init__(
        self,
        min_delay_s: float,
        *,
        max_crawl_delay_s: float = 120.0,
        max_retry_after_s: float = 3600.0,
        time_scale: float = 1.0,
    ) -> None:
        self.min_delay_s = min_delay_s
        self.max_crawl_delay_s = max_crawl_delay_s
        self.max_retry_after_s = max_retry_after_s
        self.time_scale = time_scale
        #: False when min_delay is 0: the response-time term then only counts while
        #: the server has pushed back (politeness > 0)
        self.adaptive = min_delay_s > 0
        self.politeness = INITIAL_POLITENESS if self.adaptive else 0
        #: True after a 429: politeness no longer decays in this run
        self.frozen = False
        self._decay_pending = False  # the last answer was fine: lower politeness next time
        self.last_response_s = 0.0
        self._crawl_delay_s = 0.0
        self._mark = -math.inf  # latest request start or answer
        self._blocked_until = -math.inf  # Retry-After

    @classmethod
    def from_settings(cls, settings: CrawlSettings) -> Pacer:
        """A pacer configured from crawl settings."""
        return cls(
            settings.delay_ms / 1000,
            max_crawl_delay_s=settings.max_crawl_delay_s,
            max_retry_after_s=settings.max_retry_after_s,
            time_scale=settings.time_scale,
        )

    def set_crawl_delay(self, seconds: float | None) -> None:
        """Apply robots.txt's Crawl-delay (None: the file sets none); capped here."""
        self._crawl_delay_s = 0.0 if seconds is None else min(seconds, self.max_crawl_delay_s)

    def wait_s(self) -> float:
        """The wait between two requests right now, before ``time_scale``."""
        response_term = 0.0
        if self.adaptive or self.politeness > 0:
            response_term = min(self.last_response_s * 2.0**self.politeness, MAX_RESPONSE_TERM_S)
        return max(self.min_delay_s, self._crawl_delay_s, response_term)

    def next_request_at(self, now: float) -> float:
        """The earliest time the next request may start (``now`` if it may start now)."""
        return max(now, self._mark + self.wait_s() * self.time_scale, self._blocked_until)

    def reserve(self, now: float) -> float:
        """Claim the next start time: like :meth:`next_request_at`, and marks it taken.

        Call it when a request is about to be scheduled, then sleep until the
        returned time; concurrent slots of one origin get starts ``wait`` apart.
        """
        start = self.next_request_at(now)
        self._mark = start
        return start

    def on_response(
        self,
        now: float,
        response_time_s: float,
        status: int,
        retry_after_s: float | None = None,
    ) -> None:
        """Record an answer (any HTTP status) that arrived at ``now``."""
        self._mark = max(self._mark, now)
        self.last_response_s = max(0.0, response_time_s)
        # the wait after the previous (healthy) answer has been served: now it decays
        if self._decay_pending and not self.frozen and self.politeness > 0:
            self.politeness -= 1
        self._decay_pending = False
        if status in (429, 503):
            self.politeness = min(self.politeness + 1, MAX_POLITENESS)
            if status == 429:
                self.frozen = True
            if retry_after_s is not None:
                pause = min(max(0.0, retry_after_s), self.max_retry_after_s)
                self._blocked_until = max(self._blocked_until, now + pause * self.time_scale)
        elif status < 500:
            self._decay_pending = True

    def on_no_answer(self, now: float) -> None:
        """Record a request that got no answer (connection failure, timeout)."""
        self._mark = max(self._mark, now)


class Patience:
    """Per-origin patience counter (see the module docstring)."""

    __slots__ = ("start", "value")

    def __init__(self, start: int = 10) -> None:
        self.start = start
        self.value = start

    @property
    def exhausted(self) -> bool:
        return self.value <= 0

    def on_outcome(self, exit_code: ExitCode | int) -> bool:
        """Count the final outcome of one crawl (after any fluke retry); True = give up."""
        code = ExitCode(exit_code)
        if code is ExitCode.DATABASE_ERROR:
            self.value = 0
        elif code in PATIENCE_COSTS:
            self.value = max(0, self.value - 1)
        elif code not in _NEUTRAL and self.value > 0:
            self.value = min(self.start, self.value + 1)
        return self.exhausted

    def on_failure(self, exit_code: ExitCode | int) -> bool:
        """Alias of :meth:`on_outcome` for failures; True = give up the origin."""
        return self.on_outcome(exit_code)

    def on_success(self) -> None:
        """An answered request: give one point back."""
        self.on_outcome(ExitCode.FILE_INGESTED)
