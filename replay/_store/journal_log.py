"""The local journal's files: one append-only log per recording process and cassette.

Recording a call appends one framed record to this process's log for the cassette,
``.NAME.journal/PID-RANDOM.log``, in one ``write``: no file is created, renamed or removed per
call. A record is ``MAGIC, length, CRC32 of the payload, payload`` and its payload is the
entry's id, a newline, and the entry. A reader takes the complete records of a log from the
start and stops at the first that is not whole (a writer killed mid-``write``, a power loss):
that torn tail is dropped, never misread, and never reported, since no caller was answered
from it (the write happens before the response is handed back). Because records are only ever
appended, nothing after a torn record can be one that a live writer completed.

A log is **live** while its writer holds it open: the writer takes an exclusive ``flock`` on
it before it gets its ``.log`` name (created as a temporary, locked, then renamed), and the
lock goes with the process, however it ends. A fold may remove a log only once it is not live
and every complete record in it is folded; of a live log (another process still recording)
it folds what is complete and writes the offset it consumed to ``PID-RANDOM.log.folded``
(atomically, fsynced), which readers and later folds start from. A process rotates its own
log when it folds the cassette itself (it closes it, and its next recording opens a new one),
so a save removes the log that process wrote; what another process folded of a live log
stays on disk until that writer saves or dies.

The store lists a record by its entry id, as it listed the ``.entry`` files of earlier
versions (those are still read, folded and removed): listing learns where each record is
(:data:`PLACES`), and reading or consuming one goes there.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import secrets
import stat
import struct
import threading
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO, NamedTuple, TypeVar

from replay._core.errors import CassetteError
from replay._store import cassette_file
from replay._store.cassette_file import Pieces

T = TypeVar("T")

MAGIC = b"RPJ1"
HEADER = struct.Struct(">4sII")
"""Magic, payload length, CRC32 of the payload."""
LOG_SUFFIX = ".log"
CONSUMED_SUFFIX = ".folded"


class LogRecord(NamedTuple):
    """(A named tuple: a frozen dataclass took a third of the listing's time per record.)"""

    entry_id: str
    start: int
    end: int
    data: bytes | memoryview


def frame(entry_id: str, data: bytes | Pieces) -> bytes | Pieces:
    """Joined once: the entry is most of the record, and copied only into it. An entry in
    pieces (a large one) is framed in pieces, written with one ``writev``: not copied."""
    head = entry_id.encode() + b"\n"
    if isinstance(data, bytes):
        length, checksum = len(head) + len(data), zlib.crc32(data, zlib.crc32(head))
        return b"".join((HEADER.pack(MAGIC, length, checksum), head, data))
    length, checksum = len(head), zlib.crc32(head)
    for piece in data:
        length, checksum = length + len(piece), zlib.crc32(piece, checksum)
    return (HEADER.pack(MAGIC, length, checksum), head, *data)


def complete_records(buffer: bytes, offset: int) -> Iterator[LogRecord]:
    """The whole records at the start of ``buffer`` (a log's bytes from ``offset`` on), up to
    the first that is not: a torn tail, or one still being written."""
    position = 0
    view = memoryview(buffer)  # the payload checked where it is, and copied once: its entry
    while len(buffer) - position >= HEADER.size:
        magic, length, checksum = HEADER.unpack_from(buffer, position)
        start, end = position + HEADER.size, position + HEADER.size + length
        if magic != MAGIC or length == 0 or end > len(buffer):
            return
        if zlib.crc32(view[start:end]) != checksum:
            return
        newline = buffer.find(b"\n", start, end)
        if newline < 0:
            return
        entry_id = buffer[start:newline].decode()
        # A large entry (an upload's) is not copied out of the log's bytes: it is most of them.
        large = end - newline > cassette_file.LARGE_PART
        data = view[newline + 1 : end] if large else buffer[newline + 1 : end]
        yield LogRecord(entry_id, offset + position, offset + end, data)
        position = end


class Place(NamedTuple):
    log: str
    start: int
    end: int
    data: bytes | memoryview
    """The record's entry as listed: a record is only appended, never changed."""


class Places:
    """Where the records this process has listed are, by entry id: the store lists a record by
    its entry id (recording order) and reads or consumes it from here. A record's place never
    changes (logs are only appended to, and their names never reused), so what is known is
    kept, for the logs still there."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._known: dict[str, dict[str, Place]] = {}

    def learn(self, directory: Path, logs: dict[str, list[LogRecord]]) -> None:
        with self._lock:
            known = self._known.setdefault(os.fspath(directory), {})
            for entry_id in [i for i, place in known.items() if place.log not in logs]:
                del known[entry_id]
            for log, found in logs.items():
                known.update((r.entry_id, Place(log, r.start, r.end, r.data)) for r in found)
            if not known:
                del self._known[os.fspath(directory)]

    def of(self, directory: Path, entry_id: str) -> Place | None:
        with self._lock:
            return self._known.get(os.fspath(directory), {}).get(entry_id)

    def forget(self, directory: Path, entry_ids: list[str]) -> None:
        with self._lock:
            known = self._known.get(os.fspath(directory), {})
            for entry_id in entry_ids:
                known.pop(entry_id, None)


PLACES = Places()


def log_names(directory: Path) -> list[str]:
    try:
        names = os.listdir(directory)
    except (FileNotFoundError, NotADirectoryError):
        return []
    return sorted(name for name in names if name.endswith(LOG_SUFFIX))


def consumed(directory: Path, log: str) -> int:
    """The offset up to which a fold took the log's records (0: none)."""
    marker = directory / f"{log}{CONSUMED_SUFFIX}"
    file = cassette_file.open_regular(marker)
    if file is None:
        return 0
    with file:
        text = file.read(32)
    try:
        return int(text)
    except ValueError:
        raise CassetteError(marker, "is not an offset; delete it to fold the log again") from None


def records(directory: Path, log: str) -> list[LogRecord]:
    """The complete records of ``log`` not yet folded; none when it was removed."""
    start = consumed(directory, log)
    data = _read_from(directory / log, start)
    return [] if data is None else list(complete_records(data, start))


def _read_from(path: Path, offset: int) -> bytes | None:
    """The log's bytes from ``offset`` on; None when it was removed."""
    return _reading(path, offset, lambda file: file.read())


def _reading(path: Path, offset: int, read: Callable[[BinaryIO], T]) -> T | None:
    """What ``read`` makes of the log opened at ``offset``; None when it was removed."""
    file = cassette_file.open_regular(path)
    if file is None:
        return None
    try:
        with file:
            file.seek(offset)
            return read(file)
    except OSError as error:
        raise CassetteError(path, f"cannot read: {error.strerror or error}") from error


def read_record(
    directory: Path, place: Place, seen: Seen | None = None
) -> bytes | memoryview | None:
    """A listed record's entry; None when it was folded since it was listed.

    Its bytes are those the listing read and checked: records are only appended, and a log's
    name is never reused, so whether it is still there is all that is looked at again (the
    log read and checked once more per record was a third of a fold's time), and looked at
    once per log where ``seen`` keeps what was found.
    """
    seen = Seen() if seen is None else seen
    if place.start < seen.consumed(directory, place.log):
        return None
    return place.data if seen.there(directory, place.log) else None


class Seen:
    """What was found of each log: the offset it is consumed to, and whether it is there.

    Kept while the store's lock is held (:meth:`replay._store.backend.LocalStore.exclusive`):
    then only the holder folds or removes a log, so a fold looks at each log once rather than
    once per record it reads (the two looks were a fifth of a fold's time), and forgets what it
    saw when it consumes records.
    """

    def __init__(self) -> None:
        self._consumed: dict[str, int] = {}
        self._there: dict[str, bool] = {}

    def consumed(self, directory: Path, log: str) -> int:
        found = self._consumed.get(log)
        if found is None:
            found = self._consumed[log] = consumed(directory, log)
        return found

    def there(self, directory: Path, log: str) -> bool:
        found = self._there.get(log)
        if found is None:
            found = self._there[log] = _there(directory / log)
        return found


def _there(log: Path) -> bool:
    try:
        mode = os.stat(log).st_mode
    except FileNotFoundError:
        return False
    except OSError as error:
        raise CassetteError(log, f"cannot read: {error.strerror or error}") from error
    if not stat.S_ISREG(mode):
        raise CassetteError(log, "is not a regular file")
    return True


def consume(directory: Path, log: str, end: int) -> None:
    """Mark the log's records before ``end`` folded: the log goes when nothing is left in it
    for anyone (its writer gone, no complete record after ``end``), else the offset is kept."""
    if not _live(directory / log) and not _record_from(directory, log, end):
        (directory / log).unlink(missing_ok=True)
        (directory / f"{log}{CONSUMED_SUFFIX}").unlink(missing_ok=True)
    elif end > consumed(directory, log):
        cassette_file.write_atomically(directory / f"{log}{CONSUMED_SUFFIX}", b"%d" % end)


def _record_from(directory: Path, log: str, offset: int) -> bool:
    """Whether a complete record starts at ``offset``, a record's end: those before it are
    not read again, nor those after it (a fold's sweep of a log left whole read all of it)."""
    whole = _reading(
        directory / log,
        offset,
        lambda file: _whole_record(file, os.fstat(file.fileno()).st_size - offset),
    )
    return bool(whole)


_PIECE = 1 << 20


def _whole_record(file: BinaryIO, size: int) -> bool:
    """Whether the ``size`` bytes left in ``file`` start with a whole record, as
    :func:`complete_records` takes one: checked a piece at a time, as a large record (an
    upload's) is not read whole for a yes or no (and a torn length is never allocated)."""
    head = file.read(HEADER.size)
    if len(head) < HEADER.size:
        return False
    magic, length, checksum = HEADER.unpack(head)
    if magic != MAGIC or length == 0 or HEADER.size + length > size:
        return False
    crc, newline, left = 0, False, length
    while left:
        piece = file.read(min(_PIECE, left))
        if not piece:
            return False
        crc, newline, left = zlib.crc32(piece, crc), newline or b"\n" in piece, left - len(piece)
    return newline and crc == checksum


def sweep(directory: Path) -> None:
    """Remove the logs whose writers are gone and whose records are all folded (a killed
    writer's empty or torn log among them)."""
    for log in log_names(directory):
        consume(directory, log, consumed(directory, log))


def _live(log: Path) -> bool:
    """Whether a process still holds ``log`` open to append to it (its lock)."""
    try:
        descriptor = os.open(log, os.O_RDONLY)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(descriptor)  # releases the lock taken, if it was
    return False


class Appenders:
    """This process's open logs, one per journal directory."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: dict[str, int] = {}

    def append(self, directory: str, record: bytes | Pieces) -> None:
        with self._lock:
            descriptor = self._open.get(directory)
            if descriptor is None:
                descriptor = self._open[directory] = _new_log(directory)
            try:
                if isinstance(record, bytes):
                    _write_all(descriptor, record, os.write(descriptor, record))
                else:
                    written = os.writev(descriptor, record)
                    for piece in record:  # what a short writev left, piece by piece
                        _write_all(descriptor, piece, min(written, len(piece)))
                        written -= min(written, len(piece))
            except BaseException:
                # A record written in part would end the log for readers: the next one goes
                # to a new log, and this one's torn tail is dropped when it is folded.
                del self._open[directory]
                os.close(descriptor)
                raise

    def rotate(self, directory: str) -> None:
        """Close this process's log in ``directory``: its records can then be folded and
        the log removed; the next record starts a new one."""
        with self._lock:
            descriptor = self._open.pop(directory, None)
            if descriptor is not None:
                os.close(descriptor)

    def forget_inherited(self) -> None:
        """In a forked child: the parent's logs stay the parent's (appending to them from
        two processes would interleave records); closing the inherited copies leaves the
        parent's lock on them."""
        self._lock = threading.Lock()
        for descriptor in self._open.values():
            with contextlib.suppress(OSError):
                os.close(descriptor)
        self._open.clear()


def _write_all(descriptor: int, data: bytes | memoryview, written: int) -> None:
    """The rest of ``data`` after its first ``written`` bytes; rare (a signal, a full disk)."""
    view = memoryview(data)[written:]
    while view:
        view = view[os.write(descriptor, view) :]


def _new_log(directory: str) -> int:
    """A new log, locked before it has its ``.log`` name, so no fold ever sees it unlocked
    while this process lives."""
    name = f"{os.getpid()}-{secrets.token_hex(6)}{LOG_SUFFIX}"
    temporary = f"{directory}/.{name}{cassette_file.TEMPORARY_SUFFIX}"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND
    try:
        descriptor = os.open(temporary, flags, 0o666)
    except FileNotFoundError:  # the first record, or a fold removed the empty directory
        os.makedirs(directory, exist_ok=True)
        descriptor = os.open(temporary, flags, 0o666)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.replace(temporary, f"{directory}/{name}")
    except BaseException:
        os.close(descriptor)
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return descriptor


APPENDERS = Appenders()
os.register_at_fork(after_in_child=APPENDERS.forget_inherited)
