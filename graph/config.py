"""Settings, read once: the environment first, then a ``.env`` file, then defaults.

Every setting has an environment variable of the same name in upper case. ``NEO4J_URI`` set
means "use that server" (docker compose, Aura, a cluster); unset means the local server that
``scholargraph neo4j start`` runs from Maven Central jars.

Runtime state lives in one home, never inside the installed package: ``SCHOLARGRAPH_HOME`` when
set; else ``.scholargraph/`` in the source checkout the package runs from; else the platform's
user data folder (and its user cache folder for the source cache). The home holds::

    neo4j/          the local server's jars, and neo4j/data its store
    cache/sources/  the source clients' response cache (the user cache folder when defaulted)
    loads/          load checkpoints and rejection reports
    demo/           the generated demo corpus
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

import platformdirs

from scholargraph.graph.errors import ConfigError
from scholargraph.graph.memory import parse_size

APP_NAME = "scholargraph"
LogFormat = Literal["json", "text"]
_ORIGIN = re.compile(r"https?://[^\s/?#@]+(:\d{1,5})?", re.IGNORECASE)
# OAI-PMH 2.0 setSpec: unreserved characters, parts joined by colons
SET_SPEC = re.compile(r"[A-Za-z0-9\-_.!~*'()]+(?::[A-Za-z0-9\-_.!~*'()]+)*")
# Where each source client sends its requests unless the environment names a mirror or proxy
# (the clients' own defaults, which a test keeps equal).
SOURCE_URLS: dict[str, str] = {
    "SCHOLARGRAPH_ARXIV_API_URL": "https://export.arxiv.org/api/query",
    "SCHOLARGRAPH_ARXIV_OAI_URL": "https://oaipmh.arxiv.org/oai",
    "SCHOLARGRAPH_S2_API_URL": "https://api.semanticscholar.org/graph/v1",
    "SCHOLARGRAPH_OPENALEX_API_URL": "https://api.openalex.org",
    "SCHOLARGRAPH_ORCID_API_URL": "https://pub.orcid.org/v3.0",
    "SCHOLARGRAPH_ROR_API_URL": "https://api.ror.org/v2",
}


class Secret:
    """A string that never shows in a repr, a log line or a traceback."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def __repr__(self) -> str:
        return "Secret('**********')"

    __str__ = __repr__

    def reveal(self) -> str:
        return self._value

    def __bool__(self) -> bool:
        return bool(self._value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)


def checkout_root() -> Path | None:
    """The source checkout this package runs from, or None for an installed package."""
    root = Path(__file__).resolve().parents[1]
    if (root / "pyproject.toml").is_file() and (root / "scholargraph" / "__init__.py").is_file():
        return root
    return None


def default_home(env: Mapping[str, str]) -> Path:
    value = env.get("SCHOLARGRAPH_HOME")
    if value:
        return Path(value).expanduser()
    root = checkout_root()
    if root is not None:
        return root / ".scholargraph"
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def default_cache_dir(env: Mapping[str, str], home: Path) -> Path:
    if env.get("SCHOLARGRAPH_HOME") or checkout_root() is not None:
        return home / "cache" / "sources"
    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False)) / "sources"


def read_env_file(path: Path) -> dict[str, str]:
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        key, sep, value = text.removeprefix("export ").partition("=")
        if not sep:
            raise ConfigError(f"{path}:{lineno}: expected KEY=value, got {text!r}")
        values[key.strip()] = value.strip().strip("'\"")
    return values


