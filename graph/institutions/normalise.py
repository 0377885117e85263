"""Affiliation strings and institution names in one comparable form.

An affiliation is cut into *segments* (at commas, semicolons, slashes, brackets and the like),
each a list of *words*: accents folded, lower case, punctuation gone, abbreviations spelled
out, and the same word in the main European languages written one way, so that a ROR name and
the way an author prints it compare equal:

>>> words("Dept. of Physics, Univ. of Tokyo")
['department', 'of', 'physics', 'university', 'of', 'tokyo']
>>> name_key("The University of Tokyo")
'university _ tokyo'
>>> name_key("Universitetet i Oslo") == name_key("University of Oslo")
True
>>> name_key("Toyohashi Univ. of Tech.") == name_key("Toyohashi University of Technology")
True
>>> words("Rheinisch Westfa¨lische Technische Hochschule")
['rheinisch', 'westfalische', 'technical', 'hochschule']
>>> [s.text for s in segments("1West Virginia Univ., Morgantown, WV 26506, USA")]
['west virginia university', 'morgantown', 'wv 26506', 'usa']

A *key* is the words without the small words of any language (``of``, ``de``, ``der``, ``i``):
word order is kept, because "Washington University" and "University of Washington" are two
institutions.
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass

_FOLDED = str.maketrans(
    {"ß": "ss", "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ł": "l",
     "Ł": "L", "đ": "d", "Đ": "D", "ı": "i", "þ": "th", "ð": "d",
     # accents printed as characters of their own beside the letter, as PDF text extraction
     # leaves them ("Westfa¨lische"): gone, like the accents they stand for
     "¨": "", "ˆ": "", "˜": "", "¸": "", "˝": "", "ˇ": "", "˚": "", "˘": "", "˙": "", "¯": ""}
)  # fmt: skip
# Footnote marks glued to the next word ("1West Virginia", "a Department of …").
_FOOTNOTE_DIGITS = re.compile(r"(?<![\w])\d{1,2}(?=[A-Z][a-z])")
_LEADING_MARK = re.compile(r"^\s*(?:[a-z\*†‡§¶]|\d{1,2})\s+(?=[A-Z])")
_ELIDED = re.compile(r"\b([a-z])['’‘`´ʼ]", re.IGNORECASE)  # l'Université, d'Immunologie
_APOSTROPHE = re.compile(r"['’‘`´ʼ]")
_SEPARATORS = re.compile(r"[,;|/\\()\[\]{}<>:\n\t•·]+|\s[-–—]\s")
# Quotes wrap a part of a name ("“Carol Davila” University", «Kurchatov Institute»): gone.
_QUOTES = re.compile(r"[\"“”„«»]")
# Words run together where a line break was lost: "Robotic SystemsÉcole", "Lausanne1015".
_RUN_TOGETHER = re.compile(r"(?<=[a-z]{3})(?=[A-Z][a-z])|(?<=[a-z]{3})(?=\d)|(?<=\d)(?=[A-Z][a-z])")
_TOKEN = re.compile(r"[^\W_]+")

# Abbreviations and spellings, after folding: one form per word.
CANONICAL: dict[str, str] = {
    **dict.fromkeys(
        (
            "univ",
            "univs",
            "universidad",
            "universidade",
            "universite",
            "universitat",
            "universita",
            "universitaet",
            "universiteit",
            "universitet",
            "universitetet",
            "universitas",
            "universiti",
            "uniwersytet",
            "univerzita",
            "univerza",
            "univerzitet",
            "universitatea",
            "universitatii",
            "uni",
        ),
        "university",
    ),
    **dict.fromkeys(
        (
            "inst",
            "instit",
            "institut",
            "instituto",
            "istituto",
            "instytut",
            "institutet",
            "institutes",
        ),
        "institute",
    ),
    **dict.fromkeys(
        (
            "dept",
            "depts",
            "dpt",
            "dep",
            "departement",
            "departamento",
            "dipartimento",
            "departament",
            "departments",
        ),
        "department",
    ),
    **dict.fromkeys(("centre", "ctr", "cntr", "centro", "centrum", "centers", "centres"), "center"),
    **dict.fromkeys(
        ("lab", "labs", "laboratoire", "laboratorio", "laboratories", "laboratorium"), "laboratory"
    ),
    **dict.fromkeys(("hosp", "hopital", "hospitals"), "hospital"),
    **dict.fromkeys(("coll", "colleges"), "college"),
    **dict.fromkeys(("acad", "academia", "academie", "akademie", "akademia"), "academy"),
    **dict.fromkeys(("fac", "faculdade", "facultad", "faculte", "facolta"), "faculty"),
    **dict.fromkeys(("tech", "technol", "techn"), "technology"),
    **dict.fromkeys(("technische", "technischen", "tecnica", "tecnico", "technique"), "technical"),
    **dict.fromkeys(("natl", "nacional", "nazionale"), "national"),
    **dict.fromkeys(("intl", "internat"), "international"),
    **dict.fromkeys(("sci", "scis"), "science"),
    "sciences": "science",
    "res": "research",
    "eng": "engineering",
    "engn": "engineering",
    "agric": "agricultural",
    "assoc": "association",
    "soc": "society",
    "fdn": "foundation",
    "govt": "government",
    "polytech": "polytechnic",
    "mem": "memorial",
    "st": "saint",
    "ste": "sainte",
    "organisation": "organization",
    "programme": "program",
    "and": "and",
}
# Small words of the languages affiliations are written in, left out of keys.
SMALL_WORDS = frozenset(
    {"the", "of", "and", "in", "at", "for", "on", "de", "del", "della", "delle", "dei", "degli",
     "di", "da", "do", "dos", "das", "du", "des", "la", "le", "les", "el", "los", "las", "y",
     "e", "et", "und", "fur", "der", "die", "den", "zu", "i", "og", "och", "en", "d", "l",
     "a", "an", "voor", "het", "te", "w", "z"}
)  # fmt: skip
# Words that say what kind of unit a segment is, not which one.
UNIT_WORDS = frozenset(
    {"department", "division", "section", "unit", "chair", "group", "program", "team",
     "service", "servicio", "laboratory", "faculty", "school", "college", "center",
     "institute", "clinic", "graduate", "key", "state", "national", "research", "science",
     "university", "hospital", "academy", "medical", "medicine", "engineering", "technology",
     "international", "general", "federal", "public", "joint", "higher", "study", "studies",
     "applied", "advanced", "health", "foundation", "society", "association", "council",
     "ministry", "agency", "office", "museum", "library", "polytechnic", "company",
     "corporation", "inc", "ltd", "co", "gmbh", "sa", "ag", "llc", "plc", "srl", "spa", "bv",
     "nv", "ab", "oy", "kk", "organization", "network", "consortium", "observatory",
     "station", "branch", "campus", "system", "municipal", "regional", "provincial",
     "affiliated", "teaching", "cancer", "biology", "chemistry", "physics", "mathematics",
     "economics", "sociology", "psychology", "law", "management", "business", "education",
     "nursing", "pharmacy", "dentistry", "dental", "veterinary", "agricultural", "agriculture",
     "environmental", "computer", "biomedical", "molecular", "clinical", "experimental",
     "life", "natural", "social", "human", "humanities", "arts", "art", "energy", "materials",
     "marine", "earth", "ocean", "food", "water"}
)  # fmt: skip
# Words that begin a segment naming a part of an institution ("Department of Physics").
SUBUNIT_HEADS = frozenset(
    {"department", "division", "section", "unit", "chair", "group", "program", "team",
     "service", "servicio", "laboratory", "faculty", "graduate"}
)  # fmt: skip


def fold(text: str) -> str:
    """Entities decoded, accents stripped, lower case; punctuation kept."""
    text = html.unescape(html.unescape(text))
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLDED))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()


def _drop_footnotes(text: str) -> str:
    return _LEADING_MARK.sub("", _FOOTNOTE_DIGITS.sub("", text))


def _tokens_of(piece: str) -> list[str]:
    """Words as printed (case kept, accents folded), for acronyms and region codes."""
    text = html.unescape(html.unescape(piece))
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLDED))
    folded = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    folded = _APOSTROPHE.sub("", _ELIDED.sub(r"\1 ", folded)).replace("&", " and ")
    return _TOKEN.findall(_RUN_TOGETHER.sub(" ", folded))


def _word(token: str) -> str:
    lower = token.lower()
    return CANONICAL.get(lower, lower)


def words(text: str) -> list[str]:
    """Every word of a name in comparable form."""
    return [_word(t) for t in _tokens_of(text)]


def key_of(name_words: list[str] | tuple[str, ...]) -> str:
    """Content words in order; a run of small words between two of them becomes ``_``
    whatever the language ("University of Oslo", "Universitetet i Oslo": ``university _
    oslo``), so "Loyola University Chicago" never reads as "University of Chicago". A leading
    article goes; small words at the end stay ("Lyon I")."""
    out: list[str] = []
    gap = False
    for word in name_words:
        if word in SMALL_WORDS:
            gap = True
            continue
        if gap and out:
            out.append("_")
        out.append(word)
        gap = False
    if gap and out:
        tail = len(name_words)
        while tail and name_words[tail - 1] in SMALL_WORDS:
            tail -= 1
        out.extend(name_words[tail:])
    return " ".join(out)


def name_key(name: str) -> str:
    """The key a name is indexed under: its words without small words, in order."""
    return key_of(words(name))


@dataclass(frozen=True, slots=True)
class Segment:
    """A piece of an affiliation between separators, as words; ``raw`` as printed."""

    raw: str
    tokens: tuple[str, ...]
    words: tuple[str, ...]

    @property
    def text(self) -> str:
        return " ".join(self.words)

    @property
    def key(self) -> str:
        return key_of(self.words)

    @property
    def is_subunit(self) -> bool:
        """Names a department or a lab rather than an institution."""
        return bool(self.words) and self.words[0] in SUBUNIT_HEADS


def segments(text: str) -> list[Segment]:
    """The non-empty segments of an affiliation string, in order."""
    out: list[Segment] = []
    plain = _QUOTES.sub(" ", html.unescape(html.unescape(text)))
    for piece in _SEPARATORS.split(_drop_footnotes(plain)):
        tokens = _tokens_of(piece)
        if tokens:
            out.append(Segment(piece.strip(), tuple(tokens), tuple(_word(t) for t in tokens)))
    return out
