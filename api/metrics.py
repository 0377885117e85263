"""``/metrics``: the server's counters in the Prometheus text format, on a registry of its own
per app (two apps in one process count apart).

Requests and their latency by route (the route's template, ``/researchers/{ref}``; ``other``
for an address no route has) and, for ``/graphql``, by operation (the ``operationName``, else
the name of the document's only operation; ``anonymous`` for an unnamed one, ``invalid`` for
an ``operationName`` that is not a GraphQL name, ``persisted`` for a hash not known yet); Neo4j
statements and their latency by named query; automatic persisted queries; the coauthor
projection (its state, size and reads); and the loads of the same home in progress or
interrupted, as their checkpoints tell (the API process runs no load itself, so what it knows
of one is the chunks its checkpoint lists as done, not how many remain).

Operation names come from clients: past :data:`MAX_OPERATIONS` distinct ones, and for any that
is not a GraphQL name, the label is ``other``, so a client cannot grow the series without end.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import generate_latest
from prometheus_client.registry import Collector
from starlette.requests import Request
from starlette.responses import Response

from scholargraph.graph.loaders.pipeline import Checkpoint
from scholargraph.graph.repo.projection import CoauthorIndex

MAX_OPERATIONS = 200
OTHER = "other"
CHECKPOINT_SUFFIX = ".checkpoint.json"
OPERATION_NAME = re.compile(r"[_A-Za-z][_0-9A-Za-z]{0,99}")
# Neo4j statements run from under a millisecond (a lookup by key) to the query timeout.
STATEMENT_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
REQUEST_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)


class Metrics:
    def __init__(self, loads_dir: Path | None = None) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self._operations: set[str] = set()
        registry = self.registry
        self.requests = Counter(
            "scholargraph_http_requests",
            "HTTP requests answered, by route template, method and status.",
            ["route", "method", "status"],
            registry=registry,
        )
        self.request_seconds = Histogram(
            "scholargraph_http_request_duration_seconds",
            "Seconds from a request's head to the end of its response, by route and method.",
            ["route", "method"],
            buckets=REQUEST_BUCKETS,
            registry=registry,
        )
        self.operations = Counter(
            "scholargraph_graphql_operations",
            "GraphQL operations, by operation name, type and outcome (ok: no errors; "
            "errors: data with errors; refused: not executed).",
            ["operation", "type", "outcome"],
            registry=registry,
        )
        self.operation_seconds = Histogram(
            "scholargraph_graphql_operation_duration_seconds",
            "Seconds to run a GraphQL operation (parse, validate, execute), by operation name.",
            ["operation"],
            buckets=REQUEST_BUCKETS,
            registry=registry,
        )
        self.statements = Counter(
            "scholargraph_neo4j_statements",
            "Neo4j statements run, by named query and outcome (ok or error).",
            ["query", "outcome"],
            registry=registry,
        )
        self.statement_seconds = Histogram(
            "scholargraph_neo4j_statement_duration_seconds",
            "Seconds a Neo4j statement took, rows read included, by named query.",
            ["query"],
            buckets=STATEMENT_BUCKETS,
            registry=registry,
        )
        self.round_trips = Histogram(
            "scholargraph_neo4j_round_trip_duration_seconds",
            "Seconds of each statement sent to Neo4j, rows read included: a composed statement "
            "once, however many named queries it carries (each of those is also counted under "
            "its own name with the whole statement's seconds).",
            buckets=STATEMENT_BUCKETS,
            registry=registry,
        )
        self.persisted = Counter(
            "scholargraph_persisted_query_requests",
            "Requests with an automatic persisted query, by outcome (hit, miss, registered, "
            "mismatch).",
            ["outcome"],
            registry=registry,
        )
        self.persisted_stored = Gauge(
            "scholargraph_persisted_queries",
            "Documents in the automatic persisted query store.",
            registry=registry,
        )
        self.projection = ProjectionCollector()
        registry.register(self.projection)
        if loads_dir is not None:
            registry.register(LoadCollector(loads_dir))

    def statement(self, queries: tuple[str, ...], seconds: float, failed: bool) -> None:
        """The observer :class:`graph.db.Database` tells of each statement."""
        for query in queries:
            self.statements.labels(query, "error" if failed else "ok").inc()
            self.statement_seconds.labels(query).observe(seconds)
        self.round_trips.observe(seconds)

    def operation_label(self, name: str | None) -> str:
        if name is None:
            return "anonymous"
        if name in self._operations:
            return name
        if not OPERATION_NAME.fullmatch(name) or len(self._operations) >= MAX_OPERATIONS:
            return OTHER
        self._operations.add(name)
        return name

    def operation(self, label: str, kind: str, outcome: str, seconds: float) -> None:
        self.operations.labels(label, kind, outcome).inc()
        self.operation_seconds.labels(label).observe(seconds)

    def request(self, route: str, method: str, status: int, seconds: float) -> None:
        self.requests.labels(route, method, str(status)).inc()
        self.request_seconds.labels(route, method).observe(seconds)

    def exposition(self) -> bytes:
        return generate_latest(self.registry)


async def metrics_endpoint(request: Request) -> Response:
    metrics: Metrics = request.app.state.metrics
    return Response(metrics.exposition(), media_type=CONTENT_TYPE_LATEST)


class ProjectionCollector(Collector):
    """The coauthor projection of :class:`graph.repo.projection.CoauthorIndex`, read at each
    scrape; nothing until the server has started one."""

    def __init__(self) -> None:
        self.index: CoauthorIndex | None = None

    def collect(self) -> Iterator[Metric]:
        index = self.index
        if index is None:
            return
        state = GaugeMetricFamily(
            "scholargraph_projection_state",
            "The coauthor projection's state: 1 for the one it is in (off, building: read or "
            "waiting for the graph to be quiet after a change, ready).",
            labels=["state"],
        )
        for name in ("off", "building", "ready"):
            state.add_metric([name], 1.0 if index.state == name else 0.0)
        yield state
        projection = index.projection
        yield GaugeMetricFamily(
            "scholargraph_projection_researchers",
            "Researchers in the ready coauthor projection (0 when none is ready).",
            value=len(projection.ids) if projection is not None else 0,
        )
        yield GaugeMetricFamily(
            "scholargraph_projection_ties",
            "COAUTHOR ties in the ready coauthor projection (0 when none is ready).",
            value=projection.tie_count if projection is not None else 0,
        )
        yield CounterMetricFamily(
            "scholargraph_projection_reads",
            "Coauthor projections read from the graph since the server started.",
            value=index.reads,
        )
        if index.read_at is not None:
            yield GaugeMetricFamily(
                "scholargraph_projection_read_timestamp_seconds",
                "When the last coauthor projection was read (Unix time).",
                value=index.read_at,
            )


class LoadCollector(Collector):
    """Loads in progress or interrupted on this home, from their checkpoints (``scholargraph
    load`` writes one after every chunk, and deletes it when the load is done)."""

    def __init__(self, loads_dir: Path) -> None:
        self.loads_dir = loads_dir

    def collect(self) -> Iterator[Metric]:
        chunks = GaugeMetricFamily(
            "scholargraph_load_chunks_done",
            "Chunks a load in progress or interrupted has written, by load (its checkpoint).",
            labels=["load"],
        )
        updated = GaugeMetricFamily(
            "scholargraph_load_checkpoint_timestamp_seconds",
            "When a load's checkpoint was last written (Unix time), by load.",
            labels=["load"],
        )
        for path in sorted(self._checkpoints()):
            try:
                written = path.stat().st_mtime
            except OSError:  # finished (and deleted) since it was listed
                continue
            load = path.name.removesuffix(CHECKPOINT_SUFFIX)
            chunks.add_metric([load], len(Checkpoint(path).done))
            updated.add_metric([load], written)
        yield chunks
        yield updated

    def _checkpoints(self) -> list[Path]:
        try:
            return list(self.loads_dir.glob(f"*{CHECKPOINT_SUFFIX}"))
        except OSError:
            return []
