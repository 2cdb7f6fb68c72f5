"""Export speed and memory: every format on python3-doc and on synthetic summaries.

Sources:

* **python3-doc**: Debian's Python documentation (about 530 pages) served by
  nginx on 127.0.0.1, crawled with images by ``unob crawl`` and summarized by
  ``unob summarize`` (done once, cached in ``bench/.work/export/``).
* **synthetic-N**: a summary DB of N pages written straight through the
  schema (``tests/export/export_summary_builder.py``) plus a crawl DB holding every
  page's HTML body and one image per 10 pages; 50 hosts, two languages,
  headings with ids, links, duplicates, closed generations and redirects,
  every 20th page long enough for several Algolia records.  Built once per
  N and cached.

Each export runs in its own process; peak RSS is that process's ``VmHWM``
(the kernel's high-water mark, so nothing between samples is missed) and
CPU time its ``os.wait4`` user + system time.  The
point of running two synthetic sizes is the last column: peak RSS must not
grow with the number of pages.

    .venv/bin/python bench/export.py                    # python3-doc, 5,000 and 50,000 pages
    .venv/bin/python bench/export.py --sizes 2000 --skip-python-doc   # quick
    .venv/bin/python bench/export.py --markdown         # a table for docs/benchmarks.md
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
WORK = BENCH / ".work" / "export"
FORMATS = ("parquet", "csv", "jsonl", "spideriment", "algolia")
#: Bump when the synthetic generator changes, so cached databases are rebuilt.
SYNTHETIC_VERSION = 1
MB = 1024 * 1024

sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(ROOT / "tests" / "export"))


@dataclass
class Row:
    source: str
    fmt: str
    pages: int
    records: int
    seconds: float
    cpu_seconds: float
    peak_rss_mb: float
    output_mb: float

    @property
    def pages_per_s(self) -> float:
        return self.pages / self.seconds if self.seconds else 0.0


# --------------------------------------------------------------------------- sources


WORDS = [
    "crawler",
    "politeness",
    "robots",
    "origin",
    "delay",
    "request",
    "response",
    "header",
    "body",
    "page",
    "link",
    "anchor",
    "summary",
    "database",
    "table",
    "index",
    "search",
    "query",
    "token",
    "heading",
    "paragraph",
    "image",
    "caption",
    "Schlafwagen",
    "Nachtzug",
    "Strecke",
    "Fahrplan",
    "Bahnhof",
    "Reise",
    "Gezeiten",
    "Küste",
    "Anemone",
    "Muschel",
]


def _paragraph(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


def _cached(directory: Path, marker: Path) -> bool:
    """True if a complete build is there; else start ``directory`` afresh."""
    if marker.exists():
        return True
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    return False


def build_synthetic(pages: int, directory: Path) -> tuple[Path, Path]:
    """Write (summary.db, crawl.db) with ``pages`` current pages and some history."""
    from export_crawl_builder import CrawlBuilder
    from export_helpers import picture
    from export_summary_builder import Page, SummaryBuilder

    marker = directory / f"complete-v{SYNTHETIC_VERSION}"
    summary_db, crawl_db = directory / "summary.db", directory / "crawl.db"
    if _cached(directory, marker):
        return summary_db, crawl_db
    rng = random.Random(pages)
    started = time.monotonic()
    t0 = 1_780_000_000
    with SummaryBuilder(summary_db) as summary, CrawlBuilder(crawl_db, started=t0) as crawl:
        for i in range(pages):
            host = f"http://h{i % 50:02d}.synthetic.test"
            url = f"{host}/docs/{i}.html"
            german = i % 10 == 3
            sections = rng.randint(2, 6) + (30 if i % 20 == 0 else 0)
            headings = [(1, f"Page {i}", "top")]
            lines = [f"Page {i}"]
            for s in range(sections):
                level = 2 if s % 3 == 0 else 3
                headings.append((level, f"Section {s} of page {i}", f"s{s}"))
                lines.append(f"Section {s} of page {i}")
                lines += [_paragraph(rng, rng.randint(30, 90)) for _ in range(rng.randint(1, 4))]
            text = "\n".join(lines)
            html = (
                f'<html lang="{"de" if german else "en"}"><head><title>Page {i}</title></head>'
                f"<body><nav><a href='/'>Home</a></nav><main>"
                + "".join(f"<p>{line}</p>" for line in lines)
                + "</main></body></html>"
            ).encode()
            sha = crawl.html(url, html)
            images = [(f"{host}/logo.png", "Logo"), (f"{host}/img/{i}.png", f"Figure {i}")]
            if i % 10 == 0:
                crawl.image(f"{host}/img/{i}.png", picture(200, 150, seed=i))
            links = [
                (f"{host}/docs/{rng.randrange(pages)}.html", f"see {k}", "a", "in")
                for k in range(rng.randint(8, 16))
            ]
            links.append((f"https://external{i % 97}.example/", "elsewhere", "a", "out"))
            page = Page(
                url=url,
                title=f"Page {i}",
                description=_paragraph(rng, 20),
                language="de" if german else "en",
                keywords=("synthetic", f"k{i % 13}"),
                author=f"Author {i % 7}",
                category="Docs",
                published=t0 - i,
                text=text,
                secondary_text="Home",
                headings=headings,
                images=images,
                links=links,
                first_seen=t0 + i,
                sha256=sha,
                size=len(html),
            )
            gid = summary.page(page)
            if i % 20 == 1:  # an exact duplicate at a longer URL
                summary.page(
                    Page(url=url + "?print=1", text=text, duplicate_of=gid, first_seen=t0 + i)
                )
            if i % 20 == 2:  # an old version, closed
                summary.page(
                    Page(url=f"{host}/old/{i}.html", text="old", first_seen=t0 - 999, closed_at=t0)
                )
            if i % 25 == 0:
                summary.redirect(f"{host}/r/{i}", url, t0 + i - 1)
            if (i + 1) % 5000 == 0:
                print(
                    f"  synthetic-{pages}: {i + 1} pages, {time.monotonic() - started:.0f} s",
                    flush=True,
                )
    marker.write_text("ok\n")
    return summary_db, crawl_db


def build_python_doc(directory: Path) -> tuple[Path, Path]:
    """Crawl python3-doc (with images) and summarize it, once."""
    from _sites import crawl_python3_doc

    marker = directory / "complete"
    summary_db, crawl_db = directory / "summary.db", directory / "crawl.db"
    if _cached(directory, marker):
        return summary_db, crawl_db
    unob = str(ROOT / ".venv" / "bin" / "unob")
    crawl_python3_doc(crawl_db, unob, images=True, work=directory)
    subprocess.run(
        [
            unob,
            "summarize",
            "--crawl-db",
            str(crawl_db),
            "--summary-db",
            str(summary_db),
            "--quiet",
        ],
        check=True,
    )
    marker.write_text("ok\n")
    return summary_db, crawl_db


# --------------------------------------------------------------------------- measuring


def child(fmt: str, out: Path, summary_db: Path, crawl_db: Path) -> None:
    """Run one export in this process and print its report as JSON."""
    from unob.export import export

    report = export(fmt, out, summary_db, [crawl_db], progress=False, overwrite=True)
    print(json.dumps({"pages": report.pages, "records": report.records, "peak_kb": _vm_hwm()}))


def _vm_hwm() -> int:
    """This process's peak RSS in KiB (``VmHWM``).

    Not ``ru_maxrss``: Linux carries that across fork and exec, so a child
    would report the parent's size (the bench process holds the synthetic
    site generator's memory).  ``VmHWM`` belongs to the current address space,
    which exec replaces.
    """
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise SystemExit("no VmHWM in /proc/self/status (Linux only)")


def _tree_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def measure(source: str, fmt: str, summary_db: Path, crawl_db: Path) -> Row:
    out = WORK / "out" / f"{source}-{fmt}"
    if out.exists():
        shutil.rmtree(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    argv = [sys.executable, __file__, "--child", fmt, str(out), str(summary_db), str(crawl_db)]
    started = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE)
    assert proc.stdout is not None
    output = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.monotonic() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"export {fmt} of {source} failed with status {proc.returncode}")
    report = json.loads(output.decode().strip().splitlines()[-1])
    row = Row(
        source,
        fmt,
        report["pages"],
        report["records"],
        seconds,
        usage.ru_utime + usage.ru_stime,
        report["peak_kb"] * 1024 / MB,
        _tree_size(out) / MB,
    )
    shutil.rmtree(out)
    return row


def print_table(rows: list[Row], markdown: bool) -> None:
    header = [
        "source",
        "format",
        "pages",
        "records",
        "wall s",
        "pages/s",
        "CPU s",
        "CPU ms/page",
        "peak RSS MB",
        "output MB",
    ]
    lines = [
        [
            r.source,
            r.fmt,
            str(r.pages),
            str(r.records),
            f"{r.seconds:.1f}",
            f"{r.pages_per_s:,.0f}",
            f"{r.cpu_seconds:.1f}",
            f"{1000 * r.cpu_seconds / max(r.pages, 1):.2f}",
            f"{r.peak_rss_mb:.0f}",
            f"{r.output_mb:.1f}",
        ]
        for r in rows
    ]
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for line in lines:
            print("| " + " | ".join(line) + " |")
        return
    widths = [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(header)]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    for line in lines:
        print("  ".join(v.ljust(w) for v, w in zip(line, widths, strict=True)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes",
        type=int,
        nargs="*",
        default=[5000, 50000],
        help="synthetic summary sizes in pages (default: 5000 50000)",
    )
    parser.add_argument("--formats", nargs="*", default=list(FORMATS), choices=FORMATS)
    parser.add_argument("--skip-python-doc", action="store_true")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument(
        "--child", nargs=4, metavar=("FMT", "OUT", "SUMMARY", "CRAWL"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.child:
        fmt, out, summary_db, crawl_db = args.child
        child(fmt, Path(out), Path(summary_db), Path(crawl_db))
        return
    sources: list[tuple[str, Path, Path]] = []
    if not args.skip_python_doc:
        print("python3-doc: crawl + summarize (cached)", flush=True)
        sources.append(("python3-doc", *build_python_doc(WORK / "python3-doc")))
    for size in args.sizes:
        print(f"synthetic-{size}: build (cached)", flush=True)
        sources.append((f"synthetic-{size}", *build_synthetic(size, WORK / f"synthetic-{size}")))
    rows = []
    for name, summary_db, crawl_db in sources:
        for fmt in args.formats:
            row = measure(name, fmt, summary_db, crawl_db)
            print(
                f"  {name} {fmt}: {row.pages} pages in {row.seconds:.1f} s, "
                f"peak RSS {row.peak_rss_mb:.0f} MB",
                flush=True,
            )
            rows.append(row)
    print()
    print_table(rows, args.markdown)


if __name__ == "__main__":
    main()
