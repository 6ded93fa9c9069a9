"""Where cassettes live, behind one small interface: :class:`Store`.

A store holds, for each cassette (named by its path):

- the cassette itself, one whole object, read whole and written whole; a write names the
  version it replaces and fails with :class:`Conflict` when another writer got there first;
- its journal: entries, each listed by a unique id that sorts in recording order and holding
  one recorded interaction, that can be listed, read and removed; how they are kept is the
  store's (write-once objects in S3, appended records in the local store);
- an exclusive section for a read-merge-write of the cassette.

That is all an object store (S3: whole objects, conditional writes, no appends, no locks)
offers too: there, ``exclusive`` may do nothing and a :class:`Conflict` means "read and merge
again"; :func:`replay._store.journal.fold` (and :func:`~replay._store.journal.view`, for a
read a fold overtook) retries. Nothing above this module needs to know
which store it has. :class:`LocalStore` keeps them as files::

    cassettes/chat.json                      the cassette (atomic write: temporary, fsync, rename)
    cassettes/.chat.json.lock                the exclusive section (a file lock)
    cassettes/.chat.json.journal/PID-RANDOM.log         one append-only log per recording
                                                        process (see replay._store.journal_log)
    cassettes/.chat.json.journal/PID-RANDOM.log.folded  how far a fold took a live writer's log
    cassettes/.chat.json.journal/ID.entry               one per call, left by earlier versions
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, Protocol, TypeVar

from replay._core.errors import CassetteError
from replay._core.location import Location, S3Location
from replay._store import cassette_file, journal_log
from replay._store.cassette_file import Loaded, Pieces


class Conflict(Exception):
    """The cassette is no longer the version a conditional write was based on."""


At = TypeVar("At", bound=Location)
"""The kind of location a store holds: a :class:`~pathlib.Path`, an S3 location."""


class Store(Protocol[At]):
    def read(self, path: At) -> Loaded:
        """The cassette; ``signature`` None when there is none."""

    def settled(self, path: At) -> Loaded | None:
        """The cassette, journal included, for a reader that will not record, when the store
        can give it cheaper than :func:`replay._store.journal.view` (which it may have seen at
        the start of the run rather than now); None: read it with ``view``."""

    def write(
        self, path: At, interactions: Mapping[str, Any], folded: Iterable[str], expected: Any
    ) -> Loaded:
        """Replace the cassette if it is still at version ``expected``: the ``signature`` it was
        read with (None: absent; an ETag in an object store). ``interactions`` are encoded by
        :func:`~replay._store.cassette_file.dump` (a fold's, once for both its writes)."""

    def delete(self, path: At, expected: Any) -> None:
        """Remove the cassette if it is still at version ``expected``."""

    def add_entry(self, path: At, entry_id: str, data: bytes | Pieces) -> None:
        """Write one journal entry, whole or not at all (never seen in part), under an id never
        used before; on disk before this returns, not necessarily fsynced. ``data`` may come
        in pieces (a large one's), the entry their bytes one after the other."""

    def entry_ids(self, path: At) -> list[str]:
        """The ids of the journal's complete entries, sorted."""

    def read_entry(self, path: At, entry_id: str) -> bytes | memoryview | None:
        """An entry's bytes; None when it was removed (folded) since it was listed."""

    def remove_entries(self, path: At, entry_ids: Iterable[str]) -> None: ...

    def entry_file(self, path: At, entry_id: str) -> str:
        """Where a listed entry is, for a person to find it: a file, an object."""

    def exists(self, path: At) -> bool:
        """Whether the cassette is there (its journal alone does not count)."""

    def exclusive(self, path: At) -> AbstractContextManager[None]:
        """Keeps other writers of ``path`` out (a lock here; may do nothing elsewhere)."""

    def cassettes_in(self, directory: At) -> list[tuple[At, str]] | None:
        """The cassettes below ``directory`` with their names relative to it, journals left
        by a killed recorder included and hidden names passed over; None when ``directory``
        is not one (it names a cassette)."""


ENTRY_SUFFIX = ".entry"


@functools.lru_cache(maxsize=1024)
def journal_directory(path: Path) -> Path:
    """Made once per cassette, not once per recorded call and per entry folded (the path
    operations were a sixth of a fold's time); a path never changes, so one can be shared."""
    return path.parent / f".{path.name}.journal"


class _Held(threading.local):
    """The journal directories whose cassette's lock this thread holds, with what it has seen
    of their logs meanwhile (:class:`~replay._store.journal_log.Seen`)."""

    def __init__(self) -> None:
        self.seen: dict[str, journal_log.Seen] = {}


_HELD = _Held()
"""Of the process, not of a store: the lock it stands for is a file's."""


class LocalStore:
    """Cassettes as files on a local file system (see the module docstring)."""

    def read(self, path: Path) -> Loaded:
        return cassette_file.load(path)

    def settled(self, path: Path) -> Loaded | None:
        return None  # a local read is already a stat and a parse remembered by signature

    def write(
        self, path: Path, interactions: Mapping[str, Any], folded: Iterable[str], expected: Any
    ) -> Loaded:
        self._check(path, expected)
        return cassette_file.save(path, interactions, folded)

    def delete(self, path: Path, expected: Any) -> None:
        self._check(path, expected)
        try:
            path.unlink(missing_ok=True)
        except OSError as error:
            raise CassetteError(path, f"cannot delete: {error.strerror or error}") from error

    def _check(self, path: Path, expected: Any) -> None:
        """Writers hold the lock, so this only catches one that does not."""
        try:
            info = path.stat()
        except FileNotFoundError:
            current = None
        except OSError as error:
            raise CassetteError(path, f"cannot read: {error.strerror or error}") from error
        else:
            current = (info.st_ino, info.st_size, info.st_mtime_ns)
        if current != expected:
            raise Conflict(str(path))

    def add_entry(self, path: Path, entry_id: str, data: bytes | Pieces) -> None:
        """Appended to this process's log for the cassette: one ``write`` (``writev`` for
        pieces)."""
        try:
            journal_log.APPENDERS.append(
                os.fspath(journal_directory(path)), journal_log.frame(entry_id, data)
            )
        except OSError as error:
            raise CassetteError(
                path, f"cannot write to its journal: {error.strerror or error}"
            ) from error

    def entry_ids(self, path: Path) -> list[str]:
        """The complete records of every log not yet folded, and the ``.entry`` files that
        versions before the logs wrote."""
        directory = journal_directory(path)
        try:
            names = os.listdir(directory)
        except (FileNotFoundError, NotADirectoryError):
            return []
        except OSError as error:
            raise CassetteError(
                path, f"cannot read its journal: {error.strerror or error}"
            ) from error
        logs = {
            log: journal_log.records(directory, log)
            for log in names
            if log.endswith(journal_log.LOG_SUFFIX)
        }
        journal_log.PLACES.learn(directory, logs)
        ids = [name[: -len(ENTRY_SUFFIX)] for name in names if name.endswith(ENTRY_SUFFIX)]
        ids += (record.entry_id for records in logs.values() for record in records)
        return sorted(ids)

    def read_entry(self, path: Path, entry_id: str) -> bytes | memoryview | None:
        directory = journal_directory(path)
        place = journal_log.PLACES.of(directory, entry_id)
        if place is not None:
            return journal_log.read_record(directory, place, _HELD.seen.get(os.fspath(directory)))
        entry = directory / f"{entry_id}{ENTRY_SUFFIX}"
        file = cassette_file.open_regular(entry)
        if file is None:
            return None
        try:
            with file:
                return file.read()
        except OSError as error:
            raise CassetteError(entry, f"cannot read: {error.strerror or error}") from error

    def entry_file(self, path: Path, entry_id: str) -> str:
        """The log holding its record (with the entry's id in it), or its ``.entry`` file."""
        directory = journal_directory(path)
        place = journal_log.PLACES.of(directory, entry_id)
        name = f"{entry_id}{ENTRY_SUFFIX}" if place is None else place.log
        return os.fspath(directory / name)

    def remove_entries(self, path: Path, entry_ids: Iterable[str]) -> None:
        """An ``.entry`` is removed; a log's records are consumed up to the last one given,
        and the log removed once its writer is gone and nothing in it is left to fold."""
        directory = journal_directory(path)
        entry_ids = list(entry_ids)
        consumed_to: dict[str, int] = {}
        try:
            for entry_id in entry_ids:
                place = journal_log.PLACES.of(directory, entry_id)
                if place is None:
                    (directory / f"{entry_id}{ENTRY_SUFFIX}").unlink(missing_ok=True)
                else:
                    consumed_to[place.log] = max(place.end, consumed_to.get(place.log, 0))
            for log, end in consumed_to.items():
                journal_log.consume(directory, log, end)
        except OSError as error:
            raise CassetteError(
                path, f"cannot remove folded journal entries: {error.strerror or error}"
            ) from error
        journal_log.PLACES.forget(directory, entry_ids)
        if os.fspath(directory) in _HELD.seen:  # consumed: not as seen any more
            _HELD.seen[os.fspath(directory)] = journal_log.Seen()
        with contextlib.suppress(OSError):  # not empty: a writer is still recording
            directory.rmdir()

    def exists(self, path: Path) -> bool:
        return path.exists()

    @contextmanager
    def exclusive(self, path: Path) -> Iterator[None]:
        """The lock; entered by every fold, which is when what a killed writer left is removed.

        This process's own log is closed first, so that the fold removes it whole. While it
        is held, what is seen of a log is kept (:class:`~replay._store.journal_log.Seen`).
        """
        directory = os.fspath(journal_directory(path))
        with cassette_file.lock(path):
            journal_log.APPENDERS.rotate(directory)
            self._remove_abandoned(path)
            _HELD.seen[directory] = journal_log.Seen()
            try:
                yield
            finally:
                del _HELD.seen[directory]

    def _remove_abandoned(self, path: Path) -> None:
        """The temporary copies of a killed save (``.NAME.*.tmp``) and of a killed recorder's
        entries or logs (``.ID.tmp`` in the journal), once they are too old to be a live
        writer's; the logs of killed recorders with nothing left to fold in them."""
        cassette_file.remove_abandoned(path.parent, f".{path.name}.")
        directory = journal_directory(path)
        cassette_file.remove_abandoned(directory, ".")
        try:
            journal_log.sweep(directory)
        except OSError as error:
            raise CassetteError(
                path, f"cannot remove folded journal logs: {error.strerror or error}"
            ) from error
        with contextlib.suppress(OSError):  # not empty, or not there: left as it is
            directory.rmdir()

    def cassettes_in(self, directory: Path) -> list[tuple[Path, str]] | None:
        if not directory.is_dir():
            return None
        files = {file for file in directory.rglob("*.json") if not _directory(file)}
        files |= _journalled_only(directory)
        below = ((file, file.relative_to(directory)) for file in sorted(files))
        return [(file, relative.as_posix()) for file, relative in below if not _hidden(relative)]


def _directory(path: Path) -> bool:
    """A directory named ``*.json`` is searched, not read; anything else found is read, so
    that a special file or a symbolic link that leads nowhere is reported, not passed over."""
    try:
        return path.is_dir()
    except OSError:  # a symbolic link loop, on Pythons whose is_dir() raises for it
        return False


def _journalled_only(directory: Path) -> set[Path]:
    """Cassettes that are only a journal so far: their recorder was killed before saving."""
    return {
        cassette
        for journal_dir in directory.rglob(".*.json.journal")
        if not (cassette := journal_dir.parent / journal_dir.name[1 : -len(".journal")]).exists()
        and journal_directory(cassette) == journal_dir
    }


def _hidden(relative: Path) -> bool:
    return any(part.startswith(".") for part in relative.parts)


LOCAL = LocalStore()


def store_for(location: Location) -> Store[Any]:
    """The one place that picks a store from where a cassette is."""
    if isinstance(location, S3Location):
        from replay._store import s3  # only when an s3:// location is used: it loads boto3

        return s3.STORE
    return LOCAL
