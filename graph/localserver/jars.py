"""Resolve Neo4j Community from Maven Central and compile the launcher, once per home folder."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from scholargraph.graph.errors import JavaNotFound, MavenUnavailable, ServerStartFailed

LAUNCHER_DIR = Path(__file__).with_name("launcher")
MAIN_CLASS = "org.scholargraph.neo4j.Launcher"


def find_java() -> str:
    java = shutil.which("java")
    if java is None:
        raise JavaNotFound(
            "no `java` on PATH: install a JDK 17 or 21 (e.g. `apt-get install openjdk-17-jdk`) "
            "or set NEO4J_URI to use an existing Neo4j server"
        )
    return java


def _find_tool(name: str, error: type[Exception], hint: str) -> str:
    tool = shutil.which(name)
    if tool is None:
        raise error(hint)
    return tool


def classpath(home: Path) -> str:
    return f"{home / 'classes'}:{home / 'lib'}/*"


def is_installed(home: Path) -> bool:
    stamp = home / "installed.stamp"
    return stamp.exists() and stamp.read_text() == _fingerprint()


def _fingerprint() -> str:
    return (LAUNCHER_DIR / "pom.xml").read_text() + (LAUNCHER_DIR / "Launcher.java").read_text()


def install(home: Path) -> None:
    """Fetch the Neo4j jars into ``home/lib`` and compile the launcher into ``home/classes``."""
    if is_installed(home):
        return
    find_java()
    mvn = _find_tool(
        "mvn",
        MavenUnavailable,
        "no `mvn` on PATH: install Maven (`apt-get install maven`) so the Neo4j jars can be "
        "resolved from Maven Central, or set NEO4J_URI to use an existing Neo4j server",
    )
    javac = _find_tool(
        "javac", JavaNotFound, "no `javac` on PATH: install a full JDK 17 or 21, not only a JRE"
    )
    home.mkdir(parents=True, exist_ok=True)
    lib = home / "lib"
    if lib.exists():
        shutil.rmtree(lib)
    resolved = subprocess.run(
        [
            mvn,
            "-B",
            "-q",
            "-f",
            str(LAUNCHER_DIR / "pom.xml"),
            "dependency:copy-dependencies",
            f"-DoutputDirectory={lib}",
            "-DincludeScope=runtime",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if resolved.returncode != 0:
        tail = (resolved.stdout + resolved.stderr).strip().splitlines()[-15:]
        raise MavenUnavailable(
            "Maven could not resolve org.neo4j:neo4j from Maven Central (offline, or a proxy "
            "is needed in ~/.m2/settings.xml). Its last lines:\n" + "\n".join(tail)
        )
    compiled = subprocess.run(
        [
            javac,
            "-d",
            str(home / "classes"),
            "-cp",
            f"{lib}/*",
            str(LAUNCHER_DIR / "Launcher.java"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if compiled.returncode != 0:
        raise ServerStartFailed(f"compiling the Neo4j launcher failed:\n{compiled.stderr}")
    (home / "installed.stamp").write_text(_fingerprint())
