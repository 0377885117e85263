"""The shared store of the coauthor projection: versions written once, mapped read-only,
switched atomically, one builder at a time."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from scholargraph.graph.repo.projection import CoauthorProjection
from scholargraph.graph.repo.shared_projection import SharedProjections


def projection(ties: list[tuple[int, int]], bookmark: str) -> CoauthorProjection:
    a = np.array([x for x, _ in ties], dtype=np.int64)
    b = np.array([y for _, y in ties], dtype=np.int64)
    ones = np.ones(len(ties), dtype=np.int64)
    return CoauthorProjection.of_ties(
        a, b, ones, ones * 2000, ones * 2001, np.zeros(0, dtype=np.int64), frozenset([bookmark])
    )


def test_a_published_version_is_mapped_read_only_and_walks_the_same(tmp_path: Path) -> None:
    store = SharedProjections(tmp_path / "shared")
    built = projection([(1, 2), (2, 3), (3, 4)], "bm:1")
    with store.building() as mine:
        assert mine
        manifest = store.publish(built)
    assert manifest.version == 1
    assert store.current() == manifest
    mapped = store.map(manifest)
    assert isinstance(mapped.neighbours, np.memmap)
    assert mapped.bookmark == frozenset(["bm:1"])
    with pytest.raises(ValueError, match="read-only"):
        mapped.joint[0] = 9
    options = {"max_nodes": 10, "min_joint_papers": 1, "year_from": None, "year_to": None}
    assert mapped.walk(2, depth=2, **options) == built.walk(2, depth=2, **options)


def test_the_next_version_replaces_the_last_and_an_old_mapping_stays_readable(
    tmp_path: Path,
) -> None:
    store = SharedProjections(tmp_path / "shared")
    first = store.map(store.publish(projection([(1, 2)], "bm:1")))
    second = store.publish(projection([(1, 2), (2, 3)], "bm:2"))
    assert second.version == 2
    assert store.current() == second
    assert store.versions() == ["v000002"]  # the older one is removed
    assert first.ids.tolist() == [1, 2]  # still readable through its mapping
    assert store.map(second).tie_count == 2
    store.remove()
    assert not store.root.exists()


def test_one_builder_at_a_time(tmp_path: Path) -> None:
    store = SharedProjections(tmp_path / "shared")
    other = SharedProjections(tmp_path / "shared")
    with store.building() as mine, other.building() as theirs:
        assert mine
        assert not theirs
    with other.building() as theirs:
        assert theirs


def test_no_manifest_no_version(tmp_path: Path) -> None:
    assert SharedProjections(tmp_path / "empty").current() is None
