"""The API tests' graph (:mod:`tests.api.graphdata`) and what the site's pages need beyond it:
a paper with TeX in its title and abstract, an updated date and its sources; a researcher
with 30 papers (two pages of 24); and a curator's decision about Ziming Liu."""

from __future__ import annotations

from datetime import date

from scholargraph.graph.db import Database
from scholargraph.queries import Query
from tests.api.graphdata import ZIMING, write_graph

PROLIFIC = 6000001
PROLIFIC_PAPERS = 30
TEX_PAPER = "2303.00010"
TEX_TITLE = "Bounds for $x<1$ and $\\alpha$-stable laws"

_EXTRA = Query(
    "test_sitedata.extra",
    """
    MATCH (atp:Paper {key: '2301.08658'})
    SET atp.updated = date('2023-03-02'), atp.versions = 2, atp.sources = ['arxiv', 's2']
    WITH count(*) AS done
    CREATE (r:Researcher {id: $prolific, slug: 'petra-prolific', name: 'Petra Prolific',
                          name_key: 'p prolific', paper_count: $n, citation_count: 0,
                          alt_names: [], s2_ids: [], openalex_ids: []})
    WITH r
    UNWIND range(1, $n) AS i
    MATCH (c:Category {code: CASE WHEN i % 2 = 0 THEN 'cs.DC' ELSE 'math.NA' END})
    CREATE (p:Paper {key: '1801.' + right('0000' + toString(i), 5), title: 'Paged paper ' + i,
                     abstract: 'Number ' + i + '.',
                     published: date('2018-01-01') + duration({days: i}),
                     year: 2018, primary_category: c.code, citation_count: i, n_authors: 1,
                     hyperauthored: false, alphabetical: false, versions: 1})
    SET p.arxiv_id = p.key
    CREATE (p)-[:IN_CATEGORY {primary: true}]->(c)
    CREATE (r)-[:AUTHORED {position: 1, kind: 'solo', raw_name: r.name, source: 'arxiv',
                           method: 'new', confidence: 1.0, pinned: false}]->(p)
    WITH count(*) AS done
    MATCH (z:Researcher {id: $ziming})
    CREATE (p:Paper {key: $tex_key, arxiv_id: $tex_key, title: $tex_title,
                     abstract: 'We show $\\\\sum_i x_i < 1$ for all $n$.', published: $tex_date,
                     year: 2023, primary_category: 'math.PR', citation_count: 2, n_authors: 1,
                     hyperauthored: false, alphabetical: false, versions: 1,
                     sources: ['arxiv', 'openalex']})
    WITH p, z
    MATCH (c:Category {code: 'math.PR'})
    CREATE (p)-[:IN_CATEGORY {primary: true}]->(c)
    CREATE (z)-[:AUTHORED {position: 1, kind: 'solo', raw_name: 'Z. Liu', source: 'arxiv',
                           method: 'orcid', confidence: 1.0, pinned: false}]->(p)
    SET z.paper_count = z.paper_count + 1
    CREATE (e:CurationEvent {id: 'ev-1', kind: 'merge', actor: 'ana',
                             reason: 'same ORCID on the papers',
                             at: datetime('2024-05-01T10:00:00Z'),
                             papers: []})
    CREATE (e)-[:CONCERNS {role: 'survivor'}]->(z)
    """,
    "write",
)


async def write_site_graph(db: Database) -> None:
    await write_graph(db)
    await db.run(
        _EXTRA,
        {
            "prolific": PROLIFIC,
            "n": PROLIFIC_PAPERS,
            "ziming": ZIMING,
            "tex_key": TEX_PAPER,
            "tex_title": TEX_TITLE,
            "tex_date": date(2023, 3, 1),
        },
    )
