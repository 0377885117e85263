"""A small, realistic graph for the API tests, written with the tests' own Cypher.

The reference paper 2301.08658 (ATP) by Shenggan Cheng, Ziming Liu, Jiangsu Du and Yang You;
four "Ziming Liu" records plus a "Zhang Liu" in the same name block; a "Z. Liu" merged into
the ATP Ziming Liu; an old-style arXiv paper astro-ph/9901001; institutions with ROR ids; and
two three-hop coauthor chains from Yang You to John Gilbert:

    You —2019— Demmel —2015— Buluç —2012 (uncertain match)— Gilbert        (through Berkeley)
    You =2020,2021= Hsieh —2021— Keutzer —2021— Gilbert                     (cs.LG, stronger)
"""

from __future__ import annotations

from datetime import date
from typing import Any

from scholargraph.graph.db import Database
from scholargraph.graph.identity import block_key, parse_name
from scholargraph.queries import Query

ZIMING = 2004394
YOU = 2004396
CHENG = 2004393
DU = 2004395
DEMMEL = 4000001
BULUC = 4000002
GILBERT = 4000003
HSIEH = 4000004
KEUTZER = 4000005
ZIMING_MIT = 3000001
ZIMING_PKU = 3000002
ZIMING_TJU = 3000003
ZHANG_LIU = 3000004
MERGED_Z_LIU = 3000009
MOREAU = 5000001
OKAFOR = 5000002
AHN, BAKER, COLE = 4000010, 4000011, 4000012
ZIMING_ORCID = "0009-0009-3355-6770"

BERKELEY, UCLA, NUS, NUS_SOC, MIT = 1, 2, 3, 4, 5

INSTITUTIONS: list[dict[str, Any]] = [
    {"id": BERKELEY, "name": "University of California, Berkeley", "ror_id": "01an7q238",
     "acronyms": ["UCB"], "aliases": ["UC Berkeley"], "country_code": "US", "types": ["education"]},
    {"id": UCLA, "name": "University of California, Los Angeles", "ror_id": "046rm7j60",
     "acronyms": ["UCLA"], "aliases": [], "country_code": "US", "types": ["education"]},
    {"id": NUS, "name": "National University of Singapore", "ror_id": "01tgyzw49",
     "acronyms": ["NUS"], "aliases": [], "country_code": "SG", "types": ["education"]},
    {"id": NUS_SOC, "name": "NUS School of Computing", "ror_id": None,
     "acronyms": [], "aliases": [], "country_code": "SG", "types": ["education"]},
    {"id": MIT, "name": "Massachusetts Institute of Technology", "ror_id": "042nb2s44",
     "acronyms": ["MIT"], "aliases": [], "country_code": "US", "types": ["education"]},
]  # fmt: skip
PART_OF = [(NUS_SOC, NUS)]


def _researcher(rid: int, name: str, **props: Any) -> dict[str, Any]:
    row: dict[str, Any] = {
        "id": rid, "name": name, "slug": name.lower().replace(" ", "-").replace(".", ""),
        "name_key": block_key(parse_name(name)), "orcid": None, "alt_names": [],
        "s2_ids": [], "openalex_ids": [], "h_index": None, "h_index_s2": None,
        "h_index_openalex": None, "paper_count": 0, "citation_count": 0, "merged_into": None,
        "affiliation_names": [], "coauthor_keys": [], "category_codes": [],
        "year_min": None, "year_max": None,
    }  # fmt: skip
    row.update(props)
    return row


