"""Writes normalised records into the graph: one transaction per batch, idempotent.

A batch of papers is read against the graph (:func:`graph.identity.resolver.read_snapshot`),
planned (:func:`graph.identity.plan.plan`: every identity decision and every row, a pure
function of the records and that snapshot), then applied in a single transaction by
:func:`apply` — machine merges, researchers, their external ids, institutions, papers with
categories, authorships, affiliations, and the COAUTHOR edges and counts of every researcher
it touched — so a failure never leaves half a paper, and a transaction the driver retries
writes the same plan again. Re-writing the same records changes nothing: a paper whose record
digest is already stored is skipped, and every write is a MERGE.

COAUTHOR edges count joint papers that have at most ``coauthor_cap`` authors (default 100):
larger papers (collaborations of hundreds) keep their AUTHORED edges, are flagged
``hyperauthored`` and add no COAUTHOR edges.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scholargraph.graph import curation
from scholargraph.graph.db import Database, Tx
from scholargraph.graph.identity.mentions import ORDER_RANK, Slot, slots_of
from scholargraph.graph.identity.names import block_key, parse_name, variant_block_keys
from scholargraph.graph.identity.paper_merge import Identified, PaperFields, identify, paper_fields
from scholargraph.graph.identity.plan import BatchPlan, PendingStrings, plan
from scholargraph.graph.identity.precedence import format_ranks
from scholargraph.graph.identity.resolver import CANDIDATES_PER_BLOCK, read_snapshot
from scholargraph.graph.institutions.linking import (
    ID_METHOD,
    ID_SCORE,
    AffiliationLinker,
    StringMatch,
)
from scholargraph.graph.loaders import rows as r
from scholargraph.graph.loaders.collector import collector_held
from scholargraph.graph.loaders.institutions import InstitutionIds, InstitutionIndex
from scholargraph.graph.records import InstitutionRef, PaperRecord
from scholargraph.graph.semantic.store import embed_papers
from scholargraph.graph.sequences import RESEARCHER_IDS_START
from scholargraph.queries import Query
from scholargraph.queries import converge as cq
from scholargraph.queries import identity as iq
from scholargraph.queries import loads as lq
from scholargraph.queries import paper_identity as pq
from scholargraph.queries import writer as wq

# A batch's one transaction (up to 2,000 records, a hyperauthor paper's thousands of slots,
# and the embedding of its papers) on a busy server: well past a request's query timeout.
BATCH_TIMEOUT_S = 600.0


@dataclass(slots=True)
class WriteSummary:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    rejected: int = 0
    researchers_created: int = 0
    machine_merges: int = 0
    paper_merges: int = 0  # stored papers found to be one (recorded machine merges)
    untitled: int = 0  # papers written that no source has titled yet
    embedded: int = 0  # papers whose vector was (re)computed (graph.semantic)

    def add(self, other: WriteSummary) -> None:
        self.created += other.created
        self.updated += other.updated
        self.unchanged += other.unchanged
        self.rejected += other.rejected
        self.researchers_created += other.researchers_created
        self.machine_merges += other.machine_merges
        self.paper_merges += other.paper_merges
        self.untitled += other.untitled
        self.embedded += other.embedded


@dataclass(frozen=True, slots=True)
class PreparedPaper:
    """One record with the rows it writes that depend on the record alone."""

    record: PaperRecord
    digest: str
    props: dict[str, Any]
    categories: list[wq.CategoryRow]
    slots: tuple[Slot, ...]
    fields: PaperFields  # what the batch's records of this paper (this one among them) write

    @property
    def row(self) -> wq.PaperRow:
        """The paper's row of ``UPSERT_PAPERS``."""
        chosen = self.fields.choice
        return wq.PaperRow(
            key=self.record.key,
            sources=list(self.fields.sources),
            retrieved=self.record.retrieved,
            props=chosen.props,
            ranks=format_ranks(chosen.ranks),
            categories=None
            if chosen.categories is None
            else [wq.CategoryRow(code=c["code"], primary=c["primary"]) for c in chosen.categories],
        )

    @property
    def id_row(self) -> pq.PaperIdRow:
        return self.fields.ids


@dataclass(frozen=True, slots=True)
class PreparedPapers:
    """Papers made ready for a write: one record per key (in key order), each with its
    digest and property rows, made once."""

    papers: tuple[PreparedPaper, ...]
    superseded: int  # records dropped for a more recent record of the same key


