"""Which researcher each author slot of a batch of papers belongs to.

:func:`read_snapshot` reads what the decisions need from the graph; :func:`resolve` then
decides, a pure function of the slots and that snapshot. The rules, in order (each
authorship records which one decided it):

1. a curator pinned the slot → it stays as it is;
2. same ORCID iD, then same S2 author id, then same OpenAlex author id → that researcher; a
   holder of the same slot with a compatible name is the same person: a name-only holder's
   edge folds into this one, a holder with ids is merged into by a recorded machine decision
   (unless a curator's "distinct", two ORCIDs or a shared paper forbid it);
3. cross-source alignment: the same paper already has an author at that position with a
   name that can be the same printing (``Pieter van Jong`` / ``Pieter Jong``), or elsewhere
   on the paper with a compatible name that the record prints nowhere else → that researcher;
4. otherwise the slot is scored against the researchers of its name block and the other new
   slots of the batch (:mod:`graph.identity.by_name`).

Then, across the batch: an id new to the graph names one researcher (the researchers slots
carrying it came to are merged, a new record it reaches joins them, unless they would be
two authors of one paper); two authors of one record are two people (the slot matched less
directly becomes a new researcher: an id first, then the same slot in another source, then a
name's score); and every
slot ``(paper, position)`` is held by exactly one researcher
(:func:`graph.identity.slots.settle_slots`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from scholargraph.graph.db import Database
from scholargraph.graph.identity.by_name import block_filters, by_names, eligible, pending_mentions
from scholargraph.graph.identity.disjoint import DisjointSets
from scholargraph.graph.identity.mentions import (
    Slot,
    new_group_of,
    stored_mention,
)
from scholargraph.graph.identity.merging import merge_refusal
from scholargraph.graph.identity.names import block_key
from scholargraph.graph.identity.rules import DIRECT_METHODS, Printed, Resolution, decide
from scholargraph.graph.identity.scoring import Mention
from scholargraph.graph.identity.slots import Fold, Swap, settle_slots
from scholargraph.graph.identity.snapshot import (
    Candidate,
    Holder,
    PaperHolders,
    ResearcherState,
    SharedPaper,
    Snapshot,
)
from scholargraph.queries import identity as q

CANDIDATES_PER_BLOCK = 60


@dataclass(frozen=True, slots=True)
class MachineMerge:
    survivor: int
    merged: int
    reason: str


@dataclass(frozen=True, slots=True)
class Resolved:
    resolutions: tuple[Resolution, ...]
    merges: tuple[MachineMerge, ...]
    folds: tuple[Fold, ...]
    survivor_of: dict[int, int]  # merged researcher → survivor
    swaps: tuple[Swap, ...] = ()

    def survivor(self, researcher: int) -> int:
        return self.survivor_of.get(researcher, researcher)

    def touched(self) -> tuple[set[int], set[tuple[str, int]]]:
        """What a merge or a folded slot of the batch changes before the batch's own rows are
        written: the merged researchers, and ``(paper, researcher)`` edges folded."""
        merged = {x for m in self.merges for x in (m.survivor, m.merged)}
        folded = {(f.paper, r) for f in self.folds for r in (f.loser, f.into) if isinstance(r, int)}
        folded |= {(s.paper, r) for s in self.swaps for r in (s.first, s.second)}
        return merged, folded


async def read_snapshot(
    db: Database, slots: Sequence[Slot], *, candidates_per_block: int = CANDIDATES_PER_BLOCK
) -> Snapshot:
    """Everything :func:`resolve` needs of the graph for these slots, read before the batch's
    transaction (reads only)."""
    keys = sorted({key for s in slots for _, key in s.id_keys})
    found = await db.run_rows(q.LOOKUP_IDENTIFIERS, {"keys": keys}) if keys else []
    identifiers = {row["key"]: row["researcher"] for row in found}
    rows = await db.run_rows(q.LOOKUP_SLOTS, {"papers": sorted({s.paper for s in slots})})
    grouped: dict[str, list[Holder]] = defaultdict(list)
    for row in rows:
        grouped[row["paper"]].append(Holder.from_row(row))
    papers = {paper: PaperHolders.of(holders) for paper, holders in grouped.items()}
    partial = Snapshot(identifiers, papers)
    printed = _printed(slots)
    decided = [decide(slot, partial, printed) for slot in slots]
    pending = [slot for slot, res in zip(slots, decided, strict=True) if res is None]
    blocks, features = await _read_candidates(db, pending, candidates_per_block)
    states, shared, read = await _read_merge_facts(db, [r for r in decided if r is not None])
    return Snapshot(identifiers, papers, blocks, features, states, shared, read)


async def _read_candidates(
    db: Database, pending: Sequence[Slot], per_block: int
) -> tuple[dict[str, tuple[Candidate, ...]], dict[int, Mention]]:
    if not pending:
        return {}, {}
    mentions = pending_mentions(pending)
    rows = await db.run_rows(
        q.CANDIDATE_IDS_BY_BLOCK, {"blocks": block_filters(mentions), "per_block": per_block}
    )
    blocks: dict[str, list[Candidate]] = defaultdict(list)
    for row in rows:
        blocks[row["block"]].append(
            Candidate(
                id=row["id"],
                block=row["block"],
                orcid=row["orcid"],
                has_s2=bool(row["s2_ids"]),
                has_openalex=bool(row["openalex_ids"]),
            )
        )
    needed = sorted(
        {
            candidate.id
            for mention in mentions.values()
            for candidate in blocks.get(block_key(mention.name), ())
            if eligible(mention, candidate)
        }
    )
    stored = await db.run(q.CANDIDATE_FEATURES, {"ids": needed}) if needed else []
    features = {
        row["features"]["id"]: replace(
            stored_mention(row["features"]), mention_id=f"r{row['features']['id']}"
        )
        for row in stored
    }
    return {block: tuple(found) for block, found in blocks.items()}, features


async def _read_merge_facts(
    db: Database, decided: Sequence[Resolution]
) -> tuple[
    dict[int, ResearcherState],
    dict[tuple[int, int], tuple[SharedPaper, ...]],
    frozenset[tuple[int, int]],
]:
    """States of the researchers a machine merge may join, the papers each two of one
    possible group share, and the pairs read (lower id first)."""
    links = [(survivor, merged) for survivor, merged, _ in merge_links(decided)]
    if not links:
        return {}, {}, frozenset()
    group: dict[int, int] = {}

    def find(x: int) -> int:
        while group.get(x, x) != x:
            x = group[x]
        return x

    for a, b in links:
        group.setdefault(a, a)
        group.setdefault(b, b)
        group[find(b)] = find(a)
    members: dict[int, list[int]] = defaultdict(list)
    for rid in sorted(group):
        members[find(rid)].append(rid)
    pairs = [list(pair) for ids in members.values() for pair in combinations(ids, 2)]
    rows = await db.run_rows(q.MERGE_STATES, {"ids": sorted(group)})
    states = {
        row["id"]: ResearcherState(
            id=row["id"],
            orcid=row["orcid"],
            merged_into=row["merged_into"],
            distinct_from=frozenset(row["distinct_from"]),
        )
        for row in rows
    }
    shared: dict[tuple[int, int], list[SharedPaper]] = defaultdict(list)
    for row in await db.run_rows(q.SHARED_SLOTS, {"pairs": pairs}):
        shared[(row["first"], row["second"])].append(
            SharedPaper(row["paper"], (row["first_position"], row["second_position"]))
        )
    read = frozenset((a, b) for a, b in pairs)
    return states, {pair: tuple(found) for pair, found in shared.items()}, read


def _printed(slots: Sequence[Slot]) -> Printed:
    return {(s.paper, s.source, s.position): s.raw_name for s in slots}


def resolve(slots: Sequence[Slot], snapshot: Snapshot) -> Resolved:
    """Every slot's researcher, the machine merges and the folded slots; reads nothing."""
    printed = _printed(slots)
    decided = [decide(slot, snapshot, printed) for slot in slots]
    named = iter(by_names([s for s, r in zip(slots, decided, strict=True) if r is None], snapshot))
    found = _one_id_one_researcher([r if r is not None else next(named) for r in decided], snapshot)
    resolutions = _one_slot_per_researcher(found)
    merges, survivor_of = _machine_merges(merge_links(resolutions), snapshot)
    renamed = [_renamed(res, survivor_of) for res in resolutions]
    settled, folds, swaps = settle_slots(renamed, snapshot, survivor_of)
    return Resolved(tuple(settled), tuple(merges), tuple(folds), survivor_of, tuple(swaps))


