#!/usr/bin/env python3
"""Summarize speed: ``unob summarize`` against lxml parsing alone and trafilatura.

Two crawl databases are summarized, each by ``unob summarize`` in its own
process (peak RSS and RSS over time sampled from outside):

* **python3-doc**: Debian's Python documentation (about 530 pages, 50 MB of
  HTML), crawled by ``unob crawl`` from nginx on 127.0.0.1 (``--doc-source
  crawl``, the default), or written straight from the files on disk into a
  crawl DB (``--doc-source files``: same pages and URLs, no crawler needed);
* **synthetic**: ``--pages`` pages (default 50,000) of the 50-host synthetic
  site of ``_synthetic.py``, plus 1% redirects and 1% 404s, written directly
  into a crawl DB the way the crawler writes it.  ``--synthetic-shape news``
  (the default) renders news-like pages (``_newslike.py``: about 105 KB, 700
  elements and 130 links a page, within 10% of the medians of 181 real news
  pages); ``small`` renders the crawl benchmark's pages (``render_page``:
  5-20 KB of plain paragraphs, 10-20 links), which lxml parses about 3x
  faster per byte than real markup.  ``--synthetic-shape both`` summarizes both.  Each DB's
  measured page shape (``_pageshape.py``) is printed with the results.

On the same page bodies, single-threaded, each in a child process of its own:

* **parse only**: ``lxml.etree.fromstring(body, HTMLParser())``, the floor no
  summarizer can beat (every derivation starts with a parse);
* **derive only**: ``derive_html`` (no database);
* **trafilatura**: ``trafilatura.extract`` (on a sample: ``--traf-sample``).

This machine's speed drifts by a third from minute to minute (a shared VM),
so no rate is compared with one measured minutes apart.  A parse-only pass
runs right before each summarize run and right after it, and the run is
compared with the mean of the two.  Of ``--doc-repeat`` runs, the one with
the median ratio is reported.  Derive-only and trafilatura are timed page by
page, alternating with a parse of the same page, and are compared through
that parse: "x trafilatura" is (summarize / parse) / (trafilatura / parse).
The raw rates are printed too.

Targets (issue #3): summarize at >= 40% of the parse-only rate, >= 10x
trafilatura, peak RSS < 300 MB at 50,000 pages and flat over the run.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python bench/summarize.py                       # about 10 min
    .venv/bin/python bench/summarize.py --pages 5000 --doc-source files   # quick
    .venv/bin/python bench/summarize.py --skip-doc --synthetic-shape both

Work files go to bench/.work/summarize/ (crawl DBs are kept and reused).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import random
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from _measure import MB, Measured, Sample, require_success, run_measured
from _newslike import render_news_page
from _pageshape import page_shape, set_shape
from _sites import WORK_DIR, BenchError, crawl_python3_doc, ensure_python3_doc_site
from _synthetic import SiteShape, page_links, page_path, render_page
from unob import bodycodec

REPO = Path(__file__).resolve().parents[1]
WORK = WORK_DIR / "summarize"
PYTHON = sys.executable
QUARTERS = (0.25, 0.5, 0.75, 1.0)
TARGET_PARSE_SHARE = 0.40
TARGET_TRAF_FACTOR = 10.0
TARGET_RSS_MB = 300.0
SYNTHETIC_HOSTS = 50
#: ``--synthetic-shape``: how a synthetic page is rendered, (shape, host, page, port) -> HTML.
SYNTHETIC_SHAPES: dict[str, Callable[[SiteShape, int, int, int], str]] = {
    "news": render_news_page,
    "small": render_page,
}
#: Pages of each crawl DB measured for the page-shape line of the report.
SHAPE_SAMPLE = 500


def log(message: str) -> None:
    print(message, flush=True)


# ---------------------------------------------------------------- crawl DBs


class CrawlDbWriter:
    """Writes whole crawl entries with executemany, the rows ``unob crawl`` writes."""

    def __init__(self, path: Path) -> None:
        from unob.db import open_database

        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        open_database(path, "crawl").dispose()
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("PRAGMA synchronous=OFF")
        self.conn.execute("BEGIN")
        self.conn.execute(
            "INSERT INTO agent (agent_id, agent_uuid, name, http_user_agent, "
            "time_started_unix_utc) VALUES (1, ?, 'bench', 'unob-bench', 0)",
            (str(uuid.uuid4()),),
        )
        self.origins: dict[str, int] = {}
        self.urls: dict[str, int] = {}
        self.entry_id = 0
        self.content_ids: dict[str, int] = {}
        self.rows: dict[str, list[tuple[object, ...]]] = {
            "entry": [],
            "request": [],
            "content": [],
            "file": [],
            "redirect": [],
        }

    def url_id(self, url: str) -> int:
        if url in self.urls:
            return self.urls[url]
        scheme, _, rest = url.partition("://")
        netloc = rest.split("/", 1)[0]
        str_origin = f"{scheme}://{netloc}"
        if str_origin not in self.origins:
            host, _, port = netloc.partition(":")
            self.origins[str_origin] = len(self.origins) + 1
            self.conn.execute(
                "INSERT INTO origin (origin_id, scheme, host, port, str_origin) VALUES (?,?,?,?,?)",
                (self.origins[str_origin], scheme, host, int(port) if port else None, str_origin),
            )
        url_id = len(self.urls) + 1
        self.urls[url] = url_id
        self.conn.execute(
            "INSERT INTO url (url_id, origin_id, str_url) VALUES (?,?,?)",
            (url_id, self.origins[str_origin], url),
        )
        return url_id

    def add(
        self,
        url: str,
        at: int,
        *,
        status: int,
        body: bytes | None = None,
        redirect_to: str | None = None,
    ) -> None:
        self.entry_id += 1
        eid, url_id = self.entry_id, self.url_id(url)
        code = {200: 20, 301: 31, 404: 44}[status]
        self.rows["entry"].append(
            (eid, str(uuid.uuid4()), 1, url_id, 0, 1, at, at * 1000, 20, code, None, 1)
        )
        ctype = "text/html; charset=utf-8" if body is not None else None
        self.rows["request"].append(
            (eid, eid, url_id, at, at * 1000, 5, 1, 0, status, None, None, ctype, code)
        )
        if body is not None:
            sha = hashlib.sha256(body).hexdigest()
            if sha not in self.content_ids:
                self.content_ids[sha] = len(self.content_ids) + 1
                codec, data = bodycodec.compress(body)  # as unob crawl stores pages
                self.rows["content"].append((self.content_ids[sha], sha, len(body), codec, data))
            self.rows["file"].append(
                (eid, eid, url_id, "text/html", "utf-8", len(body), self.content_ids[sha], 1)
            )
        if redirect_to is not None:
            self.rows["redirect"].append((eid, eid, url_id, self.url_id(redirect_to), status))
        if len(self.rows["entry"]) >= 1000:
            self.flush()

    def flush(self) -> None:
        c, r = self.conn, self.rows
        c.executemany(
            "INSERT INTO crawl_log_entry (crawl_log_entry_id, crawl_log_entry_uuid, agent_id, "
            "url_id, crawl_type, scheduling_reason, started_unix_utc, started_unix_ms, "
            "time_taken_ms, exit_code, message, depth) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            r["entry"],
        )
        c.executemany(
            "INSERT INTO request_info (request_info_id, crawl_log_entry_id, url_id, "
            "sent_unix_utc, sent_unix_ms, duration_ms, robotstxt_approved, is_retry, "
            "http_status, http_etag, server_last_modified_unix_utc, content_type, exit_code) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            r["request"],
        )
        c.executemany(
            "INSERT INTO file_content (file_content_id, sha256, size, compression, data) "
            "VALUES (?,?,?,?,?)",
            r["content"],
        )
        c.executemany(
            "INSERT INTO file_info (crawl_log_entry_id, request_info_id, url_id, mime_type, "
            "charset, size, file_content_id, depth, robots_noindex, robots_nofollow) "
            "VALUES (?,?,?,?,?,?,?,?,0,0)",
            r["file"],
        )
        c.executemany(
            "INSERT INTO redirect (crawl_log_entry_id, request_info_id, url_id, to_url_id, "
            "http_status, is_permanent, by_security_policy, information_source) "
            "VALUES (?,?,?,?,?,1,0,1)",
            r["redirect"],
        )
        for rows in r.values():
            rows.clear()

    def close(self) -> None:
        self.flush()
        self.conn.execute("COMMIT")
        self.conn.close()


def synthetic_pages(kind: str, pages: int) -> Iterator[tuple[SiteShape, int, int, str, bytes]]:
    """(site shape, host, page, URL, body) of the ``pages`` pages of a synthetic crawl, in order.

    Hosts take turns, as a polite crawler's output interleaves them.
    """
    render = SYNTHETIC_SHAPES[kind]
    shape = SiteShape(hosts=SYNTHETIC_HOSTS, pages_per_host=-(-pages // SYNTHETIC_HOSTS))
    for n in range(pages):
        host, page = n % SYNTHETIC_HOSTS, n // SYNTHETIC_HOSTS
        url = f"http://{shape.host_name(host)}{page_path(page)}"
        yield shape, host, page, url, render(shape, host, page, 80).encode()


def synthetic_sample(kind: str, pages: int) -> Iterator[bytes]:
    """The bodies of a ``pages``-page synthetic crawl (``_pageshape.py`` measures them)."""
    return (body for *_, body in synthetic_pages(kind, pages))


def synthetic_crawl_db(kind: str, pages: int) -> Path:
    """A crawl DB of ``pages`` synthetic pages (+1% redirects, +1% 404s); cached.

    The file name carries the shape, so a DB of another shape is never reused.
    """
    path = WORK / f"synthetic-{kind}-{pages}.crawl.db"
    if path.exists():
        return path
    log(f"  writing the synthetic crawl DB ({pages} {kind} pages) ...")
    started = time.monotonic()
    # Written under a temporary name: an interrupted run must not leave a
    # half-written DB that the next run would take for the cached one.
    partial = path.with_suffix(".partial")
    writer = CrawlDbWriter(partial)
    rng = random.Random(0)
    at = 1_700_000_000
    for n, (shape, host, page, url, body) in enumerate(synthetic_pages(kind, pages)):
        writer.add(url, at + n, status=200, body=body)
        roll = rng.random()
        if roll < 0.01:
            target = page_links(shape, host, page)[0]
            writer.add(
                f"http://{shape.host_name(host)}/old/{page}",
                at + n,
                status=301,
                redirect_to=f"http://{shape.host_name(target.host)}{page_path(target.page)}",
            )
        elif roll < 0.02:
            writer.add(f"http://{shape.host_name(host)}/missing/{page}", at + n, status=404)
    writer.close()
    partial.rename(path)
    log(f"  ... written in {time.monotonic() - started:.0f} s ({path.stat().st_size / MB:.0f} MB)")
    return path


def measured_shape(crawl_db: Path) -> str:
    """Median bytes, elements and links of the DB's first pages: what was summarized."""
    bodies = (body for _, body in itertools.islice(page_bodies(crawl_db), SHAPE_SAMPLE))
    s = set_shape(crawl_db.name, map(page_shape, bodies))
    return (
        f"{s.bytes / 1000:.0f} KB, {s.elements:.0f} elements, {s.links:.0f} links, "
        f"{s.text_share:.0%} text"
    )


