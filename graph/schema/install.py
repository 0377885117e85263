"""``scholargraph db init``: constraints and indexes from the neomodel classes, then the rest."""

from __future__ import annotations

import asyncio
import io

from neo4j import GraphDatabase
from neomodel import db as neomodel_db

from scholargraph.graph import schema as _schema  # noqa: F401  (registers the node classes with neomodel)
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.taxonomy import all_categories
from scholargraph.queries import schema as schema_queries
from scholargraph.queries import taxonomy as taxonomy_queries


def _install_neomodel_labels(settings: Settings) -> str:
    driver = GraphDatabase.driver(settings.uri, auth=settings.auth)
    try:
        neomodel_db.set_connection(driver=driver)
        out = io.StringIO()
        neomodel_db.install_all_labels(stdout=out)
        return out.getvalue()
    finally:
        neomodel_db.close_connection()
        driver.close()


async def install_schema(settings: Settings, db: Database) -> None:
    """Install every constraint and index, idempotently, and seed the arXiv taxonomy."""
    await asyncio.to_thread(_install_neomodel_labels, settings)
    for query in schema_queries.EXTRA_SCHEMA:
        await db.run(query)
    await db.run(schema_queries.AWAIT_INDEXES)
    await seed_taxonomy(db)


async def seed_taxonomy(db: Database) -> None:
    categories = list(all_categories())
    archives = {c.archive: (c.archive_name, c.group) for c in categories}
    await db.run(
        taxonomy_queries.UPSERT_ARCHIVES,
        {"rows": [{"code": k, "name": n, "group": g} for k, (n, g) in sorted(archives.items())]},
    )
    await db.run(
        taxonomy_queries.UPSERT_CATEGORIES,
        {
            "rows": [
                {"code": c.code, "name": c.name, "archive": c.archive, "active": c.active}
                for c in categories
            ]
        },
    )
