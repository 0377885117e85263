"""Which paper a record is: the rules, pure (the graph's side is :mod:`paper_merge`).

A paper is known by every id any source gave it — its arXiv id (however printed, or as the
DataCite DOI ``10.48550/arXiv.<id>``), DOIs, S2 paper ids and CorpusIds, OpenAlex work ids
and MAG ids — each stored once as a ``PaperId`` key (:func:`paper_ids`). A record joins the
paper that holds any of its ids; records of one batch that share an id are one paper; a
record whose ids are held by two papers links them, and they are merged (a recorded machine
decision). A preprint and its published version, which OpenAlex gives as two works with one
DOI, are one paper this way, keeping both works' ids and DOIs.

Two things keep apart papers that share an id: two different arXiv ids are two papers, and
so are two papers a curator marked distinct. An id such a record carries stays with the
paper that holds it (the record keeps its value as a field), and the conflict is reported.

A paper's key follows from all its ids (:func:`best_key`): its arXiv id, else
``doi:<the first DOI>``, ``s2:<sha>``, ``openalex:<W…>``, ``mag:<id>``, ``corpus:<id>`` —
so the key is the same whatever order the records came in, and a paper known by DOI is
renamed to its arXiv id once a record gives one (old keys keep resolving by id).

>>> from scholargraph.graph.records import PaperRecord
>>> preprint = PaperRecord("openalex", "LLaMA", arxiv_id="2302.13971", openalex_id="W1")
>>> journal = PaperRecord("openalex", "LLaMA", doi="10.1/llama", openalex_id="W2")
>>> plan = plan_papers([journal], {})
>>> plan.records[0].key
'doi:10.1/llama'
>>> stored = {i: StoredPaper("doi:10.1/llama", paper_ids(journal)) for i in paper_ids(journal)}
>>> later = PaperRecord("s2", "LLaMA", arxiv_id="2302.13971", doi="10.1/llama")
>>> plan = plan_papers([later, preprint], stored)
>>> [r.key for r in plan.records], plan.renames
(['2302.13971', '2302.13971'], (('doi:10.1/llama', '2302.13971'),))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from scholargraph.graph.identity.precedence import record_ref
from scholargraph.graph.ids import arxiv_id_from_doi
from scholargraph.graph.records import PaperRecord

# The id schemes, strongest first: the order a record's ids link it, and a key's preference.
SCHEMES = ("arxiv", "doi", "s2", "openalex", "mag", "corpus")


def paper_ids(record: PaperRecord) -> tuple[str, ...]:
    """Every id key a record gives its paper (``arxiv:2302.13971``, ``doi:10.1/x`` …).

    A DataCite DOI naming another arXiv id than the record's own says nothing of it: it is
    left out.

    >>> paper_ids(PaperRecord("s2", "T", doi="10.48550/arxiv.2302.13971", s2_corpus_id=7))
    ('arxiv:2302.13971', 'corpus:7')
    """
    doi = record.doi
    if doi and record.arxiv_id and arxiv_id_from_doi(doi) not in (None, record.arxiv_id):
        doi = None
    return id_keys(
        arxiv=record.arxiv_id,
        doi=doi,
        s2=record.s2_id,
        openalex=record.openalex_id,
        mag=record.mag_id,
        corpus=str(record.s2_corpus_id) if record.s2_corpus_id else None,
    )


def id_keys(**values: str | None) -> tuple[str, ...]:
    """Id keys of the given ids by scheme (``doi=…``: a DataCite arXiv DOI is the arXiv id)."""
    keys: list[str] = []
    for scheme in SCHEMES:
        value = values.get(scheme)
        if not value:
            continue
        if scheme == "doi" and (from_doi := arxiv_id_from_doi(value)):
            keys.append(f"arxiv:{from_doi}")
        else:
            keys.append(f"{scheme}:{value}")
    return tuple(dict.fromkeys(keys))


def doi_id(doi: str) -> str:
    """The id key of a DOI: ``doi:<doi>``, or the arXiv id a DataCite DOI stands for."""
    return id_keys(doi=doi)[0]


def scheme_of(id_key: str) -> str:
    return id_key.split(":", 1)[0]


def _strength(id_key: str) -> tuple[int, str]:
    return SCHEMES.index(scheme_of(id_key)), id_key


def best_key(id_keys: Sequence[str] | frozenset[str]) -> str:
    """The paper key of a set of id keys: the strongest scheme, the first id in it.

    >>> best_key(["doi:10.2/b", "openalex:W9", "doi:10.1/a"])
    'doi:10.1/a'
    >>> best_key(["doi:10.1/a", "arxiv:astro-ph/9901001"])
    'astro-ph/9901001'
    """
    if not id_keys:
        raise ValueError("a paper needs at least one id")
    best = min(id_keys, key=_strength)
    return best.split(":", 1)[1] if scheme_of(best) == "arxiv" else best


@dataclass(frozen=True, slots=True)
class StoredPaper:
    """A paper already in the graph, as identity sees it."""

    key: str
    ids: tuple[str, ...]
    distinct: tuple[str, ...] = ()  # keys of papers a curator marked distinct from it


@dataclass(frozen=True, slots=True)
class PaperMerge:
    """Two papers found to be one: ``merged`` joins ``survivor``; ``by`` is the id that
    linked them (through the record ``ref``)."""

    survivor: str
    merged: str
    by: str
    ref: str

    @property
    def reason(self) -> str:
        return f"{self.ref} gives both papers' ids ({self.by} is {self.merged}'s)"


@dataclass(frozen=True, slots=True)
class IdConflict:
    """An id a record gives that another paper holds, which cannot join the record's own."""

    ref: str
    id_key: str
    held_by: str
    reason: str


