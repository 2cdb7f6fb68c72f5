"""Helpers shared by the crawler tests (imported by name: a test must not import conftest,
whose module name every test directory shares)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from unob.crawler.run import CrawlReport

TEST_UA = "unobtest/1.0 (+http://example.invalid/crawler)"

# Fast and deterministic: no minimum delay, every computed wait (Retry-After,
# Crawl-delay, robots.txt retry) a thousand times shorter.
FAST = {"delay_ms": 0, "time_scale": 0.001, "user_agent": TEST_UA, "concurrency": 4}


@dataclass
class Crawled:
    """A finished crawl: its report and its database."""

    report: CrawlReport
    db: Path

    def rows(self, sql: str, *params: object) -> list[tuple[Any, ...]]:
        with sqlite3.connect(self.db) as conn:
            return conn.execute(sql, params).fetchall()

    def exit_codes(self) -> dict[str, list[int]]:
        """Page/image URL -> exit codes of its entries, in order (robots.txt fetches left out)."""
        out: dict[str, list[int]] = {}
        for url, code in self.rows(
            "SELECT u.str_url, e.exit_code FROM crawl_log_entry e JOIN url u USING (url_id) "
            "WHERE e.crawl_type != 1 ORDER BY e.crawl_log_entry_id"
        ):
            out.setdefault(url, []).append(code)
        return out

    def stored_pages(self) -> set[str]:
        return {
            url
            for (url,) in self.rows(
                "SELECT DISTINCT u.str_url FROM file_info f JOIN url u USING (url_id) "
                "WHERE f.file_content_id IS NOT NULL"
            )
        }


CrawlFn = Callable[..., Crawled]
