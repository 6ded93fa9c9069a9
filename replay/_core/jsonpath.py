"""Dotted JSON paths: ``model``, ``metadata.user_id``, ``messages[*].name``, ``tools[0]``.

Used to leave fields out of the request key and to name the fields in which
two requests differ.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

WILDCARD = "*"
_NAME = r"[^.\[\]]+"
_SEGMENT = re.compile(rf"({_NAME})|\[(\d+|\*)\]")
_PATH = re.compile(
    rf"{_NAME}(?:\.{_NAME}|\[(?:\d+|\*)\])*|\[(?:\d+|\*)\](?:\.{_NAME}|\[(?:\d+|\*)\])*"
)


@lru_cache(maxsize=256)
def parse(path: str) -> tuple[str | int, ...]:
    """``"messages[*].name"`` -> ``("messages", "*", "name")``; indexes become ints.

    Raises ValueError for what is not a path (``""``, ``"messages["``, ``"a..b"``).
    """
    if not _PATH.fullmatch(path):
        raise ValueError(
            f"{path!r} is not a JSON path (like model, metadata.user_id or messages[*].name)"
        )
    segments: list[str | int] = []
    for name, index in _SEGMENT.findall(path):
        if name:
            segments.append(name)
        else:
            segments.append(WILDCARD if index == WILDCARD else int(index))
    return tuple(segments)


def without(value: Any, paths: tuple[tuple[str | int, ...], ...]) -> Any:
    """A copy of ``value`` with every field named by ``paths`` left out."""
    for path in paths:
        value = _drop(value, path)
    return value


def _drop(value: Any, path: tuple[str | int, ...]) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        if head == WILDCARD:
            keys = list(value)
        elif isinstance(head, str) and head in value:
            keys = [head]
        else:
            return value
        copy = dict(value)
        for key in keys:
            if rest:
                copy[key] = _drop(copy[key], rest)
            else:
                del copy[key]
        return copy
    if isinstance(value, list):
        if head == WILDCARD:
            indexes = range(len(value))
        elif isinstance(head, int) and 0 <= head < len(value):
            indexes = range(head, head + 1)
        else:
            return value
        if not rest:
            return [item for index, item in enumerate(value) if index not in indexes]
        copy_list = list(value)
        for index in indexes:
            copy_list[index] = _drop(copy_list[index], rest)
        return copy_list
    return value


def differences(recorded: Any, requested: Any, prefix: str = "") -> Iterator[tuple[str, Any, Any]]:
    """The leaf paths at which two JSON values differ, with both values."""
    if isinstance(recorded, dict) and isinstance(requested, dict):
        for key in sorted(recorded.keys() | requested.keys()):
            path = f"{prefix}.{key}" if prefix else key
            if key not in recorded:
                yield path, None, requested[key]
            elif key not in requested:
                yield path, recorded[key], None
            else:
                yield from differences(recorded[key], requested[key], path)
    elif (
        isinstance(recorded, list)
        and isinstance(requested, list)
        and len(recorded) == len(requested)
    ):
        for index, (left, right) in enumerate(zip(recorded, requested, strict=True)):
            yield from differences(left, right, f"{prefix}[{index}]")
    elif recorded != requested or type(recorded) is not type(requested):
        yield prefix, recorded, requested
