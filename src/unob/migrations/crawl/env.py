"""Alembic environment of the crawl database (run by unob.db.open_database)."""

from unob.db import run_migrations_env
from unob.schema.crawl import metadata

run_migrations_env(metadata)
