"""link_summary.flags: one bitmask, every flag still a column of its own name (migration s0003)."""

from __future__ import annotations

import random
import re
import sqlite3
from pathlib import Path

import pytest
from alembic import command
from crawl_db_builder import CrawlDbBuilder, page
from summary_dump import rows

from unob.db import alembic_config, make_engine, open_database
from unob.schema.summary import LINK_FLAGS
from unob.summarizer import summarize
from unob.summarizer.document import LINK_FLAG_NAMES

DOCS = Path(__file__).resolve().parents[2] / "docs" / "summarizer.md"
SITE = "http://site.test"


def documented_bits() -> dict[str, int]:
    """``column -> bit`` from the bit table of docs/summarizer.md ("Link flags")."""
    section = DOCS.read_text(encoding="utf-8").split("## Link flags", 1)[1].split("\n## ", 1)[0]
    found: dict[str, int] = {}
    for bit, value, name in re.findall(r"\| (\d+) \| (\d+) \| `(\w+)` \|", section):
        assert int(value) == 1 << int(bit), name
        found[name] = int(bit)
    return found


def test_documented_bits_are_the_code_and_schema_order() -> None:
    bits = documented_bits()
    assert sorted(bits.values()) == list(range(24))
    by_bit = sorted(bits, key=bits.__getitem__)
    assert by_bit == list(LINK_FLAG_NAMES)  # what observe packs
    assert by_bit == [name for name, _ in LINK_FLAGS]  # what the schema module declares


def _summary_db_at(path: Path, revision: str) -> None:
    """A summary DB migrated only up to ``revision`` (as an older unob left it)."""
    engine = make_engine(path, readonly=False)
    with engine.begin() as conn:
        command.upgrade(alembic_config("summary", conn), revision)
        conn.exec_driver_sql("INSERT INTO database_info (key, value) VALUES ('kind', 'summary')")
    engine.dispose()


def _add_parents(conn: sqlite3.Connection, generations: int, urls: int) -> None:
    conn.execute(
        "INSERT INTO origin (origin_id, scheme, host, port, str_origin) "
        "VALUES (1, 'http', 'site.test', NULL, 'http://site.test')"
    )
    conn.executemany(
        "INSERT INTO url (url_id, origin_id, str_url) VALUES (?, 1, ?)",
        [(u, f"{SITE}/{u}") for u in range(1, urls + 1)],
    )
    conn.executemany(
        "INSERT INTO entity_generation (entity_generation_id, entity_generation_uuid, url_id,"
        " kind, first_seen_unix_utc, last_seen_unix_utc, content_signature)"
        " VALUES (?, ?, ?, 'page', 1000, 1000, ?)",
        [(g, f"uuid-{g}", g, bytes(16)) for g in range(1, generations + 1)],
    )


def _flag_patterns() -> list[tuple[int, ...]]:
    """None, all, each flag alone, and some random mixes (as 24 0/1 values)."""
    rng = random.Random(3)
    patterns = [tuple([0] * 24), tuple([1] * 24)]
    patterns += [tuple(int(i == k) for i in range(24)) for k in range(24)]
    patterns += [tuple(rng.randint(0, 1) for _ in range(24)) for _ in range(30)]
    return patterns


def test_s0002_link_rows_migrate_to_the_same_flags(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    _summary_db_at(path, "s0002")
    names = ", ".join(LINK_FLAG_NAMES)
    read_flags = (
        f"SELECT entity_generation_id, position, to_url_id, to_url_fragment, text, kind,"
        f" locality, rel, {names} FROM link_summary ORDER BY entity_generation_id, position"
    )
    graph = "SELECT * FROM link_graph ORDER BY from_entity_generation_id, position"
    patterns = _flag_patterns()
    conn = sqlite3.connect(path)
    with conn:
        _add_parents(conn, generations=2, urls=3)
        conn.executemany(
            f"INSERT INTO link_summary (entity_generation_id, position, to_url_id,"
            f" to_url_fragment, text, kind, locality, rel, {names})"
            f" VALUES (?, ?, ?, ?, ?, 'a', ?, ?, {', '.join('?' * 24)})",
            [
                (
                    1 + i % 2,
                    i,
                    1 + i % 3,
                    f"f{i}" if i % 5 == 0 else None,
                    f"link {i}",
                    "in",
                    "nofollow" if flags[0] else None,
                    *flags,
                )
                for i, flags in enumerate(patterns)
            ],
        )
    before, graph_before = conn.execute(read_flags).fetchall(), conn.execute(graph).fetchall()
    conn.close()
    assert len(before) == len(patterns)

    open_database(path, "summary").dispose()  # a writer opening it upgrades it

    conn = sqlite3.connect(path)
    assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [("s0003",)]
    assert conn.execute(read_flags).fetchall() == before
    assert conn.execute(graph).fetchall() == graph_before  # the s0002 view reads the new table
    stored = conn.execute("SELECT flags FROM link_summary ORDER BY 1").fetchall()
    expected = sorted(sum(v << k for k, v in enumerate(flags)) for flags in patterns)
    assert [f for (f,) in stored] == expected
    # The rebuilt table keeps its key, its foreign keys, its index and no rowid.
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    (sql,) = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'link_summary'").fetchone()
    assert "WITHOUT ROWID" in sql and "PRIMARY KEY (entity_generation_id, position)" in sql
    assert {(r[2], r[3]) for r in conn.execute("PRAGMA foreign_key_list(link_summary)")} == {
        ("entity_generation", "entity_generation_id"),
        ("url", "to_url_id"),
    }
    assert [r[1] for r in conn.execute("PRAGMA index_list(link_summary)") if r[3] == "c"] == [
        "ix_link_summary_to_url_id"
    ]
    with pytest.raises(sqlite3.OperationalError, match="generated column"):
        conn.execute("UPDATE link_summary SET in_nav = 1")
    conn.close()


def test_each_bit_reads_as_the_documented_column(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    open_database(path, "summary").dispose()  # made from the schema snapshot
    bits = documented_bits()
    conn = sqlite3.connect(path)
    with conn:
        _add_parents(conn, generations=1, urls=1)
        conn.executemany(
            "INSERT INTO link_summary (entity_generation_id, position, to_url_id, text, kind,"
            " locality, flags) VALUES (1, ?, 1, '', 'a', 'in', ?)",
            [(bit, 1 << bit) for bit in range(24)],
        )
    names = sorted(bits)
    for position, *values in conn.execute(
        f"SELECT position, {', '.join(names)} FROM link_summary ORDER BY position"
    ):
        assert {name for name, v in zip(names, values, strict=True) if v} == {
            name for name in names if bits[name] == position
        }
        assert set(values) == {0, 1}
    conn.close()


def test_summarized_links_read_through_the_flag_columns(tmp_path: Path) -> None:
    crawl_db, summary_db = tmp_path / "crawl.db", tmp_path / "summary.db"
    with CrawlDbBuilder(crawl_db) as b:
        b.add(f"{SITE}/p", at=1, body=page("P", "Some text.", links=("/a",)))
    summarize([crawl_db], summary_db)
    # page(): the links are <li>s of a <nav>, nothing in the <main>.
    assert (
        rows(
            summary_db,
            "SELECT in_nav, in_list, in_main, in_article, rel_nofollow, flags = 128 | 16384"
            " FROM link_summary",
        )
        == [(1, 1, 0, 0, 0, 1)] * 2
    )
