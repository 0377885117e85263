"""Refused requests: the server CPU each abusive document costs, and ``/healthz`` meanwhile.

``scholargraph serve`` runs as its own process; each document is sent alone, and the CPU the
server process spent on it is read from ``/proc/<pid>/stat`` (user + system) before and after,
so the client's own work is not counted. A process of its own pings ``/healthz`` all along.
The baseline, side by side, is a small valid query (``{ __typename }``) sent the same way.
Prints JSON.

    python -m benchmarks.bench_hardening [--repeat 20]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from multiprocessing import Queue
from multiprocessing.synchronize import Event as EventType
from pathlib import Path
from typing import Any

import httpx

from scholargraph.graph import localserver

GRAPHQL_RESPONSE = "application/graphql-response+json"
_TICK = os.sysconf("SC_CLK_TCK")


def doubling(levels: int) -> str:
    """Each fragment spreads the one before twice: 2^levels selections once spread."""
    parts = [f"query {{ ...F{levels} }}", "fragment F0 on Query { __typename }"]
    parts += [f"fragment F{i} on Query {{ ...F{i - 1} ...F{i - 1} }}" for i in range(1, levels + 1)]
    return " ".join(parts)


def wide(uses: int) -> str:
    fragment = "fragment T on Query { " + " ".join(["__typename"] * 40) + " }"
    return "query { " + " ".join(f"x{i}: __typename ...T" for i in range(uses)) + " } " + fragment


def deep(levels: int) -> str:
    return "{ " + "... on Query { " * levels + "__typename" + " }" * levels + " }"


def nested_json(depth: int) -> bytes:
    return b'{"query": "{ __typename }", "variables": {"v": ' + b"[" * depth + b"]" * depth + b"}}"


def documents(body_limit: int) -> dict[str, bytes]:
    """The abusive bodies, by name; the largest doubling family just under the body limit."""
    levels = 22
    while len(doubling(levels * 2)) < body_limit * 0.95:
        levels *= 2
    while len(doubling(levels + 1000)) < body_limit * 0.95:
        levels += 1000
    as_json: Callable[[str], bytes] = lambda q: json.dumps({"query": q}).encode()  # noqa: E731
    return {
        "baseline { __typename }": as_json("{ __typename }"),
        "doubling F22 (903-byte reproducer)": as_json(doubling(22)),
        "doubling F150": as_json(doubling(150)),
        f"doubling F{levels} (~{len(doubling(levels)) >> 10} KiB)": as_json(doubling(levels)),
        "wide fragment x20 uses": as_json(wide(20)),
        "deep inline fragments x40": as_json(deep(40)),
        "deep parser nesting x300": as_json("{ " + "a { " * 300 + "b" + " }" * 300 + " }"),
        "nested JSON variables [x100,000": nested_json(100_000),
    }


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICK  # utime, stime


def start_server(port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "scholargraph", "serve", "--host", "127.0.0.1"]
    server = subprocess.Popen([*command, "--port", str(port)], stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return server
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    server.kill()
    raise RuntimeError("scholargraph serve did not answer /healthz within 60 s")


def ping(base: str, stop: EventType, latencies: Queue[list[float]]) -> None:
    """``/healthz`` every 5 ms on its own connection until ``stop``, in a process of its own
    (so the sender's work never delays it); its latencies put on ``latencies``."""
    seen: list[float] = []
    with httpx.Client(base_url=base, timeout=30) as http:
        while not stop.is_set():
            began = time.perf_counter()
            http.get("/healthz")
            seen.append(time.perf_counter() - began)
            time.sleep(0.005)
    latencies.put(seen)


def ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def spread(samples: Sequence[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "n": len(ordered),
        "median_ms": ms(statistics.median(ordered)),
        "p99_ms": ms(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]),
        "max_ms": ms(ordered[-1]),
    }


def measure(http: httpx.Client, pid: int, body: bytes, repeat: int) -> dict[str, Any]:
    """The server CPU of ``repeat`` sends, divided among them (the kernel counts CPU in clock
    ticks, too coarse for one request)."""
    wall: list[float] = []
    answer: dict[str, Any] = {}
    before = cpu_seconds(pid)
    for _ in range(repeat):
        began = time.perf_counter()
        response = http.post("/graphql", content=body)
        wall.append(time.perf_counter() - began)
        codes = [e.get("extensions", {}).get("code") for e in response.json().get("errors", [])]
        answer = {"status": response.status_code, "codes": codes}
    cpu = cpu_seconds(pid) - before
    return {
        "bytes": len(body),
        **answer,
        "server_cpu_ms_each": ms(cpu / repeat),
        "wall_ms_median": ms(statistics.median(wall)),
        "wall_ms_max": ms(max(wall)),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--body-limit", type=int, default=1 << 20)
    args = parser.parse_args(argv)
    port = localserver.free_port()
    server = start_server(port)
    base = f"http://127.0.0.1:{port}"
    headers = {"content-type": "application/json", "accept": GRAPHQL_RESPONSE}
    try:
        with httpx.Client(base_url=base, headers=headers, timeout=60) as http:
            for _ in range(20):  # warm the server (imports, first requests)
                http.post("/graphql", json={"query": "{ __typename }"})
            stop = multiprocessing.Event()
            queue: Queue[list[float]] = multiprocessing.Queue()
            pinger = multiprocessing.Process(target=ping, args=(base, stop, queue))
            pinger.start()
            time.sleep(1)
            figures = {
                name: measure(http, server.pid, body, args.repeat)
                for name, body in documents(args.body_limit).items()
            }
            stop.set()
            latencies: list[float] = queue.get(timeout=60)
            pinger.join(30)
    finally:
        server.terminate()
        server.wait(30)
    baseline = figures["baseline { __typename }"]["server_cpu_ms_each"]
    refused = [f for name, f in figures.items() if not name.startswith("baseline")]
    print(
        json.dumps(
            {
                "clock_tick_ms": ms(1 / _TICK),
                "repeat": args.repeat,
                "documents": figures,
                "worst_refused_cpu_ms": max(f["server_cpu_ms_each"] for f in refused),
                "baseline_cpu_ms": baseline,
                "healthz_meanwhile": spread(latencies),
                "target": "refused within 50 ms server CPU; /healthz under 10 ms",
            },
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
