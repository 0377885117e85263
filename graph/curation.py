"""Curator decisions on identity: merge, split, mark distinct, pin.

Each decision runs in one transaction and is recorded as a ``(:CurationEvent)`` linked to the
researchers it concerns (``CONCERNS {role}``), with who made it, why and when, and the papers
it moved. Decisions are reversible by another decision: a split with ``into`` a researcher that
was merged away revives that researcher, and marks the two distinct so that later loads never
merge them again; a curator-assigned slot is pinned, and loads never move a pinned slot.

* **merge** moves the merged researchers' authorships, affiliations and external ids to the
  survivor, leaves each merged node pointing at it (``merged_into``, so old ids keep
  resolving) and rebuilds the survivor's ``COAUTHOR`` edges, counts and matching features,
  and the features of the moved papers' other authors (they name the survivor's block now).
  :func:`graph.identity.merging.merge_refusal` says when a merge is refused (two different
  ORCID iDs, a ``DISTINCT_FROM`` mark, two slots on one paper); the loader's machine merges
  follow the same rule and run through :func:`merge_in`.
* **split** moves the named papers' slots to a new researcher (or ``into`` an existing one);
  both researchers' matching features are made again from the authorships they keep, and
  those of the moved papers' other authors.
* **mark distinct** records ``(:Researcher)-[:DISTINCT_FROM]->(:Researcher)``, lower id first.
* **pin** fixes one slot to its researcher (``method = 'curator'``).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, get_args

from scholargraph.graph import ids
from scholargraph.graph.db import Database, Tx
from scholargraph.graph.errors import BadInput, IdentityError, NotFound
from scholargraph.graph.identity import block_key, parse_name
from scholargraph.graph.identity.merging import merge_refusal
from scholargraph.graph.identity.names import base_block_key
from scholargraph.graph.identity.resolver import MachineMerge
from scholargraph.graph.identity.snapshot import ResearcherState, SharedPaper
from scholargraph.graph.loaders.rows import slugify
from scholargraph.graph.sequences import RESEARCHER_IDS_START
from scholargraph.queries import converge as converge_queries
from scholargraph.queries import curation as q
from scholargraph.queries import identity as identity_queries
from scholargraph.queries import writer as writer_queries

EventKind = Literal["merge", "split", "move", "distinct", "pin"]
# What a researcher is to a decision: the survivor and those merged into it; the source and
# target of a split or an automatic move; the two marked distinct; the one pinned to a paper.
Role = Literal["survivor", "merged", "source", "target", "distinct", "pinned"]
EVENT_KINDS: tuple[EventKind, ...] = get_args(EventKind)
ROLES: tuple[Role, ...] = get_args(Role)


@dataclass(frozen=True, slots=True)
class CurationEvent:
    id: str
    kind: str
    actor: str
    reason: str
    at: datetime
    papers: tuple[str, ...]
    roles: tuple[tuple[int, str], ...]  # (researcher id, role)

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> CurationEvent:
        at = row["at"]
        return cls(
            id=row["id"],
            kind=row["kind"],
            actor=row["actor"],
            reason=row["reason"],
            at=at if isinstance(at, datetime) else at.to_native(),
            papers=tuple(row.get("papers") or ()),
            roles=tuple(sorted((r["researcher"], r["role"]) for r in row.get("roles") or ())),
        )

    @property
    def researchers(self) -> tuple[int, ...]:
        return tuple(dict.fromkeys(researcher for researcher, _ in self.roles))


async def merge(
    db: Database, survivor: int, merged: Sequence[int], *, actor: str, reason: str
) -> CurationEvent:
    _require_reason(reason)
    others = list(dict.fromkeys(merged))
    if not others or survivor in others:
        raise BadInput("merge needs one survivor and at least one other researcher")

    async def work(tx: Tx) -> CurationEvent:
        return await merge_in(tx, survivor, others, actor=actor, reason=reason)

    return await db.unit(work)


async def merge_in(
    tx: Tx, survivor: int, merged: Sequence[int], *, actor: str, reason: str
) -> CurationEvent:
    """A merge inside a transaction the caller runs (a curator's, or a batch's)."""
    others = list(merged)
    pairs: list[q.PairRow] = [{"survivor": survivor, "merged": other} for other in others]
    await _refuse(tx, pairs)
    moved: list[str] = []
    for pair in pairs:
        moved += [p for papers in (await _absorb(tx, [pair])).values() for p in papers]
    await _rebuild(tx, [survivor, *others], papers=sorted(set(moved)))
    roles: list[tuple[int, Role]] = [
        (survivor, "survivor"),
        *((other, "merged") for other in others),
    ]
    return await _record(tx, "merge", actor, reason, sorted(set(moved)), roles)


async def machine_merges(tx: Tx, merges: Sequence[MachineMerge]) -> list[CurationEvent]:
    """The machine's merges, in their order, inside the caller's transaction, each as
    :func:`merge_in` makes it and recorded; merges of researchers none of the others names go
    in one wave of statements. A refused merge raises :class:`IdentityError`."""
    events: list[CurationEvent] = []
    for wave in _merge_waves(merges):
        pairs: list[q.PairRow] = [{"survivor": m.survivor, "merged": m.merged} for m in wave]
        await _refuse(tx, pairs)
        moved = await _absorb(tx, pairs)
        await _rebuild(
            tx,
            sorted({m.survivor for m in wave} | {m.merged for m in wave}),
            papers=sorted({paper for papers in moved.values() for paper in papers}),
        )
        made = [
            _event(
                "merge",
                "machine",
                m.reason,
                sorted(set(moved.get((m.merged, m.survivor), []))),
                [(m.survivor, "survivor"), (m.merged, "merged")],
            )
            for m in wave
        ]
        await tx.run(q.RECORD_EVENTS, {"rows": [row for _, row in made]})
        events += [event for event, _ in made]
    return events


def _merge_waves(merges: Sequence[MachineMerge]) -> list[list[MachineMerge]]:
    """The merges in order, cut where one names a researcher the current wave names: a
    wave's merges each move what no other of them reads."""
    waves: list[list[MachineMerge]] = []
    named: set[int] = set()
    for merge in merges:
        if not waves or merge.survivor in named or merge.merged in named:
            waves.append([])
            named = set()
        waves[-1].append(merge)
        named |= {merge.survivor, merge.merged}
    return waves


