"""Per-origin pacing (wait formula, 429/503, Retry-After, delays off) and patience."""

from __future__ import annotations

import email.utils

import pytest

from unob.codes import ExitCode
from unob.crawler.politeness import (
    INITIAL_POLITENESS,
    MAX_POLITENESS,
    MAX_RESPONSE_TERM_S,
    PATIENCE_COSTS,
    Pacer,
    Patience,
    parse_retry_after,
)
from unob.settings import load_crawl_settings


def answered(
    pacer: Pacer, now: float, rtt: float, status: int = 200, retry: float | None = None
) -> tuple[float, float]:
    """One request: reserve a start, answer ``rtt`` later; returns (start, answer time)."""
    start = pacer.reserve(now)
    pacer.on_response(start + rtt, rtt, status, retry)
    return start, start + rtt


def test_first_request_may_start_at_once() -> None:
    pacer = Pacer(1.0)
    assert pacer.next_request_at(50.0) == 50.0
    assert pacer.reserve(50.0) == 50.0


def test_min_delay_dominates_fast_servers() -> None:
    pacer = Pacer(1.0)
    _, end = answered(pacer, 0.0, 0.01)
    assert pacer.next_request_at(end) == pytest.approx(end + 1.0)


def test_response_time_term_starts_at_four_times_and_decays_to_once() -> None:
    pacer = Pacer(0.5)
    assert pacer.politeness == INITIAL_POLITENESS == 2
    # wait = max(0.5, 2 s * 2**p): the waits after answers 1, 2, 3, 4 use p = 2, 1, 0, 0
    waits = []
    end = 0.0
    for _ in range(4):
        _, end = answered(pacer, end, 2.0)
        waits.append(pacer.next_request_at(end) - end)
    assert waits == pytest.approx([8.0, 4.0, 2.0, 2.0])
    assert pacer.politeness == 0  # never below 0


def test_before_any_answer_the_initial_politeness_applies() -> None:
    pacer = Pacer(0.1)
    pacer.last_response_s = 1.0
    assert pacer.wait_s() == pytest.approx(4.0)


def test_crawl_delay_is_honoured_and_capped_at_120_s() -> None:
    pacer = Pacer(1.0)
    pacer.set_crawl_delay(5.0)
    assert pacer.wait_s() == 5.0
    pacer.set_crawl_delay(3600.0)
    assert pacer.wait_s() == 120.0
    pacer.set_crawl_delay(None)
    assert pacer.wait_s() == 1.0
    pacer.set_crawl_delay(0.2)  # smaller than the minimum delay: the minimum stays
    assert pacer.wait_s() == 1.0


def test_429_raises_politeness_and_freezes_it() -> None:
    pacer = Pacer(0.1)
    _, end = answered(pacer, 0.0, 1.0)  # p 2 -> 1
    _, end = answered(pacer, end + 10, 1.0, status=429)
    assert pacer.politeness == 2 and pacer.frozen
    for _ in range(5):
        _, end = answered(pacer, end + 10, 1.0)
    assert pacer.politeness == 2  # no decay for the rest of the run
    assert pacer.wait_s() == pytest.approx(4.0)


def test_503_raises_politeness_without_freezing() -> None:
    pacer = Pacer(0.1)
    _, end = answered(pacer, 0.0, 1.0, status=503)
    assert pacer.politeness == 3 and not pacer.frozen
    _, end = answered(pacer, end + 10, 1.0)
    _, end = answered(pacer, end + 10, 1.0)
    assert pacer.politeness == 2


def test_other_5xx_neither_raise_nor_decay() -> None:
    pacer = Pacer(0.1)
    answered(pacer, 0.0, 1.0, status=500)
    assert pacer.politeness == 2


def test_politeness_is_bounded() -> None:
    pacer = Pacer(0.1)
    end = 0.0
    for _ in range(20):
        _, end = answered(pacer, end + 1000, 10.0, status=429)
    assert pacer.politeness == MAX_POLITENESS
    assert pacer.wait_s() == MAX_RESPONSE_TERM_S


