"""The mypyc-compiled derivation modules behave exactly like their sources (unob.native)."""

from __future__ import annotations

import ast
import gzip
import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from unob import native
from unob.summarizer.extract import derive_html

REPO = Path(__file__).resolve().parents[2]
PAGES = sorted((REPO / "tests" / "data" / "article-extraction-benchmark" / "html").glob("*.gz"))
FIXTURES = sorted((REPO / "tests" / "summarizer" / "fixtures").glob("*.html*"))

# Derives every page given on the command line and prints one digest per page
# of everything derive_html returned (the value types are plain dataclasses
# from unob.summarizer.document, whose repr spells out every field).
DERIVE_SCRIPT = """
import gzip, hashlib, sys
from pathlib import Path
from unob.native import running_compiled
from unob.summarizer.extract import derive_html
print("compiled" if running_compiled() else "sources")
for name in sys.argv[1:]:
    data = Path(name).read_bytes()
    body = gzip.decompress(data) if name.endswith(".gz") else data
    print(hashlib.sha256(repr(derive_html(body, "https://example.test/page")).encode()).hexdigest())
"""


def _digests(paths: list[Path]) -> list[str]:
    out = []
    for path in paths:
        data = path.read_bytes()
        body = gzip.decompress(data) if path.name.endswith(".gz") else data
        derived = derive_html(body, "https://example.test/page")
        out.append(hashlib.sha256(repr(derived).encode()).hexdigest())
    return out


@pytest.mark.skipif(
    not native.running_compiled(), reason="unob was installed without compiled modules"
)
def test_compiled_and_source_derivations_are_identical() -> None:
    paths = PAGES + FIXTURES
    assert len(paths) > 181
    run = subprocess.run(
        [sys.executable, "-c", DERIVE_SCRIPT, *map(str, paths)],
        env={**os.environ, native.PURE_ENV: "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    kind, *from_sources = run.stdout.split()
    assert kind == "sources"
    assert _digests(paths) == from_sources


def _fake_build(tmp_path: Path, *, newer_source: str | None) -> None:
    """Sources and compiled files of every compiled module and C extension under tmp_path,
    built at 2000."""
    suffix = native.importlib.machinery.EXTENSION_SUFFIXES[0]
    for name in (*native.COMPILED, *native.C_EXTENSIONS):
        source = native._source(name)
        source.parent.mkdir(exist_ok=True)
        source.write_text("")
        ext = source.with_name(name.rpartition(".")[2] + suffix)
        ext.write_text("")
        os.utime(source, (1000, 1000))
        os.utime(ext, (2000, 2000))
    if newer_source is not None:
        os.utime(tmp_path / newer_source, (3000, 3000))


def test_compiled_state_sees_missing_and_stale_builds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "src" / "unob"
    package.mkdir(parents=True)
    monkeypatch.setattr(native, "_PACKAGE_DIR", package)
    assert native.compiled_state() == "absent"
    _fake_build(package, newer_source=None)
    assert native.compiled_state() == "compiled"
    _fake_build(package, newer_source="summarizer/meta.py")  # an edit after the last build
    # Only a source tree (an editable install) can go stale: an installed copy's
    # file times are just the order in which the installer wrote them.
    assert native.compiled_state() == "compiled"
    (tmp_path / "setup.py").write_text("")
    assert native.compiled_state() == "stale"
    _fake_build(package, newer_source="summarizer/_saxwalk.c")  # a C extension's too
    assert native.compiled_state() == "stale"
    _fake_build(package, newer_source=None)
    next(package.glob("summarizer/walk.*[!y]")).unlink()  # one compiled module missing
    assert native.compiled_state() == "stale"


def _without_source_finders() -> list[object]:
    """sys.meta_path as in a process that runs compiled modules (this one may run the
    sources: a stale build while developing)."""
    return [f for f in sys.meta_path if not isinstance(f, native._SourceFinder)]


@pytest.fixture
def source_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty source tree (src/unob beside a setup.py) that unob.native looks at."""
    package = tmp_path / "src" / "unob"
    package.mkdir(parents=True)
    (tmp_path / "setup.py").write_text("")
    monkeypatch.setattr(native, "_PACKAGE_DIR", package)
    return package


def test_a_stale_build_runs_the_sources(source_tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = source_tree
    _fake_build(package, newer_source="urls.py")
    monkeypatch.setattr(sys, "meta_path", _without_source_finders())
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    with pytest.warns(UserWarning, match="older than their sources"):
        assert native.use_sources()
    finder = sys.meta_path[0]
    spec = finder.find_spec("unob.summarizer.walk", None)
    assert spec is not None and spec.origin == str(package / "summarizer" / "walk.py")
    assert finder.find_spec("unob.summarizer.pipeline", None) is None


def test_the_decision_passes_to_worker_processes(
    source_tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Workers are started later and must not decide differently (a compiled
    # class cannot unpickle what its source twin pickled, nor the reverse).
    package = source_tree
    monkeypatch.setattr(sys, "meta_path", _without_source_finders())
    _fake_build(package, newer_source=None)
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    assert not native.use_sources()
    assert os.environ[native.PURE_ENV] == "0"
    _fake_build(package, newer_source="summarizer/walk.py")  # an edit while workers start
    assert not native.use_sources()  # a worker: told "compiled", no second check
    monkeypatch.delenv(native.PURE_ENV)
    with pytest.warns(UserWarning):
        assert native.use_sources()
    assert os.environ[native.PURE_ENV] == "1"


def test_compiled_depends_lists_what_the_compiled_modules_import() -> None:
    # An edit to one of these must mark the build stale (mypyc compiled against it).
    imported: set[str] = set()
    for name in native.COMPILED:
        tree = ast.parse(native._source(name).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("unob"):
                # "from unob.x import y": y may be a module or a name in unob.x
                imported.add(str(node.module))
                imported.update(f"{node.module}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Import):
                imported.update(a.name for a in node.names)
    imported = {n for n in imported if n.startswith("unob.") and native._source(n).exists()}
    assert imported - set(native.COMPILED) == set(native.COMPILED_DEPENDS)


def test_an_edit_to_a_module_the_compiled_ones_import_makes_the_build_stale(
    source_tree: Path,
) -> None:
    _fake_build(source_tree, newer_source=None)
    document = native._source("unob.summarizer.document")
    document.write_text("")
    os.utime(document, (1500, 1500))  # older than the build
    assert native.compiled_state() == "compiled"
    os.utime(document, (3000, 3000))  # edited after it
    assert native.compiled_state() == "stale"
