from pathlib import Path

import pytest

from scholargraph.graph.errors import BadInput
from scholargraph.graph.identity.name_forms import (
    display_name,
    name_quality,
    preferred_name,
    settled_names,
)
from scholargraph.graph.identity.names import (
    ParsedName,
    block_key,
    compare_names,
    name_from_parts,
    normalize_part,
    parse_name,
    printed_order,
    script_forms,
    swapped,
    variant_block_keys,
)
from scholargraph.graph.identity.variants import DEFAULT_VARIANTS, NameVariants, load_variant_pairs

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
S2AND_DATA = SHARED / "author-disambiguation" / "s2and" / "data"


@pytest.mark.parametrize(
    ("raw", "folded"),
    [
        ("Jürgen", "jurgen"),
        ("Søren", "soren"),
        ("Strauß", "strauss"),
        ("Łukasz", "lukasz"),
        ("M&uuml;ller", "muller"),
        ("O'Brien", "obrien"),
        ("O’Brien", "obrien"),
        ("Fei-Fei", "feifei"),
        ("Ming\u2010Wei", "mingwei"),
        ("Ming\u2011Wei", "mingwei"),
        ("ZHANG", "zhang"),
    ],
)
def test_normalize_part(raw: str, folded: str) -> None:
    assert normalize_part(raw) == folded


def test_hyphenated_given_names_are_one_name_in_every_spelling() -> None:
    spellings = ["Ming-Wei Chang", "Ming\u2010Wei Chang", "Mingwei Chang", "Chang, Ming-Wei"]
    parsed = {parse_name(s) for s in spellings}
    assert parsed == {ParsedName("mingwei", (), "chang")}
    split = parse_name("Ming Wei Chang")
    assert split == ParsedName("ming", ("wei",), "chang")
    assert compare_names(split, parse_name("Mingwei Chang")).first == "exact"
    assert compare_names(parse_name("Ming W. Chang"), parse_name("Ming-Wei Chang")).compatible


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("J. R. R. Tolkien", ParsedName("j", ("r", "r"), "tolkien")),
        ("J.R.R. Tolkien", ParsedName("j", ("r", "r"), "tolkien")),
        ("J.-P. Serre", ParsedName("j", ("p",), "serre")),
        ("Tolkien, J.R.R.", ParsedName("j", ("r", "r"), "tolkien")),
        ("Martin Luther King Jr.", ParsedName("martin", ("luther",), "king", "jr")),
        ("King, Martin Luther, Jr.", ParsedName("martin", ("luther",), "king", "jr")),
        ("John Smith III", ParsedName("john", (), "smith", "iii")),
        ("Ludwig van Beethoven", ParsedName("ludwig", (), "van beethoven")),
        ("Vincent van der Berg", ParsedName("vincent", (), "van der berg")),
        ("Leonardo da Vinci", ParsedName("leonardo", (), "da vinci")),
        ("LEI ZHANG", ParsedName("lei", (), "zhang")),
        ("ZHANG Lei", ParsedName("lei", (), "zhang")),
        ("Prof. Dr. Jürgen Schmidhuber", ParsedName("jurgen", (), "schmidhuber")),
        ("Conan O'Brien", ParsedName("conan", (), "obrien")),
        ("Garcia-Lopez, Maria", ParsedName("maria", (), "garcia-lopez")),
        ("Madonna", ParsedName("", (), "madonna")),
        # names in two scripts: the commas separate the forms, not surname and given name
        ("Ioannis, Ιωάννης, Kakadiaris, Κακαδιάρης", ParsedName("ioannis", (), "kakadiaris")),
        ("Ιωάννης Κακαδιάρης, Ioannis Kakadiaris", ParsedName("ioannis", (), "kakadiaris")),
        ("Papadopoulos, Georgios (Παπαδόπουλος)", ParsedName("georgios", (), "papadopoulos")),
        ("Wei Wang (王伟)", ParsedName("wei", (), "wang")),
        # initials after the surname
        ("LeCun Y", ParsedName("y", (), "lecun")),
        ("Schmidhuber J.", ParsedName("j", (), "schmidhuber")),
        ("Hinton G.E.", ParsedName("g", ("e",), "hinton")),
        ("Wei LI", ParsedName("wei", (), "li")),  # a surname in capitals, not initials
        ("Andrew NG", ParsedName("andrew", (), "ng")),
        # given names written as syllables with full stops (S2), then the surname
        ("Ming. Chuan., Wang", ParsedName("ming", ("chuan",), "wang")),
        ("Cai. Yan., Huang,", ParsedName("cai", ("yan",), "huang")),
        # initials typed without a space before the surname (arXiv author lists)
        ("J.P.Hague", ParsedName("j", ("p",), "hague")),
        ("C.Klein", ParsedName("c", (), "klein")),
        ("J.-P.Serre", ParsedName("j", ("p",), "serre")),
        ("Hague, J.P.", ParsedName("j", ("p",), "hague")),
    ],
)
def test_parse_name(raw: str, expected: ParsedName) -> None:
    assert parse_name(raw) == expected


