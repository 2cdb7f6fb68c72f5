#!/usr/bin/env python3
"""Search quality and latency: `unob search` on python3-doc and on 50,000 synthetic pages.

Part 1, python3-doc (Debian's Python docs, ~530 pages) served by nginx on
127.0.0.1, crawled by ``unob crawl`` and summarized by ``unob summarize``
(through their library entry points), then:

* the acceptance checks of the search issue: ``asyncio`` puts an asyncio
  library page first, ``list comprehension`` a tutorial page in the top 3;
* ranking quality on 30 queries with a known best page (mean reciprocal rank
  and how often the best page is first), with and without the URL-slug boost
  of :mod:`unob.query.rank`;
* latency of 100 queries (the 30 above and 70 words from page titles).

Part 2, a synthetic summary database of 50,000 pages on 50 hosts, written
directly through the summary schema and indexed with the summarizer's FTS
helper (``unob.summarizer.fts.index``): page text is drawn from a 30,000-word
Zipf-distributed vocabulary, so common and rare words behave as in real
text.  Latency of 100 queries: common, middling and rare single words, word
pairs, phrases, ``site:`` filters and ``-"exclusions"``.

Latency is measured on an open database (what a search server would do) as
median and p95 over the queries, after one warm-up pass, and separately for
a cold ``search()`` call that opens the database each time as the CLI does.

    .venv/bin/python bench/search.py                 # both parts
    .venv/bin/python bench/search.py --pages 5000    # a smaller synthetic summary
    .venv/bin/python bench/search.py --rebuild       # re-crawl / regenerate

Work files go to bench/.work/search/ (kept between runs; --rebuild redoes
them).  Exits 1 with a one-line reason when a step fails; a missed target or
acceptance check is reported, and fails the run only with --enforce-targets.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import random
import sqlite3
import statistics
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from _sites import WORK_DIR, BenchError, NginxSite, ensure_python3_doc_site
from unob.query import Searcher, open_summary, parse_query, search
from unob.query import rank as rank_module

SEARCH_DIR = WORK_DIR / "search"
TARGET_MEDIAN_MS = 20.0
LIMIT = 10

# python3-doc queries and the page that answers each best (path below the root).
GOLD: dict[str, str] = {
    "asyncio": "library/asyncio.html",
    "json": "library/json.html",
    "subprocess": "library/subprocess.html",
    "regular expression": "library/re.html",
    "list comprehension": "tutorial/datastructures.html",
    "unittest": "library/unittest.html",
    "logging": "library/logging.html",
    "datetime": "library/datetime.html",
    "pathlib": "library/pathlib.html",
    "sqlite3": "library/sqlite3.html",
    "threading": "library/threading.html",
    "virtual environment": "library/venv.html",
    "argparse": "library/argparse.html",
    "dataclasses": "library/dataclasses.html",
    "csv": "library/csv.html",
    "string formatting": "library/string.html",
    "exceptions": "library/exceptions.html",
    "socket": "library/socket.html",
    "typing": "library/typing.html",
    "collections": "library/collections.html",
    "itertools": "library/itertools.html",
    "classes": "tutorial/classes.html",
    "generators": "howto/functional.html",
    "pickle": "library/pickle.html",
    "random": "library/random.html",
    "time": "library/time.html",
    "os": "library/os.html",
    "sys": "library/sys.html",
    "re": "library/re.html",
    "math": "library/math.html",
}


@dataclass
class Latency:
    name: str
    queries: int
    median_ms: float
    p95_ms: float
    cpu_median_ms: float
    cpu_p95_ms: float
    cold_median_ms: float
    load: tuple[float, float]

    def row(self) -> str:
        return (
            f"| {self.name} | {self.queries} | {self.median_ms:.1f} | {self.p95_ms:.1f} | "
            f"{self.cpu_median_ms:.1f} | {self.cpu_p95_ms:.1f} | {self.cold_median_ms:.1f} | "
            f"{self.load[0]:.1f} / {self.load[1]:.1f} |"
        )


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile: the ceil(q * n)-th smallest value."""
    ordered = sorted(values)
    return ordered[max(1, math.ceil(q * len(ordered))) - 1]


