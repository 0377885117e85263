"""ORCID claims: a person's own list of their papers ties their ORCID iD to the researcher
holding a compatible-named slot on those papers; two such researchers are one person and are
merged as a recorded machine decision (which a curator's "distinct" or two ORCIDs refuse)."""

from __future__ import annotations

from collections import defaultdict

from scholargraph.graph import curation
from scholargraph.graph.db import Database
from scholargraph.graph.errors import BadInput, IdentityError
from scholargraph.graph.identity.names import parse_name
from scholargraph.graph.identity.rules import names_compatible
from scholargraph.graph.ids import normalize_doi
from scholargraph.graph.records import ClaimRecord
from scholargraph.queries import identity as q


async def write_claims(db: Database, claims: list[ClaimRecord]) -> int:
    """Attach each claimed ORCID to its researcher; returns how many researchers it joined."""
    claims = [c for c in claims if c.author.orcid]
    if not claims:
        return 0
    rows = await db.run(
        q.CLAIMED_SLOTS,
        {
            "claims": [
                {
                    "orcid": c.author.orcid,
                    "keys": list(c.arxiv_ids) + [f"doi:{normalize_doi(d)}" for d in c.dois],
                    "dois": [normalize_doi(d) for d in c.dois],
                }
                for c in claims
            ]
        },
    )
    owners = await db.run_rows(
        q.LOOKUP_IDENTIFIERS, {"keys": [f"orcid:{c.author.orcid}" for c in claims]}
    )
    owner_of = {row["key"][len("orcid:") :]: row["researcher"] for row in owners}
    names = {c.author.orcid: parse_name(c.author.name) for c in claims}
    holders: dict[str, list[int]] = defaultdict(list)
    for row in rows:
        orcid = row["orcid"]
        if row["holder_orcid"] not in (None, orcid):
            continue
        compatible = names_compatible(parse_name(row["name"]), names[orcid])
        if compatible and row["researcher"] not in holders[orcid]:
            holders[orcid].append(row["researcher"])
    joined = 0
    for orcid, found in sorted(holders.items()):
        owner = owner_of.get(orcid)
        if owner is None:
            owner = found[0]
            await db.run(q.SET_ORCID, {"researcher": owner, "orcid": orcid})
        for other in found:
            if other == owner:
                continue
            try:
                await curation.merge(
                    db,
                    owner,
                    [other],
                    actor="machine",
                    reason=f"ORCID {orcid} claims papers of both records",
                )
                joined += 1
            except (IdentityError, BadInput):
                continue
    return joined
