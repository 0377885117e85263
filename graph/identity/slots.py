"""One researcher per author slot ``(paper, position)``, whatever the sources (the last step of
:func:`graph.identity.resolver.resolve`)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from scholargraph.graph.identity.mentions import ORDER_RANK
from scholargraph.graph.identity.names import parse_name
from scholargraph.graph.identity.rules import (
    DIRECT_METHODS,
    Resolution,
    names_compatible,
    orcids_differ,
    same_slot_names,
)
from scholargraph.graph.identity.snapshot import Holder, PaperHolders, Snapshot

SOURCE_ID_METHODS = frozenset({"s2_id", "openalex_id"})  # a source's author id, not an ORCID
POSITION_ONLY_CONFIDENCE = 0.5  # a slot aligned by its position alone, the names apart

Ref = int | str  # an existing researcher's id, or the group of one the batch creates


@dataclass(frozen=True, slots=True)
class Fold:
    """``loser``'s edge on ``paper`` is the same slot as ``into``'s: it folds into it."""

    paper: str
    loser: int
    into: Ref
    source: str  # the source whose mention the batch writes on the slot


@dataclass(frozen=True, slots=True)
class Swap:
    """``first`` and ``second`` exchange their edges on ``paper``: two printings of one name
    that the order's source placed by name alone, where another source's id places
    ``first`` at ``second``'s position."""

    paper: str
    first: int
    second: int


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
    holder: Holder | None = None  # as the graph holds it before the batch
    printed: str | None = None  # the name its source prints at its position


def _order(source: str) -> int:
    return ORDER_RANK.get(source, len(ORDER_RANK))


def settle_slots(
    resolutions: Sequence[Resolution], snapshot: Snapshot, survivor_of: dict[int, int]
) -> tuple[list[Resolution], list[Fold], list[Swap]]:
    """One researcher per slot ``(paper, position)``, whatever the sources.

    An edge's position comes from the source that owns the author order (see
    :data:`graph.identity.mentions.AUTHOR_ORDER`). Where two researchers would hold one
    position after the batch, the slot goes to the one whose position comes from the better
    source (a pin first; at equal rank, the batch's newer word): a slot the batch writes for
    the other is aligned with it by its position alone (its ids are not taken as the
    holder's, unless the holder's edge prints a name that can be the slot's: then the slot
    is the holder's by name too, ids and all), and an edge the graph held for the other
    folds into it, keeping every source's name, ids and rule on the one edge. A held edge
    placed by name alone gives way to the person the batch's slot names by an id or an
    ORCID that is not its researcher's (:func:`_outvoted`).

    Where an id places a researcher at another position than the one the order's source
    gave them by name alone, and that position's holder was placed by name alone too under
    a compatible name (two printings of one name on a paper), the two exchange their edges
    (:class:`Swap`): the id decides which of them is where.
    """
    result = list(resolutions)
    folds: list[Fold] = []
    swaps: list[Swap] = []
    by_paper: dict[str, list[int]] = defaultdict(list)
    for i, res in enumerate(result):
        if not res.keep:
            by_paper[res.slot.paper].append(i)
    for paper, indexes in by_paper.items():
        edges = _edges_after(paper, indexes, result, snapshot, survivor_of, folds, swaps)
        at: dict[int, list[Ref]] = defaultdict(list)
        for ref, edge in edges.items():
            at[edge.position].append(ref)
        for refs in at.values():
            if len(refs) > 1 and any(edges[r].written is not None for r in refs):
                _give_slot(paper, refs, edges, result, folds, snapshot.holders(paper))
    return result, folds, swaps


