"""Research fields of the synthetic corpus: which arXiv categories they use, when they grew,
how large their teams are and whether they list authors alphabetically.

Categories are written in their modern form; :func:`category_in_year` turns them into the code
a paper of that year actually carried (``math.AG`` in 1995 was ``alg-geom``, ``astro-ph.CO``
before 2009 was plain ``astro-ph``) or ``None`` when the category did not exist yet.
"""

from __future__ import annotations

from dataclasses import dataclass

from scholargraph.graph.demo.sampling import Table

Weighted = tuple[tuple[str, float], ...]


def _weighted(spec: str) -> Weighted:
    """``"cs.LG:5 cs.CV:4"`` → ``(("cs.LG", 5.0), ("cs.CV", 4.0))``."""
    pairs = (item.rsplit(":", 1) for item in spec.split())
    return tuple((code, float(weight)) for code, weight in pairs)


@dataclass(frozen=True, slots=True)
class Field:
    key: str
    first_year: int
    weight: float  # share of papers around 2010
    growth: float  # yearly exponential growth of that share
    primaries: Weighted
    cross_lists: Weighted
    team_median: float
    team_spread: float  # sigma of the log-normal team size
    large_team_rate: float  # chance of a 20–60 author paper
    alphabetical_rate: float  # chance that a paper lists authors alphabetically
    hyperauthor: bool = False  # hosts collaborations with hundreds of authors
    journal_doi_prefix: str = "10.1007"