def _new_keys(res: Resolution) -> list[tuple[str, str]]:
    """The slot's ``(method, key)`` ids no researcher holds yet (a position-only alignment
    vouches for none)."""
    if res.keep or res.position_only:
        return []
    return [(method, key) for method, key in res.slot.id_keys if key not in res.stored_keys]


def _one_id_one_researcher(resolutions: list[Resolution], snapshot: Snapshot) -> list[Resolution]:
    """An id new to the graph names one person in the batch too: a researcher the batch
    creates for a slot carrying an id that another slot of the batch brought to an existing
    researcher is that researcher (unless an ORCID says otherwise, or that researcher is
    another author of one of the group's papers: two authors of one paper are two people,
    and the pass after the load decides which of them the id names)."""
    owner: dict[str, int] = {}
    for res in resolutions:
        if res.researcher is not None:
            for _, key in _new_keys(res):
                owner.setdefault(key, res.researcher)
    joins: dict[str, tuple[int, str]] = {}
    for res in resolutions:
        if res.researcher is None and res.new_group is not None:
            for method, key in _new_keys(res):
                if key in owner:
                    joins.setdefault(res.new_group, (owner[key], method))
    with_orcid = {r.new_group for r in resolutions if r.new_group and r.slot.author.orcid}
    apart = with_orcid | _authors_apart(resolutions, joins, snapshot)
    result = []
    for res in resolutions:
        join = joins.get(res.new_group or "") if res.researcher is None else None
        if join is None or res.new_group in apart:
            result.append(res)
            continue
        carries = any(key in owner for _, key in _new_keys(res))
        result.append(
            replace(
                res,
                researcher=join[0],
                new_group=None,
                method=join[1] if carries else "name_score",
            )
        )
    return result