def _edges_after(
    paper: str,
    indexes: list[int],
    result: list[Resolution],
    snapshot: Snapshot,
    survivor_of: dict[int, int],
    folds: list[Fold],
    swaps: list[Swap],
) -> dict[Ref, _Edge]:
    """Each researcher's edge on the paper as the batch will leave it (before settling)."""
    edges: dict[Ref, _Edge] = {}
    for holder in snapshot.holders(paper).holders:
        rid = survivor_of.get(holder.researcher, holder.researcher)
        known = edges.get(rid)
        if known is None or _order(holder.source) < _order(known.source):
            merged = rid != holder.researcher or known is not None
            edges[rid] = _Edge(
                holder.position,
                holder.source,
                holder.pinned,
                holder=None if merged else holder,
                printed=holder.raw_name,
            )
    for i in indexes:
        res = result[i]
        for loser in res.replaces:
            if loser in edges and not edges[loser].pinned and not _elsewhere(edges, res, loser):
                folds.append(Fold(paper, loser, ref_of(res), res.slot.source))
                del edges[loser]
    printed: dict[tuple[str, int], str] = {
        (result[i].slot.source, result[i].slot.position): result[i].slot.raw_name for i in indexes
    }
    for i in indexes:
        res, ref = result[i], ref_of(result[i])
        other = _swap_partner(edges, res, printed)
        if other is not None:
            assert isinstance(ref, int)
            swaps.append(Swap(paper, ref, other))
            mine, theirs = edges[ref], edges[other]
            edges[ref] = replace(theirs, written=i, holder=None)
            edges[other] = replace(mine, written=theirs.written, holder=None)
            continue
        here = _holder_by_position(edges, res, printed, result)
        if here is not None:
            result[i] = replace(
                res, researcher=here, method="cross_source", confidence=1.0, same_as=(), replaces=()
            )
            edges[here] = replace(edges[here], written=i)
            continue
        known = edges.get(ref)
        if known is None or _order(res.slot.source) <= _order(known.source):
            pinned, existed = (known.pinned, True) if known else (False, False)
            edges[ref] = _Edge(
                res.slot.position,
                res.slot.source,
                pinned,
                existed,
                written=i,
                moved=True,
                printed=res.slot.raw_name,
            )
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


def _holder_by_position(
    edges: dict[Ref, _Edge],
    res: Resolution,
    printed: Mapping[tuple[str, int], str],
    result: Sequence[Resolution],
) -> int | None:
    """The holder of the slot's position, where the researcher a source's author id found
    holds another position on the paper by the order's source and the record agrees with
    both: it prints a name of that researcher's edge at that position, and a name of the
    holder's at the slot's. The id is then the one out of place (an earlier grouping left
    it with that researcher) and the positions decide; the id stays on the slot's edge, for
    convergence to weigh. Otherwise the id's researcher would take the mention onto their
    edge while the record's author at their position found no one: a position held twice.
    Where the record's own author at that position is already written on that edge, the
    edge is theirs all the more (two namesakes of one paper, an id left with the wrong one)."""
    mine = edges.get(ref_of(res))
    if (
        res.method not in SOURCE_ID_METHODS
        or mine is None
        or not _free_or_own(mine, res, result)
        or mine.position == res.slot.position
        or _order(res.slot.source) <= _order(mine.source)
    ):
        return None
    at = [r for r, e in edges.items() if e.position == res.slot.position and e.written is None]
    if len(at) != 1 or not isinstance(at[0], int) or at[0] == ref_of(res):
        return None
    theirs, there = edges[at[0]], printed.get((res.slot.source, mine.position))
    if there is None or mine.printed is None or theirs.printed is None:
        return None
    if orcids_differ(res.slot, theirs.holder):
        return None
    pairs = ((there, mine.printed), (res.slot.raw_name, theirs.printed))
    return at[0] if all(_same_slot(a, b) for a, b in pairs) else None


def _free_or_own(mine: _Edge, res: Resolution, result: Sequence[Resolution]) -> bool:
    """Whether the batch writes nothing on the edge yet, or the slot its source prints at
    the edge's own position."""
    if mine.written is None:
        return True
    theirs = result[mine.written].slot
    return theirs.source == res.slot.source and theirs.position == mine.position


def _same_slot(a: str, b: str) -> bool:
    return same_slot_names(parse_name(a), parse_name(b))


