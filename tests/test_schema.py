"""The schema on the real database: neomodel writes, the driver reads, constraints hold."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import date

import pytest
from neo4j import GraphDatabase
from neomodel import db as neomodel_db
from neomodel.exceptions import UniqueProperty

from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.errors import ConstraintViolation
from scholargraph.graph.schema import Category, Paper, Researcher
from scholargraph.graph.schema.install import install_schema
from scholargraph.graph.stats import graph_stats
from scholargraph.queries import Query
from scholargraph.queries import schema as schema_queries


@pytest.fixture
def neomodel_connection(schema_ready: Settings, db: Database) -> Iterator[None]:
    driver = GraphDatabase.driver(schema_ready.uri, auth=schema_ready.auth)
    neomodel_db.set_connection(driver=driver)
    try:
        yield
    finally:
        neomodel_db.close_connection()
        driver.close()


@pytest.mark.usefixtures("neomodel_connection")
def test_neomodel_writes_what_the_driver_reads(schema_ready: Settings) -> None:
    paper = Paper(
        key="2301.08658",
        arxiv_id="2301.08658",
        title="ATP: Adaptive Tensor Parallelism for Foundation Models",
        published=date(2023, 1, 20),
        primary_category="cs.DC",
    ).save()
    ziming = Researcher(public_id=2004394, slug="ziming-liu", name="Ziming Liu").save()
    ziming.papers.connect(
        paper,
        {
            "position": 2,
            "kind": "middle",
            "raw_name": "Ziming Liu",
            "origin": "arxiv",
            "method": "new",
        },
    )
    paper.categories.connect(Category.nodes.get(code="cs.DC"), {"primary": True})

    with GraphDatabase.driver(schema_ready.uri, auth=schema_ready.auth) as driver:
        records = driver.execute_query(
            "MATCH (r:Researcher {id: $id})-[a:AUTHORED]->(p:Paper)-[c:IN_CATEGORY]->(cat) "
            "RETURN r.name AS name, a.position AS position, a.source AS source, "
            "p.arxiv_id AS arxiv_id, p.title AS title, c.primary AS primary, cat.code AS code",
            id=2004394,
        ).records
    assert [r.data() for r in records] == [
        {
            "name": "Ziming Liu",
            "position": 2,
            "source": "arxiv",
            "arxiv_id": "2301.08658",
            "title": "ATP: Adaptive Tensor Parallelism for Foundation Models",
            "primary": True,
            "code": "cs.DC",
        }
    ]


@pytest.mark.usefixtures("neomodel_connection")
def test_a_duplicate_key_through_neomodel_is_refused() -> None:
    Paper(key="astro-ph/9901001", arxiv_id="astro-ph/9901001", title="One").save()
    with pytest.raises(UniqueProperty, match="astro-ph/9901001"):
        Paper(key="astro-ph/9901001", arxiv_id="astro-ph/9901001", title="Two").save()


async def test_a_duplicate_key_through_the_driver_is_a_clear_error(db: Database) -> None:
    create = Query("test.create_researcher", "CREATE (:Researcher {id: $id, name: $name})", "write")
    await db.run(create, {"id": 7, "name": "Ada"})
    with pytest.raises(ConstraintViolation, match="already exists"):
        await db.run(create, {"id": 7, "name": "Ada again"})


async def test_init_is_idempotent_and_installs_every_index(
    schema_ready: Settings, db: Database
) -> None:
    before = await db.run(schema_queries.SHOW_INDEXES)
    await install_schema(schema_ready, db)
    after = await db.run(schema_queries.SHOW_INDEXES)
    assert sorted(i["name"] for i in before) == sorted(i["name"] for i in after)
    names = {i["name"] for i in after}
    assert {
        "paper_text",
        "researcher_names",
        "institution_names",
        "coauthor_joint",
        "merged_paper_key",
    } <= names
    assert all(i["state"] == "ONLINE" for i in after)
    constraints = await db.run(schema_queries.SHOW_CONSTRAINTS)
    unique = {(c["labelsOrTypes"][0], c["properties"][0]) for c in constraints}
    assert {
        ("Paper", "key"),
        ("Paper", "arxiv_id"),
        ("Researcher", "id"),
        ("Researcher", "orcid"),
        ("Institution", "ror_id"),
        ("Identifier", "key"),
    } <= unique


async def test_stats_count_by_label_and_type(db: Database) -> None:
    stats = await graph_stats(db)
    assert stats["nodes"]["Category"] >= 150
    assert stats["relationships"]["IN_ARCHIVE"] == stats["nodes"]["Category"]
    assert "Paper" not in stats["nodes"]


def test_reserved_names_are_mapped_to_the_documented_properties() -> None:
    assert Researcher.public_id.db_property == "id"
    assert asyncio.iscoroutinefunction(graph_stats)