async def _refuse(tx: Tx, pairs: list[q.PairRow]) -> None:
    """Raise :class:`IdentityError` if the rule refuses a merge of the pairs, read now."""
    ids = list(dict.fromkeys(x for pair in pairs for x in (pair["survivor"], pair["merged"])))
    states = {rid: _state(row) for rid, row in (await _states(tx, ids)).items()}
    shared = await _shared(tx, pairs)
    for survivor in dict.fromkeys(pair["survivor"] for pair in pairs):
        others = [pair["merged"] for pair in pairs if pair["survivor"] == survivor]
        refusal = merge_refusal([survivor], others, states, lambda a, b: shared.get((a, b), ()))
        if refusal is not None:
            raise IdentityError(refusal)


async def _absorb(tx: Tx, pairs: list[q.PairRow]) -> dict[tuple[int, int], list[str]]:
    """Each merged researcher's slots, affiliations and ids go to its survivor, which takes
    its names and features; the papers moved, by (merged, survivor). No researcher is in
    two pairs (see :func:`_merge_waves`)."""
    every: list[q.MoveRow] = [
        {"source": pair["merged"], "target": pair["survivor"], "papers": None} for pair in pairs
    ]
    found = await tx.run(q.MOVE_AUTHORSHIPS, {"rows": every, "assign": False})
    await tx.run(q.MOVE_AFFILIATIONS, {"rows": pairs})
    await tx.run(q.MOVE_IDENTIFIERS, {"rows": pairs})
    await tx.run(q.ABSORB, {"rows": pairs})
    return {(row["source"], row["target"]): list(row["moved"]) for row in found}