def doc_crawl_db_from_files(root: Path) -> Path:
    """python3-doc written straight from disk, with the URLs nginx would serve."""
    path = WORK / "python3-doc-files.crawl.db"
    if path.exists():
        return path
    writer = CrawlDbWriter(path)
    at = 1_700_000_000
    for n, file in enumerate(sorted(root.rglob("*.html"))):
        rel = file.relative_to(root).as_posix()
        writer.add(f"http://127.0.0.1:8080/{rel}", at + n, status=200, body=file.read_bytes())
    writer.close()
    return path


def doc_crawl_db_by_crawling(root: Path, unob: str) -> Path:
    """python3-doc crawled by ``unob crawl`` from nginx on 127.0.0.1; cached."""
    del root  # the shared helper finds (or installs) the site itself
    log("  crawling python3-doc with unob crawl (cached after the first run) ...")
    return crawl_python3_doc(WORK / "python3-doc.crawl.db", unob, images=False, work=WORK)


# ---------------------------------------------------------------- measuring


def page_bodies(crawl_db: Path) -> Iterator[tuple[str, bytes]]:
    """(url, body) of every stored page of a crawl DB, streamed."""
    conn = sqlite3.connect(f"file:{crawl_db}?mode=ro", uri=True)
    try:
        for url, data, compression in conn.execute(
            "SELECT u.str_url, fc.data, fc.compression FROM file_info f "
            "JOIN crawl_log_entry e USING (crawl_log_entry_id) JOIN url u ON u.url_id = f.url_id "
            "JOIN file_content fc USING (file_content_id) WHERE e.crawl_type = 0 "
            "ORDER BY f.file_info_id"
        ):
            yield url, bodycodec.decompress(compression, data)
    finally:
        conn.close()


