"""Build hook: compile the summarizer's hot modules with mypyc when possible.

Everything else about the package is declared in pyproject.toml.  The
modules are listed in ``unob.native.COMPILED``; why, and the fallback to
the sources, are described there and in docs/summarizer.md.  Set
``UNOB_PURE_PYTHON=1`` to build without compiling.  A failed compile (no C
compiler, say) is reported and the package installs pure Python.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# unob.native alone (standard library only), not the unob package, whose
# dependencies are not installed in the build environment.
_spec = importlib.util.spec_from_file_location(
    "_unob_native", Path(__file__).parent / "src/unob/native.py"
)
assert _spec is not None and _spec.loader is not None
_native = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_native)
COMPILED: tuple[str, ...] = _native.COMPILED
C_EXTENSIONS: dict[str, str] = _native.C_EXTENSIONS
PURE_ENV: str = _native.PURE_ENV


class OptionalBuildExt(build_ext):
    """build_ext that falls back to pure Python instead of failing the install."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # compiler missing or failing: install the sources
            print(f"unob: compiling with mypyc failed ({exc}); installing pure Python")
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)


def extensions() -> list[Any]:
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("unob: mypyc is not available; installing pure Python")
        return []
    paths = [f"src/{name.replace('.', '/')}.py" for name in COMPILED]
    # The build environment has mypy and xxhash (the one typed library the
    # compiled modules call) but not unob's other dependencies, so modules that
    # are only imported (for their types) may not type-check there: their
    # errors are not the compiler's business.  `mypy --strict` in CI checks
    # everything with the dependencies installed.
    options = ["--follow-imports=silent", "--no-warn-return-any"]
    try:
        compiled = list(mypycify([*options, *paths], opt_level="3"))
    except (Exception, SystemExit) as exc:  # mypyc reports type errors with SystemExit
        print(f"unob: mypyc could not compile ({exc}); installing pure Python")
        return []
    # The C walker reads lxml's element and libxml2's node structs, declared
    # in the headers lxml ships (lxml is a build requirement for them).
    import lxml

    return [
        *compiled,
        *(
            Extension(name, [f"src/unob/{source}"], include_dirs=lxml.get_include())
            for name, source in C_EXTENSIONS.items()
        ),
    ]


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