FIELDS: tuple[Field, ...] = (
    Field(
        "machine-learning",
        1998,
        1.0,
        0.1,
        _weighted(
            "cs.LG:5 cs.CV:4 cs.CL:3 cs.AI:2 stat.ML:1.5 cs.RO:0.8 cs.IR:0.6 cs.NE:0.4 cs.HC:0.4"
        ),
        _weighted(
            "cs.LG:4 cs.AI:3 stat.ML:2 cs.CV:1 cs.CL:1 cs.NE:0.5 cs.MA:0.3 math.OC:0.4 cs.DC:0.4 "
            "q-bio.QM:0.1"
        ),
        4.5,
        0.5,
        0.02,
        0.03,
        journal_doi_prefix="10.1109",
    ),
    Field(
        "systems",
        1995,
        0.5,
        0.09,
        _weighted(
            "cs.DC:3 cs.CR:3 cs.NI:2.5 cs.SE:2.5 cs.DB:1.5 cs.PL:1.5 cs.AR:0.8 cs.OS:0.5 cs.PF:0.5 "
            "cs.ET:0.3"
        ),
        _weighted("cs.LG:1.5 cs.DC:1 cs.PF:0.6 cs.SE:0.6 cs.CY:0.4"),
        4.0,
        0.45,
        0.01,
        0.05,
        journal_doi_prefix="10.1145",
    ),
    Field(
        "theory-cs",
        1995,
        0.3,
        0.07,
        _weighted("cs.DS:3 cs.CC:2 cs.LO:2 cs.GT:1.5 cs.FL:1 cs.DM:1 cs.CG:0.8"),
        _weighted("math.CO:2 cs.DM:1.5 cs.DS:1 math.LO:0.6 econ.TH:0.3"),
        2.6,
        0.4,
        0.0,
        0.6,
        journal_doi_prefix="10.1137",
    ),
    Field(
        "hep-theory",
        1992,
        0.45,
        0.0,
        _weighted("hep-th:6 gr-qc:2.5 math-ph:1"),
        _weighted("hep-ph:2 gr-qc:1.5 math-ph:1 math.AG:0.3 cond-mat.str-el:0.3"),
        2.2,
        0.45,
        0.0,
        0.9,
        journal_doi_prefix="10.1007",
    ),
    Field(
        "hep-phenomenology",
        1992,
        0.45,
        0.0,
        _weighted("hep-ph:6 hep-lat:1.5 nucl-th:1.5"),
        _weighted("hep-ex:2 hep-th:1.5 astro-ph.CO:0.8 nucl-th:0.6"),
        3.0,
        0.45,
        0.01,
        0.3,
        journal_doi_prefix="10.1103",
    ),
    Field(
        "hep-experiment",
        1994,
        0.14,
        0.02,
        _weighted("hep-ex:6 nucl-ex:2 physics.ins-det:1.5 physics.acc-ph:0.6"),
        _weighted("hep-ph:3 physics.ins-det:1 nucl-ex:0.6"),
        6.0,
        0.6,
        0.15,
        0.4,
        hyperauthor=True,
        journal_doi_prefix="10.1103",
    ),
    Field(
        "astrophysics",
        1992,
        0.65,
        0.03,
        _weighted(
            "astro-ph.GA:4 astro-ph.CO:3 astro-ph.SR:3 astro-ph.HE:2.5 astro-ph.EP:1.5 "
            "astro-ph.IM:1"
        ),
        _weighted("astro-ph.GA:1 astro-ph.CO:1 gr-qc:0.8 astro-ph.IM:0.6"),
        5.0,
        0.6,
        0.1,
        0.05,
        hyperauthor=True,
        journal_doi_prefix="10.3847",
    ),
    Field(
        "condensed-matter",
        1992,
        0.75,
        0.03,
        _weighted(
            "cond-mat.mes-hall:3 cond-mat.str-el:3 cond-mat.mtrl-sci:3 cond-mat.stat-mech:2 "
            "cond-mat.supr-con:1.5 cond-mat.soft:1.5 cond-mat.quant-gas:1 cond-mat.dis-nn:0.7 "
            "cond-mat.other:0.3"
        ),
        _weighted(
            "cond-mat.mtrl-sci:1 cond-mat.str-el:1 physics.app-ph:0.7 quant-ph:0.6 "
            "cond-mat.stat-mech:0.5"
        ),
        4.0,
        0.5,
        0.02,
        0.05,
        journal_doi_prefix="10.1103",
    ),
    Field(
        "quantum",
        1994,
        0.4,
        0.07,
        _weighted("quant-ph:6 physics.optics:1.5 physics.atom-ph:1"),
        _weighted("cond-mat.quant-gas:0.8 physics.optics:1 cs.IT:0.4 cond-mat.mes-hall:0.6"),
        3.5,
        0.5,
        0.02,
        0.1,
        journal_doi_prefix="10.1103",
    ),
    Field(
        "pure-mathematics",
        1992,
        0.65,
        0.04,
        _weighted(
            "math.AG:3 math.NT:3 math.CO:3 math.GT:1.5 math.DG:1.5 math.RT:1.5 math.GR:1.2 "
            "math.AT:1 math.QA:1 math.RA:0.8 math.AC:0.8 math.LO:0.8 math.SG:0.5 math.KT:0.4 "
            "math.CT:0.4 math.MG:0.4 math.OA:0.6 math.GN:0.2 math.HO:0.2 math.GM:0.1"
        ),
        _weighted("math.AG:1 math.NT:1 math.RT:1 math.CO:0.8 math-ph:0.4"),
        1.7,
        0.4,
        0.0,
        0.85,
        journal_doi_prefix="10.1007",
    ),
    Field(
        "analysis-probability",
        1992,
        0.55,
        0.05,
        _weighted(
            "math.AP:3 math.PR:3 math.OC:2 math.NA:2 math.DS:1.5 math.FA:1.5 math.CA:1 math.CV:0.8 "
            "math.SP:0.5"
        ),
        _weighted("math.PR:0.8 math-ph:0.8 math.FA:0.6 math.DS:0.5 cs.LG:0.3"),
        1.9,
        0.4,
        0.0,
        0.8,
        journal_doi_prefix="10.1016",
    ),
    Field(
        "statistics",
        2007,
        0.3,
        0.08,
        _weighted("stat.ME:4 math.ST:3 stat.AP:2.5 stat.ML:2 stat.CO:1 stat.OT:0.2"),
        _weighted("stat.ML:1.5 cs.LG:1 econ.EM:0.3 q-bio.QM:0.4 stat.ME:1"),
        2.6,
        0.45,
        0.01,
        0.2,
        journal_doi_prefix="10.1080",
    ),
    Field(
        "quantitative-biology",
        2003,
        0.15,
        0.05,
        _weighted(
            "q-bio.NC:3 q-bio.PE:3 q-bio.QM:2.5 q-bio.BM:2 q-bio.MN:1 q-bio.GN:1 q-bio.CB:0.6 "
            "q-bio.TO:0.5 q-bio.SC:0.4 q-bio.OT:0.2"
        ),
        _weighted("physics.bio-ph:1.5 cs.LG:0.6 stat.AP:0.4 cond-mat.soft:0.4"),
        4.0,
        0.5,
        0.03,
        0.05,
        journal_doi_prefix="10.1371",
    ),
    Field(
        "quantitative-finance",
        2008,
        0.08,
        0.04,
        _weighted(
            "q-fin.MF:3 q-fin.ST:2.5 q-fin.PR:2 q-fin.RM:2 q-fin.CP:1.5 q-fin.PM:1.5 q-fin.TR:1.5 "
            "q-fin.GN:1"
        ),
        _weighted("math.PR:1 econ.GN:0.6 stat.ME:0.4 math.OC:0.6"),
        2.0,
        0.4,
        0.0,
        0.4,
        journal_doi_prefix="10.1080",
    ),
    Field(
        "economics",
        2017,
        0.12,
        0.1,
        _weighted("econ.EM:3 econ.GN:3 econ.TH:2"),
        _weighted("stat.ME:0.8 cs.GT:0.6 q-fin.GN:0.4"),
        2.0,
        0.4,
        0.0,
        0.6,
        journal_doi_prefix="10.3982",
    ),
    Field(
        "signals-systems",
        1998,
        0.35,
        0.09,
        _weighted("eess.SP:3 eess.IV:2 eess.AS:1.5 eess.SY:2 cs.IT:3 cs.SD:0.8 cs.MM:0.4"),
        _weighted("cs.LG:1.5 math.OC:1 eess.SP:1 cs.NI:0.5 cs.SY:0.3"),
        3.8,
        0.45,
        0.01,
        0.05,
        journal_doi_prefix="10.1109",
    ),
    Field(
        "general-physics",
        1993,
        0.5,
        0.04,
        _weighted(
            "physics.flu-dyn:2.5 physics.comp-ph:1.5 physics.soc-ph:1.5 physics.chem-ph:1.5 "
            "physics.plasm-ph:1.2 physics.ao-ph:1 physics.geo-ph:0.8 physics.bio-ph:1 "
            "physics.data-an:0.6 physics.class-ph:0.5 physics.space-ph:0.5 physics.med-ph:0.6 "
            "physics.atm-clus:0.3 physics.gen-ph:0.4 physics.hist-ph:0.3 physics.ed-ph:0.3 "
            "physics.pop-ph:0.1 nlin.CD:1.2 nlin.SI:1 nlin.PS:0.8 nlin.AO:0.6 nlin.CG:0.3"
        ),
        _weighted("nlin.CD:0.6 cond-mat.stat-mech:1 physics.comp-ph:0.6 math.DS:0.5"),
        3.0,
        0.45,
        0.01,
        0.1,
        journal_doi_prefix="10.1103",
    ),
)

