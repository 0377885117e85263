"""How the benchmark report writes a figure and a verdict."""

from __future__ import annotations

from typing import Any


def figure(value: Any, digits: int = 2) -> str:
    """A number with thousands separators; "–" for a figure not measured."""
    if isinstance(value, int | float):
        return f"{value:,.{digits}f}"
    return "–" if value is None else str(value)


def met(ok: bool) -> str:
    return "yes" if ok else "no"
