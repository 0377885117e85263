"""Semantic Scholar as load chunks: papers from ``POST /paper/batch``, each chunk followed by
the profiles of the authors it brought in, from ``POST /author/batch``."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterable, Sequence

from scholargraph.graph.errors import BadInput, RecordRejected
from scholargraph.graph.ids import is_arxiv_id, normalize_doi
from scholargraph.graph.loaders.clients.s2 import SemanticScholarClient, arxiv_ref, doi_ref
from scholargraph.graph.loaders.http import chunked
from scholargraph.graph.loaders.live_naming import ids_digest, unique, unreadable_chunk
from scholargraph.graph.loaders.parse import parse_s2_author, parse_s2_paper
from scholargraph.graph.loaders.parse.values import JsonObject, excerpt
from scholargraph.graph.records import Batch, PaperRecord, Rejection

Chunk = tuple[str, Batch]

PAPER_FIELDS = (
    "paperId",
    "corpusId",
    "externalIds",
    "title",
    "abstract",
    "year",
    "publicationDate",
    "citationCount",
    "authors.authorId",
    "authors.name",
    "authors.externalIds",
    "authors.affiliations",
)
AUTHOR_FIELDS = ("name", "hIndex", "paperCount", "citationCount", "externalIds", "affiliations")

# Prefixes S2 reads in a paper reference; arXiv and DOI ones are canonicalised, the rest kept.
_KEPT_PREFIXES = frozenset({"corpusid", "mag", "acl", "pmid", "pmcid", "url"})
_PAPER_SHA = re.compile(r"^[0-9a-fA-F]{40}$")
_DOI = re.compile(r"^10\.\d{4,9}/\S+$")


def s2_paper_ref(raw: str) -> str:
    """The reference S2 reads for a paper id given in any usual form.

    >>> s2_paper_ref("2301.08658v2"), s2_paper_ref("https://doi.org/10.1093/MIND/LIX.236.433")
    ('arXiv:2301.08658', 'DOI:10.1093/mind/lix.236.433')
    >>> s2_paper_ref("CorpusId:470667")
    'CorpusId:470667'
    """
    text = raw.strip()
    prefix, sep, rest = text.partition(":")
    kind = prefix.lower()
    if sep and rest.strip():
        if kind == "arxiv":
            return arxiv_ref(rest)
        if kind == "doi":
            return doi_ref(rest)
        if kind in _KEPT_PREFIXES:
            return text
    if _PAPER_SHA.match(text):
        return text.lower()
    if is_arxiv_id(text):
        return arxiv_ref(text)
    if _DOI.match(normalize_doi(text)):
        return doi_ref(text)
    raise BadInput(
        f"{raw!r} is not a paper id Semantic Scholar reads; give an arXiv id, a DOI, "
        "a 40-hex S2 paper id or a prefixed id such as CorpusId:470667"
    )


async def s2_chunks(
    client: SemanticScholarClient, *, refs: Iterable[str], with_authors: bool = True
) -> AsyncIterator[Chunk]:
    """Papers ``paper_batch_size`` a chunk; with ``with_authors``, each paper chunk is followed
    by the profiles (h-index, counts, ORCID, affiliations) of the authors not fetched before.

    Refs S2 does not read, and ids it answers with ``null``, come back as rejections.
    """
    wanted: list[str] = []
    rejected: list[Rejection] = []
    for raw in refs:
        try:
            wanted.append(s2_paper_ref(raw))
        except BadInput as exc:
            rejected.append(Rejection("s2", raw, str(exc)))
    if rejected:
        yield unreadable_chunk("s2", rejected)
    fetched: set[str] = set()
    for index, paper_refs in enumerate(chunked(unique(wanted), client.settings.paper_batch_size)):
        answers = await client.papers(paper_refs, PAPER_FIELDS)
        batch = _paper_batch(paper_refs, answers)
        yield f"s2:papers:{index}:{ids_digest(paper_refs)}", batch
        if not with_authors:
            continue
        new_authors = [a for a in _author_ids(batch.papers) if a not in fetched]
        fetched.update(new_authors)
        for part, author_ids in enumerate(chunked(new_authors, client.settings.author_batch_size)):
            answers = await client.authors(author_ids, AUTHOR_FIELDS)
            name = f"s2:authors:{index}.{part}:{ids_digest(author_ids)}"
            yield name, _author_batch(author_ids, answers)


def _paper_batch(refs: Sequence[str], answers: Sequence[JsonObject | None]) -> Batch:
    batch = Batch()
    for ref, answer in zip(refs, answers, strict=True):
        if answer is None:
            reason = "Semantic Scholar has no paper for this id (null in the /paper/batch answer)"
            batch.rejected.append(Rejection("s2", ref, reason))
            continue
        try:
            batch.papers.append(parse_s2_paper(answer))
        except RecordRejected as exc:
            batch.rejected.append(Rejection("s2", ref, exc.reason, excerpt(answer)))
    return batch


def _author_ids(papers: Iterable[PaperRecord]) -> list[str]:
    return unique(
        author_id
        for paper in papers
        for authorship in paper.authorships
        for author_id in authorship.author.s2_ids
    )


def _author_batch(author_ids: Sequence[str], answers: Sequence[JsonObject | None]) -> Batch:
    batch = Batch()
    for author_id, answer in zip(author_ids, answers, strict=True):
        ref = f"authorId:{author_id}"
        if answer is None:
            reason = (
                "Semantic Scholar has no author with this id (null in the /author/batch answer)"
            )
            batch.rejected.append(Rejection("s2", ref, reason))
            continue
        try:
            batch.authors.append(parse_s2_author(answer))
        except RecordRejected as exc:
            batch.rejected.append(Rejection("s2", ref, exc.reason, excerpt(answer)))
    return batch
