"""Finding and reading cassette files for the command line.

Paths name cassette files or directories searched recursively for ``*.json``
files. A file named on the command line must be a cassette. In a directory,
hidden files (the usage record, lock and temporary files) are passed over,
and so is JSON that is plainly something else (no ``"interactions"``), so a
test tree with JSON fixtures beside its cassettes can be listed; a file that
is not valid JSON at all is reported, since that is what a damaged cassette
looks like.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from replay._core.errors import CassetteError
from replay._core.location import Location
from replay._core.model import Interaction
from replay._store import cassette_file as store
from replay._store import journal
from replay._store.backend import store_for


@dataclass(frozen=True)
class Found:
    path: Location
    relative: str
    """The path below the directory it was found in; the file name for a named file."""
    named: bool
    """Named on the command line, rather than found in a directory."""


@dataclass(frozen=True)
class CassetteFile:
    path: Location
    relative: str
    size: int
    entries: store.Document
    """The stored interactions as parsed, by key."""

    def interactions(self) -> Iterator[Interaction]:
        """Decoded in key order; a malformed one raises a CassetteError naming its key."""
        for key in sorted(self.entries):
            yield store.decode(self.path, key, self.entries[key])


def find(paths: Iterable[Location]) -> list[Found]:
    found: list[Found] = []
    for path in paths:
        below = store_for(path).cassettes_in(path)
        if below is None:
            found.append(Found(path, path.name, named=True))
        else:
            found.extend(Found(file, relative, named=False) for file, relative in below)
    return found


def read(found: Found) -> CassetteFile | None:
    """The cassette, or None for JSON in a directory that is not a cassette."""
    try:
        loaded = journal.view(store_for(found.path), found.path)
    except CassetteError:
        if not found.named and not _looks_like_cassette(found.path):
            return None
        raise
    if loaded.signature is None and not loaded.journal:
        raise CassetteError(found.path, "does not exist")
    size = loaded.signature[1] if loaded.signature else 0  # only a killed recorder's journal
    return CassetteFile(found.path, found.relative, size, loaded.interactions)


def is_directory(path: Location) -> bool:
    """Whether ``path`` names a directory of cassettes (a prefix, in an object store)."""
    return store_for(path).cassettes_in(path) is not None


def _looks_like_cassette(path: Location) -> bool:
    if not isinstance(path, Path):
        return True  # in an object store, any JSON under the prefix is taken as a cassette
    try:
        file = store.open_regular(path)
        if file is None:
            return True  # a symbolic link to nothing: say so
        with file:
            if os.fstat(file.fileno()).st_size > store.MAX_CASSETTE_BYTES:
                return True  # too big to be a fixture: say so, as load did
            document: Any = orjson.loads(file.read())
    except (CassetteError, OSError, orjson.JSONDecodeError):
        return True  # unreadable or damaged: say so rather than pass it over
    return isinstance(document, dict) and "interactions" in document


def read_all(paths: Iterable[Location]) -> list[CassetteFile]:
    return [cassette for found in find(paths) if (cassette := read(found)) is not None]
