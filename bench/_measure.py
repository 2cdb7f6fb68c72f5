"""Run one crawler in its own process and measure it: wall time, RSS over time, peak RSS.

Peak RSS comes from the kernel (``wait4``'s ``ru_maxrss``), so a spike between
two samples is not missed; the sampled series (psutil, the whole process tree)
shows the shape over time.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from _sites import BenchError

if TYPE_CHECKING:
    import psutil

MB = 1024 * 1024


@dataclass(frozen=True)
class Sample:
    """One look at the running process: seconds since start, RSS bytes, progress count."""

    t: float
    rss: int
    progress: int


@dataclass
class Measured:
    label: str
    argv: list[str]
    pid: int
    returncode: int
    wall_s: float
    peak_rss: int
    cpu_s: float
    # Epoch seconds when the process was reaped: the servers log epoch times,
    # so a crawl can be timed from its first request to its exit.
    ended_at: float
    # CPU seconds per thread of the crawler process (the last value seen while
    # it ran), keyed by thread id; the main thread's id is the pid.
    thread_cpu: dict[int, float] = field(default_factory=dict)
    samples: list[Sample] = field(default_factory=list)
    stdout_path: Path | None = None
    stderr_path: Path | None = None

    @property
    def peak_rss_mb(self) -> float:
        return self.peak_rss / MB

    @property
    def main_thread_cpu_s(self) -> float:
        return self.thread_cpu.get(self.pid, 0.0)

    @property
    def other_threads_cpu_s(self) -> float:
        return sum(cpu for tid, cpu in self.thread_cpu.items() if tid != self.pid)

    def stderr_tail(self, lines: int = 8) -> str:
        if self.stderr_path is None or not self.stderr_path.exists():
            return ""
        text = self.stderr_path.read_text(errors="replace").strip().splitlines()
        return "\n".join(text[-lines:])


def tree_rss(proc: psutil.Process) -> int:
    import psutil  # a bench extra: imported late so a missing one gets a clear message

    total = 0
    for p in [proc, *proc.children(recursive=True)]:
        try:
            total += p.memory_info().rss
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return total


def run_measured(
    label: str,
    argv: Sequence[str],
    *,
    workdir: Path,
    env: Mapping[str, str] | None = None,
    progress: Callable[[], int] | None = None,
    report: Callable[[Sample], None] | None = None,
    interval: float = 0.2,
    report_every: float = 5.0,
    timeout: float = 1800.0,
) -> Measured:
    """Run ``argv`` to completion, sampling RSS (and ``progress()``) every ``interval`` s.

    ``report`` is called about every ``report_every`` s with the latest sample,
    for the progress lines the harness prints.  Exceeding ``timeout`` kills the
    process group and raises ``BenchError``.
    """
    import psutil

    workdir.mkdir(parents=True, exist_ok=True)
    stdout_path = workdir / f"{label}.stdout.log"
    stderr_path = workdir / f"{label}.stderr.log"
    with stdout_path.open("wb") as out, stderr_path.open("wb") as err:
        start = time.perf_counter()
        # Own session: a timeout can kill the crawler and anything it started.
        popen = subprocess.Popen(
            list(argv),
            stdout=out,
            stderr=err,
            stdin=subprocess.DEVNULL,
            env=dict(env) if env is not None else None,
            start_new_session=True,
        )
        ps = psutil.Process(popen.pid)
        samples: list[Sample] = []
        thread_cpu: dict[int, float] = {}
        last_report = start
        try:
            while True:
                # wait4 rather than Popen.poll: it hands back the child's rusage.
                pid, status, rusage = os.wait4(popen.pid, os.WNOHANG)
                now = time.perf_counter()
                if pid == popen.pid:
                    popen.returncode = os.waitstatus_to_exitcode(status)
                    break
                try:
                    rss = tree_rss(ps)
                    for thread in ps.threads():
                        thread_cpu[thread.id] = thread.user_time + thread.system_time
                except psutil.NoSuchProcess:
                    rss = 0
                sample = Sample(now - start, rss, progress() if progress else 0)
                samples.append(sample)
                if report is not None and now - last_report >= report_every:
                    report(sample)
                    last_report = now
                if now - start > timeout:
                    raise BenchError(f"{label} ran over {timeout:.0f} s and was killed")
                time.sleep(interval)
        except BaseException:
            # Timeout, Ctrl-C (the child has its own session, so it did not get
            # the SIGINT) or a failed progress probe: leave no crawler behind.
            if popen.returncode is None:
                os.killpg(popen.pid, signal.SIGKILL)
                os.wait4(popen.pid, 0)
                popen.returncode = -signal.SIGKILL
            raise
        wall = time.perf_counter() - start
        ended_at = time.time()
    # ru_maxrss is in KiB on Linux.
    peak = max(rusage.ru_maxrss * 1024, max((s.rss for s in samples), default=0))
    if progress is not None:
        samples.append(Sample(wall, samples[-1].rss if samples else 0, progress()))
    return Measured(
        label=label,
        argv=list(argv),
        pid=popen.pid,
        returncode=popen.returncode,
        wall_s=wall,
        peak_rss=peak,
        # User + system CPU of the crawler: on a machine shared with other
        # work, CPU per page moves far less than pages per wall-clock second.
        cpu_s=rusage.ru_utime + rusage.ru_stime,
        thread_cpu=thread_cpu,
        ended_at=ended_at,
        samples=samples,
        stdout_path=stdout_path,
        stderr_path=stderr_path,
    )


def require_success(run: Measured) -> Measured:
    if run.returncode != 0:
        tail = run.stderr_tail()
        raise BenchError(
            f"{run.label} exited with status {run.returncode}"
            f" (log: {run.stderr_path})" + (f"\n{tail}" if tail else "")
        )
    return run
