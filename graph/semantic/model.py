"""The embedding model: WordLlama's 256-dimension static model, loaded from its own wheel.

The model file ships inside the ``wordllama`` package, so it is loaded from the package folder
with downloads disabled: nothing is fetched at run time. Its default lookup looks in a cache
folder and would try to download. Vectors are L2-normalised, so a dot product is a cosine.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import re
from collections.abc import Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from scholargraph.graph.errors import ConfigError

DIMENSIONS = 256
# The package is imported when a vector is first needed: it takes a second or two to import.
MODEL = f"wordllama/l2_supercat-{DIMENSIONS}@{version('wordllama')}"
"""The name and version stored with every vector: a vector of another model is outdated."""

_TEX = re.compile(r"\\[A-Za-z]+|[$^_{}\\]")
_SPACE = re.compile(r"\s+")

Vectors = npt.NDArray[np.float32]


@functools.cache
def _model() -> Any:
    wordllama = importlib.import_module("wordllama")
    folder = Path(str(wordllama.__file__)).parent
    try:
        return wordllama.WordLlama.load(
            config="l2_supercat", dim=DIMENSIONS, cache_dir=folder, disable_download=True
        )
    except FileNotFoundError as exc:  # pragma: no cover - a broken install
        raise ConfigError(
            f"the embedding model is missing from {folder}: reinstall wordllama"
        ) from exc


def warm() -> None:
    """Load the model now (a server's start), not on the first search."""
    _model()


def embed(texts: Sequence[str]) -> Vectors:
    """One unit-length row per text (a text with no words the model knows gets zeros)."""
    vectors = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
    filled = [i for i, text in enumerate(texts) if text.strip()]
    if filled:
        raw = np.asarray(_model().embed([texts[i] for i in filled]), dtype=np.float32)
        norms = np.linalg.norm(raw, axis=1, keepdims=True)
        vectors[filled] = np.divide(raw, norms, out=np.zeros_like(raw), where=norms > 1e-9)
    return vectors


def embed_one(text: str) -> list[float]:
    return [float(x) for x in embed([text])[0]]


def paper_text(title: str | None, abstract: str | None) -> str:
    """What a paper's vector is of: its title and abstract with TeX markup stripped."""
    joined = f"{title or ''}. {abstract or ''}"
    return _SPACE.sub(" ", _TEX.sub(" ", joined)).strip(" .")


def digest(text: str) -> str:
    """A short fingerprint of the embedded text and the model: equal means up to date."""
    return hashlib.blake2b(f"{MODEL}\n{text}".encode(), digest_size=12).hexdigest()


def mean_direction(
    vectors: Sequence[Sequence[float]] | npt.NDArray[np.float64],
) -> list[float] | None:
    """The unit-length mean of ``vectors`` (a researcher's topic); ``None`` if there are none
    or they cancel out."""
    if len(vectors) == 0:
        return None
    total = np.asarray(vectors, dtype=np.float64).sum(axis=0)
    norm = float(np.linalg.norm(total))
    if norm < 1e-9:
        return None
    topic: list[float] = (total / norm).tolist()
    return topic
