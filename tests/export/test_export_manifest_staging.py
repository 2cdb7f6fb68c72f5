"""manifest.json and the all-or-nothing output directory."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from export_helpers import verify_manifest

from unob.errors import ExportError
from unob.export.manifest import build_manifest, write_manifest
from unob.export.staging import staged_directory

WHEN = datetime(2026, 2, 23, 10, 1, 30, tzinfo=UTC)


def test_manifest_lists_every_file_but_itself(tmp_path: Path) -> None:
    (tmp_path / "readable").mkdir()
    (tmp_path / "readable" / "a.md").write_text("é\n", encoding="utf-8")
    (tmp_path / "pages.parquet").write_bytes(b"\x00" * 3_000_000)
    (tmp_path / "raw_html" / "h").mkdir(parents=True)
    (tmp_path / "raw_html" / "h" / "x.html.gz").write_bytes(b"gz")
    write_manifest(tmp_path, WHEN)
    manifest = verify_manifest(tmp_path)
    assert manifest["created_at"] == "2026-02-23T10:01:30Z"
    assert manifest["total_files"] == 3
    write_manifest(tmp_path, WHEN)  # rewriting does not list the old manifest
    assert verify_manifest(tmp_path) == manifest
    assert build_manifest(tmp_path, WHEN) == manifest


def test_empty_directory_manifest(tmp_path: Path) -> None:
    write_manifest(tmp_path, WHEN)
    assert verify_manifest(tmp_path)["files"] == []


def test_staged_directory_appears_only_when_complete(tmp_path: Path) -> None:
    out = tmp_path / "export"
    with staged_directory(out) as staging:
        (staging / "file").write_text("x")
        assert not out.exists()
        assert staging.name.startswith(".export.partial-")
    assert (out / "file").read_text() == "x"
    assert [p.name for p in tmp_path.iterdir()] == ["export"]


def test_interrupted_export_leaves_nothing(tmp_path: Path) -> None:
    out = tmp_path / "export"
    with pytest.raises(KeyboardInterrupt), staged_directory(out) as staging:
        (staging / "file").write_text("x")
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []


def test_existing_output_needs_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "export"
    out.mkdir()
    (out / "old").write_text("old")
    with pytest.raises(ExportError, match="already exists"), staged_directory(out):
        pass
    # Not an earlier export: --overwrite must not delete it.
    with (
        pytest.raises(ExportError, match="not an earlier export"),
        staged_directory(out, overwrite=True),
    ):
        pass
    (out / "manifest.json").write_text("{}")
    with staged_directory(out, overwrite=True) as staging:
        (staging / "new").write_text("new")
    assert [p.name for p in out.iterdir()] == ["new"]
    assert [p.name for p in tmp_path.iterdir()] == ["export"]
    (tmp_path / "file").write_text("f")
    with pytest.raises(ExportError, match="not a directory"), staged_directory(tmp_path / "file"):
        pass
    with (
        pytest.raises(ExportError, match="does not exist"),
        staged_directory(tmp_path / "missing" / "out"),
    ):
        pass


def test_empty_existing_directory_is_fine(tmp_path: Path) -> None:
    out = tmp_path / "export"
    out.mkdir()
    with staged_directory(out) as staging:
        (staging / "f").write_text("1")
    assert (out / "f").exists()


def test_output_may_not_hold_the_databases(tmp_path: Path) -> None:
    (tmp_path / "summary.db").write_text("")
    with (
        pytest.raises(ExportError, match="choose another output"),
        staged_directory(tmp_path, overwrite=True, keep=[tmp_path / "summary.db"]),
    ):
        pass
    assert (tmp_path / "summary.db").exists()
