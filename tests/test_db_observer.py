"""The statement observer hears each statement of a unit of work, then its commit once; a
composed statement once, with the names of the queries it carries."""

from __future__ import annotations

from scholargraph.graph.db import COMMIT, Database, Tx
from scholargraph.queries import Query
from scholargraph.queries._compose import compose

TOUCH = Query("test.observer.touch", "CREATE (:ObserverProbe) RETURN 1 AS one", "write")
COUNT = Query("test.observer.count", "MATCH (n:ObserverProbe) RETURN count(n) AS n")
ONE = Query("test.observer.one", "RETURN 1 AS one")


async def test_a_unit_of_work_tells_its_statements_then_its_commit(db: Database) -> None:
    heard: list[tuple[tuple[str, ...], float, bool]] = []
    db.observer = lambda names, seconds, failed: heard.append((names, seconds, failed))

    async def work(tx: Tx) -> None:
        await tx.run(TOUCH)
        await tx.run(TOUCH)

    await db.unit(work)
    assert [names for names, _, _ in heard] == [(TOUCH.name,), (TOUCH.name,), (COMMIT,)]
    assert all(seconds >= 0 and not failed for _, seconds, failed in heard)
    heard.clear()
    await db.run(COUNT)
    assert [names for names, _, _ in heard] == [(COUNT.name,)]
    heard.clear()
    both, params = compose([(COUNT, {}), (ONE, {})])
    await db.run(both, params)
    assert [names for names, _, _ in heard] == [(COUNT.name, ONE.name)]
