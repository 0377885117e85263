"""Disjoint sets over string keys: the groups that ties between keys make."""

from __future__ import annotations


class DisjointSets:
    """Union-find over string keys; a group is named by its smallest key so far."""

    def __init__(self) -> None:
        self._parent: dict[str, str] = {}

    def __contains__(self, key: str) -> bool:
        return key in self._parent

    def find(self, key: str) -> str:
        """The key's group (a key seen for the first time is a group of its own)."""
        parent = self._parent
        while parent.setdefault(key, key) != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    def union(self, a: str, b: str) -> None:
        first, second = sorted((self.find(a), self.find(b)))
        self._parent[second] = first
