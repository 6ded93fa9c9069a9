"""How the command line words a count: ``1 cassette``, ``2 cassettes``."""

from __future__ import annotations


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """``number`` and ``noun``, in the plural (``noun + "s"`` unless given) but for one."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"
