"""The root query: entities by any of their ids, search, paper lists, collaboration paths."""

from __future__ import annotations

import asyncio
from typing import Annotated

import strawberry

from scholargraph.api import limits
from scholargraph.api.context import Info
from scholargraph.api.types.category import Category
from scholargraph.api.types.common import resolver
from scholargraph.api.types.institution import Institution
from scholargraph.api.types.paper import Paper, PaperConnection, PaperSort, paper_list
from scholargraph.api.types.path import CollaborationPath
from scholargraph.api.types.researcher import Researcher
from scholargraph.api.types.search import SearchConnection, SearchKind
from scholargraph.api.types.semantic import SearchMode
from scholargraph.graph.repo import entities, paths, search, semantic
from scholargraph.graph.repo.entities import ResearcherRef
from scholargraph.graph.repo.papers import PaperFilter


@strawberry.input(description="Which papers to list; unset fields do not filter.")
class PaperFilterInput:
    researcher: strawberry.ID | None = None
    institution: str | None = strawberry.field(
        default=None, description="Our id, a ROR id or a name."
    )
    category: str | None = strawberry.field(default=None, description="Primary or cross-list.")
    year_from: int | None = None
    year_to: int | None = None


async def _researcher_id(info: Info, ref: str) -> int:
    found = await entities.find_researcher(info.context.db, ResearcherRef(id=ref))
    info.context.loaders.researchers.prime(found.id, found)
    return found.id


async def _institution_id(info: Info, ref: str) -> int:
    return (await entities.find_institution(info.context.db, ref)).id


_MODES: dict[SearchMode, search.SearchMode] = {
    SearchMode.KEYWORD: "keyword",
    SearchMode.SEMANTIC: "semantic",
    SearchMode.HYBRID: "hybrid",
}
_KINDS: dict[SearchKind, search.SearchKind] = {
    SearchKind.PAPER: "paper",
    SearchKind.RESEARCHER: "researcher",
    SearchKind.INSTITUTION: "institution",
}


def _category_code(code: str) -> str:
    return entities.find_category(code).code


@strawberry.type
class Query:
    @resolver("A paper by any arXiv id form (with or without vN) or a DOI.")
    async def paper(self, info: Info, id: str) -> Paper | None:
        found = await entities.find_paper(info.context.db, id)
        return Paper.of(found)

    @resolver("A researcher by exactly one id; a merged-away id resolves to the survivor.")
    async def researcher(
        self,
        info: Info,
        id: strawberry.ID | None = None,
        orcid: str | None = None,
        s2_id: str | None = None,
        openalex_id: str | None = None,
    ) -> Researcher | None:
        ref = ResearcherRef(id=id, orcid=orcid, s2_id=s2_id, openalex_id=openalex_id)
        found = await entities.find_researcher(info.context.db, ref)
        info.context.loaders.researchers.prime(found.id, found)
        return Researcher.of(found)

    @resolver("An institution by our id, its ROR id (bare or URL) or name.")
    async def institution(self, info: Info, ref: str) -> Institution | None:
        return Institution.of(await entities.find_institution(info.context.db, ref))

    @resolver("An arXiv category, such as cs.DC.")
    def category(self, code: str) -> Category | None:
        return Category.of(entities.find_category(code).code)

    @resolver(
        "Papers, researchers and institutions matching the words, best first: by the words "
        "themselves (KEYWORD, the last word as a prefix), by their meaning (SEMANTIC: papers "
        "and researchers), or both fused (HYBRID, the default); category and years narrow the "
        "papers. An id (arXiv, DOI, ORCID, ROR, ours) finds its entity."
    )
    async def search(
        self,
        info: Info,
        query: str,
        kinds: list[SearchKind] | None = None,
        mode: SearchMode = SearchMode.HYBRID,
        category: str | None = None,
        year_from: int | None = None,
        year_to: int | None = None,
        first: int = 10,
        after: str | None = None,
    ) -> SearchConnection:
        wanted = [_KINDS[k] for k in kinds] if kinds is not None else list(search.ALL_KINDS)
        code = entities.find_category(category).code if category is not None else None
        narrowed = semantic.PaperFilter(category=code, year_from=year_from, year_to=year_to)
        page = await search.search(
            info.context.db,
            query,
            limits.page(first, after),
            wanted,
            mode=_MODES[mode],
            papers=narrowed,
        )
        return SearchConnection.of(page)

    @resolver("Papers, filtered; newest first unless sorted by citations.")
    async def papers(
        self,
        info: Info,
        filter: PaperFilterInput | None = None,
        sort: PaperSort = PaperSort.NEWEST,
        first: int = 24,
        after: str | None = None,
    ) -> PaperConnection:
        given = filter or PaperFilterInput()
        paper_filter = PaperFilter(
            researcher=(
                await _researcher_id(info, given.researcher)
                if given.researcher is not None
                else None
            ),
            institution=(
                await _institution_id(info, given.institution)
                if given.institution is not None
                else None
            ),
            category=_category_code(given.category) if given.category is not None else None,
            year_from=given.year_from,
            year_to=given.year_to,
        )
        return await paper_list(info, paper_filter, sort, limits.page(first, after))

    @resolver(
        "The shortest coauthor chains between two researchers with the papers behind "
        "each hop: k alternatives, or the strongest chain; restricted to a year range, a "
        "category (each hop needs a joint paper in them) or an institution (everyone "
        "between the two ends affiliated with it)."
    )
    async def collaboration_path(
        self,
        info: Info,
        from_: Annotated[strawberry.ID, strawberry.argument(name="from")],
        to: strawberry.ID,
        max_length: int = 6,
        k: int = 1,
        year_from: int | None = None,
        year_to: int | None = None,
        category: str | None = None,
        institution: str | None = None,
        strongest: bool = False,
    ) -> CollaborationPath:
        limits.size(k, paths.MAX_PATHS, "k", minimum=1)
        limits.size(max_length, paths.MAX_HOPS, "maxLength", minimum=1)
        db = info.context.db
        source, target = await asyncio.gather(
            entities.find_researcher(db, ResearcherRef(id=from_)),
            entities.find_researcher(db, ResearcherRef(id=to)),
        )
        options = paths.PathOptions(
            max_length=max_length,
            k=k,
            year_from=year_from,
            year_to=year_to,
            category=_category_code(category) if category is not None else None,
            institution=(
                await _institution_id(info, institution) if institution is not None else None
            ),
            strongest=strongest,
        )
        return CollaborationPath.of(await paths.collaboration_paths(db, source, target, options))