RESEARCHERS: list[dict[str, Any]] = [
    _researcher(CHENG, "Shenggan Cheng", s2_ids=["2153700912"]),
    _researcher(ZIMING, "Ziming Liu", orcid=ZIMING_ORCID, s2_ids=["2116463213"],
                openalex_ids=["A5047541380"], h_index_s2=1, alt_names=["Z. Liu"],
                affiliation_names=["National University of Singapore"],
                coauthor_keys=["s cheng", "j du", "y you"], category_codes=["cs.DC"],
                year_min=2023, year_max=2023),
    _researcher(DU, "Jiangsu Du"),
    _researcher(YOU, "Yang You", h_index_s2=40, s2_ids=["144055906"],
                affiliation_names=["National University of Singapore"]),
    _researcher(ZIMING_MIT, "Ziming Liu", paper_count=42, h_index=17, citation_count=3100,
                affiliation_names=["Massachusetts Institute of Technology"],
                coauthor_keys=["m tegmark"], category_codes=["cs.LG", "physics.comp-ph"],
                year_min=2020, year_max=2025, s2_ids=["2146248389"]),
    _researcher(ZIMING_PKU, "Ziming Liu", paper_count=10, h_index=6,
                affiliation_names=["Peking University"], coauthor_keys=["x wang"],
                category_codes=["cs.CV"], year_min=2019, year_max=2024),
    _researcher(ZIMING_TJU, "Ziming Liu", paper_count=6, h_index=14,
                affiliation_names=["National University of Singapore"],
                coauthor_keys=["y you", "j du"], category_codes=["cs.DC"],
                year_min=2022, year_max=2024),
    _researcher(ZHANG_LIU, "Zhang Liu", paper_count=3, h_index=2),
    _researcher(MERGED_Z_LIU, "Z. Liu", merged_into=ZIMING, s2_ids=["999999"]),
    _researcher(DEMMEL, "James Demmel"),
    _researcher(BULUC, "Aydın Buluç"),
    _researcher(GILBERT, "John R. Gilbert"),
    _researcher(HSIEH, "Cho-Jui Hsieh"),
    _researcher(KEUTZER, "Kurt Keutzer"),
    _researcher(MOREAU, "Alice Moreau"),
    _researcher(OKAFOR, "Chidi Okafor"),
    _researcher(AHN, "Soo-Min Ahn"),
    _researcher(BAKER, "Ruth Baker"),
    _researcher(COLE, "Daniel Cole"),
]  # fmt: skip

IDENTIFIERS = [
    ("s2:2116463213", "s2", "2116463213", ZIMING, "s2_id", "s2"),
    ("openalex:A5047541380", "openalex", "A5047541380", ZIMING, "openalex_id", "openalex"),
    ("orcid:" + ZIMING_ORCID, "orcid", ZIMING_ORCID, ZIMING, "orcid", "orcid"),
    ("s2:999999", "s2", "999999", MERGED_Z_LIU, "s2_id", "s2"),
    ("s2:144055906", "s2", "144055906", YOU, "s2_id", "s2"),
]


def _paper(key: str, title: str, published: date, categories: list[str], **props: Any) -> dict:
    row: dict[str, Any] = {
        "key": key, "arxiv_id": key, "doi": f"10.48550/arxiv.{key}", "title": title,
        "abstract": f"We study {title.lower()}.", "published": published,
        "year": published.year, "primary_category": categories[0], "citation_count": None,
        "n_authors": 0, "hyperauthored": False, "alphabetical": False, "versions": 1,
        "categories": categories,
    }  # fmt: skip
    row.update(props)
    return row