def lxml_parse(_url: str, body: bytes) -> object:
    from lxml import etree

    return etree.fromstring(body, etree.HTMLParser())


def derive(url: str, body: bytes) -> object:
    from unob.summarizer.extract import derive_html

    return derive_html(body, url)


def trafilatura_extract(url: str, body: bytes) -> object:
    import trafilatura

    return trafilatura.extract(body, url=url)


@dataclass
class Result:
    name: str
    pages: int = 0
    summarize_rate: float = 0.0
    summarize_s: float = 0.0
    wall_s: float = 0.0
    peak_rss_mb: float = 0.0
    rss_quarters: list[float] = field(default_factory=list)
    parse_rate: float = 0.0
    #: summarize / parse-only (the mean of the passes before and after), the
    #: reported run's, and every run's in order.
    parse_share: float = 0.0
    shares: list[float] = field(default_factory=list)
    derive_rate: float = 0.0
    #: derive-only / parse-only and trafilatura / parse-only, timed alternately.
    derive_share: float = 0.0
    traf_share: float = 0.0
    traf_rate: float = 0.0
    traf_pages: int = 0
    #: CPU ms per page: summarize (deriving + reading/writing), and the references.
    summarize_cpu_ms: float = 0.0
    derive_cpu_share: float = 0.0
    parse_cpu_ms: float = 0.0
    derive_cpu_ms: float = 0.0
    traf_cpu_ms: float = 0.0
    load: str = ""
    #: Medians of a sample of the pages (``measured_shape``).
    shape: str = ""
    report: dict[str, object] = field(default_factory=dict)


