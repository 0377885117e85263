"""Collaboration paths: the shortest coauthor chains between two researchers, with the papers
behind every hop.

``k`` chains come shortest first (then alternatives as long or longer); ``strongest`` gives
instead the one shortest chain whose weakest hop has the most joint papers (ties: the larger
total), found among every shortest chain (up to :data:`ALL_SHORTEST_LIMIT` of them).
Restrictions (years, category, institution) are those of :mod:`queries.read_paths`.

A search explores chains of at most ``max_length`` hops and no further, under the time budget
of the database it is given (:meth:`Database.within`, ``SCHOLARGRAPH_REQUEST_BUDGET_S`` per
request): it ends :attr:`PathOutcome.FOUND`, :attr:`PathOutcome.NO_PATH` (it looked at every
chain within the bound: there is none), or :attr:`PathOutcome.STOPPED` (the budget ran out
first: there may be one).

A hop is **uncertain** when each of its joint papers has an author slot matched to the
researcher with confidence below :data:`LOW_CONFIDENCE` (a same-name score rather than an
identifier): the hop, and so the chain, rests on a merge that may be wrong.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import pairwise
from typing import Any

from scholargraph.graph.db import Database
from scholargraph.graph.errors import BadInput, NotFound, QueryTimedOut
from scholargraph.graph.repo.entities import ResearcherRef, find_researcher, researchers_by_id
from scholargraph.graph.repo.models import Paper, Researcher
from scholargraph.queries import Query
from scholargraph.queries import read_paths as q

LOW_CONFIDENCE = 0.8
MAX_HOPS = q.MAX_HOPS
MAX_PATHS = q.MAX_PATHS
PAPERS_PER_HOP = 5
ALL_SHORTEST_LIMIT = 1000


@dataclass(frozen=True, slots=True)
class PathOptions:
    max_length: int = 6
    k: int = 1
    year_from: int | None = None
    year_to: int | None = None
    category: str | None = None
    institution: int | None = None
    strongest: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.max_length <= MAX_HOPS:
            raise BadInput(f"maxLength must be between 1 and {MAX_HOPS}, not {self.max_length}")
        if not 1 <= self.k <= MAX_PATHS:
            raise BadInput(f"k must be between 1 and {MAX_PATHS}, not {self.k}")

    @property
    def by_papers(self) -> bool:
        """Each hop needs a joint paper in the year window and the category."""
        return self.year_from is not None or self.year_to is not None or self.category is not None

    @property
    def restricted(self) -> bool:
        return self.by_papers or self.institution is not None

    @property
    def one_statement(self) -> bool:
        """The search is one statement that also explains its chain: one chain, found
        without first testing the ends' joint papers."""
        return self.k == 1 and not self.strongest and not self.by_papers

    def describe(self) -> str:
        """The restrictions as words after a sentence, "" when there are none.

        >>> PathOptions(category="math.DG", year_from=2016).describe()
        ' inside math.DG, with joint papers from 2016 on'
        """
        parts = []
        if self.category is not None:
            parts.append(f"inside {self.category}")
        if self._years():
            parts.append(f"with joint papers {self._years()}")
        if self.institution is not None:
            parts.append("through researchers of the institution")
        return "".join(f" {part}," for part in parts).rstrip(",")

    def describe_papers(self) -> str:
        """The papers a hop may rest on, under the year window and the category.

        >>> PathOptions(category="math.DG", year_from=2016, year_to=2020).describe_papers()
        'in math.DG from 2016 to 2020'
        """
        category = f"in {self.category}" if self.category is not None else ""
        return " ".join(part for part in (category, self._years()) if part)

    def _years(self) -> str:
        if self.year_from is not None and self.year_to is not None:
            return f"from {self.year_from} to {self.year_to}"
        if self.year_from is not None:
            return f"from {self.year_from} on"
        if self.year_to is not None:
            return f"up to {self.year_to}"
        return ""


class PathOutcome(Enum):
    FOUND = "found"
    NO_PATH = "no_path"
    STOPPED = "stopped"


@dataclass(frozen=True, slots=True)
class Hop:
    source: Researcher
    target: Researcher
    joint_papers: int
    papers: tuple[Paper, ...]
    confidence: float

    @property
    def uncertain(self) -> bool:
        return self.confidence < LOW_CONFIDENCE


