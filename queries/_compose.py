"""Several read queries as one statement: one round trip and one transaction for them all.

A request's resolvers ask their questions a nesting level at a time; each kind of question is
a named query (the profiles of these researchers, the first page of their papers, …). Sent
one by one they cost a round trip and a transaction each; :func:`compose` puts the queries of
one level into one statement, each in its own unit subquery with its parameters renamed
apart, its rows collected as lists of its columns::

    CALL () { CALL () { <query 0> } RETURN collect([a, b]) AS __sg0 }
    CALL () { CALL () { <query 1> } RETURN collect([c]) AS __sg1 }
    RETURN __sg0, __sg1

and :func:`split` turns the one record back into each query's rows, as if it had run alone.

A query can be composed when its last ``RETURN`` names each column (``expr AS name`` or a
bare variable): :func:`columns` reads them from the text, and the test suite checks them
against Neo4j's own ``EXPLAIN`` of every registered query.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from scholargraph.queries._query import Query

Row = dict[str, Any]
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_OPEN = "([{"
_CLOSE = ")]}"
# Clauses that end a RETURN's items.
_AFTER_RETURN = {"ORDER", "SKIP", "LIMIT", "OFFSET", "UNION"}


def _past_literal(text: str, i: int) -> int | None:
    """Where the string, quoted name or comment starting at ``i`` ends; None if none starts."""
    if text[i] in "'\"`":
        return _end_of_quoted(text, i)
    if text.startswith("//", i):
        newline = text.find("\n", i)
        return len(text) if newline < 0 else newline
    return None


def _top_level(text: str) -> list[tuple[int, str]]:
    """The words and commas outside brackets, strings and comments, with their offsets."""
    found: list[tuple[int, str]] = []
    depth = 0
    i = 0
    while i < len(text):
        char = text[i]
        if (past := _past_literal(text, i)) is not None:
            i = past
            continue
        if char in _OPEN:
            depth += 1
        elif char in _CLOSE:
            depth -= 1
        elif depth == 0 and char == ",":
            found.append((i, ","))
        elif depth == 0 and (char.isalpha() or char == "_"):
            match = _WORD.match(text, i)
            assert match is not None
            if i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "_$."):
                found.append((i, match.group()))
            i = match.end()
            continue
        i += 1
    return found


def _end_of_quoted(text: str, start: int) -> int:
    quote = text[start]
    i = start + 1
    while i < len(text):
        if text[i] == "\\" and quote != "`":
            i += 2
            continue
        if text[i] == quote:
            return i + 1
        i += 1
    return len(text)


@lru_cache(maxsize=1024)
def columns(text: str) -> tuple[str, ...] | None:
    """The columns a query's last top-level ``RETURN`` names, or None when one of them is
    an expression without ``AS`` (or there is no such ``RETURN``)."""
    tokens = _top_level(text)
    starts = [n for n, (_, word) in enumerate(tokens) if word.upper() == "RETURN"]
    if not starts:
        return None
    first = starts[-1]
    end = len(text)
    cuts = [tokens[first][0] + len("RETURN")]
    for offset, word in tokens[first + 1 :]:
        if word.upper() in _AFTER_RETURN:
            end = offset
            break
        if word == ",":
            cuts.append(offset + 1)
    spans = list(zip(cuts, [c - 1 for c in cuts[1:]] + [end], strict=True))
    names: list[str] = []
    for n, (begin, stop) in enumerate(spans):
        words = [(o, w) for o, w in tokens[first + 1 :] if begin <= o < stop and w != ","]
        if n == 0 and words and words[0][1].upper() == "DISTINCT":
            begin = words[0][0] + len("DISTINCT")
            words = words[1:]
        aliases = [k for k, (_, word) in enumerate(words) if word.upper() == "AS"]
        if aliases and aliases[-1] + 1 < len(words):
            names.append(words[aliases[-1] + 1][1])
        elif _WORD.fullmatch(item := text[begin:stop].strip()):
            names.append(item)
        else:
            return None
    return tuple(names)


def composable(query: Query) -> bool:
    """Whether ``query`` may run inside :func:`compose`'s statement (a ``SHOW`` command
    stands alone, even with a ``RETURN``)."""
    return (
        query.mode == "read"
        and not query.parts
        and not query.text.lstrip().upper().startswith("SHOW")
        and columns(query.text) is not None
    )


def compose(
    parts: Sequence[tuple[Query, Mapping[str, Any]]],
) -> tuple[Query, dict[str, Any]]:
    """One statement running every query of ``parts`` (each :func:`composable`), and its
    parameters. Its one record holds ``__sg<n>``: the rows of part ``n`` as column lists."""
    blocks: list[str] = []
    params: dict[str, Any] = {}
    for n, (query, bound) in enumerate(parts):
        names = columns(query.text)
        if names is None or query.mode != "read":
            raise ValueError(f"{query.name} cannot be composed: its RETURN names no columns")
        prefix = f"__sg{n}_"
        body = _renamed(query.text, prefix)
        blocks.append(
            f"CALL () {{ CALL () {{\n{body}\n}} RETURN collect([{', '.join(names)}]) AS __sg{n} }}"
        )
        params.update({prefix + key: value for key, value in bound.items()})
    returned = ", ".join(f"__sg{n}" for n in range(len(parts)))
    text = "\n".join([*blocks, f"RETURN {returned}"])
    name = "+".join(query.name for query, _ in parts)
    return Query(name, text, parts=tuple(query.name for query, _ in parts)), params


def split(parts: Sequence[Query], record: Row) -> list[list[Row]]:
    """Each part's rows, as dicts of its columns, from the record of :func:`compose`."""
    answers: list[list[Row]] = []
    for n, query in enumerate(parts):
        names = columns(query.text)
        assert names is not None
        answers.append([dict(zip(names, values, strict=True)) for values in record[f"__sg{n}"]])
    return answers


@lru_cache(maxsize=512)
def _renamed(text: str, prefix: str) -> str:
    """``text`` with each ``$param`` outside strings and comments renamed ``$<prefix>param``."""
    pieces: list[str] = []
    i = 0
    last = 0
    while i < len(text):
        char = text[i]
        if (past := _past_literal(text, i)) is not None:
            i = past
            continue
        if char == "$":
            match = _PARAM.match(text, i)
            if match is not None:
                pieces.append(text[last:i])
                pieces.append(f"${prefix}{match.group(1)}")
                last = i = match.end()
                continue
        i += 1
    pieces.append(text[last:])
    return "".join(pieces)
