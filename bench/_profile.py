"""Where a crawler spends its CPU: py-spy's collapsed stacks, summed per function and file."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

# py-spy frames look like "name (path/file.py:123)"; the line number is dropped
# so that a function's samples add up wherever in it they landed.
_FRAME_LINE = re.compile(r"^(?P<func>.*) \((?P<file>[^()]*?)(?::\d+)?\)$")
# With --subprocesses py-spy roots each stack at a 'process PID:"cmdline"' frame.
_PROCESS_FRAME = re.compile(r"^process \d+:")
NO_PYTHON_FRAME = "(no Python frame: native code or the interpreter)"


def function_of(frame: str) -> str:
    match = _FRAME_LINE.match(frame.strip())
    if match is None:
        return frame.strip()
    return f"{match['func']} ({match['file']})"


def file_of(function: str) -> str:
    """The file part of a ``function_of`` name: ``parse (unob/x.py)`` -> ``unob/x.py``."""
    match = _FRAME_LINE.match(function)
    return match["file"] if match else function


@dataclass(frozen=True)
class Hotspots:
    samples: int
    self_time: list[tuple[str, int]]
    self_by_file: list[tuple[str, int]]
    inclusive: list[tuple[str, int]]  # functions of ``focus`` files only


def hotspots(collapsed_lines: Iterable[str], top: int = 15, focus: str = "unob/") -> Hotspots:
    """Top functions by self samples, files by self samples, and ``focus`` functions
    (default: unob's own) by inclusive samples.

    Each line is ``frame;frame;...;frame COUNT`` (root first), as py-spy's
    ``--format raw`` writes.  A recursive function counts once per stack.
    """
    own: Counter[str] = Counter()
    by_file: Counter[str] = Counter()
    total: Counter[str] = Counter()
    samples = 0
    for line in collapsed_lines:
        stack, _, count_text = line.rstrip("\n").rpartition(" ")
        if not count_text.isdigit():
            continue
        count = int(count_text)
        frames = [
            function_of(f) for f in stack.split(";") if f.strip() and not _PROCESS_FRAME.match(f)
        ]
        samples += count
        leaf = frames[-1] if frames else NO_PYTHON_FRAME
        own[leaf] += count
        by_file[file_of(leaf)] += count
        for name in set(frames):
            if file_of(name).startswith(focus):
                total[name] += count
    return Hotspots(samples, own.most_common(top), by_file.most_common(top), total.most_common(top))


def format_hotspots(spots: Hotspots) -> str:
    def pct(n: int) -> str:
        return f"{100 * n / spots.samples:5.1f}%" if spots.samples else "  n/a"

    def block(title: str, rows: list[tuple[str, int]]) -> list[str]:
        return ["", title, *(f"  {pct(n)}  {name}" for name, n in rows)]

    return "\n".join(
        [
            f"{spots.samples} samples (CPU only: py-spy skips idle threads)",
            *block("self time, by function:", spots.self_time),
            *block("self time, by file:", spots.self_by_file),
            *block("inclusive time of unob's own functions:", spots.inclusive),
        ]
    )
