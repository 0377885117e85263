"""Paper identity and field precedence through the writer, against the real database."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Any

from scholargraph.graph.db import Database
from scholargraph.graph.identity.paper_merge import (
    paper_events,
    resolve_paper_key,
    unmerge_paper,
)
from scholargraph.graph.loaders.writer import GraphWriter
from scholargraph.graph.records import AuthorRecord, Authorship, PaperRecord
from scholargraph.graph.stats import graph_stats
from scholargraph.queries import Query

PAPERS = Query(
    "test.paper_identity_papers",
    """
    MATCH (p:Paper)
    RETURN p.key AS key, p.title AS title, p.abstract AS abstract, p.doi AS doi,
           p.openalex_id AS openalex_id, p.s2_id AS s2_id, p.citation_count AS citations,
           p.citation_source AS citation_source, p.sources AS sources,
           p.dois AS dois, p.openalex_ids AS openalex_ids, p.mag_ids AS mag_ids,
           [(i:PaperId)-[:IDENTIFIES_PAPER]->(p) | i.key] AS ids,
           [(p)-[:IN_CATEGORY]->(c) | c.code] AS categories,
           [(r:Researcher)-[a:AUTHORED]->(p) | [a.position, r.name]] AS authors
    ORDER BY key
    """,
)
COAUTHORS = Query(
    "test.paper_identity_coauthors",
    "MATCH (a:Researcher)-[c:COAUTHOR]->(b:Researcher) RETURN a.name AS a, b.name AS b, "
    "c.joint_papers AS n ORDER BY a, b",
)
MERGED = Query(
    "test.paper_identity_merged",
    "MATCH (m:MergedPaper)-[:MERGED_INTO]->(s:Paper) RETURN m.key AS merged, s.key AS survivor",
)
DISTINCT = Query(
    "test.paper_identity_distinct",
    "MATCH (a:Paper)-[:DISTINCT_FROM]->(b:Paper) RETURN a.key AS a, b.key AS b",
)


def people(source: str, *names: str) -> tuple[Authorship, ...]:
    ids = {"s2": "s2_ids", "openalex": "openalex_ids"}.get(source)
    return tuple(
        Authorship(
            i,
            name,
            AuthorRecord(name, source, **({ids: (f"{source[0]}{name[:3]}",)} if ids else {})),  # type: ignore[arg-type]
        )
        for i, name in enumerate(names, start=1)
    )


NAMES = ("Hugo Touvron", "Thibaut Lavril", "Gautier Izacard")
PREPRINT = PaperRecord(
    "openalex",
    "LLaMA: Open and Efficient Foundation Language Models",
    arxiv_id="2302.13971",
    doi="10.48550/arxiv.2302.13971",
    openalex_id="W4322718191",
    year=2023,
    citation_count=8000,
    authorships=people("openalex", *NAMES),
    retrieved=date(2025, 11, 6),
)
JOURNAL = PaperRecord(
    "openalex",
    "LLaMA: open and efficient foundation language models",
    doi="10.1000/llama",
    openalex_id="W4400000001",
    mag_id="4400000001",
    year=2024,
    abstract="We introduce LLaMA",
    citation_count=120,
    authorships=people("openalex", *NAMES),
    retrieved=date(2025, 12, 1),
)
S2 = PaperRecord(
    "s2",
    "LLaMA: Open and Efficient Foundation Language Models",
    arxiv_id="2302.13971",
    doi="10.1000/llama",
    s2_id="57e849d0de13ed5f91d086936296721d4ff75a75",
    year=2023,
    citation_count=9000,
    authorships=people("s2", *NAMES),
    retrieved=date(2026, 3, 1),
)


async def papers(db: Database) -> list[dict[str, Any]]:
    rows = await db.run(PAPERS)
    for row in rows:
        row["ids"], row["authors"] = sorted(row["ids"]), sorted(row["authors"])
    return rows


async def test_a_preprint_and_its_journal_version_are_one_paper_with_every_id(
    db: Database,
) -> None:
    # OpenAlex gives the preprint work the journal's DOI too (and an arXiv landing page)
    preprint = replace(PREPRINT, doi="10.1000/llama")
    summary = await GraphWriter(db).write_papers([JOURNAL, preprint])
    [paper] = await papers(db)
    assert paper["key"] == "2302.13971"
    assert paper["ids"] == [
        "arxiv:2302.13971",
        "doi:10.1000/llama",
        "mag:4400000001",
        "openalex:W4322718191",
        "openalex:W4400000001",
    ]
    assert sorted(paper["openalex_ids"]) == ["W4322718191", "W4400000001"]
    assert paper["dois"] == ["10.1000/llama"]
    assert paper["openalex_id"] == "W4400000001"  # the newer of two works with that DOI
    assert paper["doi"] == "10.1000/llama"
    assert paper["authors"] == [[1, "Hugo Touvron"], [2, "Thibaut Lavril"], [3, "Gautier Izacard"]]
    assert (summary.created, summary.paper_merges) == (1, 0)
    again = await GraphWriter(db).write_papers([JOURNAL, preprint])
    assert again.created == 0
    assert (await papers(db)) == [paper]


async def test_a_paper_known_by_doi_is_renamed_when_a_record_gives_its_arxiv_id(
    db: Database,
) -> None:
    writer = GraphWriter(db)
    await writer.write_papers([JOURNAL])
    assert [p["key"] for p in await papers(db)] == ["doi:10.1000/llama"]
    await writer.write_papers([S2])
    [paper] = await papers(db)
    assert paper["key"] == "2302.13971"
    assert f"s2:{S2.s2_id}" in paper["ids"]
    assert await resolve_paper_key(db, "doi:10.1000/llama") == "2302.13971"
    assert await resolve_paper_key(db, "arXiv:2302.13971v1") == "2302.13971"
    assert await resolve_paper_key(db, "doi:10.9999/none") is None
    assert (await graph_stats(db))["nodes"]["Paper"] == 1


async def test_a_record_linking_two_papers_merges_them_and_a_curator_can_undo_it(
    db: Database,
) -> None:
    writer = GraphWriter(db)
    await writer.write_papers([PREPRINT])
    await writer.write_papers([JOURNAL])
    assert [p["key"] for p in await papers(db)] == ["2302.13971", "doi:10.1000/llama"]
    before = await db.run(COAUTHORS)
    assert {row["n"] for row in before} == {2}  # the same three people on "two" papers

    summary = await writer.write_papers([S2])
    assert summary.paper_merges == 1
    [paper] = await papers(db)
    assert paper["key"] == "2302.13971"
    assert {"doi:10.1000/llama", "openalex:W4400000001", f"s2:{S2.s2_id}"} <= set(paper["ids"])
    assert paper["citations"] == 9000 and paper["citation_source"] == "s2"
    assert paper["abstract"] == "We introduce LLaMA"  # the only abstract any source gave
    assert paper["authors"] == [[1, "Hugo Touvron"], [2, "Thibaut Lavril"], [3, "Gautier Izacard"]]
    assert {row["n"] for row in await db.run(COAUTHORS)} == {1}  # one joint paper now
    assert await db.run(MERGED) == [{"merged": "doi:10.1000/llama", "survivor": "2302.13971"}]
    [event] = await paper_events(db, "2302.13971")
    assert (event.kind, event.actor, event.merged) == (
        "paper_merge",
        "machine",
        "doi:10.1000/llama",
    )
    assert "doi:10.1000/llama" in event.reason

    undone = await unmerge_paper(
        db, "doi:10.1000/llama", actor="curator:test", reason="the journal paper is another"
    )
    assert (undone.kind, undone.survivor) == ("paper_unmerge", "2302.13971")
    apart = {p["key"]: p for p in await papers(db)}
    assert set(apart) == {"2302.13971", "doi:10.1000/llama"}
    assert "openalex:W4400000001" in apart["doi:10.1000/llama"]["ids"]
    assert "openalex:W4400000001" not in apart["2302.13971"]["ids"]
    assert apart["doi:10.1000/llama"]["authors"] == apart["2302.13971"]["authors"]
    assert apart["2302.13971"]["abstract"] is None  # given back with the journal paper
    assert await db.run(DISTINCT) == [{"a": "2302.13971", "b": "doi:10.1000/llama"}]
    assert {row["n"] for row in await db.run(COAUTHORS)} == {2}

    again = await writer.write_papers([replace(S2, retrieved=date(2026, 4, 1))])
    assert again.paper_merges == 0  # marked distinct: the record joins its arXiv paper only
    assert {p["key"] for p in await papers(db)} == {"2302.13971", "doi:10.1000/llama"}
    kinds = [e.kind for e in await paper_events(db, "doi:10.1000/llama")]
    assert kinds == ["paper_merge", "paper_unmerge"]


async def test_fields_are_merged_by_precedence_whatever_source_loads_first(
    db: Database,
) -> None:
    s2 = replace(S2, title="Llama", abstract=None, doi=None)
    openalex = replace(PREPRINT, abstract="OpenAlex abstract", title="LLaMA (OpenAlex)")
    arxiv = PaperRecord(
        "arxiv",
        "LLaMA: Open and Efficient Foundation Language Models",
        arxiv_id="2302.13971",
        abstract="arXiv abstract",
        primary_category="cs.CL",
        categories=("cs.CL",),
        authorships=people("arxiv", *NAMES),
        retrieved=date(2023, 2, 27),
    )
    results = []
    for order in ([s2, openalex, arxiv], [arxiv, openalex, s2], [openalex, s2, arxiv]):
        await db.run(
            Query(
                "test.paper_identity_clear",
                "MATCH (n) WHERE NOT n:Category AND NOT n:Archive DETACH DELETE n",
                "write",
            )
        )
        writer = GraphWriter(db)
        first, *rest = order
        await writer.write_papers([first])
        if first is s2:
            # S2 first: OpenAlex's id and abstract land all the same (S2 retrieved later)
            await writer.write_papers([openalex])
            [paper] = await papers(db)
            assert (paper["openalex_id"], paper["abstract"]) == ("W4322718191", "OpenAlex abstract")
        for record in rest:
            await writer.write_papers([record])
        [paper] = await papers(db)
        results.append(
            {k: v for k, v in paper.items() if k != "sources"}
            | {"sources": sorted(paper["sources"])}
        )
    assert all(result == results[0] for result in results)
    final = results[0]
    assert final["title"] == arxiv.title
    assert final["abstract"] == "arXiv abstract"
    assert (final["openalex_id"], final["s2_id"]) == ("W4322718191", S2.s2_id)
    assert final["categories"] == ["cs.CL"]
    assert final["sources"] == ["arxiv", "openalex", "s2"]


async def test_an_untitled_record_keeps_its_authors_and_waits_for_a_title(db: Database) -> None:
    writer = GraphWriter(db)
    untitled = replace(JOURNAL, title="")
    summary = await writer.write_papers([untitled])
    assert summary.untitled == 1
    [paper] = await papers(db)
    assert (paper["title"], len(paper["authors"])) == ("", 3)
    later = await writer.write_papers([replace(JOURNAL, retrieved=date(2026, 1, 1))])
    assert later.untitled == 0
    [paper] = await papers(db)
    assert paper["title"] == JOURNAL.title


async def test_newer_arxiv_categories_replace_the_old_ones(db: Database) -> None:
    writer = GraphWriter(db)
    v1 = PaperRecord(
        "arxiv",
        "T",
        arxiv_id="2101.00001",
        primary_category="cs.LG",
        categories=("cs.LG", "stat.ML"),
        authorships=people("arxiv", "Ada Lovelace"),
        retrieved=date(2021, 1, 1),
    )
    v2 = replace(v1, primary_category="cs.CL", categories=("cs.CL",), retrieved=date(2022, 1, 1))
    await writer.write_papers([v2])
    await writer.write_papers([v1])  # older: changes nothing
    [paper] = await papers(db)
    assert paper["categories"] == ["cs.CL"]
    await writer.write_papers(
        [replace(v2, categories=("cs.CL", "cs.AI"), retrieved=date(2023, 1, 1))]
    )
    [paper] = await papers(db)
    assert sorted(paper["categories"]) == ["cs.AI", "cs.CL"]


async def test_after_a_merge_each_author_slot_has_one_researcher(db: Database) -> None:
    """S2 made the arXiv paper's authors, OpenAlex the journal paper's: when a record shows
    the two papers are one, each slot's two holders are found to be one person."""
    writer = GraphWriter(db)
    s2_only = replace(S2, doi=None)
    await writer.write_papers([s2_only])
    await writer.write_papers([JOURNAL])
    linking = replace(PREPRINT, doi="10.1000/llama", retrieved=date(2026, 5, 1))
    summary = await writer.write_papers([linking])
    assert summary.paper_merges == 1
    [paper] = await papers(db)
    assert paper["authors"] == [[1, "Hugo Touvron"], [2, "Thibaut Lavril"], [3, "Gautier Izacard"]]
    holders = await db.run(
        Query(
            "test.paper_identity_holders",
            "MATCH (r:Researcher)-[a:AUTHORED]->(:Paper {key: '2302.13971'}) "
            "RETURN a.position AS position, r.s2_ids AS s2, r.openalex_ids AS openalex "
            "ORDER BY position",
        )
    )
    assert all(h["s2"] and h["openalex"] for h in holders), holders


async def test_a_new_record_beside_an_unchanged_one_of_the_same_paper_lands(
    db: Database,
) -> None:
    writer = GraphWriter(db)
    preprint = replace(PREPRINT, doi="10.1000/llama", retrieved=date(2026, 1, 1))
    await writer.write_papers([preprint])
    journal = replace(JOURNAL, retrieved=date(2025, 1, 1))  # older than the preprint record
    summary = await writer.write_papers([preprint, journal])
    assert summary.updated == 1
    [paper] = await papers(db)
    assert "openalex:W4400000001" in paper["ids"]
    again = await writer.write_papers([preprint, journal])
    assert (again.updated, again.unchanged) == (0, 2)
