"""Start, stop and inspect the local Neo4j server process.

The server's state lives beside its store in ``<data-dir>/server.json`` (pid, port, uri), so
``start`` twice finds the running server and ``stop`` finds the process to end.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from scholargraph.graph.config import Settings
from scholargraph.graph.errors import DataDirLocked, PortInUse, ServerStartFailed
from scholargraph.graph.localserver.jars import MAIN_CLASS, classpath, find_java, install
from scholargraph.graph.memory import server_memory

STATE_FILE = "server.json"
LOG_FILE = "server.log"
JVM_FLAGS = (
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-XX:+UseG1GC",
    "-XX:+ExitOnOutOfMemoryError",
)


@dataclass(frozen=True, slots=True)
class ServerInfo:
    pid: int
    port: int
    uri: str
    data_dir: str
    auth: bool
    started_at: float
    startup_seconds: float
    # what it was started with (planned by graph/memory.py unless set); empty in older files
    heap: str = ""
    pagecache: str = ""


@dataclass(frozen=True, slots=True)
class ServerStatus:
    info: ServerInfo | None
    alive: bool
    bolt_answers: bool
    rss_bytes: int | None


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _bolt_answers(port: int, host: str = "127.0.0.1") -> bool:
    try:
        with socket.create_connection((host, port), timeout=1.0) as sock:
            # Bolt handshake: magic preamble + four proposed versions; a server answers 4 bytes.
            sock.sendall(b"\x60\x60\xb0\x17" + b"\x00\x00\x04\x05" + b"\x00" * 12)
            return len(sock.recv(4)) == 4
    except OSError:
        return False


def _pid_is_ours(pid: int) -> bool:
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        try:
            os.kill(pid, 0)
        except OSError:
            return False
        return True
    return MAIN_CLASS.encode() in cmdline


def _rss_bytes(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def read_state(data_dir: Path) -> ServerInfo | None:
    path = data_dir / STATE_FILE
    if not path.is_file():
        return None
    try:
        return ServerInfo(**json.loads(path.read_text()))
    except (ValueError, TypeError):
        return None


def status(data_dir: Path) -> ServerStatus:
    info = read_state(data_dir)
    if info is None:
        return ServerStatus(None, alive=False, bolt_answers=False, rss_bytes=None)
    alive = _pid_is_ours(info.pid)
    return ServerStatus(
        info,
        alive=alive,
        bolt_answers=alive and _bolt_answers(info.port),
        rss_bytes=_rss_bytes(info.pid) if alive else None,
    )


def start(settings: Settings) -> tuple[ServerInfo, bool]:
    """Start the local server; returns (info, started) where started is False if already up."""
    data_dir = settings.neo4j_data_dir.resolve()
    current = status(data_dir)
    if current.info is not None and current.alive:
        return current.info, False
    java = find_java()
    install(settings.neo4j_home)
    port = settings.neo4j_bolt_port
    if not port_is_free(port):
        raise PortInUse(
            f"port {port} on 127.0.0.1 is taken by another process: stop it, or choose another "
            f"port with --bolt-port (or SCHOLARGRAPH_BOLT_PORT)"
        )
    data_dir.mkdir(parents=True, exist_ok=True)
    log_path = data_dir / LOG_FILE
    heap, pagecache = server_memory(settings.neo4j_heap, settings.neo4j_pagecache, data_dir)
    command = [
        java,
        # The whole heap from the start, as Neo4j's own configuration advises: a heap that
        # grows in steps collects more often while a large load fills it.
        f"-Xms{heap}",
        f"-Xmx{heap}",
        *JVM_FLAGS,
        "-cp",
        classpath(settings.neo4j_home),
        MAIN_CLASS,
        "--home",
        str(data_dir),
        "--bolt-port",
        str(port),
        "--pagecache",
        pagecache,
        "--auth",
        "true" if settings.neo4j_auth else "false",
    ]
    env = dict(os.environ, NEO4J_PASSWORD=settings.neo4j_password.reveal())
    began = time.monotonic()
    pid = _spawn_detached(command, log_path, env)
    _wait_ready(pid, port, log_path, settings.neo4j_start_timeout)
    info = ServerInfo(
        pid=pid,
        port=port,
        uri=f"bolt://127.0.0.1:{port}",
        data_dir=str(data_dir),
        auth=settings.neo4j_auth,
        started_at=time.time(),
        startup_seconds=round(time.monotonic() - began, 2),
        heap=heap,
        pagecache=pagecache,
    )
    (data_dir / STATE_FILE).write_text(json.dumps(asdict(info), indent=2))
    return info, True


def _spawn_detached(command: list[str], log_path: Path, env: dict[str, str]) -> int:
    """Start the server as a daemon (not our child), so it outlives the command that started it;
    its exit code is written beside the log for :func:`_wait_ready` to read."""
    exit_file = log_path.with_suffix(".exit")
    exit_file.unlink(missing_ok=True)
    script = '("$@"; echo $? > "$EXIT") > "$LOG" 2>&1 < /dev/null & echo $!'
    shell = subprocess.run(
        ["sh", "-c", script, "sh", *command],
        env=dict(env, LOG=str(log_path), EXIT=str(exit_file)),
        capture_output=True,
        text=True,
        check=True,
        start_new_session=True,
    )
    wrapper = int(shell.stdout.strip())
    # The wrapper subshell runs java as its child; find that child's pid.
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        children = Path(f"/proc/{wrapper}/task/{wrapper}/children")
        try:
            pids = children.read_text().split()
        except OSError:
            pids = []
        if pids:
            return int(pids[0])
        if exit_file.exists():
            return wrapper
        time.sleep(0.02)
    raise ServerStartFailed("the Neo4j process did not appear; see " + str(log_path))


def _exit_code(log: Path) -> int | None:
    try:
        return int(log.with_suffix(".exit").read_text().strip())
    except (OSError, ValueError):
        return None


def _wait_ready(pid: int, port: int, log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        code = _exit_code(log)
        if code is not None:
            text = log.read_text(errors="replace")
            if code == 3:
                raise DataDirLocked(
                    f"the data directory {log.parent} is locked by another Neo4j process: stop "
                    f"it (`scholargraph neo4j stop --data-dir {log.parent}`) or pick another "
                    f"--data-dir"
                )
            if code == 4:
                raise PortInUse(f"port {port} became taken while Neo4j started; pick another")
            raise ServerStartFailed(
                f"Neo4j exited with code {code} while starting; the end of {log}:\n"
                + "\n".join(text.splitlines()[-20:])
            )
        if "READY" in log.read_text(errors="replace") and _bolt_answers(port):
            return
        time.sleep(0.2)
    if _pid_is_ours(pid):
        os.kill(pid, signal.SIGTERM)
    raise ServerStartFailed(
        f"Neo4j did not answer on Bolt port {port} within {timeout:.0f}s; see {log}, or raise "
        f"SCHOLARGRAPH_NEO4J_START_TIMEOUT on a slow machine"
    )


def stop(data_dir: Path, timeout: float = 90.0) -> ServerInfo | None:
    """Shut the server down cleanly (SIGTERM runs Neo4j's shutdown); None if none ran."""
    data_dir = data_dir.resolve()
    info = read_state(data_dir)
    if info is None:
        return None
    if _pid_is_ours(info.pid):
        os.kill(info.pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while _pid_is_ours(info.pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        if _pid_is_ours(info.pid):
            os.kill(info.pid, signal.SIGKILL)
        # The wrapper shell writes Neo4j's exit code just after it is gone; wait for it, or a
        # start right after this would read that code as its own server's.
        deadline = time.monotonic() + 10
        while _exit_code(data_dir / LOG_FILE) is None and time.monotonic() < deadline:
            time.sleep(0.05)
    (data_dir / STATE_FILE).unlink(missing_ok=True)
    return info
