"""kill -9 in the middle of summarize, then a rerun: the same summary DB as one clean run."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest
from crawl_db_builder import CrawlDbBuilder, page
from summary_dump import count, dump

from unob.summarizer import summarize

SITE = "http://site.test"
BATCH = 7

# Runs summarize in a child process that SIGKILLs itself at the N-th call of
# a store method: `apply_duplicates` runs after a batch's rows are written
# but before its mark and COMMIT (a kill mid-transaction); `commit` kills
# right after a batch was made durable.
CHILD = """
import os, signal, sys
from pathlib import Path
from unob.summarizer import summarystore
from unob.summarizer.pipeline import summarize

crawl_db, summary_db, method, when = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
original = getattr(summarystore.SummaryStore, method)
calls = 0

def hooked(self, *args):
    global calls
    calls += 1
    if method == "commit":
        original(self, *args)
    if calls == when:
        os.kill(os.getpid(), signal.SIGKILL)
    if method != "commit":
        return original(self, *args)

setattr(summarystore.SummaryStore, method, hooked)
summarize(
    [Path(crawl_db)], Path(summary_db), batch_size=int(sys.argv[5]), workers=int(sys.argv[6])
)
"""


def build_crawl(path: Path) -> None:
    shared = page("Shared", "Text shared by several URLs of the site.")
    with CrawlDbBuilder(path) as b:
        for round_ in range(3):
            at = 1000 * (round_ + 1)
            for i in range(12):
                changed = round_ == 2 and i % 3 == 0
                text = f"Page {i} body" + (" changed" if changed else "")
                b.add(f"{SITE}/p/{i}", at=at + i, body=page(f"P{i}", text))
            b.add(f"{SITE}/copy/{round_}", at=at + 20, body=shared)
            b.add(f"{SITE}/c{round_}", at=at + 21, body=shared)
            b.add(f"{SITE}/p/{round_ + 5}", at=at + 30, status=404)
            b.add(f"{SITE}/gone-{round_}", at=at + 31, status=None)
            b.add(f"{SITE}/r", at=at + 32, status=301, redirect_to=f"{SITE}/p/{round_}")


@pytest.mark.parametrize(
    ("method", "when", "workers"),
    [("apply_duplicates", 4, 0), ("commit", 3, 0), ("apply_duplicates", 2, 2)],
)
def test_kill_then_rerun_equals_clean_run(
    tmp_path: Path, method: str, when: int, workers: int
) -> None:
    crawl_db = tmp_path / "crawl.db"
    build_crawl(crawl_db)
    clean = tmp_path / "clean.db"
    summarize([crawl_db], clean, batch_size=BATCH)

    killed = tmp_path / "killed.db"
    child = subprocess.run(
        [
            sys.executable,
            "-c",
            CHILD,
            str(crawl_db),
            str(killed),
            method,
            str(when),
            str(BATCH),
            str(workers),
        ],
        capture_output=True,
        timeout=120,
    )
    # (With workers, run() returning at all shows they exited with their parent:
    # they hold the output pipes.)
    assert child.returncode == -signal.SIGKILL, child.stderr.decode()
    mark = count(killed, "SELECT high_water_crawl_log_entry_id FROM crawl_source")
    total = count(crawl_db, "SELECT max(crawl_log_entry_id) FROM crawl_log_entry")
    assert 0 < mark < total  # some batches made it, not all
    assert count(killed, "SELECT count(*) FROM crawl_summary") <= mark

    summarize([crawl_db], killed, batch_size=BATCH)
    assert dump(killed) == dump(clean)


def test_worker_processes_give_the_same_summary_db(tmp_path: Path) -> None:
    crawl_db = tmp_path / "crawl.db"
    build_crawl(crawl_db)
    in_process, pooled = tmp_path / "in.db", tmp_path / "pool.db"
    summarize([crawl_db], in_process, batch_size=BATCH, workers=0)
    report = summarize([crawl_db], pooled, batch_size=BATCH, workers=2)
    assert report.generations_created > 0
    assert dump(pooled) == dump(in_process)


def test_workers_do_not_rerun_an_unguarded_script(tmp_path: Path) -> None:
    crawl_db = tmp_path / "crawl.db"
    build_crawl(crawl_db)
    script = tmp_path / "unguarded.py"
    runs = tmp_path / "runs.txt"
    script.write_text(
        "from pathlib import Path\n"
        "from unob.summarizer import summarize\n"
        f"with open({str(runs)!r}, 'a') as f:\n"
        "    f.write('run\\n')\n"
        f"summarize([Path({str(crawl_db)!r})], Path({str(tmp_path / 's.db')!r}), workers=2)\n"
    )
    subprocess.run([sys.executable, str(script)], check=True, capture_output=True, timeout=120)
    assert runs.read_text() == "run\n"
    assert count(tmp_path / "s.db", "SELECT count(*) FROM crawl_summary") > 0


def test_workers_start_without_the_database_layer() -> None:
    # A worker imports the module its task function is pickled from: that
    # must be the light worker module, and it must not import SQLAlchemy or
    # Alembic (0.5 s more a worker start, a fifth of a python3-doc run).
    from unob.summarizer import worker

    assert worker.derive_claimed.__module__ == "unob.summarizer.worker"
    assert worker.start_worker.__module__ == "unob.summarizer.worker"
    probe = (
        "import sys, unob.summarizer.worker\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sqlalchemy', 'alembic')))"
    )
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True)
    assert out.stdout.strip() == "[]"
