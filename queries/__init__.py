"""Every Cypher statement scholargraph runs, named and parameterised.

Each module groups the queries of one concern; :data:`REGISTRY` maps names to queries so tests
can check that every statement ran against the real database.
"""

from scholargraph.queries._query import REGISTRY, Mode, Query

__all__ = ["REGISTRY", "Mode", "Query", "load_all"]


def load_all() -> dict[str, Query]:
    """Import every query module, so :data:`REGISTRY` holds every named query."""
    import importlib
    import pkgutil

    for module in pkgutil.iter_modules(__path__):
        if not module.name.startswith("_"):
            importlib.import_module(f"{__name__}.{module.name}")
    return REGISTRY
