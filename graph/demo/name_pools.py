"""Given names and surnames by origin, and the countries their bearers mostly work in.

Pools stay within one naming tradition so that a synthetic person's given name and surname
belong together; Chinese, Korean and Vietnamese surnames are far more concentrated than
European ones, which is what makes frequent-name collisions common there.
"""

from __future__ import annotations

from dataclasses import dataclass

# Different people who publish under the same name; the corpus plants several of each.
COLLISION_NAMES: tuple[tuple[str, str, str], ...] = (
    ("chinese", "Jun", "Li"),
    ("chinese", "Wei", "Wang"),
    ("chinese", "Ziming", "Liu"),
    ("chinese", "Yang", "Liu"),
    ("english", "David", "Smith"),
)


@dataclass(frozen=True, slots=True)
class Origin:
    key: str
    weight: float  # share of people
    countries: tuple[tuple[str, float], ...]
    given: tuple[str, ...]
    surnames: tuple[str, ...]  # most frequent first
    surname_skew: float  # surname popularity falls as rank ** -surname_skew
    middle_initial_rate: float


def _origin(
    key: str,
    weight: float,
    countries: str,
    given: str | tuple[str, ...],
    surnames: str,
    *,
    skew: float = 0.5,
    middle: float = 0.05,
) -> Origin:
    """``countries`` reads ``"RU:0.7 DE:0.3"``; name pools are space-separated."""
    shares = tuple(
        (code, float(share)) for code, share in (c.split(":") for c in countries.split())
    )
    given_names = tuple(given.split()) if isinstance(given, str) else given
    return Origin(key, weight, shares, given_names, tuple(surnames.split()), skew, middle)


def _syllable_pairs(heads: str, tails: str, joiner: str) -> tuple[str, ...]:
    """Two-syllable given names: "Zhi" + "yuan" → "Zhiyuan"; "Min" + "Jun" → "Min-Jun"."""
    return tuple(f"{head}{joiner}{tail}" for head in heads.split() for tail in tails.split())


_CHINESE_GIVEN = (
    "Wei Jun Yang Ziming Jing Lei Hao Yu Min Hui Ying Tao Qiang Yong Jie Ming Xin Yan Hong Bo "
    "Fang Jian Ning Peng Rui Tian Xiao Yi Yuan Zhen Zhiyuan Haoran Yuxin Zihan Jiaqi Siyu "
    "Kaiming Xiangyu Shaoqing Jiangsu Shenggan Chao Dong Feng Gang Hua Kai Lin Long Ping Qing "
    "Shuo Xu Yue Zhe Zheng Ming-Wei Chih-Jen Hsin-Yi Yu-Chiang Wen-Hao Shih-Fu Kuan-Ting Tzu-Mao"
)

