"""Order-free groupings of name-only author slots: the same inputs, the same people.

A slot that no source gives an author id for (an arXiv-only paper's) is placed by the load
that writes it, by comparison with whoever is in the graph at that moment; loaded in another
order the same slot may land elsewhere. After a load, every name block it touched is decided
again here from what the graph holds at the end, as a pure function of the block's stored
slots, so that the final grouping does not depend on the order of sources or batches:

* **anchored slots** stay with their researcher: slots with an author id from a source, a
  curator's pin or split, or an ORCID or direct-id rule. A researcher holding any is an
  *anchor*; anchors are never joined or split here (that is for ids and curators to say);
* every **free slot** (name only) is clustered with the block's others by
  :func:`graph.identity.cluster.cluster_block`, each anchor's slots tied together as one
  person and two anchors, or two slots of one paper, kept apart;
* a cluster holding an anchor's slots goes to that anchor; a cluster of free slots only goes
  to the researcher already holding most of it (ties: the one holding its first slot), or to
  a new researcher when that one is taken.

The moves that make the graph so are returned; they are recorded as machine decisions.
Mention ids are slot ids (``paper#position``), which do not depend on the order of loading.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from scholargraph.graph.identity.cluster import Constraints, blocks_of, cluster_block
from scholargraph.graph.identity.name_forms import preferred_name
from scholargraph.graph.identity.names import block_key, parse_name
from scholargraph.graph.identity.rules import DIRECT_METHODS
from scholargraph.graph.identity.scoring import Mention, ScoringContext


@dataclass(frozen=True, slots=True)
class StoredSlot:
    """One ``AUTHORED`` edge as convergence reads it (``queries.converge.BLOCK_SLOTS``)."""

    researcher: int
    paper: str
    position: int
    raw_name: str
    anchored: bool
    holder_has_ids: bool = False  # an ORCID, an identifier or a curator's "distinct"
    affiliations: tuple[str, ...] = ()
    coauthors: tuple[str, ...] = ()  # the paper's other printed author names
    categories: tuple[str, ...] = ()
    year: int | None = None

    @property
    def slot_id(self) -> str:
        return f"{self.paper}#{self.position}"

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> StoredSlot:
        return cls(
            researcher=row["researcher"],
            paper=row["paper"],
            position=row["position"],
            raw_name=row["raw_name"],
            anchored=is_anchored(row),
            holder_has_ids=bool(row.get("holder_has_ids")),
            affiliations=tuple(sorted(row.get("affiliations") or ())),
            coauthors=tuple(sorted(row.get("coauthors") or ())),
            categories=tuple(sorted(row.get("categories") or ())),
            year=row.get("year"),
        )


def is_anchored(edge: Mapping[str, Any]) -> bool:
    """Whether a stored edge is held by more than a name: an author id from a source, a
    curator's decision or a direct-id rule."""
    return bool(
        edge.get("source_ids") or edge.get("pinned") or edge.get("method") in DIRECT_METHODS
    )


@dataclass(frozen=True, slots=True)
class SlotMove:
    """Free slots of ``papers`` leave ``source`` for ``target`` (an existing researcher), or
    for a new researcher named ``name`` when ``target`` is None; ``group`` names the new
    researcher's cluster, so that several sources' slots land on one new researcher."""

    source: int
    target: int | None
    papers: tuple[str, ...]
    group: str
    name: str

    @property
    def reason(self) -> str:
        where = f"researcher {self.target}" if self.target is not None else "a new researcher"
        slots = ", ".join(self.papers)
        return (
            f"name-only slots on {slots} cluster with {where}'s, judged on every slot of "
            f"the name block as stored after the load"
        )


def mention_of(slot: StoredSlot, anchor: str | None) -> Mention:
    """A stored slot as a mention: its own paper's evidence. An anchor's anchored slots carry
    the anchor's label where an ORCID goes, which ties them together and keeps two anchors
    apart."""
    name = parse_name(slot.raw_name)
    own = block_key(name)
    coauthors = frozenset(block_key(parse_name(n)) for n in slot.coauthors) - {own}
    return Mention(
        mention_id=slot.slot_id,
        name=name,
        paper_id=slot.paper,
        position=slot.position,
        affiliations=slot.affiliations,
        coauthors=coauthors,
        categories=frozenset(slot.categories),
        year=slot.year,
        orcid=f"anchor:{anchor}" if anchor is not None else None,
    )