def test_script_forms_keep_the_other_script_apart() -> None:
    assert script_forms("Ioannis, Ιωάννης, Kakadiaris, Κακαδιάρης") == (
        "Ioannis Kakadiaris",
        ("Ιωάννης Κακαδιάρης",),
    )
    assert script_forms("王伟") == ("王伟", ())  # no Latin form: the name as it is
    assert script_forms("Jürgen Schmidhuber") == ("Jürgen Schmidhuber", ())


def test_printed_order_keeps_the_printed_words() -> None:
    order = printed_order("King, Martin Luther, Jr.")
    assert (order.given, order.last, order.suffix) == (("Martin", "Luther"), ("King",), "Jr.")
    assert printed_order("ZHANG Lei").last == ("ZHANG",)


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("Lovelace, Ada", "Ada Lovelace"),
        ("Touvron, Hugo", "Hugo Touvron"),
        ("De La Harpe, Derek", "Derek De La Harpe"),
        ("King, Martin Luther, Jr.", "Martin Luther King Jr."),
        ("ZHANG Lei", "Lei Zhang"),
        ("LEI ZHANG", "Lei Zhang"),
        ("VAN DER BERG, JAN", "Jan van der Berg"),
        ("O'BRIEN, CONAN", "Conan O'Brien"),
        ("JEAN-PIERRE SERRE", "Jean-Pierre Serre"),
        ("LeCun Y", "Y. LeCun"),
        ("Hinton G.E.", "G. E. Hinton"),
        ("Ioannis, Ιωάννης, Kakadiaris, Κακαδιάρης", "Ioannis Kakadiaris"),
        ("Prof. Dr. Jürgen Schmidhuber", "Jürgen Schmidhuber"),
        ("J. R. R. Tolkien", "J. R. R. Tolkien"),
        ("Yann LeCun", "Yann LeCun"),
        ("王伟", "王伟"),
    ],
)
def test_display_names_are_first_last_in_the_printed_letters(raw: str, shown: str) -> None:
    assert display_name(raw) == shown
    assert parse_name(shown) == parse_name(raw)


def test_the_preferred_name_is_the_fullest_form_in_any_order() -> None:
    forms = ["J. Schmidhuber", "SCHMIDHUBER, JURGEN", "Juergen Schmidhuber", "Schmidhuber, Jürgen"]
    assert preferred_name(forms) == "Jürgen Schmidhuber"
    assert preferred_name(reversed(forms)) == "Jürgen Schmidhuber"
    assert preferred_name(["Lovelace, Ada", "Ada Lovelace"]) == "Ada Lovelace"
    assert name_quality("Ada Lovelace") > name_quality("A. Lovelace")
    assert name_quality("Ada Lovelace") > name_quality("ADA LOVELACE")
    with pytest.raises(ValueError, match="at least one"):
        preferred_name([" "])


def test_settled_names_do_not_depend_on_which_form_came_first() -> None:
    # A researcher first written from "Lovelace, A." shows "A. Lovelace", a form no source
    # printed; one first written from "Lovelace, Ada" never held it. Both settle alike.
    first = settled_names(["A. Lovelace", "Lovelace, A.", "Lovelace, Ada"])
    second = settled_names(["Ada Lovelace", "Lovelace, Ada", "Lovelace, A."])
    assert first == second == ("Ada Lovelace", ("Lovelace, A.", "Lovelace, Ada"))
    assert settled_names(["V. Kuznetsov", "Vladimir Kuznetsov"]) == (
        "Vladimir Kuznetsov",
        ("V. Kuznetsov",),
    )
    assert settled_names(["Ada Lovelace", " "]) == ("Ada Lovelace", ())


def test_name_from_parts_strips_titles_and_keeps_middles() -> None:
    assert name_from_parts("Dr A'bdul", None, "Sattar") == ParsedName("abdul", (), "sattar")
    assert name_from_parts("Daniel", "G.", "Brown") == ParsedName("daniel", ("g",), "brown")
    assert name_from_parts(None, None, "ZhuHongwei") == ParsedName("", (), "zhuhongwei")


