"""The answer key: which ids and arXiv author slots belong to each synthetic person."""

from __future__ import annotations

from collections.abc import Iterator

from scholargraph.graph.demo import s2
from scholargraph.graph.demo.fields import FIELDS
from scholargraph.graph.demo.printing import JsonObject, printed_name
from scholargraph.graph.demo.world import World


def person_key(index: int) -> str:
    return f"P{index:07d}"


def people(world: World) -> Iterator[JsonObject]:
    """One entry per person with at least one paper.

    ``arxiv`` lists ``[arxiv_id, position]`` pairs (1-based, as printed in the OAI record).
    ``s2_author_ids`` and ``openalex_author_ids`` hold only ids that occur in the rendered
    S2 / OpenAlex data; an OpenAlex id with ``openalex_shared`` also stands for another
    person of the same name (an over-merge to be detected).
    """
    slots: dict[int, list[tuple[str, int, int]]] = {}
    for paper in world.papers:
        for position, member in enumerate(paper.authors, start=1):
            slots.setdefault(member, []).append(
                (paper.arxiv_id, position, paper.variants[position - 1])
            )
    institutions = world.institutions.institutions
    for person in world.people:
        if not person.papers:
            continue
        in_openalex = any(world.papers[index].openalex_id for index in person.papers)
        mentions = slots[person.index]
        printed = {printed_name(person, variant) for _, _, variant in mentions}
        yield {
            "person": person_key(person.index),
            "name": person.name.full,
            "orcid": person.orcid,
            "field": FIELDS[person.field].key,
            "categories": list(person.favourites),
            "s2_author_ids": list(s2.credited_papers(world, person)),
            "openalex_author_ids": [person.openalex_id] if in_openalex else [],
            "openalex_shared": person.openalex_shared,
            "institutions": [
                {
                    "ror": institutions[index].ror,
                    "openalex": institutions[index].openalex,
                    "from_year": year,
                }
                for year, index in person.affiliations
            ],
            "printed_names": sorted(printed),
            "arxiv": [[arxiv_id, position] for arxiv_id, position, _ in mentions],
        }