def _authors_apart(
    resolutions: Sequence[Resolution], joins: Mapping[str, tuple[int, str]], snapshot: Snapshot
) -> set[str]:
    """The new groups whose researcher to join, or one the batch's new ids merge with him,
    holds another position on a paper of the group, in the graph or by another slot of the
    batch."""
    linked = DisjointSets()
    for first, second, _ in merge_links(resolutions):
        linked.union(str(first), str(second))
    placed: dict[str, set[tuple[int, int]]] = defaultdict(set)
    for res in resolutions:
        if res.researcher is not None:
            placed[res.slot.paper].add((res.researcher, res.slot.position))
    apart: set[str] = set()
    for res in resolutions:
        group, slot = res.new_group, res.slot
        if res.researcher is not None or group is None or group not in joins:
            continue
        owner = linked.find(str(joins[group][0]))
        held = {(h.researcher, h.position) for h in snapshot.holders(slot.paper).holders}
        if any(
            position != slot.position and linked.find(str(rid)) == owner
            for rid, position in held | placed[slot.paper]
        ):
            apart.add(group)
    return apart


def merge_links(resolutions: Sequence[Resolution]) -> list[tuple[int, int, str]]:
    """Pairs of existing researchers the batch shows to be one person, ``(survivor, merged,
    why)``: a researcher found by an id and the compatible holder of the same slot (the
    holder survives), and two researchers that slots carrying one new id came to (the first
    survives)."""
    links: list[tuple[int, int, str]] = []
    for res in resolutions:
        if res.same_as and res.researcher is not None:
            slot = res.slot
            links.append(
                (
                    res.same_as[0],
                    res.researcher,
                    f"same author slot {slot.position} on {slot.paper} in {slot.source} and "
                    f"another source, compatible names",
                )
            )
    owner: dict[str, tuple[int, Slot]] = {}
    for res in resolutions:
        if res.researcher is None:
            continue
        for _, key in _new_keys(res):
            first, where = owner.setdefault(key, (res.researcher, res.slot))
            if first != res.researcher:
                links.append(
                    (
                        first,
                        res.researcher,
                        f"{res.slot.source} gives the author id {key} to slot {where.position} "
                        f"on {where.paper} and slot {res.slot.position} on {res.slot.paper}",
                    )
                )
    return links