async def split(
    db: Database,
    researcher: int,
    papers: Sequence[str],
    *,
    actor: str,
    reason: str,
    into: int | None = None,
) -> CurationEvent:
    _require_reason(reason)
    keys = sorted({_paper_key(p) for p in papers})
    if not keys:
        raise BadInput("split needs the papers to move")
    if into == researcher:
        raise BadInput("split into the same researcher moves nothing")

    async def work(tx: Tx) -> CurationEvent:
        states = await _states(tx, [researcher] + ([into] if into is not None else []))
        if states[researcher]["merged_into"] is not None:
            raise IdentityError(
                f"researcher {researcher} was merged into {states[researcher]['merged_into']}; "
                f"split that one"
            )
        target = into if into is not None else await new_researcher(tx, states[researcher]["name"])
        if into is not None and states[into]["merged_into"] is not None:
            await tx.run(q.REVIVE, {"id": into})
        moved = await _move_authorships(tx, researcher, target, keys, assign=True)
        missing = sorted(set(keys) - set(moved))
        if missing:
            raise NotFound(
                f"researcher {researcher} is not an author of {', '.join(missing)}; "
                f"check the paper ids on their page"
            )
        low, high = sorted((researcher, target))
        await tx.run(q.MARK_DISTINCT, {"low": low, "high": high})
        await _rebuild(tx, [researcher, target], papers=keys)
        roles: list[tuple[int, Role]] = [(researcher, "source"), (target, "target")]
        return await _record(tx, "split", actor, reason, keys, roles)

    return await db.unit(work)


@dataclass(frozen=True, slots=True)
class SlotMoving:
    """A machine's move of the ``source``'s name-only slots on ``papers`` to ``target``,
    carrying the ids ``keys`` the source holds (Identifier keys)."""

    source: int
    target: int
    papers: tuple[str, ...]
    reason: str
    keys: tuple[str, ...] = ()


class MoveWave:
    """Moves that can be made together (:func:`move_slots`): no paper in two of them, no
    researcher a source in one and a target in another, and a move carrying ids alone with
    its two researchers. So each moves edges and ids none of the others reads, in whatever
    order the statements take them."""

    def __init__(self) -> None:
        self.moves: list[SlotMoving] = []
        self._papers: set[str] = set()
        self._sources: set[int] = set()
        self._targets: set[int] = set()
        self._keyed: set[int] = set()  # the researchers of moves carrying ids

    def admits(self, move: SlotMoving) -> bool:
        mine = {move.source, move.target}
        named = self._sources | self._targets
        return (
            self._papers.isdisjoint(move.papers)
            and move.source not in self._targets
            and move.target not in self._sources
            and self._keyed.isdisjoint(mine)
            and (not move.keys or named.isdisjoint(mine))
        )

    def add(self, move: SlotMoving) -> None:
        if not self.admits(move):
            raise ValueError(f"a move of {move.papers} conflicts with the wave's moves")
        self.moves.append(move)
        self._papers.update(move.papers)
        self._sources.add(move.source)
        self._targets.add(move.target)
        if move.keys:
            self._keyed |= {move.source, move.target}


async def move_slots(tx: Tx, wave: MoveWave) -> list[CurationEvent]:
    """The machine's moves of name-only slots (see :mod:`graph.identity.converge`) inside
    the caller's transaction, each recorded; one statement of each kind for the whole wave.
    The slots are not pinned: the next load's convergence or a curator may move them again.
    A researcher left with nothing is retired into the target of its last move."""
    moves = wave.moves
    if not moves:
        return []
    rows: list[converge_queries.SlotAffiliationsRow] = [
        {"source": m.source, "target": m.target, "papers": list(m.papers)} for m in moves
    ]
    ids = sorted({m.source for m in moves} | {m.target for m in moves})
    await _move_authorship_rows(tx, rows, ids, assign=False)
    last = {m.source: m.target for m in moves}
    retire = [{"researcher": source, "into": target} for source, target in sorted(last.items())]
    await tx.run(writer_queries.RETIRE_EMPTY, {"rows": retire})
    await _rebuild(tx, ids, sorted({paper for m in moves for paper in m.papers}))
    events = [
        _event(
            "move",
            "machine",
            m.reason,
            sorted(m.papers),
            [(m.source, "source"), (m.target, "target")],
        )
        for m in moves
    ]
    await tx.run(q.RECORD_EVENTS, {"rows": [row for _, row in events]})
    return [event for event, _ in events]


