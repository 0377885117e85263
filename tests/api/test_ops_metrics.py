"""``/metrics`` scraped through the app and read with the Prometheus client's own parser."""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families

from scholargraph.api.app import create_app
from scholargraph.graph.config import Settings
from scholargraph.graph.loaders.pipeline import Checkpoint
from scholargraph.graph.repo.projection import CoauthorIndex
from tests.api.conftest import Api
from tests.api.graphdata import YOU

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def parse(text: str) -> Samples:
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return samples


async def scrape(http: httpx.AsyncClient) -> Samples:
    response = await http.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    return parse(response.text)


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def moved(before: Samples, after: Samples, name: str, **labels: str) -> float:
    return value(after, name, **labels) - value(before, name, **labels)


async def test_requests_operations_and_statements_are_counted(api: Api) -> None:
    before = await scrape(api.http)
    api.statements.clear()
    query = (
        f'query Someone {{ researcher(id: "{YOU}") {{ name papers(first: 2) {{ totalCount }} }} }}'
    )
    for _ in range(2):
        await api.data(query)
    ran = Counter(name for name in api.statements if not name.startswith("read_network.projection"))
    await api.errors("{ nosuchfield }")
    await api.data("{ __typename }")
    assert (await api.http.get("/healthz")).status_code == 200
    after = await scrape(api.http)

    ops = "scholargraph_graphql_operations_total"
    assert moved(before, after, ops, operation="Someone", type="query", outcome="ok") == 2
    assert moved(before, after, ops, operation="anonymous", type="unknown", outcome="refused") == 1
    assert moved(before, after, ops, operation="anonymous", type="query", outcome="ok") == 1
    latency = "scholargraph_graphql_operation_duration_seconds"
    assert moved(before, after, f"{latency}_count", operation="Someone") == 2
    assert moved(before, after, f"{latency}_sum", operation="Someone") > 0
    assert moved(before, after, f"{latency}_bucket", operation="Someone", le="+Inf") == 2

    http = "scholargraph_http_requests_total"
    graphql = moved(before, after, http, route="/graphql", method="POST", status="200")
    assert graphql == 3
    assert moved(before, after, http, route="/graphql", method="POST", status="400") == 1
    assert moved(before, after, http, route="/healthz", method="GET", status="200") == 1
    # the scrape before was counted once it had been answered
    assert moved(before, after, http, route="/metrics", method="GET", status="200") == 1
    assert (
        moved(
            before,
            after,
            "scholargraph_http_request_duration_seconds_count",
            route="/graphql",
            method="POST",
        )
        == 4
    )

    assert ran, "the researcher query ran no statement"
    for name, times in ran.items():
        statements = moved(
            before, after, "scholargraph_neo4j_statements_total", query=name, outcome="ok"
        )
        assert statements >= times, name
        timed = moved(
            before, after, "scholargraph_neo4j_statement_duration_seconds_count", query=name
        )
        assert timed >= times, name
    # a composed statement is one round trip, however many named queries it carries
    named = sum(
        after[key] - before.get(key, 0.0)
        for key in after
        if key[0] == "scholargraph_neo4j_statements_total"
    )
    trips = moved(before, after, "scholargraph_neo4j_round_trip_duration_seconds_count")
    assert 1 <= trips <= named


async def test_projection_state_and_size(api: Api) -> None:
    samples = await scrape(api.http)
    index: CoauthorIndex = api.app.state.projections
    assert index.projection is not None
    assert value(samples, "scholargraph_projection_state", state="ready") == 1
    assert value(samples, "scholargraph_projection_state", state="building") == 0
    assert value(samples, "scholargraph_projection_ties") == index.projection.tie_count > 0
    assert value(samples, "scholargraph_projection_researchers") == len(index.projection.ids)
    assert value(samples, "scholargraph_projection_reads_total") >= 1
    assert value(samples, "scholargraph_projection_read_timestamp_seconds") == index.read_at


async def test_a_dropped_projection_is_building_until_read_again(api: Api) -> None:
    index: CoauthorIndex = api.app.state.projections
    assert index.projection is not None
    reads, ties = index.reads, index.projection.tie_count
    # what a network read does when it sees a newer graph than the projection's
    index.changed(index.projection)
    # scraped before the event loop runs the new read
    samples = parse(api.app.state.metrics.exposition().decode())
    assert value(samples, "scholargraph_projection_state", state="building") == 1
    assert value(samples, "scholargraph_projection_state", state="ready") == 0
    assert value(samples, "scholargraph_projection_ties") == 0
    assert await index.wait_ready(30)
    samples = await scrape(api.http)
    assert value(samples, "scholargraph_projection_state", state="ready") == 1
    assert value(samples, "scholargraph_projection_reads_total") == reads + 1
    assert value(samples, "scholargraph_projection_ties") == ties


@asynccontextmanager
async def client(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            yield http


async def test_loads_in_progress_from_their_checkpoints(
    schema_ready: Settings, tmp_path: Path
) -> None:
    settings = schema_ready.with_overrides(home=tmp_path, network_projection=False)
    checkpoint = Checkpoint(settings.loads_dir / "openalex-abc123.checkpoint.json")
    async with client(settings) as http:
        samples = await scrape(http)
        assert not [key for key in samples if key[0] == "scholargraph_load_chunks_done"]
        for chunk in ("works-0001", "works-0002", "works-0003"):
            checkpoint.mark(chunk)
        samples = await scrape(http)
        load = {"load": "openalex-abc123"}
        assert value(samples, "scholargraph_load_chunks_done", **load) == 3
        assert checkpoint.path is not None
        written = checkpoint.path.stat().st_mtime
        assert value(samples, "scholargraph_load_checkpoint_timestamp_seconds", **load) == written
        # this app's registry is its own: another app's requests are not in it
        assert (
            value(
                samples,
                "scholargraph_http_requests_total",
                route="/graphql",
                method="POST",
                status="200",
            )
            == 0
        )
        checkpoint.clear()
        samples = await scrape(http)
        assert value(samples, "scholargraph_load_chunks_done", **load) == 0


async def test_metrics_can_be_turned_off(schema_ready: Settings) -> None:
    settings = schema_ready.with_overrides(metrics=False, network_projection=False)
    async with client(settings) as http:
        response = await http.get("/metrics")
        assert response.status_code == 404
        assert "scholargraph_" not in response.text


def test_metrics_setting() -> None:
    assert Settings.from_mapping({}).metrics is True
    assert Settings.from_mapping({"SCHOLARGRAPH_METRICS": "off"}).metrics is False
