"""Search: an identifier finds its entity; words search the full-text indexes.

An arXiv id, a DOI, an ORCID iD, a ROR id or a researcher id (``2004394``,
``2004394-ziming-liu``) is looked up directly and answers with that one entity (score 1.0).
Anything else is matched word by word (the last word as a prefix) against paper titles and
abstracts, researcher names and institution names, and the hits of the three indexes are
ranked together by Lucene score. That is the ``keyword`` mode; ``semantic`` matches the
words' meaning against paper and researcher vectors, and ``hybrid`` (the default) fuses the two
rankings (:mod:`graph.repo.semantic`). A search is at most :data:`MAX_SEARCH_CHARS` characters and
each word at most :data:`MAX_WORD_CHARS` (Lucene cannot match a word of about a thousand).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal

from scholargraph.graph import ids
from scholargraph.graph.db import Database
from scholargraph.graph.errors import BadInput, NotFound
from scholargraph.graph.repo import entities
from scholargraph.graph.repo.lucene import terms_query
from scholargraph.graph.repo.models import Institution, Paper, Researcher, Row
from scholargraph.graph.repo.pages import Edge, Page, PageRequest, decode_cursor, encode_cursor
from scholargraph.graph.repo.semantic import PaperFilter, hybrid, items, nearest, semantic_page
from scholargraph.queries import read_search as q

SearchKind = Literal["paper", "researcher", "institution"]
SearchMode = Literal["keyword", "semantic", "hybrid"]
ALL_KINDS: tuple[SearchKind, ...] = ("paper", "researcher", "institution")
WINDOW = 500  # hits ranked per index; deeper pages are not served
MAX_SEARCH_CHARS = 1000
MAX_WORD_CHARS = 200
ANY_PAPER = PaperFilter()
_RESEARCHER_ID = re.compile(r"^\d+(?:-[a-z0-9-]+)?$")


@dataclass(frozen=True, slots=True)
class SearchHit:
    kind: SearchKind
    score: float
    entity: Paper | Researcher | Institution


async def search(
    db: Database,
    text: str,
    request: PageRequest,
    kinds: Collection[SearchKind] = ALL_KINDS,
    *,
    mode: SearchMode = "hybrid",
    papers: PaperFilter = ANY_PAPER,
) -> Page[SearchHit]:
    wanted = [k for k in ALL_KINDS if k in kinds]
    if not wanted:
        raise BadInput("kinds is empty; ask for papers, researchers or institutions")
    _check_length(text)
    exact = await _by_identifier(db, text.strip(), wanted)
    if exact is not None:
        return _single(exact, request)
    after = decode_cursor(request.after, "search", arity=3) if request.after else [None] * 3
    if mode == "keyword":
        result = await _keyword(db, text, wanted, papers, request.fetch, after)
        rows, total = result["rows"], result["total"]
    elif mode == "semantic":
        rows, total = await semantic_page(db, text, wanted, papers, request.fetch, after)
    else:
        ranked = await _hybrid(db, text, wanted, papers)
        total = len(ranked)
        rows = await items(db, [r for r in ranked if _after(r, after)][: request.fetch])

    def cursor(row: Row) -> str:
        return encode_cursor("search", row["score"], row["kind"], row["key"])

    return Page.from_rows(rows, request, make=_hit, cursor=cursor, total=total)


async def _keyword(
    db: Database,
    text: str,
    kinds: list[SearchKind],
    papers: PaperFilter,
    limit: int,
    after: list[object],
    *,
    with_items: bool = True,
) -> Row:
    params = {
        "items": with_items,
        "lucene": terms_query(text),
        "kinds": kinds,
        "window": WINDOW,
        "limit": limit,
        "after_score": after[0],
        "after_kind": after[1],
        "after_key": after[2],
        **papers.params(),
    }
    rows = await db.run(q.SEARCH, params)
    return rows[0]


async def _hybrid(
    db: Database, text: str, kinds: list[SearchKind], papers: PaperFilter
) -> list[Row]:
    limit = WINDOW * len(kinds)
    vectors, keyword = await asyncio.gather(
        nearest(db, text, kinds, papers),
        _keyword(db, text, kinds, papers, limit, [None] * 3, with_items=False),
    )
    return hybrid(keyword["rows"], vectors)


def _after(row: Row, after: list[object]) -> bool:
    """Whether ``row`` comes after the cursor (score, kind, key) in the ranking."""
    score, kind, key = after
    if score is None:
        return True
    return (-row["score"], row["kind"], row["key"]) > (-float(str(score)), str(kind), str(key))


def _check_length(text: str) -> None:
    longest = max(text.split(), key=len, default="")
    if len(longest) > MAX_WORD_CHARS:
        raise BadInput(
            f"the search word {longest[:30]!r}… is {len(longest):,} characters long; words are "
            f"at most {MAX_WORD_CHARS}: search by shorter words"
        )
    if len(text) > MAX_SEARCH_CHARS:
        raise BadInput(
            f"the search is {len(text):,} characters long; the limit is {MAX_SEARCH_CHARS:,}: "
            f"search by a few words of a name or title"
        )


def _hit(row: Row) -> SearchHit:
    kind = row["kind"]
    item = row["item"]
    entity: Paper | Researcher | Institution
    if kind == "paper":
        entity = Paper.from_row(item)
    elif kind == "researcher":
        entity = Researcher.from_row(item)
    else:
        entity = Institution.from_row(item)
    return SearchHit(kind, float(row["score"]), entity)


async def _by_identifier(
    db: Database, text: str, kinds: Collection[SearchKind]
) -> SearchHit | None:
    """The entity an identifier names, if ``text`` is one of a kind asked for."""
    try:
        if "paper" in kinds and (ids.is_arxiv_id(text) or text.lower().startswith(("10.", "doi:"))):
            return SearchHit("paper", 1.0, await entities.find_paper(db, text))
        if "researcher" in kinds and _looks_like_orcid(text):
            ref = entities.ResearcherRef(orcid=text)
            return SearchHit("researcher", 1.0, await entities.find_researcher(db, ref))
        if "researcher" in kinds and _RESEARCHER_ID.match(text):
            ref = entities.ResearcherRef(id=text)
            return SearchHit("researcher", 1.0, await entities.find_researcher(db, ref))
        if "institution" in kinds and _is_ror(text):
            return SearchHit("institution", 1.0, await entities.find_institution(db, text))
    except NotFound:
        return None
    return None


def _looks_like_orcid(text: str) -> bool:
    try:
        ids.normalize_orcid(text)
    except BadInput:
        return False
    return True


def _is_ror(text: str) -> bool:
    try:
        ids.normalize_ror(text)
    except BadInput:
        return False
    return True


def _single(hit: SearchHit, request: PageRequest) -> Page[SearchHit]:
    key = str(getattr(hit.entity, "key", None) or getattr(hit.entity, "id", ""))
    edges = [Edge(encode_cursor("search", hit.score, hit.kind, key), hit)]
    return Page(
        edges=edges if request.after is None and request.first > 0 else [],
        has_next=False,
        has_previous=request.after is not None,
        total=1,
    )
