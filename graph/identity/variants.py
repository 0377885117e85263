"""First-name variants: nicknames and transliterations that one person may publish under.

Variants are pairs, not classes: ``alex``~``alexander`` and ``alexander``~``sasha`` do not make
``alex``~``sasha``, because chaining nickname tables merges unrelated names.

The built-in table is small and hand-written. A larger table can be read from a file of
comma-separated pairs, one a line (the format of S2AND's ``s2and_name_tuples.txt``)::

    christopher,chris
    alexander,alex

>>> DEFAULT_VARIANTS.are_variants("Bob", "robert")
True
>>> DEFAULT_VARIANTS.are_variants("bob", "bill")
False
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from pathlib import Path

from scholargraph.graph.errors import BadInput

# Each line is a group of forms of one given name; every two forms in a group are variants.
_ENGLISH = """
robert rob bob bobby robbie
william will bill billy willy
richard rick dick rich richie
james jim jimmy jamie
john jack johnny
joseph joe joey
michael mike mick mickey
thomas tom tommy
charles charlie chuck
christopher chris kit
christine chris christina
daniel dan danny
david dave davy
edward ed eddie ted ned
elizabeth liz beth betty eliza lisa
katherine kate kathy katie catherine cathy kathryn
margaret maggie meg peggy
patricia pat patty trish
patrick pat paddy
andrew andy drew
anthony tony
alexander alex sasha
alexandra alex sandra
benjamin ben benny
nicholas nick nicolas
nathaniel nate nathan
jonathan jon jonny
samuel sam sammy
samantha sam
stephen steve steven
matthew matt mathew
timothy tim
gregory greg
jeffrey jeff geoffrey
kenneth ken kenny
lawrence larry laurence
leonard leo len lenny
peter pete
philip phil phillip
raymond ray
ronald ron ronnie
donald don donny
douglas doug
frederick fred freddie frederic
gerald gerry jerry
harold hal harry
henry hank harry
jennifer jen jenny
jessica jess jessie
deborah debbie deb
susan sue susie suzanne
rebecca becky
victoria vicky
zachary zach
"""

# Spellings of one given name across transliteration systems (not nicknames).
_TRANSLITERATIONS = """
mohammed mohammad muhammad mohamed mohamad muhammed
ahmed ahmad
hussein husain hussain husein
yuri yury yurii iurii juri
alexey alexei aleksei aleksey
sergey sergei sergej
dmitry dmitri dmitrii dmitriy
andrey andrei andrej
nikolay nikolai
evgeny evgenii yevgeny evgeniy
mikhail michail
vladimir wladimir
olga olha
tatiana tatyana
natalia natalya nataliya
lu lv lyu
nu nv nyu
lue lve lyue
"""


def _fold(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name.strip().lower())
    return "".join(ch for ch in decomposed if ch.isascii() and ch.isalpha())


class NameVariants:
    """A symmetric set of given-name pairs known to name one person. Immutable once built."""

    __slots__ = ("_pairs",)

    def __init__(self, pairs: Iterable[tuple[str, str]] = ()) -> None:
        folded = ((_fold(a), _fold(b)) for a, b in pairs)
        self._pairs: frozenset[tuple[str, str]] = frozenset(
            pair for a, b in folded if a and b and a != b for pair in ((a, b), (b, a))
        )

    @classmethod
    def from_groups(cls, text: str) -> NameVariants:
        pairs: list[tuple[str, str]] = []
        for line in text.splitlines():
            forms = line.split()
            pairs.extend((a, b) for i, a in enumerate(forms) for b in forms[i + 1 :])
        return cls(pairs)

    def are_variants(self, a: str, b: str) -> bool:
        return (_fold(a), _fold(b)) in self._pairs

    def union(self, other: NameVariants) -> NameVariants:
        merged = NameVariants()
        merged._pairs = self._pairs | other._pairs
        return merged

    def __len__(self) -> int:
        """Number of unordered pairs."""
        return len(self._pairs) // 2


def load_variant_pairs(path: Path | str) -> NameVariants:
    """Read a file of ``name,name`` lines (blank lines and ``#`` comments are skipped)."""
    pairs: list[tuple[str, str]] = []
    with Path(path).open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            fields = [f.strip() for f in text.split(",")]
            if len(fields) != 2 or not all(fields):
                raise BadInput(
                    f"{path}:{number}: expected two names separated by a comma, got {text!r}"
                )
            pairs.append((fields[0], fields[1]))
    return NameVariants(pairs)


DEFAULT_VARIANTS = NameVariants.from_groups(_ENGLISH + _TRANSLITERATIONS)