@dataclass(frozen=True, slots=True)
class Chain:
    researchers: tuple[Researcher, ...]
    hops: tuple[Hop, ...]

    @property
    def length(self) -> int:
        return len(self.hops)

    @property
    def uncertain(self) -> bool:
        return any(hop.uncertain for hop in self.hops)

    @property
    def weakest(self) -> int:
        return min((hop.joint_papers for hop in self.hops), default=0)

    @property
    def total_joint_papers(self) -> int:
        return sum(hop.joint_papers for hop in self.hops)


@dataclass(frozen=True, slots=True)
class PathResult:
    source: Researcher
    target: Researcher
    chains: tuple[Chain, ...]
    options: PathOptions
    outcome: PathOutcome
    budget_s: float | None = None
    # an end with no joint paper under the restrictions, so that no chain can start there
    stranded: Researcher | None = None

    @property
    def max_length(self) -> int:
        return self.options.max_length

    @property
    def distance(self) -> int | None:
        return self.chains[0].length if self.chains else None

    @property
    def message(self) -> str:
        where = self.options.describe()
        ends = f"from {self.source.name} to {self.target.name}"
        within = f"within {_hops(self.max_length)}"
        if self.outcome is PathOutcome.FOUND:
            apart = _hops(self.distance or 0)
            return f"{self.source.name} and {self.target.name} are {apart} apart{where}"
        if self.outcome is PathOutcome.NO_PATH and self.stranded is not None:
            papers = self.options.describe_papers()
            return (
                f"no path {within} {ends}{where}: {self.stranded.name} has no joint paper {papers}"
            )
        if self.outcome is PathOutcome.NO_PATH:
            return f"no path {within} {ends}{where}"
        budget = f"its {self.budget_s:g} s" if self.budget_s is not None else "its"
        return (
            f"the search for a path {within} {ends}{where} stopped at {budget} time budget "
            f"before it found one; there may be one: ask for a smaller maxLength"
        )


def _hops(n: int) -> str:
    return f"{n} hop" if n == 1 else f"{n} hops"


def _search_params(first: int, second: int, options: PathOptions) -> dict[str, Any]:
    return {
        "from": first,
        "to": second,
        "year_from": options.year_from,
        "year_to": options.year_to,
        "category": options.category,
        "institution": options.institution,
        "by_papers": options.by_papers,
    }


def _one_search(first: int, second: int, options: PathOptions) -> tuple[Query, dict[str, Any]]:
    """The statement that finds and explains one chain (``options.one_statement``)."""
    search = q.SHORTEST_ONE if options.restricted else q.SHORTEST_UNRESTRICTED
    params = {**_search_params(first, second, options), "per_hop": PAPERS_PER_HOP}
    return search[options.max_length], params


def _one_chain(rows: Sequence[Mapping[str, Any]]) -> Chain | None:
    """The chain :func:`_one_search` found, or None."""
    if not rows:
        return None
    [row] = rows
    people = {p["id"]: Researcher.from_row(p) for p in row["researchers"]}
    return _chain(row["ids"], people, {tuple(hop["pair"]): hop for hop in row["hops"]})


async def paths_between(
    db: Database, source: ResearcherRef, target: ResearcherRef, options: PathOptions
) -> PathResult:
    """:func:`collaboration_paths` between two researchers given by reference.

    When the search is one statement (``options.one_statement``), it is asked for beside the
    lookups of the two ends, on the ids as given, so that a request's batched view sends all
    three as one statement. An end that resolves to another record (merged into it) searches
    again from that record; a search that runs out of time reads the ends on their own and
    says it stopped.
    """
    first, second = source.params()["id"], target.params()["id"]
    if not (options.one_statement and isinstance(first, int) and isinstance(second, int)):
        ends = await asyncio.gather(find_researcher(db, source), find_researcher(db, target))
        return await collaboration_paths(db, *ends, options)
    if first == second:
        one = await find_researcher(db, source)
        return await collaboration_paths(db, one, one, options)
    query, params = _one_search(first, second, options)
    try:
        found_source, found_target, rows = await asyncio.gather(
            find_researcher(db, source), find_researcher(db, target), db.run(query, params)
        )
    except QueryTimedOut:
        ends = await asyncio.gather(find_researcher(db, source), find_researcher(db, target))
        return PathResult(*ends, (), options, PathOutcome.STOPPED, db.budget_s)
    if (found_source.id, found_target.id) != (first, second):
        return await collaboration_paths(db, found_source, found_target, options)
    chain = _one_chain(rows)
    found = PathOutcome.FOUND if chain is not None else PathOutcome.NO_PATH
    chains = (chain,) if chain is not None else ()
    return PathResult(found_source, found_target, chains, options, found, db.budget_s)


