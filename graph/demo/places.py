"""Countries, cities and the shapes of institution names for the synthetic corpus."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Country:
    code: str
    name: str
    continent: tuple[str, str]  # (code, name) as GeoNames writes them
    weight: float  # share of the world's research institutions
    centre: tuple[float, float]  # (lat, lng) around which its institutions are placed
    cities: tuple[str, ...]
    university_forms: tuple[str, ...]  # "{city}" is replaced by the city


_EU = ("EU", "Europe")
_AS = ("AS", "Asia")
_NA = ("NA", "North America")
_SA = ("SA", "South America")
_OC = ("OC", "Oceania")


def _cities(names: str) -> tuple[str, ...]:
    return tuple(names.split("|"))


_ENGLISH_FORMS = ("University of {city}", "{city} University", "{city} Institute of Technology")

COUNTRIES: tuple[Country, ...] = (
    Country(
        "US",
        "United States",
        _NA,
        0.22,
        (39.8, -98.6),
        _cities(
            "Cambridge|Stanford|Berkeley|Pasadena|Princeton|Chicago|Seattle|Austin|Ann Arbor|"
            "New York|Boston|Pittsburgh|Los Angeles|San Diego|Madison|Urbana|Ithaca|Baltimore|"
            "Atlanta|Houston"
        ),
        (*_ENGLISH_FORMS, "{city} State University", "{city} College"),
    ),
    Country(
        "CN",
        "China",
        _AS,
        0.16,
        (35.0, 105.0),
        _cities(
            "Beijing|Shanghai|Hangzhou|Nanjing|Hefei|Wuhan|Guangzhou|Shenzhen|Chengdu|Xi'an|Tianjin|Harbin"
        ),
        (
            "{city} University",
            "{city} Normal University",
            "{city} University of Science and Technology",
            "{city} Jiaotong University",
        ),
    ),
    Country(
        "DE",
        "Germany",
        _EU,
        0.08,
        (51.2, 10.4),
        _cities(
            "München|Heidelberg|Berlin|Bonn|Hamburg|Göttingen|Tübingen|Aachen|Karlsruhe|Dresden"
        ),
        ("Universität {city}", "Technische Universität {city}", "University of {city}"),
    ),
    Country(
        "GB",
        "United Kingdom",
        _EU,
        0.07,
        (54.0, -2.0),
        _cities("Cambridge|Oxford|London|Edinburgh|Manchester|Durham|Bristol"),
        ("University of {city}", "{city} Metropolitan University", "{city} College"),
    ),
    Country(
        "FR",
        "France",
        _EU,
        0.05,
        (46.6, 2.2),
        _cities("Paris|Lyon|Grenoble|Marseille|Toulouse|Orsay"),
        ("Université de {city}", "École Normale Supérieure de {city}", "Université {city}"),
    ),
    Country(
        "JP",
        "Japan",
        _AS,
        0.05,
        (36.2, 138.3),
        _cities("Tokyo|Kyoto|Osaka|Nagoya|Sendai|Tsukuba"),
        ("University of {city}", "{city} University", "{city} Institute of Technology"),
    ),
    Country(
        "IN",
        "India",
        _AS,
        0.05,
        (21.0, 78.0),
        _cities("Bangalore|Mumbai|Delhi|Chennai|Kolkata|Kanpur|Pune"),
        ("Indian Institute of Technology {city}", "University of {city}", "{city} University"),
    ),
    Country(
        "IT",
        "Italy",
        _EU,
        0.04,
        (42.8, 12.8),
        _cities("Roma|Milano|Pisa|Padova|Torino|Bologna|Trieste"),
        ("Università di {city}", "Politecnico di {city}", "Scuola Superiore di {city}"),
    ),
    Country(
        "ES",
        "Spain",
        _EU,
        0.03,
        (40.4, -3.7),
        _cities("Madrid|Barcelona|Valencia|Granada|Sevilla"),
        ("Universidad de {city}", "Universidad Politécnica de {city}", "Universitat de {city}"),
    ),
    Country(
        "CH",
        "Switzerland",
        _EU,
        0.025,
        (46.8, 8.2),
        _cities("Zürich|Genève|Lausanne|Basel|Bern"),
        ("Universität {city}", "Université de {city}", "{city} Institute of Technology"),
    ),
    Country(
        "NL",
        "Netherlands",
        _EU,
        0.025,
        (52.1, 5.3),
        _cities("Amsterdam|Leiden|Utrecht|Delft|Eindhoven|Groningen"),
        ("University of {city}", "{city} University of Technology", "Universiteit {city}"),
    ),
    Country(
        "CA",
        "Canada",
        _NA,
        0.03,
        (56.1, -106.3),
        _cities("Toronto|Montréal|Vancouver|Waterloo|Ottawa"),
        ("University of {city}", "Université de {city}", "{city} Polytechnic"),
    ),
    Country(
        "KR",
        "South Korea",
        _AS,
        0.025,
        (36.5, 127.9),
        _cities("Seoul|Daejeon|Pohang|Busan"),
        ("{city} National University", "{city} University of Science and Technology"),
    ),
    Country(
        "RU",
        "Russia",
        _EU,
        0.025,
        (55.7, 37.6),
        _cities("Moscow|Saint Petersburg|Novosibirsk|Dubna|Kazan"),
        ("{city} State University", "{city} Institute of Physics and Technology"),
    ),
    Country(
        "BR",
        "Brazil",
        _SA,
        0.02,
        (-14.2, -51.9),
        _cities("São Paulo|Rio de Janeiro|Campinas|Porto Alegre"),
        (
            "Universidade de {city}",
            "Universidade Federal de {city}",
            "Universidade Estadual de {city}",
        ),
    ),
    Country(
        "IL",
        "Israel",
        _AS,
        0.015,
        (31.0, 34.9),
        _cities("Tel Aviv|Jerusalem|Haifa|Rehovot"),
        ("{city} University", "University of {city}", "{city} Institute of Science"),
    ),
    Country(
        "AU",
        "Australia",
        _OC,
        0.02,
        (-25.3, 133.8),
        _cities("Sydney|Melbourne|Canberra|Brisbane|Perth"),
        ("University of {city}", "{city} University", "{city} University of Technology"),
    ),
    Country(
        "SE",
        "Sweden",
        _EU,
        0.015,
        (60.1, 18.6),
        _cities("Stockholm|Uppsala|Lund|Göteborg"),
        ("{city} University", "Royal Institute of Technology {city}", "University of {city}"),
    ),
    Country(
        "SG",
        "Singapore",
        _AS,
        0.01,
        (1.35, 103.8),
        _cities("Singapore"),
        ("National University of {city}", "{city} University of Technology and Design"),
    ),
    Country(
        "IR",
        "Iran",
        _AS,
        0.01,
        (32.4, 53.7),
        _cities("Tehran|Isfahan|Shiraz"),
        ("University of {city}", "{city} University of Technology"),
    ),
    Country(
        "TR",
        "Türkiye",
        _AS,
        0.01,
        (39.0, 35.2),
        _cities("İstanbul|Ankara|İzmir"),
        ("{city} Üniversitesi", "{city} Technical University"),
    ),
    Country(
        "DK",
        "Denmark",
        _EU,
        0.01,
        (56.3, 9.5),
        _cities("København|Aarhus|Odense"),
        ("University of {city}", "{city} Universitet"),
    ),
    Country(
        "FI",
        "Finland",
        _EU,
        0.008,
        (61.9, 25.7),
        _cities("Helsinki|Espoo|Tampere"),
        ("University of {city}", "{city} University of Technology"),
    ),
    Country(
        "PL",
        "Poland",
        _EU,
        0.01,
        (51.9, 19.1),
        _cities("Warszawa|Kraków|Wrocław"),
        ("Uniwersytet {city}", "Politechnika {city}", "University of {city}"),
    ),
    Country(
        "CZ",
        "Czechia",
        _EU,
        0.006,
        (49.8, 15.5),
        _cities("Praha|Brno"),
        ("Univerzita {city}", "{city} University of Technology"),
    ),
    Country(
        "VN",
        "Vietnam",
        _AS,
        0.005,
        (14.1, 108.3),
        _cities("Hà Nội|Hồ Chí Minh"),
        ("Vietnam National University {city}", "{city} University of Science"),
    ),
)

COUNTRY_BY_CODE = {country.code: country for country in COUNTRIES}

TOPICS = (
    "Theoretical Physics",
    "Quantum Optics",
    "Astronomy",
    "Mathematics",
    "Computer Science",
    "Artificial Intelligence",
    "Materials Research",
    "Nuclear Physics",
    "Particle Physics",
    "Complex Systems",
    "Biophysics",
    "Applied Mathematics",
    "Data Science",
    "Gravitational Physics",
    "Solid State Research",
)

# Founders of the research societies that run institutes in several cities.
FOUNDERS = ("Ashford", "Lindqvist", "Halvorsen", "Montclair", "Everett", "Castellan", "Okafor")

COMPANY_WORDS = (
    "Northwind",
    "Bluefield",
    "Quantica",
    "Graphwise",
    "Lumen",
    "Vectra",
    "Helios",
    "Cobalt",
    "Tessera",
    "Aperture",
)
COMPANY_FORMS = ("{word} Research", "{word} AI", "{word} Labs", "{word} Technologies")
FACILITY_FORMS = (
    "{city} National Laboratory",
    "{city} Center for {topic}",
    "Institute for {topic} {city}",
    "{city} Observatory",
)
GOVERNMENT_FORMS = ("{city} Institute of Metrology", "National Centre for {topic} {city}")
NONPROFIT_FORMS = ("{city} Institute for Advanced Study", "{city} Foundation for {topic}")