def _one_slot_per_researcher(resolutions: list[Resolution]) -> list[Resolution]:
    """Two authors of one record are two people: if two slots of a record resolved to one
    researcher, the slot that matched less directly becomes a new researcher."""
    result = list(resolutions)
    seen: set[tuple[str, str, int]] = set()
    order = sorted(
        range(len(result)),
        key=lambda i: (_directness(result[i]), result[i].slot.position),
    )
    for i in order:
        res = result[i]
        if res.researcher is None or res.keep:
            continue
        key = (res.slot.paper, res.slot.source, res.researcher)
        if key in seen:
            result[i] = Resolution(
                res.slot, new_group=new_group_of(res.slot), stored_keys=res.stored_keys
            )
        else:
            seen.add(key)
    return result


def _directness(res: Resolution) -> int:
    """How directly a slot matched, for :func:`_one_slot_per_researcher`: any id or a pin
    alike, then the slot the researcher holds at the same position in another source, then
    a name's score."""
    return 0 if res.method in DIRECT_METHODS else res.rank


def _machine_merges(
    links: Sequence[tuple[int, int, str]], snapshot: Snapshot
) -> tuple[list[MachineMerge], dict[int, int]]:
    """The merges the links call for, in order, each unless
    :func:`graph.identity.merging.merge_refusal` forbids it (or the snapshot did not read the
    researchers' states, or the papers two of them share: links of two groups the first
    reading kept apart, joined by a slot decided later. The pass after the load decides
    those slots by their evidence)."""
    parent: dict[int, int] = {}
    members: dict[int, list[int]] = {}

    def find(x: int) -> int:
        while x in parent:
            x = parent[x]
        return x

    merges: list[MachineMerge] = []
    for first, second, reason in links:
        survivor, merged = find(first), find(second)
        if merged == survivor:
            continue
        side_s, side_m = members.get(survivor, [survivor]), members.get(merged, [merged])
        if any(rid not in snapshot.states for rid in (*side_s, *side_m)):
            continue
        if not snapshot.knows_shared(side_s, side_m):
            continue  # joined by a link the first reading did not foresee: not read
        if merge_refusal(side_s, side_m, snapshot.states, snapshot.shared_papers):
            continue
        parent[merged] = survivor
        members[survivor] = side_s + side_m
        merges.append(MachineMerge(survivor, merged, reason))
    return merges, {rid: find(rid) for rid in parent}


def _renamed(res: Resolution, survivor_of: dict[int, int]) -> Resolution:
    if res.researcher is None:
        return res
    rid = survivor_of.get(res.researcher, res.researcher)
    same_as = tuple(x for x in res.same_as if survivor_of.get(x, x) != rid)
    # A holder the batch merges into the slot's researcher holds the slot as that researcher
    # after the merge: there is nothing to fold (folding an edge into itself deletes it).
    replaces = tuple(dict.fromkeys(y for x in res.replaces if (y := survivor_of.get(x, x)) != rid))
    return replace(res, researcher=rid, same_as=same_as, replaces=replaces)
