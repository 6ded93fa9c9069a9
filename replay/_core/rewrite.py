"""Find-and-replace over a body that arrived in chunks, keeping the chunk boundaries.

Redaction and normalization both come down to "replace these byte strings
wherever they occur". A secret or an id can straddle two network chunks, so
the replacement runs over the joined body and the chunk boundaries are then
carried over to the rewritten body: a boundary that fell inside a replaced
value moves to the end of its replacement. Boundaries elsewhere keep their
place relative to the text around them, so a stream replays with the chunks
it was recorded with.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from replay._core.model import Chunk

Replace = Callable[["re.Match[bytes]"], bytes]
Span = tuple[int, int, bytes]
"""``data[start:stop]`` is to become ``replacement``."""


class Rewrites:
    """What every rewriter does, given :meth:`spans`: rewrite a body, or its chunks."""

    __slots__ = ()

    def spans(self, data: bytes) -> Iterator[Span]:
        """Each replacement that changes ``data``, left to right, none overlapping."""
        raise NotImplementedError

    def apply(self, data: bytes) -> bytes:
        pieces: list[bytes] = []
        consumed = 0
        for start, stop, replacement in self.spans(data):
            pieces += (data[consumed:start], replacement)
            consumed = stop
        if not pieces:
            return data
        pieces.append(data[consumed:])
        return b"".join(pieces)

    def apply_to(self, chunks: tuple[Chunk, ...]) -> tuple[Chunk, ...]:
        """Rewrite recorded chunks; each keeps its arrival time. Chunks nothing rewrote are
        given back as they are: a response passes several rewriters, most changing nothing."""
        rewritten = self.apply_chunks([chunk.data for chunk in chunks])
        if all(data is chunk.data for data, chunk in zip(rewritten, chunks, strict=True)):
            return chunks
        return tuple(Chunk(data, chunk.at) for data, chunk in zip(rewritten, chunks, strict=True))

    def apply_chunks(self, chunks: Sequence[bytes]) -> list[bytes]:
        if len(chunks) == 1:
            return [self.apply(chunks[0])]
        joined = b"".join(chunks)
        ends: list[int] = []
        position = 0
        for chunk in chunks:
            position += len(chunk)
            ends.append(position)

        pieces: list[bytes] = []
        moved_ends: list[int] = []
        boundary = 0
        written = 0  # bytes of output so far
        consumed = 0  # bytes of input so far
        for start, stop, replacement in self.spans(joined):
            while boundary < len(ends) and ends[boundary] <= start:
                moved_ends.append(written + ends[boundary] - consumed)
                boundary += 1
            pieces.append(joined[consumed:start])
            written += start - consumed
            pieces.append(replacement)
            written += len(replacement)
            consumed = stop
            while boundary < len(ends) and ends[boundary] < stop:
                moved_ends.append(written)
                boundary += 1
        pieces.append(joined[consumed:])
        while boundary < len(ends):
            moved_ends.append(written + ends[boundary] - consumed)
            boundary += 1

        body = b"".join(pieces)
        result: list[bytes] = []
        previous = 0
        for end in moved_ends:
            result.append(body[previous:end])
            previous = end
        return result


@dataclass(frozen=True, slots=True)
class Rewriter(Rewrites):
    """Replaces what ``pattern`` matches with what ``replace`` makes of the match."""

    pattern: re.Pattern[bytes]
    replace: Replace
    needles: tuple[bytes, ...] = ()
    """If given, every match contains one of these: data holding none is left as it is, unread
    by the pattern (a plain substring search is many times faster than a regex scan)."""
    _sieve: tuple[tuple[bytes, tuple[bytes, ...]], ...] = field(
        init=False, repr=False, compare=False
    )
    """The needles grouped by their rarest byte (:func:`sieve`), for :meth:`leaves`."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "_sieve", sieve(self.needles))

    def spans(self, data: bytes) -> Iterator[Span]:
        for match in self.pattern.finditer(data):
            replacement = self.replace(match)
            if replacement != match.group():  # nothing replaced: a boundary inside stays put
                yield *match.span(), replacement

    def apply(self, data: bytes) -> bytes:
        if self.leaves(data):
            return data
        return self.pattern.sub(self.replace, data)

    def leaves(self, data: bytes) -> bool:
        """Whether ``data`` holds none of the needles, and so none of its parts is rewritten:
        many short values joined are checked in one search each, not one per value.

        A needle is sought only where its rarest byte is in ``data`` (a ``memchr``, a few
        hundred instructions for a 2 KB body, where each substring search costs about 7,000:
        most of the key shapes' needles have a capital letter or a ``/`` that a request body
        seldom holds). ``find``, not ``in``: for a bytes operand, ``in`` first tries it as an
        integer and formats the TypeError it gets, some 1,400 instructions a needle."""
        if not self.needles:
            return False
        find = data.find
        for byte, needles in self._sieve:
            if find(byte) >= 0 and max(map(find, needles)) >= 0:
                return False
        return True


