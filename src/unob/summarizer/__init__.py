"""The summarize phase: derive text, metadata and links from crawled files.

Pure content derivation lives in :mod:`unob.summarizer.extract` (entry point
:func:`~unob.summarizer.extract.derive_html`) and the value types in
:mod:`unob.summarizer.document`; the database pipeline calls them.

The public entry points (:func:`summarize`, :func:`render_report`,
:class:`SummarizeReport`) are loaded on first use: the derivation modules,
which the pipeline's worker processes import, must not pull in the
database layer (SQLAlchemy, Alembic) through this package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from unob.summarizer.pipeline import SummarizeReport, render_report, summarize

__all__ = ["SummarizeReport", "render_report", "summarize"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from unob.summarizer import pipeline

        return getattr(pipeline, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