def _swap_partner(
    edges: dict[Ref, _Edge], res: Resolution, printed: Mapping[tuple[str, int], str]
) -> int | None:
    """The holder whose edge the slot's researcher takes in exchange for theirs (see
    :func:`settle_slots`), or None. Both sources must print compatible names at both
    positions: where they do not, their author orders differ and the position says nothing."""
    mine = edges.get(ref_of(res))
    if (
        res.method not in DIRECT_METHODS
        or mine is None
        or mine.holder is None
        or mine.written is not None
        or mine.position == res.slot.position
        or _order(res.slot.source) <= _order(mine.source)
        or not _by_name_alone(mine.holder)
    ):
        return None
    at = [r for r, e in edges.items() if e.position == res.slot.position and e.holder is not None]
    if len(at) != 1 or not isinstance(at[0], int):
        return None
    theirs = edges[at[0]].holder
    assert theirs is not None
    if theirs.source != mine.source or not _by_name_alone(theirs):
        return None
    here = printed.get((res.slot.source, mine.position))
    pairs = ((mine.holder.raw_name, theirs.raw_name), (res.slot.raw_name, theirs.raw_name))
    if here is None or not all(
        _compatible(a, b) for a, b in (*pairs, (here, mine.holder.raw_name))
    ):
        return None
    return at[0]


def _compatible(a: str, b: str) -> bool:
    return names_compatible(parse_name(a), parse_name(b))


def _by_name_alone(holder: Holder) -> bool:
    """An edge only the order's source wrote, by name, naming no institution: exchanging it
    for another exchanges nothing but who holds which printing."""
    return (
        not holder.pinned
        and holder.sources == (holder.source,)
        and holder.method not in DIRECT_METHODS
        and not holder.institutions
        and not any(w.startswith("id:") for w in holder.written)
    )


def _give_slot(
    paper: str,
    refs: list[Ref],
    edges: dict[Ref, _Edge],
    result: list[Resolution],
    folds: list[Fold],
    held: PaperHolders,
) -> None:
    outvoted = _outvoted(refs, edges, result, held)
    winner = min(refs, key=lambda r: (r in outvoted, *_claim(r, edges[r])))
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
            aligned = _aligned_by_name(res, won, held.by_researcher.get(winner))
            result[edge.written] = replace(
                res,
                researcher=winner,
                new_group=None,
                method="cross_source",
                confidence=1.0 if aligned else POSITION_ONLY_CONFIDENCE,
                same_as=(),
                replaces=(),
                position_only=not aligned,
            )
        if edge.existed and not edge.moved and isinstance(loser, int):
            folds.append(Fold(paper, loser, winner, source))


def _outvoted(
    refs: list[Ref], edges: dict[Ref, _Edge], result: list[Resolution], held: PaperHolders
) -> set[Ref]:
    """Held edges placed by name alone that a slot the batch writes at the same position,
    under a name that can be the edge's, says are another person's: an id of the slot's
    found another researcher, or the slot's ORCID is not the holder's. That person takes
    the edge, as they would hold it had the slot's source come first (a merge of the two,
    were it allowed, would have made them one)."""
    written = [result[i] for r in refs if (i := edges[r].written) is not None]
    outvoted: set[Ref] = set()
    for ref in refs:
        edge, mine = edges[ref], held.by_researcher.get(ref) if isinstance(ref, int) else None
        holder = edge.holder
        if edge.written is not None or holder is None or mine is None:
            continue
        if not _by_name_alone(holder):
            continue
        printed = parse_name(holder.raw_name)
        if any(
            _says_another(res, ref, mine)
            and same_slot_names(printed, parse_name(res.slot.raw_name))
            for res in written
        ):
            outvoted.add(ref)
    return outvoted


def _says_another(res: Resolution, ref: Ref, holder: Holder) -> bool:
    by_id = res.method in DIRECT_METHODS and res.researcher is not None and res.researcher != ref
    return by_id or orcids_differ(res.slot, holder)


def _aligned_by_name(res: Resolution, won: _Edge, holder: Holder | None) -> bool:
    """Whether a slot the batch would give a new researcher is the winner's by name too: the
    winner's edge prints a name at the position that can be the slot's (as rule 3 of
    :func:`graph.identity.rules.decide` aligns a slot with the holder of its position), and no
    ORCID says otherwise. Its ids are then the winner's: the order the sources came in does
    not decide who holds them (the slot's holder may have reached the position only in this
    batch, by a swap)."""
    if res.researcher is not None or won.printed is None or orcids_differ(res.slot, holder):
        return False
    return same_slot_names(parse_name(won.printed), parse_name(res.slot.raw_name))


def _claim(ref: Ref, edge: _Edge) -> tuple[bool, int, bool, str]:
    return (not edge.pinned, _order(edge.source), edge.written is None, str(ref))