def converge(slots: Iterable[StoredSlot]) -> tuple[SlotMove, ...]:
    """The moves that give the stored slots of some name blocks their order-free grouping."""
    listed = _held_by_ids(sorted({s.slot_id: s for s in slots}.values(), key=lambda s: s.slot_id))
    anchors = _anchors(listed)
    mentions = [mention_of(s, anchors[s.researcher] if s.anchored else None) for s in listed]
    by_id = {s.slot_id: s for s in listed}
    moves: list[SlotMove] = []
    taken = set(anchors)  # each researcher is the target of one free cluster at most
    for block in blocks_of(mentions).values():
        if not all(by_id[m.mention_id].anchored for m in block):
            moves += _block_moves(block, by_id, anchors, taken)
    return tuple(moves)


def _held_by_ids(slots: list[StoredSlot]) -> list[StoredSlot]:
    """A researcher known by ids (a profile's) with no anchored slot keeps all of theirs:
    nothing else would say who they are."""
    with_anchor = {s.researcher for s in slots if s.anchored}
    return [
        replace(s, anchored=True)
        if s.holder_has_ids and not s.anchored and s.researcher not in with_anchor
        else s
        for s in slots
    ]


def _anchors(slots: Sequence[StoredSlot]) -> dict[int, str]:
    """Researcher → label (their first anchored slot) of every researcher with one."""
    labels: dict[int, str] = {}
    for slot in slots:  # sorted by slot id: the first anchored slot labels its researcher
        if slot.anchored:
            labels.setdefault(slot.researcher, slot.slot_id)
    return labels


def _block_moves(
    block: Sequence[Mention],
    by_id: Mapping[str, StoredSlot],
    anchors: Mapping[int, str],
    taken: set[int],
) -> list[SlotMove]:
    context = ScoringContext.build(block)
    clusters = cluster_block(block, context, _same_paper_apart(block))
    targets: dict[tuple[str, ...], int | None] = {}
    free_only: list[tuple[str, ...]] = []
    for cluster in clusters:
        held = {by_id[m].researcher for m in cluster if by_id[m].anchored}
        if held:
            (targets[cluster],) = held  # anchors' labels keep two apart
        else:
            free_only.append(cluster)
    # The biggest clusters choose first; each existing researcher is the target of one.
    for cluster in sorted(free_only, key=lambda c: (-len(c), c)):
        counts = Counter(by_id[m].researcher for m in cluster)
        first_holder = {by_id[m].researcher: i for i, m in reversed(list(enumerate(cluster)))}
        ranked = sorted(counts, key=lambda rid: (-counts[rid], first_holder[rid]))
        choice = next((rid for rid in ranked if rid not in taken), None)
        if choice is not None:
            taken.add(choice)
        targets[cluster] = choice
    return [move for cluster in clusters for move in _moves(cluster, targets[cluster], by_id)]


def _same_paper_apart(block: Sequence[Mention]) -> Constraints:
    """Two slots of one paper are two people."""
    by_paper: dict[str, list[str]] = defaultdict(list)
    for mention in block:
        by_paper[mention.paper_id].append(mention.mention_id)
    pairs = [(a, b) for ids in by_paper.values() for i, a in enumerate(ids) for b in ids[i + 1 :]]
    return Constraints.of(distinct=pairs)


def _moves(
    cluster: tuple[str, ...], target: int | None, by_id: Mapping[str, StoredSlot]
) -> list[SlotMove]:
    """Moves of the cluster's free slots not yet held by the target, by source researcher."""
    away: dict[int, list[str]] = defaultdict(list)
    for slot_id in cluster:
        slot = by_id[slot_id]
        if not slot.anchored and slot.researcher != target:
            away[slot.researcher].append(slot.paper)
    name = preferred_name(by_id[m].raw_name for m in cluster)
    return [
        SlotMove(source, target, tuple(sorted(papers)), group=cluster[0], name=name)
        for source, papers in sorted(away.items())
    ]
