"""Collaboration paths: the shortest coauthor chains between two researchers, with the papers
behind every hop.

``k`` chains come shortest first (then alternatives as long or longer); ``strongest`` gives
instead the one shortest chain whose weakest hop has the most joint papers (ties: the larger
total), found among every shortest chain (up to :data:`ALL_SHORTEST_LIMIT` of them).
Restrictions (years, category, institution) are those of :mod:`queries.read_paths`.

A hop is **uncertain** when each of its joint papers has an author slot matched to the
researcher with confidence below :data:`LOW_CONFIDENCE` (a same-name score rather than an
identifier): the hop, and so the chain, rests on a merge that may be wrong.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from scholargraph.graph.db import Database
from scholargraph.graph.errors import BadInput, NotFound
from scholargraph.graph.repo.entities import researchers_by_id
from scholargraph.graph.repo.models import Paper, Researcher
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
    max_length: int

    @property
    def distance(self) -> int | None:
        return self.chains[0].length if self.chains else None

    @property
    def message(self) -> str:
        if self.chains:
            return f"{self.source.name} and {self.target.name} are {self.distance} hops apart"
        return (
            f"no path within {self.max_length} hops from {self.source.name} to "
            f"{self.target.name} under these restrictions"
        )


async def collaboration_paths(
    db: Database, source: Researcher, target: Researcher, options: PathOptions
) -> PathResult:
    if source.id == target.id:
        return PathResult(source, target, (Chain((source,), ()),), options.max_length)
    params = {
        "from": source.id,
        "to": target.id,
        "max_length": options.max_length,
        "year_from": options.year_from,
        "year_to": options.year_to,
        "category": options.category,
        "institution": options.institution,
        "by_papers": options.year_from is not None
        or options.year_to is not None
        or options.category is not None,
    }
    if options.strongest:
        rows = await db.run(q.ALL_SHORTEST, {**params, "limit": ALL_SHORTEST_LIMIT})
        id_chains = _strongest(rows)
    elif options.k == 1:
        unrestricted = not params["by_papers"] and options.institution is None
        rows = await db.run(q.SHORTEST_UNRESTRICTED if unrestricted else q.SHORTEST_ONE, params)
        id_chains = [list(row["ids"]) for row in rows]
    else:
        rows = await db.run(q.SHORTEST, {**params, "k": options.k})
        id_chains = [list(row["ids"]) for row in rows]
    if not id_chains:
        return PathResult(source, target, (), options.max_length)
    chains = await _explain(db, id_chains, options)
    return PathResult(source, target, tuple(chains), options.max_length)


async def _explain(
    db: Database, id_chains: Sequence[Sequence[int]], options: PathOptions
) -> list[Chain]:
    pairs = sorted({(a, b) for chain in id_chains for a, b in pairwise(chain)})
    hop_rows = await db.run(
        q.HOP_PAPERS,
        {
            "pairs": [list(pair) for pair in pairs],
            "year_from": options.year_from,
            "year_to": options.year_to,
            "category": options.category,
            "per_hop": PAPERS_PER_HOP,
        },
    )
    facts = {tuple(row["pair"]): row for row in hop_rows}
    people = await researchers_by_id(db, {n for chain in id_chains for n in chain})
    chains = []
    for chain in id_chains:
        hops = []
        for a, b in pairwise(chain):
            row = facts.get((a, b))
            if row is None:
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
        chains.append(Chain(tuple(people[n] for n in chain), tuple(hops)))
    return chains


def _strongest(rows: Sequence[Mapping[str, Any]]) -> list[list[int]]:
    """The chain whose weakest hop has the most joint papers; ties: more in total, then ids."""
    if not rows:
        return []
    best = min(rows, key=lambda r: (-min(r["joints"]), -sum(r["joints"]), list(r["ids"])))
    return [list(best["ids"])]