def test_retry_after_blocks_the_origin_capped() -> None:
    pacer = Pacer(1.0, max_retry_after_s=600)
    _, end = answered(pacer, 0.0, 0.1, status=429, retry=30)
    assert pacer.next_request_at(end) == pytest.approx(end + 30)
    _, end = answered(pacer, end + 30, 0.1, status=503, retry=86400)
    assert pacer.next_request_at(end) == pytest.approx(end + 600)


def test_retry_after_is_ignored_on_other_statuses() -> None:
    pacer = Pacer(1.0)
    _, end = answered(pacer, 0.0, 0.1, status=200, retry=3000)
    assert pacer.next_request_at(end) == pytest.approx(end + 1.0)


def test_time_scale_shrinks_every_wait() -> None:
    pacer = Pacer(2.0, time_scale=0.001)
    pacer.set_crawl_delay(100)
    _, end = answered(pacer, 0.0, 0.5, status=429, retry=3600)
    assert pacer.next_request_at(end) == pytest.approx(end + 3.6)
    assert pacer.next_request_at(end + 10) == end + 10


def test_delays_off_means_no_wait_on_a_fast_server() -> None:
    """--delay-ms 0 against a loopback server (1 ms answers): no artificial wait at all."""
    pacer = Pacer(0.0)
    assert pacer.politeness == 0 and not pacer.adaptive
    end = 0.0
    for _ in range(100):
        previous_end = end
        start, end = answered(pacer, previous_end, 0.001)
        assert start == previous_end  # each request starts the moment the last one ended


def test_delays_off_still_honours_what_the_server_asks() -> None:
    pacer = Pacer(0.0)
    pacer.set_crawl_delay(2.0)
    assert pacer.wait_s() == 2.0
    pacer.set_crawl_delay(None)
    _, end = answered(pacer, 0.0, 0.5, status=429, retry=7)
    assert pacer.next_request_at(end) == pytest.approx(end + 7)
    # after the 429 the response-time term is on (and frozen): 0.5 s * 2**1
    assert pacer.wait_s() == pytest.approx(1.0)
    pacer2 = Pacer(0.0)
    _, end = answered(pacer2, 0.0, 0.5, status=503)
    _, end = answered(pacer2, end + 1, 0.5)
    assert pacer2.wait_s() == pytest.approx(1.0)  # the wait after this answer: still 2x
    _, end = answered(pacer2, end + 1, 0.5)
    assert pacer2.wait_s() == 0.0  # decayed back: no wait again


def test_parallel_slots_of_one_origin_get_spaced_starts() -> None:
    pacer = Pacer(1.0)
    first = pacer.reserve(0.0)
    second = pacer.reserve(0.0)
    third = pacer.reserve(0.0)
    assert (first, second, third) == (0.0, 1.0, 2.0)


def test_wait_runs_from_the_answer_not_from_the_request() -> None:
    pacer = Pacer(1.0)
    start = pacer.reserve(0.0)
    pacer.on_response(5.0, 0.05, 200)  # slow to arrive (queued), quick server
    assert start == 0.0
    assert pacer.next_request_at(5.0) == pytest.approx(6.0)


def test_failures_without_an_answer_keep_the_gap() -> None:
    pacer = Pacer(1.0)
    pacer.reserve(0.0)
    pacer.on_no_answer(30.0)
    assert pacer.next_request_at(30.0) == pytest.approx(31.0)
    assert pacer.politeness == INITIAL_POLITENESS


def test_from_settings() -> None:
    s = load_crawl_settings(None, {"delay_ms": 250})
    pacer = Pacer.from_settings(s)
    assert pacer.min_delay_s == 0.25 and pacer.max_crawl_delay_s == 120.0
    assert pacer.adaptive


# -- Retry-After --------------------------------------------------------------------------