def rss_quarters(samples: Sequence[Sample]) -> list[float]:
    """RSS (MB) at 25/50/75/100% of the run's duration."""
    if not samples:
        return []
    end = samples[-1].t
    return [next(s for s in samples if s.t >= q * end).rss / MB for q in QUARTERS]


def run_summarize(name: str, crawl_db: Path, batch_size: int) -> tuple[Measured, dict[str, object]]:
    summary_db = WORK / f"{name}.summary.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{summary_db}{suffix}").unlink(missing_ok=True)
    argv = [PYTHON, __file__, "--child", str(crawl_db), str(summary_db), str(batch_size)]
    run = require_success(run_measured(f"summarize-{name}", argv, workdir=WORK, interval=0.1))
    report = json.loads(run.stdout_path.read_text().strip().splitlines()[-1])
    return run, report


def repeats(name: str, args: argparse.Namespace) -> int:
    """How often the summarize, parse-only and derive-only runs of ``name`` are repeated."""
    return args.doc_repeat if name == "python3-doc" else 1


def summarize_result(name: str, run: Measured, report: dict[str, object]) -> Result:
    """What one ``unob summarize`` run (a child, RSS sampled from outside) measured."""
    result = Result(name=name, report=report)
    result.pages = int(report["pages_derived"])  # type: ignore[call-overload]
    result.summarize_s = float(report["elapsed_s"])  # type: ignore[arg-type]
    result.summarize_rate = result.pages / result.summarize_s
    derive_cpu = float(report["derive_cpu_s"])  # type: ignore[arg-type]
    write_cpu = float(report["write_cpu_s"])  # type: ignore[arg-type]
    result.summarize_cpu_ms = 1000 * (derive_cpu + write_cpu) / result.pages
    result.derive_cpu_share = derive_cpu / (derive_cpu + write_cpu)
    result.wall_s = run.wall_s
    result.peak_rss_mb = run.peak_rss / MB
    result.rss_quarters = rss_quarters(run.samples)
    return result


