"""Print a draft Alembic migration: what it takes to bring a database at the
current head revision to the tables declared in ``unob.schema.<kind>``.

    .venv/bin/python scripts/migration_draft.py crawl|summary > draft.txt

Paste the draft into a new file under ``src/unob/migrations/<kind>/versions``
and review it: column comments are left out on purpose (SQLite does not store
them; they live in ``unob.schema`` and ``docs/schema``).
"""

from __future__ import annotations

import importlib
import re
import sys
import tempfile
from pathlib import Path

from alembic import command
from alembic.autogenerate import produce_migrations, render_python_code
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from unob.db import alembic_config, make_engine, managed_only


def main(kind: str) -> None:
    metadata = importlib.import_module(f"unob.schema.{kind}").metadata
    with tempfile.TemporaryDirectory() as tmp:
        engine = make_engine(Path(tmp) / "draft.db", readonly=False)
        with engine.begin() as conn:
            if ScriptDirectory.from_config(alembic_config(kind)).get_current_head():
                command.upgrade(alembic_config(kind, conn), "head")
            context = MigrationContext.configure(
                conn, opts={"render_as_batch": True, "include_object": managed_only}
            )
            ops = produce_migrations(context, metadata)
        engine.dispose()
    for name, part in (("upgrade", ops.upgrade_ops), ("downgrade", ops.downgrade_ops)):
        code = render_python_code(part, render_as_batch=True)
        code = re.sub(r",\s*comment=(\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*')", "", code)
        code = re.sub(r"\n\s*comment=(\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*')\n", "\n", code)
        print(f"# {name}\n{code}\n")


if __name__ == "__main__":
    main(sys.argv[1])
