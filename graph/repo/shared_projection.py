"""The coauthor projection written once and mapped by every worker of a server.

A server with several workers would otherwise read the ``COAUTHOR`` ties and hold its own
copy of the arrays in each process. :class:`SharedProjections` keeps them in a directory (the
server makes one under ``/dev/shm``, which is memory): each version is a folder of ``.npy``
files, written beside the live ones, and ``manifest.json`` names the current version with its
bookmark, the process that built it and when. The manifest is replaced atomically, so a
reader sees the old version or the new one, never half of one. Workers map the arrays
read-only (``numpy`` memory maps): one copy in RAM, whatever the number of workers.

Building is under an exclusive lock (``lock``, ``flock``): one process reads the graph
and publishes, the others find the new manifest and map it. A version is removed when the
next one is published; a worker still walking the old one keeps its pages until it lets go
of them (a removed file stays readable through an existing mapping).
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scholargraph.graph.repo.projection import CoauthorProjection

ARRAYS = ("ids", "indptr", "neighbours", "joint", "first_year", "last_year", "merged")
MANIFEST = "manifest.json"


@dataclass(frozen=True, slots=True)
class Manifest:
    """A published version: its number (1 for the first build), the bookmark of the graph it
    was read from, the process that built it and when (seconds since the epoch)."""

    version: int
    bookmark: frozenset[str]
    built_by: int
    built_at: float
    ties: int
    researchers: int

    @property
    def folder(self) -> str:
        return f"v{self.version:06d}"

    def as_json(self) -> dict[str, object]:
        return {
            "version": self.version,
            "bookmark": sorted(self.bookmark),
            "builtBy": self.built_by,
            "builtAt": self.built_at,
            "ties": self.ties,
            "researchers": self.researchers,
        }


class SharedProjections:
    """The versions of the projection in ``root`` (made if missing)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)

    def current(self) -> Manifest | None:
        try:
            data = json.loads((self.root / MANIFEST).read_text())
        except FileNotFoundError:
            return None
        return Manifest(
            version=int(data["version"]),
            bookmark=frozenset(data["bookmark"]),
            built_by=int(data["builtBy"]),
            built_at=float(data["builtAt"]),
            ties=int(data["ties"]),
            researchers=int(data["researchers"]),
        )

    def versions(self) -> list[str]:
        """The version folders on disk (normally one)."""
        return sorted(p.name for p in self.root.glob("v*") if p.is_dir())

    @contextmanager
    def building(self) -> Iterator[bool]:
        """The build lock if no other process holds it: yields whether it was taken."""
        with open(self.root / "lock", "a") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                yield False
                return
            try:
                yield True
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def publish(self, projection: CoauthorProjection) -> Manifest:
        """Write ``projection`` as the next version, make it current and remove older ones.
        Call under :meth:`building`."""
        previous = self.current()
        manifest = Manifest(
            version=(previous.version if previous else 0) + 1,
            bookmark=projection.bookmark,
            built_by=os.getpid(),
            built_at=time.time(),
            ties=projection.tie_count,
            researchers=len(projection.ids),
        )
        staging = self.root / f".{manifest.folder}.{os.getpid()}"
        staging.mkdir()
        for name in ARRAYS:
            np.save(staging / f"{name}.npy", getattr(projection, name), allow_pickle=False)
        staging.rename(self.root / manifest.folder)
        pending = self.root / f".{MANIFEST}.{os.getpid()}"
        pending.write_text(json.dumps(manifest.as_json()))
        os.replace(pending, self.root / MANIFEST)
        for folder in self.versions():
            if folder != manifest.folder:
                shutil.rmtree(self.root / folder, ignore_errors=True)
        return manifest

    def map(self, manifest: Manifest) -> CoauthorProjection:
        """The arrays of ``manifest``'s version, mapped read-only (``FileNotFoundError`` when a
        newer version has replaced it meanwhile: read :meth:`current` again)."""
        folder = self.root / manifest.folder
        arrays = {
            name: np.load(folder / f"{name}.npy", mmap_mode="r", allow_pickle=False)
            for name in ARRAYS
        }
        return CoauthorProjection(**arrays, bookmark=manifest.bookmark)

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def shared_root(tag: str) -> Path:
    """Where a server keeps its shared projection: in ``/dev/shm`` (memory) where there is
    one, else the temporary directory."""
    base = Path("/dev/shm")
    if not (base.is_dir() and os.access(base, os.W_OK)):
        import tempfile

        base = Path(tempfile.gettempdir())
    return base / f"scholargraph-projection-{tag}"