#: Timed beside lxml's parse by a ``--reference`` child.
REFERENCES: dict[str, Callable[[str, bytes], object]] = {
    "derive": derive,
    "trafilatura": trafilatura_extract,
}


@dataclass
class Reference:
    """A reference child's rates: parse only, and ``other`` timed alternately with it."""

    pages: int
    parse_rate: float
    parse_cpu_ms: float
    other_rate: float = 0.0
    other_cpu_ms: float = 0.0


def reference_child(crawl_db: str, what: str, limit: str) -> None:
    """Run in a child: time the parse (and ``what``) of each page, print JSON."""
    other = REFERENCES.get(what)
    n = 0
    spent = {"parse": 0.0, "other": 0.0}
    cpu = {"parse": 0.0, "other": 0.0}
    for url, body in page_bodies(Path(crawl_db)):
        if limit != "all" and n >= int(limit):
            break
        for key, work in (("parse", lxml_parse), ("other", other)):
            if work is None:
                continue
            started, started_cpu = time.perf_counter(), time.process_time()
            work(url, body)
            spent[key] += time.perf_counter() - started
            cpu[key] += time.process_time() - started_cpu
        n += 1
    ref = Reference(
        n,
        n / spent["parse"] if spent["parse"] else 0.0,
        1000 * cpu["parse"] / n if n else 0.0,
        n / spent["other"] if spent["other"] else 0.0,
        1000 * cpu["other"] / n if n else 0.0,
    )
    print(json.dumps(ref.__dict__))


def reference(crawl_db: Path, what: str, limit: int | None = None) -> Reference:
    """A ``--reference`` child's rates (a process of its own, like summarize's)."""
    argv = [PYTHON, __file__, "--reference", str(crawl_db), what, str(limit or "all")]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BenchError(f"reference {what} failed: {done.stderr.strip()[-500:]}")
    return Reference(**json.loads(done.stdout.strip().splitlines()[-1]))


def parse_pass(crawl_db: Path) -> Reference:
    ref = reference(crawl_db, "parse")
    log(f"  parse only: {ref.parse_rate:.0f} pages/s")
    return ref