def test_block_keys() -> None:
    assert block_key(parse_name("Lei Zhang")) == "l zhang"
    assert block_key(parse_name("Ludwig van Beethoven")) == "l vanbeethoven"
    assert "l beethoven" in variant_block_keys(parse_name("Ludwig van Beethoven"))
    mueller, mueller_umlaut = parse_name("Wolfgang Mueller"), parse_name("Wolfgang Müller")
    assert block_key(mueller_umlaut) == "w muller"
    assert block_key(mueller_umlaut) in variant_block_keys(mueller)
    assert "j muller" in variant_block_keys(parse_name("Jens Müller-Iden"))


def test_swapped_only_for_two_part_names() -> None:
    assert swapped(parse_name("Zhang Ping")) == ParsedName("ping", (), "zhang")
    assert swapped(parse_name("J. Smith")) is None
    assert swapped(parse_name("Daniel G. Brown")) is None


@pytest.mark.parametrize(
    ("a", "b", "first", "compatible"),
    [
        ("Lei Zhang", "LEI ZHANG", "exact", True),
        ("L. Zhang", "Lei Zhang", "initial", True),
        ("Jun Li", "Jian Li", "conflict", False),
        ("J. Li", "K. Li", "conflict", False),
        ("Bob Smith", "Robert Smith", "variant", True),
        ("Bob Smith", "Bill Smith", "conflict", False),
        ("Yu Lu", "Yu Lv", "exact", True),  # surnames are blocked on, not compared
        ("John A. Smith", "John Smith", "exact", True),
        ("John A. Smith", "John B. Smith", "exact", False),
        ("John Adam Smith", "John Alan Smith", "exact", False),
        ("John Adam Smith", "John A. Smith", "exact", True),
        ("Jean-Pierre Serre", "J.-P. Serre", "initial", True),
        ("Madonna", "Lei Madonna", "missing", True),
    ],
)
def test_compare_names(a: str, b: str, first: str, compatible: bool) -> None:
    comparison = compare_names(parse_name(a), parse_name(b))
    assert comparison.first == first
    assert comparison.compatible is compatible
    assert compare_names(parse_name(b), parse_name(a)).compatible is compatible


def test_middle_name_agreement_levels() -> None:
    assert compare_names(parse_name("Daniel G. Brown"), parse_name("Daniel G. Brown")).middle == (
        "agree_initial"
    )
    full = compare_names(parse_name("John Adam Smith"), parse_name("John Adam Smith"))
    assert full.middle == "agree_full"


def test_default_variants_are_pairs_not_classes() -> None:
    assert DEFAULT_VARIANTS.are_variants("William", "bill")
    assert DEFAULT_VARIANTS.are_variants("muhammad", "Mohammed")
    assert DEFAULT_VARIANTS.are_variants("lv", "lyu")
    # harry is a nickname of both harold and henry; that does not make them one name
    assert DEFAULT_VARIANTS.are_variants("harold", "harry")
    assert DEFAULT_VARIANTS.are_variants("henry", "harry")
    assert not DEFAULT_VARIANTS.are_variants("harold", "henry")


def test_load_variant_pairs_from_a_small_file(tmp_path: Path) -> None:
    path = tmp_path / "tuples.txt"
    path.write_text("# nicknames\nchristopher,chris\n\nAleksandr , Sasha\n", encoding="utf-8")
    variants = load_variant_pairs(path)
    assert len(variants) == 2
    assert variants.are_variants("chris", "christopher")
    assert variants.are_variants("sasha", "aleksandr")
    assert not variants.are_variants("chris", "sasha")
    merged = DEFAULT_VARIANTS.union(variants)
    assert merged.are_variants("aleksandr", "sasha")
    assert merged.are_variants("bob", "robert")
    custom = compare_names(parse_name("Sasha Ivanov"), parse_name("Aleksandr Ivanov"), merged)
    assert custom.first == "variant"


def test_load_variant_pairs_rejects_a_malformed_line(tmp_path: Path) -> None:
    path = tmp_path / "tuples.txt"
    path.write_text("christopher,chris\nchristopher chris kit\n", encoding="utf-8")
    with pytest.raises(BadInput, match=":2:"):
        load_variant_pairs(path)


def test_name_variants_ignore_self_pairs() -> None:
    assert len(NameVariants([("ann", "Ann"), ("ann", "anna")])) == 1


@pytest.mark.shared
def test_load_the_s2and_name_tuples() -> None:
    variants = load_variant_pairs(S2AND_DATA / "s2and_name_tuples_filtered.txt")
    assert len(variants) > 5000
    assert variants.are_variants("christopher", "chris")
    assert variants.are_variants("alex", "alexander")
    assert not variants.are_variants("christopher", "alexander")
    raw = load_variant_pairs(S2AND_DATA / "s2and_unnormalized_filtered_name_tuples.txt")
    assert raw.are_variants("catherine", "cath")
