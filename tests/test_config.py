from __future__ import annotations

from pathlib import Path

import pytest

from scholargraph.graph import config
from scholargraph.graph.config import Secret, Settings, read_env_file
from scholargraph.graph.errors import ConfigError


def test_environment_wins_over_env_file(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("# comment\nNEO4J_USER=from-file\nexport SCHOLARGRAPH_BOLT_PORT='7999'\n")
    settings = Settings.load({"NEO4J_USER": "from-env"}, env_file)
    assert settings.neo4j_user == "from-env"
    assert settings.neo4j_bolt_port == 7999
    assert settings.local and settings.uri == "bolt://127.0.0.1:7999"


def test_neo4j_uri_means_remote() -> None:
    settings = Settings.from_mapping({"NEO4J_URI": "neo4j://cluster.example:7687"})
    assert not settings.local
    assert settings.uri == "neo4j://cluster.example:7687"


def test_secrets_never_show() -> None:
    settings = Settings.from_mapping({"NEO4J_PASSWORD": "hunter22", "S2_API_KEY": "k-123"})
    text = repr(settings)
    assert "hunter22" not in text and "k-123" not in text
    assert settings.neo4j_password.reveal() == "hunter22"
    assert settings.auth == ("neo4j", "hunter22")
    assert Secret("a") == Secret("a") and Secret("a") != Secret("b")


def test_auth_can_be_switched_off() -> None:
    assert Settings.from_mapping({"SCHOLARGRAPH_NEO4J_AUTH": "false"}).auth is None


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("SCHOLARGRAPH_BOLT_PORT", "seven", "whole number"),
        ("SCHOLARGRAPH_QUERY_TIMEOUT", "soon", "must be a number"),
        ("SCHOLARGRAPH_NEO4J_AUTH", "maybe", "true or false"),
    ],
)
def test_malformed_settings_say_what_to_fix(key: str, value: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Settings.from_mapping({key: value})


def test_env_file_syntax_error_names_the_line(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("GOOD=1\nthis line has no equals sign\n")
    with pytest.raises(ConfigError, match=r"\.env:2"):
        read_env_file(env_file)


def test_home_holds_all_runtime_state(tmp_path: Path) -> None:
    settings = Settings.from_mapping({"SCHOLARGRAPH_HOME": str(tmp_path)})
    assert settings.home == tmp_path
    assert settings.neo4j_home == tmp_path / "neo4j"
    assert settings.neo4j_data_dir == tmp_path / "neo4j" / "data"
    assert settings.cache_dir == tmp_path / "cache" / "sources"
    assert settings.loads_dir == tmp_path / "loads"
    assert settings.demo_dir == tmp_path / "demo"


def test_a_checkout_keeps_its_state_in_the_checkout() -> None:
    root = config.checkout_root()
    assert root is not None
    settings = Settings.from_mapping({})
    assert settings.home == root / ".scholargraph"


def test_an_installed_package_uses_the_platform_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(config, "checkout_root", lambda: None)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    settings = Settings.from_mapping({})
    assert settings.home == tmp_path / "data" / "scholargraph"
    assert settings.neo4j_data_dir == tmp_path / "data" / "scholargraph" / "neo4j" / "data"
    assert settings.cache_dir == tmp_path / "cache" / "scholargraph" / "sources"


def test_explicit_folders_win_over_the_home(tmp_path: Path) -> None:
    settings = Settings.from_mapping(
        {
            "SCHOLARGRAPH_HOME": str(tmp_path / "home"),
            "SCHOLARGRAPH_CACHE_DIR": str(tmp_path / "c"),
            "SCHOLARGRAPH_NEO4J_DATA_DIR": str(tmp_path / "d"),
        }
    )
    assert settings.cache_dir == tmp_path / "c"
    assert settings.neo4j_data_dir == tmp_path / "d"
    assert settings.neo4j_home == tmp_path / "home" / "neo4j"
