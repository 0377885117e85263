from __future__ import annotations

import httpx

from scholargraph.api.app import create_app
from scholargraph.graph.config import Settings


async def _get(settings: Settings, path: str) -> httpx.Response:
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await client.get(path)


async def test_healthz_answers_without_the_database() -> None:
    unreachable = Settings.from_mapping({"NEO4J_URI": "bolt://127.0.0.1:9"})
    response = await _get(unreachable, "/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


async def test_readyz_checks_neo4j(schema_ready: Settings) -> None:
    response = await _get(schema_ready, "/readyz")
    assert response.status_code == 200
    assert response.json()["status"] == "ready"


async def test_readyz_says_unavailable_when_neo4j_is_down() -> None:
    unreachable = Settings.from_mapping({"NEO4J_URI": "bolt://127.0.0.1:9"})
    response = await _get(unreachable, "/readyz")
    assert response.status_code == 503
    assert "not reachable" in response.json()["neo4j"]
