"""Collaboration paths search no further than ``maxLength`` and within the request's time
budget, and say honestly how the search ended."""

from __future__ import annotations

import asyncio
from datetime import date
from typing import Any

import pytest

from scholargraph.graph.db import Database
from scholargraph.graph.errors import QueryTimedOut
from scholargraph.graph.repo import paths
from scholargraph.graph.repo.entities import researchers_by_id
from scholargraph.queries import Query
from scholargraph.queries import read_paths as q
from tests.api.conftest import Api
from tests.api.graphdata import (
    GILBERT,
    HSIEH,
    KEUTZER,
    YOU,
    ZIMING,
    _paper,
    _researcher,
    write_graph,
)

PATH = """
query($from: ID!, $to: ID!, $max: Int!, $k: Int = 1, $category: String,
      $strongest: Boolean = false) {
  collaborationPath(from: $from, to: $to, maxLength: $max, k: $k, category: $category,
                    strongest: $strongest) {
    found outcome distance maxLength message chains { researchers { id } }
  }
}
"""
# Each way of searching, and the family of queries it runs.
SEARCHES = {
    "unrestricted": ({}, q.SHORTEST_UNRESTRICTED),
    "restricted": ({"category": "cs.LG"}, q.SHORTEST_ONE),
    "alternatives": ({"k": 2}, q.SHORTEST),
    "strongest": ({"strongest": True}, q.ALL_SHORTEST),
}


async def path(api: Api, a: int, b: int, max_length: int, **variables: Any) -> dict[str, Any]:
    data = await api.data(PATH, {"from": str(a), "to": str(b), "max": max_length, **variables})
    found: dict[str, Any] = data["collaborationPath"]
    return found


@pytest.mark.parametrize("search", SEARCHES)
async def test_the_search_goes_as_far_as_max_length_and_no_further(api: Api, search: str) -> None:
    variables, family = SEARCHES[search]
    for bound in range(1, paths.MAX_HOPS + 1):
        api.statements.clear()
        found = await path(api, YOU, GILBERT, bound, **variables)
        # the one search statement the request ran is the one bounded by maxLength
        searched = [name for name in api.statements if name.startswith("read_paths.")]
        searched = [name for name in searched if name != q.ENDS_WITH_JOINT_PAPERS.name]
        assert searched[0] == family[bound].name
        if bound < 3:
            assert (found["found"], found["outcome"], found["chains"]) == (False, "NO_PATH", [])
            hops = "1 hop" if bound == 1 else "2 hops"
            assert found["message"].startswith(
                f"no path within {hops} from Yang You to John R. Gilbert"
            )
        else:
            assert (found["found"], found["outcome"], found["distance"]) == (True, "FOUND", 3)


async def test_a_chain_one_hop_too_long_is_not_found(api: Api) -> None:
    assert (await path(api, ZIMING, GILBERT, 3))["outcome"] == "NO_PATH"
    assert (await path(api, ZIMING, GILBERT, 4))["distance"] == 4


async def test_one_hop_is_said_in_the_singular(api: Api) -> None:
    found = await path(api, HSIEH, KEUTZER, 1)
    assert found["message"] == "Cho-Jui Hsieh and Kurt Keutzer are 1 hop apart"


async def test_no_chain_inside_a_category_is_said_with_the_category(api: Api) -> None:
    found = await path(api, YOU, GILBERT, 6, category="math.DG")
    assert (found["found"], found["outcome"], found["chains"]) == (False, "NO_PATH", [])
    assert found["message"] == (
        "no path within 6 hops from Yang You to John R. Gilbert inside math.DG: Yang You has "
        "no joint paper in math.DG"
    )
    # what it looked at: that You has no joint paper inside math.DG, and no further
    searched = [name for name in api.statements if name.startswith("read_paths.")]
    assert searched[-1] == "read_paths.ends_with_joint_papers"


# A dense field: 18 researchers, each pair with a joint cs.LG paper, all of them coauthors
# of You and of Gilbert, who also have a math.DG paper each with someone else. Walks through
# the field up to 8 hops number in the billions; a search that checked the category on whole
# walks instead of hop by hop went through them all before it could answer that no chain
# stays inside math.DG.
FIELD = list(range(7_000_001, 7_000_019))
GEOMETERS = [7_000_101, 7_000_102]
_DENSE_FIELD = Query(
    "test_bounded_paths.dense_field",
    """
    UNWIND $researchers AS row
    CREATE (r:Researcher)
    SET r = row
    WITH count(*) AS done
    UNWIND $papers AS row
    MATCH (a:Researcher {id: row.authors[0]}), (b:Researcher {id: row.authors[1]}),
          (c:Category {code: row.primary_category})
    CREATE (p:Paper)
    SET p = row {.*, authors: null}
    CREATE (p)-[:IN_CATEGORY {primary: true}]->(c)
    CREATE (a)-[:AUTHORED {position: 1, kind: 'first', raw_name: a.name, source: 's2',
                           method: 's2_id', confidence: 1.0, pinned: false}]->(p)
    CREATE (b)-[:AUTHORED {position: 2, kind: 'last', raw_name: b.name, source: 's2',
                           method: 's2_id', confidence: 1.0, pinned: false}]->(p)
    CREATE (a)-[:COAUTHOR {joint_papers: 1, first_year: 2020, last_year: 2020}]->(b)
    """,
    "write",
)


