"""The CLI's contract: one line on stderr and a non-zero exit for bad input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from unob import __version__


def run_unob(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "unob", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


def test_version() -> None:
    result = run_unob("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"unob {__version__}"


@pytest.mark.parametrize(
    "args",
    [
        ("crawl", "--no-such-flag"),
        ("no-such-command",),
        ("crawl", "--concurrency", "many"),
        ("summarize", "--batch-size", "0"),
        ("export", "--format", "bogus", "out"),
        ("export", "--format", "algolia", "--max-record-bytes", "10", "out"),
    ],
)
def test_bad_usage_is_one_line_exit_2(args: tuple[str, ...]) -> None:
    result = run_unob(*args)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("unob: error:")
    assert "Traceback" not in result.stderr


def test_wrong_database_kind_is_one_line(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite" * 20)
    result = run_unob("status", "--db", str(junk))
    assert result.returncode == 1
    assert result.stderr.strip() == f"unob: error: {junk}: not an SQLite database"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("sql", "SELECT 1; DELETE FROM url", "--db", "{dir}/crawl.db"), "one SQL statement"),
        (("sql", "select 1; select 2", "--db", "{dir}/crawl.db"), "one SQL statement"),
        (("sql", "DELETE FROM url", "--db", "{dir}/crawl.db"), "refused: DELETE"),
        (("sql", ";", "--db", "{dir}/crawl.db"), "no SQL statement given"),
        (("sql", " -- nothing\n", "--db", "{dir}/crawl.db"), "no SQL statement given"),
        (("sql", "/* a */ -- b\n;/* open", "--db", "{dir}/crawl.db"), "no SQL statement given"),
        (("sql", "--formt=csv", "--db", "{dir}/crawl.db"), "no such option: --formt=csv"),
        (("sql", "-x", "--db", "{dir}/crawl.db"), "no such option: -x"),
        (("search", "", "--summary-db", "{dir}/summary.db"), "QUERY is empty"),
        (("crawl", "--db", "{dir}/new.db"), "no seed URLs given"),
        (("demo", "--output", "{dir}/crawl.db"), "exists and is not a directory"),
    ],
)
def test_refusals_are_one_line_and_change_nothing(
    demo_dir: Path, args: tuple[str, ...], message: str
) -> None:
    before = {p.name: p.read_bytes() for p in demo_dir.glob("*.db")}
    result = run_unob(*(a.format(dir=demo_dir) for a in args))
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and message in result.stderr
    assert not (demo_dir / "new.db").exists()
    assert {p.name: p.read_bytes() for p in demo_dir.glob("*.db")} == before


def test_search_query_may_start_with_an_exclusion(demo_dir: Path) -> None:
    result = run_unob(
        "search", '-"tide pools"', "night", "train", "--summary-db", str(demo_dir / "summary.db")
    )
    assert result.returncode == 0, result.stderr
    assert "night-trains.html" in result.stdout and "tide-pools" not in result.stdout


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The README's main job, `unob demo`, run once: crawl, summarize, export, search."""
    out = tmp_path_factory.mktemp("demo")
    result = run_unob("demo", "--output", str(out), "--quiet")
    assert result.returncode == 0, result.stderr
    assert "The slow return of the night train" in result.stdout
    for fmt in ("parquet", "csv", "jsonl", "spideriment", "algolia"):
        assert any((out / f"export-{fmt}").iterdir()), fmt
    assert (out / "export-parquet" / "manifest.json").exists()
    return out


def test_quiet_help_says_the_final_report_is_still_printed() -> None:
    # -q silences progress only; its help (and so docs/cli.md) must not promise silence.
    from unob.docgen import render_cli

    rows = [row for row in render_cli().splitlines() if row.startswith("| `-q, --quiet`")]
    assert len(rows) == 4
    assert all("the final report is still printed" in row for row in rows), rows


def test_config_file_that_is_not_utf8_is_a_config_error(tmp_path: Path) -> None:
    config = tmp_path / "bad.toml"
    config.write_bytes(b"\xff\xfe garbage")
    result = run_unob("crawl", "--config", str(config), "--db", str(tmp_path / "x.db"))
    assert result.returncode == 2, result.stderr
    assert result.stderr == (
        f"unob: error: {config}: invalid TOML: not UTF-8 text (byte 0xff at offset 0)\n"
    )
    assert not (tmp_path / "x.db").exists()


def test_huge_delay_is_refused_before_crawling(tmp_path: Path) -> None:
    result = run_unob(
        "crawl",
        "http://127.0.0.1:9/",
        "--delay-ms",
        "99999999999999999999",
        "--db",
        str(tmp_path / "x.db"),
    )
    assert result.returncode == 2, result.stderr
    assert result.stderr == (
        "unob: error: command line: delay_ms: must be <= 3600000, got 99999999999999999999\n"
    )
    assert not (tmp_path / "x.db").exists()
