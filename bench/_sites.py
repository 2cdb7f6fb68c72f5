"""The sites the crawl benchmark crawls, all on 127.0.0.1.

* python3-doc: Debian's Python documentation (about 530 Sphinx pages), served
  by nginx.  ``python -m http.server`` tops out far below what a crawler can
  take, so it would measure itself; nginx with one worker serves thousands of
  pages/s here (the harness shows it with a fetch-only loop).  None of the
  packages ships a robots.txt, so the harness serves one that allows all.
* the synthetic site (``_synthetic.py``): one aiohttp process answering for
  50 host names.

Each server logs what it served, so every crawler is timed by the same
neutral clock: the server's, from the first request to the last.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from _synthetic import ROBOTS_ALLOW_ALL, SiteShape

BENCH_DIR = Path(__file__).resolve().parent
WORK_DIR = BENCH_DIR / ".work"
PYTHON3_DOC_ROOT = Path("/usr/share/doc/python3/html")
NGINX_BINARY = "nginx"


class BenchError(Exception):
    """A benchmark step failed; the message says which and why."""


def _root_prefix() -> list[str]:
    if os.geteuid() == 0:
        return []
    if shutil.which("sudo"):
        return ["sudo", "-n"]
    raise BenchError("installing Debian packages needs root (or passwordless sudo)")


def ensure_debian_packages(packages: dict[str, Path]) -> None:
    """apt-get install each package whose marker path is missing.

    ``apt-get update`` runs first only when something is missing: a fresh
    machine's package lists may be empty or stale, and the install would fail.
    """
    missing = [name for name, marker in packages.items() if not marker.exists()]
    if not missing:
        return
    if shutil.which("apt-get") is None:
        raise BenchError(f"{', '.join(missing)} missing and apt-get not found: install them")
    prefix = _root_prefix()
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    print(f"installing Debian packages: {' '.join(missing)}", flush=True)
    for argv in (["apt-get", "update", "-q"], ["apt-get", "install", "-y", "-q", *missing]):
        done = subprocess.run(prefix + argv, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            tail = "\n".join(done.stderr.strip().splitlines()[-5:])
            raise BenchError(f"`{' '.join(argv)}` failed ({done.returncode}):\n{tail}")
    still = [name for name, marker in packages.items() if not marker.exists()]
    if still:
        raise BenchError(f"installed {', '.join(still)} but {packages[still[0]]} is still missing")


def ensure_python3_doc_site() -> Path:
    nginx = shutil.which(NGINX_BINARY) or "/usr/sbin/nginx"
    ensure_debian_packages({"python3-doc": PYTHON3_DOC_ROOT, "nginx-light": Path(nginx)})
    return PYTHON3_DOC_ROOT


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for_port(port: int, proc: subprocess.Popen[bytes], what: str, timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise BenchError(f"{what} exited with status {proc.returncode} before listening")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise BenchError(f"{what} did not listen on 127.0.0.1:{port} within {timeout:.0f} s")


def stop_process(proc: subprocess.Popen[bytes], grace: float = 5) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@dataclass(frozen=True)
class Served:
    """One request as the server saw it."""

    at: float
    status: int
    bytes: int
    content_type: str
    path: str

    @property
    def is_page(self) -> bool:
        return self.status == 200 and self.content_type.startswith("text/html")


# nginx's $msec is the time the response finished, in seconds with ms precision.
NGINX_LOG_FORMAT = '$msec $status $body_bytes_sent "$sent_http_content_type" "$request_uri"'


def parse_nginx_log_line(line: str) -> Served | None:
    """One ``NGINX_LOG_FORMAT`` line, or None if it is not one."""
    try:
        at, status, size, rest = line.split(" ", 3)
        content_type, _, path = rest.partition('" "')
        return Served(
            at=float(at),
            status=int(status),
            bytes=int(size),
            content_type=content_type.removeprefix('"'),
            path=path.rstrip().removesuffix('"'),
        )
    except ValueError:
        return None


@dataclass(frozen=True)
class ServedSummary:
    """``pages`` counts distinct HTML URLs: fetching a page twice is no progress."""

    pages: int
    page_responses: int
    requests: int
    bytes: int
    first: float | None
    last: float | None

    @property
    def seconds(self) -> float:
        if self.first is None or self.last is None:
            return 0.0
        return self.last - self.first

    @property
    def pages_per_s(self) -> float:
        return self.pages / self.seconds if self.seconds > 0 else 0.0


def summarize_served(entries: list[Served]) -> ServedSummary:
    pages = [e for e in entries if e.is_page]
    return ServedSummary(
        pages=len({e.path for e in pages}),
        page_responses=len(pages),
        requests=len(entries),
        bytes=sum(e.bytes for e in pages),
        first=min((e.at for e in entries), default=None),
        last=max((e.at for e in entries), default=None),
    )


class NginxSite:
    """nginx serving one directory on 127.0.0.1 with a bench robots.txt.

    One instance per crawler run, so each run has its own access log.
    """

    def __init__(self, root: Path, workdir: Path) -> None:
        self.root = root
        self.workdir = workdir
        self.port = free_port()
        self.access_log = workdir / "access.log"
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def _config(self) -> str:
        w = self.workdir
        temp_paths = "\n".join(
            f"  {kind}_temp_path {w / 'tmp' / kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        return f"""\
