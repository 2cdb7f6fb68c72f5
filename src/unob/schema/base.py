"""Tables that both databases have: ``database_info``, ``origin``, ``url`` and the lookups."""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Integer, MetaData, Table, Text

DATABASE_KINDS = ("crawl", "summary")

# One naming convention for both databases so constraint names are stable
# across migrations (Alembic needs names to alter SQLite tables in batch mode).
NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def new_metadata() -> MetaData:
    return MetaData(naming_convention=NAMING_CONVENTION)


def add_base_tables(metadata: MetaData) -> None:
    """Add the tables shared by the crawl and the summary database to ``metadata``."""
    Table(
        "database_info",
        metadata,
        Column("key", Text, primary_key=True, comment="setting name"),
        Column("value", Text, nullable=False, comment="setting value"),
        comment=(
            "What this database is. Keys: `kind` (`crawl` or `summary`; unob refuses to open "
            "a database as the other kind), `database_uuid`, `created_unix_utc`, "
            "`created_by` (unob version that created it). The schema revision is Alembic's "
            "`alembic_version` table."
        ),
    )
    Table(
        "origin",
        metadata,
        Column("origin_id", Integer, primary_key=True),
        Column("scheme", Text, nullable=False, comment="`http` or `https`"),
        Column("host", Text, nullable=False, comment="lower-case host name, IDNA-encoded"),
        Column(
            "port",
            Integer,
            nullable=True,
            comment="explicit port; NULL = the scheme's default port (80, 443)",
        ),
        Column(
            "str_origin",
            Text,
            nullable=False,
            unique=True,
            comment="`scheme://host[:port]`, the origin as text (unique)",
        ),
        comment="A web origin: scheme + host + port (RFC 6454). One crawl politeness unit.",
    )
    Table(
        "url",
        metadata,
        Column("url_id", Integer, primary_key=True),
        Column(
            "origin_id",
            Integer,
            ForeignKey("origin.origin_id"),
            nullable=False,
            index=True,
            comment="the URL's origin",
        ),
        Column(
            "str_url",
            Text,
            nullable=False,
            unique=True,
            comment="the canonical URL without fragment (unique)",
        ),
        comment=(
            "A URL without its fragment, in canonical form (lower-case scheme and host, no "
            "default port, normalized percent-encoding and dot segments)."
        ),
    )
    for name, what in (
        ("exit_code", "crawl outcomes"),
        ("crawl_type", "crawl types"),
        ("scheduling_reason", "why a URL was scheduled"),
        ("information_source", "where a redirect was signalled"),
    ):
        Table(
            name,
            metadata,
            Column("code", Integer, primary_key=True, comment="the number stored in data tables"),
            Column("name", Text, nullable=False, unique=True, comment="short name"),
            Column("meaning", Text, nullable=False, comment="what it means"),
            comment=f"Lookup table of {what}: join on `code` to get names.",
        )