def measure(name: str, crawl_db: Path, args: argparse.Namespace) -> Result:
    """Summarize runs, each between two parse-only passes, then the other references."""
    repeat = repeats(name, args)
    load_before = os.getloadavg()[0]
    log(f"{name}: summarize x{repeat}, with a parse-only pass before and after each ...")
    parses = [parse_pass(crawl_db)]
    runs: list[tuple[Measured, dict[str, object]]] = []
    for _ in range(repeat):
        run, report = run_summarize(name, crawl_db, args.batch_size)
        runs.append((run, report))
        log(f"  summarize: {report['pages_derived']} pages in {report['elapsed_s']:.1f} s")
        parses.append(parse_pass(crawl_db))
    shares = []
    for i, (_, report) in enumerate(runs):
        mean_parse = (parses[i].parse_rate + parses[i + 1].parse_rate) / 2
        pages_per_s = float(report["pages_derived"]) / float(report["elapsed_s"])  # type: ignore[arg-type]
        shares.append((pages_per_s / mean_parse, i))
    share, index = sorted(shares)[len(shares) // 2]
    result = summarize_result(name, *runs[index])
    before, after = parses[index], parses[index + 1]
    result.parse_rate = (before.parse_rate + after.parse_rate) / 2
    result.parse_cpu_ms = (before.parse_cpu_ms + after.parse_cpu_ms) / 2
    result.parse_share = share
    result.shares = [s for s, _ in shares]
    result.load = f"{load_before:.1f} / {os.getloadavg()[0]:.1f}"
    result.shape = measured_shape(crawl_db)
    log(f"{name}: pages of {result.shape} (medians of {SHAPE_SAMPLE})")
    sample = None if name == "python3-doc" else args.traf_sample
    log(f"{name}: derive_html only, alternating with parse only ...")
    ref = reference(crawl_db, "derive", sample)
    result.derive_rate, result.derive_cpu_ms = ref.other_rate, ref.other_cpu_ms
    result.derive_share = ref.other_rate / ref.parse_rate
    log(f"  {ref.other_rate:.0f} pages/s, {result.derive_share:.0%} of parse")
    if not args.skip_trafilatura:
        log(f"{name}: trafilatura.extract, alternating with parse only ...")
        ref = reference(crawl_db, "trafilatura", sample)
        result.traf_pages = ref.pages
        result.traf_rate, result.traf_cpu_ms = ref.other_rate, ref.other_cpu_ms
        result.traf_share = ref.other_rate / ref.parse_rate
        log(f"  {ref.other_rate:.1f} pages/s, {result.traf_share:.1%} of parse")
    return result


def shape_lines(results: list[Result]) -> str:
    return "\n".join(f"* {r.name}: {r.shape} a page (medians)" for r in results)


def traf_factor(r: Result) -> float:
    """summarize / trafilatura, both through the parse-only rate measured beside them."""
    return r.parse_share / r.traf_share if r.traf_share else 0.0


def table(results: list[Result]) -> str:
    head = (
        "| crawl | pages | summarize pages/s | parse-only pages/s (before/after mean) | "
        "summarize / parse (every run) | derive-only / parse | trafilatura pages/s "
        "(/ parse) | summarize / trafilatura | peak RSS MB | "
        "RSS at 25/50/75/100% of the run (MB) | load avg |"
    )
    lines = [head, "|" + "---|" * 11]
    for r in results:
        traf = f"{r.traf_rate:.1f} ({r.traf_share:.1%})" if r.traf_rate else "-"
        factor = f"{traf_factor(r):.1f}x" if r.traf_rate else "-"
        quarters = " / ".join(f"{q:.0f}" for q in r.rss_quarters)
        every = ", ".join(f"{s:.0%}" for s in r.shares)
        lines.append(
            f"| {r.name} | {r.pages} | {r.summarize_rate:.0f} | {r.parse_rate:.0f} | "
            f"{r.parse_share:.0%} ({every}) | {r.derive_share:.0%} | {traf} | {factor} | "
            f"{r.peak_rss_mb:.0f} | {quarters} | {r.load} |"
        )
    return "\n".join(lines)


def cpu_table(results: list[Result]) -> str:
    """The same comparison in CPU time per page, which a loaded machine disturbs far less."""
    head = (
        "| crawl | summarize CPU ms/page (deriving share) | parse-only | derive-only | "
        "trafilatura | parse / summarize | trafilatura / summarize |"
    )
    lines = [head, "|" + "---|" * 7]
    for r in results:
        traf = f"{r.traf_cpu_ms:.1f}" if r.traf_cpu_ms else "-"
        factor = f"{r.traf_cpu_ms / r.summarize_cpu_ms:.1f}x" if r.traf_cpu_ms else "-"
        lines.append(
            f"| {r.name} | {r.summarize_cpu_ms:.2f} ({r.derive_cpu_share:.0%}) | "
            f"{r.parse_cpu_ms:.2f} | {r.derive_cpu_ms:.2f} | {traf} | "
            f"{r.parse_cpu_ms / r.summarize_cpu_ms:.0%} | {factor} |"
        )
    return "\n".join(lines)


def checks(results: list[Result]) -> list[tuple[str, bool]]:
    out = []
    for r in results:
        share = r.parse_share
        out.append(
            (f"{r.name}: summarize >= 40% of parse-only ({share:.0%})", share >= TARGET_PARSE_SHARE)
        )
        if r.traf_rate:
            factor = traf_factor(r)
            out.append(
                (f"{r.name}: >= 10x trafilatura ({factor:.0f}x)", factor >= TARGET_TRAF_FACTOR)
            )
        if r.pages >= 50_000:
            out.append(
                (
                    f"{r.name}: peak RSS < 300 MB ({r.peak_rss_mb:.0f})",
                    r.peak_rss_mb < TARGET_RSS_MB,
                )
            )
            flat = max(r.rss_quarters) - r.rss_quarters[0] if r.rss_quarters else 0
            out.append((f"{r.name}: RSS flat (+{flat:.0f} MB after 25%)", flat < 50))
    return out


def child(crawl_db: str, summary_db: str, batch_size: str) -> None:
    """Run in the measured process: summarize and print the report as JSON."""
    from dataclasses import asdict

    from unob.summarizer import summarize

    report = summarize([Path(crawl_db)], Path(summary_db), batch_size=int(batch_size))
    print(json.dumps(asdict(report)))


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        child(*sys.argv[2:])
        return
    if len(sys.argv) == 5 and sys.argv[1] == "--reference":
        reference_child(*sys.argv[2:])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=50_000, help="synthetic pages")
    parser.add_argument("--doc-source", choices=("crawl", "files"), default="crawl")
    parser.add_argument("--traf-sample", type=int, default=2000, help="synthetic pages timed")
    parser.add_argument("--batch-size", type=int, default=500)
    parser.add_argument(
        "--doc-repeat", type=int, default=3, help="python3-doc runs, the fastest kept"
    )
    parser.add_argument(
        "--synthetic-shape",
        choices=(*SYNTHETIC_SHAPES, "both"),
        default="news",
        help="synthetic pages: news-like (default), the crawl bench's small ones, or both",
    )
    parser.add_argument("--skip-doc", action="store_true")
    parser.add_argument("--skip-synthetic", action="store_true")
    parser.add_argument("--skip-trafilatura", action="store_true")
    parser.add_argument("--unob", default=str(REPO / ".venv" / "bin" / "unob"))
    args = parser.parse_args()
    WORK.mkdir(parents=True, exist_ok=True)
    dbs: list[tuple[str, Path]] = []
    try:
        if not args.skip_doc:
            root = ensure_python3_doc_site()
            if args.doc_source == "crawl":
                dbs.append(("python3-doc", doc_crawl_db_by_crawling(root, args.unob)))
            else:
                dbs.append(("python3-doc", doc_crawl_db_from_files(root)))
        if not args.skip_synthetic:
            kinds = SYNTHETIC_SHAPES if args.synthetic_shape == "both" else [args.synthetic_shape]
            for kind in kinds:
                name = f"synthetic-{kind}-{args.pages}"
                dbs.append((name, synthetic_crawl_db(kind, args.pages)))
        # Everything measured runs in a child: a child forked from this
        # process inherits its RSS as the start of its peak (ru_maxrss
        # survives exec), so this process must stay small.
        results = [measure(name, db, args) for name, db in dbs]
    except BenchError as exc:
        log(f"bench failed: {exc}")
        raise SystemExit(1) from None
    log("")
    log(shape_lines(results))
    log("")
    log(table(results))
    log("")
    log(cpu_table(results))
    log("")
    for text, ok in checks(results):
        log(f"  [{'ok' if ok else 'MISSED'}] {text}")
    for r in results:
        log(f"  {r.name}: report {json.dumps(r.report)}")
    (WORK / "last.json").write_text(
        json.dumps([r.__dict__ for r in results], indent=1, default=str)
    )


if __name__ == "__main__":
    main()