async def collaboration_paths(
    db: Database, source: Researcher, target: Researcher, options: PathOptions
) -> PathResult:
    def result(
        chains: Sequence[Chain], outcome: PathOutcome, stranded: Researcher | None = None
    ) -> PathResult:
        return PathResult(source, target, tuple(chains), options, outcome, db.budget_s, stranded)

    if source.id == target.id:
        return result((Chain((source,), ()),), PathOutcome.FOUND)
    params = _search_params(source.id, target.id, options)
    hops = options.max_length
    try:
        if options.by_papers:
            [row] = await db.run(q.ENDS_WITH_JOINT_PAPERS, params)
            stranded = [end for end in (source, target) if end.id not in row["ids"]]
            if stranded:
                return result((), PathOutcome.NO_PATH, stranded[0])
        if options.strongest:
            rows = await db.run(q.ALL_SHORTEST[hops], {**params, "limit": ALL_SHORTEST_LIMIT})
            id_chains = _strongest(rows)
        elif options.k == 1:
            # the one chain is found and explained in one statement
            chain = _one_chain(await db.run(*_one_search(source.id, target.id, options)))
            if chain is None:
                return result((), PathOutcome.NO_PATH)
            return result((chain,), PathOutcome.FOUND)
        else:
            rows = await db.run(q.SHORTEST[hops], {**params, "k": options.k})
            id_chains = [list(row["ids"]) for row in rows]
    except QueryTimedOut:
        return result((), PathOutcome.STOPPED)
    if not id_chains:
        return result((), PathOutcome.NO_PATH)
    return result(await _explain(db, id_chains, options), PathOutcome.FOUND)


async def _explain(
    db: Database, id_chains: Sequence[Sequence[int]], options: PathOptions
) -> list[Chain]:
    """The chains found by a search, their hops' papers and their researchers read together
    (one statement in a request's batched view)."""
    pairs = sorted({(a, b) for chain in id_chains for a, b in pairwise(chain)})
    hop_rows, people = await asyncio.gather(
        db.run(
            q.HOP_PAPERS,
            {
                "pairs": [list(pair) for pair in pairs],
                "year_from": options.year_from,
                "year_to": options.year_to,
                "category": options.category,
                "per_hop": PAPERS_PER_HOP,
            },
        ),
        researchers_by_id(db, {n for chain in id_chains for n in chain}),
    )
    facts = {tuple(row["pair"]): row for row in hop_rows}
    return [_chain(chain, people, facts) for chain in id_chains]


def _chain(
    ids: Sequence[int], people: Mapping[int, Researcher], facts: Mapping[tuple[int, ...], Any]
) -> Chain:
    """The chain through researchers ``ids``, each hop told by its row of ``facts``."""
    hops = []
    for a, b in pairwise(ids):
        row = facts.get((a, b))
        if row is None or not row["joint_papers"]:
            raise NotFound(f"the coauthorship of {a} and {b} changed while being read")
        hops.append(
            Hop(
                source=people[a],
                target=people[b],
                joint_papers=row["joint_papers"],
                papers=tuple(Paper.from_row(p["paper"]) for p in row["papers"]),
                confidence=float(row["confidence"]),
            )
        )
    return Chain(tuple(people[n] for n in ids), tuple(hops))


def _strongest(rows: Sequence[Mapping[str, Any]]) -> list[list[int]]:
    """The chain whose weakest hop has the most joint papers; ties: more in total, then ids."""
    if not rows:
        return []
    best = min(rows, key=lambda r: (-min(r["joints"]), -sum(r["joints"]), list(r["ids"])))
    return [list(best["ids"])]
