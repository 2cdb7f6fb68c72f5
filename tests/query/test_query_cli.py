"""`unob sql` and `unob search` on the command line: output, one-line errors, exit status."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
from pathlib import Path

import pytest

from unob.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main(list(argv))
    out, err = capsys.readouterr()
    return int(done.value.code or 0), out, err


def test_sql_formats(capsys: pytest.CaptureFixture[str], crawl_db: Path) -> None:
    query = "SELECT host, entries FROM origin_stats ORDER BY host"
    code, out, _ = run(capsys, "sql", query, "--db", str(crawl_db), "--format", "json")
    assert code == 0
    assert json.loads(out) == [
        {"host": "other.test", "entries": 2},
        {"host": "site.test", "entries": 16},
    ]
    code, out, _ = run(capsys, "sql", query, "--db", str(crawl_db), "--format", "csv")
    assert out == "host,entries\nother.test,2\nsite.test,16\n"


def test_sql_runs_recipes_as_written_and_from_stdin(
    capsys: pytest.CaptureFixture[str], crawl_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every recipe starts with "-- database:" comments; that is not an option
    recipe = "-- database: crawl\n-- columns: n\nSELECT count(*) AS n FROM url"
    code, out, err = run(capsys, "sql", recipe, "--db", str(crawl_db), "--format", "csv")
    assert (code, out.splitlines()[0], err) == (0, "n", "")
    monkeypatch.setattr("sys.stdin", io.StringIO(recipe))
    code, out, _ = run(capsys, "sql", "--db", str(crawl_db), "--format", "csv", "-")
    assert (code, out.splitlines()[0]) == (0, "n")
    # a separator line of dashes: a regular expression once backtracked for hours on it
    separated = "-- " + "-" * 200 + "\n" + recipe
    code, out, _ = run(capsys, "sql", separated, "--db", str(crawl_db), "--format", "csv")
    assert (code, out.splitlines()[0]) == (0, "n")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"SELECT '\xff'")))
    code, _, err = run(capsys, "sql", "--db", str(crawl_db), "-")
    assert (code, err) == (2, "unob: error: standard input: not UTF-8 text\n")


def test_sql_db_shorthand_uses_the_current_directory(
    capsys: pytest.CaptureFixture[str],
    crawl_db: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shutil.copyfile(crawl_db, tmp_path / "crawl.db")
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "sql", "SELECT count(*) AS n FROM url", "--format", "csv")
    assert (code, out.splitlines()[0]) == (0, "n")
    code, _, err = run(capsys, "sql", "SELECT 1", "--db", "summary")
    assert code == 1
    assert err == "unob: error: summary.db: no such file\n"


def test_sql_write_is_one_line_error_and_changes_nothing(
    capsys: pytest.CaptureFixture[str], crawl_db: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "crawl.db"
    shutil.copyfile(crawl_db, copy)
    before = hashlib.sha256(copy.read_bytes()).digest()
    code, out, err = run(capsys, "sql", "DROP TABLE url", "--db", str(copy))
    assert code == 2  # a usage error, like every statement unob sql refuses
    assert out == ""
    assert (
        err == "unob: error: refused: DROP TABLE would change the database; unob sql only reads\n"
    )
    assert hashlib.sha256(copy.read_bytes()).digest() == before


def test_sql_bad_format_is_usage_error(capsys: pytest.CaptureFixture[str], crawl_db: Path) -> None:
    code, _, err = run(capsys, "sql", "SELECT 1", "--db", str(crawl_db), "--format", "xml")
    assert code == 2
    assert err.count("\n") == 1


def test_search_prints_ranked_results(capsys: pytest.CaptureFixture[str], search_db: Path) -> None:
    code, out, _ = run(
        capsys, "search", "concurrent", "--summary-db", str(search_db), "--limit", "3"
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "1. asyncio — Asynchronous I/O"
    assert lines[1].strip() == "http://docs.test/library/asyncio.html"
    assert "concurrent" in lines[2]
    code, out, _ = run(capsys, "search", "nothing-matches-this", "--summary-db", str(search_db))
    assert (code, out) == (0, "No results.\n")


def test_search_errors(capsys: pytest.CaptureFixture[str], crawl_db: Path) -> None:
    code, _, err = run(capsys, "search", "x", "--summary-db", str(crawl_db))
    assert code == 1
    assert err.startswith("unob: error:") and err.count("\n") == 1
    code, _, err = run(capsys, "search", "x", "--limit", "0")
    assert code == 2
