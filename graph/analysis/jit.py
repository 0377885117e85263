"""numba, with its on-disk cache of compiled kernels in scholargraph's home.

numba caches beside a function's source file by default, which for an installed package is
``site-packages``; kernels go to ``<cache>/numba`` instead (see :mod:`scholargraph.graph.config`),
unless ``NUMBA_CACHE_DIR`` says otherwise.
"""

from __future__ import annotations

import os

import numba

from scholargraph.graph.config import default_cache_dir, default_home

if not os.environ.get("NUMBA_CACHE_DIR"):
    _home = default_home(os.environ)
    numba.config.CACHE_DIR = str(default_cache_dir(os.environ, _home).parent / "numba")  # type: ignore[attr-defined]

__all__ = ["numba"]
