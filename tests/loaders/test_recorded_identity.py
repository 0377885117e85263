"""The recorded S2 and OpenAlex answers (../shared/data) loaded in both orders: one paper per
paper, one researcher per person where the data says so, nothing of a record lost."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from scholargraph.graph.db import Database
from scholargraph.graph.loaders.parse import parse_openalex_payload, parse_s2_payload
from scholargraph.graph.loaders.pipeline import Loader
from scholargraph.graph.records import Batch
from scholargraph.queries import Query

pytestmark = pytest.mark.shared

PAPER_OF = Query(
    "test.recorded_paper_of",
    """
    MATCH (:PaperId {key: $id})-[:IDENTIFIES_PAPER]->(p:Paper)
    RETURN p.key AS key, p.title AS title, p.sources AS sources,
           [(i:PaperId)-[:IDENTIFIES_PAPER]->(p) | i.key] AS ids,
           [(r:Researcher)-[a:AUTHORED]->(p) |
            {position: a.position, name: r.name, orcid: r.orcid, raw: a.raw_name,
             openalex: r.openalex_ids}] AS authors
    """,
)
HOLDERS = Query(
    "test.recorded_holders",
    """
    MATCH (r:Researcher)
    WHERE r.merged_into IS NULL AND ($s2 IN r.s2_ids OR $openalex IN r.openalex_ids)
    RETURN r.id AS id, r.name AS name, r.s2_ids AS s2, r.openalex_ids AS openalex
    """,
)
NAMED = Query(
    "test.recorded_named",
    """
    MATCH (r:Researcher)-[:AUTHORED]->(p:Paper)
    WHERE r.merged_into IS NULL AND r.name_key = $block
    RETURN r.id AS id, r.name AS name, r.orcid AS orcid, r.s2_ids AS s2,
           r.openalex_ids AS openalex, r.coauthor_keys AS coauthors,
           collect(p.key) AS papers, collect(p.year) AS years
    ORDER BY id
    """,
)
PAPER_IDS = Query(
    "test.recorded_paper_ids",
    "MATCH (p:Paper) RETURN p.key AS key, [(i:PaperId)-[:IDENTIFIES_PAPER]->(p) | i.key] AS ids",
)


def openalex_pages(shared: Path) -> list[Any]:
    cache = shared / "openalex" / "mearman-academic-explorer-cache" / "works" / "queries"
    pages = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(cache.glob("*.json"))]
    snowball = shared / "openalex" / "rkrug-openalexPro" / "fixtures" / "vcr" / "oa_snowball.yml"
    for item in yaml.safe_load(snowball.read_text(encoding="utf-8"))["http_interactions"]:
        pages.append(json.loads(item["response"]["body"]["string"]))
    return pages


def s2_answer(shared: Path) -> Any:
    path = shared / "semanticscholar" / "danielnsilva-semanticscholar" / "Paper.json"
    return json.loads(path.read_text(encoding="utf-8"))


async def load(db: Database, shared: Path, order: tuple[str, ...]) -> None:
    async def chunks() -> AsyncIterator[tuple[str, Batch]]:
        for source in order:
            if source == "openalex":
                for index, page in enumerate(openalex_pages(shared)):
                    yield f"openalex:{index}", parse_openalex_payload(page).batch
            else:
                yield "s2", parse_s2_payload(s2_answer(shared)).batch

    # small transactions: each stays well inside the query timeout on a busy machine
    await Loader(db, papers_per_transaction=100).run(chunks())


async def holders(db: Database, s2: str, openalex: str) -> list[dict[str, Any]]:
    return await db.run(HOLDERS, {"s2": s2, "openalex": openalex})


CLEAR = Query(
    "test.recorded_clear",
    "MATCH (n) WHERE NOT n:Category AND NOT n:Archive DETACH DELETE n",
    "write",
)


async def test_recorded_answers_make_one_paper_and_one_person_in_either_order(
    db: Database, shared_data: Path
) -> None:
    db.timeout = 120  # two loads of 1,500 recorded papers: a first batch compiles every
    # statement, which on a machine shared by several test runs takes longer than 30 s
    dumps = []
    for order in (("s2", "openalex"), ("openalex", "s2")):
        await db.run(CLEAR)
        await load(db, shared_data, order)
        await check_llama_lecun_touvron(db)
        await check_bert(db)
        await check_schmidhuber(db)
        dumps.append(sorted((row["key"], sorted(row["ids"])) for row in await db.run(PAPER_IDS)))
    assert dumps[0] == dumps[1]  # the same papers with the same ids, whichever came first
    assert len(dumps[0]) > 1000


async def check_llama_lecun_touvron(db: Database) -> None:
    [llama] = await db.run(PAPER_OF, {"id": "arxiv:2302.13971"})
    assert llama["key"] == "2302.13971"
    assert {"s2:57e849d0de13ed5f91d086936296721d4ff75a75", "openalex:W4322718191"} <= set(
        llama["ids"]
    )
    assert sorted(llama["sources"]) == ["openalex", "s2"]
    first = min(llama["authors"], key=lambda a: a["position"])
    assert first["name"] == "Hugo Touvron"
    assert not [a for a in llama["authors"] if "," in a["name"]]  # "Touvron, Hugo" as printed

    [lecun] = await holders(db, "1688882", "A5001226970")
    assert "1688882" in lecun["s2"] and "A5001226970" in lecun["openalex"]
    [touvron] = await holders(db, "2113243762", "A5032644449")
    assert "2113243762" in touvron["s2"] and "A5032644449" in touvron["openalex"]
    assert touvron["name"] == "Hugo Touvron"


async def check_bert(db: Database) -> None:
    """BERT's NAACL record has no title: its authorships, ORCIDs and ids are kept."""
    [bert] = await db.run(PAPER_OF, {"id": "doi:10.18653/v1/n19-1423"})
    assert bert["title"] == ""
    assert {"mag:2963341956", "openalex:W2963341956"} <= set(bert["ids"])
    by_position = {a["position"]: a for a in bert["authors"]}
    assert [by_position[p]["name"] for p in sorted(by_position)] == [
        "Jacob Devlin",
        "Ming-Wei Chang",
        "Kenton Lee",
        "Kristina Toutanova",
    ]
    assert by_position[2]["orcid"] == "0000-0002-0137-8895"
    assert "A5076904467" in by_position[2]["openalex"]


async def check_schmidhuber(db: Database) -> None:
    """What the data says of Jürgen Schmidhuber: S2 2252220989 is an author of one 2024
    robotics preprint (2404.08093, with Alhakami, Ashley, Dunham, Faccio and Feron), OpenAlex
    A5071172037 of the 1997 LSTM paper (with Hochreiter). The two records share no paper,
    coauthor, ORCID, affiliation or id; the name alone joins them, 27 years apart, so the
    scored match keeps them two researchers (a paper or an id linking them would merge
    them)."""
    found = await db.run(NAMED, {"block": "j schmidhuber"})
    assert sorted((r["name"], r["s2"] or [], r["openalex"] or []) for r in found) == [
        ("Jürgen Schmidhuber", [], ["A5071172037"]),
        ("Jürgen Schmidhuber", ["2252220989"], []),
    ]
    by_source = {bool(r["s2"]): r for r in found}
    s2, openalex = by_source[True], by_source[False]
    assert (s2["papers"], s2["years"]) == (["2404.08093"], [2024])
    assert (openalex["papers"], openalex["years"]) == (["doi:10.1162/neco.1997.9.8.1735"], [1997])
    assert not set(s2["coauthors"] or []) & set(openalex["coauthors"] or [])
    assert s2["orcid"] is None and openalex["orcid"] is None
