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
from functools import lru_cache

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
        given back as they are: a response passes several rewriters, most changing nothing.
        A body in one chunk (most answers) is rewritten as it is, with no list of chunks."""
        if len(chunks) == 1:
            (chunk,) = chunks
            data = self.apply(chunk.data)
            return chunks if data is chunk.data else (Chunk(data, chunk.at),)
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
    """If given, every match contains one of these, or one of ``run_needles``: data holding
    none is left as it is, unread by the pattern (a plain substring search is many times
    faster than a regex scan)."""
    run_needles: tuple[bytes, ...] = ()
    """Needles of the matches that also hold :data:`WORD_RUN` word bytes in a row
    (:func:`holds_word_run`), and that hold such a needle made of word bytes only inside that
    run (``sk-`` and the 20 or more word bytes after it): sought only in data holding such a
    run, and then a needle of word bytes only within the runs. The key shapes' prefixes
    (``sk-``, ``hf_``) are made of letters common in prose, so a search for them reads a whole
    body, where a body of prose has no run of 20 word bytes to search them in."""
    _anchored: tuple[tuple[str, tuple[str, ...]], ...] = field(
        init=False, repr=False, compare=False
    )
    """:func:`anchored` needles: what :meth:`leaves` searches in the whole data."""
    _run_anchored: tuple[tuple[str, tuple[str, ...]], ...] = field(
        init=False, repr=False, compare=False
    )
    """The run needles that are not made of word bytes only (``ya29.``): sought in the whole
    data, when it holds a run."""
    _in_runs: tuple[tuple[str, tuple[str, ...]], ...] = field(init=False, repr=False, compare=False)
    """The needles found only within a run of :data:`WORD_RUN` word bytes: the run needles
    made of word bytes only, and the needles that are such a run themselves (a request's API
    key). Sought in those runs alone, a few dozen bytes of an answer, not in the whole of it;
    a needle of 20 word bytes is in data exactly when it is in one of its runs."""

    def __post_init__(self) -> None:
        in_runs = [n for n in self.needles if len(n) >= WORD_RUN and _of_word_bytes(n)]
        in_runs += [n for n in self.run_needles if _of_word_bytes(n)]
        anywhere = tuple(n for n in self.needles if n not in in_runs)
        object.__setattr__(self, "_anchored", anchored(anywhere))
        object.__setattr__(
            self, "_run_anchored", anchored(tuple(n for n in self.run_needles if n not in in_runs))
        )
        object.__setattr__(self, "_in_runs", anchored(tuple(in_runs)))

    def matches(self, data: bytes) -> Iterator[re.Match[bytes]]:
        """The pattern's matches in ``data``, as ``finditer`` finds them: a rewriter that
        knows where its matches may start seeks them only there."""
        return self.pattern.finditer(data)

    def spans(self, data: bytes) -> Iterator[Span]:
        for match in self.matches(data):
            replacement = self.replace(match)
            if replacement != match.group():  # nothing replaced: a boundary inside stays put
                yield *match.span(), replacement

    def apply(self, data: bytes) -> bytes:
        if self.leaves(data):
            return data
        return self.pattern.sub(self.replace, data)

    def leaves(self, data: bytes) -> bool:
        """Whether ``data`` holds none of the needles (nor of ``run_needles`` with a run of
        word bytes), and so none of its parts is rewritten: many short values joined are
        checked in one search each, not one per value.

        Searched by :func:`anchored`: a needle whose rarest byte is not in ``data`` is not
        either, and that byte is sought by ``memchr``, where a search for the needle reads
        nearly every byte (its skip table collides on every lower case letter). The search is
        in ``data`` read as Latin-1 (one character per byte, so the same answer), as ``in`` on
        bytes first tries its operand as an integer and raises inside, and ``find`` parses
        its arguments: either costs more than a search of a header."""
        if not (self._anchored or self._run_anchored or self._in_runs):
            return False
        text = data.decode("latin-1")
        if _holds_one(text, self._anchored):
            return False
        # The runs' cost (a translate) is paid only where one of their needles' anchors is.
        groups = [group for group in self._run_anchored if group[0] in text]
        inside = [group for group in self._in_runs if group[0] in text]
        if not (groups or inside):
            return True
        runs = _RECENT_RUNS.kept(data, WORD_RUN)
        if runs is None:  # not searched for ids (yet): the needles are sought in all of it
            return not (holds_word_run(data) and _holds_one(text, (*groups, *inside)))
        within = " ".join([text[start:stop] for start, stop in runs if stop - start >= WORD_RUN])
        return not (within and (_holds_one(text, groups) or _holds_one(within, inside)))


def _holds_one(text: str, anchored_needles: Iterable[tuple[str, tuple[str, ...]]]) -> bool:
    for anchor, needles in anchored_needles:
        if anchor in text:
            for needle in needles:
                if needle in text:
                    return True
    return False


WORD_RUN = 20
_RUN_OF_WORDS = "a" * WORD_RUN


def holds_word_run(data: bytes) -> bool:
    """Whether ``data`` holds :data:`WORD_RUN` bytes of ``[A-Za-z0-9_-]`` in a row: each byte
    made an ``a`` or a space by one ``translate`` (:data:`_RUN_MARKS`), then one search (sre
    tries the run at every byte, ten times slower). A large body (an upload) is searched a
    piece at a time, each overlapping the next by a run's length less one (so a run across
    two is in one): two copies of it whole, at once, would be more than the body."""
    if len(data) <= _RUN_PIECE:
        return _RUN_OF_WORDS in data.translate(_RUN_MARKS).decode("latin-1")
    return any(
        _RUN_OF_WORDS
        in data[start : start + _RUN_PIECE + WORD_RUN - 1].translate(_RUN_MARKS).decode("latin-1")
        for start in range(0, len(data), _RUN_PIECE)
    )


_RUN_PIECE = 1 << 20


def _of_word_bytes(needle: bytes) -> bool:
    return needle.translate(_RUN_MARKS) == b"a" * len(needle)


def field_matches(
    pattern: re.Pattern[bytes], needles: tuple[bytes, ...], data: bytes
) -> Iterator[re.Match[bytes]]:
    """``pattern.finditer(data)``, for a pattern of JSON fields whose every match opens with a
    quote and holds one of ``needles`` with no quote between that one and the needle's start
    (``"created"``; ``_at"``, the end of a name): tried only at the last quote at or before
    each needle, not at every quote of the body as sre does (most of a scan's time is spent
    trying the fields at quotes where none is). Leftmost matches that do not overlap, as
    ``finditer``: every position where one starts is among those tried."""
    starts = set()
    for needle in needles:
        found = data.find(needle)
        while found >= 0:
            starts.add(data.rfind(b'"', 0, found + 1))
            found = data.find(needle, found + 1)
    return _matches_at(pattern, data, starts)


def led_matches(
    pattern: re.Pattern[bytes], leads: tuple[tuple[bytes, int], ...], data: bytes
) -> Iterator[re.Match[bytes]]:
    """``pattern.finditer(data)``, for a pattern whose every match starts ``offset`` bytes
    after an occurrence of a ``needle`` of ``leads`` (an alternation of literals and of
    patterns opening with a literal, or with a lookbehind of one): tried only there, each
    needle found by ``bytes.find`` in C, where sre tries every alternative at every byte
    (300 ns a byte for a scrubber's pattern, over the whole of an upload). Leftmost matches
    that do not overlap, as ``finditer``: every position where one starts is among those
    tried, and a lookbehind sees the bytes before it. None of the matches is empty."""
    starts = set()
    for needle, offset in leads:
        found = data.find(needle)
        while found >= 0:
            starts.add(found + offset)
            found = data.find(needle, found + 1)
    return _matches_at(pattern, data, starts)


def _matches_at(
    pattern: re.Pattern[bytes], data: bytes, starts: set[int]
) -> Iterator[re.Match[bytes]]:
    """The matches of ``pattern`` starting at ``starts``, leftmost first, none overlapping the
    one before: those of ``finditer`` when every match starts at one of them."""
    end = 0
    for start in sorted(starts):
        if start >= end and (match := pattern.match(data, start)) is not None:
            end = match.end()
            yield match


@dataclass(frozen=True, slots=True)
class FieldRewriter(Rewrites):
    """Replaces what ``pattern`` matches with what ``replace`` makes of the match, the matches
    sought by :func:`field_matches`: the same replacements as a :class:`Rewriter` of the
    pattern, for a pattern that keeps its rule (a property test holds the two alike)."""

    pattern: re.Pattern[bytes]
    replace: Replace
    needles: tuple[bytes, ...]

    def spans(self, data: bytes) -> Iterator[Span]:
        for match in field_matches(self.pattern, self.needles, data):
            replacement = self.replace(match)
            if replacement != match.group():
                yield *match.span(), replacement


_BY_FREQUENCY = ' "etaoinsrlcdhmup:,_0g1f2ybw.-v3k45{}6789x[]jqz\nTISACEMNPRDOLFGHWUY'
"""Characters of API bodies (JSON, English prose), the most frequent first, roughly; any other
(``\\``, ``/``, ``J``, ``K``, ``B``, control and non-ASCII bytes) is rarer than all of them."""


@lru_cache(maxsize=256)
def anchored(needles: tuple[bytes, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``needles`` as :meth:`Rewriter.leaves` seeks them: grouped under the rarest byte of
    each (its anchor; an empty needle's is empty, found anywhere), and without those that
    contain another one (found in data only where that one is too). Data holds one of
    ``needles`` exactly when it holds one of a group's needles and with it the group's
    anchor; a property test holds the two to the same answer."""
    distinct = dict.fromkeys(needle.decode("latin-1") for needle in needles)
    kept = [n for n in distinct if not any(other != n and other in n for other in distinct)]
    groups: dict[str, list[str]] = {}
    for needle in kept:
        groups.setdefault(max(needle, key=_rarity, default=""), []).append(needle)
    return tuple((anchor, tuple(group)) for anchor, group in groups.items())


def _rarity(character: str) -> int:
    position = _BY_FREQUENCY.find(character)
    return len(_BY_FREQUENCY) if position < 0 else position


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
        self._additions = 0
        """Keys added so far: the table's version (it grows in place, under one rewriter)."""
        self._applied: tuple[Rewrites | None, int, _Applied, _Applied] = (None, -1, _NONE, _NONE)
        """The rewriter and version :meth:`apply` last rewrote with, and its last two answers."""

    def add(self, key: bytes, value: bytes) -> None:
        self._additions += 1
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

    def apply(self, rewriter: Rewrites, data: bytes) -> bytes:
        """``rewriter.apply(data)``, for a rewriter this table made (:attr:`rewriter` now or
        before it grew): the answers for the last two data are kept while the table and the
        rewriter stay the same. A request being recorded is searched for ids as keyed and again
        as stored, its URL and then its body each time, as a rule the same bytes; the search
        looks every run of id characters up in the table, most of its cost. The version is
        read before the search, so an answer made while another thread adds is kept under the
        older one, never found again. One tuple replaced whole: threads need no lock."""
        additions = self._additions
        made_by, version, last, before = self._applied
        if made_by is rewriter and version == additions:
            for searched, answer in (last, before):
                if searched is data or searched == data:
                    return answer
        else:
            last = _NONE
        answer = rewriter.apply(data)
        self._applied = (rewriter, additions, (data, answer), last)
        return answer


_Applied = tuple[bytes | None, bytes]
_NONE: _Applied = (None, b"")
"""No answer kept: ``None`` is no data."""
_IDENTIFIER = re.compile(rb"[A-Za-z0-9_\-]{4,}")
_RUN_MARKS = bytes(97 if _IDENTIFIER.fullmatch(bytes([byte]) * 4) else 32 for byte in range(256))
"""A ``bytes.translate`` table: identifier characters to ``a``, every other byte to a space."""


@dataclass(frozen=True, slots=True)
class _Runs(Rewrites):
    """Each run of identifier characters at least ``shortest`` long, looked up in the table.

    The same replacements as the pattern ``[A-Za-z0-9_\\-]{shortest,}`` with a look-up
    per match, found with ``bytes.translate`` and one ``bytes.find`` per run (kept for a
    search of the same bytes again: :class:`_RecentRuns`), in C: sre takes
    about 13 ns a byte for that pattern, and ids are sought in every recorded request and
    response. A property test holds the two to the same output.
    """

    replacements: dict[bytes, bytes]
    shortest: int

    def spans(self, data: bytes) -> Iterator[Span]:
        for start, stop in _RECENT_RUNS.of(data, self.shortest):
            run = data[start:stop]
            replacement = self.replacements.get(run)
            if (
                replacement is not None
                and replacement != run
                and not _in_a_decimal(data, start, stop)
            ):
                yield start, stop, replacement


class _RecentRuns:
    """The runs of the last data searched, kept for the next search of the same bytes: a
    request being recorded is searched for ids as keyed, as stored and as sent upstream
    (three tables, one body, as a rule the same bytes), and the search is most of the cost.
    One pair at a time, replaced whole, so threads need no lock: a race searches again."""

    def __init__(self) -> None:
        self._last: tuple[bytes, int, list[tuple[int, int]]] = (b"", 0, [])

    def kept(self, data: bytes, shortest: int) -> list[tuple[int, int]] | None:
        """What :meth:`of` gives, if kept from the last search: else None, nothing searched."""
        searched, least, runs = self._last
        if least <= shortest and (searched is data or searched == data):
            return runs
        return None

    def of(self, data: bytes, shortest: int) -> list[tuple[int, int]]:
        """(start, stop) of each run of identifier characters at least ``shortest`` long, and
        maybe of shorter ones."""
        runs = self.kept(data, shortest)
        if runs is not None:
            return runs  # with shorter ones, maybe: no key is shorter, none is replaced
        marks = data.translate(_RUN_MARKS)
        seed = b"a" * shortest
        runs = []
        start = marks.find(seed)
        while start >= 0:
            stop = marks.find(b" ", start)
            if stop < 0:
                stop = len(marks)
            runs.append((start, stop))
            start = marks.find(seed, stop)
        if len(data) >= _WORTH_KEEPING:
            self._last = (data, shortest, runs)
        return runs


_RECENT_RUNS = _RecentRuns()
_WORTH_KEEPING = 256
"""Shorter data (a URL, searched between a body's searches) is searched again, not kept."""


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
