"""The statement observer hears each statement of a unit of work, then its commit once."""

from __future__ import annotations

from scholargraph.graph.db import COMMIT, Database, Tx
from scholargraph.queries import Query

TOUCH = Query("test.observer.touch", "CREATE (:ObserverProbe) RETURN 1 AS one", "write")
COUNT = Query("test.observer.count", "MATCH (n:ObserverProbe) RETURN count(n) AS n")


async def test_a_unit_of_work_tells_its_statements_then_its_commit(db: Database) -> None:
    heard: list[tuple[str, float, bool]] = []
    db.observer = lambda name, seconds, failed: heard.append((name, seconds, failed))

    async def work(tx: Tx) -> None:
        await tx.run(TOUCH)
        await tx.run(TOUCH)

    await db.unit(work)
    assert [name for name, _, _ in heard] == [TOUCH.name, TOUCH.name, COMMIT]
    assert all(seconds >= 0 and not failed for _, seconds, failed in heard)
    heard.clear()
    await db.run(COUNT)
    assert [name for name, _, _ in heard] == [COUNT.name]
