"""Fixtures of the query tests: the fixture databases, built once per session."""

from __future__ import annotations

from pathlib import Path

import pytest
from query_fixtures import build_crawl_db


@pytest.fixture(scope="session")
def crawl_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The crawl story of query_fixtures (read it, never write it)."""
    return build_crawl_db(tmp_path_factory.mktemp("query") / "crawl.db")


@pytest.fixture(scope="session")
def summary_db(crawl_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The crawl story summarized by the real summarizer (read it, never write it)."""
    from unob.summarizer import summarize

    path = tmp_path_factory.mktemp("query-summary") / "summary.db"
    summarize([crawl_db], path)
    return path


@pytest.fixture(scope="session")
def search_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """SEARCH_PAGES crawled, then summarized by the real summarizer."""
    from query_fixtures import build_search_crawl_db

    from unob.summarizer import summarize

    base = tmp_path_factory.mktemp("query-search")
    crawl = build_search_crawl_db(base / "crawl.db")
    summarize([crawl], base / "summary.db")
    return base / "summary.db"
