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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from replay.model import Chunk

Replace = Callable[["re.Match[bytes]"], bytes]


@dataclass(frozen=True, slots=True)
class Rewriter:
    pattern: re.Pattern[bytes]
    replace: Replace

    @classmethod
    def literal(cls, replacements: Mapping[bytes, bytes]) -> Rewriter | None:
        """Replace each key by its value; longer keys win where two overlap."""
        if not replacements:
            return None
        keys = sorted(replacements, key=len, reverse=True)
        pattern = re.compile(b"|".join(_bounded(key) for key in keys))
        table = dict(replacements)
        return cls(pattern, lambda match: table[match.group()])

    def apply(self, data: bytes) -> bytes:
        return self.pattern.sub(self.replace, data)

    def apply_to(self, chunks: tuple[Chunk, ...]) -> tuple[Chunk, ...]:
        """Rewrite recorded chunks; each keeps its arrival time."""
        rewritten = self.apply_chunks([chunk.data for chunk in chunks])
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
        for match in self.pattern.finditer(joined):
            start, stop = match.span()
            while boundary < len(ends) and ends[boundary] <= start:
                moved_ends.append(written + ends[boundary] - consumed)
                boundary += 1
            replacement = self.replace(match)
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


def _bounded(key: bytes) -> bytes:
    """Digits must not match inside a longer number (a timestamp inside a logprob)."""
    escaped = re.escape(key)
    if key.isdigit():
        return rb"(?<![0-9.])" + escaped + rb"(?![0-9.])"
    return escaped