worker_processes 1;
daemon off;
pid {w / "nginx.pid"};
error_log {w / "error.log"} warn;
events {{ worker_connections 1024; }}
http {{
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  sendfile on;
  tcp_nopush on;
  keepalive_timeout 65;
  keepalive_requests 1000000;
{temp_paths}
  log_format bench '{NGINX_LOG_FORMAT}';
  access_log {self.access_log} bench;
  server {{
    listen 127.0.0.1:{self.port};
    root {self.root};
    index index.html;
    location = /robots.txt {{ alias {w / "robots.txt"}; default_type text/plain; }}
  }}
}}
"""

    def __enter__(self) -> NginxSite:
        if self.workdir.exists():
            shutil.rmtree(self.workdir)
        (self.workdir / "tmp").mkdir(parents=True)
        (self.workdir / "robots.txt").write_text(ROBOTS_ALLOW_ALL)
        conf = self.workdir / "nginx.conf"
        conf.write_text(self._config())
        nginx = shutil.which(NGINX_BINARY) or "/usr/sbin/nginx"
        self._proc = subprocess.Popen(
            [nginx, "-p", str(self.workdir), "-c", str(conf)],
            stdout=subprocess.DEVNULL,
            stderr=(self.workdir / "stderr.log").open("wb"),
        )
        try:
            wait_for_port(self.port, self._proc, "nginx")
        except BenchError as exc:
            stop_process(self._proc)
            log = (self.workdir / "stderr.log").read_text(errors="replace").strip()
            raise BenchError(f"{exc}: {log[-400:]}") from None
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._proc is not None:
            stop_process(self._proc)

    def requests_so_far(self) -> int:
        """Cheap progress probe: lines in the access log."""
        try:
            with self.access_log.open("rb") as log:
                return sum(chunk.count(b"\n") for chunk in iter(lambda: log.read(1 << 16), b""))
        except FileNotFoundError:
            return 0

    def served(self) -> list[Served]:
        entries = []
        with self.access_log.open(encoding="utf-8", errors="replace") as log:
            for line in log:
                entry = parse_nginx_log_line(line)
                if entry is not None:
                    entries.append(entry)
        return entries


@dataclass(frozen=True)
class SyntheticStats:
    pages: int  # distinct pages served
    page_responses: int
    bytes: int
    first: float | None
    last: float | None
    hosts_touched: int


class SyntheticSite:
    """``_synthetic.py`` in its own process (so it does not share the crawler's core)."""

    def __init__(self, shape: SiteShape, workdir: Path) -> None:
        self.shape = shape
        self.workdir = workdir
        self.port = free_port()
        self._proc: subprocess.Popen[bytes] | None = None

    def seeds(self) -> list[str]:
        return [f"http://{name}:{self.port}/" for name in self.shape.host_names()]

    def __enter__(self) -> SyntheticSite:
        self.workdir.mkdir(parents=True, exist_ok=True)
        self._proc = subprocess.Popen(
            [
                sys.executable,
                str(BENCH_DIR / "_synthetic.py"),
                "--port",
                str(self.port),
                "--hosts",
                str(self.shape.hosts),
                "--pages-per-host",
                str(self.shape.pages_per_host),
            ],
            stdout=subprocess.DEVNULL,
            stderr=(self.workdir / "server.stderr.log").open("wb"),
        )
        wait_for_port(self.port, self._proc, "synthetic site server")
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._proc is not None:
            stop_process(self._proc)

    def stats(self) -> SyntheticStats:
        url = f"http://127.0.0.1:{self.port}/__bench/stats"
        # An empty ProxyHandler: an http_proxy in the environment must not
        # send a loopback request anywhere else.
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(url, timeout=5) as resp:
            data = json.load(resp)
        return SyntheticStats(
            pages=int(data["distinct_pages"]),
            page_responses=int(data["pages"]),
            bytes=int(data["bytes"]),
            first=data["first"],
            last=data["last"],
            hosts_touched=int(data["hosts_touched"]),
        )


def crawl_python3_doc(db: Path, unob: str, *, images: bool, work: Path) -> Path:
    """Crawl python3-doc from nginx on 127.0.0.1 into ``db`` with ``unob crawl``, once.

    The crawl goes to a temporary file renamed at the end, so an interrupted
    run is never mistaken for a finished one; an existing ``db`` is reused.
    Shared by the benches that need a real crawl DB (summarize, export, search).
    """
    if db.exists():
        return db
    root = ensure_python3_doc_site()
    tmp = db.with_name(db.name + ".partial")
    for suffix in ("", "-wal", "-shm"):
        Path(f"{tmp}{suffix}").unlink(missing_ok=True)
    with NginxSite(root, work / "nginx") as site:
        done = subprocess.run(
            [
                unob,
                "crawl",
                site.base_url,
                "--db",
                str(tmp),
                "--delay-ms",
                "0",
                "--concurrency",
                "16",
                "--per-origin-concurrency",
                "16",
                "--images" if images else "--no-images",
                "--quiet",
            ],
            capture_output=True,
            text=True,
            timeout=1800,
        )
    if done.returncode != 0:
        raise BenchError(f"unob crawl failed: {done.stderr.strip()[-300:]}")
    for suffix in ("-wal", "-shm"):
        Path(f"{tmp}{suffix}").unlink(missing_ok=True)
    tmp.rename(db)
    return db
