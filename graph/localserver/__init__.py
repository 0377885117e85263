"""The local Neo4j Community server, from Maven Central jars, run by the project's launcher."""

from scholargraph.graph.localserver.jars import install, is_installed
from scholargraph.graph.localserver.process import (
    ServerInfo,
    ServerStatus,
    free_port,
    port_is_free,
    read_state,
    start,
    status,
    stop,
)

__all__ = [
    "ServerInfo",
    "ServerStatus",
    "free_port",
    "install",
    "is_installed",
    "port_is_free",
    "read_state",
    "start",
    "status",
    "stop",
]
