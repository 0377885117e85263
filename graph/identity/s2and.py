"""Reader for the public S2AND author-disambiguation format.

* ``signatures.json``: signature id → ``{signature_id, paper_id, author_info: {position
  (0-based), block, given_block, first, middle, last, suffix, email, affiliations[]}}``;
* ``clusters.json``: cluster id → ``{cluster_id, signature_ids[], model_version}``;
* ``papers.json`` (optional): paper id → ``{paper_id, title, venue, year, fields_of_study[],
  authors: [{position, author_name}], …}``;
* ``cluster_seeds.json`` (optional): signature id → ``{signature id: "require" |
  "disallow"}``, curator decisions.

``sourced_author_ids`` in signatures are not read: they are labels from other sources.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scholargraph.graph.errors import BadInput
from scholargraph.graph.identity.cluster import Constraints
from scholargraph.graph.identity.names import name_from_parts, parse_name
from scholargraph.graph.identity.scoring import Mention, coauthor_key


@dataclass(frozen=True, slots=True)
class Signature:
    signature_id: str
    paper_id: str
    first: str | None
    middle: str | None
    last: str
    suffix: str | None
    position: int | None  # 0-based, as in S2AND
    email: str | None
    affiliations: tuple[str, ...]
    block: str


@dataclass(frozen=True, slots=True)
class Paper:
    paper_id: str
    title: str
    year: int | None
    fields_of_study: tuple[str, ...]
    authors: tuple[tuple[int, str], ...]  # (0-based position, name as printed)


def _load_object(path: Path | str, what: str) -> dict[str, Any]:
    try:
        with Path(path).open(encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, json.JSONDecodeError) as error:
        raise BadInput(f"cannot read S2AND {what} file {path}: {error}") from error
    if not isinstance(data, dict):
        raise BadInput(f"S2AND {what} file {path} must hold a JSON object keyed by id")
    return data


def read_signatures(path: Path | str) -> dict[str, Signature]:
    signatures: dict[str, Signature] = {}
    for key, raw in _load_object(path, "signatures").items():
        try:
            info = raw["author_info"]
            signature_id = str(raw.get("signature_id", key))
            signatures[signature_id] = Signature(
                signature_id=signature_id,
                paper_id=str(raw["paper_id"]),
                first=info.get("first"),
                middle=info.get("middle"),
                last=info.get("last") or "",
                suffix=info.get("suffix"),
                position=info.get("position"),
                email=info.get("email"),
                affiliations=tuple(a for a in info.get("affiliations") or () if a),
                block=info.get("given_block") or info.get("block") or "",
            )
        except (KeyError, TypeError, AttributeError) as error:
            raise BadInput(f"signature {key!r} in {path} is malformed: {error!r}") from error
    return signatures


def read_clusters(path: Path | str) -> dict[str, tuple[str, ...]]:
    """Gold clusters: cluster id → signature ids."""
    clusters: dict[str, tuple[str, ...]] = {}
    for key, raw in _load_object(path, "clusters").items():
        ids = raw.get("signature_ids") if isinstance(raw, dict) else None
        if not isinstance(ids, list):
            raise BadInput(f"cluster {key!r} in {path} has no signature_ids list")
        clusters[str(key)] = tuple(str(i) for i in ids)
    return clusters


def read_papers(path: Path | str) -> dict[str, Paper]:
    papers: dict[str, Paper] = {}
    for key, raw in _load_object(path, "papers").items():
        authors = tuple(
            (int(a["position"]), str(a["author_name"]))
            for a in raw.get("authors") or ()
            if a.get("author_name")
        )
        year = raw.get("year")
        papers[str(raw.get("paper_id", key))] = Paper(
            paper_id=str(raw.get("paper_id", key)),
            title=raw.get("title") or "",
            year=int(year) if year else None,
            fields_of_study=tuple(raw.get("fields_of_study") or ()),
            authors=authors,
        )
    return papers


def to_mention(signature: Signature, paper: Paper | None = None) -> Mention:
    """A signature as a mention; coauthors, year and fields come from its paper when given."""
    name = name_from_parts(signature.first, signature.middle, signature.last, signature.suffix)
    position = signature.position + 1 if signature.position is not None else None
    coauthors: frozenset[str] = frozenset()
    if paper is not None:
        coauthors = frozenset(
            coauthor_key(parse_name(author))
            for index, author in paper.authors
            if index != signature.position
        )
    return Mention(
        mention_id=signature.signature_id,
        name=name,
        paper_id=signature.paper_id,
        position=position,
        n_authors=len(paper.authors) if paper and paper.authors else None,
        affiliations=signature.affiliations,
        coauthors=coauthors - {""},
        categories=frozenset(paper.fields_of_study) if paper else frozenset(),
        year=paper.year if paper else None,
        email=signature.email,
    )


def to_mentions(
    signatures: Mapping[str, Signature], papers: Mapping[str, Paper] | None = None
) -> list[Mention]:
    lookup = papers or {}
    return [to_mention(s, lookup.get(s.paper_id)) for s in signatures.values()]


def read_cluster_seeds(path: Path | str) -> Constraints:
    """Curator decisions: ``require`` pairs are one person, ``disallow`` pairs never are."""
    same: list[tuple[str, str]] = []
    distinct: list[tuple[str, str]] = []
    for key, decisions in _load_object(path, "cluster seeds").items():
        if not isinstance(decisions, dict):
            raise BadInput(f"cluster seed {key!r} in {path} must map signature ids to decisions")
        for other, decision in decisions.items():
            if decision == "require":
                same.append((str(key), str(other)))
            elif decision == "disallow":
                distinct.append((str(key), str(other)))
            else:
                raise BadInput(
                    f"cluster seed {key!r}→{other!r} in {path}: expected 'require' or "
                    f"'disallow', got {decision!r}"
                )
    return Constraints.of(same, distinct)
