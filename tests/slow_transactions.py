"""A watch on the test server's transactions: every few seconds, the ones that have run longer
than a threshold, with what they wait on, are noted, and the session's summary lists them.

A statement that normally takes milliseconds and once ran into its timeout leaves no trace in
Neo4j Community (the query log is an Enterprise feature); this says whether it was blocked by
another transaction (and which statement that one ran), planning, or working.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

import neo4j

from scholargraph.graph.config import Settings

# Administration commands are not named queries: they run only here, in the tests' own watch.
SHOW_LONG = """
SHOW TRANSACTIONS
YIELD transactionId, currentQuery, status, elapsedTime, cpuTime, waitTime, activeLockCount,
      currentQueryStatus, statusDetails, resourceInformation
WHERE elapsedTime.milliseconds >= $threshold_ms AND NOT currentQuery STARTS WITH 'SHOW '
RETURN transactionId, currentQuery, status, elapsedTime.milliseconds AS elapsed_ms,
       cpuTime.milliseconds AS cpu_ms, waitTime.milliseconds AS wait_ms, activeLockCount AS locks,
       currentQueryStatus AS query_status, statusDetails AS details,
       resourceInformation AS resources
"""


@dataclass
class TransactionWatch:
    """Polls ``SHOW TRANSACTIONS`` from a thread of its own until :meth:`stop`."""

    settings: Settings
    threshold_s: float = 60.0
    every_s: float = 15.0
    seen: dict[str, dict[str, Any]] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="transaction-watch", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=self.every_s + 10)

    def report(self) -> list[str]:
        """One line per long transaction, at the longest it was seen."""
        lines = []
        for tx_id, row in sorted(self.seen.items()):
            query = " ".join(str(row["currentQuery"]).split())[:300]
            lines.append(
                f"{tx_id}: {row['elapsed_ms'] / 1000:.0f} s (cpu {row['cpu_ms']} ms, "
                f"waiting {row['wait_ms']} ms, {row['locks']} locks), {row['status']} "
                f"{row['resources'] or ''} / {row['query_status']} {row['details'] or ''}: {query}"
            )
        if self.failures:
            lines.append(f"{len(self.failures)} polls failed, the last: {self.failures[-1]}")
        return lines

    def _run(self) -> None:
        with neo4j.GraphDatabase.driver(
            self.settings.uri, auth=self.settings.auth, notifications_min_severity="OFF"
        ) as driver:
            while not self._stop.wait(self.every_s):
                try:
                    self._poll(driver)
                except (neo4j.exceptions.Neo4jError, neo4j.exceptions.DriverError, OSError) as e:
                    # the watch never fails a test; a missed poll is a gap it reports
                    self.failures.append(f"{type(e).__name__}: {e}")

    def _poll(self, driver: neo4j.Driver) -> None:
        records, _, _ = driver.execute_query(
            SHOW_LONG,
            threshold_ms=int(self.threshold_s * 1000),
            database_=self.settings.neo4j_database,
        )
        for record in records:
            row = record.data()
            tx_id = str(row["transactionId"])
            if row["elapsed_ms"] >= self.seen.get(tx_id, {}).get("elapsed_ms", -1):
                self.seen[tx_id] = row
