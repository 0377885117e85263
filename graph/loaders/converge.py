"""After a load: the name blocks it touched, decided again from the final graph.

:func:`converge_blocks` reads each touched block that holds a name-only slot, asks the pure
:func:`graph.identity.converge.converge` for the moves, and makes them as recorded machine
moves (:func:`graph.curation.move_slots`). Each group of blocks is read, decided and written
in one transaction, so a retried transaction decides again from what it reads.
"""

from __future__ import annotations

from collections.abc import Iterable

from scholargraph.graph import curation
from scholargraph.graph.db import Database, Tx
from scholargraph.graph.identity.converge import SlotMove, StoredSlot, converge
from scholargraph.graph.identity.rules import DIRECT_METHODS
from scholargraph.queries import converge as q

BLOCKS_PER_TRANSACTION = 500
# The pass reads every touched block of a whole load at once: more than one batch's work.
PASS_TIMEOUT_S = 600.0


async def converge_blocks(
    db: Database,
    blocks: Iterable[str] | None = None,
    *,
    per_transaction: int = BLOCKS_PER_TRANSACTION,
) -> int:
    """Make the groupings of the blocks' name-only slots order-free (every block's, with
    ``blocks`` None); returns the slots moved."""
    direct = sorted(DIRECT_METHODS)
    if blocks is None:
        found = await db.run(q.ALL_FREE_BLOCKS, {"direct": direct}, timeout_s=PASS_TIMEOUT_S)
    else:
        keys = sorted(set(blocks))
        params = {"blocks": keys, "direct": direct}
        found = await db.run(q.FREE_BLOCKS, params, timeout_s=PASS_TIMEOUT_S) if keys else []
    free = sorted(str(row["block"]) for row in (found[0]["rows"] if found else []))
    moved = 0
    for start in range(0, len(free), per_transaction):
        chunk = free[start : start + per_transaction]

        async def work(tx: Tx, chunk: list[str] = chunk) -> int:
            rows = await tx.run(q.BLOCK_SLOTS, {"blocks": chunk})
            slots = [StoredSlot.from_row(row) for row in (rows[0]["rows"] if rows else [])]
            return await apply_moves(tx, converge(slots))

        moved += await db.unit(work, timeout_s=PASS_TIMEOUT_S)
    return moved


async def apply_moves(tx: Tx, moves: Iterable[SlotMove]) -> int:
    """Make the moves in the caller's transaction; a new researcher per new cluster."""
    created: dict[str, int] = {}
    moved = 0
    for move in moves:
        target = move.target
        if target is None:
            if move.group not in created:
                created[move.group] = await curation.new_researcher(tx, move.name)
            target = created[move.group]
        await curation.move_slots(tx, move.source, target, move.papers, reason=move.reason)
        moved += len(move.papers)
    return moved