@dataclass(frozen=True, slots=True)
class Settings:
    neo4j_uri: str | None = None
    neo4j_user: str = "neo4j"
    neo4j_password: Secret = field(default_factory=lambda: Secret("scholargraph"))
    neo4j_database: str = "neo4j"
    neo4j_auth: bool = True
    home: Path = field(default_factory=lambda: default_home(os.environ))
    neo4j_home: Path = field(default_factory=lambda: default_home(os.environ) / "neo4j")
    neo4j_data_dir: Path = field(
        default_factory=lambda: default_home(os.environ) / "neo4j" / "data"
    )
    neo4j_bolt_port: int = 7687
    # None: planned from the machine's memory when the server starts (graph/memory.py)
    neo4j_heap: str | None = None
    neo4j_pagecache: str | None = None
    neo4j_start_timeout: float = 120.0
    query_timeout: float = 30.0
    neo4j_connect_timeout: float = 2.0
    request_budget_s: float = 10.0
    header_timeout_s: float = 10.0
    body_timeout_s: float = 10.0
    coauthor_cap: int = 100
    network_projection: bool = True
    projection_quiet_s: float = 5.0
    # where the workers of ``scholargraph serve`` share the projection (the server sets it)
    projection_dir: Path | None = None
    workers: int = field(default_factory=lambda: usable_cores())
    max_body_bytes: int = 1 << 20
    log_format: LogFormat = "text"
    cors_origins: tuple[str, ...] = ()
    sync_sets: tuple[str, ...] = ()  # OAI-PMH sets of `scholargraph sync`; () the whole archive
    persisted_queries: int = 1000
    metrics: bool = True
    cache_dir: Path = field(
        default_factory=lambda: default_cache_dir(os.environ, default_home(os.environ))
    )
    s2_api_key: Secret | None = None
    openalex_api_key: Secret | None = None
    ror_client_id: Secret | None = None
    curator_token: Secret | None = None
    arxiv_api_url: str = SOURCE_URLS["SCHOLARGRAPH_ARXIV_API_URL"]
    arxiv_oai_url: str = SOURCE_URLS["SCHOLARGRAPH_ARXIV_OAI_URL"]
    s2_api_url: str = SOURCE_URLS["SCHOLARGRAPH_S2_API_URL"]
    openalex_api_url: str = SOURCE_URLS["SCHOLARGRAPH_OPENALEX_API_URL"]
    orcid_api_url: str = SOURCE_URLS["SCHOLARGRAPH_ORCID_API_URL"]
    ror_api_url: str = SOURCE_URLS["SCHOLARGRAPH_ROR_API_URL"]

    @property
    def local(self) -> bool:
        """True when scholargraph runs its own Neo4j rather than a configured ``NEO4J_URI``."""
        return not self.neo4j_uri

    @property
    def loads_dir(self) -> Path:
        """Load checkpoints and rejection reports."""
        return self.home / "loads"

    @property
    def demo_dir(self) -> Path:
        return self.home / "demo"

    @property
    def local_uri(self) -> str:
        return f"bolt://127.0.0.1:{self.neo4j_bolt_port}"

    @property
    def uri(self) -> str:
        return self.neo4j_uri or self.local_uri

    @property
    def auth(self) -> tuple[str, str] | None:
        if not self.neo4j_auth:
            return None
        return (self.neo4j_user, self.neo4j_password.reveal())

    def with_overrides(self, **changes: object) -> Settings:
        return replace(self, **changes)  # type: ignore[arg-type]

    @classmethod
    def load(
        cls, environ: Mapping[str, str] | None = None, env_file: Path | None = None
    ) -> Settings:
        env = dict(read_env_file(env_file or Path.cwd() / ".env"))
        env.update(os.environ if environ is None else environ)
        return cls.from_mapping(env)

    @classmethod
    def from_mapping(cls, env: Mapping[str, str]) -> Settings:
        defaults = cls()
        home = default_home(env)
        neo4j_home = _path(env, "SCHOLARGRAPH_NEO4J_HOME", home / "neo4j")
        return cls(
            neo4j_uri=env.get("NEO4J_URI") or None,
            neo4j_user=env.get("NEO4J_USER", defaults.neo4j_user),
            neo4j_password=Secret(env.get("NEO4J_PASSWORD", defaults.neo4j_password.reveal())),
            neo4j_database=env.get("NEO4J_DATABASE", defaults.neo4j_database),
            neo4j_auth=_bool(env, "SCHOLARGRAPH_NEO4J_AUTH", defaults.neo4j_auth),
            home=home,
            neo4j_home=neo4j_home,
            neo4j_data_dir=_path(env, "SCHOLARGRAPH_NEO4J_DATA_DIR", neo4j_home / "data"),
            neo4j_bolt_port=_int(env, "SCHOLARGRAPH_BOLT_PORT", defaults.neo4j_bolt_port),
            neo4j_heap=_size(env, "SCHOLARGRAPH_NEO4J_HEAP"),
            neo4j_pagecache=_size(env, "SCHOLARGRAPH_NEO4J_PAGECACHE"),
            neo4j_start_timeout=_float(
                env, "SCHOLARGRAPH_NEO4J_START_TIMEOUT", defaults.neo4j_start_timeout
            ),
            query_timeout=_float(env, "SCHOLARGRAPH_QUERY_TIMEOUT", defaults.query_timeout),
            neo4j_connect_timeout=_float(
                env, "SCHOLARGRAPH_NEO4J_CONNECT_TIMEOUT", defaults.neo4j_connect_timeout
            ),
            request_budget_s=_float(
                env, "SCHOLARGRAPH_REQUEST_BUDGET_S", defaults.request_budget_s
            ),
            header_timeout_s=_float(
                env, "SCHOLARGRAPH_HEADER_TIMEOUT_S", defaults.header_timeout_s
            ),
            body_timeout_s=_float(env, "SCHOLARGRAPH_BODY_TIMEOUT_S", defaults.body_timeout_s),
            coauthor_cap=_int(env, "SCHOLARGRAPH_COAUTHOR_CAP", defaults.coauthor_cap),
            network_projection=_bool(
                env, "SCHOLARGRAPH_NETWORK_PROJECTION", defaults.network_projection
            ),
            projection_quiet_s=_float(
                env, "SCHOLARGRAPH_PROJECTION_QUIET_S", defaults.projection_quiet_s
            ),
            projection_dir=(
                Path(env["SCHOLARGRAPH_PROJECTION_DIR"])
                if env.get("SCHOLARGRAPH_PROJECTION_DIR")
                else None
            ),
            workers=_int(env, "SCHOLARGRAPH_WORKERS", defaults.workers, minimum=1),
            max_body_bytes=_int(env, "SCHOLARGRAPH_MAX_BODY_BYTES", defaults.max_body_bytes),
            log_format=_log_format(env, "SCHOLARGRAPH_LOG_FORMAT", defaults.log_format),
            cors_origins=_origins(env, "SCHOLARGRAPH_CORS_ORIGINS"),
            sync_sets=_sets(env, "SCHOLARGRAPH_SYNC_SETS"),
            persisted_queries=_int(
                env, "SCHOLARGRAPH_PERSISTED_QUERIES", defaults.persisted_queries, minimum=0
            ),
            metrics=_bool(env, "SCHOLARGRAPH_METRICS", defaults.metrics),
            cache_dir=_path(env, "SCHOLARGRAPH_CACHE_DIR", default_cache_dir(env, home)),
            s2_api_key=_secret(env, "S2_API_KEY"),
            openalex_api_key=_secret(env, "OPENALEX_API_KEY"),
            ror_client_id=_secret(env, "ROR_CLIENT_ID"),
            curator_token=_secret(env, "SCHOLARGRAPH_CURATOR_TOKEN"),
            arxiv_api_url=_url(env, "SCHOLARGRAPH_ARXIV_API_URL"),
            arxiv_oai_url=_url(env, "SCHOLARGRAPH_ARXIV_OAI_URL"),
            s2_api_url=_url(env, "SCHOLARGRAPH_S2_API_URL"),
            openalex_api_url=_url(env, "SCHOLARGRAPH_OPENALEX_API_URL"),
            orcid_api_url=_url(env, "SCHOLARGRAPH_ORCID_API_URL"),
            ror_api_url=_url(env, "SCHOLARGRAPH_ROR_API_URL"),
        )


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _secret(env: Mapping[str, str], key: str) -> Secret | None:
    value = env.get(key)
    return Secret(value) if value else None


