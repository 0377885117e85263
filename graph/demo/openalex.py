"""Papers and authors as OpenAlex work and author objects.

Works with more than 100 authors carry only the first 100 authorships and
``is_authors_truncated: true``, as OpenAlex list endpoints serve them.
"""

from __future__ import annotations

from collections.abc import Iterator

from scholargraph.graph.demo.institutions import Institution
from scholargraph.graph.demo.people import Person
from scholargraph.graph.demo.printing import (
    SALT_CORRESPONDING,
    SALT_OPENALEX_CITATIONS,
    SALT_OPENALEX_NO_INSTITUTION,
    JsonObject,
    affiliation_text,
    display_name,
    h_index,
    institution_at,
    openalex_form,
    printed_name,
)
from scholargraph.graph.demo.world import Paper, World

OPENALEX = "https://openalex.org/"
AUTHORSHIP_LIMIT = 100
_ARXIV_SOURCE = {
    "id": "https://openalex.org/S4306400194",
    "display_name": "arXiv (Cornell University)",
    "type": "repository",
}


def institution_object(world: World, institution: Institution) -> JsonObject:
    lineage = [f"{OPENALEX}{institution.openalex}"]
    if institution.parent >= 0:
        lineage.append(f"{OPENALEX}{world.institutions.institutions[institution.parent].openalex}")
    return {
        "id": lineage[0],
        "display_name": institution.name,
        "ror": f"https://ror.org/{institution.ror}",
        "country_code": institution.country,
        "type": institution.kind,
        "lineage": lineage,
    }


def _position(slot: int, count: int) -> str:
    if slot == 0:
        return "first"
    return "last" if slot == count - 1 else "middle"


def _authorship(world: World, paper: Paper, slot: int) -> JsonObject:
    member = paper.authors[slot]
    person = world.people[member]
    orcid = person.orcid if person.orcid_known_to_openalex else None
    institutions: list[JsonObject] = []
    raw_affiliations: list[str] = []
    if world.noise(paper.index, member, SALT_OPENALEX_NO_INSTITUTION) >= 0.15:
        institution = institution_at(world, person, paper)
        institutions.append(institution_object(world, institution))
        raw_affiliations.append(affiliation_text(world, institution, member, paper.index))
    return {
        "author_position": _position(slot, len(paper.authors)),
        "author": {
            "id": f"{OPENALEX}{person.openalex_id}",
            "display_name": openalex_form(display_name(person), person),
            "orcid": f"https://orcid.org/{orcid}" if orcid else None,
        },
        "institutions": institutions,
        "countries": [item["country_code"] for item in institutions],
        "is_corresponding": world.noise(paper.index, member, SALT_CORRESPONDING) < 0.1,
        "raw_author_name": openalex_form(printed_name(person, paper.variants[slot]), person),
        "raw_affiliation_strings": raw_affiliations,
        "affiliations": [
            {"raw_affiliation_string": raw, "institution_ids": [item["id"]]}
            for raw, item in zip(raw_affiliations, institutions, strict=True)
        ],
    }


def cited_by_count(world: World, paper: Paper) -> int:
    """OpenAlex counts citations from a different corpus than S2, so the numbers differ."""
    return int(paper.citations * (0.75 + 0.4 * world.noise(paper.index, SALT_OPENALEX_CITATIONS)))