def prepare_papers(
    papers: list[PaperRecord], coauthor_cap: int, identified: Identified | None = None
) -> PreparedPapers:
    """Records keyed by paper identity (``identified``, else by their own ids); each paper's
    fields are chosen from all its records, its slots come from the latest one."""
    latest = _latest_per_key(papers)
    own = {
        id(paper): (r.paper_props(paper, coauthor_cap), r.category_rows(paper)) for paper in papers
    }
    fields = paper_fields(
        [(paper, *own[id(paper)]) for paper in papers], identified or Identified.of(papers)
    )
    # A paper with several records in the batch (two OpenAlex works of one paper) is
    # unchanged only if all of them are: its digest covers every one.
    digests: dict[str, list[str]] = {}
    for paper in papers:
        digests.setdefault(paper.key, []).append(r.digest(paper, *own[id(paper)]))
    prepared = []
    for key, paper in sorted(latest.items()):
        props, categories = own[id(paper)]
        digest = r.digest(paper, props, categories)
        if len(digests[key]) > 1:
            together = "|".join(sorted(digests[key])).encode()
            digest = f"{digest}+{hashlib.blake2b(together, digest_size=12).hexdigest()}"
        prepared.append(
            PreparedPaper(
                record=paper,
                digest=digest,
                props=props,
                categories=categories,
                slots=slots_of(paper, hyperauthored=props["hyperauthored"]),
                fields=fields[key],
            )
        )
    return PreparedPapers(tuple(prepared), len(papers) - len(latest))


class GraphWriter:
    def __init__(
        self,
        db: Database,
        *,
        coauthor_cap: int = 100,
        candidates_per_block: int = CANDIDATES_PER_BLOCK,
        embed: bool = True,
    ) -> None:
        """``embed=False`` leaves papers' vectors to ``scholargraph db embed``."""
        self.db = db
        self.embed = embed
        self.coauthor_cap = coauthor_cap
        self.candidates_per_block = candidates_per_block
        # Name blocks of every slot written, for the convergence pass after the load.
        self.touched: set[str] = set()
        # Researchers already in the store that a slot was written to: the pass settles the
        # blocks they are filed under too (see :func:`graph.loaders.converge.holder_blocks`).
        self.holders: set[int] = set()
        # Keys of every paper written, whose authors' topics the load computes again.
        self.written: set[str] = set()
        # Slots' affiliation strings to the store's ROR institutions, one index per load.
        self.linker = AffiliationLinker(db)

    async def write_papers(self, papers: list[PaperRecord]) -> WriteSummary:
        """Write a batch of records (see the module); the collector is held off meanwhile
        (:mod:`graph.loaders.collector`)."""
        with collector_held():
            return await self._write_papers(papers)

    async def _write_papers(self, papers: list[PaperRecord]) -> WriteSummary:
        identified = await identify(self.db, papers)
        prepared = prepare_papers(list(identified.records), self.coauthor_cap, identified)
        summary = WriteSummary(unchanged=prepared.superseded)
        summary.paper_merges = len(identified.plan.merges)
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
        slots = [slot for item in changed for slot in item.slots]
        snapshot = await read_snapshot(
            self.db, slots, candidates_per_block=self.candidates_per_block
        )
        batch = plan(changed, snapshot)
        matched = await self.linker.match(t for p in batch.strings for t in p.strings)
        institutions = InstitutionIndex(self.db)
        await institutions.prepare(
            [
                *(i for item in changed for s in item.slots for i in s.institutions),
                *(InstitutionRef(ror_id=m.ror_id) for m in matched.values()),
            ]
        )

        keys = [item.record.key for item in changed]

        async def work(tx: Tx) -> int:
            await apply(tx, batch, institutions, matched)
            # Of the fields the store now holds, so in the same transaction as the paper.
            return await embed_papers(tx, keys) if self.embed else 0

        summary.embedded = await self.db.unit(work, timeout_s=BATCH_TIMEOUT_S)
        self.touched |= touched_blocks(batch)
        self.holders.update(
            row["researcher"] for row in batch.authorships if row["researcher"] >= 0
        )
        self.written.update(keys)
        summary.untitled = sum("title" not in item.fields.choice.ranks for item in changed)
        summary.researchers_created = len(batch.new_groups)
        summary.machine_merges = len(batch.merges)
        return summary


def touched_blocks(batch: BatchPlan) -> set[str]:
    """The name blocks a plan writes slots in: its researchers' and its printed names'."""
    blocks = {row["name_key"] for row in batch.researchers}
    for row in batch.authorships:
        name = parse_name(row["raw_name"])
        blocks.add(block_key(name))
        blocks.update(variant_block_keys(name))
    return blocks


class _Reserved:
    """Placeholder ids of a plan (``-1, -2, …``) → the ids reserved for them."""

    def __init__(self, first: int) -> None:
        self.first = first

    def __call__(self, rid: int) -> int:
        return rid if rid >= 0 else self.first - rid - 1

    def pair(self, a: int, b: int) -> tuple[int, int]:
        x, y = self(a), self(b)
        return (x, y) if x < y else (y, x)


