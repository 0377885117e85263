"""The package as a user installs it: a wheel built from a fresh clone, installed into a new
virtual environment in another folder, run from there with nothing written into the install.

The new environment takes its dependencies from this one's ``site-packages`` (a path entry,
not a copy), so the test needs no network; the wheel itself is installed with ``--no-deps``.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
import zipfile
from pathlib import Path

import httpx
import pytest

from scholargraph import __version__
from scholargraph.graph import localserver
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None, timeout: float = 600):
    done = subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, f"{args}: {done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    return done


def _fresh_clone(target: Path) -> Path:
    """The files a clone of this working tree has: tracked and new, nothing ignored."""
    listed = _run(
        "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=ROOT
    ).stdout
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if not source.exists() and not source.is_symlink():
            continue  # deleted in the working tree
        destination = target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            destination.symlink_to(os.readlink(source))
        else:
            shutil.copy2(source, destination)
    return target


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    clone = _fresh_clone(tmp_path_factory.mktemp("clone"))
    assert not (clone / "api" / "web" / "dist").exists()
    out = tmp_path_factory.mktemp("wheelhouse")
    _run(
        sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", out, ".", cwd=clone
    )
    (built,) = out.glob("scholargraph-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new venv holding the wheel, its dependencies seen through a path entry."""
    venv = tmp_path_factory.mktemp("user") / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=venv.parent)
    python = venv / "bin" / "python"
    purelib = Path(
        _run(
            python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))", cwd=venv
        ).stdout.strip()
    )
    ours = Path(sysconfig.get_path("purelib"))
    (purelib / "zz-dependencies.pth").write_text(f"{ours}\n")
    _run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        python,
        "install",
        "--no-deps",
        "--no-index",
        "--quiet",
        wheel,
        cwd=venv,
    )
    return venv


def _snapshot(folder: Path) -> dict[str, str]:
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def test_the_wheel_holds_one_top_level_name_and_the_page(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        top_level = archive.read(f"scholargraph-{__version__}.dist-info/top_level.txt").decode()
    assert top_level.split() == ["scholargraph"]
    assert {name.split("/")[0] for name in names} == {
        "scholargraph",
        f"scholargraph-{__version__}.dist-info",
    }
    for asset in ("index.html", "explorer.js", "styles.css"):
        assert f"scholargraph/api/web/dist/{asset}" in names
    assert "scholargraph/py.typed" in names
    assert "scholargraph/analysis.py" in names  # ``from scholargraph import analysis``
    assert "scholargraph/api/schema.graphql" in names
    assert f"scholargraph-{__version__}.dist-info/licenses/LICENSE" in names


def _user_env(home: Path, settings: Settings) -> dict[str, str]:
    """A user's environment: no checkout, no SCHOLARGRAPH_HOME, a home folder of their own."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("SCHOLARGRAPH_", "NEO4J_", "VIRTUAL_ENV", "PYTHON"))
    }
    env.update(
        HOME=str(home),
        XDG_DATA_HOME=str(home / "data"),
        XDG_CACHE_HOME=str(home / "cache"),
        NEO4J_URI=settings.uri,
        NEO4J_PASSWORD=settings.neo4j_password.reveal(),
    )
    return env


def _serve_and_fetch_page(scholargraph: Path, cwd: Path, env: dict[str, str]) -> None:
    port = localserver.free_port()
    log = cwd / "serve.log"
    with log.open("w") as sink:
        server = subprocess.Popen(
            [scholargraph, "serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=cwd,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 90
        while True:
            assert server.poll() is None, log.read_text()
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the installed server never answered /healthz"
            time.sleep(0.2)
        home = httpx.get(f"{base}/", timeout=10, headers={"accept": "text/html"})
        assert home.status_code == 200
        assert "/static/site.css" in home.text  # the site's templates are installed
        style = httpx.get(f"{base}/static/site.css", timeout=10)
        assert style.status_code == 200
        assert "text/css" in style.headers["content-type"]
        page = httpx.get(f"{base}/explorer/", timeout=10)
        assert page.status_code == 200
        assert "explorer.js" in page.text
        script = httpx.get(f"{base}/explorer/explorer.js", timeout=10)
        assert script.status_code == 200
        assert "javascript" in script.headers["content-type"]
        ide = httpx.get(f"{base}/graphql", timeout=10, headers={"accept": "text/html"})
        assert ide.status_code == 200
        assert "graphiql" in ide.text.lower()
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_the_installed_package_runs_without_writing_into_its_install(
    installed: Path, db: Database, schema_ready: Settings, tmp_path: Path
) -> None:
    python = installed / "bin" / "python"
    scholargraph = installed / "bin" / "scholargraph"
    package = Path(
        _run(
            python, "-c", "import scholargraph; print(scholargraph.__file__)", cwd=tmp_path
        ).stdout.strip()
    ).parent
    assert installed in package.parents, package
    # A top-level `queries` beside it (PyPI has a PostgreSQL client of that name) changes nothing.
    (package.parent / "queries").mkdir()
    (package.parent / "queries" / "__init__.py").write_text("raise ImportError('not ours')\n")
    before = _snapshot(package.parent)
    for path in package.rglob("*"):
        path.chmod(path.stat().st_mode & ~0o222)
    home = tmp_path / "user-home"
    env = _user_env(home, schema_ready)
    try:
        version = _run(scholargraph, "--version", cwd=tmp_path, env=env).stdout
        assert version.strip() == f"scholargraph {__version__}"
        assert (
            "COMMAND" in _run(python, "-m", "scholargraph", "--help", cwd=tmp_path, env=env).stdout
        )
        _run(scholargraph, "db", "init", cwd=tmp_path, env=env)
        _run(scholargraph, "demo", "--papers", "60", "--seed", "3", cwd=tmp_path, env=env)
        _serve_and_fetch_page(scholargraph, tmp_path, env)
    finally:
        for path in package.rglob("*"):
            path.chmod(path.stat().st_mode | 0o200)
    assert _snapshot(package.parent) == before
    state = home / "data" / "scholargraph"
    assert any((state / "demo").iterdir()), "the demo corpus goes to the user data folder"
    assert (state / "loads").is_dir()


def test_the_installed_package_starts_its_own_neo4j(installed: Path, tmp_path: Path) -> None:
    scholargraph = installed / "bin" / "scholargraph"
    package = installed / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
    before = _snapshot(package)
    home = tmp_path / "state"
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("SCHOLARGRAPH_", "NEO4J_"))
    }
    env.update(
        SCHOLARGRAPH_HOME=str(home),
        SCHOLARGRAPH_BOLT_PORT=str(localserver.free_port()),
        SCHOLARGRAPH_NEO4J_HEAP="512m",
        SCHOLARGRAPH_NEO4J_PAGECACHE="64m",
    )
    try:
        _run(scholargraph, "neo4j", "start", cwd=tmp_path, env=env)
        status = json.loads(
            _run(scholargraph, "neo4j", "status", "--json", cwd=tmp_path, env=env).stdout
        )
        assert status["running"] and status["bolt"]
        _run(scholargraph, "db", "init", cwd=tmp_path, env=env)
    finally:
        subprocess.run([scholargraph, "neo4j", "stop"], cwd=tmp_path, env=env, check=False)
    assert (home / "neo4j" / "data").is_dir()
    assert (home / "neo4j" / "lib").is_dir()
    assert _snapshot(package) == before
