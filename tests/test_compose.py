"""There is no Docker engine here, so the compose file's wiring is checked as data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return data


def test_neo4j_is_5_26_community_with_a_volume_and_a_health_check() -> None:
    neo4j = _compose()["services"]["neo4j"]
    assert neo4j["image"].startswith("neo4j:5.26") and "community" in neo4j["image"]
    assert any(v.startswith("neo4j-data:/data") for v in neo4j["volumes"])
    assert "neo4j-data" in _compose()["volumes"]
    assert "cypher-shell" in " ".join(neo4j["healthcheck"]["test"])
    assert "127.0.0.1:7687:7687" in neo4j["ports"]


def test_app_is_built_and_wired_to_neo4j_by_uri() -> None:
    services = _compose()["services"]
    app = services["app"]
    assert app["build"] == "."
    assert (ROOT / "Dockerfile").is_file()
    assert app["environment"]["NEO4J_URI"] == "bolt://neo4j:7687"
    assert app["depends_on"]["neo4j"]["condition"] == "service_healthy"
    assert "127.0.0.1:8000:8000" in app["ports"]
    # the password the app uses is the one Neo4j is given
    neo4j_auth = services["neo4j"]["environment"]["NEO4J_AUTH"]
    assert neo4j_auth == "neo4j/" + app["environment"]["NEO4J_PASSWORD"]


def test_dockerfile_serves_what_compose_exposes() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert "EXPOSE 8000" in text
    assert "scholargraph serve --host 0.0.0.0 --port 8000" in text
    # the page is bundled in a Node stage and lands in the wheel the image installs
    assert "FROM node:20" in text
    assert "npm run build:web" in text
    assert "COPY --from=web /src/api/web/dist ./api/web/dist" in text
    assert "pip wheel" in text


def test_app_state_lives_in_a_volume_at_its_home() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert "SCHOLARGRAPH_HOME=/var/lib/scholargraph" in text
    app = _compose()["services"]["app"]
    assert "app-home:/var/lib/scholargraph" in app["volumes"]
    assert "app-home" in _compose()["volumes"]


def test_the_build_context_leaves_local_state_out() -> None:
    ignored = (ROOT / ".dockerignore").read_text().split()
    for entry in (".venv", ".neo4j", ".scholargraph", "node_modules", ".git", "api/web/dist"):
        assert entry in ignored
