"""When two researchers may be merged into one: the rule curators and the loader share.

A merge is refused when a researcher was already merged away (name the survivor instead),
when it would join two different ORCID iDs, when a curator marked two of them distinct, or
when the two sides hold different author slots of one paper (two authors of one paper are two
people; the same slot seen twice is one).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from scholargraph.graph.identity.snapshot import ResearcherState, SharedPaper

SharedLookup = Callable[[int, int], Sequence[SharedPaper]]


def merge_refusal(
    survivors: Sequence[int],
    merged: Sequence[int],
    states: Mapping[int, ResearcherState],
    shared: SharedLookup,
) -> str | None:
    """Why ``merged`` may not join ``survivors`` (each side already one person), or None."""
    everyone = [*survivors, *merged]
    for rid in everyone:
        state = states[rid]
        if state.merged_into is not None:
            return (
                f"researcher {rid} was already merged into {state.merged_into}; "
                f"name that one instead"
            )
    orcids = sorted({s.orcid for rid in everyone if (s := states[rid]).orcid})
    if len(orcids) > 1:
        return (
            f"these researchers have different ORCID iDs ({', '.join(orcids)}), so they are "
            f"different people"
        )
    group = set(everyone)
    for rid in everyone:
        marked = group & states[rid].distinct_from
        if marked:
            return (
                f"researcher {rid} was marked distinct from {min(marked)} by a curator; "
                f"a split or a new decision must come first"
            )
    for a in survivors:
        for b in merged:
            for paper in shared(a, b):
                if paper.positions[0] != paper.positions[1]:
                    return (
                        f"researchers {a} and {b} are both authors of {paper.paper} (positions "
                        f"{paper.positions[0]} and {paper.positions[1]}), so they are two people"
                    )
    return None
