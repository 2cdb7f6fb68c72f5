"""Small text helpers shared by the export formats."""

from __future__ import annotations

import re
from datetime import UTC, datetime

__all__ = ["collapse", "iso_utc", "utf8_len"]

# Python's ``\s`` on str: ASCII and Unicode whitespace (str.isspace).  The
# Spideriment reference uses exactly this regex (reference/export-formats.md
# §A.3), so the same pattern gives the same cuts.
_WS = re.compile(r"\s+")


def collapse(text: str) -> str:
    """Replace every run of whitespace by one space and strip the ends."""
    return _WS.sub(" ", text).strip()


def utf8_len(text: str) -> int:
    """Length of ``text`` in UTF-8 bytes (lone surrogates count as 3)."""
    return len(text.encode("utf-8", "surrogatepass"))


def iso_utc(unix: float) -> str:
    """ISO 8601 UTC timestamp with a ``Z`` suffix, second precision.

    The seed's manifest example (``2026-02-23T10:01:30Z``) has this shape; the
    summary database stores whole seconds, so no fraction is invented.
    """
    return datetime.fromtimestamp(int(unix), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
