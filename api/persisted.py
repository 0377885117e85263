"""Automatic persisted queries, Apollo's protocol: a client sends only the SHA-256 of a
document it sent before, in ``extensions.persistedQuery = {"version": 1, "sha256Hash": …}``.

* The hash alone, of a document the server knows: the document runs.
* The hash alone, of one it does not know (never sent, or dropped from the store since): a
  GraphQL error with code ``PERSISTED_QUERY_NOT_FOUND``, HTTP 200, and the client sends the
  document with its hash.
* The document with its hash: the hash is checked (``PERSISTED_QUERY_HASH_MISMATCH``, HTTP
  400, when it is not the document's) and the document runs; one that runs is then stored.
* A ``persistedQuery`` that is not version 1 with a hash of 64 hex digits is ``BAD_INPUT``.

The store keeps the last ``SCHOLARGRAPH_PERSISTED_QUERIES`` documents used (0 turns it off:
every hash alone is then not found). Each server process has its own: a client whose hash one
process does not know sends its document again, as the protocol expects.
"""

from __future__ import annotations

import hashlib
import re
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

VERSION = 1
NOT_FOUND = "PERSISTED_QUERY_NOT_FOUND"
HASH_MISMATCH = "PERSISTED_QUERY_HASH_MISMATCH"
# Apollo clients recognise the error by this message as well as by its code.
NOT_FOUND_MESSAGE = "PersistedQueryNotFound"
_HASH = re.compile(r"[0-9a-f]{64}")


class PersistedQueryError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def sha256(document: str) -> str:
    return hashlib.sha256(document.encode("utf-8")).hexdigest()


def requested(extensions: Mapping[str, Any] | None) -> str | None:
    """The hash in a request's ``extensions``, or None when it asks for no persisted query."""
    if not extensions or "persistedQuery" not in extensions:
        return None
    wanted = extensions["persistedQuery"]
    if not isinstance(wanted, dict):
        raise PersistedQueryError(
            400, "BAD_INPUT", 'extensions.persistedQuery must be {"version": 1, "sha256Hash": …}'
        )
    if wanted.get("version") != VERSION:
        raise PersistedQueryError(
            400,
            "BAD_INPUT",
            f"extensions.persistedQuery.version must be {VERSION}, the only version served",
        )
    digest = wanted.get("sha256Hash")
    if not isinstance(digest, str) or not _HASH.fullmatch(digest.lower()):
        raise PersistedQueryError(
            400,
            "BAD_INPUT",
            "extensions.persistedQuery.sha256Hash must be the SHA-256 of the document, "
            "64 hex digits",
        )
    return digest.lower()


class PersistedQueries:
    """The last ``capacity`` documents by their SHA-256, the least recently used dropped first."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._documents: OrderedDict[str, str] = OrderedDict()

    def __len__(self) -> int:
        return len(self._documents)

    def resolve(self, digest: str, query: str | None) -> str:
        """The document to run for ``digest``: the one sent, once checked, or the one stored."""
        if query is None:
            found = self._documents.get(digest)
            if found is None:
                raise PersistedQueryError(
                    200,
                    NOT_FOUND,
                    f"{NOT_FOUND_MESSAGE}: no document with this sha256Hash is stored here; "
                    f"send the query with its hash",
                )
            self._documents.move_to_end(digest)
            return found
        if sha256(query) != digest:
            raise PersistedQueryError(
                400,
                HASH_MISMATCH,
                "extensions.persistedQuery.sha256Hash is not the SHA-256 of the query sent "
                "(of its UTF-8 bytes, as hex); hash the document exactly as sent",
            )
        return query

    def store(self, digest: str, query: str) -> None:
        if self.capacity <= 0:
            return
        self._documents[digest] = query
        self._documents.move_to_end(digest)
        while len(self._documents) > self.capacity:
            self._documents.popitem(last=False)
