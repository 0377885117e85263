"""Order-free groupings of author slots: the same inputs, the same people.

A slot that no source gives an author id for (an arXiv-only paper's) is placed by the load
that writes it, by comparison with whoever is in the graph at that moment; loaded in another
order the same slot may land elsewhere, and so may the slots a source identifies, once a
name-only slot has put two of them on one researcher. After a load, every name block it
touched is decided again here from what the graph holds at the end, as a pure function of
the block's stored slots, so that the final grouping does not depend on the order of
sources or batches:

* **units**: anchored slots (those with an author id from a source, a curator's pin or
  split, an ORCID or direct-id rule) that share an id a source gave them are one unit, one
  person by the sources' own word, whichever researchers hold them and the id now (an id
  a source gave two slots of one paper ties only the slot its holder holds). A researcher
  a curator has decided on (a pin, a split, a "distinct" mark) is one *fixed* unit with all
  their anchored slots;
* **profile mentions**: ids a researcher holds that no slot of theirs carries (a profile's,
  read before or after the slots its person is on; a claim's), with the ids a profile gave
  beside them, are one more anchored mention, named and affiliated as the profiles say
  (:func:`profile_rows`): clustered like a slot, so the evidence, not which source loaded
  first, says whether a profile's person is a slot's; its move takes the ids along;
* two units **conflict** when either is fixed or they carry ids of one scheme (two ORCID
  iDs, two S2 author ids, two OpenAlex author ids): a source's own ids are trusted within
  that source, as :mod:`graph.identity.by_name` trusts them when a slot is written;
* a unit whose slots are printed in two blocks no variant spelling joins (one S2 id on
  ``Jun Li`` and ``Jun Lee``) joins the two: it is decided whole, never part by part;
* every slot is clustered with the block's others by
  :func:`graph.identity.cluster.cluster_block`, each unit tied together, conflicting units
  and two slots of one paper kept apart, so units of two sources (an S2 id on one paper, an
  OpenAlex id on another) are joined or not by the evidence alone, whichever order put them
  on one researcher or two;
* a cluster goes to the researcher holding most of its anchored slots, then most of its
  slots (ties: the holder of its first slot); a fixed unit's cluster to its researcher; each
  researcher to one cluster at most, the biggest choosing first, and a new researcher for a
  cluster whose choices are taken. A cluster of free slots only never takes a researcher
  holding anchored slots;
* an id a cluster's units keep that another researcher holds by a slot outside it (an id
  two people were given, which :mod:`graph.identity.overmerge` leaves with one of them,
  held by whichever the load's order gave it to) goes to the cluster's researcher.

The moves that make the graph so are returned, with the ids that go along with a unit's
slots; they are recorded as machine decisions. Mention ids are slot ids
(``paper#position``), which do not depend on the order of loading.
"""

from __future__ import annotations

from collections import ChainMap, Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import combinations
from typing import Any

from scholargraph.graph.identity import overmerge
from scholargraph.graph.identity.cluster import Constraints, blocks_of, cluster_block
from scholargraph.graph.identity.disjoint import DisjointSets
from scholargraph.graph.identity.name_forms import preferred_name
from scholargraph.graph.identity.names import (
    block_key,
    parse_name,
    printed_block_key,
    swapped,
    variant_block_keys,
)
from scholargraph.graph.identity.rules import DIRECT_METHODS
from scholargraph.graph.identity.scoring import Mention, ScoringContext


@dataclass(frozen=True, slots=True)
class StoredSlot:
    """One ``AUTHORED`` edge as convergence reads it (``queries.converge.BLOCK_SLOTS``).

    ``keys`` are the ids the sources gave for the slot, whoever holds them now (see
    :func:`slot_keys`); ``fixed`` says the holder is one unit whatever the ids say (see the
    module's docstring)."""

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
    keys: tuple[str, ...] = ()
    fixed: bool = False
    held: tuple[str, ...] = ()  # of ``keys``, those its holder holds: what a move takes along
    profile: bool = False  # not a slot: the ids its holder holds beyond their slots' (see
    # :func:`profile_rows`), which move as ids, with no paper

    @property
    def slot_id(self) -> str:
        return f"{self.paper}#{self.position}"

    @classmethod
    def from_row(
        cls,
        row: Mapping[str, Any],
        *,
        fixed: bool = False,
        shared_on_paper: frozenset[str] = frozenset(),
    ) -> StoredSlot:
        return cls(
            researcher=row["researcher"],
            paper=row["paper"],
            position=row["position"],
            raw_name=row.get("raw_name") or "",
            anchored=is_anchored(row),
            holder_has_ids=bool(row.get("holder_has_ids")),
            affiliations=tuple(sorted(row.get("affiliations") or ())),
            coauthors=tuple(sorted(row.get("coauthors") or ())),
            categories=tuple(sorted(row.get("categories") or ())),
            year=row.get("year"),
            keys=slot_keys(row, shared_on_paper),
            fixed=fixed,
            held=tuple(
                sorted(set(row.get("holder_keys") or ()) & set(row.get("source_ids") or ()))
            ),
            profile=bool(row.get("profile")),
        )