def test_parse_retry_after() -> None:
    now = 1_700_000_000.0
    assert parse_retry_after("120", now) == 120.0
    assert parse_retry_after(" 0 ", now) == 0.0
    assert parse_retry_after(email.utils.formatdate(now + 90, usegmt=True), now) == 90.0
    assert parse_retry_after(email.utils.formatdate(now - 90, usegmt=True), now) == 0.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", 1445412480.0 - 60) == 60.0
    for bad in (None, "", "soon", "-5", "1.5", "Wed, 99 Foo 2015"):
        assert parse_retry_after(bad, now) is None


# -- patience ---------------------------------------------------------------------------


def test_patience_counts_down_on_costly_outcomes() -> None:
    patience = Patience(3)
    assert not patience.on_outcome(ExitCode.CONNECTION_FAILED)
    assert not patience.on_outcome(ExitCode.SERVER_INTERNAL_ERROR)
    assert patience.on_outcome(ExitCode.RATE_LIMITED)
    assert patience.exhausted


def test_success_gives_one_point_back_up_to_the_start() -> None:
    patience = Patience(3)
    patience.on_outcome(ExitCode.REQUEST_TIMEOUT)
    patience.on_outcome(ExitCode.REQUEST_TIMEOUT)
    patience.on_success()
    assert patience.value == 2
    for _ in range(5):
        patience.on_outcome(ExitCode.FILE_NOT_FOUND)  # an answer: the server is fine
    assert patience.value == 3


def test_a_steady_outage_gives_up_after_start_failures() -> None:
    patience = Patience(10)
    results = [patience.on_failure(ExitCode.SERVER_INTERNAL_ERROR) for _ in range(10)]
    assert results == [False] * 9 + [True]


def test_exhausted_patience_is_not_restored() -> None:
    patience = Patience(1)
    assert patience.on_outcome(ExitCode.ERROR_READING_RESPONSE)
    patience.on_success()
    assert patience.exhausted


def test_database_error_empties_patience_at_once() -> None:
    patience = Patience(10)
    assert patience.on_outcome(ExitCode.DATABASE_ERROR)


@pytest.mark.parametrize(
    "code", [ExitCode.ROBOTS_DISALLOWED, ExitCode.CANCELLED, ExitCode.ORIGIN_GAVE_UP]
)
def test_outcomes_without_a_request_are_neutral(code: ExitCode) -> None:
    patience = Patience(5)
    patience.on_outcome(ExitCode.CONNECTION_FAILED)
    patience.on_outcome(code)
    assert patience.value == 4


def test_what_costs_patience() -> None:
    assert ExitCode.ROBOTS_UNAVAILABLE in PATIENCE_COSTS
    assert ExitCode.FILE_NOT_FOUND not in PATIENCE_COSTS
    assert ExitCode.TOO_LARGE not in PATIENCE_COSTS


def test_the_examples_of_docs_configuration() -> None:
    """The table 'Examples with the defaults' in docs/configuration.md."""
    fast, slow = Pacer(1.0), Pacer(1.0)
    end_fast = end_slow = 0.0
    fast_waits, slow_waits = [], []
    for _ in range(3):
        _, end_fast = answered(fast, end_fast, 0.02)
        fast_waits.append(fast.next_request_at(end_fast) - end_fast)
        _, end_slow = answered(slow, end_slow, 0.8)
        slow_waits.append(slow.next_request_at(end_slow) - end_slow)
    assert fast_waits == pytest.approx([1.0, 1.0, 1.0])
    assert slow_waits == pytest.approx([3.2, 1.6, 1.0])
    slow.set_crawl_delay(10)
    assert slow.next_request_at(end_slow) - end_slow == pytest.approx(10)
    slow.set_crawl_delay(None)
    _, end_slow = answered(slow, slow.next_request_at(end_slow), 0.8, status=429, retry=60)
    assert slow.next_request_at(end_slow) - end_slow == pytest.approx(60)
    for _ in range(3):
        _, end_slow = answered(slow, slow.next_request_at(end_slow), 0.8)
        assert slow.next_request_at(end_slow) - end_slow == pytest.approx(1.6)