PAPERS: list[dict[str, Any]] = [
    _paper("2301.08658", "ATP: Adaptive Tensor Parallelism for Foundation Models",
           date(2023, 1, 20), ["cs.DC"], citation_count=12, n_authors=4, s2_id="a3f1"),
    _paper("astro-ph/9901001", "Dust in the Local Group", date(1999, 1, 4), ["astro-ph"],
           citation_count=40, n_authors=2),
    _paper("1905.00001", "Large batch optimization for deep learning", date(2019, 5, 1),
           ["cs.DC", "cs.LG"], citation_count=900, n_authors=2),
    _paper("1506.00002", "Communication-avoiding sparse solvers", date(2015, 6, 2),
           ["math.NA"], citation_count=50, n_authors=2),
    _paper("1203.00003", "Parallel sparse matrix multiplication", date(2012, 3, 3),
           ["cs.DS"], citation_count=300, n_authors=2),
    _paper("2004.00004", "Scaling attention to long sequences", date(2020, 4, 4),
           ["cs.LG"], citation_count=70, n_authors=2),
    _paper("2107.00007", "Adversarial training at scale", date(2021, 7, 7),
           ["cs.LG"], citation_count=None, n_authors=2),
    _paper("2105.00005", "Efficient neural architecture search", date(2021, 5, 5),
           ["cs.LG"], citation_count=20, n_authors=2),
    _paper("2109.00006", "Graph partitioning for vision transformers", date(2021, 9, 6),
           ["cs.CV", "cs.LG"], citation_count=5, n_authors=2),
    _paper("2210.00008", "Alphabet soup: a survey", date(2022, 10, 8), ["cs.DC"],
           citation_count=3, n_authors=4, alphabetical=True),
    _paper("2302.00009", "An unmatched coauthor", date(2023, 2, 9), ["cs.DC"],
           citation_count=1, n_authors=3),
]  # fmt: skip

# (researcher, paper, position, kind, method, confidence)
AUTHORSHIPS = [
    (CHENG, "2301.08658", 1, "first", "s2_id", 1.0),
    (ZIMING, "2301.08658", 2, "middle", "orcid", 1.0),
    (DU, "2301.08658", 3, "middle", "s2_id", 1.0),
    (YOU, "2301.08658", 4, "last", "s2_id", 1.0),
    (MOREAU, "astro-ph/9901001", 1, "first", "new", 1.0),
    (OKAFOR, "astro-ph/9901001", 2, "last", "new", 1.0),
    (YOU, "1905.00001", 1, "first", "s2_id", 1.0),
    (DEMMEL, "1905.00001", 2, "last", "s2_id", 1.0),
    (DEMMEL, "1506.00002", 1, "first", "s2_id", 1.0),
    (BULUC, "1506.00002", 2, "last", "s2_id", 1.0),
    (BULUC, "1203.00003", 1, "first", "name_score", 0.6),
    (GILBERT, "1203.00003", 2, "last", "s2_id", 1.0),
    (YOU, "2004.00004", 1, "first", "s2_id", 1.0),
    (HSIEH, "2004.00004", 2, "last", "s2_id", 1.0),
    (YOU, "2107.00007", 2, "last", "s2_id", 1.0),
    (HSIEH, "2107.00007", 1, "first", "s2_id", 1.0),
    (HSIEH, "2105.00005", 1, "first", "s2_id", 1.0),
    (KEUTZER, "2105.00005", 2, "last", "s2_id", 1.0),
    (KEUTZER, "2109.00006", 1, "first", "s2_id", 1.0),
    (GILBERT, "2109.00006", 2, "last", "s2_id", 1.0),
    (AHN, "2210.00008", 1, "first", "s2_id", 1.0),
    (BAKER, "2210.00008", 2, "middle", "s2_id", 1.0),
    (COLE, "2210.00008", 3, "middle", "s2_id", 1.0),
    (YOU, "2210.00008", 4, "last", "s2_id", 1.0),
    (YOU, "2302.00009", 1, "first", "s2_id", 1.0),
    (ZIMING_TJU, "2302.00009", 3, "last", "name_score", 0.9),
]
# (researcher, institution, source, first_year, last_year)
AFFILIATIONS = [
    (YOU, NUS, "openalex", 2021, 2023),
    (YOU, BERKELEY, "openalex", 2015, 2020),
    (ZIMING, NUS_SOC, "openalex", 2023, 2023),
    (ZIMING, NUS, "s2", 2023, 2023),
    (ZIMING_MIT, MIT, "openalex", 2020, 2025),
    (DEMMEL, BERKELEY, "openalex", 1990, 2024),
    (BULUC, BERKELEY, "openalex", 2010, 2024),
    (HSIEH, UCLA, "openalex", 2018, 2024),
    (KEUTZER, BERKELEY, "openalex", 1990, 2024),
]

