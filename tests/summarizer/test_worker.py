"""Page claims shared by the writer and the derivation workers (unob.summarizer.worker)."""

from __future__ import annotations

from multiprocessing import get_context
from pathlib import Path
from typing import Any

from crawl_db_builder import CrawlDbBuilder, page

from unob.summarizer.crawlread import CrawlReader
from unob.summarizer.pipeline import _Derivation
from unob.summarizer.worker import (
    SLOTS,
    claim,
    close_claims,
    derive_pages,
    front_claims,
    open_claims,
)

SITE = "http://site.test"


def claims() -> Any:
    return get_context("spawn").Array("q", 3 * SLOTS)


def test_front_and_back_meet_and_every_page_is_claimed_once() -> None:
    shared = claims()
    open_claims(shared, 7, 5)
    taken = [
        claim(shared, 7, from_front=True),
        claim(shared, 7, from_front=False),
        claim(shared, 7, from_front=True),
        claim(shared, 7, from_front=False),
        claim(shared, 7, from_front=False),
    ]
    assert taken == [0, 4, 1, 3, 2]
    assert claim(shared, 7, from_front=True) is None
    assert claim(shared, 7, from_front=False) is None
    assert front_claims(shared, 7) == 2


def test_a_late_task_claims_nothing_from_a_reused_slot() -> None:
    shared = claims()
    open_claims(shared, 1, 3)
    open_claims(shared, 1 + SLOTS, 3)  # the slot went to a later batch
    assert claim(shared, 1, from_front=True) is None
    assert front_claims(shared, 1) == 0
    assert claim(shared, 1 + SLOTS, from_front=True) == 0


def test_an_empty_batch_has_nothing_to_claim() -> None:
    shared = claims()
    open_claims(shared, 2, 0)
    assert claim(shared, 2, from_front=False) is None


def entries(path: Path, n: int) -> list[Any]:
    with CrawlDbBuilder(path) as b:
        for i in range(n):
            b.add(f"{SITE}/{i}", at=i, body=page(f"P{i}", f"Text of page {i}."))
    reader = CrawlReader(path)
    try:
        return reader.read_batch(0, 100)
    finally:
        reader.close()


def test_pages_derived_from_both_ends_come_back_in_entry_order(tmp_path: Path) -> None:
    batch = entries(tmp_path / "crawl.db", 6)
    shared = claims()
    open_claims(shared, 3, len(batch))
    # A "worker" that took two pages from the front before the writer came.
    first = claim(shared, 3, from_front=True)
    second = claim(shared, 3, from_front=True)
    assert (first, second) == (0, 1)
    writer_part, _ = derive_pages(shared, 3, batch, from_front=False)
    assert sorted(i for i, _ in writer_part) == [2, 3, 4, 5]
    assert all(o.entry.file is not None and o.entry.file.data is None for _, o in writer_part)


def test_in_process_derivation_keeps_entry_order(tmp_path: Path) -> None:
    batch = entries(tmp_path / "crawl.db", 4)
    observed, cpu = _Derivation(batch, batch).result()
    assert [o.entry.url for o in observed] == [f"{SITE}/{i}" for i in range(4)]
    assert cpu >= 0


def test_closed_claims_stop_running_tasks() -> None:
    shared = claims()
    open_claims(shared, 5, 10)
    assert claim(shared, 5, from_front=True) == 0
    close_claims(shared)  # the run stopped early: nothing more to derive
    assert claim(shared, 5, from_front=True) is None
    assert claim(shared, 5, from_front=False) is None
