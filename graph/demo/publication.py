"""Where a synthetic paper was published, how it was licensed and what its comments say."""

from __future__ import annotations

from random import Random

from scholargraph.graph.demo.sampling import Table

# DOI prefix → (journal as written in journal-ref, DOI suffix pattern)
_JOURNALS: dict[str, tuple[tuple[str, str], ...]] = {
    "10.1103": (
        ("Phys. Rev. D", "PhysRevD.{vol}.{num:06d}"),
        ("Phys. Rev. B", "PhysRevB.{vol}.{num:06d}"),
        ("Phys. Rev. Lett.", "PhysRevLett.{vol}.{num:06d}"),
    ),
    "10.1007": (
        ("JHEP", "JHEP{month:02d}({year}){num3:03d}"),
        ("Commun. Math. Phys.", "s00220-{yy:03d}-{num5:05d}-{d}"),
        ("Invent. Math.", "s00222-{yy:03d}-{num5:05d}-{d}"),
    ),
    "10.1016": (
        ("Phys. Lett. B", "j.physletb.{year}.{num:06d}"),
        ("J. Funct. Anal.", "j.jfa.{year}.{num:06d}"),
        ("Adv. Math.", "j.aim.{year}.{num:06d}"),
    ),
    "10.1109": (
        ("IEEE Trans. Pattern Anal. Mach. Intell.", "TPAMI.{year}.{num7:07d}"),
        ("IEEE Trans. Inf. Theory", "TIT.{year}.{num7:07d}"),
        ("IEEE Trans. Signal Process.", "TSP.{year}.{num7:07d}"),
    ),
    "10.1145": (("Proc. ACM Program. Lang.", "{num7:07d}.{num7b:07d}"),),
    "10.3847": (
        ("Astrophys. J.", "1538-4357/a{hex}"),
        ("Astron. J.", "1538-3881/a{hex}"),
    ),
    "10.1137": (("SIAM J. Comput.", "{yy2:02d}M{num7:07d}"),),
    "10.1080": (("J. Amer. Statist. Assoc.", "01621459.{year}.{num7:07d}"),),
    "10.1371": (("PLoS Comput. Biol.", "journal.pcbi.{num7:07d}"),),
    "10.3982": (("Econometrica", "ECTA{num5:05d}"),),
}

_LICENSES = Table(
    (
        ("http://arxiv.org/licenses/nonexclusive-distrib/1.0/", 0.7),
        ("http://creativecommons.org/licenses/by/4.0/", 0.17),
        ("http://creativecommons.org/licenses/by-nc-sa/4.0/", 0.05),
        ("http://creativecommons.org/licenses/by-nc-nd/4.0/", 0.05),
        ("http://creativecommons.org/publicdomain/zero/1.0/", 0.03),
    )
)
_CONFERENCES = ("NeurIPS", "ICML", "ICLR", "CVPR", "ACL", "SIGMOD", "OSDI", "STOC", "ICASSP")


def journal_publication(rng: Random, prefix: str, year: int) -> tuple[str, str]:
    """(journal DOI, journal-ref) of the published version."""
    journal, pattern = rng.choice(_JOURNALS[prefix])
    published = year + rng.choice((0, 0, 1, 1, 2))
    volume = max(1, published - 1970 + rng.randint(0, 40))
    suffix = pattern.format(
        vol=volume,
        num=rng.randint(1, 999_999),
        num3=rng.randint(1, 299),
        num5=rng.randint(1, 99_999),
        num7=rng.randint(1, 9_999_999),
        num7b=rng.randint(1, 9_999_999),
        month=rng.randint(1, 12),
        year=published,
        yy=published % 1000,
        yy2=published % 100,
        d=rng.randint(0, 9),
        hex=f"{rng.randrange(16**4):04x}",
    )
    reference = f"{journal} {volume} ({published}) {rng.randint(1, 3000)}"
    return f"{prefix}/{suffix}", reference


def license_for(rng: Random, year: int) -> str | None:
    if year < 2004:  # arXiv recorded no licence before 2004
        return None
    return _LICENSES.pick(rng)


def comments_for(rng: Random, field_key: str, year: int) -> str | None:
    draw = rng.random()
    if draw < 0.25:
        return None
    if field_key in ("machine-learning", "systems", "theory-cs") and draw < 0.4:
        return f"Accepted at {rng.choice(_CONFERENCES)} {year + 1}"
    pages = rng.randint(4, 60)
    figures = rng.randint(0, 20)
    return f"{pages} pages, {figures} figures" if figures else f"{pages} pages"
