"""The write plan of one batch of papers: every row each statement will write, decided before
the transaction and independent of it.

:func:`plan` is a pure function of the papers and the :class:`graph.identity.snapshot.Snapshot`
read for them. Researchers the plan creates have no ids yet: they are named by placeholders
``-1, -2, …``, one per entry of :attr:`BatchPlan.new_groups`, and the writer's ``apply``
reserves that many ids inside the transaction and substitutes them into fresh copies of the
rows. Nothing in a plan changes when it is applied, so a transaction the driver retries
applies the same plan again from the start.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Protocol

from scholargraph.graph.identity.mentions import ORDER_RANK, Slot
from scholargraph.graph.identity.name_forms import preferred_name
from scholargraph.graph.identity.names import base_block_key, block_key, parse_name
from scholargraph.graph.identity.precedence import record_ref
from scholargraph.graph.identity.resolver import MachineMerge, Resolved, resolve
from scholargraph.graph.identity.rules import Resolution
from scholargraph.graph.identity.slots import Ref, ref_of
from scholargraph.graph.identity.snapshot import Snapshot, mention_text
from scholargraph.graph.institutions.linking import raw_keys, unlinked_strings
from scholargraph.graph.loaders.rows import slugify
from scholargraph.graph.records import InstitutionRef, PaperRecord, position_kind
from scholargraph.queries import paper_identity as pq
from scholargraph.queries import writer as wq
from scholargraph.queries.loads import FingerprintRow

MAX_AFFILIATIONS = 20
MAX_COAUTHOR_KEYS = 100
MAX_CATEGORIES = 20


class PaperToWrite(Protocol):
    """A changed paper record with what it writes on its own (see the writer's
    ``prepare_papers``)."""

    @property
    def record(self) -> PaperRecord: ...

    @property
    def digest(self) -> str: ...

    @property
    def row(self) -> wq.PaperRow: ...

    @property
    def id_row(self) -> pq.PaperIdRow: ...

    @property
    def props(self) -> dict[str, Any]: ...  # the record's own paper properties

    @property
    def slots(self) -> tuple[Slot, ...]: ...


@dataclass(frozen=True, slots=True)
class PendingAffiliation:
    """An AFFILIATED row whose institution ids the transaction knows (new ones get theirs
    there)."""

    researcher: int
    institutions: tuple[InstitutionRef, ...]
    source: str
    year: int | None


@dataclass(frozen=True, slots=True)
class PendingStrings:
    """A slot's affiliation strings that came without institution ids, for the matcher
    (see :mod:`graph.institutions.linking`)."""

    researcher: int
    strings: tuple[str, ...]
    source: str
    year: int | None


@dataclass(frozen=True, slots=True)
class BatchPlan:
    """What one batch writes, statement by statement, in the order they run."""

    new_groups: tuple[str, ...] = ()
    merges: tuple[MachineMerge, ...] = ()
    researchers: tuple[wq.ResearcherRow, ...] = ()
    identifiers: tuple[wq.IdentifierRow, ...] = ()
    papers: tuple[wq.PaperRow, ...] = ()
    paper_ids: tuple[pq.PaperIdRow, ...] = ()
    authorships: tuple[wq.AuthorshipRow, ...] = ()
    unheld: frozenset[str] = frozenset()  # papers no researcher held before the batch
    swaps: tuple[wq.SwapRow, ...] = ()
    folds: tuple[wq.FoldRow, ...] = ()
    affiliations: tuple[PendingAffiliation, ...] = ()
    strings: tuple[PendingStrings, ...] = ()
    retire: tuple[wq.RetireRow, ...] = ()
    coauthors: tuple[wq.CoauthorRow, ...] = ()  # increments for pairs a new edge joins
    recount: tuple[tuple[int, int], ...] = ()  # pairs that lost a joint paper
    counts: tuple[int, ...] = ()  # researchers whose paper and citation counts change
    rebuild: tuple[int, ...] = ()  # researchers whose matching features are made again
    fingerprints: tuple[FingerprintRow, ...] = ()

    def split_authorships(self) -> tuple[list[wq.AuthorshipRow], list[wq.AuthorshipRow]]:
        """The authorship rows as (edges to create, edges to merge): an edge on a paper no
        one held before the batch, written by one row only, cannot exist yet, so it is
        created outright with what the merge would have set (``CREATE_AUTHORSHIPS``)."""
        pairs = Counter((row["paper"], row["researcher"]) for row in self.authorships)
        created: list[wq.AuthorshipRow] = []
        merged: list[wq.AuthorshipRow] = []
        for row in self.authorships:
            alone = pairs[(row["paper"], row["researcher"])] == 1
            (created if alone and row["paper"] in self.unheld else merged).append(row)
        return created, merged


def plan(papers: Sequence[PaperToWrite], snapshot: Snapshot) -> BatchPlan:
    """The plan of a batch of changed papers (one record per paper key)."""
    slots = [slot for item in papers for slot in item.slots]
    resolved = resolve(slots, snapshot)
    live = [res for res in resolved.resolutions if not res.keep]
    groups = tuple(
        sorted({res.new_group for res in live if res.researcher is None and res.new_group})
    )
    ids = _Ids({group: -(i + 1) for i, group in enumerate(groups)})
    folds = tuple(
        wq.FoldRow(paper=f.paper, researcher=f.loser, into=ids[f.into], source=f.source)
        for f in resolved.folds
    )
    losers = sorted({f.loser for f in resolved.folds})
    increments, recount = _coauthor_changes(papers, live, resolved, snapshot, ids)
    counted = _count_changes(papers, live, resolved, snapshot, ids)
    touched = resolved.touched()
    researchers = _researchers(live, ids)
    orcid_holders = {row["orcid"]: row["id"] for row in researchers if row["orcid"]}
    return BatchPlan(
        new_groups=groups,
        merges=resolved.merges,
        researchers=researchers,
        identifiers=_identifiers(live, ids, orcid_holders),
        papers=tuple(item.row for item in papers),
        paper_ids=tuple(item.id_row for item in papers),
        authorships=tuple(
            _authorship(res, ids[ref_of(res)])
            for res in live
            if not _written_before(res, touched, snapshot)
        ),
        unheld=frozenset(
            item.record.key for item in papers if not snapshot.holders(item.record.key).holders
        ),
        swaps=tuple(
            wq.SwapRow(paper=s.paper, first=s.first, second=s.second) for s in resolved.swaps
        ),
        folds=folds,
        affiliations=tuple(
            PendingAffiliation(
                ids[ref_of(res)], res.slot.institutions, res.slot.source, res.slot.year
            )
            for res in live
            if res.slot.institutions
        ),
        strings=_pending_strings(live, ids),
        retire=tuple(wq.RetireRow(researcher=f["researcher"], into=f["into"]) for f in folds),
        coauthors=increments,
        recount=recount,
        counts=tuple(sorted(counted | set(losers), key=_id_order)),
        rebuild=tuple(sorted({*losers, *(r for s in resolved.swaps for r in (s.first, s.second))})),
        fingerprints=tuple(
            FingerprintRow(
                key=item.record.key, source=record_ref(item.record), fingerprint=item.digest
            )
            for item in papers
        ),
    )


@dataclass(frozen=True, slots=True)
class _Ids:
    """Refs to the ids rows carry: an existing id, or a new group's placeholder."""

    placeholders: dict[str, int]

    def __getitem__(self, ref: Ref) -> int:
        return ref if isinstance(ref, int) else self.placeholders[ref]