@dataclass(frozen=True, slots=True)
class PaperPlan:
    """What a batch's records are: each with its paper key (``graph_key``), the merges and
    renames to apply first (in order), the id keys each paper's records give it (those a
    conflict leaves with another paper excepted), and the conflicts."""

    records: tuple[PaperRecord, ...]
    merges: tuple[PaperMerge, ...] = ()
    renames: tuple[tuple[str, str], ...] = ()
    ids: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    conflicts: tuple[IdConflict, ...] = ()


@dataclass(slots=True)
class _Group:
    arxiv: set[str]
    papers: set[str]  # stored paper keys
    distinct: set[str]
    records: set[int]

    def absorb(self, other: _Group) -> None:
        self.arxiv |= other.arxiv
        self.papers |= other.papers
        self.distinct |= other.distinct
        self.records |= other.records


class _Groups:
    """Union-find over records (``r<index>``) and stored papers (``p<key>``)."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}
        self.group: dict[str, _Group] = {}

    def add(self, node: str, group: _Group) -> None:
        if node not in self.parent:
            self.parent[node] = node
            self.group[node] = group

    def find(self, node: str) -> str:
        root = node
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[node] != root:
            self.parent[node], node = root, self.parent[node]
        return root

    def why_apart(self, a: str, b: str) -> str | None:
        x, y = self.group[self.find(a)], self.group[self.find(b)]
        if len(x.arxiv | y.arxiv) > 1:
            return f"two arXiv ids ({', '.join(sorted(x.arxiv | y.arxiv))}) are two papers"
        if x.distinct & y.papers or y.distinct & x.papers:
            return "a curator marked the papers distinct"
        return None

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            ra, rb = sorted((ra, rb))
            self.parent[rb] = ra
            self.group[ra].absorb(self.group.pop(rb))


def plan_papers(records: Sequence[PaperRecord], stored: Mapping[str, StoredPaper]) -> PaperPlan:
    """The papers a batch's records are, given the stored papers holding any of their ids
    (``stored``: id key → paper). Links are taken strongest id first (arXiv ids, then DOIs,
    S2, OpenAlex, MAG and CorpusIds), each only if it keeps the rules above."""
    groups = _Groups()
    papers = {paper.key: paper for paper in stored.values()}
    for key, paper in sorted(papers.items()):
        arxiv = {i for i in paper.ids if scheme_of(i) == "arxiv"}
        groups.add(f"p{key}", _Group(arxiv, {key}, set(paper.distinct), set()))
    ids_of = [paper_ids(record) for record in records]
    for index, own in enumerate(ids_of):
        arxiv = {i for i in own if scheme_of(i) == "arxiv"}
        groups.add(f"r{index}", _Group(arxiv, set(), set(), {index}))

    first_holder = {id_key: f"p{paper.key}" for id_key, paper in stored.items()}
    links = sorted(
        (_strength(id_key), index, id_key) for index, own in enumerate(ids_of) for id_key in own
    )
    conflicts: list[IdConflict] = []
    refused: set[tuple[int, str]] = set()
    for _, index, id_key in links:
        node = f"r{index}"
        holder = first_holder.setdefault(id_key, node)
        if holder == node:
            continue
        reason = groups.why_apart(node, holder)
        if reason is None:
            groups.union(node, holder)
            continue
        refused.add((index, id_key))
        held_by = stored[id_key].key if id_key in stored else record_ref(records[int(holder[1:])])
        conflicts.append(IdConflict(record_ref(records[index]), id_key, held_by, reason))

    return _plan_of(records, ids_of, groups, papers, refused, tuple(conflicts))


def _plan_of(
    records: Sequence[PaperRecord],
    ids_of: list[tuple[str, ...]],
    groups: _Groups,
    papers: Mapping[str, StoredPaper],
    refused: set[tuple[int, str]],
    conflicts: tuple[IdConflict, ...],
) -> PaperPlan:
    keyed: dict[int, str] = {}
    merges: list[PaperMerge] = []
    renames: list[tuple[str, str]] = []
    ids: dict[str, tuple[str, ...]] = {}
    for root in sorted({groups.find(node) for node in groups.parent}):
        group = groups.group[root]
        if not group.records:
            continue
        held = {i for key in group.papers for i in papers[key].ids}
        given = {i for r in group.records for i in ids_of[r] if (r, i) not in refused}
        # a record all of whose ids another paper holds is still a paper, keyed by its own
        own = held | given or {i for r in group.records for i in ids_of[r]}
        target = best_key(sorted(own))
        survivor = _survivor(group.papers, target)
        for other in sorted(group.papers - {survivor} if survivor else ()):
            by, ref = _link(other, papers, group.records, ids_of, records)
            merges.append(PaperMerge(survivor or target, other, by, ref))
        if survivor is not None and survivor != target:
            renames.append((survivor, target))
        ids[target] = tuple(sorted(given, key=_strength))
        keyed.update(dict.fromkeys(group.records, target))
    return PaperPlan(
        records=tuple(replace(r, graph_key=keyed[i]) for i, r in enumerate(records)),
        merges=tuple(merges),
        renames=tuple(renames),
        ids=ids,
        conflicts=conflicts,
    )


def _survivor(stored_keys: set[str], target: str) -> str | None:
    """Of the stored papers that are one, the one that stays: the one already keyed as the
    group will be, else the best-keyed one."""
    if not stored_keys:
        return None
    if target in stored_keys:
        return target
    return min(stored_keys, key=lambda key: _strength(_as_id(key)))


def _as_id(key: str) -> str:
    return key if scheme_of(key) in SCHEMES and ":" in key else f"arxiv:{key}"


def _link(
    merged: str,
    papers: Mapping[str, StoredPaper],
    members: set[int],
    ids_of: list[tuple[str, ...]],
    records: Sequence[PaperRecord],
) -> tuple[str, str]:
    """The id (and the record giving it) that brought a stored paper into the group."""
    own = set(papers[merged].ids)
    for index in sorted(members):
        shared = sorted(own.intersection(ids_of[index]), key=_strength)
        if shared:
            return shared[0], record_ref(records[index])
    return sorted(own, key=_strength)[0], record_ref(records[min(members)])