async def write_dense_field(db: Database) -> None:
    members = [*FIELD, YOU, GILBERT]
    pairs = [
        sorted((a, b))
        for i, a in enumerate(members)
        for b in members[i + 1 :]
        if {a, b} != {YOU, GILBERT}
    ]
    papers = [
        {**_paper(f"0001.{n:05d}", "A joint paper", date(2020, 1, 1), ["cs.LG"]), "authors": pair}
        for n, pair in enumerate(pairs)
    ]
    papers += [
        {**_paper(f"0002.{n:05d}", "Curvature", date(2020, 1, 1), ["math.DG"]), "authors": pair}
        for n, pair in enumerate([[YOU, GEOMETERS[0]], [GILBERT, GEOMETERS[1]]])
    ]
    for paper in papers:
        del paper["categories"]
    researchers = [_researcher(rid, f"Field Member {rid}") for rid in FIELD + GEOMETERS]
    await db.run(_DENSE_FIELD, {"researchers": researchers, "papers": papers})


async def test_a_category_with_no_chain_through_a_dense_field_is_answered_at_once(
    api: Api, graph: Database
) -> None:
    await write_dense_field(graph)
    assert (await path(api, YOU, GILBERT, 8, category="cs.LG"))["distance"] == 2
    api.statements.clear()
    # four at once, as the issue saw them, and the other two kinds of search: each a whole
    # search, none stopped by the budget
    found = await asyncio.gather(
        *(path(api, YOU, GILBERT, 8, category="math.DG") for _ in range(4)),
        path(api, YOU, GILBERT, 8, category="math.DG", k=5),
        path(api, YOU, GILBERT, 8, category="math.DG", strongest=True),
    )
    assert {(f["outcome"], f["found"]) for f in found} == {("NO_PATH", False)}
    assert {f["message"] for f in found} == {
        "no path within 8 hops from Yang You to John R. Gilbert inside math.DG"
    }
    # both ends have math.DG papers: each kind of search ran, bounded by maxLength
    assert {q.SHORTEST_ONE[8].name, q.SHORTEST[8].name, q.ALL_SHORTEST[8].name} <= set(
        api.statements
    )


async def test_a_search_whose_budget_ran_out_says_it_stopped(db: Database) -> None:
    await write_graph(db)
    people = await researchers_by_id(db, {YOU, GILBERT})
    options = paths.PathOptions(max_length=6, category="math.DG")
    spent = db.within(0.0)
    result = await paths.collaboration_paths(spent, people[YOU], people[GILBERT], options)
    assert (result.outcome, result.chains, result.distance) == (paths.PathOutcome.STOPPED, (), None)
    assert result.message == (
        "the search for a path within 6 hops from Yang You to John R. Gilbert inside math.DG "
        "stopped at its 0 s time budget before it found one; there may be one: ask for a "
        "smaller maxLength"
    )
    # the budgeted view shares the driver and leaves it open
    await spent.close()
    assert (await db.run(_BUSY, {"n": 14}))[0]["n"] == 2


_BUSY = Query(
    "test_bounded_paths.busy",
    "UNWIND range(1, $n) AS x WITH x WHERE x % 7 = 0 RETURN count(*) AS n",
)


async def test_neo4j_stops_a_statement_at_the_budget(db: Database) -> None:
    budgeted = db.within(0.2)
    with pytest.raises(QueryTimedOut, match=r"stopped test_bounded_paths.busy at the request"):
        await budgeted.run(_BUSY, {"n": 10**12})
    # the budget is spent now: the next statement does not run at all
    with pytest.raises(QueryTimedOut, match="did not run"):
        await budgeted.run(_BUSY, {"n": 1})
    assert (await db.run(_BUSY, {"n": 14}))[0]["n"] == 2


def test_every_bound_has_its_query() -> None:
    for family in (q.SHORTEST, q.SHORTEST_ONE, q.SHORTEST_UNRESTRICTED, q.ALL_SHORTEST):
        assert sorted(family) == list(range(1, q.MAX_HOPS + 1))
        for bound, query in family.items():
            assert f"{{1,{bound}}}" in query.text or f"*..{bound}]" in query.text
