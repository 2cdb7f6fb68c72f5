"""Alembic environment of the summary database (run by unob.db.open_database)."""

from unob.db import run_migrations_env
from unob.schema.summary import metadata

run_migrations_env(metadata)
