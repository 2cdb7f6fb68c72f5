"""``manifest.json`` (seed 001): every file of an export with its size and SHA-256.

Written last, so that it describes the finished directory; it lists every
file below the output directory except itself, with forward-slash relative
paths.  The key is ``created_at`` as the seed's text says
(the reference implementation's code wrote ``created``).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

__all__ = ["MANIFEST", "build_manifest", "file_sha256", "iter_manifest", "write_manifest"]

MANIFEST = "manifest.json"
_CHUNK = 1 << 20


def file_sha256(path: Path) -> str:
    """Full hex SHA-256 of a file, read in chunks (files may be large)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _walk(directory: Path) -> Iterator[Path]:
    """Every file below ``directory``, lazily (``os.scandir`` holds one entry at a time)."""
    with os.scandir(directory) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                yield from _walk(Path(entry.path))
            elif entry.is_file(follow_symlinks=False):
                yield Path(entry.path)


def _files(root: Path) -> Iterator[Path]:
    return (p for p in _walk(root) if not (p.parent == root and p.name == MANIFEST))


def _entry(root: Path, path: Path) -> dict[str, Any]:
    return {
        "path": path.relative_to(root).as_posix(),
        "size_bytes": path.stat().st_size,
        "sha256": file_sha256(path),
    }


def iter_manifest(root: Path, created_at: datetime) -> Iterator[str]:
    """The manifest's JSON text in pieces, one file entry at a time.

    The entries are streamed in file-system order rather than sorted: an
    export of a million pages has millions of files, and sorting them would
    make memory grow with the export.  ``total_files`` comes first (the
    seed's key order), so the tree is counted in a first pass.
    """
    total = sum(1 for _ in _files(root))
    stamp = created_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    yield f'{{\n  "created_at": {json.dumps(stamp)},\n  "total_files": {total},\n  "files": ['
    for index, path in enumerate(_files(root)):
        entry = json.dumps(_entry(root, path), ensure_ascii=False)
        yield ("," if index else "") + "\n    " + entry
    yield ("\n  " if total else "") + "]\n}\n"


def build_manifest(root: Path, created_at: datetime) -> dict[str, Any]:
    """The manifest of ``root`` as a dict (for callers that want it in memory)."""
    loaded: dict[str, Any] = json.loads("".join(iter_manifest(root, created_at)))
    return loaded


def write_manifest(root: Path, created_at: datetime) -> Path:
    """Write ``root/manifest.json``; call it after every other file is closed."""
    path = root / MANIFEST
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        out.writelines(iter_manifest(root, created_at))
    return path
