#!/usr/bin/env python3
"""Search snippets on pages full of the searched words: FTS5 ``snippet()`` against
:mod:`unob.query.snippet`, which `unob search` uses since FTS5's took minutes.

Each page is ``"alpha beta gamma "`` repeated; the query is ``alpha beta``.  FTS5's
``snippet()`` scores passages against every match, so its time grows with the square
of the matches; it is skipped above ``--fts5-max`` repeats (it would take hours).

    .venv/bin/python bench/snippets.py
"""

from __future__ import annotations

import argparse
import sqlite3
import time

from unob.query.snippet import query_terms, snippet_of

SNIPPET_TOKENS = 24


def fts5_snippet_ms(text: str) -> float:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='unicode61 remove_diacritics 2')")
    conn.execute("INSERT INTO t (rowid, x) VALUES (1, ?)", (text,))
    started = time.perf_counter()
    conn.execute(
        f"SELECT snippet(t, 0, '[', ']', '…', {SNIPPET_TOKENS}) FROM t "
        "WHERE t MATCH 'alpha AND beta' AND rowid = 1"
    ).fetchone()
    elapsed = time.perf_counter() - started
    conn.close()
    return elapsed * 1000


def unob_snippet_ms(text: str) -> float:
    terms = query_terms(["alpha", "beta"])
    started = time.perf_counter()
    snippet_of([text], terms, SNIPPET_TOKENS)
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, nargs="+", default=[1_000, 5_000, 20_000, 700_000])
    parser.add_argument("--fts5-max", type=int, default=20_000)
    args = parser.parse_args()
    print("| page | occurrences of each word | FTS5 snippet() ms | unob.query.snippet ms |")
    print("|---|---|---|---|")
    for repeats in args.repeats:
        text = "alpha beta gamma " * repeats
        fts5 = f"{fts5_snippet_ms(text):.1f}" if repeats <= args.fts5_max else "(skipped)"
        print(f"| {len(text) / 1e6:.2f} MB | {repeats:,} | {fts5} | {unob_snippet_ms(text):.2f} |")


if __name__ == "__main__":
    main()
