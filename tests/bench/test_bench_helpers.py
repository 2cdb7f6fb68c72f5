"""Pure helpers of the crawl benchmark: log parsing, quarter points, profiles."""

from __future__ import annotations

import pytest

from _measure import MB, Sample
from _profile import NO_PYTHON_FRAME, function_of, hotspots
from _sites import Served, parse_nginx_log_line, summarize_served
from crawl import quarter_points


def test_nginx_log_lines_parse_into_served_requests() -> None:
    line = '1795303789.866 200 13011 "text/html" "/library/os.html?x=1"\n'
    assert parse_nginx_log_line(line) == Served(
        1795303789.866, 200, 13011, "text/html", "/library/os.html?x=1"
    )
    assert parse_nginx_log_line("garbage\n") is None


def test_served_summary_counts_html_pages_over_the_whole_window() -> None:
    entries = [
        Served(10.0, 200, 26, "text/plain", "/robots.txt"),
        Served(10.5, 200, 1000, "text/html", "/"),
        Served(11.0, 404, 150, "text/html", "/missing.html"),
        Served(12.0, 200, 3000, "text/html", "/a.html"),
        Served(13.0, 200, 3000, "text/html", "/a.html"),
        Served(14.0, 200, 500, "text/x-python", "/x.py"),
    ]
    summary = summarize_served(entries)
    # A page fetched twice is one page (the second fetch was no progress).
    assert (summary.pages, summary.page_responses, summary.requests) == (2, 3, 6)
    assert summary.bytes == 7000
    assert summary.seconds == pytest.approx(4.0)
    assert summary.pages_per_s == pytest.approx(0.5)
    assert summarize_served([]).pages_per_s == 0.0


def test_quarter_points_report_rss_and_rate_per_quarter() -> None:
    samples = [Sample(0.0, 40 * MB, 0), Sample(1.0, 50 * MB, 0)]
    samples += [Sample(1.0 + i, (50 + i) * MB, 100 * i) for i in range(1, 11)]
    points = quarter_points(samples)
    assert [p.fraction for p in points] == [0.25, 0.5, 0.75, 1.0]
    assert [p.pages for p in points] == [300, 500, 800, 1000]
    assert [p.rss_mb for p in points] == [53, 55, 58, 60]
    # The first stretch starts at the first sample that saw a page (t=2, 100).
    assert points[0].rate == pytest.approx(200 / 2)
    assert all(p.rate == pytest.approx(100) for p in points)
    assert quarter_points([Sample(0.0, MB, 0)]) == []


def test_hotspots_sum_self_and_inclusive_samples_per_function() -> None:
    root = 'process 42:"python unob crawl x";main (unob/cli.py:10)'
    lines = [
        f"{root};crawl (unob/engine.py:20);parse (unob/links.py:5) 6\n",
        f"{root};crawl (unob/engine.py:22);parse (unob/links.py:7) 2\n",
        f"{root};crawl (unob/engine.py:30);fromstring (lxml/etree.pyx:3) 2\n",
        'process 42:"python unob crawl x" 1\n',
        "idle-line-without-count\n",
    ]
    spots = hotspots(lines)
    assert spots.samples == 11
    assert spots.self_time[0] == ("parse (unob/links.py)", 8)
    assert dict(spots.self_time)[NO_PYTHON_FRAME] == 1
    assert dict(spots.self_by_file) == {"unob/links.py": 8, "lxml/etree.pyx": 2, NO_PYTHON_FRAME: 1}
    # Inclusive time lists unob's own functions only: lxml's is in its caller.
    inclusive = dict(spots.inclusive)
    assert (
        inclusive["crawl (unob/engine.py)"] == 10 and "fromstring (lxml/etree.pyx)" not in inclusive
    )
    assert function_of("<module> (<string>:5)") == "<module> (<string>)"