PROFILE_PAPER = "profile:"  # a profile mention's paper: its first id, after this


def profile_rows(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """``BLOCK_PROFILES`` rows as slot rows: ids a researcher holds that none of their slots
    carries are one more anchored mention of them for each profile (the ids one profile gave
    together, joined where two profiles share one), named and affiliated as the ids'
    profiles say. It is clustered like a slot, so that whoever loaded first (a profile before
    the slots its person is on, or after them; two profiles of one name joined before a slot
    of that name came, or not) the same evidence decides whether the profile's person is a
    slot's; its move takes the ids along. Its ``paper`` is the first of those ids its holder
    holds (:data:`PROFILE_PAPER`): each id has one holder, so no two profile mentions share
    one."""
    return [_profile_row(group) for group in _by_profile(rows)]


def _by_profile(rows: Iterable[Mapping[str, Any]]) -> list[list[Mapping[str, Any]]]:
    """A researcher's rows (one per id no slot carries) grouped where their ids meet."""
    by_researcher: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for row in rows:
        if set(row["keys"]) & set(row["holder_keys"]):
            by_researcher[row["researcher"]].append(row)
    groups: list[list[Mapping[str, Any]]] = []
    for researcher in sorted(by_researcher):
        own = by_researcher[researcher]
        sets = DisjointSets()
        for index, row in enumerate(own):
            sets.find(f"#{index}")
            for key in row["keys"]:
                sets.union(f"#{index}", key)
        joined: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
        for index, row in enumerate(own):
            joined[sets.find(f"#{index}")].append(row)
        groups += joined.values()
    return groups


def _profile_row(group: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    first = group[0]
    keys = sorted({key for row in group for key in row["keys"]})
    said = sorted(
        {p["key"]: p for row in group for p in row["profiles"]}.values(), key=lambda p: p["key"]
    )
    names = [name for p in said for name in p["names"]]
    return {
        "block": first["block"],
        "researcher": first["researcher"],
        "paper": f"{PROFILE_PAPER}{min(set(keys) & set(first['holder_keys']))}",
        "position": 0,
        "raw_name": preferred_name(names) if names else first["name"],
        "source_ids": keys,
        "pinned": False,
        "method": "profile",
        "holder_has_ids": True,
        "holder_keys": list(first["holder_keys"]),
        "holder_distinct": first["holder_distinct"],
        "affiliations": sorted({a for p in said for a in p["affiliations"]}),
        "profile": True,
    }


def slot_keys(
    row: Mapping[str, Any], shared_on_paper: frozenset[str] = frozenset()
) -> tuple[str, ...]:
    """The ids that tie a stored slot to the other slots of one person.

    A source's id for a slot says who wrote it, whichever researcher an earlier load left
    the slot or the id with: otherwise a slot could sit apart from its own id's holder in
    one load order and with it in another, and both would be settled. Two exceptions keep
    to the ids its holder holds: a slot a curator placed (the curator decided, not the id),
    and an id that ``shared_on_paper`` names, given to two slots of one paper (two authors
    of one paper are two people, so the id cannot say which one it is)."""
    given = set(row.get("source_ids") or ())
    if row.get("pinned") or row.get("method") == "curator":
        given &= set(row.get("holder_keys") or ())
    else:
        given -= shared_on_paper - set(row.get("holder_keys") or ())
    return tuple(sorted(given))


def stored_slots(rows: Iterable[Mapping[str, Any]]) -> list[StoredSlot]:
    """The rows of ``BLOCK_SLOTS`` as slots, each knowing whether its holder is fixed."""
    listed = list(rows)
    by_researcher: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for row in listed:
        by_researcher[row["researcher"]].append(row)
    fixed = {rid for rid, own in by_researcher.items() if _is_fixed(own)}
    shared = _shared_on_a_paper(listed)
    return [
        StoredSlot.from_row(row, fixed=row["researcher"] in fixed, shared_on_paper=shared)
        for row in listed
    ]


def _shared_on_a_paper(rows: Sequence[Mapping[str, Any]]) -> frozenset[str]:
    """Ids a source gave to two slots of one paper."""
    seen: Counter[tuple[str, str]] = Counter(
        (key, row["paper"]) for row in rows for key in set(row.get("source_ids") or ())
    )
    return frozenset(key for (key, _), n in seen.items() if n > 1)


def blocks_to_decide(rows: Iterable[Mapping[str, Any]]) -> list[str]:
    """The blocks, of ``BLOCK_UNITS`` rows, of :func:`components_to_decide`."""
    return sorted(block for group in components_to_decide(rows) for block in group)


def components_to_decide(
    rows: Iterable[Mapping[str, Any]], ties: Iterable[tuple[str, str]] = ()
) -> list[tuple[str, ...]]:
    """The groups of blocks, of ``BLOCK_UNITS`` rows, that hold anything to decide: a free
    slot, a researcher holding two units, or two units that could be one person.

    Blocks go together as :func:`graph.identity.cluster.blocks_of` joins their mentions
    (a printing of another block on a researcher's slot, a particle, a hyphenated part or
    an umlaut written out that is another printed name's block), and as ``ties`` join them
    (see :func:`joined_groups`): the pass decides them as one, or a slot a write placed
    across two blocks would stay wherever the load's order left it."""
    listed = list(rows)
    by_group: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    joined = _joined_blocks(listed, ties)
    for row in listed:
        by_group[joined[row["block"]]].append(row)
    groups = [
        tuple(sorted({row["block"] for row in members}))
        for members in by_group.values()
        if not _all_settled(_held_by_ids(stored_slots(members)))
    ]
    return sorted(groups)


def linked_blocks(rows: Iterable[Mapping[str, Any]]) -> set[str]:
    """Every block the rows' printed names may join (see :func:`components_to_decide`)."""
    return named_blocks(printed_names(rows))


def printed_names(rows: Iterable[Mapping[str, Any]]) -> dict[str, set[str]]:
    """Each block of the rows (``BLOCK_UNITS`` and profile rows) → the names printed on them."""
    names: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        names[row["block"]].add(str(row.get("raw_name") or ""))
    return names


def named_blocks(names: Mapping[str, Iterable[str]]) -> set[str]:
    """Every block the printed names may join (see :func:`components_to_decide`)."""
    return {key for printed in names.values() for raw in printed for key in _name_blocks(raw)}


def joined_groups(
    names: Mapping[str, Iterable[str]], ties: Iterable[tuple[str, str]] = ()
) -> list[tuple[str, ...]]:
    """The blocks present (the keys of ``names``, each block's printed names) in the groups
    :func:`components_to_decide` decides them in: joined where a name printed in one block
    is another present block's, and where ``ties`` join two present blocks (an id a slot of
    one carries that a researcher of the other holds). Blocks read in parts, a part of whole
    groups at a time, give the groups the whole would."""
    joined = _joined(names, ties)
    groups: dict[str, list[str]] = defaultdict(list)
    for block, first in joined.items():
        groups[first].append(block)
    return sorted(tuple(sorted(members)) for members in groups.values())


@lru_cache(maxsize=1 << 16)
def _name_blocks(raw_name: str) -> tuple[str, ...]:
    if not raw_name:
        return ()
    name = parse_name(raw_name)
    turned = swapped(name)
    return (
        block_key(name),
        *variant_block_keys(name),
        *((block_key(turned),) if turned is not None else ()),
    )


def _joined_blocks(
    rows: Sequence[Mapping[str, Any]], ties: Iterable[tuple[str, str]] = ()
) -> dict[str, str]:
    """Each row's block → the first block of its group."""
    return _joined(printed_names(rows), ties)


def _joined(
    names: Mapping[str, Iterable[str]], ties: Iterable[tuple[str, str]] = ()
) -> dict[str, str]:
    """Each present block → the first block of its group."""
    sets = DisjointSets()
    for block, printed in names.items():
        for raw in printed:
            for key in _name_blocks(raw):
                if key in names:
                    sets.union(block, key)
    for first, second in ties:
        if first in names and second in names:
            sets.union(first, second)
    return {block: sets.find(block) for block in names}


def _all_settled(slots: Sequence[StoredSlot]) -> bool:
    units = units_of(slots)
    contested = any(len(u.keys) > len(u.schemes) and not u.fixed for u in units)
    return all(s.anchored for s in slots) and not contested and _units_settled(units)


def _is_fixed(rows: Sequence[Mapping[str, Any]]) -> bool:
    """A curator decided on the researcher, or ids no slot of theirs carries say who they are."""
    on_slots = {key for row in rows for key in row.get("source_ids") or ()}
    first = rows[0]
    return bool(
        first.get("holder_distinct")
        or set(first.get("holder_keys") or ()) - on_slots
        or any(
            row.get("pinned")
            or row.get("method") == "curator"
            or (is_anchored(row) and not row.get("source_ids"))
            for row in rows
        )
    )


def is_anchored(edge: Mapping[str, Any]) -> bool:
    """Whether a stored edge is held by more than a name: an author id from a source, a
    curator's decision or a direct-id rule."""
    return bool(
        edge.get("source_ids") or edge.get("pinned") or edge.get("method") in DIRECT_METHODS
    )


@dataclass(frozen=True, slots=True)
class SlotMove:
    """Slots of ``papers`` leave ``source`` for ``target`` (an existing researcher), or for
    a new researcher named ``name`` when ``target`` is None; ``group`` names the new
    researcher's cluster, so that several sources' slots land on one new researcher.
    ``keys`` are the identifiers that go along (those the source holds of the ids its moved
    slots carry). ``parked``: the source is the new researcher of that group, where an
    earlier move set the slots down while the target gave up its own slot of their papers
    (two namesakes of one paper exchanging slots; see :func:`_in_order`)."""

    source: int
    target: int | None
    papers: tuple[str, ...]
    group: str
    name: str
    keys: tuple[str, ...] = ()
    profile: bool = False  # the ids of a profile mention (see :func:`profile_rows`)
    parked: str | None = None

    @property
    def reason(self) -> str:
        where = f"researcher {self.target}" if self.target is not None else "a new researcher"
        if self.profile:
            return (
                f"{', '.join(self.keys)}, ids no slot of researcher {self.source} carries, "
                f"cluster with {where}'s slots by what their profiles say, judged on every "
                f"slot of the name block as stored after the load"
            )
        if not self.papers:
            return (
                f"{', '.join(self.keys)} go to {where}, whose slots keep them where the unit "
                f"they joined splits into the people it is, judged on every slot of the name "
                f"block as stored after the load"
            )
        slots = ", ".join(self.papers)
        held = (
            f"slots on {slots}, identified as {', '.join(self.keys)},"
            if self.keys
            else (f"name-only slots on {slots}")
        )
        return (
            f"{held} cluster with {where}'s, judged on every slot of "
            f"the name block as stored after the load"
        )


@dataclass(frozen=True, slots=True)
class Unit:
    """Anchored slots that are one person by the ids their sources gave (or by a curator);
    ``researcher`` holds its first slot, ``holders`` all of them."""

    label: str  # its first slot id
    researcher: int
    slots: tuple[str, ...]
    keys: frozenset[str]
    fixed: bool
    holders: frozenset[int] = frozenset()  # who holds its slots now (settled: one)
    schemes: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "schemes", frozenset(k.split(":", 1)[0] for k in self.keys))

    def conflicts(self, other: Unit) -> bool:
        return self.fixed or other.fixed or bool(self.schemes & other.schemes)

    @property
    def tags(self) -> frozenset[str]:
        """What :func:`graph.identity.cluster.tags_conflict` weighs as :meth:`conflicts`
        does: its id schemes, and a tag of its own when fixed (exclusive: it conflicts with
        every unit). Never empty: a unit with no id is fixed."""
        return self.schemes | ({f"fixed:{self.label}"} if self.fixed else frozenset())


def mention_of(slot: StoredSlot) -> Mention:
    """A stored slot as a mention: its own paper's evidence."""
    name = parse_name(slot.raw_name)
    own = block_key(name)
    coauthors = frozenset(printed_block_key(n) for n in slot.coauthors) - {own}
    return Mention(
        mention_id=slot.slot_id,
        name=name,
        paper_id=slot.paper,
        position=None if slot.profile else slot.position,
        affiliations=slot.affiliations,
        coauthors=coauthors,
        categories=frozenset(slot.categories),
        year=slot.year,
    )


def converge(slots: Iterable[StoredSlot]) -> tuple[SlotMove, ...]:
    """The moves that give the stored slots of some name blocks their order-free grouping."""
    listed = _held_by_ids(sorted({s.slot_id: s for s in slots}.values(), key=lambda s: s.slot_id))
    by_id = {s.slot_id: s for s in listed}
    unit_of = {slot_id: unit for unit in units_of(listed) for slot_id in unit.slots}
    anchors = {s.researcher for s in listed if s.anchored}
    moves: list[SlotMove] = []
    profile_moves: list[SlotMove] = []
    key_moves: list[SlotMove] = []
    taken = set(anchors)  # a free-only cluster never takes an anchor, nor a taken one
    for block in _unit_blocks(blocks_of(mention_of(s) for s in listed), unit_of):
        units, seen = _split_overmerged(
            block, _within(unit_of, [m.mention_id for m in block]), by_id
        )
        targets: dict[tuple[str, ...], int | None]
        if _settled(block, units):
            targets = {unit.slots: unit.researcher for unit in units}
        else:
            targets = _block_targets(block, seen, units, taken)
            moves += [m for cluster, t in targets.items() for m in _moves(cluster, t, seen)]
            profile_moves += [
                m for cluster, t in targets.items() for m in _profile_moves(cluster, t, seen)
            ]
        key_moves += _key_moves(targets, units, [by_id[m.mention_id] for m in block])
    return (*_one_slot_per_paper(moves, listed), *profile_moves, *key_moves)


def _unit_blocks(
    blocks: Mapping[str, list[Mention]], unit_of: Mapping[str, Unit]
) -> list[list[Mention]]:
    """The name blocks, joined wherever one unit's slots fall in two of them: the ids that
    make a unit (an S2 id on ``Jun Li`` and on ``Jun Lee``) say its slots are one person
    however their names are printed, so the unit is decided whole, in one block. Cut at the
    block boundary, each part was decided alone, and which researcher ended with which part
    depended on the order the sources came in. Mentions stay sorted by id."""
    sets = DisjointSets()
    first_block: dict[str, str] = {}
    for label, mentions in blocks.items():
        sets.find(label)
        for mention in mentions:
            unit = unit_of.get(mention.mention_id)
            if unit is not None:
                sets.union(first_block.setdefault(unit.label, label), label)
    joined: dict[str, list[Mention]] = defaultdict(list)
    for label, mentions in blocks.items():
        joined[sets.find(label)] += mentions
    return [sorted(members, key=lambda m: m.mention_id) for _, members in sorted(joined.items())]


def _key_moves(
    targets: Mapping[tuple[str, ...], int | None],
    units: Sequence[Unit],
    block: Sequence[StoredSlot],
) -> list[SlotMove]:
    """Ids a cluster's units keep that another researcher holds by a slot outside it (a
    unit an id joined, split, with the id staying with the part :mod:`overmerge` gives it):
    they go to the cluster's researcher, as they would had the sources come in the order
    that gave them to it first. A curator's researcher keeps theirs."""
    found: list[SlotMove] = []
    # Each id to the slots whose holders hold it, and each unit by its first slot: a
    # cluster looks up its own ids, not every slot of the block (a block of thousands).
    holding: dict[str, list[StoredSlot]] = defaultdict(list)
    for slot in block:
        if not slot.fixed:
            for key in set(slot.held):
                holding[key].append(slot)
    unit_at = {u.slots[0]: u for u in units}
    for cluster, target in targets.items():
        if target is None:
            continue
        inside = set(cluster)
        kept = {k for slot_id in cluster if slot_id in unit_at for k in unit_at[slot_id].keys}
        away: dict[int, set[str]] = defaultdict(set)
        for key in kept:
            for slot in holding.get(key, ()):
                if slot.slot_id not in inside and slot.researcher != target:
                    away[slot.researcher].add(key)
        found += [
            SlotMove(source, target, (), group=cluster[0], name="", keys=tuple(sorted(keys)))
            for source, keys in sorted(away.items())
            if keys
        ]
    return found


def _one_slot_per_paper(
    moves: Sequence[SlotMove], listed: Sequence[StoredSlot]
) -> tuple[SlotMove, ...]:
    """The moves without any that would give a researcher a second slot of one paper (two
    authors of one paper are two people), in an order that moves a slot away before another
    slot of its paper arrives: a slot whose target keeps another slot of its paper, or
    already receives one, stays where it is, and so do the slots of moves that wait on each
    other."""
    slot_of = {(s.researcher, s.paper): s for s in listed}
    leaving = {(m.source, paper) for m in moves for paper in m.papers}
    arriving: set[tuple[int, str]] = set()
    kept: list[SlotMove] = []
    for move in moves:
        target = move.target
        papers = [
            paper
            for paper in move.papers
            if target is None
            or (
                ((target, paper) not in slot_of or (target, paper) in leaving)
                and (target, paper) not in arriving
            )
        ]
        arriving.update((target, paper) for paper in papers if target is not None)
        kept.append(_taking(move, papers, slot_of))
    return _in_order([m for m in kept if m.papers], slot_of)


def _taking(
    move: SlotMove, papers: Sequence[str], slot_of: Mapping[tuple[int, str], StoredSlot]
) -> SlotMove:
    """The move of only ``papers``' slots, with only the ids those slots carry."""
    if tuple(papers) == move.papers:
        return move
    held = {k for paper in papers for k in slot_of[(move.source, paper)].held}
    return replace(move, papers=tuple(papers), keys=tuple(k for k in move.keys if k in held))


def _in_order(
    moves: list[SlotMove], slot_of: Mapping[tuple[int, str], StoredSlot]
) -> tuple[SlotMove, ...]:
    """The moves, each after those taking away a slot of its papers from its target.

    Moves that wait on each other (two namesakes of one paper exchanging their slots: each
    target holds the slot the other move takes away) are untied at the first of them: its
    waiting slots go to a new researcher first, and from there to the target last, once
    every other move has run (the new researcher, left with nothing, is retired)."""
    moves = list(moves)
    away = {(m.source, paper): i for i, m in enumerate(moves) for paper in m.papers}
    waits = [
        {away[(m.target, p)] for p in m.papers if (m.target, p) in away} - {i}
        if m.target is not None
        else set()
        for i, m in enumerate(moves)
    ]
    done: list[int] = []
    last: list[SlotMove] = []
    while len(done) < len(moves):
        ready = [i for i in range(len(moves)) if i not in done and waits[i] <= set(done)]
        if ready:
            done.append(ready[0])
            continue
        first = min(i for i in range(len(moves)) if i not in done)
        move = moves[first]
        waiting = [p for p in move.papers if (move.target, p) in away]
        parked = replace(_taking(move, waiting, slot_of), target=None, group=f"{move.group}~parked")
        moves[first] = _taking(move, [p for p in move.papers if p not in waiting], slot_of)
        waits[first] = set()
        moves.append(parked)
        waits.append(set())
        done.append(len(moves) - 1)
        last.append(replace(parked, target=move.target, group=move.group, parked=parked.group))
    return (*(moves[i] for i in done if moves[i].papers), *last)


def _split_overmerged(
    block: Sequence[Mention], units: Sequence[Unit], by_id: dict[str, StoredSlot]
) -> tuple[list[Unit], Mapping[str, StoredSlot]]:
    """The block's units with those a source's id joined wrongly split into the people they
    are (:func:`graph.identity.overmerge.split`), and the slots as seen after it: a slot of a
    split-off part no longer carries the id that joined it."""
    if all(len(u.keys) == len(u.schemes) or u.fixed for u in units):
        return list(units), by_id
    context = ScoringContext.build(block)
    mentions = {m.mention_id: m for m in block}
    kept: list[Unit] = []
    seen: dict[str, StoredSlot] = {}
    for unit in units:
        keys = {s: frozenset(by_id[s].keys) for s in unit.slots}
        found = (
            None
            if unit.fixed
            else overmerge.split(keys, [mentions[s] for s in unit.slots], context)
        )
        if found is None:
            kept.append(unit)
            continue
        for slot_id, own in found.keys.items():
            if own != keys[slot_id]:
                slot = by_id[slot_id]
                held = tuple(k for k in slot.held if k in own)
                seen[slot_id] = replace(slot, keys=tuple(sorted(own)), held=held)
        kept += [
            _unit_of(group, found.keys, by_id)
            for group in found.groups
            if _keyed(group, found.keys)
        ]
    return sorted(kept, key=lambda u: u.label), ChainMap(seen, by_id)


def _keyed(group: Sequence[str], keys: Mapping[str, frozenset[str]]) -> bool:
    return any(keys[s] for s in group)


def _unit_of(
    group: Sequence[str], keys: Mapping[str, frozenset[str]], by_id: Mapping[str, StoredSlot]
) -> Unit:
    slots = tuple(sorted(group))
    return Unit(
        label=slots[0],
        researcher=by_id[slots[0]].researcher,
        slots=slots,
        keys=frozenset(k for s in slots for k in keys[s]),
        fixed=False,
        holders=frozenset(by_id[s].researcher for s in slots),
    )


def units_of(slots: Sequence[StoredSlot]) -> list[Unit]:
    """The anchored slots grouped into units: shared ids, or a fixed holder, tie them."""
    parent: dict[str, str] = {}

    def find(node: str) -> str:
        while parent.setdefault(node, node) != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    anchored = [s for s in slots if s.anchored]
    for slot in anchored:
        ties = [f"researcher:{slot.researcher}"] if slot.fixed or not slot.keys else []
        for tie in ties + [f"id:{key}" for key in slot.keys]:
            a, b = sorted((find(f"slot:{slot.slot_id}"), find(tie)))
            parent[b] = a
    grouped: dict[str, list[StoredSlot]] = defaultdict(list)
    for slot in anchored:
        grouped[find(f"slot:{slot.slot_id}")].append(slot)
    units = []
    for members in grouped.values():
        ordered = sorted(members, key=lambda s: s.slot_id)
        units.append(
            Unit(
                label=ordered[0].slot_id,
                researcher=ordered[0].researcher,
                slots=tuple(s.slot_id for s in ordered),
                keys=frozenset(k for s in ordered for k in s.keys),
                fixed=any(s.fixed or not s.keys for s in ordered),
                holders=frozenset(s.researcher for s in ordered),
            )
        )
    return sorted(units, key=lambda u: u.label)


def _within(unit_of: Mapping[str, Unit], slot_ids: Sequence[str]) -> list[Unit]:
    """The units of a block's slots, whole: :func:`_unit_blocks` puts every slot of a unit
    in one block."""
    units = {unit.label: unit for slot_id in slot_ids if (unit := unit_of.get(slot_id))}
    return sorted(units.values(), key=lambda u: u.label)


def _settled(block: Sequence[Mention], units: Sequence[Unit]) -> bool:
    """Nothing to decide: every slot is anchored, each researcher holds one unit, and no two
    units could be one person."""
    return sum(len(u.slots) for u in units) == len(block) and _units_settled(units)


def _units_settled(units: Sequence[Unit]) -> bool:
    # Every two units conflict: a fixed one with any; the others' schemes, as sets, meet
    # pairwise (a set of schemes meets itself), so the distinct sets are compared, not units.
    schemes = {u.schemes for u in units if not u.fixed}
    return (
        all(len(u.holders) <= 1 for u in units)
        and len({u.researcher for u in units}) == len(units)
        and all(a & b for a, b in combinations(schemes, 2))
    )


def _held_by_ids(slots: list[StoredSlot]) -> list[StoredSlot]:
    """A researcher known by ids (a profile's) with no anchored slot keeps all of theirs:
    nothing else would say who they are."""
    with_anchor = {s.researcher for s in slots if s.anchored}
    return [
        replace(s, anchored=True, fixed=True)
        if s.holder_has_ids and not s.anchored and s.researcher not in with_anchor
        else s
        for s in slots
    ]


def _block_targets(
    block: Sequence[Mention],
    by_id: Mapping[str, StoredSlot],
    units: Sequence[Unit],
    taken: set[int],
) -> dict[tuple[str, ...], int | None]:
    """The block's clusters, each with the researcher it goes to (None: a new one)."""
    context = ScoringContext.build(block)
    clusters = cluster_block(block, context, _constraints(block, units))
    targets: dict[tuple[str, ...], int | None] = {}
    chosen: set[int] = set()  # researchers given to a cluster with anchored slots, here
    with_anchors = [c for c in clusters if any(by_id[m].anchored for m in c)]
    for cluster in sorted(with_anchors, key=lambda c: (not _has_fixed(c, by_id), -len(c), c)):
        targets[cluster] = _choose(cluster, by_id, chosen, anchored_first=True)
    free_only = [c for c in clusters if c not in targets]
    # The biggest clusters choose first; each existing researcher is the target of one.
    for cluster in sorted(free_only, key=lambda c: (-len(c), c)):
        targets[cluster] = _choose(cluster, by_id, taken, anchored_first=False)
    return {cluster: targets[cluster] for cluster in clusters}


def _has_fixed(cluster: tuple[str, ...], by_id: Mapping[str, StoredSlot]) -> bool:
    return any(by_id[m].anchored and by_id[m].fixed for m in cluster)


def _choose(
    cluster: tuple[str, ...],
    by_id: Mapping[str, StoredSlot],
    taken: set[int],
    *,
    anchored_first: bool,
) -> int | None:
    """The researcher holding most of the cluster (its anchored slots first, if asked), not
    yet taken; None for a new one. The choice is taken."""
    slots = [by_id[m] for m in cluster]
    anchored = Counter(s.researcher for s in slots if s.anchored and anchored_first)
    fixed = [s.researcher for s in slots if s.anchored and s.fixed]
    counts = Counter(s.researcher for s in slots)
    first_holder = {s.researcher: i for i, s in reversed(list(enumerate(slots)))}
    ranked = sorted(counts, key=lambda rid: (-anchored[rid], -counts[rid], first_holder[rid]))
    choice = fixed[0] if fixed else next((rid for rid in ranked if rid not in taken), None)
    if choice is not None:
        taken.add(choice)
    return choice


def _constraints(block: Sequence[Mention], units: Sequence[Unit]) -> Constraints:
    """A unit's slots are one person; two conflicting units, or two slots of one paper, two.
    Units conflict by their tags (:meth:`Unit.conflicts`), not by a list of their pairs,
    which a block of thousands of units of one scheme would make in millions."""
    by_paper: dict[str, list[str]] = defaultdict(list)
    for mention in block:
        by_paper[mention.paper_id].append(mention.mention_id)
    pairs = [(a, b) for ids in by_paper.values() for a, b in combinations(ids, 2)]
    same = [(unit.label, slot_id) for unit in units for slot_id in unit.slots[1:]]
    return Constraints.of(
        same=same,
        distinct=pairs,
        tags=[(unit.label, unit.tags) for unit in units],
        exclusive=[unit.label for unit in units if unit.fixed],
    )


def _moves(
    cluster: tuple[str, ...], target: int | None, by_id: Mapping[str, StoredSlot]
) -> list[SlotMove]:
    """Moves of the cluster's slots not yet held by the target, by source researcher, with
    the ids of the anchored ones."""
    away: dict[int, list[StoredSlot]] = defaultdict(list)
    for slot_id in cluster:
        slot = by_id[slot_id]
        if slot.researcher != target and not slot.profile:
            away[slot.researcher].append(slot)
    name = preferred_name(by_id[m].raw_name for m in cluster)
    return [
        SlotMove(
            source,
            target,
            tuple(sorted(s.paper for s in moved)),
            group=cluster[0],
            name=name,
            keys=tuple(sorted({k for s in moved for k in s.held})),
        )
        for source, moved in sorted(away.items())
    ]


def _profile_moves(
    cluster: tuple[str, ...], target: int | None, by_id: Mapping[str, StoredSlot]
) -> list[SlotMove]:
    """The ids of the cluster's profile mentions that the target does not hold go to it."""
    name = preferred_name(by_id[m].raw_name for m in cluster)
    return [
        SlotMove(
            slot.researcher, target, (), group=cluster[0], name=name, keys=slot.held, profile=True
        )
        for slot in (by_id[m] for m in cluster)
        if slot.profile and slot.researcher != target and slot.held
    ]
