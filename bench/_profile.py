"""Where a crawler spends its CPU: py-spy's collapsed stacks, summed per function."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

# py-spy frames look like "name (path/file.py:123)"; the line number is dropped
# so that a function's samples add up wherever in it they landed.
_FRAME_LINE = re.compile(r"^(?P<func>.*) \((?P<file>[^()]*?)(?::\d+)?\)$")


def function_of(frame: str) -> str:
    match = _FRAME_LINE.match(frame.strip())
    if match is None:
        return frame.strip()
    return f"{match['func']} ({match['file']})"


@dataclass(frozen=True)
class Hotspots:
    samples: int
    self_time: list[tuple[str, int]]
    inclusive: list[tuple[str, int]]


def hotspots(collapsed_lines: Iterable[str], top: int = 15) -> Hotspots:
    """Top functions by self samples and by inclusive samples.

    Each line is ``frame;frame;...;frame COUNT`` (root first), as py-spy's
    ``--format raw`` writes.  A recursive function counts once per stack.
    """
    own: Counter[str] = Counter()
    total: Counter[str] = Counter()
    samples = 0
    for line in collapsed_lines:
        stack, _, count_text = line.rstrip("\n").rpartition(" ")
        if not count_text.isdigit():
            continue
        count = int(count_text)
        frames = [function_of(f) for f in stack.split(";") if f.strip()]
        samples += count
        if not frames:
            continue
        own[frames[-1]] += count
        for name in set(frames):
            total[name] += count
    return Hotspots(samples, own.most_common(top), total.most_common(top))


def format_hotspots(spots: Hotspots) -> str:
    def pct(n: int) -> str:
        return f"{100 * n / spots.samples:5.1f}%" if spots.samples else "  n/a"

    lines = [f"{spots.samples} samples (CPU only: py-spy skips idle threads)", "", "self time:"]
    lines += [f"  {pct(n)}  {name}" for name, n in spots.self_time]
    lines += ["", "inclusive time:"]
    lines += [f"  {pct(n)}  {name}" for name, n in spots.inclusive]
    return "\n".join(lines)