def _id_order(rid: int) -> tuple[bool, int]:
    """Existing researchers first (by id), then the new ones in group order."""
    return (rid < 0, abs(rid))


@dataclass(slots=True)
class _Features:
    name: str
    orcid: str | None = None
    names: set[str] = field(default_factory=set)
    dblp: set[str] = field(default_factory=set)
    affiliations: dict[str, None] = field(default_factory=dict)
    coauthors: dict[str, None] = field(default_factory=dict)
    categories: dict[str, None] = field(default_factory=dict)
    years: list[int] = field(default_factory=list)

    def add(self, slot: Slot) -> None:
        self.names.add(slot.raw_name)
        self.orcid = self.orcid or slot.author.orcid
        self.dblp.update(slot.author.dblp)
        self.affiliations.update(dict.fromkeys(slot.affiliations))
        self.coauthors.update(dict.fromkeys(sorted(slot.coauthors)))
        self.categories.update(dict.fromkeys(slot.categories))
        if slot.year:
            self.years.append(slot.year)

    def row(self, researcher: int, orcid: str | None) -> wq.ResearcherRow:
        name = preferred_name([self.name, *self.names])  # "First Last", the fullest form
        return wq.ResearcherRow(
            id=researcher,
            slug=slugify(name),
            name=name,
            name_key=block_key(parse_name(name)),
            base_key=base_block_key(parse_name(name)),
            orcid=orcid,
            h_index_s2=None,
            h_index_openalex=None,
            names=sorted(self.names),
            dblp=sorted(self.dblp),
            affiliations=list(self.affiliations)[:MAX_AFFILIATIONS],
            profile_affiliations=[],
            coauthors=list(self.coauthors)[:MAX_COAUTHOR_KEYS],
            categories=list(self.categories)[:MAX_CATEGORIES],
            year_min=min(self.years, default=None),
            year_max=max(self.years, default=None),
        )