def _size(env: Mapping[str, str], key: str) -> str | None:
    value = env.get(key, "").strip()
    if not value:
        return None
    try:
        parse_size(value)
    except ConfigError as error:
        raise ConfigError(f"{key}: {error}") from None
    return value


def _path(env: Mapping[str, str], key: str, default: Path) -> Path:
    value = env.get(key)
    return Path(value).expanduser() if value else default


def _url(env: Mapping[str, str], key: str) -> str:
    """A source's base URL: http or https with a host; a path prefix (a mirror's
    ``/mirror/openalex``) is kept as given."""
    default = SOURCE_URLS[key]
    value = env.get(key, "").strip()
    if not value:
        return default
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - raises on a port that is not a number or out of range
    except ValueError as error:
        raise ConfigError(f"{key}={value!r} is not a URL ({error}); e.g. {default}") from None
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        raise ConfigError(f"{key}={value!r} must be an http:// or https:// URL, e.g. {default}")
    if parts.query or parts.fragment:
        raise ConfigError(f"{key}={value!r} must not carry a query or fragment; e.g. {default}")
    return value


def _int(env: Mapping[str, str], key: str, default: int, *, minimum: int | None = None) -> int:
    value = env.get(key)
    if value is None or value == "":
        return default
    try:
        number = int(value)
    except ValueError:
        raise ConfigError(f"{key}={value!r} must be a whole number") from None
    if minimum is not None and number < minimum:
        raise ConfigError(f"{key}={value!r} must be at least {minimum}")
    return number


