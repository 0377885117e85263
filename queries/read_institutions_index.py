"""What the offline affiliation matcher needs of every ROR institution in the graph."""

from scholargraph.queries._query import Query

# One record holding every row: the index reads the whole registry at once, and one list is
# far cheaper for the driver to decode than a record per institution. ``parent_rors`` holds a
# child's parents by ROR id as the dump gave them, whether or not the parent is loaded.
INSTITUTIONS_INDEX = Query(
    "read_institutions_index.institutions_index",
    """
    MATCH (i:Institution)
    WHERE i.ror_id IS NOT NULL
    WITH i ORDER BY i.ror_id
    RETURN collect({
        ror_id: i.ror_id,
        name: i.name,
        aliases: coalesce(i.aliases, []),
        acronyms: coalesce(i.acronyms, []),
        country_code: i.country_code,
        city: i.city,
        status: i.status,
        types: coalesce(i.types, []),
        parents: coalesce(i.parent_rors, [])
    }) AS rows
    """,
)
