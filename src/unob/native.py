"""The summarizer's hot modules, compiled to C by mypyc, and the way back to their sources.

Deriving a page (:func:`unob.summarizer.extract.derive_html`) is per-element
Python work: an lxml parser-target callback for every start tag, end tag and
text node.  ``setup.py`` compiles the modules of :data:`COMPILED` with mypyc
(part of mypy; the code is already typed ``mypy --strict``) when it can,
which makes that work 25-35% cheaper; see ``docs/summarizer.md``
("Compiled derivation").  The sources stay the reference: the same ``.py``
files run when there is no compiler, and a test checks that both give
identical derivations.

Python imports an extension module in preference to a ``.py`` of the same
name, so a compiled module older than its source (an editable install after
``git pull`` or an edit) would silently run old code.  :func:`use_sources`
therefore imports the sources instead when any compiled module is older
than its ``.py`` (all of them together: compiled modules call each other
directly in C, bypassing ``sys.modules``), or when ``UNOB_PURE_PYTHON=1``
is set.  The check is a few ``stat`` calls at import time.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

#: Modules setup.py compiles.  A compiled class needs compiled bases, so
#: ``unob.urls`` (whose Resolver linkresolve.Base extends) is in the list.
COMPILED = (
    "unob.urls",
    "unob.summarizer.linkresolve",
    "unob.summarizer.patterns",
    "unob.summarizer.walk",
    "unob.summarizer.textpile",
    "unob.summarizer.meta",
    "unob.summarizer.indexiness",
    "unob.summarizer.extract",
    "unob.summarizer.observe",
)

#: The modules of unob the compiled ones import without being compiled
#: themselves.  mypyc compiles against their types (it may inline a ``Final``
#: constant and relies on their classes' attributes), so an edit to one of
#: them makes the build stale too.  A test keeps this equal to what the
#: compiled modules import.
COMPILED_DEPENDS = (
    "unob.bodycodec",
    "unob.codes",
    "unob.native",
    "unob.summarizer.charset",
    "unob.summarizer.crawlentry",
    "unob.summarizer.document",
    "unob.summarizer.generations",
)

#: C extensions setup.py builds with the compiled modules, by source file
#: (under src/unob).  They have no ``.py`` twin: the module that imports one
#: (walk.py for ``_saxwalk``) runs its Python reference instead when the
#: sources are in use.  Stale like a compiled module when older than its source.
C_EXTENSIONS = {"unob.summarizer._saxwalk": "summarizer/_saxwalk.c"}

#: ``1``: run the ``.py`` sources even when compiled; ``0``: the compiled
#: modules, unchecked (what :func:`use_sources` passes on to worker processes).
PURE_ENV = "UNOB_PURE_PYTHON"

_PACKAGE_DIR = Path(__file__).parent  # the unob package


def _source(name: str) -> Path:
    """The source of module ``name`` (``unob.x.y`` -> ``unob/x/y.py``; C_EXTENSIONS' ``.c``)."""
    if name in C_EXTENSIONS:
        return _PACKAGE_DIR / C_EXTENSIONS[name]
    return _PACKAGE_DIR.joinpath(*name.split(".")[1:]).with_suffix(".py")


def _extension(name: str) -> Path | None:
    """The compiled module file of ``name`` next to its source, if any."""
    source = _source(name)
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = source.with_name(source.stem + suffix)
        if candidate.exists():
            return candidate
    return None


def _in_source_tree() -> bool:
    """Whether unob runs from its repository (an editable install), not an installed copy.

    Only there can a source change after the build; in an installed copy the
    files' times say only in which order the installer wrote them.
    """
    return _PACKAGE_DIR.parent.name == "src" and (_PACKAGE_DIR.parents[1] / "setup.py").exists()


def compiled_state() -> str:
    """``'compiled'``, ``'absent'`` (no compiled module), or ``'stale'``.

    Stale: some compiled modules are missing, or (in a source tree) one is
    older than its source or than a module of :data:`COMPILED_DEPENDS`.
    """
    found = [(name, _extension(name)) for name in (*COMPILED, *C_EXTENSIONS)]
    missing = sum(1 for _, ext in found if ext is None)
    if missing == len(found):
        return "absent"
    if missing:
        return "stale"
    if _in_source_tree():
        built: list[float] = []
        for name, ext in found:
            assert ext is not None
            built.append(ext.stat().st_mtime)
            source = _source(name)
            if source.exists() and source.stat().st_mtime > built[-1]:
                return "stale"
        for name in COMPILED_DEPENDS:
            source = _source(name)
            if source.exists() and source.stat().st_mtime > min(built):
                return "stale"
    return "compiled"


class _SourceFinder:
    """A ``sys.meta_path`` finder of the ``.py`` source of each of ``names``.

    (Not derived from importlib.abc.MetaPathFinder: importing importlib.abc
    costs every unob command 45 ms.)
    """

    def __init__(self, names: Sequence[str]) -> None:
        self.names = frozenset(names)

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        import importlib.util

        return importlib.util.spec_from_file_location(fullname, _source(fullname))


def use_sources() -> bool:
    """Make the :data:`COMPILED` modules import from source if asked or stale.

    Called by the ``unob`` package before any of them is imported.  Returns
    whether the sources will be used.  The decision is written into
    ``UNOB_PURE_PYTHON`` (``1`` sources, ``0`` compiled, no further check),
    so that worker processes started later decide the same way even if the
    files change meanwhile: a compiled class cannot unpickle what its source
    twin pickled, nor the reverse.
    """
    if any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        return True
    value = os.environ.get(PURE_ENV, "")
    if value == "0":
        return False
    state = compiled_state()
    pure = value != ""
    if state == "absent":
        return True
    if state == "compiled" and not pure:
        os.environ[PURE_ENV] = "0"
        return False
    if state == "stale" and not pure:
        warnings.warn(
            "unob: the compiled modules are incomplete or older than their sources; "
            "running the sources (slower). Reinstall (pip install -e .) to recompile.",
            stacklevel=2,
        )
    os.environ[PURE_ENV] = "1"
    sys.meta_path.insert(0, _SourceFinder(COMPILED))
    return True


def running_compiled() -> bool:
    """Whether the derivation modules in use are the compiled ones."""
    from unob.summarizer import walk

    return not (walk.__file__ or "").endswith(".py")