def _log_format(env: Mapping[str, str], key: str, default: LogFormat) -> LogFormat:
    value = env.get(key, "").strip().lower()
    if not value:
        return default
    if value == "json":
        return "json"
    if value == "text":
        return "text"
    raise ConfigError(f"{key}={env[key]!r} must be json or text")


def _origins(env: Mapping[str, str], key: str) -> tuple[str, ...]:
    """Origins as browsers send them (``scheme://host[:port]``, no path), or ``*``."""
    origins = []
    for item in env.get(key, "").split(","):
        origin = item.strip().rstrip("/").lower()
        if not origin:
            continue
        if origin != "*" and not _ORIGIN.fullmatch(origin):
            raise ConfigError(
                f"{key}: {item.strip()!r} is not an origin; write scheme://host[:port] with no "
                f"path, e.g. https://explorer.example.org, or * for any origin"
            )
        origins.append(origin)
    return tuple(origins)


def check_set_spec(text: str, where: str = "an OAI-PMH set") -> str:
    """An OAI-PMH ``setSpec`` (``cs``, ``physics:hep-th``), or :class:`ConfigError`."""
    spec = text.strip()
    if not SET_SPEC.fullmatch(spec):
        raise ConfigError(
            f"{where}: {text!r} is not an OAI-PMH set; write e.g. cs, math or physics:hep-th"
        )
    return spec


def _sets(env: Mapping[str, str], key: str) -> tuple[str, ...]:
    items = [item for item in env.get(key, "").replace(",", " ").split() if item]
    return tuple(dict.fromkeys(check_set_spec(item, key) for item in items))


def _float(env: Mapping[str, str], key: str, default: float) -> float:
    value = env.get(key)
    if value is None or value == "":
        return default
    try:
        return float(value)
    except ValueError:
        raise ConfigError(f"{key}={value!r} must be a number") from None


def _bool(env: Mapping[str, str], key: str, default: bool) -> bool:
    value = env.get(key)
    if value is None or value == "":
        return default
    low = value.strip().lower()
    if low in {"1", "true", "yes", "on"}:
        return True
    if low in {"0", "false", "no", "off", "none"}:
        return False
    raise ConfigError(f"{key}={value!r} must be true or false")
