"""A canonical dump of the graph: two loads that made the same graph dump equal.

Used to prove that load order, batch size, retries and resumes do not change the graph.

Researcher integer ids (and the slugs built on them) depend on the order ids were handed
out, so a researcher is named by stable keys instead: the name and the author slots
``(paper key, position)`` the researcher holds, with their external ids. Everything a
load writes is in the dump, so a difference shows where two graphs part:

* ``counts``: nodes by label, relationships by type;
* ``papers``: every paper's properties (all its ids) by key;
* ``slots``: ``(paper, position, researcher name)`` of every ``AUTHORED`` edge, with the
  edge's properties;
* ``researchers``: each researcher's stable key with its ORCID, S2 and OpenAlex ids, and
  the researcher it was merged into;
* ``coauthors``: every ``COAUTHOR`` tie between stable keys, with its counts and years;
* ``affiliations``: every ``AFFILIATED`` edge from a stable key to an institution (by ROR
  id, else OpenAlex id, else name), with its source and years.

:func:`state_of` keeps what the graph says now and leaves out how it got there: the
curation events and the researchers they retired, and the rule each source's mention was
matched by when it arrived (``new`` for the first source of a slot, ``cross_source`` for a
later one: which came first is the load's order). Each source's name, ids, affiliations
and the source itself stay on the slot.
"""

from __future__ import annotations

import json
from typing import Any

from scholargraph.graph.db import Database
from scholargraph.graph.stats import graph_stats
from scholargraph.queries.canonical import AFFILIATIONS, COAUTHORS, PAPERS, RESEARCHERS, SLOTS

# Properties that name a researcher by its integer id, which differs between loads.
RESEARCHER_ID_PROPERTIES = frozenset({"id", "slug", "merged_into"})
# What a load's history writes: the events, and the rule that matched a slot on arrival.
HISTORY_LABELS = frozenset({"CurationEvent"})
HISTORY_TYPES = frozenset({"CONCERNS"})
ARRIVAL_PROPERTIES = frozenset({"method", "rank", "confidence"})

Key = tuple[str, tuple[tuple[str, int], ...]]


def _plain(value: Any) -> Any:
    """Values the driver returns (dates, lists) as JSON-comparable ones."""
    return json.loads(json.dumps(value, default=str, sort_keys=True))


async def canonical_dump(db: Database) -> dict[str, Any]:
    papers = await db.run_rows(PAPERS)
    slots = await db.run_rows(SLOTS)
    researchers = await db.run_rows(RESEARCHERS)
    coauthors = await db.run_rows(COAUTHORS)
    affiliations = await db.run_rows(AFFILIATIONS)

    held: dict[int, list[tuple[str, int]]] = {}
    for slot in slots:
        held.setdefault(slot["researcher"], []).append((slot["paper"], slot["position"]))
    by_id = {r["id"]: r for r in researchers}

    def key(researcher_id: int | None) -> Key | None:
        if researcher_id is None or researcher_id not in by_id:
            return None
        name = str(by_id[researcher_id].get("name"))
        return name, tuple(sorted(held.get(researcher_id, [])))

    return {
        "counts": await graph_stats(db),
        "papers": {p["key"]: _plain(p["props"]) for p in papers},
        "slots": sorted(
            (
                s["paper"],
                s["position"],
                str(by_id.get(s["researcher"], {}).get("name")),
                json.dumps(_plain(s["props"]), sort_keys=True),
            )
            for s in slots
        ),
        "researchers": sorted(
            (
                key(r["id"]),
                json.dumps(
                    _plain(
                        {
                            **{k: v for k, v in r.items() if k not in RESEARCHER_ID_PROPERTIES},
                            "merged_into": key(r.get("merged_into")),
                        }
                    ),
                    sort_keys=True,
                ),
            )
            for r in researchers
        ),
        "coauthors": sorted(
            (
                *sorted((key(c["a"]), key(c["b"])), key=repr),
                json.dumps(_plain(c["props"]), sort_keys=True),
            )
            for c in coauthors
        ),
        "affiliations": sorted(
            (key(a["researcher"]), a["institution"], json.dumps(_plain(a["props"]), sort_keys=True))
            for a in affiliations
        ),
    }


def state_of(dump: dict[str, Any]) -> dict[str, Any]:
    """The dump without the load's history (see the module)."""
    live = [r for r in dump["researchers"] if json.loads(r[1]).get("merged_into") is None]
    counts = dump["counts"]
    return {
        **dump,
        "counts": {
            "nodes": {
                **{k: v for k, v in counts["nodes"].items() if k not in HISTORY_LABELS},
                "Researcher": len(live),
            },
            "relationships": {
                k: v for k, v in counts["relationships"].items() if k not in HISTORY_TYPES
            },
        },
        "slots": sorted((*slot[:3], _arrival_free(slot[3])) for slot in dump["slots"]),
        "researchers": live,
    }


def _arrival_free(props: str) -> str:
    slot = {k: v for k, v in json.loads(props).items() if k not in ARRIVAL_PROPERTIES}
    mentions = [m.split(":", 2) for m in slot.get("mentions") or []]
    slot["mentions"] = sorted(f"{m[0]}:{m[-1]}" for m in mentions)
    return json.dumps(slot, sort_keys=True)


def differences(left: dict[str, Any], right: dict[str, Any], *, limit: int = 5) -> list[str]:
    """The first few places two dumps differ, readable in a failed assertion."""
    found: list[str] = []
    for part in sorted(set(left) | set(right)):
        a, b = left.get(part), right.get(part)
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            for name in sorted(set(a) | set(b), key=str):
                if a.get(name) != b.get(name):
                    found.append(f"{part}[{name!r}]: {a.get(name)!r} != {b.get(name)!r}")
        elif isinstance(a, list) and isinstance(b, list):
            # by their repr (entries are lists and dicts): a membership test on a list of
            # 100,000 COAUTHOR ties would be quadratic
            in_a, in_b = set(map(repr, a)), set(map(repr, b))
            only_a = [x for x in a if repr(x) not in in_b]
            only_b = [x for x in b if repr(x) not in in_a]
            if only_a or only_b:
                found.append(f"{part}: only left {only_a[:limit]!r}; only right {only_b[:limit]!r}")
            else:
                found.append(f"{part}: the same entries in another order or count")
        else:
            found.append(f"{part}: {a!r} != {b!r}")
    return found[:limit]
