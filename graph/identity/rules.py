"""The rules that place one author slot by what the graph already holds (rules 1–3 of
:mod:`graph.identity.resolver`): a curator's pin, an external id, the same slot in another
source."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from scholargraph.graph.identity.mentions import Slot
from scholargraph.graph.identity.names import (
    ParsedName,
    compare_names,
    last_key,
    parse_name,
    swapped,
)
from scholargraph.graph.identity.snapshot import Holder, Snapshot, surname_keys

# When several sources match one slot, its edge keeps the strongest rule (lowest rank).
METHOD_RANK = {
    "curator": 0,
    "orcid": 1,
    "s2_id": 2,
    "openalex_id": 3,
    "cross_source": 4,
    "name_score": 5,
    "new": 6,
}
DIRECT_METHODS = frozenset({"orcid", "s2_id", "openalex_id", "curator"})

Printed = Mapping[tuple[str, str, int], str]  # (paper, source, position) → raw name


@dataclass(frozen=True, slots=True)
class Resolution:
    """Which researcher one slot belongs to, and by which rule.

    ``researcher`` is None for a researcher the batch creates, one per ``new_group``.
    ``replaces`` are name-only holders of the same slot whose edge folds into this one;
    ``same_as`` are holders with ids of the same slot: one person, merged if nothing forbids.
    """

    slot: Slot
    researcher: int | None = None
    new_group: str | None = None
    method: str = "new"
    confidence: float = 1.0
    keep: bool = False  # a pinned slot: write nothing
    replaces: tuple[int, ...] = ()
    same_as: tuple[int, ...] = ()
    stored_keys: frozenset[str] = frozenset()  # the slot's identifier keys already stored
    position_only: bool = False  # aligned with the slot's holder by position, names apart

    @property
    def rank(self) -> int:
        return METHOD_RANK[self.method]


def names_compatible(a: ParsedName, b: ParsedName) -> bool:
    """Same compact surname and given names that can be one person's."""
    return a == b or (last_key(a) == last_key(b) and compare_names(a, b).compatible)


def same_slot_names(a: ParsedName, b: ParsedName) -> bool:
    """Whether two printings of one author slot can name one person: given names compatible
    and a surname in common once particles, umlauts and hyphenated parts are allowed for
    (``Pieter van Jong`` / ``Pieter Jong``), or the one name turned round (``Zhang Ping``)."""
    if a == b:
        return True
    if surname_keys(a) & surname_keys(b) and compare_names(a, b).compatible:
        return True
    turned = swapped(b)
    return turned is not None and names_compatible(a, turned)


def _holds_same_slot(holder: Holder, name: ParsedName) -> bool:
    return any(same_slot_names(known, name) for known in holder.names)


def decide(slot: Slot, snapshot: Snapshot, printed: Printed) -> Resolution | None:
    """Rules 1–3 for one slot, or None when only the name scoring can place it."""
    name = parse_name(slot.raw_name)
    paper = snapshot.holders(slot.paper)
    at_position = paper.by_position.get(slot.position, ())
    stored = frozenset(key for _, key in slot.id_keys if key in snapshot.identifiers)
    if any(h.pinned for h in at_position):
        return Resolution(slot, keep=True, stored_keys=stored)
    for method, key in slot.id_keys:
        if key in snapshot.identifiers:
            found = snapshot.identifiers[key]
            same = [h for h in at_position if h.researcher != found and _holds_same_slot(h, name)]
            return Resolution(
                slot,
                researcher=found,
                method=method,
                same_as=tuple(h.researcher for h in same if h.has_ids),
                replaces=tuple(h.researcher for h in same if not h.has_ids),
                stored_keys=stored,
            )
    for holder in paper.near(name, slot.position):
        if orcids_differ(slot, holder):
            continue
        if holder.position == slot.position:
            if not _holds_same_slot(holder, name):
                continue
        elif not any(names_compatible(known, name) for known in holder.names) or _claimed(
            slot, holder, printed
        ):
            continue
        method, confidence = _aligned_method(holder, slot)
        return Resolution(
            slot,
            researcher=holder.researcher,
            method=method,
            confidence=confidence,
            stored_keys=stored,
        )
    return None


def orcids_differ(slot: Slot, holder: Holder | None) -> bool:
    """Whether the slot and the holder's researcher carry two ORCIDs: two people."""
    orcid = slot.author.orcid
    return bool(orcid and holder is not None and holder.orcid and holder.orcid != orcid)


def _claimed(slot: Slot, holder: Holder, printed: Printed) -> bool:
    """Whether the record prints a name of the holder's at the holder's own position: a
    holder at another position belongs to whoever the record prints there."""
    other = printed.get((slot.paper, slot.source, holder.position))
    return other is not None and _holds_same_slot(holder, parse_name(other))


def _aligned_method(holder: Holder, slot: Slot) -> tuple[str, float]:
    """A source seen on the slot before keeps its own rule; another is cross-source."""
    own = holder.methods.get(slot.source) or (
        holder.method if holder.source == slot.source else None
    )
    if own is None:
        return "cross_source", 1.0
    return own, holder.confidence if own == holder.method else 1.0