def timed_searches(db: Path, queries: Sequence[str]) -> list[tuple[float, float]]:
    """(wall ms, CPU ms) of Searcher.search per query on an open DB, after a warm-up pass."""
    with open_summary(db) as conn:
        searcher = Searcher(conn)
        parsed = [parse_query(q) for q in queries]
        for q in parsed:  # warm-up: page cache, statement cache
            searcher.search(q, LIMIT)
        times = []
        for q in parsed:
            wall, cpu = time.perf_counter(), time.process_time()
            searcher.search(q, LIMIT)
            times.append(((time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000))
    return times


def measure(name: str, db: Path, queries: Sequence[str]) -> tuple[Latency, list[float]]:
    """Latency of ``queries`` on ``db``, and the wall time of each query."""
    load_before = os.getloadavg()[0]
    times = timed_searches(db, queries)
    wall = [w for w, _ in times]
    cpu = [c for _, c in times]
    cold = []
    for query in queries[::5]:  # a spread over the kinds of query
        started = time.perf_counter()
        search(db, query, limit=LIMIT)
        cold.append((time.perf_counter() - started) * 1000)
    latency = Latency(
        name,
        len(queries),
        statistics.median(wall),
        percentile(wall, 0.95),
        statistics.median(cpu),
        percentile(cpu, 0.95),
        statistics.median(cold),
        (load_before, os.getloadavg()[0]),
    )
    return latency, wall


# --------------------------------------------------------------------------- python3-doc


def build_python3_doc(rebuild: bool) -> Path:
    """Crawl python3-doc from nginx and summarize it (cached in bench/.work/search/)."""
    from unob.crawler import run_crawl
    from unob.settings import load_crawl_settings
    from unob.summarizer import summarize

    work = SEARCH_DIR / "python3-doc"
    summary_db = work / "summary.db"
    if summary_db.exists() and not rebuild:
        return summary_db
    work.mkdir(parents=True, exist_ok=True)
    for stale in work.glob("*.db*"):
        stale.unlink()
    root = ensure_python3_doc_site()
    with NginxSite(root, work / "nginx") as site:
        settings = load_crawl_settings(
            None, {"seeds": (site.base_url,), "delay_ms": 0, "concurrency": 16}
        )
        started = time.monotonic()
        report = run_crawl(settings, work / "crawl.db")
        print(f"crawled {report.pages} pages in {time.monotonic() - started:.0f} s", flush=True)
    started = time.monotonic()
    summary = summarize([work / "crawl.db"], summary_db)
    print(
        f"summarized {summary.pages_derived} pages in {time.monotonic() - started:.0f} s",
        flush=True,
    )
    return summary_db


def _path(url: str) -> str:
    return url.split("://", 1)[-1].split("/", 1)[-1]


def ranking_quality(db: Path) -> tuple[float, int]:
    """Mean reciprocal rank of the GOLD pages in the top 10, and how many are first."""
    reciprocal = []
    for query, best in GOLD.items():
        found = [_path(r.url) for r in search(db, query, limit=LIMIT)]
        reciprocal.append(1 / (found.index(best) + 1) if best in found else 0.0)
    return sum(reciprocal) / len(reciprocal), sum(1 for r in reciprocal if r == 1.0)


def acceptance(db: Path) -> list[tuple[str, bool, str]]:
    """The issue's two checks, with the top results as evidence."""
    checks = []
    top = [_path(r.url) for r in search(db, "asyncio", limit=3)] or ["(nothing)"]
    checks.append(
        ("`asyncio`: an asyncio library page first", top[0].startswith("library/asyncio"), top[0])
    )
    top = [_path(r.url) for r in search(db, "list comprehension", limit=3)]
    checks.append(
        (
            "`list comprehension`: a tutorial page in the top 3",
            any(p.startswith("tutorial/") for p in top),
            ", ".join(top),
        )
    )
    return checks


def title_queries(db: Path, count: int, seed: int = 7) -> list[str]:
    """Words from page titles: what people look up in documentation."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    titles = [t for (t,) in conn.execute("SELECT title FROM current_page WHERE title IS NOT NULL")]
    conn.close()
    words = sorted({w for t in titles for w in rank_module.words(t.split("—")[0]) if len(w) >= 3})
    return random.Random(seed).sample(words, min(count, len(words)))


def run_python3_doc(rebuild: bool) -> tuple[list[str], Latency]:
    db = build_python3_doc(rebuild)
    lines = []
    for name, check_ok, evidence in acceptance(db):
        lines.append(f"| {name} | {'pass' if check_ok else 'FAIL'} | {evidence} |")
    mrr, first = ranking_quality(db)
    saved = rank_module.SLUG_BOOST
    try:
        rank_module.SLUG_BOOST = 0.0
        mrr_plain, first_plain = ranking_quality(db)
    finally:
        rank_module.SLUG_BOOST = saved
    lines.append(
        f"| best page of {len(GOLD)} known-answer queries | MRR {mrr:.2f}, first in "
        f"{first}/{len(GOLD)} | without the slug boost: MRR {mrr_plain:.2f}, first in "
        f"{first_plain}/{len(GOLD)} |"
    )
    queries = [*GOLD, *title_queries(db, 100 - len(GOLD))]
    latency, _ = measure("python3-doc", db, queries)
    return lines, latency


# --------------------------------------------------------------------------- synthetic


class Vocabulary:
    """Deterministic pseudo-words with Zipf frequencies (rank r has weight 1/r^1.07)."""

    SYLLABLES = tuple(c + v for c in "bdfgklmnprstvz" for v in "aeiou")

    def __init__(self, size: int, rng: random.Random) -> None:
        seen: set[str] = set()
        words: list[str] = []
        while len(words) < size:
            length = rng.choice((2, 2, 3, 3, 3, 4))
            word = "".join(rng.choice(self.SYLLABLES) for _ in range(length))
            if word not in seen:
                seen.add(word)
                words.append(word)
        self.words = words
        weights = [1 / (r + 1) ** 1.07 for r in range(size)]
        total = 0.0
        self.cumulative = []
        for w in weights:
            total += w
            self.cumulative.append(total)

    def draw(self, rng: random.Random, k: int) -> list[str]:
        return rng.choices(self.words, cum_weights=self.cumulative, k=k)


def _sentences(words: list[str]) -> str:
    lines = []
    for start in range(0, len(words), 12):
        lines.append(" ".join(words[start : start + 12]).capitalize() + ".")
    return "\n".join(lines)


def build_synthetic(pages: int, rebuild: bool, seed: int = 11) -> Path:
    """A summary DB of ``pages`` open pages (2% exact duplicates) on 50 hosts, FTS-indexed."""
    from unob.db import open_database
    from unob.summarizer.fts import index

    path = SEARCH_DIR / f"synthetic-{pages}.db"
    if path.exists() and not rebuild:
        return path
    SEARCH_DIR.mkdir(parents=True, exist_ok=True)
    for stale in SEARCH_DIR.glob(f"synthetic-{pages}.db*"):
        stale.unlink()
    open_database(path, "summary").dispose()
    rng = random.Random(seed)
    vocab = Vocabulary(30_000, rng)
    hosts = [f"h{i:02d}.search-bench.test" for i in range(50)]
    started = time.monotonic()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous=OFF")
    conn.execute("BEGIN")
    for i, host in enumerate(hosts, 1):
        conn.execute(
            "INSERT INTO origin (origin_id, scheme, host, port, str_origin) VALUES (?, ?, ?, ?, ?)",
            (i, "http", host, None, f"http://{host}"),
        )
    now = 1_700_000_000
    originals: set[int] = set()
    for n in range(1, pages + 1):
        host_index = n % len(hosts)
        title_words = vocab.draw(rng, rng.randint(3, 8))
        headings = [vocab.draw(rng, rng.randint(2, 5)) for _ in range(rng.randint(2, 5))]
        body = vocab.draw(rng, rng.randint(200, 600))
        nav = vocab.draw(random.Random(host_index), 60)  # the same navigation per host
        slug = "-".join(title_words[:3])
        url = f"http://{hosts[host_index]}/{vocab.words[n % 200]}/{slug}-{n}.html"
        # every 50th page repeats the page 50 before it (same host): an exact duplicate
        duplicate_of = n - 50 if n % 50 == 0 and n - 50 in originals else None
        conn.execute(
            "INSERT INTO url (url_id, origin_id, str_url) VALUES (?, ?, ?)",
            (n, host_index + 1, url),
        )
        if duplicate_of is None:
            head_text = "\n".join(" ".join(h).capitalize() for h in headings)
            text = " ".join(title_words).capitalize() + "\n" + head_text + "\n" + _sentences(body)
            conn.execute(
                "INSERT INTO text_pile (text_pile_id, digest, text, secondary_text, big_headlines, "
                "small_headlines, code_text, quote_text) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (n, uuid.UUID(int=n).bytes, text, " ".join(nav), head_text, "", "", ""),
            )
            pile = n
            originals.add(n)
        else:
            pile = duplicate_of
        conn.execute(
            "INSERT INTO entity_generation (entity_generation_id, entity_generation_uuid, url_id, "
            "kind, first_seen_unix_utc, last_seen_unix_utc, marked_duplicate, text_pile_id, "
            "content_signature) VALUES (?, ?, ?, 'page', ?, ?, ?, ?, ?)",
            (n, str(uuid.UUID(int=n)), n, now, now, duplicate_of is not None, pile, b"x" * 16),
        )
        conn.execute(
            "INSERT INTO document_description (entity_generation_id, title, description, "
            "primary_language, word_count, indexiness) VALUES (?, ?, ?, 'en', ?, 0)",
            (n, " ".join(title_words).capitalize(), " ".join(body[:20]), len(body)),
        )
        if duplicate_of is not None:
            conn.execute(
                "INSERT INTO duplicate_summary (subject_entity_generation_id, "
                "original_entity_generation_id, detected_unix_utc) VALUES (?, ?, ?)",
                (n, duplicate_of, now),
            )
    written = time.monotonic() - started
    index(conn, range(1, pages + 1))
    conn.execute("COMMIT")
    conn.execute("PRAGMA optimize")
    conn.close()
    print(
        f"synthetic summary: {pages} pages written in {written:.0f} s, "
        f"indexed in {time.monotonic() - started - written:.0f} s",
        flush=True,
    )
    return path


# (kind of query, how many of the 100): single words by how many pages contain
# them (the index's own document frequencies), pairs, phrases, filters.
SYNTHETIC_MIX = (
    ("one frequent word (document-frequency rank 1-50)", 10),
    ("one middling word (rank 100-2000)", 20),
    ("one rare word (rank 2000+)", 15),
    ("two middling words", 15),
    ("a frequent and a middling word", 10),
    ("a 2-word phrase from a page (no frequent word)", 10),
    ("a middling word, site:HOST", 10),
    ('a middling word, -"frequent word"', 10),
)


def terms_by_document_frequency(db: Path) -> list[str]:
    """Index terms, the one in most pages first (FTS5's fts5vocab, in a temp table)."""
    conn = sqlite3.connect(db)
    try:
        conn.execute("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, search_index, row)")
        return [t for (t,) in conn.execute("SELECT term FROM temp.vocab ORDER BY doc DESC, term")]
    finally:
        conn.close()


def synthetic_queries(db: Path, seed: int = 5) -> list[tuple[str, str]]:
    """(kind, query) for the kinds and counts of SYNTHETIC_MIX."""
    rng = random.Random(seed)
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    texts = [
        t for (t,) in conn.execute("SELECT text FROM text_pile ORDER BY text_pile_id LIMIT 400")
    ]
    hosts = [h for (h,) in conn.execute("SELECT host FROM origin")]
    # the words of URLs (host names, page numbers) are not text: leave them out
    in_urls = {w for (u,) in conn.execute("SELECT str_url FROM url") for w in rank_module.words(u)}
    conn.close()
    terms = [t for t in terms_by_document_frequency(db) if t not in in_urls]
    frequent, middle, rare = terms[:50], terms[100:2000], terms[2000:]
    frequent_set = set(terms[:100])
    pairs = []
    for text in texts:
        tokens = rank_module.words(text)
        pairs += [
            f"{a} {b}"
            for a, b in itertools.pairwise(tokens)
            if a not in frequent_set and b not in frequent_set
        ]
    makers: dict[str, Callable[[], str]] = {
        SYNTHETIC_MIX[0][0]: lambda: rng.choice(frequent),
        SYNTHETIC_MIX[1][0]: lambda: rng.choice(middle),
        SYNTHETIC_MIX[2][0]: lambda: rng.choice(rare),
        SYNTHETIC_MIX[3][0]: lambda: f"{rng.choice(middle)} {rng.choice(middle)}",
        SYNTHETIC_MIX[4][0]: lambda: f"{rng.choice(frequent)} {rng.choice(middle)}",
        SYNTHETIC_MIX[5][0]: lambda: f'"{rng.choice(pairs)}"',
        SYNTHETIC_MIX[6][0]: lambda: f"{rng.choice(middle)} site:{rng.choice(hosts)}",
        SYNTHETIC_MIX[7][0]: lambda: f'{rng.choice(middle)} -"{rng.choice(frequent)}"',
    }
    return [(kind, makers[kind]()) for kind, count in SYNTHETIC_MIX for _ in range(count)]


# --------------------------------------------------------------------------- main


HEADER = (
    "| summary | queries | median ms | p95 ms | CPU median ms | CPU p95 ms | "
    "cold median ms | load before / after |\n|---|---|---|---|---|---|---|---|"
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=50_000, help="synthetic pages")
    parser.add_argument("--rebuild", action="store_true", help="re-crawl and regenerate")
    parser.add_argument("--skip-python3-doc", action="store_true")
    parser.add_argument("--enforce-targets", action="store_true")
    args = parser.parse_args()
    ok = True
    latencies = []
    try:
        if not args.skip_python3_doc:
            lines, latency = run_python3_doc(args.rebuild)
            latencies.append(latency)
            print("\n| check | result | evidence |\n|---|---|---|")
            print("\n".join(lines))
            ok &= all("FAIL" not in line for line in lines)
        db = build_synthetic(args.pages, args.rebuild)
        kinds_and_queries = synthetic_queries(db)
        queries = [q for _, q in kinds_and_queries]
        latency, wall = measure(f"synthetic, {args.pages:,} pages", db, queries)
        latencies.append(latency)
        by_kind: dict[str, list[float]] = {}
        for (kind, _), ms in zip(kinds_and_queries, wall, strict=True):
            by_kind.setdefault(kind, []).append(ms)
        print("\n| synthetic query kind | queries | median ms |\n|---|---|---|")
        for kind, times in by_kind.items():
            print(f"| {kind} | {len(times)} | {statistics.median(times):.1f} |")
        print("examples:", ", ".join(q for _, q in kinds_and_queries[::10]))
    except BenchError as exc:
        print(f"bench/search.py: {exc}", file=sys.stderr)
        return 1
    print()
    print(HEADER)
    for latency in latencies:
        print(latency.row())
    final = latencies[-1]
    target_met = final.median_ms < TARGET_MEDIAN_MS
    print(
        f"\ntarget: median < {TARGET_MEDIAN_MS:.0f} ms on the synthetic summary: "
        f"{'met' if target_met else 'MISSED'} (wall {final.median_ms:.1f} ms, CPU "
        f"{final.cpu_median_ms:.1f} ms; load average {final.load[0]:.1f} on "
        f"{os.cpu_count()} CPUs)"
    )
    ok &= target_met
    return 0 if ok or not args.enforce_targets else 1


if __name__ == "__main__":
    raise SystemExit(main())
