"""Writes normalised records into the graph: one transaction per batch, idempotent.

A batch of papers is resolved (see :mod:`graph.identity.resolver`), then written in a single
transaction — researchers, their external ids, institutions, papers with categories, authorships,
affiliations, and the COAUTHOR edges and counts of every researcher it touched — so a failure
never leaves half a paper. Re-writing the same records changes nothing: a paper whose record
digest is already stored is skipped, and every write is a MERGE.

COAUTHOR edges count joint papers that have at most ``coauthor_cap`` authors (default 100):
larger papers (collaborations of hundreds) keep their AUTHORED edges, are flagged
``hyperauthored`` and add no COAUTHOR edges.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from scholargraph.graph import curation
from scholargraph.graph.db import Database, Tx
from scholargraph.graph.errors import BadInput, IdentityError
from scholargraph.graph.identity.names import block_key, parse_name
from scholargraph.graph.identity.resolver import Resolution, Resolver
from scholargraph.graph.loaders import rows as r
from scholargraph.graph.loaders.institutions import InstitutionIndex
from scholargraph.graph.records import PaperRecord
from scholargraph.graph.sequences import RESEARCHER_IDS_START
from scholargraph.queries import identity as iq
from scholargraph.queries import loads as lq
from scholargraph.queries import writer as wq

# When several sources match one authorship, the edge keeps the strongest rule (lowest rank).
METHOD_RANK = {
    "curator": 0,
    "orcid": 1,
    "s2_id": 2,
    "openalex_id": 3,
    "cross_source": 4,
    "name_score": 5,
    "new": 6,
}


@dataclass(slots=True)
class WriteSummary:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    rejected: int = 0
    researchers_created: int = 0
    machine_merges: int = 0

    def add(self, other: WriteSummary) -> None:
        self.created += other.created
        self.updated += other.updated
        self.unchanged += other.unchanged
        self.rejected += other.rejected
        self.researchers_created += other.researchers_created
        self.machine_merges += other.machine_merges


@dataclass(slots=True)
class _ResearcherRow:
    id: int | None
    name: str
    orcid: str | None = None
    names: set[str] = field(default_factory=set)
    dblp: set[str] = field(default_factory=set)
    affiliations: dict[str, None] = field(default_factory=dict)
    coauthors: dict[str, None] = field(default_factory=dict)
    categories: dict[str, None] = field(default_factory=dict)
    years: list[int] = field(default_factory=list)

    def row(self, researcher_id: int) -> dict[str, Any]:
        return {
            "id": researcher_id,
            "slug": r.slugify(self.name),
            "name": self.name,
            "name_key": block_key(parse_name(self.name)),
            "orcid": self.orcid,
            "h_index_s2": None,
            "h_index_openalex": None,
            "names": sorted(self.names),
            "dblp": sorted(self.dblp),
            "affiliations": list(self.affiliations)[:20],
            "coauthors": sorted(self.coauthors)[:100],
            "categories": list(self.categories)[:20],
            "year_min": min(self.years, default=None),
            "year_max": max(self.years, default=None),
        }


@dataclass(frozen=True, slots=True)
class PreparedPaper:
    """One record with the rows it writes that depend on the record alone."""

    record: PaperRecord
    digest: str
    props: dict[str, Any]
    categories: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class PreparedPapers:
    """Papers made ready for a write: one record per key (in key order), each with its
    digest and property rows, made once."""

    papers: tuple[PreparedPaper, ...]
    superseded: int  # records dropped for a more recent record of the same key


def prepare_papers(papers: list[PaperRecord], coauthor_cap: int) -> PreparedPapers:
    latest = _latest_per_key(papers)
    prepared = []
    for _, paper in sorted(latest.items()):
        props, categories = r.paper_props(paper, coauthor_cap), r.category_rows(paper)
        prepared.append(
            PreparedPaper(
                record=paper,
                digest=r.digest(paper, props, categories),
                props=props,
                categories=categories,
            )
        )
    return PreparedPapers(tuple(prepared), len(papers) - len(latest))


class GraphWriter:
    def __init__(self, db: Database, *, coauthor_cap: int = 100) -> None:
        self.db = db
        self.coauthor_cap = coauthor_cap
        self.resolver = Resolver(db)
        self.institutions = InstitutionIndex(db)

    async def write_papers(self, papers: list[PaperRecord]) -> WriteSummary:
        prepared = prepare_papers(papers, self.coauthor_cap)
        summary = WriteSummary(unchanged=prepared.superseded)
        stored = await self.db.run(
            lq.PAPER_FINGERPRINTS, {"keys": [p.record.key for p in prepared.papers]}
        )
        known = {row["key"]: set(row["fingerprints"]) for row in stored}
        changed: list[PreparedPaper] = []
        for item in prepared.papers:
            if item.digest in known.get(item.record.key, set()):
                summary.unchanged += 1
                continue
            changed.append(item)
            if item.record.key in known:
                summary.updated += 1
            else:
                summary.created += 1
        if not changed:
            return summary
        slots = [slot for item in changed for slot in r.slots_of(item.record)]
        resolutions = await self.resolver.resolve(slots)
        summary.machine_merges = await self._merge_duplicates(resolutions)
        refs = [i for item in changed for a in item.record.authorships for i in a.institutions]
        await self.institutions.prepare(refs)

        async def work(tx: Tx) -> int:
            return await self._write(tx, changed, resolutions)

        summary.researchers_created = await self.db.unit(work)
        return summary

    async def _merge_duplicates(self, resolutions: list[Resolution]) -> int:
        """Cross-source alignment found one person under two researchers (an id match here,
        the holder of the same slot there): merge them as a recorded machine decision.

        The holder survives. A merge that a curator's "distinct", two ORCIDs or a shared
        paper forbids is left undone, and both keep their slots.
        """
        renamed: dict[int, int] = {}
        for res in resolutions:
            if not res.same_as or res.researcher is None:
                continue
            source = renamed.get(res.researcher, res.researcher)
            survivor = renamed.get(res.same_as[0], res.same_as[0])
            if source == survivor:
                continue
            try:
                await curation.merge(
                    self.db,
                    survivor,
                    [source],
                    actor="machine",
                    reason=f"same author slot {res.slot.position} on {res.slot.paper} in "
                    f"{res.slot.source} and another source, compatible names",
                )
            except (IdentityError, BadInput):
                continue
            renamed[source] = survivor
        for res in resolutions:
            if res.researcher in renamed:
                res.researcher = renamed[res.researcher]
                res.edge_exists = True if res.same_as else res.edge_exists
        return len(renamed)

    async def _write(
        self, tx: Tx, changed: list[PreparedPaper], resolutions: list[Resolution]
    ) -> int:
        institution_ids = await self.institutions.write(tx)
        live = [res for res in resolutions if not res.keep]
        groups = sorted({res.new_group for res in live if res.researcher is None and res.new_group})
        new_ids: dict[str, int] = {}
        if groups:
            first = await _next_ids(tx, "researcher", len(groups))
            new_ids = {group: first + i for i, group in enumerate(groups)}
        for res in live:
            if res.researcher is None and res.new_group is not None:
                res.researcher = new_ids[res.new_group]

        researchers: dict[int, _ResearcherRow] = {}
        identifiers: list[dict[str, Any]] = []
        authorships: list[dict[str, Any]] = []
        affiliations: list[dict[str, Any]] = []
        dropped: list[dict[str, Any]] = []
        authors_of: dict[str, set[int]] = defaultdict(set)
        for res in live:
            assert res.researcher is not None
            slot, rid = res.slot, res.researcher
            row = researchers.setdefault(rid, _ResearcherRow(rid, slot.raw_name))
            row.names.add(slot.raw_name)
            row.orcid = row.orcid or slot.author.orcid
            row.dblp.update(slot.author.dblp)
            row.affiliations.update(dict.fromkeys(slot.affiliations))
            row.coauthors.update(dict.fromkeys(slot.coauthors))
            row.categories.update(dict.fromkeys(slot.categories))
            if slot.year:
                row.years.append(slot.year)
            is_new = res.method == "new"
            for method, key in slot.id_keys:
                if key in res.stored_keys:
                    continue  # it identifies someone already: writing it would change nothing
                scheme, value = key.split(":", 1)
                identifiers.append(
                    {
                        "key": key,
                        "scheme": scheme,
                        "value": value,
                        "researcher": rid,
                        "method": method if is_new else res.method,
                        "source": slot.source,
                    }
                )
            authorships.append(
                {
                    "paper": slot.paper,
                    "researcher": rid,
                    "position": slot.position,
                    "kind": r.kind_of(slot),
                    "raw_name": slot.raw_name,
                    "source": slot.source,
                    "method": res.method,
                    "confidence": res.confidence,
                    "source_ids": " ".join(key for _, key in slot.id_keys) or None,
                }
            )
            authors_of[slot.paper].add(rid)
            for old in res.replaces:
                dropped.append({"paper": slot.paper, "researcher": old, "into": rid})
                authors_of[slot.paper].add(old)
            for institution in institution_ids.resolve_all(slot.institutions):
                affiliations.append(
                    {
                        "researcher": rid,
                        "institution": institution,
                        "source": slot.source,
                        "first_year": slot.year,
                        "last_year": slot.year,
                    }
                )

        holders: dict[str, int] = {}
        for rid, row in sorted(researchers.items()):
            # One ORCID, one researcher: the first keeps it (a later merge can join the rest).
            if row.orcid is not None and holders.setdefault(row.orcid, rid) != rid:
                row.orcid = None
        await tx.run(
            wq.UPSERT_RESEARCHERS,
            {"rows": [row.row(rid) for rid, row in sorted(researchers.items())]},
        )
        identifiers = [
            row
            for row in identifiers
            if row["scheme"] != "orcid" or holders.get(row["value"]) == row["researcher"]
        ]
        unique_ids = list({row["key"]: row for row in reversed(identifiers)}.values())
        await tx.run(wq.UPSERT_IDENTIFIERS, {"rows": unique_ids})
        await tx.run(
            wq.UPSERT_PAPERS,
            {
                "rows": [
                    {
                        "key": item.record.key,
                        "source": item.record.source,
                        "retrieved": item.record.retrieved,
                        "props": item.props,
                        "categories": item.categories,
                    }
                    for item in changed
                ]
            },
        )
        await tx.run(wq.DROP_SLOTS, {"rows": dropped})
        await tx.run(wq.UPSERT_AUTHORSHIPS, {"rows": authorships})
        await tx.run(wq.UPSERT_AFFILIATIONS, {"rows": affiliations})
        await tx.run(wq.RETIRE_EMPTY, {"rows": dropped})
        increments, recount = self._coauthor_changes(changed, live, dropped)
        created = set(new_ids.values())
        fresh: list[list[Any]] = []
        known: list[list[Any]] = []
        for pair in increments:
            (fresh if pair[0] in created or pair[1] in created else known).append(pair)
        await tx.run(wq.CREATE_COAUTHORS, {"rows": fresh})
        await tx.run(wq.INCREMENT_COAUTHORS, {"rows": known})
        await tx.run(wq.REFRESH_COAUTHORS, {"pairs": recount})
        touched = sorted({rid for ids in authors_of.values() for rid in ids})
        await tx.run(wq.REFRESH_RESEARCHER_COUNTS, {"ids": touched})
        await tx.run(
            lq.SET_FINGERPRINTS,
            {
                "rows": [
                    {
                        "key": item.record.key,
                        "source": item.record.source,
                        "fingerprint": item.digest,
                    }
                    for item in changed
                ]
            },
        )
        return len(groups)

    def _coauthor_changes(
        self,
        changed: list[PreparedPaper],
        live: list[Resolution],
        dropped: list[dict[str, Any]],
    ) -> tuple[list[list[Any]], list[list[int]]]:
        """COAUTHOR changes of a batch: increments for pairs joined by a new AUTHORED edge,
        and a full recount for pairs that lost one (a dropped duplicate slot).

        A paper counts for a pair once both edges exist; an edge that already existed was
        counted when it was written, so only new edges add — which keeps re-runs exact.
        """
        small = {
            item.record.key: item.props.get("year")
            for item in changed
            if not item.props["hyperauthored"]
        }
        everyone: dict[str, set[int]] = defaultdict(set)
        new: dict[str, set[int]] = defaultdict(set)
        for res in live:
            if res.slot.paper in small and res.researcher is not None:
                everyone[res.slot.paper].add(res.researcher)
                if not res.edge_exists:
                    new[res.slot.paper].add(res.researcher)
        counts: dict[tuple[int, int], list[Any]] = {}
        for paper, added in new.items():
            year = small[paper]
            for pair in _new_pairs(added, everyone[paper]):
                entry = counts.get(pair)
                if entry is None:
                    counts[pair] = [1, year, year]
                else:
                    entry[0] += 1
                    entry[1] = _min(entry[1], year)
                    entry[2] = _max(entry[2], year)
        # [a, b, joint papers, first year, last year]: lists, not maps, for the largest
        # parameter of a batch
        increments = [[a, b, *entry] for (a, b), entry in sorted(counts.items())]
        recount = sorted(
            {
                (min(row["researcher"], other), max(row["researcher"], other))
                for row in dropped
                for other in everyone.get(row["paper"], ())
                if other != row["researcher"]
            }
        )
        return increments, [list(pair) for pair in recount]


def _new_pairs(added: set[int], everyone: set[int]) -> Iterator[tuple[int, int]]:
    """The (lower, higher) pairs of a paper's authors with at least one newly added."""
    fresh = sorted(added)
    yield from combinations(fresh, 2)
    for other in sorted(everyone - added):
        for x in fresh:
            yield (x, other) if x < other else (other, x)


def _min(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else min(a, b)


def _max(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else max(a, b)


def _latest_per_key(papers: list[PaperRecord]) -> dict[str, PaperRecord]:
    """One record per paper key: the most recently retrieved, then the highest version."""
    latest: dict[str, PaperRecord] = {}
    for paper in papers:
        current = latest.get(paper.key)
        if current is None or _recency(paper) >= _recency(current):
            latest[paper.key] = paper
    return latest


def _recency(paper: PaperRecord) -> tuple[str, int]:
    version = max((v.version for v in paper.versions), default=0)
    return (paper.retrieved.isoformat() if paper.retrieved else "", version)


async def _next_ids(tx: Tx, name: str, count: int) -> int:
    rows = await tx.run(iq.NEXT_IDS, {"name": name, "count": count, "start": RESEARCHER_IDS_START})
    first: int = rows[0]["first"]
    return first
