"""Fitting the command line's human output to the terminal's width.

Cells and lines are cut with "…" where they are cut: paths keep their end (the
file name), everything else keeps its start. A table is never cut: it becomes one
block per row where it does not fit (:func:`table`). ``--json`` never goes through
here, so it keeps everything.
"""

from __future__ import annotations

import functools
import shutil
import textwrap
from collections.abc import Sequence

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


NO_BREAK = "\u00a0"
"""Holds a field's title and value together while its line is wrapped (textwrap breaks only
at ASCII whitespace); a space again in what is printed."""
INDENT = "  "


def table(titles: Sequence[str], rows: Sequence[Sequence[str]], width: int) -> list[str]:
    """The header and rows as columns when every cell fits whole in ``width``; else each row
    as a block: its first cell on a line of its own, then ``title value`` fields, wrapped to
    ``width`` and indented (as ``llm logs`` and ``sqlite-utils`` do for wide records).

    Nothing is cut or left out either way: a narrow terminal gets more lines, not less.
    """
    widths = [max(len(title), *(len(row[i]) for row in rows)) for i, title in enumerate(titles)]
    if sum(widths) + len(GAP) * (len(widths) - 1) <= width:
        return [
            GAP.join(cell.ljust(widths[i]) for i, cell in enumerate(cells)).rstrip()
            for cells in [titles, *rows]
        ]
    return [line for cells in rows for line in record(titles, cells, width)]


def record(titles: Sequence[str], cells: Sequence[str], width: int) -> list[str]:
    """One row as a block (see :func:`table`), each line at most ``width`` characters."""
    wrap = functools.partial(textwrap.wrap, break_long_words=True, break_on_hyphens=False)
    fields = GAP.join(
        f"{title} {value}".replace(" ", NO_BREAK)
        for title, value in zip(titles[1:], cells[1:], strict=True)
    )
    lines = wrap(fields, max(width, MIN_WIDTH), initial_indent=INDENT, subsequent_indent=INDENT)
    return [
        *wrap(cells[0], max(width, MIN_WIDTH)),
        *(line.replace(NO_BREAK, " ") for line in lines),
    ]