async def _move_authorships(
    tx: Tx, source: int, target: int, papers: list[str], *, assign: bool
) -> list[str]:
    """Move the source's slots on ``papers`` to the target (``assign``: as a curator's); the
    papers moved (see :func:`_move_authorship_rows`)."""
    row: converge_queries.SlotAffiliationsRow = {
        "source": source,
        "target": target,
        "papers": papers,
    }
    return await _move_authorship_rows(tx, [row], [source, target], assign=assign)


async def _move_authorship_rows(
    tx: Tx, rows: list[converge_queries.SlotAffiliationsRow], ids: list[int], *, assign: bool
) -> list[str]:
    """Move each row's slots with the affiliations those slots give; each source keeps only
    the affiliations its remaining slots give (its ids, and so its profiles' affiliations,
    stay), the affiliations of ``ids`` (every source and target) settled on what they rest
    on now. The papers moved."""
    await tx.run(converge_queries.MOVE_SLOT_AFFILIATIONS, {"rows": rows})
    found = await tx.run(q.MOVE_AUTHORSHIPS, {"rows": rows, "assign": assign})
    await tx.run(converge_queries.SETTLE_AFFILIATIONS, {"ids": ids})
    return [paper for row in found for paper in row["moved"]]


async def mark_distinct(
    db: Database, first: int, second: int, *, actor: str, reason: str
) -> CurationEvent:
    _require_reason(reason)
    if first == second:
        raise BadInput("a researcher cannot be distinct from themself")

    async def work(tx: Tx) -> CurationEvent:
        await _states(tx, [first, second])
        low, high = sorted((first, second))
        await tx.run(q.MARK_DISTINCT, {"low": low, "high": high})
        roles: list[tuple[int, Role]] = [(first, "distinct"), (second, "distinct")]
        return await _record(tx, "distinct", actor, reason, [], roles)

    return await db.unit(work)


async def pin_paper(
    db: Database, researcher: int, paper: str, *, actor: str, reason: str
) -> CurationEvent:
    _require_reason(reason)
    key = _paper_key(paper)

    async def work(tx: Tx) -> CurationEvent:
        await _states(tx, [researcher])
        rows = await tx.run(q.PIN, {"researcher": researcher, "paper": key})
        if not rows or rows[0]["pinned"] == 0:
            raise BadInput(
                f"researcher {researcher} holds no author slot on {key}; move the slot to them "
                f"with split(into:) first"
            )
        return await _record(tx, "pin", actor, reason, [key], [(researcher, "pinned")])

    return await db.unit(work)


async def events(
    db: Database, researcher_ids: Sequence[int], limit: int = 20
) -> dict[int, tuple[CurationEvent, ...]]:
    """The latest decisions concerning each researcher, newest first."""
    rows = await db.run(q.EVENTS, {"ids": list(researcher_ids), "limit": limit})
    return {row["id"]: tuple(CurationEvent.from_row(e) for e in row["events"]) for row in rows}


def _paper_key(ref: str) -> str:
    text = ref.strip()
    return ids.normalize_arxiv_id(text) if ids.is_arxiv_id(text) else text


async def _states(tx: Tx, researcher_ids: list[int]) -> dict[int, dict[str, Any]]:
    rows = await tx.run(q.STATES, {"ids": researcher_ids})
    missing = [row["id"] for row in rows if not row["found"]]
    if missing:
        raise NotFound(f"no researcher {', '.join(map(str, missing))}")
    return {row["id"]: row for row in rows}


def _state(row: dict[str, Any]) -> ResearcherState:
    return ResearcherState(
        id=row["id"],
        orcid=row["orcid"],
        merged_into=row["merged_into"],
        distinct_from=frozenset(row["distinct_from"]),
    )