ORIGINS: tuple[Origin, ...] = (
    _origin(
        "chinese",
        0.25,
        "CN:0.62 US:0.2 SG:0.05 GB:0.04 CA:0.04 DE:0.05",
        tuple(_CHINESE_GIVEN.split())
        + _syllable_pairs(
            "Xiao Zhi Jia Yu Hao Zi Ming Wen Jun Hong Yi Jian Shu Xin Chen",
            "ming yu hao wei yang han jie lin tao qi xuan rui feng yan ning",
            "",
        ),
        "Wang Li Zhang Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo He Lin Gao Luo Zheng "
        "Liang Xie Song Tang Han Feng Deng Cao Peng Zeng Xiao Tian Dong Pan Yuan Cai Jiang Yu Du "
        "Ye Cheng Wei Su Lu Ding Ren Shen Yao Cui Zhong Tan Fan Shi Jin Qian Kong Bai Kang Mao "
        "Qiu Qin Gu Hou Shao Meng Long Duan Lei Chang Hsu Tsai Chiang",
        skew=0.7,
        middle=0.0,
    ),
    _origin(
        "english",
        0.2,
        "US:0.6 GB:0.2 CA:0.08 AU:0.08 DE:0.04",
        "David Michael John James Robert William Richard Thomas Daniel Matthew Andrew Christopher "
        "Mark Paul Steven Kevin Brian Jennifer Sarah Emily Jessica Laura Rachel Anna Elizabeth "
        "Mary Susan Karen Lisa Rebecca Peter Stephen Jonathan Benjamin Samuel Alexander Nicholas "
        "Timothy Catherine Helen Katherine Joseph Edward George Hannah",
        "Smith Johnson Williams Brown Jones Miller Davis Wilson Anderson Taylor Thomas Moore "
        "Martin Jackson White Harris Clark Lewis Robinson Walker Young Allen King Wright Scott "
        "Green Baker Adams Nelson Hill Campbell Mitchell Roberts Carter Phillips Evans Turner "
        "Parker Collins Edwards Stewart Morris Murphy Cook Rogers Morgan Cooper Peterson Reed "
        "Bailey Bell Kelly Howard Ward Cox Richardson Wood Watson Brooks Bennett Gray Hughes "
        "Price Sanders Myers Ross Foster O'Brien McDonald Smith-Jones",
        skew=0.6,
        middle=0.45,
    ),
    _origin(
        "german",
        0.07,
        "DE:0.72 CH:0.12 US:0.08 GB:0.04 NL:0.04",
        "Jürgen Klaus Stefan Andreas Michael Thomas Wolfgang Matthias Markus Tobias Sebastian "
        "Florian Jörg Uwe Katrin Julia Sabine Anja Björn Sören Jan Lars Hans-Peter Karl-Heinz Ralf "
        "Dirk Bernd Günter Franziska Lena",
        "Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann Schäfer Koch "
        "Bauer Richter Klein Wolf Schröder Neumann Schwarz Zimmermann Braun Krüger Hofmann "
        "Hartmann Lange Schmitt Werner Krause Meier Lehmann Schmid Schulze Maier Köhler Herrmann "
        "König Mayer Huber Kaiser Fuchs Peters Scholz Möller Weiß Hahn Vogel Günther",
        middle=0.1,
    ),
    _origin(
        "french",
        0.05,
        "FR:0.75 CH:0.08 CA:0.07 US:0.1",
        "Jean Pierre François Jean-Pierre Jean-Luc Marie Anne Sophie Émilie Hélène Stéphane "
        "Frédéric Sébastien Jérôme Cédric Benoît Raphaël Aurélien Clément Nicolas Olivier Philippe "
        "Christophe Éric Yann Léa Camille",
        "Martin Bernard Dubois Robert Richard Petit Durand Leroy Moreau Simon Laurent Lefèvre "
        "Michel Bertrand Roux Vincent Fournier Morel Girard André Lefebvre Mercier Dupont Lambert "
        "Bonnet François LeCun Rousseau Blanc Guérin Faure Chevalier",
    ),
    _origin(
        "italian",
        0.035,
        "IT:0.75 CH:0.05 US:0.1 DE:0.05 FR:0.05",
        "Marco Giuseppe Giovanni Luca Andrea Francesco Alessandro Matteo Lorenzo Stefano Chiara "
        "Francesca Giulia Elena Paolo Niccolò Federico Valentina",
        "Rossi Russo Ferrari Esposito Bianchi Romano Colombo Ricci Marino Greco Bruno Gallo Conti "
        "Costa Giordano Mancini Rizzo Lombardi Moretti",
    ),
    _origin(
        "spanish",
        0.035,
        "ES:0.7 US:0.15 FR:0.05 GB:0.1",
        "José Juan Carlos Javier Miguel Luis Antonio Manuel Pablo Sergio Alejandro Raúl María "
        "Lucía Carmen Inés Sofía Andrés Ángel Jesús",
        "García Rodríguez González Fernández López Martínez Sánchez Pérez Gómez Martín Jiménez "
        "Ruiz Hernández Díaz Moreno Muñoz Álvarez Romero Navarro Torres Domínguez García-López "
        "Martín-Delgado",
    ),
    _origin(
        "portuguese",
        0.02,
        "BR:0.8 US:0.1 GB:0.05 FR:0.05",
        "João Gonçalo Márcio Fábio Vinícius Thiago Beatriz Luísa Ana Rafael Gustavo Camila",
        "Silva Santos Oliveira Souza Ferreira Pereira Carvalho Araújo Gonçalves Rodrigues Almeida "
        "Lima",
    ),
    _origin(
        "russian",
        0.04,
        "RU:0.65 DE:0.1 US:0.15 IL:0.05 FR:0.05",
        "Alexander Sergey Dmitry Andrey Alexey Vladimir Mikhail Ivan Nikolai Yuri Igor Oleg Pavel "
        "Evgeny Natalia Elena Olga Tatiana Irina",
        "Ivanov Smirnov Kuznetsov Popov Vasiliev Petrov Sokolov Mikhailov Novikov Fedorov Morozov "
        "Volkov Alekseev Lebedev Semenov Pavlov Kozlov Orlov Andreev Makarov",
    ),
    _origin(
        "polish",
        0.012,
        "PL:0.75 DE:0.1 US:0.1 GB:0.05",
        "Piotr Krzysztof Tomasz Paweł Łukasz Michał Agnieszka Małgorzata Katarzyna Marek",
        "Nowak Kowalski Wiśniewski Wójcik Kowalczyk Kamiński Lewandowski Zieliński Szymański "
        "Woźniak",
    ),
    _origin(
        "czech",
        0.006,
        "CZ:0.8 DE:0.1 US:0.1",
        "Jiří Petr Tomáš Jan Pavel Martin Lucie Tereza",
        "Novák Svoboda Novotný Dvořák Černý Procházka Kučera",
    ),
    _origin(
        "indian",
        0.09,
        "IN:0.6 US:0.3 GB:0.05 CA:0.05",
        "Rahul Amit Priya Anil Sanjay Vikram Arjun Deepak Ravi Suresh Anjali Pooja Aditya Karthik "
        "Srinivas Venkatesh Rohit Sneha Nikhil Ashwin Divya Manish Shreya Abhishek",
        "Sharma Kumar Singh Gupta Patel Reddy Iyer Rao Agarwal Banerjee Chatterjee Mukherjee Das "
        "Nair Menon Joshi Mehta Krishnan Bhattacharya Verma Mishra Pandey Ghosh",
        middle=0.15,
    ),
    _origin(
        "korean",
        0.04,
        "KR:0.8 US:0.2",
        _syllable_pairs(
            "Min Seung Ji Hyun Jae Soo Dong Eun Sung Young Jin Hye Sang Jong Kyung Tae",
            "Jun Hoon Woo Young Jin Hyun Ho Min Seok Ji Won Su",
            "-",
        ),
        "Kim Lee Park Choi Jung Kang Cho Yoon Jang Lim Han Shin",
        skew=1.0,
        middle=0.0,
    ),
    _origin(
        "japanese",
        0.04,
        "JP:0.85 US:0.15",
        "Hiroshi Takashi Yuki Kenji Akira Naoki Satoshi Yusuke Kazuki Haruka Shun Ryo Ayumi "
        "Daisuke Masahiro Tomoko Keiko Shinji Koji Takuya Yoshihiro Atsushi Kohei Sho",
        "Sato Suzuki Takahashi Tanaka Watanabe Ito Yamamoto Nakamura Kobayashi Kato Yoshida Yamada "
        "Matsumoto Inoue Kimura Hayashi Shimizu Yamaguchi Mori Abe Ikeda Hashimoto Ishikawa Ogawa",
        skew=0.3,
        middle=0.0,
    ),
    _origin(
        "vietnamese",
        0.015,
        "VN:0.5 US:0.3 AU:0.1 FR:0.1",
        "Minh Anh Tuan Hung Duc Thanh Huy Linh Quang Khanh Trung Hieu Phuong Thao Long Nam Dung",
        "Nguyen Tran Le Pham Hoang Phan Vu Dang Bui Do",
        skew=1.2,
        middle=0.0,
    ),
    _origin(
        "scandinavian",
        0.025,
        "SE:0.55 DK:0.35 US:0.1",
        "Lars Anders Erik Per Nils Søren Bjørn Jørgen Åsa Ingrid Karin Sofia Magnus Henrik",
        "Johansson Andersson Karlsson Nilsson Eriksson Larsson Olsson Hansen Jensen Nielsen "
        "Pedersen Christensen Sørensen Møller Jørgensen Lindström Åberg Öberg Bäckström",
    ),
    _origin(
        "finnish",
        0.008,
        "FI:0.85 SE:0.05 US:0.1",
        "Mikko Jukka Antti Päivi Johanna Heikki Tuomas Riikka",
        "Virtanen Mäkinen Korhonen Nieminen Mäkelä Hämäläinen Laine",
    ),
    _origin(
        "dutch",
        0.012,
        "NL:0.8 DE:0.05 US:0.15",
        "Jan Pieter Willem Maarten Sander Bas Femke Anouk Joost Lieke",
        "Jong Vries Berg Dijk Bakker Visser Smit Meijer Boer Mulder Bos Vos",
    ),
    _origin(
        "persian",
        0.018,
        "IR:0.6 US:0.15 CA:0.1 DE:0.1 GB:0.05",
        "Mohammad Ali Reza Hossein Mehdi Amir Sara Maryam Fatemeh Hamid",
        "Mohammadi Hosseini Rezaei Karimi Ahmadi Moradi Jafari Rahimi",
    ),
    _origin(
        "turkish",
        0.012,
        "TR:0.75 DE:0.1 US:0.15",
        "Mehmet Ahmet Mustafa Ayşe Elif Emre Zeynep Burak",
        "Yılmaz Kaya Demir Şahin Çelik Öztürk Aydın Arslan",
    ),
    _origin(
        "hebrew",
        0.012,
        "IL:0.75 US:0.25",
        "Yosef Avi Noam Yael Tal Eitan Michal Oren Shira",
        "Cohen Levi Friedman Katz Ben-David Mizrahi Peretz Shapira",
    ),
)

ORIGIN_BY_KEY = {origin.key: origin for origin in ORIGINS}