async def apply(
    tx: Tx,
    batch: BatchPlan,
    institutions: InstitutionIndex,
    matched: Mapping[str, StringMatch] | None = None,
) -> None:
    """Write a plan in the caller's transaction: reserve the ids of its new researchers, then
    run its statements on fresh copies of its rows with those ids substituted. It never
    changes ``batch`` (nor ``institutions``), so a retried transaction applies it again.
    ``matched``: the batch's strings the matcher linked (see
    :mod:`graph.institutions.linking`). A statement with no rows is not sent."""
    first = await _reserve(tx, len(batch.new_groups))
    real = _Reserved(first)
    order = dict(ORDER_RANK)
    await curation.machine_merges(tx, batch.merges)
    institution_ids = await institutions.write(tx)
    await _unwind(
        tx, wq.UPSERT_RESEARCHERS, [{**r, "id": real(r["id"])} for r in batch.researchers]
    )
    await _unwind(
        tx,
        wq.UPSERT_IDENTIFIERS,
        [{**r, "researcher": real(r["researcher"])} for r in batch.identifiers],
    )
    await _unwind(tx, wq.UPSERT_PAPERS, list(batch.papers))
    await _unwind(tx, pq.UPSERT_PAPER_IDS, list(batch.paper_ids))
    await _unwind(tx, wq.SWAP_SLOTS, list(batch.swaps))
    fresh_edges, edges = batch.split_authorships()
    await _unwind(
        tx, wq.CREATE_AUTHORSHIPS, [{**r, "researcher": real(r["researcher"])} for r in fresh_edges]
    )
    authorships = [{**r, "researcher": real(r["researcher"])} for r in edges]
    await _unwind(tx, wq.UPSERT_AUTHORSHIPS, authorships, order=order)
    folds: list[wq.FoldRow] = [{**r, "into": real(r["into"])} for r in batch.folds]
    # A folded edge's institutions are the holder's affiliations, as a moved slot's are.
    await _unwind(
        tx,
        cq.MOVE_SLOT_AFFILIATIONS,
        [
            cq.SlotAffiliationsRow(source=f["researcher"], target=f["into"], papers=[f["paper"]])
            for f in folds
        ],
    )
    await _unwind(tx, wq.FOLD_SLOTS, folds, order=order)
    affiliations: list[wq.AffiliationRow] = [
        wq.AffiliationRow(
            researcher=real(pending.researcher),
            institution=institution,
            source=pending.source,
            first_year=pending.year,
            last_year=pending.year,
            from_papers=True,
            from_strings=False,
            profile_keys=[],
            method=ID_METHOD,
            score=ID_SCORE,
            raw=[],
        )
        for pending in batch.affiliations
        for institution in institution_ids.resolve_all(pending.institutions)
    ]
    affiliations += matched_rows(batch.strings, matched or {}, institution_ids, real)
    await _unwind(tx, wq.UPSERT_AFFILIATIONS, affiliations)
    await _unwind(tx, wq.RETIRE_EMPTY, [{**r, "into": real(r["into"])} for r in batch.retire])
    fresh: list[list[Any]] = []
    known: list[list[Any]] = []
    for a, b, joint, first_year, last_year in batch.coauthors:
        (fresh if a < 0 or b < 0 else known).append(
            [*real.pair(a, b), joint, first_year, last_year]
        )
    await _unwind(tx, wq.CREATE_COAUTHORS, fresh)
    await _unwind(tx, wq.INCREMENT_COAUTHORS, known)
    if batch.recount:
        pairs = [list(real.pair(a, b)) for a, b in batch.recount]
        await tx.run(wq.REFRESH_COAUTHORS, {"pairs": pairs})
    if batch.counts:
        await tx.run(wq.REFRESH_RESEARCHER_COUNTS, {"ids": [real(x) for x in batch.counts]})
    if batch.rebuild:
        await tx.run(wq.REBUILD_FEATURES, {"ids": list(batch.rebuild)})
    await _unwind(tx, lq.SET_FINGERPRINTS, list(batch.fingerprints))


def matched_rows(
    pending: Sequence[PendingStrings],
    matched: Mapping[str, StringMatch],
    institution_ids: InstitutionIds,
    real: Callable[[int], int],
) -> list[wq.AffiliationRow]:
    """An ``AFFILIATED`` row for each string of a slot the matcher linked."""
    rows: list[wq.AffiliationRow] = []
    for slot in pending:
        for text in slot.strings:
            found = matched.get(text)
            institution = (
                None if found is None else institution_ids.resolve(InstitutionRef(found.ror_id))
            )
            if found is None or institution is None:
                continue
            rows.append(
                wq.AffiliationRow(
                    researcher=real(slot.researcher),
                    institution=institution,
                    source=slot.source,
                    first_year=slot.year,
                    last_year=slot.year,
                    from_papers=False,
                    from_strings=True,
                    profile_keys=[],
                    method=found.method,
                    score=found.score,
                    raw=[text],
                )
            )
    return rows


async def _unwind(tx: Tx, query: Query, rows: Sequence[Any], **params: Any) -> None:
    if rows:
        await tx.run(query, {"rows": list(rows), **params})


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


async def _reserve(tx: Tx, count: int) -> int:
    """The first of ``count`` researcher ids reserved in this transaction (none: 0)."""
    if not count:
        return 0
    rows = await tx.run(
        iq.NEXT_IDS, {"name": "researcher", "count": count, "start": RESEARCHER_IDS_START}
    )
    first: int = rows[0]["first"]
    return first
