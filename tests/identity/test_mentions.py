"""One mention of a stored researcher, whether the loader scores a new slot against them or a
curator reads their same-name records."""

from __future__ import annotations

from scholargraph.graph.db import Database
from scholargraph.graph.identity.mentions import stored_mention
from scholargraph.graph.identity.names import parse_name
from scholargraph.graph.loaders.writer import GraphWriter
from scholargraph.graph.records import InstitutionRef
from scholargraph.queries import identity as iq
from scholargraph.queries import read_researchers as rq
from tests.loaders.records_factory import author, paper

ROW = {
    "id": 7,
    "name": "Ziming Liu",
    "affiliation_names": ["MIT"],
    "ror_ids": ["042nb2s44"],
    "coauthor_keys": ["m tegmark"],
    "category_codes": ["cs.LG"],
    "year_min": 2019,
    "year_max": 2024,
    "orcid": None,
    "s2_ids": ["2", "1"],
    "openalex_ids": ["A5"],
}


def test_a_stored_researcher_is_one_mention_with_the_middle_of_their_years() -> None:
    mention = stored_mention(ROW)
    assert mention.name == parse_name("Ziming Liu")
    assert mention.year == 2022  # 2019–2024: at most half a career from any paper
    assert mention.ror_ids == ("042nb2s44",)
    assert (mention.s2_author_id, mention.openalex_author_id) == ("2", "A5")


def test_a_pair_carries_only_the_ids_the_two_share() -> None:
    other = {**ROW, "id": 8, "s2_ids": ["1"], "openalex_ids": ["A6"]}
    mine = stored_mention(ROW, shared_with=other)
    assert (mine.s2_author_id, mine.openalex_author_id) == ("1", None)


async def test_the_loader_and_the_same_name_records_read_the_same_mention(db: Database) -> None:
    mit = InstitutionRef(ror_id="042nb2s44", openalex_id="I63966007", name="MIT")
    writer = GraphWriter(db)
    ziming = author("Ziming Liu", "openalex", openalex="A5")
    for key, year in (("1901.00001", 2019), ("2401.00001", 2024)):
        await writer.write_papers(
            [
                paper(
                    key,
                    [ziming, "Max Tegmark"],
                    source="openalex",
                    year=year,
                    categories=("cs.LG",),
                    institutions={1: mit},
                )
            ]
        )
    [found] = await db.run_rows(iq.LOOKUP_IDENTIFIERS, {"keys": ["openalex:A5"]})
    rid = found["researcher"]
    [loader_row] = await db.run(iq.CANDIDATE_FEATURES, {"ids": [rid]})
    [curator_row] = await db.run(rq.SAME_NAME, {"ids": [rid], "limit": 5})
    from_loader = stored_mention(loader_row["features"])
    assert from_loader == stored_mention(curator_row["self"])
    assert from_loader.year == 2022 and from_loader.ror_ids == ("042nb2s44",)
