"""Index hints are seek hints: a bare ``USING INDEX`` is refused where a query is defined, and
every hinted named query is planned by the server as an index seek, never a scan."""

from __future__ import annotations

from typing import Any

import neo4j
import pytest

from scholargraph.graph.config import Settings
from scholargraph.queries import Query, load_all

SCANS = {"NodeIndexScan", "NodeUniqueIndexScan", "NodeByLabelScan", "AllNodesScan"}


def test_a_bare_index_hint_is_refused_where_the_query_is_defined() -> None:
    text = "UNWIND $keys AS key MATCH (p:Paper {key: key}) USING INDEX p:Paper(key) RETURN p"
    with pytest.raises(ValueError, match="USING INDEX SEEK"):
        Query("test.bare_hint", text)
    with pytest.raises(ValueError, match="USING INDEX SEEK"):
        Query("test.bare_text_hint", text.replace("USING INDEX", "using text index"))


def _operators(plan: Any) -> list[str]:
    found = [str(plan["operatorType"]).split("@")[0]]
    for child in plan.get("children", []):
        found.extend(_operators(child))
    return found


def test_every_hinted_query_is_planned_as_a_seek(schema_ready: Settings) -> None:
    hinted = {name: q for name, q in load_all().items() if "USING INDEX SEEK" in q.text}
    assert hinted, "no named query hints an index"
    with neo4j.GraphDatabase.driver(
        schema_ready.uri, auth=schema_ready.auth, notifications_min_severity="OFF"
    ) as driver:
        for name, query in sorted(hinted.items()):
            summary = driver.execute_query(
                "EXPLAIN " + query.text, database_=schema_ready.neo4j_database
            ).summary
            operators = _operators(summary.plan)
            assert any("Seek" in op for op in operators), (name, " ".join(operators))
            assert not SCANS & set(operators), (name, operators)