_COMMON_BYTES = b' "etaoinsrhldcumfpgwyb,:.vk0123456789-_xjqz{}[]'
"""Bytes of request and response bodies from the most to the least common (English text in
JSON); any other byte (a capital letter, most punctuation) is rarer than all of them."""


def sieve(needles: Iterable[bytes]) -> tuple[tuple[bytes, tuple[bytes, ...]], ...]:
    """``needles`` grouped by their rarest byte by :data:`_COMMON_BYTES`: data without that
    byte holds none of its group. Its first such byte, for a needle with several."""
    groups: dict[bytes, list[bytes]] = {}
    for needle in needles:
        rarest = bytes([max(needle, key=_rarity)]) if needle else b""  # b"" is in any data
        groups.setdefault(rarest, []).append(needle)
    return tuple((byte, tuple(group)) for byte, group in groups.items())


def _rarity(byte: int) -> int:
    rank = _COMMON_BYTES.find(byte)
    return len(_COMMON_BYTES) if rank < 0 else rank


class GrowingTable:
    """A literal find/replace table that only grows, to thousands of keys (a long recording
    session's ids), and stays cheap: adding a key must not recompile a pattern of all keys.

    A key made of letters, digits, ``_`` and ``-`` is replaced where it is a whole run of
    those characters, looked up in the table (digits only: unless a ``.`` touches the run, as
    in a decimal number): while every key is such an identifier (the rule for generated ids),
    runs are found by :class:`_Runs`, in C. Other keys are matched literally, longest first, by
    one pattern that grows only with them. A run is taken whole before any key inside it: an
    id that starts with another (``123456789-0000`` after ``123456789``) is one id.
    """

    def __init__(self) -> None:
        self.replacements: dict[bytes, bytes] = {}
        self.rewriter: Rewrites | None = None
        self._others: list[bytes] = []
        self._shortest = 0
        """Runs shorter than the shortest identifier key are not looked up: fewer callbacks."""

    def add(self, key: bytes, value: bytes) -> None:
        self.replacements[key] = value
        if not _IDENTIFIER.fullmatch(key):
            self._others.append(key)
            self._others.sort(key=len, reverse=True)
        elif self._shortest and self._shortest <= len(key):
            return
        else:
            self._shortest = len(key)
        if not self._others:
            self.rewriter = _Runs(self.replacements, self._shortest)
            return
        runs = rb"(?P<run>[A-Za-z0-9_\-]{%d,})" % max(self._shortest, 4)
        pattern = re.compile(b"|".join([*map(_bounded, self._others), runs]))
        self.rewriter = Rewriter(pattern, self._replace)

    def _replace(self, match: re.Match[bytes]) -> bytes:
        found = match.group()
        if match.lastgroup == "run" and _in_a_decimal(match.string, *match.span()):
            return found
        return self.replacements.get(found, found)


_IDENTIFIER = re.compile(rb"[A-Za-z0-9_\-]{4,}")
_RUN_MARKS = bytes(97 if _IDENTIFIER.fullmatch(bytes([byte]) * 4) else 32 for byte in range(256))
"""A ``bytes.translate`` table: identifier characters to ``a``, every other byte to a space."""


@dataclass(frozen=True, slots=True)
class _Runs(Rewrites):
    """Each run of identifier characters at least ``shortest`` long, looked up in the table.

    The same replacements as the pattern ``[A-Za-z0-9_\\-]{shortest,}`` with a look-up
    per match, found with ``bytes.translate`` and one ``bytes.find`` per run, in C: sre takes
    about 13 ns a byte for that pattern, and ids are sought in every recorded request and
    response. A property test holds the two to the same output.
    """

    replacements: dict[bytes, bytes]
    shortest: int

    def spans(self, data: bytes) -> Iterator[Span]:
        marks = data.translate(_RUN_MARKS)
        seed = b"a" * self.shortest
        start = marks.find(seed)
        while start >= 0:
            stop = marks.find(b" ", start)
            if stop < 0:
                stop = len(marks)
            run = data[start:stop]
            replacement = self.replacements.get(run)
            if (
                replacement is not None
                and replacement != run
                and not _in_a_decimal(data, start, stop)
            ):
                yield start, stop, replacement
            start = marks.find(seed, stop)


def _in_a_decimal(data: bytes, start: int, stop: int) -> bool:
    """Whether the run ``data[start:stop]`` is digits beside a ``.``: part of a number such as
    a timestamp inside a logprob, never an id of its own."""
    return data[start:stop].isdigit() and b"." in (data[start - 1 : start], data[stop : stop + 1])


def _bounded(key: bytes) -> bytes:
    """Digits must not match inside a longer number (a timestamp inside a logprob)."""
    escaped = re.escape(key)
    if key.isdigit():
        return rb"(?<![0-9.])" + escaped + rb"(?![0-9.])"
    return escaped
