"""Write an export under a temporary name, rename it into place when complete.

An interrupted export (Ctrl-C, a full disk, kill -9) must never look like a
finished one: everything is written into a hidden sibling directory
``.OUTPUT.partial-<pid>`` and renamed to ``OUTPUT`` only after the last
file (the manifest) is closed.  The rename is atomic on POSIX file systems
(rename(2)); an existing ``OUTPUT`` is replaced only when asked to.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from ..errors import ExportError

__all__ = ["EXPORT_MARKERS", "check_output", "staged_directory"]

#: Files by which a directory is recognized as an earlier export.
EXPORT_MARKERS = ("manifest.json", "web_index.csv", "records.json", "records.ndjson")


def check_output(output: Path, *, overwrite: bool, keep: Sequence[Path] = ()) -> None:
    """Refuse an output path that must not be written or replaced.

    An existing non-empty directory is replaced only with ``overwrite``, and
    only when it looks like an earlier export (holds one of
    :data:`EXPORT_MARKERS`): ``--overwrite`` must never delete a home
    directory given as OUTPUT by mistake, or the ``keep`` paths (the
    databases being exported).
    """
    for path in keep:
        if path.absolute().is_relative_to(output):
            raise ExportError(f"{output} holds {path}: choose another output directory")
    if output.exists() or output.is_symlink():
        if not output.is_dir() or output.is_symlink():
            raise ExportError(f"{output} exists and is not a directory")
        if any(output.iterdir()):
            if not overwrite:
                raise ExportError(f"{output} already exists and is not empty (use --overwrite)")
            if not any((output / marker).is_file() for marker in EXPORT_MARKERS):
                raise ExportError(f"{output} is not an earlier export; not replacing it")
    parent = output.parent
    if not parent.is_dir():
        raise ExportError(f"directory {parent} does not exist")


@contextmanager
def staged_directory(
    output: Path, *, overwrite: bool = False, keep: Sequence[Path] = ()
) -> Iterator[Path]:
    """Yield a fresh staging directory; on success it becomes ``output``.

    On an exception the staging directory is removed and ``output`` is left
    untouched.  ``overwrite`` and ``keep``: see :func:`check_output`.
    """
    output = output.absolute()
    check_output(output, overwrite=overwrite, keep=keep)
    staging = output.parent / f".{output.name}.partial-{os.getpid()}"
    if staging.exists():
        shutil.rmtree(staging)  # left over by a killed run of this same process id
    try:
        staging.mkdir()
    except OSError as error:
        raise ExportError(f"cannot create {staging}: {error.strerror}") from error
    try:
        yield staging
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    _replace(staging, output)


def _replace(staging: Path, output: Path) -> None:
    old: Path | None = None
    if output.exists():
        old = output.parent / f".{output.name}.old-{os.getpid()}"
        output.rename(old)
    try:
        staging.rename(output)
    except OSError as error:
        if old is not None:
            old.rename(output)
        shutil.rmtree(staging, ignore_errors=True)
        raise ExportError(f"cannot move the export to {output}: {error.strerror}") from error
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