def _researchers(live: Sequence[Resolution], ids: _Ids) -> tuple[wq.ResearcherRow, ...]:
    features: dict[int, _Features] = {}
    for res in live:
        if res.position_only:
            continue  # the mention stays on the slot's edge; the name is not the holder's
        rid = ids[ref_of(res)]
        features.setdefault(rid, _Features(res.slot.author.name)).add(res.slot)
    holders: dict[str, int] = {}
    rows = []
    for rid in sorted(features, key=_id_order):
        orcid = features[rid].orcid
        # One ORCID, one researcher: the first keeps it (a later merge can join the rest).
        if orcid is not None and holders.setdefault(orcid, rid) != rid:
            orcid = None
        rows.append(features[rid].row(rid, orcid))
    return tuple(rows)


def _identifiers(
    live: Sequence[Resolution], ids: _Ids, orcid_holders: dict[str, int]
) -> tuple[wq.IdentifierRow, ...]:
    rows: dict[str, wq.IdentifierRow] = {}
    for res in live:
        if res.position_only:
            continue
        rid = ids[ref_of(res)]
        for method, key in res.slot.id_keys:
            if key in res.stored_keys or key in rows:
                continue  # it identifies someone already: writing it would change nothing
            scheme, value = key.split(":", 1)
            if scheme == "orcid" and orcid_holders.get(value) != rid:
                continue
            rows[key] = wq.IdentifierRow(
                key=key,
                scheme=scheme,
                value=value,
                researcher=rid,
                method=method if res.method == "new" else res.method,
                source=res.slot.source,
            )
    return tuple(rows.values())


def _written_before(
    res: Resolution, touched: tuple[set[int], set[tuple[str, int]]], snapshot: Snapshot
) -> bool:
    """Whether the slot's edge already says all the row would: the same mention, ids and
    affiliations, a rule as strong, and the same position and kind where this source sets
    them (a changed record of a long author list rewrites only its changed slots)."""
    rid, slot = res.researcher, res.slot
    merged, folded = touched
    if rid is None or rid in merged or (slot.paper, rid) in folded:
        return False
    holder = snapshot.holders(slot.paper).by_researcher.get(rid)
    if holder is None or holder.rank is None or holder.rank > res.rank:
        return False
    if holder.source == slot.source:
        kind = position_kind(slot.position, slot.n_authors)
        if (holder.position, holder.kind) != (slot.position, kind):
            return False
    elif _order(slot.source) < _order(holder.source):
        return False
    row = _authorship(res, rid)
    return holder.holds(row["mention"], row["source_ids"], row["affiliations"])


def _order(source: str) -> int:
    return ORDER_RANK.get(source, len(ORDER_RANK))


def _authorship(res: Resolution, researcher: int) -> wq.AuthorshipRow:
    slot = res.slot
    return wq.AuthorshipRow(
        paper=slot.paper,
        researcher=researcher,
        position=slot.position,
        kind=position_kind(slot.position, slot.n_authors),
        raw_name=slot.raw_name,
        source=slot.source,
        method=res.method,
        rank=res.rank,
        confidence=res.confidence,
        source_ids=sorted({key for _, key in slot.id_keys}),
        mention=mention_text(slot.source, res.method, slot.raw_name),
        affiliations=sorted(set(slot.affiliations)),
        # A slot aligned by position alone is its holder's, and so is what it names: written
        # first, it would have given its institutions to the researcher holding the position.
        institutions=institution_keys(slot.source, slot.institutions),
        raw_affiliations=raw_keys(slot.source, _unlinked(slot)),
    )


