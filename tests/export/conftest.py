"""Fixtures of the export tests."""

from __future__ import annotations

import pytest
from export_helpers import make_page

from unob.export.records import PageRecord


@pytest.fixture
def page() -> PageRecord:
    return make_page()
