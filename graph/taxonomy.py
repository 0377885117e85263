"""The arXiv category taxonomy: category → archive → group.

Codes are case-sensitive, written the way arXiv writes them (``cs.DC``, ``hep-th``,
``cond-mat.str-el``). Legacy categories from the early 1990s archives (``alg-geom``,
``chao-dyn``, ``cmp-lg`` …) are known but inactive; :func:`successor` names the category that
took them over. Six pairs of categories are aliases of each other; :func:`canonical` maps the
alias to the code arXiv lists the paper under.

>>> lookup("cs.DC").archive, lookup("cs.DC").group
('cs', 'Computer Science')
>>> lookup("astro-ph.CO").archive_name
'Astrophysics'
>>> lookup("physics.optics").group
'Physics'
>>> canonical("math.IT")
'cs.IT'
>>> successor("alg-geom")
'math.AG'
>>> is_known("CS.DC")
False
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from dataclasses import dataclass

from scholargraph.graph.errors import BadInput

COMPUTER_SCIENCE = "Computer Science"
ECONOMICS = "Economics"
EESS = "Electrical Engineering and Systems Science"
MATHEMATICS = "Mathematics"
PHYSICS = "Physics"
QUANTITATIVE_BIOLOGY = "Quantitative Biology"
QUANTITATIVE_FINANCE = "Quantitative Finance"
STATISTICS = "Statistics"

GROUPS = (
    COMPUTER_SCIENCE,
    ECONOMICS,
    EESS,
    MATHEMATICS,
    PHYSICS,
    QUANTITATIVE_BIOLOGY,
    QUANTITATIVE_FINANCE,
    STATISTICS,
)


@dataclass(frozen=True, slots=True)
class ArchiveInfo:
    code: str
    name: str
    group: str
    active: bool


@dataclass(frozen=True, slots=True)
class CategoryInfo:
    code: str
    name: str
    archive: str
    archive_name: str
    group: str
    active: bool


# Subdivided archives: code, name, group, then (subject class, category name) pairs.
_SUBDIVIDED: tuple[tuple[str, str, str, tuple[tuple[str, str], ...]], ...] = (
    (
        "cs",
        COMPUTER_SCIENCE,
        COMPUTER_SCIENCE,
        (
            ("AI", "Artificial Intelligence"),
            ("AR", "Hardware Architecture"),
            ("CC", "Computational Complexity"),
            ("CE", "Computational Engineering, Finance, and Science"),
            ("CG", "Computational Geometry"),
            ("CL", "Computation and Language"),
            ("CR", "Cryptography and Security"),
            ("CV", "Computer Vision and Pattern Recognition"),
            ("CY", "Computers and Society"),
            ("DB", "Databases"),
            ("DC", "Distributed, Parallel, and Cluster Computing"),
            ("DL", "Digital Libraries"),
            ("DM", "Discrete Mathematics"),
            ("DS", "Data Structures and Algorithms"),
            ("ET", "Emerging Technologies"),
            ("FL", "Formal Languages and Automata Theory"),
            ("GL", "General Literature"),
            ("GR", "Graphics"),
            ("GT", "Computer Science and Game Theory"),
            ("HC", "Human-Computer Interaction"),
            ("IR", "Information Retrieval"),
            ("IT", "Information Theory"),
            ("LG", "Machine Learning"),
            ("LO", "Logic in Computer Science"),
            ("MA", "Multiagent Systems"),
            ("MM", "Multimedia"),
            ("MS", "Mathematical Software"),
            ("NA", "Numerical Analysis"),
            ("NE", "Neural and Evolutionary Computing"),
            ("NI", "Networking and Internet Architecture"),
            ("OH", "Other Computer Science"),
            ("OS", "Operating Systems"),
            ("PF", "Performance"),
            ("PL", "Programming Languages"),
            ("RO", "Robotics"),
            ("SC", "Symbolic Computation"),
            ("SD", "Sound"),
            ("SE", "Software Engineering"),
            ("SI", "Social and Information Networks"),
            ("SY", "Systems and Control"),
        ),
    ),
    (
        "econ",
        ECONOMICS,
        ECONOMICS,
        (
            ("EM", "Econometrics"),
            ("GN", "General Economics"),
            ("TH", "Theoretical Economics"),
        ),
    ),
    (
        "eess",
        EESS,
        EESS,
        (
            ("AS", "Audio and Speech Processing"),
            ("IV", "Image and Video Processing"),
            ("SP", "Signal Processing"),
            ("SY", "Systems and Control"),
        ),
    ),
    (
        "math",
        MATHEMATICS,
        MATHEMATICS,
        (
            ("AC", "Commutative Algebra"),
            ("AG", "Algebraic Geometry"),
            ("AP", "Analysis of PDEs"),
            ("AT", "Algebraic Topology"),
            ("CA", "Classical Analysis and ODEs"),
            ("CO", "Combinatorics"),
            ("CT", "Category Theory"),
            ("CV", "Complex Variables"),
            ("DG", "Differential Geometry"),
            ("DS", "Dynamical Systems"),
            ("FA", "Functional Analysis"),
            ("GM", "General Mathematics"),
            ("GN", "General Topology"),
            ("GR", "Group Theory"),
            ("GT", "Geometric Topology"),
            ("HO", "History and Overview"),
            ("IT", "Information Theory"),
            ("KT", "K-Theory and Homology"),
            ("LO", "Logic"),
            ("MG", "Metric Geometry"),
            ("MP", "Mathematical Physics"),
            ("NA", "Numerical Analysis"),
            ("NT", "Number Theory"),
            ("OA", "Operator Algebras"),
            ("OC", "Optimization and Control"),
            ("PR", "Probability"),
            ("QA", "Quantum Algebra"),
            ("RA", "Rings and Algebras"),
            ("RT", "Representation Theory"),
            ("SG", "Symplectic Geometry"),
            ("SP", "Spectral Theory"),
            ("ST", "Statistics Theory"),
        ),
    ),
    (
        "astro-ph",
        "Astrophysics",
        PHYSICS,
        (
            ("CO", "Cosmology and Nongalactic Astrophysics"),
            ("EP", "Earth and Planetary Astrophysics"),
            ("GA", "Astrophysics of Galaxies"),
            ("HE", "High Energy Astrophysical Phenomena"),
            ("IM", "Instrumentation and Methods for Astrophysics"),
            ("SR", "Solar and Stellar Astrophysics"),
        ),
    ),
    (
        "cond-mat",
        "Condensed Matter",
        PHYSICS,
        (
            ("dis-nn", "Disordered Systems and Neural Networks"),
            ("mes-hall", "Mesoscale and Nanoscale Physics"),
            ("mtrl-sci", "Materials Science"),
            ("other", "Other Condensed Matter"),
            ("quant-gas", "Quantum Gases"),
            ("soft", "Soft Condensed Matter"),
            ("stat-mech", "Statistical Mechanics"),
            ("str-el", "Strongly Correlated Electrons"),
            ("supr-con", "Superconductivity"),
        ),
    ),
    (
        "nlin",
        "Nonlinear Sciences",
        PHYSICS,
        (
            ("AO", "Adaptation and Self-Organizing Systems"),
            ("CD", "Chaotic Dynamics"),
            ("CG", "Cellular Automata and Lattice Gases"),
            ("PS", "Pattern Formation and Solitons"),
            ("SI", "Exactly Solvable and Integrable Systems"),
        ),
    ),
    (
        "physics",
        PHYSICS,
        PHYSICS,
        (
            ("acc-ph", "Accelerator Physics"),
            ("ao-ph", "Atmospheric and Oceanic Physics"),
            ("app-ph", "Applied Physics"),
            ("atm-clus", "Atomic and Molecular Clusters"),
            ("atom-ph", "Atomic Physics"),
            ("bio-ph", "Biological Physics"),
            ("chem-ph", "Chemical Physics"),
            ("class-ph", "Classical Physics"),
            ("comp-ph", "Computational Physics"),
            ("data-an", "Data Analysis, Statistics and Probability"),
            ("ed-ph", "Physics Education"),
            ("flu-dyn", "Fluid Dynamics"),
            ("gen-ph", "General Physics"),
            ("geo-ph", "Geophysics"),
            ("hist-ph", "History and Philosophy of Physics"),
            ("ins-det", "Instrumentation and Detectors"),
            ("med-ph", "Medical Physics"),
            ("optics", "Optics"),
            ("plasm-ph", "Plasma Physics"),
            ("pop-ph", "Popular Physics"),
            ("soc-ph", "Physics and Society"),
            ("space-ph", "Space Physics"),
        ),
    ),
    (
        "q-bio",
        QUANTITATIVE_BIOLOGY,
        QUANTITATIVE_BIOLOGY,
        (
            ("BM", "Biomolecules"),
            ("CB", "Cell Behavior"),
            ("GN", "Genomics"),
            ("MN", "Molecular Networks"),
            ("NC", "Neurons and Cognition"),
            ("OT", "Other Quantitative Biology"),
            ("PE", "Populations and Evolution"),
            ("QM", "Quantitative Methods"),
            ("SC", "Subcellular Processes"),
            ("TO", "Tissues and Organs"),
        ),
    ),
    (
        "q-fin",
        QUANTITATIVE_FINANCE,
        QUANTITATIVE_FINANCE,
        (
            ("CP", "Computational Finance"),
            ("EC", "Economics"),
            ("GN", "General Finance"),
            ("MF", "Mathematical Finance"),
            ("PM", "Portfolio Management"),
            ("PR", "Pricing of Securities"),
            ("RM", "Risk Management"),
            ("ST", "Statistical Finance"),
            ("TR", "Trading and Market Microstructure"),
        ),
    ),
    (
        "stat",
        STATISTICS,
        STATISTICS,
        (
            ("AP", "Applications"),
            ("CO", "Computation"),
            ("ME", "Methodology"),
            ("ML", "Machine Learning"),
            ("OT", "Other Statistics"),
            ("TH", "Statistics Theory"),
        ),
    ),
)

# Archives that are themselves the category (hep-th papers carry the category "hep-th").
_UNDIVIDED: tuple[tuple[str, str], ...] = (
    ("gr-qc", "General Relativity and Quantum Cosmology"),
    ("hep-ex", "High Energy Physics - Experiment"),
    ("hep-lat", "High Energy Physics - Lattice"),
    ("hep-ph", "High Energy Physics - Phenomenology"),
    ("hep-th", "High Energy Physics - Theory"),
    ("math-ph", "Mathematical Physics"),
    ("nucl-ex", "Nuclear Experiment"),
    ("nucl-th", "Nuclear Theory"),
    ("quant-ph", "Quantum Physics"),
)

# Closed archives of the 1990s: code, name, group, the category that absorbed them.
_LEGACY: tuple[tuple[str, str, str, str], ...] = (
    ("acc-phys", "Accelerator Physics", PHYSICS, "physics.acc-ph"),
    ("adap-org", "Adaptation, Noise, and Self-Organizing Systems", PHYSICS, "nlin.AO"),
    ("alg-geom", "Algebraic Geometry", MATHEMATICS, "math.AG"),
    ("ao-sci", "Atmospheric-Oceanic Sciences", PHYSICS, "physics.ao-ph"),
    ("atom-ph", "Atomic, Molecular and Optical Physics", PHYSICS, "physics.atom-ph"),
    ("bayes-an", "Bayesian Analysis", PHYSICS, "physics.data-an"),
    ("chao-dyn", "Chaotic Dynamics", PHYSICS, "nlin.CD"),
    ("chem-ph", "Chemical Physics", PHYSICS, "physics.chem-ph"),
    ("cmp-lg", "Computation and Language", COMPUTER_SCIENCE, "cs.CL"),
    ("comp-gas", "Cellular Automata and Lattice Gases", PHYSICS, "nlin.CG"),
    ("dg-ga", "Differential Geometry", MATHEMATICS, "math.DG"),
    ("funct-an", "Functional Analysis", MATHEMATICS, "math.FA"),
    ("mtrl-th", "Materials Theory", PHYSICS, "cond-mat.mtrl-sci"),
    ("patt-sol", "Pattern Formation and Solitons", PHYSICS, "nlin.PS"),
    ("plasm-ph", "Plasma Physics", PHYSICS, "physics.plasm-ph"),
    ("q-alg", "Quantum Algebra and Topology", MATHEMATICS, "math.QA"),
    ("solv-int", "Exactly Solvable and Integrable Systems", PHYSICS, "nlin.SI"),
    ("supr-con", "Superconductivity", PHYSICS, "cond-mat.supr-con"),
)

# Before astro-ph (2009) and cond-mat (late 1990s) were split into subject classes, papers
# carried the bare archive code as their category; it is no longer offered on submission.
_UNSPLIT_ARCHIVE_CATEGORIES = ("astro-ph", "cond-mat")

# Each pair is the same category under two codes; papers are listed under the second.
_ALIASES: dict[str, str] = {
    "math.IT": "cs.IT",
    "math.MP": "math-ph",
    "stat.TH": "math.ST",
    "q-fin.EC": "econ.GN",
    "cs.SY": "eess.SY",
    "cs.NA": "math.NA",
}


def _build() -> tuple[dict[str, ArchiveInfo], dict[str, CategoryInfo], dict[str, str]]:
    archives: dict[str, ArchiveInfo] = {}
    categories: dict[str, CategoryInfo] = {}
    successors: dict[str, str] = {}

    def add(code: str, name: str, archive: ArchiveInfo, active: bool) -> None:
        categories[code] = CategoryInfo(
            code, name, archive.code, archive.name, archive.group, active
        )

    for code, name, group, subjects in _SUBDIVIDED:
        archive = archives[code] = ArchiveInfo(code, name, group, active=True)
        if code in _UNSPLIT_ARCHIVE_CATEGORIES:
            add(code, name, archive, active=False)
        for subject, category_name in subjects:
            add(f"{code}.{subject}", category_name, archive, active=True)
    for code, name in _UNDIVIDED:
        archive = archives[code] = ArchiveInfo(code, name, PHYSICS, active=True)
        add(code, name, archive, active=True)
    for code, name, group, replaced_by in _LEGACY:
        archive = archives[code] = ArchiveInfo(code, name, group, active=False)
        add(code, name, archive, active=False)
        successors[code] = replaced_by
    return archives, categories, successors


_ARCHIVES, _CATEGORIES, _SUCCESSORS = _build()


def _unknown(code: str, kind: str, known: dict[str, ArchiveInfo] | dict[str, CategoryInfo]) -> str:
    same_but_case = [known_code for known_code in known if known_code.lower() == code.lower()]
    suggestions = same_but_case or difflib.get_close_matches(code, list(known), n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(map(repr, suggestions))}?" if suggestions else ""
    return (
        f"{code!r} is not an arXiv {kind}{hint} "
        "Codes are case-sensitive as arXiv writes them, e.g. cs.DC, hep-th, math.CO, "
        "astro-ph.CO, physics.optics."
    )


def lookup(code: str) -> CategoryInfo:
    try:
        return _CATEGORIES[code]
    except KeyError:
        raise BadInput(_unknown(code, "category", _CATEGORIES)) from None


def lookup_archive(code: str) -> ArchiveInfo:
    try:
        return _ARCHIVES[code]
    except KeyError:
        raise BadInput(_unknown(code, "archive", _ARCHIVES)) from None


def is_known(code: str) -> bool:
    return code in _CATEGORIES


def is_archive(code: str) -> bool:
    return code in _ARCHIVES


def all_categories() -> Iterator[CategoryInfo]:
    return iter(_CATEGORIES.values())


def all_archives() -> Iterator[ArchiveInfo]:
    return iter(_ARCHIVES.values())


def canonical(code: str) -> str:
    """The code a category is listed under: aliases map to their partner, others to themselves.

    >>> canonical("cs.SY"), canonical("stat.TH"), canonical("hep-th")
    ('eess.SY', 'math.ST', 'hep-th')
    """
    lookup(code)
    return _ALIASES.get(code, code)


def aliases_of(code: str) -> tuple[str, ...]:
    """Every other code naming the same category (``cs.IT`` → ``('math.IT',)``)."""
    target = canonical(code)
    names = {target, *(alias for alias, partner in _ALIASES.items() if partner == target)}
    names.discard(code)
    return tuple(sorted(names))


def successor(code: str) -> str | None:
    """For a closed 1990s archive, the active category that took its papers over."""
    lookup(code)
    return _SUCCESSORS.get(code)