def _unlinked(slot: Slot) -> tuple[str, ...]:
    return unlinked_strings(slot.affiliations, bool(slot.institutions))


def _pending_strings(live: Sequence[Resolution], ids: _Ids) -> tuple[PendingStrings, ...]:
    """The slots whose strings the matcher reads, for the researchers they resolved to."""
    return tuple(
        PendingStrings(ids[ref_of(res)], strings, res.slot.source, res.slot.year)
        for res in live
        if (strings := _unlinked(res.slot))
    )


def institution_keys(source: str, refs: Sequence[InstitutionRef]) -> list[str]:
    """The institution ids a source gave on a slot, as ``<source>:<scheme>:<value>``: what
    the slot's affiliations are, kept on it so that they can go where the slot goes."""
    keys = {f"{source}:ror:{r.ror_id}" for r in refs if r.ror_id}
    keys |= {f"{source}:openalex:{r.openalex_id}" for r in refs if r.openalex_id}
    return sorted(keys)


def _count_changes(
    papers: Sequence[PaperToWrite],
    live: Sequence[Resolution],
    resolved: Resolved,
    snapshot: Snapshot,
    ids: _Ids,
) -> set[int]:
    """Researchers whose paper or citation counts the batch changes: those with a new edge,
    and every author of a paper whose citation count changes."""
    recited = {item.record.key for item in papers if "citation_count" in item.row["props"]}
    before: dict[str, set[int]] = {}
    changed: set[int] = set()
    for res in live:
        paper = res.slot.paper
        if paper not in before:
            before[paper] = {
                resolved.survivor(h.researcher) for h in snapshot.holders(paper).holders
            }
            if paper in recited:
                changed |= before[paper]
        rid = ids[ref_of(res)]
        if paper in recited or rid not in before[paper]:
            changed.add(rid)
    return changed


def _coauthor_changes(
    papers: Sequence[PaperToWrite],
    live: Sequence[Resolution],
    resolved: Resolved,
    snapshot: Snapshot,
    ids: _Ids,
) -> tuple[tuple[wq.CoauthorRow, ...], tuple[tuple[int, int], ...]]:
    """COAUTHOR changes: increments for pairs a new AUTHORED edge joins, and a recount for
    pairs that lost one (a folded slot).

    A paper counts for a pair once both edges exist; an edge that already existed was
    counted when it was written, so only new edges add — which keeps re-runs exact.
    """
    year_of = {
        item.record.key: item.props.get("year")
        for item in papers
        if not item.props.get("hyperauthored")
    }
    folded: dict[str, set[int]] = defaultdict(set)
    for fold in resolved.folds:
        folded[fold.paper].add(fold.loser)
    batch: dict[str, set[int]] = defaultdict(set)
    for res in live:
        batch[res.slot.paper].add(ids[ref_of(res)])
    counts: dict[tuple[int, int], list[int | None]] = {}
    recount: set[tuple[int, int]] = set()
    for paper, year in year_of.items():
        before = {resolved.survivor(h.researcher) for h in snapshot.holders(paper).holders}
        everyone = (before | batch[paper]) - folded[paper]
        for pair in _new_pairs(batch[paper] - before, everyone):
            entry = counts.setdefault(pair, [0, year, year])
            entry[0] = (entry[0] or 0) + 1
            entry[1] = _min(entry[1], year)
            entry[2] = _max(entry[2], year)
        for loser in folded[paper]:  # two losers' own tie lost the paper too
            recount.update(
                (min(loser, x), max(loser, x)) for x in everyone | folded[paper] if x != loser
            )
    increments = tuple(
        (a, b, int(entry[0] or 0), entry[1], entry[2]) for (a, b), entry in sorted(counts.items())
    )
    return increments, tuple(sorted(recount))


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
