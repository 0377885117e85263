"""Which printed form of a person's name to show.

Sources print one name many ways: ``Lovelace, Ada`` (OpenAlex raw names), ``ZHANG Lei``,
``LeCun Y``, ``J. Schmidhuber``, or in Latin and Greek letters at once. A page shows the
"First Last" form (:func:`display_name`) of the best form known (:func:`preferred_name`),
in the letters it was printed with.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from scholargraph.graph.identity.names import (
    PARTICLES,
    is_capitalised_word,
    normalize_part,
    parse_name,
    printed_order,
    script_forms,
)

_LETTERS = re.compile(r"[^\W\d_]+")


@lru_cache(maxsize=1 << 16)
def display_name(raw: str) -> str:
    """A printed name in the "First Middle Last" form a page shows, in its printed letters.

    ``Last, First`` is turned round, a word printed in capitals (``ZHANG Lei``,
    ``LEI ZHANG``) keeps only its first capital, initials after a surname go before it,
    titles go and a name in two scripts keeps its Latin form.

    >>> display_name("Lovelace, Ada")
    'Ada Lovelace'
    >>> display_name("King, Martin Luther, Jr.")
    'Martin Luther King Jr.'
    >>> display_name("ZHANG Lei"), display_name("VAN DER BERG, JAN")
    ('Lei Zhang', 'Jan van der Berg')
    >>> display_name("Ioannis, Ιωάννης, Kakadiaris, Κακαδιάρης")
    'Ioannis Kakadiaris'
    >>> display_name("LeCun Y"), display_name("Prof. Dr. Jürgen Schmidhuber")
    ('Y. LeCun', 'Jürgen Schmidhuber')
    """
    order = printed_order(raw)
    last = order.last
    words = [_recase(w, particle=False) for w in order.given]
    words += [_recase(w, particle=i < len(last) - 1) for i, w in enumerate(last)]
    if order.suffix:
        words.append(order.suffix)
    return " ".join(words) or script_forms(raw)[0]


def _recase(word: str, *, particle: bool) -> str:
    """A word printed in capitals with only the first letter of each part in capitals, a
    surname particle in capitals in lower case; any other word as printed."""
    if not is_capitalised_word(word):
        return word
    if particle and normalize_part(word) in PARTICLES:
        return word.lower()
    return _LETTERS.sub(lambda m: m.group(0).capitalize(), word)


@lru_cache(maxsize=1 << 16)
def name_quality(raw: str) -> tuple[int, int, int, int, int]:
    """How good a printed name is to show, higher is better, judged in this order: a full
    first name, how many given names are full, letters beyond ASCII (``Jürgen`` over
    ``Juergen``), not all in capitals, not in the ``Last, First`` order."""
    name = parse_name(raw)
    text = script_forms(raw)[0]
    letters = [ch for ch in text if ch.isalpha()]
    return (
        int(name.has_full_first),
        sum(len(part) > 1 for part in (name.first, *name.middles)),
        int(any(not ch.isascii() for ch in letters)),
        int(not all(ch.isupper() for ch in letters)),
        int("," not in text),
    )


def preferred_name(names: Iterable[str]) -> str:
    """The display form of the best of several printed forms of one person's name. Ties go
    to the alphabetically first form, so the choice never depends on the order given.

    >>> preferred_name(["J. Schmidhuber", "Schmidhuber, Jürgen", "Juergen Schmidhuber"])
    'Jürgen Schmidhuber'
    """
    forms = sorted({name for name in names if name.strip()})
    if not forms:
        raise ValueError("preferred_name needs at least one name")
    return display_name(max(forms, key=name_quality))


def settled_names(names: Iterable[str]) -> tuple[str, tuple[str, ...]]:
    """From every form known of one person's name (the one shown and the others kept), the
    form to show and the others to keep, sorted: the same whatever order the forms came in.
    A form that is only another's display form is not kept beside it.

    >>> settled_names(["A. Lovelace", "Lovelace, A.", "Lovelace, Ada"])
    ('Ada Lovelace', ('Lovelace, A.', 'Lovelace, Ada'))
    """
    forms = {name for name in names if name.strip()}
    shown = preferred_name(forms)
    derived = {display_name(form) for form in forms if display_name(form) != form}
    return shown, tuple(sorted(form for form in forms if form != shown and form not in derived))
