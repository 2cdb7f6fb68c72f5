"""Fixtures for crawler tests: a fixture server and a one-call crawl against it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from crawling import FAST, Crawled, CrawlFn
from sites import FixtureServer, serve

from unob.crawler.fetch import MappedResolver
from unob.crawler.run import run_crawl
from unob.settings import load_crawl_settings


@pytest.fixture
def server() -> Iterator[FixtureServer]:
    with serve(FixtureServer()) as running:
        yield running


@pytest.fixture
def crawl(tmp_path: Path) -> CrawlFn:
    """``crawl(*seeds, db=None, **settings)``: run a crawl (fast settings) and return it."""

    def run(*seeds: str, db: Path | None = None, **overrides: object) -> Crawled:
        path = db or tmp_path / "crawl.db"
        settings = load_crawl_settings(None, {**FAST, "seeds": tuple(seeds), **overrides})
        report = run_crawl(settings, path, resolver=MappedResolver({"*": "127.0.0.1"}))
        return Crawled(report, path)

    return run
