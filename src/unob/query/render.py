"""Rendering search results for a terminal (or a pipe): rank, title, URL, snippet."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from unob.query.search import SearchResult


def render_results(results: Sequence[SearchResult], out: TextIO) -> None:
    """Print ``results`` best first; matched words are bold on a terminal."""
    from rich.console import Console
    from rich.text import Text

    console = Console(file=out, highlight=False, soft_wrap=True)
    if not results:
        console.print("No results.")
        return
    for rank, result in enumerate(results, 1):
        title = " ".join((result.title or "(untitled)").split())
        console.print(Text(f"{rank}. {title}", style="bold"))
        console.print(Text(f"   {result.url}", style="cyan"))
        if result.snippet:
            snippet = Text("   " + result.snippet)
            for start, end in result.highlights:
                snippet.stylize("bold yellow", start + 3, end + 3)
            console.print(snippet)
