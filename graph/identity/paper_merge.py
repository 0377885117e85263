"""Paper identity against the graph: which stored papers a batch's records are, and the
merges, renames and unmerges that follow (the rules themselves are :mod:`papers`).

A machine merge runs in its own transaction, computed inside it from what it reads (so the
driver may retry it), and is recorded as a ``CurationEvent`` of kind ``paper_merge`` with
actor ``machine``. Like a curator's researcher merge it is reversible: :func:`unmerge_paper`
makes the merged-away paper a paper again, with its ids, authorships and categories, gives
back the survivor's fields it took (those no later record has outranked), and marks the two
distinct, so that no later load merges them again.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from scholargraph.graph import ids as id_forms
from scholargraph.graph.db import Database, Row, Tx
from scholargraph.graph.errors import BadInput, NotFound
from scholargraph.graph.identity.papers import (
    PaperMerge,
    PaperPlan,
    StoredPaper,
    doi_id,
    id_keys,
    paper_ids,
    plan_papers,
    scheme_of,
)
from scholargraph.graph.identity.precedence import (
    RULES,
    Choice,
    choose,
    format_ranks,
    merge_records,
    parse_ranks,
    stored_candidates,
)
from scholargraph.graph.records import PaperRecord, paper_key
from scholargraph.queries import curation as cq
from scholargraph.queries import paper_identity as q
from scholargraph.queries import writer as wq

_DATE_PROPS = frozenset({"published", "updated"})


@dataclass(frozen=True, slots=True)
class Identified:
    """A batch's records keyed by paper identity, and the stored field ranks of their papers
    (after the merges and renames the plan called for)."""

    plan: PaperPlan
    ranks: Mapping[str, dict[str, str]] = field(default_factory=dict)

    @property
    def records(self) -> tuple[PaperRecord, ...]:
        return self.plan.records

    @classmethod
    def of(cls, records: Sequence[PaperRecord]) -> Identified:
        """Records keyed by their own ids alone, as if the graph held none of them."""
        return cls(plan_papers(records, {}))


@dataclass(frozen=True, slots=True)
class PaperFields:
    """What one paper's records of a batch write: the fields they win over the stored ones
    (:func:`graph.identity.precedence.merge_records`), their sources, and their ids."""

    choice: Choice
    sources: tuple[str, ...]
    ids: q.PaperIdRow


def paper_fields(
    items: Sequence[tuple[PaperRecord, Mapping[str, Any], Sequence[Mapping[str, Any]]]],
    identified: Identified,
) -> dict[str, PaperFields]:
    """Per paper key, what its records write: ``items`` are ``(record, its paper properties,
    its category rows)``, every record of the batch (several may be one paper)."""
    by_key: dict[str, list[tuple[PaperRecord, Mapping[str, Any], Sequence[Mapping[str, Any]]]]]
    by_key = {}
    for item in items:
        by_key.setdefault(item[0].key, []).append(item)
    fields = {}
    for key, group in by_key.items():
        ids = identified.plan.ids.get(key, ())
        dois = sorted({r.doi for r, _, _ in group if r.doi and doi_id(r.doi) in ids})
        fields[key] = PaperFields(
            choice=merge_records(identified.ranks.get(key, {}), group),
            sources=tuple(sorted({r.source for r, _, _ in group})),
            ids=q.PaperIdRow(
                key=key,
                ids=[
                    q.PaperIdKey(key=i, scheme=scheme_of(i), value=i.split(":", 1)[1]) for i in ids
                ],
                dois=dois,
            ),
        )
    return fields


@dataclass(frozen=True, slots=True)
class PaperEvent:
    id: str
    kind: str
    actor: str
    reason: str
    at: datetime
    survivor: str
    merged: str


async def identify(db: Database, records: Sequence[PaperRecord]) -> Identified:
    """Key the records by the papers they are, merging and renaming stored papers first."""
    if not records:
        return Identified(PaperPlan(()))
    rows = await _lookup(db, records)
    plan = plan_papers(records, stored_papers(rows))
    for merge in plan.merges:

        async def work(tx: Tx, merge: PaperMerge = merge) -> PaperEvent:
            return await merge_papers(tx, merge.survivor, merge.merged, reason=merge.reason)

        await db.unit(work)
    for old, new in plan.renames:
        await db.run(q.RENAME_PAPER, {"old": old, "new": new})
    if plan.merges or plan.renames:  # the survivors' ranks changed: read them again
        keys = sorted({record.key for record in plan.records})
        rows = await db.run_rows(q.PAPER_RANKS, {"keys": keys})
    return Identified(plan, {row["key"]: parse_ranks(row["ranks"]) for row in rows})


async def _lookup(db: Database, records: Sequence[PaperRecord]) -> list[Row]:
    wanted = sorted({i for record in records for i in paper_ids(record)})
    own = sorted(
        {paper_key(r.arxiv_id, r.doi, r.s2_id, r.openalex_id) for r in records if paper_ids(r)}
    )
    return await db.run_rows(q.LOOKUP_PAPERS, {"ids": wanted, "keys": own})


def stored_papers(rows: Sequence[Row]) -> dict[str, StoredPaper]:
    """The stored papers a lookup found (``LOOKUP_PAPERS`` rows), by each id they hold."""
    stored: dict[str, StoredPaper] = {}
    for row in rows:
        held = tuple(row["ids"]) or _ids_from_properties(row)
        paper = StoredPaper(row["key"], held, tuple(sorted(row["distinct"])))
        for id_key in held:
            stored.setdefault(id_key, paper)
    return stored


def _ids_from_properties(row: Row) -> tuple[str, ...]:
    """The ids of a paper written before papers had ``PaperId`` s."""
    return id_keys(
        arxiv=row["arxiv_id"], doi=row["doi"], s2=row["s2_id"], openalex=row["openalex_id"]
    )


async def merge_papers(tx: Tx, survivor: str, merged: str, *, reason: str) -> PaperEvent:
    """Merge ``merged`` into ``survivor`` inside a transaction, recorded as a machine merge."""
    states = await _states(tx, [survivor, merged])
    s, m = states[survivor], states[merged]
    s_ranks = parse_ranks(s["props"].get("field_ranks"))
    m_ranks = parse_ranks(m["props"].get("field_ranks"))
    choice = choose(s_ranks, stored_candidates(m["props"], m_ranks, m["categories"]))
    took = {f: r for f, r in choice.ranks.items() if r == m_ranks.get(f) and r != s_ranks.get(f)}
    on_survivor = {slot["researcher"] for slot in s["slots"]}
    restore = {
        "ids": m["ids"],
        "slots": [
            {**slot, "created": slot["researcher"] not in on_survivor} for slot in m["slots"]
        ],
        "categories": m["categories"],
        "fingerprints": [
            f
            for f in m["props"].get("fingerprints") or []
            if f not in set(s["props"].get("fingerprints") or [])
        ],
        "took": took,
        "before": {
            "props": {
                p: s["props"].get(p) for f in took for p in RULES[f].props if p != "categories"
            },
            "ranks": {f: s_ranks.get(f) for f in took},
            "categories": s["categories"] if "categories" in took else None,
        },
    }
    await tx.run(
        q.MERGE_PAPER,
        {
            "survivor": survivor,
            "merged": merged,
            "props": choice.props,
            "ranks": format_ranks(choice.ranks),
            "categories": choice.categories,
            "restore": json.dumps(restore, default=_json_value, sort_keys=True),
        },
    )
    await _refresh(tx, [slot["researcher"] for state in (s, m) for slot in state["slots"]])
    return await _record(tx, "paper_merge", "machine", reason, survivor, merged)


async def unmerge_paper(db: Database, merged: str, *, actor: str, reason: str) -> PaperEvent:
    """Make a merged-away paper a paper again (see the module docstring)."""
    if not reason.strip():
        raise BadInput("say why: undoing a merge needs a reason")

    async def work(tx: Tx) -> PaperEvent:
        found = await _states(tx, [merged], required=False)
        gone = found.get(merged)
        if gone is None or gone["merged_into"] is None:
            raise NotFound(f"no merged-away paper {merged!r}; a paper's events list its merges")
        survivor = gone["merged_into"]
        s = (await _states(tx, [survivor]))[survivor]
        restore = json.loads(gone["props"]["restore"])
        ranks = parse_ranks(s["props"].get("field_ranks"))
        props: dict[str, Any] = {}
        categories = None
        for name, rank in restore["took"].items():
            if ranks.get(name) != rank:
                continue  # a later record outranks what the merge brought: it stays
            before = restore["before"]["ranks"].get(name)
            if before is None:
                ranks.pop(name)
            else:
                ranks[name] = before
            for prop in RULES[name].props:
                if prop == "categories":
                    categories = restore["before"]["categories"] or []
                else:
                    props[prop] = _from_json(prop, restore["before"]["props"].get(prop))
        await tx.run(
            q.UNMERGE_PAPER,
            {
                "merged": merged,
                "ids": restore["ids"],
                "slots": restore["slots"],
                "merged_categories": restore["categories"],
                "fingerprints": restore["fingerprints"],
                "props": props,
                "ranks": format_ranks(ranks),
                "categories": categories,
            },
        )
        researchers = [slot["researcher"] for slot in [*s["slots"], *restore["slots"]]]
        await _refresh(tx, researchers)
        return await _record(tx, "paper_unmerge", actor, reason, survivor, merged)

    return await db.unit(work)


async def resolve_paper_key(db: Database, ref: str) -> str | None:
    """The key of the paper any of its keys or ids names now (``arXiv:2302.13971v1``,
    ``doi:10.1/x``, a merged-away or former key), or None."""
    text = ref.strip()
    if id_forms.is_arxiv_id(text):
        key = id_forms.normalize_arxiv_id(text)
        id_key = f"arxiv:{key}"
    else:
        key = id_key = text
    rows = await db.run(q.RESOLVE_PAPER, {"ref": key, "id": id_key})
    found: str | None = rows[0]["key"] if rows else None
    return found


async def paper_events(db: Database, key: str) -> list[PaperEvent]:
    rows = await db.run(q.PAPER_EVENTS, {"key": key})
    return [
        PaperEvent(
            id=row["id"],
            kind=row["kind"],
            actor=row["actor"],
            reason=row["reason"],
            at=row["at"].to_native(),
            survivor=row["papers"][0],
            merged=row["papers"][1],
        )
        for row in rows
    ]


async def _states(tx: Tx, keys: list[str], *, required: bool = True) -> dict[str, dict[str, Any]]:
    rows = await tx.run(q.PAPER_STATES, {"keys": keys})
    states = {row["key"]: row for row in rows}
    missing = [key for key in keys if key not in states]
    if missing and required:
        raise NotFound(f"no paper {', '.join(missing)} in the graph")
    return states


async def _refresh(tx: Tx, researchers: list[int]) -> None:
    """COAUTHOR ties and counts of the researchers on papers that merged or came apart:
    made again from their authorships (a joint paper seen twice now counts once)."""
    ids = sorted(set(researchers))
    if not ids:
        return
    await tx.run(cq.DROP_COAUTHORS, {"ids": ids})
    await tx.run(cq.BUILD_COAUTHORS, {"ids": ids})
    await tx.run(wq.REFRESH_RESEARCHER_COUNTS, {"ids": ids})


async def _record(
    tx: Tx, kind: str, actor: str, reason: str, survivor: str, merged: str
) -> PaperEvent:
    event = PaperEvent(
        id=uuid.uuid4().hex,
        kind=kind,
        actor=actor.strip() or "curator",
        reason=reason.strip(),
        at=datetime.now(UTC),
        survivor=survivor,
        merged=merged,
    )
    row = {
        "id": event.id,
        "kind": kind,
        "actor": event.actor,
        "reason": event.reason,
        "at": event.at.isoformat(),
        "survivor": survivor,
        "merged": merged,
    }
    await tx.run(q.RECORD_PAPER_EVENT, {"event": row})
    return event


def _json_value(value: object) -> object:
    native = value.to_native() if hasattr(value, "to_native") else value
    if isinstance(native, date):
        return native.isoformat()
    raise TypeError(f"cannot keep {type(value).__name__} to restore a paper")


def _from_json(prop: str, value: object) -> object:
    if prop in _DATE_PROPS and isinstance(value, str):
        return date.fromisoformat(value)
    return value
