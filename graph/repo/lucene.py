"""Lucene queries for Neo4j's full-text indexes, built from a person's words.

Every character with a meaning in Lucene's syntax is escaped and words are lower-cased (so
``AND``/``OR``/``NOT`` stay words), whatever the input: the query text reaches Neo4j as a
parameter and can only ever match words.

>>> terms_query('Ziming Liu')
'ziming AND liu*'
>>> terms_query('C++ (HPC) "ATP"')
'c\\\\+\\\\+ AND \\\\(hpc\\\\) AND \\\\"atp\\\\"*'
>>> phrase_query('University of California, Berkeley')
'"university of california, berkeley"'
"""

from __future__ import annotations

import re

from scholargraph.graph.errors import BadInput

_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/&|])')
_MAX_TERMS = 16


def escape(word: str) -> str:
    return _SPECIAL.sub(r"\\\1", word)


def terms_query(text: str) -> str:
    """Every word must match; the last may be the start of a word (search as you type)."""
    words = [escape(w) for w in text.lower().split()][:_MAX_TERMS]
    if not words:
        raise BadInput("the search query is empty; give a few words of a name or title")
    words[-1] += "*"
    return " AND ".join(words)


def phrase_query(text: str) -> str:
    """The words as one phrase (quotes inside are escaped)."""
    return '"' + text.lower().strip().replace("\\", "\\\\").replace('"', '\\"') + '"'
