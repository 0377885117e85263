"""The bytes of bulk files, with damage named instead of raised.

A source file can be damaged in ways that must cost only what they touch:

* an invalid UTF-8 sequence costs the line (or record) holding it, which is rejected with
  the bytes shown as ``\\xNN`` in its excerpt;
* a JSON escape of a lone surrogate (``"\\ud800"``) decodes, but no database can store it:
  it costs its record the same way;
* a gzip stream that ends early (a download cut short) or fails its check keeps every byte
  before the damage, and the damage becomes one :class:`Fault` of the file.
"""

from __future__ import annotations

import gzip
import re
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from scholargraph.graph.loaders.parse.values import EXCERPT_CHARS

READ_BYTES = 1 << 20


@dataclass(frozen=True, slots=True)
class Fault:
    """Damage to a whole file: what happened, and the text near it."""

    reason: str
    excerpt: str = ""


@dataclass(frozen=True, slots=True)
class RawLine:
    number: int
    data: bytes
    cut: bool = False  # the file ends early inside this line


def read_pieces(path: Path, faults: list[Fault]) -> Iterator[bytes]:
    """The file's bytes in pieces, decompressed when it is ``.gz``.

    A gzip stream that ends early or is corrupt ends the pieces and adds a :class:`Fault`.
    ``read1`` hands out what each read decompressed, so nothing before the damage is lost.
    """
    if path.suffix != ".gz":
        with path.open("rb") as handle:
            while piece := handle.read(READ_BYTES):
                yield piece
        return
    read = 0
    with gzip.open(path, "rb") as handle:
        while True:
            try:
                piece = handle.read1(READ_BYTES)
            except EOFError:
                reason = (
                    f"the gzip stream ends early, after {read:,} bytes of data: "
                    f"the file is truncated"
                )
                faults.append(Fault(reason))
                return
            except (gzip.BadGzipFile, zlib.error) as error:
                reason = f"the gzip stream is damaged after {read:,} bytes of data ({error})"
                faults.append(Fault(reason))
                return
            if not piece:
                return
            read += len(piece)
            yield piece


def read_bytes(path: Path, faults: list[Fault]) -> bytes:
    return b"".join(read_pieces(path, faults))


def read_lines(path: Path, faults: list[Fault]) -> Iterator[RawLine]:
    """Lines without their ``\\n``, numbered from 1; the last one is ``cut`` when the file
    ends early inside it."""
    rest = b""
    number = 0
    for piece in read_pieces(path, faults):
        lines = (rest + piece).split(b"\n")
        rest = lines.pop()
        for data in lines:
            number += 1
            yield RawLine(number, data)
    if rest:
        yield RawLine(number + 1, rest, cut=bool(faults))


def split_lines(data: bytes, *, cut: bool = False) -> Iterator[RawLine]:
    """The lines of bytes already read; the last one is ``cut`` when ``cut`` says the file
    ended early."""
    lines = data.split(b"\n")
    for number, line in enumerate(lines, start=1):
        yield RawLine(number, line, cut=cut and number == len(lines))


def undecodable(error: UnicodeDecodeError, where: str) -> tuple[str, str]:
    """(reason, excerpt) for bytes that are not UTF-8, the excerpt centred on the bad bytes."""
    data = error.object
    bad = " ".join(f"0x{byte:02x}" for byte in data[error.start : error.end])
    reason = f"invalid UTF-8 ({bad} at byte {error.start + 1} of the {where})"
    if error.start < EXCERPT_CHARS - 100:
        shown = data[:EXCERPT_CHARS]
    else:
        shown = data[:150] + b" \xe2\x80\xa6 " + data[error.start - 150 : error.start + 150]
    return reason, shown.decode("utf-8", "backslashreplace")


_ESCAPED_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def may_hold_lone_surrogate(line: bytes) -> bool:
    """Whether a JSON text escapes a surrogate, the only way JSON can spell a lone one.

    Most lines have none, so their decoded values need not be walked."""
    return _ESCAPED_SURROGATE.search(line) is not None


def lone_surrogate(value: object) -> str | None:
    """The first string of a decoded JSON value holding a lone surrogate, else None.

    ``json`` joins escaped pairs into one character, so any surrogate left is alone; bytes
    decoded with ``surrogateescape`` show up the same way.
    """
    if isinstance(value, str):
        return value if _SURROGATE.search(value) else None
    if isinstance(value, Mapping):
        for key, item in value.items():
            found = lone_surrogate(key) or lone_surrogate(item)
            if found is not None:
                return found
        return None
    if isinstance(value, list):
        for item in value:
            found = lone_surrogate(item)
            if found is not None:
                return found
    return None


def printable(text: str) -> str:
    """``text`` with every surrogate spelt out: an escaped byte as ``\\xNN``, any other
    as ``\\uNNNN``, so a report can always be written as UTF-8."""
    return _SURROGATE.sub(_spelt, text)


def _spelt(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    if 0xDC80 <= code <= 0xDCFF:
        return f"\\x{code - 0xDC00:02x}"
    return f"\\u{code:04x}"


def surrogate_reason(found: str) -> str:
    match = _SURROGATE.search(found)
    code = ord(match.group(0)) if match else 0
    if 0xDC80 <= code <= 0xDCFF:
        return f"invalid UTF-8 (byte 0x{code - 0xDC00:02x} in {printable(found)[:80]!r})"
    return f"a lone surrogate \\u{code:04x} that no database can store"