_INSTITUTIONS = Query(
    "test_graphdata.institutions",
    """
    UNWIND $rows AS row
    CREATE (i:Institution {id: row.id, slug: toLower(replace(row.name, ' ', '-')),
                           name: row.name, ror_id: row.ror_id, acronyms: row.acronyms,
                           aliases: row.aliases, country_code: row.country_code,
                           types: row.types})
    SET i.names_text = reduce(t = '', x IN i.acronyms + i.aliases | t + ' ' + x)
    WITH count(*) AS done
    UNWIND $part_of AS link
    MATCH (child:Institution {id: link[0]}), (parent:Institution {id: link[1]})
    CREATE (child)-[:PART_OF]->(parent)
    """,
    "write",
)
_RESEARCHERS = Query(
    "test_graphdata.researchers",
    """
    UNWIND $rows AS row
    CREATE (r:Researcher)
    SET r = row, r.alt_names_text = reduce(t = '', x IN row.alt_names | t + ' ' + x)
    WITH count(*) AS done
    UNWIND $identifiers AS ident
    MATCH (r:Researcher {id: ident[3]})
    CREATE (:Identifier {key: ident[0], scheme: ident[1], value: ident[2]})
           -[:IDENTIFIES {method: ident[4], source: ident[5]}]->(r)
    """,
    "write",
)
_PAPERS = Query(
    "test_graphdata.papers",
    """
    UNWIND $rows AS row
    CREATE (p:Paper)
    SET p = row {.*, categories: null}
    """,
    "write",
)
_PAPER_LINKS = Query(
    "test_graphdata.paper_links",
    """
    UNWIND $rows AS row
    MATCH (p:Paper {key: row.key})
    UNWIND range(0, size(row.categories) - 1) AS i
    MATCH (c:Category {code: row.categories[i]})
    CREATE (p)-[:IN_CATEGORY {primary: i = 0}]->(c)
    WITH count(*) AS done
    UNWIND $authorships AS slot
    MATCH (r:Researcher {id: slot[0]}), (p:Paper {key: slot[1]})
    CREATE (r)-[:AUTHORED {position: slot[2], kind: slot[3], raw_name: r.name, source: 's2',
                           method: slot[4], confidence: slot[5], pinned: false}]->(p)
    WITH count(*) AS done
    UNWIND $affiliations AS aff
    MATCH (r:Researcher {id: aff[0]}), (i:Institution {id: aff[1]})
    CREATE (r)-[:AFFILIATED {source: aff[2], first_year: aff[3], last_year: aff[4]}]->(i)
    """,
    "write",
)
# COAUTHOR once per pair, lower id to higher, and the counts the loader would have written.
_DERIVED = Query(
    "test_graphdata.derived",
    """
    MATCH (a:Researcher)-[:AUTHORED]->(p:Paper)<-[:AUTHORED]-(b:Researcher)
    WHERE a.id < b.id AND NOT p.hyperauthored
    WITH a, b, count(p) AS n, min(p.year) AS first_year, max(p.year) AS last_year
    CREATE (a)-[:COAUTHOR {joint_papers: n, first_year: first_year, last_year: last_year}]->(b)
    WITH count(*) AS done
    MATCH (r:Researcher)-[:AUTHORED]->(p:Paper)
    WHERE r.paper_count = 0
    WITH r, count(p) AS n, sum(coalesce(p.citation_count, 0)) AS citations
    SET r.paper_count = n, r.citation_count = citations
    """,
    "write",
)


async def write_graph(db: Database) -> None:
    """Write the whole graph into a database the ``db`` fixture has just emptied."""
    await db.run(_INSTITUTIONS, {"rows": INSTITUTIONS, "part_of": PART_OF})
    await db.run(_RESEARCHERS, {"rows": RESEARCHERS, "identifiers": IDENTIFIERS})
    await db.run(_PAPERS, {"rows": PAPERS})
    await db.run(
        _PAPER_LINKS,
        {"rows": PAPERS, "authorships": AUTHORSHIPS, "affiliations": AFFILIATIONS},
    )
    await db.run(_DERIVED)
