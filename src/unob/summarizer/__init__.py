"""The summarize phase: derive text, metadata and links from crawled files.

Pure content derivation lives in :mod:`unob.summarizer.extract` (entry point
:func:`~unob.summarizer.extract.derive_html`) and the value types in
:mod:`unob.summarizer.document`; the database pipeline calls them.
"""

from unob.summarizer.pipeline import SummarizeReport, render_report, summarize

__all__ = ["SummarizeReport", "render_report", "summarize"]
