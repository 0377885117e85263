"""Entities by any of their ids: papers, researchers, institutions, categories."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from scholargraph.graph import ids, taxonomy
from scholargraph.graph.db import Database
from scholargraph.graph.errors import BadInput, NotFound
from scholargraph.graph.repo.lucene import phrase_query
from scholargraph.graph.repo.models import Institution, Paper, Researcher
from scholargraph.queries import read_entities as q

_RESEARCHER_REF = re.compile(r"^(?:.*/researchers/)?(\d+)(?:-[a-z0-9-]*)?/?$")
_INSTITUTION_REF = re.compile(r"^(?:.*/institutions/)?(\d+)(?:-[a-z0-9-]*)?/?$")


def parse_researcher_id(ref: str | int) -> int:
    """A researcher's public id from ``2004394``, ``2004394-ziming-liu`` or its page path.

    >>> parse_researcher_id("/researchers/2004394-ziming-liu")
    2004394
    """
    if isinstance(ref, int):
        return ref
    match = _RESEARCHER_REF.match(ref.strip())
    if not match:
        raise BadInput(
            f"{ref!r} is not a researcher id; expected e.g. 2004394 or 2004394-ziming-liu"
        )
    return int(match.group(1))


def paper_reference(ref: str) -> tuple[str | None, str | None]:
    """(paper key, DOI) to look a paper up by: any arXiv id form, an arXiv DOI, or a DOI.

    >>> paper_reference("arXiv:2301.08658v2")
    ('2301.08658', None)
    >>> paper_reference("https://doi.org/10.1145/3458817.3476145")
    (None, '10.1145/3458817.3476145')
    """
    text = ref.strip()
    if ids.is_arxiv_id(text):
        return ids.normalize_arxiv_id(text), None
    doi = ids.normalize_doi(text)
    if doi.startswith("10.") and "/" in doi:
        return ids.arxiv_id_from_doi(doi), doi
    raise BadInput(
        f"{ref!r} is neither an arXiv id nor a DOI; expected e.g. 2301.08658, "
        f"astro-ph/9901001 or 10.48550/arXiv.2301.08658"
    )


async def find_paper(db: Database, ref: str) -> Paper:
    key, doi = paper_reference(ref)
    rows = await db.run(q.PAPER_BY_ID, {"key": key, "doi": doi})
    if not rows:
        raise NotFound(f"no paper {ref!r} in the graph; try search(query:) with its title")
    return Paper.from_row(rows[0]["paper"])


async def find_paper_by_key(db: Database, key: str) -> Paper:
    """A paper by its key as the graph stores it (``2301.08658``, ``doi:…``, ``s2:…``)."""
    rows = await db.run(q.PAPER_BY_ID, {"key": key, "doi": None})
    if not rows:
        raise NotFound(f"no paper with the key {key!r} in the graph")
    return Paper.from_row(rows[0]["paper"])


@dataclass(frozen=True, slots=True)
class ResearcherRef:
    """How a researcher was asked for: exactly one of the fields is set."""

    id: str | None = None
    orcid: str | None = None
    s2_id: str | None = None
    openalex_id: str | None = None

    def params(self) -> dict[str, object]:
        given = [v for v in (self.id, self.orcid, self.s2_id, self.openalex_id) if v]
        if len(given) != 1:
            raise BadInput("give exactly one of id, orcid, s2Id or openalexId")
        identifier = None
        if self.s2_id:
            identifier = f"s2:{self.s2_id.strip().removeprefix('s2:')}"
        elif self.openalex_id:
            identifier = f"openalex:{ids.normalize_openalex(self.openalex_id)}"
        return {
            "id": parse_researcher_id(self.id) if self.id else None,
            "orcid": ids.normalize_orcid(self.orcid) if self.orcid else None,
            "identifier": identifier,
        }


async def find_researcher(db: Database, ref: ResearcherRef) -> Researcher:
    """The researcher ``ref`` names; a merged-away record resolves to the one it was merged into."""
    rows = await db.run(q.RESEARCHER_BY_ID, ref.params())
    if not rows:
        raise NotFound("no researcher with that id; try search(query:) with their name")
    return Researcher.from_row(rows[0]["researcher"])


async def researchers_by_id(db: Database, researcher_ids: Iterable[int]) -> dict[int, Researcher]:
    rows = await db.run(q.RESEARCHERS_BY_ID, {"ids": list(researcher_ids)})
    return {row["id"]: Researcher.from_row(row["researcher"]) for row in rows}


async def find_institution(db: Database, ref: str) -> Institution:
    """An institution by our id (or ``id-slug``), its ROR id (bare or URL), or its name.

    A name matches the name, an alias or an acronym, case aside; when several institutions
    match, the one with the most affiliated researchers wins.
    """
    text = ref.strip()
    if not text:
        raise BadInput("give an institution id, ROR id or name")
    if match := _INSTITUTION_REF.match(text):
        rows = await db.run(q.INSTITUTION_BY_KEY, {"id": int(match.group(1)), "ror_id": None})
    elif (ror := _ror_or_none(text)) is not None:
        rows = await db.run(q.INSTITUTION_BY_KEY, {"id": None, "ror_id": ror})
    else:
        return await _institution_by_name(db, text)
    if not rows:
        raise NotFound(f"no institution {ref!r}; try its name or search(query:)")
    return Institution.from_row(rows[0]["institution"])


def _ror_or_none(text: str) -> str | None:
    try:
        return ids.normalize_ror(text)
    except BadInput:
        return None


async def _institution_by_name(db: Database, name: str) -> Institution:
    rows = await db.run(
        q.INSTITUTIONS_BY_NAME, {"lucene": phrase_query(name), "name": name.lower()}
    )
    exact = [row for row in rows if row["exact"]]
    if exact:
        return Institution.from_row(exact[0]["institution"])
    near = ", ".join(repr(row["institution"]["name"]) for row in rows[:3])
    hint = f"; did you mean {near}?" if near else "; try search(query:)"
    raise NotFound(f"no institution is named {name!r}{hint}")


async def institutions_by_id(
    db: Database, institution_ids: Iterable[int]
) -> dict[int, Institution]:
    rows = await db.run(q.INSTITUTIONS_BY_ID, {"ids": list(institution_ids)})
    return {
        row["id"]: Institution.from_row(row["institution"], row["parents"], row["children"])
        for row in rows
    }


def find_category(code: str) -> taxonomy.CategoryInfo:
    """An arXiv category from the taxonomy (old names such as ``math.IT`` resolve too)."""
    try:
        return taxonomy.lookup(code.strip())
    except BadInput as error:
        raise NotFound(str(error)) from None


@dataclass(frozen=True, slots=True)
class CategoryCounts:
    papers: int
    primary_papers: int


async def category_counts(db: Database, codes: Iterable[str]) -> dict[str, CategoryCounts]:
    rows = await db.run(q.CATEGORY_COUNTS, {"codes": list(codes)})
    return {row["code"]: CategoryCounts(row["papers"], row["primary_papers"]) for row in rows}