async def _shared(tx: Tx, pairs: list[q.PairRow]) -> dict[tuple[int, int], tuple[SharedPaper, ...]]:
    rows = await tx.run(q.SHARED_PAPERS, {"rows": pairs})
    shared: dict[tuple[int, int], list[SharedPaper]] = {}
    for row in rows:
        shared.setdefault((row["survivor"], row["merged"]), []).append(
            SharedPaper(row["paper"], (row["survivor_position"], row["merged_position"]))
        )
    return {pair: tuple(papers) for pair, papers in shared.items()}


async def new_researcher(tx: Tx, name: str) -> int:
    """A researcher with no slots yet, named ``name``, inside the caller's transaction."""
    rows = await tx.run(
        identity_queries.NEXT_IDS,
        {"name": "researcher", "count": 1, "start": RESEARCHER_IDS_START},
    )
    new_id = int(rows[0]["first"])
    await tx.run(
        q.CREATE_RESEARCHER,
        {
            "id": new_id,
            "name": name,
            "slug": slugify(name),
            "name_key": block_key(parse_name(name)),
            "base_key": base_block_key(parse_name(name)),
        },
    )
    return new_id


async def _rebuild(tx: Tx, researcher_ids: list[int], papers: Sequence[str] = ()) -> None:
    await tx.run(q.DROP_COAUTHORS, {"ids": researcher_ids})
    await tx.run(q.BUILD_COAUTHORS, {"ids": researcher_ids})
    await tx.run(writer_queries.REFRESH_RESEARCHER_COUNTS, {"ids": researcher_ids})
    await rebuild_features(tx, researcher_ids, papers=papers)


async def rebuild_features(
    tx: Tx, ids: Sequence[int], *, rekeyed: Sequence[int] = (), papers: Sequence[str] = ()
) -> None:
    """The matching features of ``ids`` made again, and of the coauthors whose features name
    a block that changed. Features name each coauthor by the block they are filed under, so
    the researchers tied to one of ``rekeyed`` (filed under another block now) and the other
    authors of ``papers`` (whose slots went to another researcher) are made again too:
    otherwise they would name whoever held a slot when they were last made, as the order of
    loading left it."""
    near: set[int] = set()
    if rekeyed:
        tied = await tx.run(converge_queries.COAUTHORS_OF, {"ids": list(rekeyed)})
        near.update(tied[0]["ids"] if tied else ())
    if papers:
        found = await tx.run(q.PAPERS_AUTHORS, {"papers": list(papers)})
        near.update(found[0]["ids"] if found else ())
    others = sorted(near - set(ids))
    await tx.run(writer_queries.REBUILD_FEATURES, {"ids": [*ids, *others]})


async def _record(
    tx: Tx,
    kind: EventKind,
    actor: str,
    reason: str,
    papers: list[str],
    roles: list[tuple[int, Role]],
) -> CurationEvent:
    event, row = _event(kind, actor, reason, papers, roles)
    await tx.run(q.RECORD_EVENTS, {"rows": [row]})
    return event


def _event(
    kind: EventKind,
    actor: str,
    reason: str,
    papers: list[str],
    roles: list[tuple[int, Role]],
) -> tuple[CurationEvent, q.EventRow]:
    """A decision made now, and its row of ``RECORD_EVENTS``."""
    event = CurationEvent(
        id=uuid.uuid4().hex,
        kind=kind,
        actor=actor.strip() or "curator",
        reason=reason.strip(),
        at=datetime.now(UTC),
        papers=tuple(papers),
        roles=tuple(sorted(roles)),
    )
    row: q.EventRow = {
        "id": event.id,
        "kind": kind,
        "actor": event.actor,
        "reason": event.reason,
        "at": event.at.isoformat(),
        "papers": papers,
        "roles": [{"researcher": rid, "role": role} for rid, role in roles],
    }
    return event, row


def _require_reason(reason: str) -> None:
    if not reason.strip():
        raise BadInput("say why: a curation decision needs a reason")
