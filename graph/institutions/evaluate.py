"""Precision and recall of the matcher on a gold set of affiliation strings.

The gold format is ror-api's: a JSON list of ``{"affiliation": str, "ror_ids": [url, ...]}``
(an empty list: the string names no institution in ROR); ``{"affiliation", "ror-id"}`` pairs,
as in its names set, are read too.

Counting, one decision per string:

* a string is *matched* when the matcher names an institution, and the match is *correct*
  when that institution is one of the string's gold ids;
* precision = correct / matched; recall = correct / strings with at least one gold id;
* *in index*: the same over the strings with a gold id the index holds, the only ones the
  matcher can get right. A match on any other string is wrong, so overall precision also
  counts the institutions the index does not hold that the matcher took for one it does.

Strings fall into folds by a hash of their text, so a fold never changes between runs.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from scholargraph.graph.errors import BadInput
from scholargraph.graph.ids import normalize_ror
from scholargraph.graph.institutions.index import AffiliationIndex
from scholargraph.graph.institutions.matcher import Match, match_affiliation


@dataclass(frozen=True, slots=True)
class GoldString:
    affiliation: str
    ror_ids: frozenset[str]


@dataclass(frozen=True, slots=True)
class Scores:
    strings: int
    with_gold: int
    matched: int
    correct: int

    @property
    def precision(self) -> float:
        return self.correct / self.matched if self.matched else 1.0

    @property
    def recall(self) -> float:
        return self.correct / self.with_gold if self.with_gold else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def as_json(self) -> dict[str, float | int]:
        return {
            "strings": self.strings,
            "with_gold": self.with_gold,
            "matched": self.matched,
            "correct": self.correct,
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
        }


@dataclass(frozen=True, slots=True)
class Evaluation:
    overall: Scores
    in_index: Scores

    def as_json(self) -> dict[str, dict[str, float | int]]:
        return {"overall": self.overall.as_json(), "in_index": self.in_index.as_json()}


def read_gold(path: Path) -> list[GoldString]:
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise BadInput(f"cannot read the gold file {path}: {error}") from error
    if not isinstance(payload, list):
        raise BadInput(f"{path} is not a JSON list of {{affiliation, ror_ids}} objects")
    gold: list[GoldString] = []
    for number, item in enumerate(payload):
        if not isinstance(item, dict) or not isinstance(item.get("affiliation"), str):
            raise BadInput(f"{path} item {number} has no 'affiliation' string")
        raw = item.get("ror_ids", [item["ror-id"]] if item.get("ror-id") else [])
        if not isinstance(raw, list):
            raise BadInput(f"{path} item {number}: 'ror_ids' is not a list")
        gold.append(GoldString(item["affiliation"], frozenset(normalize_ror(r) for r in raw)))
    return gold


def fold_of(affiliation: str, folds: int) -> int:
    digest = hashlib.sha256(affiliation.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % folds


def score(
    gold: Sequence[GoldString], matches: Sequence[Match], index: AffiliationIndex
) -> Evaluation:
    """Scores of ``matches`` (in the order of ``gold``), overall and in index."""
    counts = {"overall": [0, 0, 0, 0], "in_index": [0, 0, 0, 0]}
    for item, match in zip(gold, matches, strict=True):
        in_index = any(r in index for r in item.ror_ids)
        for name, applies in (("overall", True), ("in_index", in_index)):
            if not applies:
                continue
            row = counts[name]
            row[0] += 1
            row[1] += bool(item.ror_ids)
            row[2] += match.ror_id is not None
            row[3] += match.ror_id in item.ror_ids
    return Evaluation(Scores(*counts["overall"]), Scores(*counts["in_index"]))


def match_all(index: AffiliationIndex, texts: Iterable[str]) -> list[Match]:
    return [match_affiliation(index, text) for text in texts]


def evaluate(gold: Sequence[GoldString], index: AffiliationIndex) -> Evaluation:
    return score(gold, match_all(index, (g.affiliation for g in gold)), index)
