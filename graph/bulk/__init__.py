"""The store written by Neo4j's own bulk writer, ``neo4j-admin database import full``.

:mod:`~scholargraph.graph.bulk.export` reads a store out into import files (one per label
set and relationship type, typed columns), :mod:`~scholargraph.graph.bulk.tool` runs the
import tool from the local server's jars into a new store, and
:mod:`~scholargraph.graph.bulk.finish` sets what the files cannot carry and installs the
schema. :mod:`~scholargraph.graph.bulk.compact` puts the three together for
``scholargraph neo4j compact``.
"""
