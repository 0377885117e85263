"""After a load: the name blocks it touched, decided again from the final graph.

:func:`converge_blocks` reads who holds each touched block's slots by which ids, keeps the
blocks with anything to decide (:func:`graph.identity.converge.components_to_decide`), asks the
pure :func:`graph.identity.converge.converge` for the moves, and makes them as recorded
machine moves (:func:`graph.curation.move_slots`, with the ids that go along). Each group of
blocks is read, decided and written in one transaction, so a retried transaction decides
again from what it reads. The ids the blocks' slots carry that nobody holds by a slot go to
the slots' holder, and a researcher left holding them and no slot is merged into that
holder (:func:`claim_slot_ids`).

Then :func:`settle_blocks` makes what the blocks' researchers show order-free too: the name
(:func:`graph.identity.name_forms.settled_names`) and its block, what the profiles of the
ids they hold say, the sorted lists, the counts (papers, citations, h-index: a profile's
researcher no slot reached has none), and the matching features made again from the final
slots (their coauthors' too where a block changed: features name coauthors by block), the
affiliations made again from what they rest on now; a researcher left with no slot keeps no
coauthor tie.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from scholargraph.graph import curation
from scholargraph.graph.db import Database, Row, Tx
from scholargraph.graph.errors import IdentityError
from scholargraph.graph.identity.converge import (
    SlotMove,
    components_to_decide,
    converge,
    joined_groups,
    named_blocks,
    printed_names,
    profile_rows,
    stored_slots,
)
from scholargraph.graph.identity.name_forms import preferred_name, settled_names
from scholargraph.graph.identity.names import base_block_key, block_key, parse_name
from scholargraph.graph.identity.unheld import IdClaims, id_claims, id_links
from scholargraph.queries import Query
from scholargraph.queries import converge as q
from scholargraph.queries import writer as writer_queries

Runner = Callable[[Query, Mapping[str, Any]], Awaitable[list[Row]]]

BLOCKS_PER_TRANSACTION = 500
UNIT_BLOCKS_PER_READ = 5_000
RESEARCHERS_PER_READ = 5_000
SETTLE_BLOCKS_PER_TRANSACTION = 2_000
# Rounds of deciding and claiming unheld ids: a claim changes what a decision reads.
PASS_ROUNDS = 3
# The pass reads every touched block of a whole load at once: more than one batch's work.
PASS_TIMEOUT_S = 600.0


@dataclass(frozen=True, slots=True)
class PassSummary:
    """The slots a pass moved, and every block it decided and settled: the blocks asked for
    and those their printed names join (whose researchers' papers may have changed too)."""

    moved: int
    blocks: frozenset[str]


async def converge_blocks(
    db: Database,
    blocks: Iterable[str] | None = None,
    *,
    per_transaction: int = BLOCKS_PER_TRANSACTION,
) -> int:
    """Make the groupings of the blocks' slots order-free (every block's, with ``blocks``
    None); returns the slots moved."""
    return (await converge_pass(db, blocks, per_transaction=per_transaction)).moved


async def converge_pass(
    db: Database,
    blocks: Iterable[str] | None = None,
    *,
    per_transaction: int = BLOCKS_PER_TRANSACTION,
) -> PassSummary:
    """:func:`converge_blocks`, with the blocks decided."""
    if blocks is None:
        found = await db.run(q.ALL_BLOCKS, timeout_s=PASS_TIMEOUT_S)
        keys = sorted(str(row["block"]) for row in (found[0]["rows"] if found else []))
    else:
        keys = sorted(set(blocks))
    moved, decided, todo = 0, set(keys), keys
    # Ids a load left on a slot alone, or with a researcher holding no slot, go to the slot's
    # holder before anything is decided: a decision reads who holds which id, and the slot
    # carrying an id may sit in a block with nothing to decide, which the pass does not read.
    await claim_slot_ids(db, keys)
    for _ in range(PASS_ROUNDS):
        pending = await _to_decide(db, todo)
        changed: set[str] = set()
        for chunk in _chunks(pending, per_transaction):
            slots, again = await db.unit(partial(_decide, groups=chunk), timeout_s=PASS_TIMEOUT_S)
            moved += slots
            changed.update(block for group in again for block in group)
        decided.update(block for group in pending for block in group)
        # A move or a merge changes what its blocks' decisions read (a researcher's ids
        # beyond their slots make one profile mention): decide those groups again. The
        # other groups read nothing new, and so would decide as they did.
        changed |= await claim_slot_ids(db, sorted(decided))
        if not changed:
            break
        todo = sorted(changed)
    await settle_blocks(db, sorted(decided))
    return PassSummary(moved, frozenset(decided))


async def holder_blocks(db: Database, researchers: Iterable[int]) -> set[str]:
    """The blocks the researchers are filed under now. A slot written to a researcher filed
    under another block than the name it prints (a profile made them first, ``José Martín
    Delgado`` under ``j delgado``, and the slot prints ``José Martín-Delgado``) puts their
    block in the pass too: otherwise the block they are settled into would depend on
    whether the profile or the slot came first."""
    ids = sorted(set(researchers))
    blocks: set[str] = set()
    for start in range(0, len(ids), RESEARCHERS_PER_READ):
        found = await db.run(
            q.RESEARCHER_BLOCKS,
            {"ids": ids[start : start + RESEARCHERS_PER_READ]},
            timeout_s=PASS_TIMEOUT_S,
        )
        blocks.update(found[0]["blocks"] if found else ())
    return blocks


async def _decide(tx: Tx, *, groups: list[tuple[str, ...]]) -> tuple[int, list[tuple[str, ...]]]:
    """The slots moved deciding the groups of blocks, and the groups the moves changed."""
    chunk = [block for group in groups for block in group]
    rows = await tx.run(q.BLOCK_SLOTS, {"blocks": chunk})
    profiles = await tx.run(q.BLOCK_PROFILES, {"blocks": chunk})
    slots = [*(rows[0]["rows"] if rows else []), *_profiles(profiles)]
    moves = converge(stored_slots(slots))
    return await apply_moves(tx, moves), moved_groups(moves, slots, groups)


def moved_groups(
    moves: Sequence[SlotMove], rows: Sequence[Mapping[str, Any]], groups: list[tuple[str, ...]]
) -> list[tuple[str, ...]]:
    """The groups holding a researcher the moves take slots or ids from or give them to
    (every group, for a researcher the rows do not place)."""
    block_of = {row["researcher"]: row["block"] for row in rows}
    touched = {
        block_of.get(researcher)
        for move in moves
        for researcher in (move.source, move.target)
        if researcher is not None
    }
    if None in touched:
        return list(groups)
    return [group for group in groups if touched.intersection(group)]


async def claim_slot_ids(db: Database, blocks: list[str]) -> set[str]:
    """Give the ids the blocks' slots carry and nobody holds by a slot to the slots' holder,
    merging a researcher holding them and no slot into that holder
    (:mod:`graph.identity.unheld`); returns the blocks whose researchers' ids changed.

    One transaction reads every block's rows, a part at a time, before anything is decided
    (an id's slots may sit in blocks far apart in the list), and makes the claims, so a
    retried one decides again from what it reads. A merge the rule refuses (two ORCIDs, a
    curator's decision) leaves both as they are."""

    async def work(tx: Tx) -> set[str]:
        rows = await _ids_away(tx.run, blocks)
        claims = id_claims(rows)
        block_of = {row["researcher"]: row["block"] for row in rows}
        block_of.update(
            {row["holder"]: row["holder_block"] or "" for row in rows if row["holder"] is not None}
        )
        if claims.given:
            await tx.run(writer_queries.UPSERT_IDENTIFIERS, {"rows": _identifier_rows(claims)})
        joined = [j for j in claims.joined if await _join(tx, *j)]
        return {block_of[rid] for _, rid in claims.given} | {
            block_of[rid] for orphan, holder, _ in joined for rid in (orphan, holder)
        }

    return await db.unit(work, timeout_s=PASS_TIMEOUT_S)


async def _ids_away(run: Runner, blocks: list[str]) -> list[q.SlotIdAwayRow]:
    """``SLOT_IDS_AWAY`` of the blocks, read a part at a time by ``run`` (a transaction's, or
    the database's with the pass's timeout)."""
    rows: list[q.SlotIdAwayRow] = []
    for start in range(0, len(blocks), UNIT_BLOCKS_PER_READ):
        found = await run(q.SLOT_IDS_AWAY, {"blocks": blocks[start : start + UNIT_BLOCKS_PER_READ]})
        rows += found[0]["rows"] if found else []
    return rows


def _identifier_rows(claims: IdClaims) -> list[writer_queries.IdentifierRow]:
    """The ids nobody holds as the writer writes a source's ids: by their scheme's rule."""
    rows: list[writer_queries.IdentifierRow] = []
    for key, researcher in claims.given:
        scheme, value = key.split(":", 1)
        rows.append(
            {
                "key": key,
                "scheme": scheme,
                "value": value,
                "researcher": researcher,
                "method": f"{scheme}_id",
                "source": scheme,
            }
        )
    return rows


async def _join(tx: Tx, orphan: int, holder: int, keys: tuple[str, ...]) -> bool:
    reason = (
        f"the ids {', '.join(keys)} of a researcher holding no slot are on researcher "
        f"{holder}'s slots"
    )
    try:
        await curation.merge_in(tx, holder, [orphan], actor="machine", reason=reason)
    except IdentityError:
        return False
    return True


async def settle_blocks(
    db: Database, blocks: list[str], *, per_transaction: int = SETTLE_BLOCKS_PER_TRANSACTION
) -> int:
    """Settle the blocks' live researchers (see the module); returns how many."""
    settled = 0
    for start in range(0, len(blocks), per_transaction):
        chunk = blocks[start : start + per_transaction]

        async def work(tx: Tx, chunk: list[str] = chunk) -> int:
            found = await tx.run(q.BLOCK_RESEARCHER_NAMES, {"blocks": chunk})
            rows = [_settled(row) for row in (found[0]["rows"] if found else [])]
            ids = [row["id"] for row in rows]
            rekeyed = [row["id"] for row in await tx.run(q.SETTLE_RESEARCHERS, {"rows": rows})]
            holders = await _follow_profiles(tx, ids)
            await tx.run(q.SETTLE_AFFILIATIONS, {"ids": sorted({*ids, *holders})})
            await tx.run(writer_queries.REFRESH_RESEARCHER_COUNTS, {"ids": ids})
            await curation.rebuild_features(tx, ids, rekeyed=rekeyed)
            await tx.run(q.DROP_SLOTLESS_TIES, {"blocks": chunk})
            return len(rows)

        settled += await db.unit(work, timeout_s=PASS_TIMEOUT_S)
    return settled


async def _follow_profiles(tx: Tx, ids: list[int]) -> list[int]:
    """The affiliations the researchers' profiles gave go to whoever holds the profiles' ids
    now (whichever path moved an id); returns those holders."""
    found = await tx.run(q.STRAY_PROFILE_AFFILIATIONS, {"ids": ids})
    rows: list[q.KeysRow] = found[0]["rows"] if found else []
    for row in rows:
        await tx.run(q.MOVE_PROFILE_AFFILIATIONS, {"rows": [row]})
    return [row["target"] for row in rows]


async def _to_decide(db: Database, blocks: list[str]) -> list[tuple[str, ...]]:
    """The groups of blocks with anything to decide (see
    :func:`graph.identity.converge.components_to_decide`) that hold any of ``blocks``; the
    blocks their printed names may join are read too.

    The groups come first, from the names printed in each block alone and the ids that tie
    a block's slot to a researcher of another block (:func:`id_links`); then the slots of a
    part of the groups at a time decide which of them hold anything to decide. A pass after a
    large load touches most of the store's blocks: their slots are never all in memory."""
    wanted = set(blocks)
    printed = await _read_printed(db, blocks)
    reducing = await db.run(q.BLOCKS_REDUCING_TO, {"blocks": blocks}, timeout_s=PASS_TIMEOUT_S)
    found = set(reducing[0]["blocks"]) if reducing else set()
    linked = sorted((named_blocks(printed.names) | found) - wanted)
    printed.add(await _read_printed(db, linked))
    ties = id_links(
        await _ids_away(partial(db.run, timeout_s=PASS_TIMEOUT_S), sorted(printed.names))
    )
    printed.add(await _read_printed(db, sorted({b for _, b in ties} - set(printed.names))))
    groups = [group for group in joined_groups(printed.names, ties) if wanted.intersection(group)]
    pending: list[tuple[str, ...]] = []
    for part in _chunks(groups, UNIT_BLOCKS_PER_READ):
        members = [block for group in part for block in group]
        rows = [*await _unit_rows(db, members), *printed.profile_rows(members)]
        pending += components_to_decide(rows, ties)
    return sorted(pending)


@dataclass(slots=True)
class _Printed:
    """Blocks read before their slots: the names printed in each block that holds a slot or
    a profile mention, and the profile mentions (``BLOCK_PROFILES``, as slot rows: few)."""

    names: dict[str, set[str]] = field(default_factory=dict)
    profiles: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def add(self, other: _Printed) -> None:
        for block, printed in other.names.items():
            self.names.setdefault(block, set()).update(printed)
        for block, rows in other.profiles.items():
            self.profiles.setdefault(block, []).extend(rows)

    def profile_rows(self, blocks: list[str]) -> list[dict[str, Any]]:
        """The blocks' profile mentions, by researcher as ``BLOCK_PROFILES`` of them gives."""
        rows = [row for block in blocks for row in self.profiles.get(block, ())]
        return sorted(rows, key=lambda row: int(row["researcher"]))


async def _read_printed(db: Database, blocks: list[str]) -> _Printed:
    printed = _Printed()
    for start in range(0, len(blocks), UNIT_BLOCKS_PER_READ):
        chunk = blocks[start : start + UNIT_BLOCKS_PER_READ]
        found = await db.run(q.BLOCK_PRINTED_NAMES, {"blocks": chunk}, timeout_s=PASS_TIMEOUT_S)
        rows: list[q.BlockNamesRow] = found[0]["rows"] if found else []
        for row in rows:
            printed.names.setdefault(row["block"], set()).update(row["names"])
        found = await db.run(q.BLOCK_PROFILES, {"blocks": chunk}, timeout_s=PASS_TIMEOUT_S)
        profiles = _profiles(found)
        for profile in profiles:
            printed.profiles.setdefault(profile["block"], []).append(profile)
        for block, names in printed_names(profiles).items():
            printed.names.setdefault(block, set()).update(names)
    return printed


async def _unit_rows(db: Database, blocks: list[str]) -> list[dict[str, Any]]:
    """The ``BLOCK_UNITS`` rows of the blocks."""
    rows: list[dict[str, Any]] = []
    for start in range(0, len(blocks), UNIT_BLOCKS_PER_READ):
        chunk = blocks[start : start + UNIT_BLOCKS_PER_READ]
        found = await db.run(q.BLOCK_UNITS, {"blocks": chunk}, timeout_s=PASS_TIMEOUT_S)
        rows += found[0]["rows"] if found else []
    return rows


def _chunks(groups: list[tuple[str, ...]], size: int) -> list[list[tuple[str, ...]]]:
    """The groups in transactions of about ``size`` blocks, no group cut."""
    chunks: list[list[tuple[str, ...]]] = []
    blocks = 0
    for group in groups:
        if not chunks or blocks + len(group) > size:
            chunks.append([])
            blocks = 0
        chunks[-1].append(group)
        blocks += len(group)
    return chunks


def _profiles(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The profile mentions of a ``BLOCK_PROFILES`` answer, as slot rows."""
    rows: list[q.BlockProfileRow] = found[0]["rows"] if found else []
    return profile_rows(rows)


async def apply_moves(tx: Tx, moves: Iterable[SlotMove]) -> int:
    """Make the moves in the caller's transaction, in their order; a new researcher per new
    cluster. Moves that touch none of each other's slots or researchers go in one wave
    (:class:`graph.curation.MoveWave`), the ids they carry first."""
    created: dict[str, int] = {}
    wave = curation.MoveWave()
    moved = 0
    for move in moves:
        target = move.target
        if target is None:
            if move.group not in created:
                created[move.group] = await curation.new_researcher(tx, move.name)
            target = created[move.group]
        source = created[move.parked] if move.parked is not None else move.source
        moving = curation.SlotMoving(
            source, target, tuple(move.papers), move.reason, tuple(move.keys)
        )
        if not wave.admits(moving):
            await _make(tx, wave)
            wave = curation.MoveWave()
        wave.add(moving)
        moved += len(move.papers)
    await _make(tx, wave)
    return moved


async def _make(tx: Tx, wave: curation.MoveWave) -> None:
    """A wave's moves: the ids they carry, with the affiliations their profiles gave (and
    every affiliation of a source whose every slot goes), then the slots."""
    keyed = [m for m in wave.moves if m.keys]
    if keyed:
        ids: list[q.KeysRow] = [
            {"source": m.source, "target": m.target, "keys": list(m.keys)} for m in keyed
        ]
        await tx.run(q.MOVE_IDENTIFIER_KEYS, {"rows": ids})
        await tx.run(q.MOVE_PROFILE_AFFILIATIONS, {"rows": ids})
        # A profile's ids moving alone (no slot) take only what their profiles gave.
        every: list[q.MovingAllRow] = [
            {"source": m.source, "target": m.target, "papers": list(m.papers), "keys": list(m.keys)}
            for m in keyed
            if m.papers
        ]
        if every:
            await tx.run(q.MOVE_ALL_AFFILIATIONS, {"rows": every})
    await curation.move_slots(tx, wave)


def _settled(row: q.ResearcherNamesRow) -> q.SettleRow:
    """The name shown and the other forms kept; the block, as the writer files a researcher
    it makes from printed names: the block of the best form the slots print (a name only a
    profile gives, ``Luis García López`` for ``García-López``, would file them apart from
    their slots), or of the name shown when no slot is left."""
    printed = _printed(row)
    name, others = settled_names(_forms(row, printed))
    filed = preferred_name(printed) if printed else name
    return {
        "id": row["id"],
        "name": name,
        "name_key": block_key(parse_name(filed)),
        "base_key": base_block_key(parse_name(filed)),
        "alt_names": list(others),
    }


def _printed(row: q.ResearcherNamesRow) -> list[str]:
    """The forms the researcher's slots print, each source's (a mention is
    ``<source>:<method>:<raw name>``)."""
    forms = [*row["raw_names"]]
    forms += [mention.split(":", 2)[2] for mention in row["mentions"] if mention.count(":") >= 2]
    return [form for form in forms if form.strip()]


def _forms(row: q.ResearcherNamesRow, printed: list[str]) -> list[str]:
    """Every form of the researcher's name: the slots' (``printed``) and the profiles'. A
    researcher with no form known keeps its name."""
    forms = [*printed, *row["profile_names"]]
    return forms if any(f.strip() for f in forms) else [row["name"]]
