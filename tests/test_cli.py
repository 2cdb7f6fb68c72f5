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
