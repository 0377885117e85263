"""Unique, well-formed identifiers in each source's own scheme, drawn from one seeded stream."""

from __future__ import annotations

from random import Random

_CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz"
_MASK64 = (1 << 64) - 1


def mix(*values: int) -> int:
    """A 64-bit hash of integers (splitmix64 steps): per-record noise that does not depend on
    the order in which records are rendered."""
    state = 0x9E3779B97F4A7C15
    for value in values:
        state = (state ^ (value & _MASK64)) * 0xBF58476D1CE4E5B9 & _MASK64
        state = (state ^ (state >> 27)) * 0x94D049BB133111EB & _MASK64
        state ^= state >> 31
    return state


def unit(*values: int) -> float:
    """A float in [0, 1) determined by the values."""
    return (mix(*values) >> 11) / float(1 << 53)


def orcid_check_character(base_digits: str) -> str:
    total = 0
    for ch in base_digits:
        total = (total + int(ch)) * 2
    check = (12 - total % 11) % 11
    return "X" if check == 10 else str(check)


def ror_id_from_number(number: int) -> str:
    """ROR ids are ``0`` + a Crockford base-32 number (6 characters) + an ISO 7064 checksum."""
    encoded = ""
    rest = number
    while rest:
        rest, digit = divmod(rest, 32)
        encoded = _CROCKFORD[digit] + encoded
    checksum = 98 - (number * 100) % 97
    return f"0{encoded.rjust(6, '0')}{checksum:02d}"


class Mint:
    """Hands out ids that never repeat within one corpus."""

    def __init__(self, rng: Random) -> None:
        self._rng = rng
        self._taken: dict[str, set[int]] = {}

    def _fresh(self, kind: str, low: int, high: int) -> int:
        taken = self._taken.setdefault(kind, set())
        while True:
            value = self._rng.randrange(low, high)
            if value not in taken:
                taken.add(value)
                return value

    def orcid(self) -> str:
        # iDs run from 0000-0001-5000-000X to 0000-0003-5000-000X, and in the 0009-0000 to
        # 0009-0010 block opened in 2022.
        if self._rng.random() < 0.3:
            base = f"0009000{self._fresh('orcid9', 0, 10**8):08d}"
        else:
            base = f"0000000{self._fresh('orcid0', 15 * 10**6, 35 * 10**6):08d}"
        digits = base + orcid_check_character(base)
        return "-".join(digits[i : i + 4] for i in range(0, 16, 4))

    def ror(self) -> str:
        return ror_id_from_number(self._fresh("ror", 1, 200_000_000))

    def s2_author(self) -> str:
        return str(self._fresh("s2_author", 1_000_000, 2_300_000_000))

    def s2_corpus(self) -> int:
        return self._fresh("s2_corpus", 1_000_000, 280_000_000)

    def openalex(self, prefix: str) -> str:
        if prefix == "A":
            return f"A5{self._fresh('A', 0, 10**9):09d}"
        if prefix == "W":
            return f"W{self._fresh('W', 2_000_000_000, 4_410_000_000)}"
        return f"I{self._fresh(prefix, 10_000_000, 4_400_000_000)}"

    def number(self, kind: str, low: int, high: int) -> int:
        return self._fresh(kind, low, high)
