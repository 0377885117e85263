"""Per-request DataLoaders: every kind of question a request asks becomes one statement.

Resolvers ask through these loaders; a loader collects the keys asked for in one tick of the
event loop and answers them with one batched repository call. Keys that carry arguments
(page size, cursor, filter) are grouped by those arguments, so a request that lists the
papers of 24 coauthors with the same arguments still makes one round-trip for all of them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from strawberry.dataloader import DataLoader

from scholargraph.graph import curation
from scholargraph.graph.db import Database
from scholargraph.graph.repo import entities, papers, researchers, same_name
from scholargraph.graph.repo.models import (
    Affiliation,
    Author,
    AuthoredPaper,
    Coauthorship,
    Institution,
    Researcher,
)
from scholargraph.graph.repo.pages import Page, PageRequest

K = TypeVar("K", bound=Hashable)
A = TypeVar("A", bound=Hashable)
V = TypeVar("V")


def _plain(fetch: Callable[[list[K]], Awaitable[Mapping[K, V]]], missing: V) -> DataLoader[K, V]:
    async def load(keys: list[K]) -> list[V]:
        found = await fetch(list(dict.fromkeys(keys)))
        return [found.get(key, missing) for key in keys]

    return DataLoader(load_fn=load)


def _grouped(
    fetch: Callable[[list[K], A], Awaitable[Mapping[K, V]]], missing: Callable[[A], V]
) -> DataLoader[tuple[K, A], V]:
    """A loader of ``(key, arguments)``: one fetch per distinct arguments, run concurrently."""

    async def load(keys: list[tuple[K, A]]) -> list[V]:
        groups: dict[A, list[K]] = {}
        for key, args in keys:
            groups.setdefault(args, []).append(key)
        answers = await asyncio.gather(
            *(fetch(list(dict.fromkeys(ks)), args) for args, ks in groups.items())
        )
        found = {
            (key, args): value
            for args, answer in zip(groups, answers, strict=True)
            for key, value in answer.items()
        }
        return [found.get(key, missing(key[1])) for key in keys]

    return DataLoader(load_fn=load)


def _empty_page(request: PageRequest) -> Page[Any]:
    return Page(edges=[], has_next=False, has_previous=request.after is not None, total=0)


@dataclass(frozen=True, slots=True)
class PaperListKey:
    filter: papers.PaperFilter
    sort: papers.PaperSort
    request: PageRequest


class Loaders:
    def __init__(self, db: Database) -> None:
        self.db = db
        self.researchers: DataLoader[int, Researcher | None] = _plain(self._researchers, None)
        self.institutions: DataLoader[int, Institution | None] = _plain(self._institutions, None)
        self.category_counts: DataLoader[str, entities.CategoryCounts] = _plain(
            self._category_counts, entities.CategoryCounts(0, 0)
        )
        self.profiles: DataLoader[int, researchers.Profile | None] = _plain(self._profiles, None)
        self.most_cited: DataLoader[tuple[int, int], researchers.MostCited | None] = _grouped(
            self._most_cited, lambda _: None
        )
        self.coauthors: DataLoader[tuple[int, tuple[PageRequest, int]], Page[Coauthorship]] = (
            _grouped(self._coauthors, lambda args: _empty_page(args[0]))
        )
        self.affiliations: DataLoader[tuple[int, PageRequest], Page[Affiliation]] = _grouped(
            self._affiliations, _empty_page
        )
        self.members: DataLoader[tuple[int, PageRequest], Page[Researcher]] = _grouped(
            self._members, _empty_page
        )
        # (paper key, (page, brief)): brief pages carry the authors' ids, names, slugs only
        self.authors: DataLoader[tuple[str, tuple[PageRequest, bool]], Page[Author]] = _grouped(
            self._authors, lambda args: _empty_page(args[0])
        )
        self.same_name: DataLoader[tuple[int, int], same_name.SameNameCluster | None] = _grouped(
            self._same_name, lambda _: None
        )
        self.events: DataLoader[tuple[int, int], tuple[curation.CurationEvent, ...]] = _grouped(
            self._events, lambda _: ()
        )
        self.paper_pages: DataLoader[PaperListKey, Page[AuthoredPaper]] = DataLoader(
            load_fn=self._paper_pages
        )
        self.paper_counts: DataLoader[papers.PaperFilter, int] = DataLoader(
            load_fn=self._paper_counts
        )

    async def _researchers(self, ids: list[int]) -> Mapping[int, Researcher]:
        return await entities.researchers_by_id(self.db, ids)

    async def _institutions(self, ids: list[int]) -> Mapping[int, Institution]:
        return await entities.institutions_by_id(self.db, ids)

    async def _category_counts(self, codes: list[str]) -> Mapping[str, entities.CategoryCounts]:
        return await entities.category_counts(self.db, codes)

    async def _profiles(self, ids: list[int]) -> Mapping[int, researchers.Profile]:
        return await researchers.profiles(self.db, ids)

    async def _most_cited(self, ids: list[int], limit: int) -> Mapping[int, researchers.MostCited]:
        return await researchers.most_cited(self.db, ids, limit)

    async def _coauthors(
        self, ids: list[int], args: tuple[PageRequest, int]
    ) -> Mapping[int, Page[Coauthorship]]:
        request, min_joint = args
        return await researchers.coauthor_pages(self.db, ids, request, min_joint)

    async def _affiliations(
        self, ids: list[int], request: PageRequest
    ) -> Mapping[int, Page[Affiliation]]:
        return await researchers.affiliation_pages(self.db, ids, request)

    async def _members(
        self, ids: list[int], request: PageRequest
    ) -> Mapping[int, Page[Researcher]]:
        return await researchers.member_pages(self.db, ids, request)

    async def _authors(
        self, keys: list[str], args: tuple[PageRequest, bool]
    ) -> Mapping[str, Page[Author]]:
        request, brief = args
        return await papers.author_pages(self.db, keys, request, brief=brief)

    async def _same_name(
        self, ids: list[int], limit: int
    ) -> Mapping[int, same_name.SameNameCluster]:
        return await same_name.same_name(self.db, ids, limit)

    async def _events(
        self, ids: list[int], limit: int
    ) -> Mapping[int, tuple[curation.CurationEvent, ...]]:
        return await curation.events(self.db, ids, limit)

    async def _paper_pages(self, keys: list[PaperListKey]) -> list[Page[AuthoredPaper]]:
        groups: dict[tuple[papers.PaperSort, PageRequest], list[PaperListKey]] = {}
        for key in keys:
            groups.setdefault((key.sort, key.request), []).append(key)

        async def one(
            sort: papers.PaperSort, request: PageRequest, members: Sequence[PaperListKey]
        ) -> list[tuple[PaperListKey, Page[AuthoredPaper]]]:
            pages = await papers.paper_pages(self.db, [m.filter for m in members], sort, request)
            return list(zip(members, pages, strict=True))

        answers = await asyncio.gather(
            *(one(sort, request, members) for (sort, request), members in groups.items())
        )
        found = {key: page for answer in answers for key, page in answer}
        return [found[key] for key in keys]

    async def _paper_counts(self, filters: list[papers.PaperFilter]) -> list[int]:
        unique = list(dict.fromkeys(filters))
        counts = dict(zip(unique, await papers.paper_counts(self.db, unique), strict=True))
        return [counts[f] for f in filters]
