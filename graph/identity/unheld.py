"""The ids a slot carries that nobody holds by a slot: who gets them, whatever the load order.

Two sources may print one slot as names the write path does not take for one another
(``Jun Lee`` and ``J. Li``, ``Zhang Wei`` and ``W. Zhang``): the slot is aligned by position
alone, and the id the second source gives stays on the slot's edge, held by nobody (a
position-only alignment vouches for none). Come in the other order, the same id made a
researcher of its own, which the second source's printing then took the slot from: a
researcher holding the id and no slot. Either way, the slot's holder is who the id names.

:func:`id_claims` decides from the rows of ``queries.converge.SLOT_IDS_AWAY`` (each a slot and
an id its holder does not hold, with the id's holder if any):

* an id goes to the one researcher holding every slot that carries it; an id on the slots of
  two researchers, or on two slots of one paper (two authors of one paper are two people),
  or on a slot a curator placed (the curator decided, not the id) is left as it is;
* an S2 or OpenAlex id nobody holds is given to that researcher (an ORCID iD only as a
  source or a curator says);
* a researcher holding such ids and no slot is merged into the researcher they go to, when
  all of their ids go to one; an id a researcher holds by a slot is left to the pass, which
  decides its slots with that researcher's (:func:`id_links`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

# The schemes whose ids nobody holds are given to a slot's holder by this rule (an ORCID iD
# only as a source or a curator says).
GIVEN = frozenset({"s2", "openalex"})


@dataclass(frozen=True, slots=True)
class IdClaims:
    """``given``: ``(id key, researcher)`` for ids nobody holds; ``joined``: ``(slotless
    researcher, researcher, id keys)``, the first to be merged into the second."""

    given: tuple[tuple[str, int], ...]
    joined: tuple[tuple[int, int, tuple[str, ...]], ...]


def id_claims(rows: Iterable[Mapping[str, Any]]) -> IdClaims:
    """Who gets each unheld id of the rows (see the module)."""
    by_key: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for row in rows:
        if not row["holder_has_slots"]:
            by_key[row["key"]].append(row)
    given: list[tuple[str, int]] = []
    to_join: dict[int, dict[str, int]] = defaultdict(dict)
    for key, slots in sorted(by_key.items()):
        owner = _owner(slots)
        if owner is None:
            continue
        holder = slots[0]["holder"]
        if holder is not None:
            to_join[holder][key] = owner
        elif key.split(":", 1)[0] in GIVEN:
            given.append((key, owner))
    joined = [
        (orphan, owners.pop(), tuple(sorted(keys)))
        for orphan, keys in sorted(to_join.items())
        if len(owners := set(keys.values())) == 1
    ]
    return IdClaims(tuple(given), tuple(joined))


def _owner(slots: list[Mapping[str, Any]]) -> int | None:
    """The one researcher holding every slot that carries the id, if the id can say so."""
    papers = [row["paper"] for row in slots]
    if len(set(papers)) < len(papers):
        return None
    if any(row["pinned"] or row["method"] == "curator" for row in slots):
        return None
    researchers = {row["researcher"] for row in slots}
    return researchers.pop() if len(researchers) == 1 else None


def id_links(rows: Iterable[Mapping[str, Any]]) -> set[tuple[str, str]]:
    """``(block, block)`` pairs an id ties: a slot of the first carries an id a researcher
    filed under the second holds. The pass decides the two together, so that a unit of one
    person's ids is decided whole, whichever blocks a load order filed its holders under."""
    return {
        (row["block"], row["holder_block"])
        for row in rows
        if row["holder_block"] is not None and row["holder_block"] != row["block"]
    }
