"""Fitting the command line's human output to the terminal's width.

Cells and lines are cut with "…" where they are cut: paths keep their end (the
file name), everything else keeps its start. ``--json`` never goes through here,
so it keeps everything.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import dataclass

ELLIPSIS = "…"
MIN_WIDTH = 40
"""Narrower than this, cutting leaves nothing readable: lines wrap instead."""
KEY_SHOWN = 12
"""Hex digits of a request key shown to people, like git's short hashes; ``--key`` takes them."""
GAP = "  "


def terminal_width() -> int:
    """``COLUMNS`` if set, else the terminal's width, else 80 (a pipe, a file)."""
    return max(shutil.get_terminal_size(fallback=(80, 24)).columns, MIN_WIDTH)


def cut(text: str, width: int, keep_end: bool = False) -> str:
    """``text`` in at most ``width`` characters, "…" marking what was cut."""
    if len(text) <= width:
        return text
    if width <= 1:
        return ELLIPSIS[:width]
    return ELLIPSIS + text[-(width - 1) :] if keep_end else text[: width - 1] + ELLIPSIS


def flat(text: str) -> str:
    """All whitespace runs as one space, so that a prompt shows on one line."""
    return " ".join(text.split())


def short_key(key: str) -> str:
    return key[:KEY_SHOWN]


def cut_url(url: str, width: int) -> str:
    """The URL, else "…" and its path (the scheme and host go first), cut if need be."""
    if len(url) <= width:
        return url
    _, separator, rest = url.partition("://")
    if not separator:
        return cut(url, width, keep_end=True)
    return cut(ELLIPSIS + "/" + rest.partition("/")[2], width, keep_end=True)


@dataclass(frozen=True)
class Column:
    title: str
    shrink_to: int | None = None
    """The narrowest a column may be cut to; None: never cut."""
    keep_end: bool = False
    """Cut from the start (paths), not the end."""
    keep: int = 1
    """How hard to keep it whole: of the columns that can be cut, the lowest is cut first."""
    drop: int | None = None
    """How hard to keep it at all, on the same scale; None: it is never left out."""


def table(columns: Sequence[Column], rows: Sequence[Sequence[str]], width: int) -> list[str]:
    """The header and rows as lines of at most ``width`` characters where that can be done.

    Step by step, the cheapest move is made: cutting one character from the column
    with the lowest ``keep`` (the widest among equals), down to its minimum, or
    leaving out the column with the lowest ``drop``; until the table fits or
    nothing more can go. A last line tells which columns were left out.
    """
    shown = list(range(len(columns)))
    widths = [max(len(columns[i].title), *(len(row[i]) for row in rows)) for i in shown]

    def total() -> int:
        return sum(widths[i] for i in shown) + len(GAP) * (len(shown) - 1)

    def cuttable(i: int) -> bool:
        floor = columns[i].shrink_to
        return floor is not None and widths[i] > floor

    while total() > width:
        moves = [(columns[i].keep, -widths[i], i, "cut") for i in shown if cuttable(i)]
        moves += [(drop, 0, i, "drop") for i in shown if (drop := columns[i].drop) is not None]
        if not moves:
            break
        *_, chosen, move = min(moves)
        if move == "cut":
            widths[chosen] -= 1
        else:
            shown.remove(chosen)
    lines = [
        GAP.join(
            cut(cells[i], widths[i], columns[i].keep_end).ljust(widths[i]) for i in shown
        ).rstrip()
        for cells in [[c.title for c in columns], *rows]
    ]
    left_out = [columns[i].title for i in range(len(columns)) if i not in shown]
    if left_out:
        lines.append(f"({', '.join(left_out)}: not shown at this width; --json has them)")
    return lines
