"""Fixtures of the query tests: the fixture databases, built once per session."""

from __future__ import annotations

from pathlib import Path

import pytest
from query_fixtures import build_crawl_db


@pytest.fixture(scope="session")
def crawl_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The crawl story of query_fixtures (read it, never write it)."""
    return build_crawl_db(tmp_path_factory.mktemp("query") / "crawl.db")
