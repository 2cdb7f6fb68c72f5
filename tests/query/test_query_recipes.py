"""Every recipe in docs/sql-recipes.md runs, read-only, and returns what it says."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from unob.query.readonly import ReadOnlyConnection

RECIPES_MD = Path(__file__).resolve().parents[2] / "docs" / "sql-recipes.md"
_BLOCK = re.compile(r"^### (?P<title>.+?)\n.*?^```sql\n(?P<sql>.*?)^```", re.S | re.M)


@dataclass(frozen=True)
class Recipe:
    title: str
    database: str
    columns: list[str]
    sql: str


def recipes() -> list[Recipe]:
    found = []
    for match in _BLOCK.finditer(RECIPES_MD.read_text(encoding="utf-8")):
        sql = match.group("sql")
        header = dict(re.findall(r"^-- (database|columns): (.+)$", sql, re.M))
        found.append(
            Recipe(
                match.group("title"),
                header.get("database", "").strip(),
                [c.strip() for c in header.get("columns", "").split(",")],
                sql,
            )
        )
    return found


def test_there_are_enough_recipes_and_every_sql_block_is_one() -> None:
    text = RECIPES_MD.read_text(encoding="utf-8")
    assert len(recipes()) >= 15
    assert text.count("```sql") == len(recipes())


@pytest.mark.parametrize("recipe", recipes(), ids=lambda r: r.title)
def test_recipe_runs_and_returns_its_columns(
    recipe: Recipe, crawl_db: Path, summary_db: Path
) -> None:
    assert recipe.database in ("crawl", "summary"), f"{recipe.title}: no '-- database:' line"
    db = crawl_db if recipe.database == "crawl" else summary_db
    with ReadOnlyConnection(db) as conn:
        cursor = conn.execute(recipe.sql)
        assert [d[0] for d in cursor.description] == recipe.columns
        rows = cursor.fetchall()
    assert rows, f"{recipe.title}: no rows on the fixture databases"
