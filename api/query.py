"""The root query: entities by any of their ids, search, paper lists, collaboration paths."""

from __future__ import annotations

from typing import Annotated

import strawberry

from scholargraph.api import limits, nodes, prefetch
from scholargraph.api.context import Info
from scholargraph.api.types.category import Category
from scholargraph.api.types.common import After, First, arg, resolver
from scholargraph.api.types.institution import Institution
from scholargraph.api.types.node import Node, key_of
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
    researcher: strawberry.ID | None = strawberry.field(
        default=None, description="Papers of this researcher: their global id or key."
    )
    institution: str | None = strawberry.field(
        default=None,
        description="Papers from this institution: its global id, our id, a ROR id or a name.",
    )
    category: str | None = strawberry.field(
        default=None, description="Papers in this arXiv category, primary or cross-listed."
    )
    year_from: int | None = strawberry.field(
        default=None, description="Papers of this year or later."
    )
    year_to: int | None = strawberry.field(
        default=None, description="Papers of this year or earlier."
    )


async def _researcher_id(info: Info, ref: str) -> int:
    found = await entities.find_researcher(
        info.context.db, ResearcherRef(id=key_of(ref, "Researcher"))
    )
    info.context.loaders.researchers.prime(found.id, found)
    return found.id


async def _institution_id(info: Info, ref: str) -> int:
    return (await entities.find_institution(info.context.db, key_of(ref, "Institution"))).id


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
    return entities.find_category(key_of(code, "Category")).code


@strawberry.type(description="What the graph answers: entities by any of their ids, lists, paths.")
class Query:
    @resolver(
        "The object behind a global id (the id field of a Researcher, Paper, Institution or "
        "Category), or null when it names nothing in the graph."
    )
    async def node(
        self, info: Info, id: Annotated[strawberry.ID, arg("A global id this API returned.")]
    ) -> Node | None:
        return await nodes.node(info, id)

    @resolver(
        "The objects behind global ids, in the same order; null for an id that names nothing."
    )
    async def nodes(
        self,
        info: Info,
        ids: Annotated[list[strawberry.ID], arg("Global ids this API returned; at most 100.")],
    ) -> list[Node | None]:
        return await nodes.nodes(info, ids)

    @resolver("A paper by its global id, any arXiv id form (with or without vN) or a DOI.")
    async def paper(
        self,
        info: Info,
        id: Annotated[str, arg("Its global id, an arXiv id (2301.08658v2) or a DOI.")],
    ) -> Paper | None:
        decoded = key_of(id, "Paper")
        if decoded != id:
            return Paper.of(await entities.find_paper_by_key(info.context.db, decoded))
        found = await entities.find_paper(info.context.db, id)
        return Paper.of(found)

    @resolver("A researcher by exactly one id; a merged-away id resolves to the survivor.")
    async def researcher(
        self,
        info: Info,
        id: Annotated[
            strawberry.ID | None,
            arg("Their global id, or key (2004394, 2004394-ziming-liu, or the page path)."),
        ] = None,
        orcid: Annotated[str | None, arg("Their ORCID iD, bare or as a URL.")] = None,
        s2_id: Annotated[str | None, arg("A Semantic Scholar author id of theirs.")] = None,
        openalex_id: Annotated[str | None, arg("An OpenAlex author id of theirs (A…).")] = None,
    ) -> Researcher | None:
        key = key_of(id, "Researcher") if id is not None else None
        ref = ResearcherRef(id=key, orcid=orcid, s2_id=s2_id, openalex_id=openalex_id)
        prefetch.researcher_lists(info, key)
        found = await entities.find_researcher(info.context.db, ref)
        info.context.loaders.researchers.prime(found.id, found)
        return Researcher.of(found)

    @resolver("An institution by its global id, our id, its ROR id (bare or URL) or name.")
    async def institution(
        self,
        info: Info,
        ref: Annotated[str, arg("Its global id, our id (17), ROR id (01an7q238) or name.")],
    ) -> Institution | None:
        found = await entities.find_institution(info.context.db, key_of(ref, "Institution"))
        return Institution.of(found)

    @resolver("An arXiv category, such as cs.DC.")
    def category(
        self, code: Annotated[str, arg("Its code (cs.DC; old names such as math.IT too).")]
    ) -> Category | None:
        return Category.of(_category_code(code))

    @resolver(
        "Papers, researchers and institutions matching the words, best first: by the words "
        "themselves (KEYWORD, the last word as a prefix), by their meaning (SEMANTIC: papers "
        "and researchers), or both fused (HYBRID, the default); category and years narrow the "
        "papers. An id (arXiv, DOI, ORCID, ROR, ours) finds its entity."
    )
    async def search(
        self,
        info: Info,
        query: Annotated[str, arg("Words, or an id (arXiv, DOI, ORCID, ROR, ours).")],
        kinds: Annotated[
            list[SearchKind] | None, arg("Kinds of hit to return; unset: all.")
        ] = None,
        mode: Annotated[
            SearchMode, arg("Match the words, their meaning, or both (the default).")
        ] = SearchMode.HYBRID,
        category: Annotated[
            str | None, arg("Only papers in this arXiv category (any of theirs).")
        ] = None,
        year_from: Annotated[int | None, arg("Only papers from this year on.")] = None,
        year_to: Annotated[int | None, arg("Only papers up to this year.")] = None,
        first: First = 10,
        after: After = None,
    ) -> SearchConnection:
        wanted = [_KINDS[k] for k in kinds] if kinds is not None else list(search.ALL_KINDS)
        code = _category_code(category) if category is not None else None
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
        filter: Annotated[PaperFilterInput | None, arg("Which papers; unset: every paper.")] = None,
        sort: Annotated[PaperSort, arg("The order of the list.")] = PaperSort.NEWEST,
        first: First = 24,
        after: After = None,
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
        from_: Annotated[
            strawberry.ID,
            strawberry.argument(
                name="from", description="Where the chains start: a researcher's global id or key."
            ),
        ],
        to: Annotated[strawberry.ID, arg("Where the chains end: a researcher's global id or key.")],
        max_length: Annotated[
            int, arg(f"The most hops a chain may have; at most {paths.MAX_HOPS}.")
        ] = 6,
        k: Annotated[
            int, arg(f"How many shortest chains to return; at most {paths.MAX_PATHS}.")
        ] = 1,
        year_from: Annotated[
            int | None, arg("Each hop needs a joint paper of this year or later.")
        ] = None,
        year_to: Annotated[
            int | None, arg("Each hop needs a joint paper of this year or earlier.")
        ] = None,
        category: Annotated[
            str | None, arg("Each hop needs a joint paper in this arXiv category.")
        ] = None,
        institution: Annotated[
            str | None,
            arg(
                "Everyone between the two ends is affiliated with this institution (any of "
                "its ids, or its name)."
            ),
        ] = None,
        strongest: Annotated[
            bool, arg("Return the chain whose weakest hop has the most joint papers instead.")
        ] = False,
    ) -> CollaborationPath:
        limits.size(k, paths.MAX_PATHS, "k", minimum=1)
        limits.size(max_length, paths.MAX_HOPS, "maxLength", minimum=1)
        db = info.context.db
        source = ResearcherRef(id=key_of(from_, "Researcher"))
        target = ResearcherRef(id=key_of(to, "Researcher"))
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
        return CollaborationPath.of(await paths.paths_between(db, source, target, options))