def work(world: World, paper: Paper) -> JsonObject:
    work_url = f"{OPENALEX}{paper.openalex_id}"
    arxiv_doi = f"https://doi.org/10.48550/arxiv.{paper.arxiv_id}"
    arxiv_location = {
        "is_oa": True,
        "landing_page_url": f"https://arxiv.org/abs/{paper.arxiv_id}",
        "pdf_url": f"https://arxiv.org/pdf/{paper.arxiv_id}",
        "source": _ARXIV_SOURCE,
        "version": "submittedVersion",
    }
    locations = [arxiv_location]
    doi = arxiv_doi
    if paper.openalex_under_journal_doi and paper.journal_doi:
        doi = f"https://doi.org/{paper.journal_doi.lower()}"
        journal_location = {
            "is_oa": False,
            "landing_page_url": doi,
            "pdf_url": None,
            "source": None,
            "version": "publishedVersion",
        }
        locations.insert(0, journal_location)
    title = world.title(paper)
    shown = [
        _authorship(world, paper, slot) for slot in range(len(paper.authors))[:AUTHORSHIP_LIMIT]
    ]
    truncated = len(paper.authors) > AUTHORSHIP_LIMIT
    institution_ids = {item["id"] for entry in shown for item in entry["institutions"]}
    countries = {code for entry in shown for code in entry["countries"]}
    return {
        "id": work_url,
        "doi": doi,
        "title": title,
        "display_name": title,
        "publication_year": paper.year,
        "publication_date": paper.created.isoformat(),
        "ids": {"openalex": work_url, "doi": doi},
        "language": "en",
        "primary_location": locations[0],
        "locations": locations,
        "type": "article" if doi != arxiv_doi else "preprint",
        "authorships": shown,
        "countries_distinct_count": len(countries),
        "institutions_distinct_count": len(institution_ids),
        "is_authors_truncated": truncated,
        "cited_by_count": cited_by_count(world, paper),
        "updated_date": f"{paper.datestamp.isoformat()}T00:00:00.000000",
        "created_date": paper.created.isoformat(),
    }


def works(world: World) -> Iterator[JsonObject]:
    for item in world.papers:
        if item.openalex_id is not None:
            yield work(world, item)


def people_by_author_id(world: World) -> dict[str, list[Person]]:
    """OpenAlex author id → the people it stands for (more than one when OpenAlex over-merged)."""
    grouped: dict[str, list[Person]] = {}
    for person in world.people:
        if any(world.papers[index].openalex_id for index in person.papers):
            grouped.setdefault(person.openalex_id, []).append(person)
    return grouped


def _affiliations(world: World, people: list[Person]) -> list[JsonObject]:
    years_at: dict[int, set[int]] = {}
    for person in people:
        for index in person.papers:
            item = world.papers[index]
            if item.openalex_id is not None:
                years_at.setdefault(person.institution_in(item.year), set()).add(item.year)
    institutions = world.institutions.institutions
    return [
        {
            "institution": institution_object(world, institutions[index]),
            "years": sorted(years, reverse=True),
        }
        for index, years in sorted(years_at.items(), key=lambda entry: -max(entry[1]))
    ]


def _author(world: World, author_id: str, people: list[Person]) -> JsonObject:
    listed = sorted(
        {index for person in people for index in person.papers if world.papers[index].openalex_id}
    )
    papers = [world.papers[index] for index in listed]
    counts = [cited_by_count(world, item) for item in papers]
    orcid = next((p.orcid for p in people if p.orcid and p.orcid_known_to_openalex), None)
    orcid_url = f"https://orcid.org/{orcid}" if orcid else None
    url = f"{OPENALEX}{author_id}"
    alternatives = {
        openalex_form(printed_name(person, variant), person)
        for person in people
        for variant in person.variants
    }
    affiliations = _affiliations(world, people)
    recent = [cited_by_count(world, item) for item in papers if item.year >= 2023]
    mean_citedness = round(sum(recent) / len(recent), 3) if recent else 0.0
    return {
        "id": url,
        "orcid": orcid_url,
        "display_name": openalex_form(display_name(people[0]), people[0]),
        "display_name_alternatives": sorted(alternatives),
        "works_count": len(papers),
        "cited_by_count": sum(counts),
        "summary_stats": {
            "2yr_mean_citedness": mean_citedness,
            "h_index": h_index(counts),
            "i10_index": sum(1 for count in counts if count >= 10),
        },
        "ids": {"openalex": url, "orcid": orcid_url} if orcid_url else {"openalex": url},
        "affiliations": affiliations,
        "last_known_institutions": [affiliations[0]["institution"]] if affiliations else [],
        "updated_date": "2026-01-10T00:00:00.000000",
        "created_date": "2023-07-21",
    }


def authors(world: World) -> Iterator[JsonObject]:
    for author_id, people in people_by_author_id(world).items():
        yield _author(world, author_id, people)
