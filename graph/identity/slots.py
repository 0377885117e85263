"""One researcher per author slot ``(paper, position)``, whatever the sources (the last step of
:func:`graph.identity.resolver.resolve`)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from scholargraph.graph.identity.mentions import ORDER_RANK
from scholargraph.graph.identity.rules import Resolution
from scholargraph.graph.identity.snapshot import Snapshot

POSITION_ONLY_CONFIDENCE = 0.5  # a slot aligned by its position alone, the names apart

Ref = int | str  # an existing researcher's id, or the group of one the batch creates


@dataclass(frozen=True, slots=True)
class Fold:
    """``loser``'s edge on ``paper`` is the same slot as ``into``'s: it folds into it."""

    paper: str
    loser: int
    into: Ref
    source: str  # the source whose mention the batch writes on the slot


def ref_of(res: Resolution) -> Ref:
    if res.researcher is not None:
        return res.researcher
    assert res.new_group is not None, "a resolution names a researcher or a new group"
    return res.new_group


@dataclass(frozen=True, slots=True)
class _Edge:
    position: int
    source: str
    pinned: bool = False
    existed: bool = True  # the graph holds it before the batch
    written: int | None = None  # the index of the resolution the batch writes on it
    moved: bool = False  # its position comes from the batch


def _order(source: str) -> int:
    return ORDER_RANK.get(source, len(ORDER_RANK))


def settle_slots(
    resolutions: Sequence[Resolution], snapshot: Snapshot, survivor_of: dict[int, int]
) -> tuple[list[Resolution], list[Fold]]:
    """One researcher per slot ``(paper, position)``, whatever the sources.

    An edge's position comes from the source that owns the author order (see
    :data:`graph.identity.mentions.AUTHOR_ORDER`). Where two researchers would hold one
    position after the batch, the slot goes to the one whose position comes from the better
    source (a pin first; at equal rank, the batch's newer word): a slot the batch writes for
    the other is aligned with it by its position alone (its ids are not taken as the
    holder's), and an edge the graph held for the other folds into it, keeping every
    source's name, ids and rule on the one edge.
    """
    result = list(resolutions)
    folds: list[Fold] = []
    by_paper: dict[str, list[int]] = defaultdict(list)
    for i, res in enumerate(result):
        if not res.keep:
            by_paper[res.slot.paper].append(i)
    for paper, indexes in by_paper.items():
        edges = _edges_after(paper, indexes, result, snapshot, survivor_of, folds)
        at: dict[int, list[Ref]] = defaultdict(list)
        for ref, edge in edges.items():
            at[edge.position].append(ref)
        for refs in at.values():
            if len(refs) > 1 and any(edges[r].written is not None for r in refs):
                _give_slot(paper, refs, edges, result, folds)
    return result, folds


def _edges_after(
    paper: str,
    indexes: list[int],
    result: list[Resolution],
    snapshot: Snapshot,
    survivor_of: dict[int, int],
    folds: list[Fold],
) -> dict[Ref, _Edge]:
    """Each researcher's edge on the paper as the batch will leave it (before settling)."""
    edges: dict[Ref, _Edge] = {}
    for holder in snapshot.holders(paper).holders:
        rid = survivor_of.get(holder.researcher, holder.researcher)
        known = edges.get(rid)
        if known is None or _order(holder.source) < _order(known.source):
            edges[rid] = _Edge(holder.position, holder.source, holder.pinned)
    for i in indexes:
        res = result[i]
        for loser in res.replaces:
            if loser in edges and not edges[loser].pinned and not _elsewhere(edges, res, loser):
                folds.append(Fold(paper, loser, ref_of(res), res.slot.source))
                del edges[loser]
    for i in indexes:
        res, ref = result[i], ref_of(result[i])
        known = edges.get(ref)
        if known is None or _order(res.slot.source) <= _order(known.source):
            pinned, existed = (known.pinned, True) if known else (False, False)
            edges[ref] = _Edge(res.slot.position, res.slot.source, pinned, existed, i, True)
        else:
            edges[ref] = replace(known, written=i)
    return edges


def _elsewhere(edges: dict[Ref, _Edge], res: Resolution, loser: int) -> bool:
    """The researcher a slot's ids found already holds another position on the paper, from
    a source that owns the order as well as the holder's: two authors of one paper, so the
    holder's slot stays (the ids' source placed the author at another position)."""
    held = edges.get(ref_of(res))
    other = edges[loser]
    return (
        held is not None
        and held.position != other.position
        and _order(held.source) <= _order(other.source)
    )


def _give_slot(
    paper: str,
    refs: list[Ref],
    edges: dict[Ref, _Edge],
    result: list[Resolution],
    folds: list[Fold],
) -> None:
    winner = min(refs, key=lambda r: _claim(r, edges[r]))
    won = edges[winner]
    source = next(result[i].slot.source for r in refs if (i := edges[r].written) is not None)
    for loser in refs:
        edge = edges[loser]
        if loser == winner:
            continue
        if edge.written is not None:
            if won.written is not None or not isinstance(winner, int):
                continue  # two slots of the batch at one position: the sources disagree
            res = result[edge.written]
            result[edge.written] = replace(
                res,
                researcher=winner,
                new_group=None,
                method="cross_source",
                confidence=POSITION_ONLY_CONFIDENCE,
                same_as=(),
                replaces=(),
                position_only=True,
            )
        if edge.existed and not edge.moved and isinstance(loser, int):
            folds.append(Fold(paper, loser, winner, source))


def _claim(ref: Ref, edge: _Edge) -> tuple[bool, int, bool, str]:
    return (not edge.pinned, _order(edge.source), edge.written is None, str(ref))