FIELD_BY_KEY = {field.key: field for field in FIELDS}
PRIMARY_TABLES = tuple(Table(field.primaries) for field in FIELDS)
CROSS_LIST_TABLES = tuple(Table(field.cross_lists) for field in FIELDS)

# Modern category → (closed archive that held its papers, first year, year it took over).
_LEGACY: dict[str, tuple[str, int, int]] = {
    "math.AG": ("alg-geom", 1992, 1998),
    "math.DG": ("dg-ga", 1994, 1998),
    "math.FA": ("funct-an", 1992, 1998),
    "math.QA": ("q-alg", 1994, 1998),
    "cs.CL": ("cmp-lg", 1994, 1998),
    "nlin.AO": ("adap-org", 1993, 2000),
    "nlin.CD": ("chao-dyn", 1993, 2000),
    "nlin.CG": ("comp-gas", 1993, 2000),
    "nlin.PS": ("patt-sol", 1993, 2000),
    "nlin.SI": ("solv-int", 1993, 2000),
    "cond-mat.supr-con": ("supr-con", 1994, 1997),
    "cond-mat.mtrl-sci": ("mtrl-th", 1994, 1997),
    "physics.acc-ph": ("acc-phys", 1994, 1997),
    "physics.ao-ph": ("ao-sci", 1995, 1997),
    "physics.atom-ph": ("atom-ph", 1995, 1997),
    "physics.chem-ph": ("chem-ph", 1994, 1997),
    "physics.data-an": ("bayes-an", 1995, 1997),
    "physics.plasm-ph": ("plasm-ph", 1995, 1997),
}

# Archive (or category) → first year it accepted papers; later than 1992 only.
_FIRST_YEAR: dict[str, int] = {
    "cs": 1993,
    "physics": 1997,
    "nlin": 2000,
    "q-bio": 2003,
    "stat": 2007,
    "q-fin": 2008,
    "econ": 2017,
    "eess": 2017,
    "hep-ex": 1994,
    "nucl-ex": 1994,
    "quant-ph": 1994,
    "math-ph": 1996,
    "physics.app-ph": 2016,
    "cond-mat.quant-gas": 2008,
}


def category_in_year(code: str, year: int) -> str | None:
    legacy = _LEGACY.get(code)
    if legacy and legacy[1] <= year < legacy[2]:
        return legacy[0]
    if code.startswith("astro-ph.") and year < 2009:
        return "astro-ph"
    if code.startswith("cond-mat.") and year < 1997:
        return "cond-mat"
    if legacy and year < legacy[2]:  # before its closed archive opened: not on arXiv yet
        return None
    archive = code.split(".", 1)[0]
    if year < _FIRST_YEAR.get(code, _FIRST_YEAR.get(archive, 1992)):
        return None
    return code
