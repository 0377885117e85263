"""The session's watch on long transactions notes one blocked by another, with what it ran."""

from __future__ import annotations

import threading
import time

import neo4j

from scholargraph.graph.config import Settings
from tests.slow_transactions import TransactionWatch

PROBE = "MATCH (n:TransactionWatchProbe {key: 1}) SET n.seen = $seen"
CREATE = "MERGE (:TransactionWatchProbe {key: 1})"
DELETE = "MATCH (n:TransactionWatchProbe) DELETE n"


def _write_and_roll_back(driver: neo4j.Driver, database: str, done: threading.Event) -> None:
    with driver.session(database=database) as session, session.begin_transaction() as tx:
        tx.run(PROBE, seen=2).consume()
        tx.rollback()
    done.set()


def test_a_transaction_blocked_by_another_is_reported_with_its_wait(
    neo4j_settings: Settings,
) -> None:
    watch = TransactionWatch(neo4j_settings, threshold_s=1.0, every_s=0.5)
    database = neo4j_settings.neo4j_database
    done = threading.Event()
    with neo4j.GraphDatabase.driver(neo4j_settings.uri, auth=neo4j_settings.auth) as driver:
        driver.execute_query(CREATE, database_=database)
        with driver.session(database=database) as session, session.begin_transaction() as holder:
            holder.run(PROBE, seen=1).consume()
            waiter = threading.Thread(target=_write_and_roll_back, args=(driver, database, done))
            waiter.start()
            watch.start()
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not any(
                "Blocked by" in line for line in watch.report()
            ):
                time.sleep(0.5)
            watch.stop()
            holder.rollback()
        waiter.join(timeout=30)
        driver.execute_query(DELETE, database_=database)
    assert done.is_set()
    lines = watch.report()
    blocked = [line for line in lines if "Blocked by" in line]
    assert blocked, lines
    assert "MATCH (n:TransactionWatchProbe" in blocked[0]
    assert "waiting" in blocked[0]
