"""docs/cli.md is generated from the typer app and cannot drift from it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from unob.docgen import render_cli, stale_docs

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_checked_in_cli_doc_is_current() -> None:
    path = DOCS / "cli.md"
    assert path.read_text(encoding="utf-8") == render_cli(), (
        f"{path} is stale: run `python -m unob.docgen`"
    )


def test_every_command_and_option_is_rendered() -> None:
    app = typer.Typer(add_completion=False)

    @app.command()
    def first(
        name: Annotated[str, typer.Argument(metavar="NAME", help="Who.")],
        count: Annotated[int, typer.Option("--count", min=1, help="How often.")] = 2,
        loud: Annotated[bool, typer.Option("--loud/--quiet", help="Volume.")] = False,
    ) -> None:
        """Greet someone.

        Twice by default.
        """

    @app.command(hidden=True)
    def secret() -> None:
        """Not for the docs."""

    @app.command()
    def second() -> None:
        """Do nothing."""

    text = render_cli(app)
    assert "## `unob first`" in text and "## `unob second`" in text
    assert "secret" not in text
    usage = next(line for line in text.splitlines() if line.startswith("Usage: unob first"))
    assert "[OPTIONS]" in usage and "NAME" in usage
    assert "Greet someone.\n\nTwice by default." in text
    assert any(
        row.startswith("| `NAME") and "| argument | Who." in row for row in text.splitlines()
    )
    assert "`--loud / --quiet`" in text
    assert "How often." in text and "[default: 2" in text


def test_stale_docs_names_files_that_differ(tmp_path: Path) -> None:
    docs = {"cli.md": "fresh\n", "schema/x.md": "same\n"}
    (tmp_path / "schema").mkdir()
    (tmp_path / "schema" / "x.md").write_text("same\n")
    (tmp_path / "cli.md").write_text("old\n")
    assert stale_docs(tmp_path, docs) == [tmp_path / "cli.md"]
