"""Papers and authors as Semantic Scholar Graph API objects."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

from scholargraph.graph import taxonomy
from scholargraph.graph.demo.people import Person
from scholargraph.graph.demo.printing import (
    SALT_DBLP,
    SALT_EXTRA_CITATIONS,
    SALT_EXTRA_PAPERS,
    SALT_PROFILE_AFFILIATION,
    JsonObject,
    h_index,
    institution_at,
    printed_name,
    s2_unlinked,
)
from scholargraph.graph.demo.world import Paper, World


def paper_id(world: World, paper: Paper) -> str:
    return hashlib.sha1(f"demo-s2:{world.seed}:{paper.arxiv_id}".encode()).hexdigest()


def _external_ids(world: World, paper: Paper) -> JsonObject:
    ids: JsonObject = {"ArXiv": paper.arxiv_id}
    computing = taxonomy.lookup(paper.categories[0]).group == taxonomy.COMPUTER_SCIENCE
    if computing and "." in paper.arxiv_id and world.noise(paper.index, SALT_DBLP) < 0.5:
        ids["DBLP"] = f"journals/corr/abs-{paper.arxiv_id.replace('.', '-')}"
    ids["DOI"] = paper.journal_doi or f"10.48550/arXiv.{paper.arxiv_id}"
    ids["CorpusId"] = paper.s2_corpus_id
    return ids


def _author(world: World, paper: Paper, slot: int) -> JsonObject:
    person = world.people[paper.authors[slot]]
    linked = not s2_unlinked(world, paper, person)
    return {
        "authorId": person.s2_id_for(paper.index) if linked else None,
        "name": printed_name(person, paper.variants[slot]),
        "externalIds": {"ORCID": person.orcid} if linked and person.orcid_known_to_s2 else {},
    }


def paper(world: World, paper: Paper) -> JsonObject:
    sha = paper_id(world, paper)
    return {
        "paperId": sha,
        "corpusId": paper.s2_corpus_id,
        "externalIds": _external_ids(world, paper),
        "url": f"https://www.semanticscholar.org/paper/{sha}",
        "title": world.title(paper),
        "venue": "arXiv.org",
        "year": paper.year,
        "publicationDate": paper.created.isoformat(),
        "citationCount": paper.citations,
        "influentialCitationCount": paper.citations // 12,
        "isOpenAccess": True,
        "authors": [_author(world, paper, slot) for slot in range(len(paper.authors))],
    }


def papers(world: World) -> Iterator[JsonObject]:
    for item in world.papers:
        if item.s2_corpus_id is not None:
            yield paper(world, item)


def credited_papers(world: World, person: Person) -> dict[str, list[Paper]]:
    """The papers S2 lists under each of the person's author ids."""
    credited: dict[str, list[Paper]] = {}
    for index in person.papers:
        item = world.papers[index]
        if item.s2_corpus_id is not None and not s2_unlinked(world, item, person):
            credited.setdefault(person.s2_id_for(index), []).append(item)
    return credited


def _profile(world: World, person: Person, author_id: str, listed: list[Paper]) -> JsonObject:
    citations = [item.citations for item in listed]
    # S2 profiles also count papers that never were on arXiv.
    extra_papers = int(len(listed) * 1.5 * world.noise(person.index, SALT_EXTRA_PAPERS))
    extra_citations = int(sum(citations) * 0.6 * world.noise(person.index, SALT_EXTRA_CITATIONS))
    external: JsonObject = {"ORCID": person.orcid} if person.orcid_known_to_s2 else {}
    affiliations: list[str] = []
    if world.noise(person.index, SALT_PROFILE_AFFILIATION) < 0.3:
        affiliations.append(institution_at(world, person, listed[-1]).name)
    return {
        "authorId": author_id,
        "externalIds": external,
        "url": f"https://www.semanticscholar.org/author/{author_id}",
        "name": printed_name(person, person.style),
        "aliases": sorted({printed_name(person, variant) for variant in person.variants}),
        "affiliations": affiliations,
        "homepage": None,
        "paperCount": len(listed) + extra_papers,
        "citationCount": sum(citations) + extra_citations,
        "hIndex": h_index(citations),
    }


def authors(world: World) -> Iterator[JsonObject]:
    for person in world.people:
        for author_id, listed in credited_papers(world, person).items():
            yield _profile(world, person, author_id, listed)
