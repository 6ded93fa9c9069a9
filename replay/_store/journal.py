"""The journal: each recorded interaction on disk the moment it is recorded, folded later.

Rewriting a whole cassette after every call would make recording N calls cost N², and
appending to it needs appends and locks that an object store does not have. So a recording
is written as its own journal entry beside the cassette (in a
:class:`~replay._store.backend.Store`: locally a record appended to the recording process's
log, ``.NAME.journal/PID-RANDOM.log``, framed and checksummed, see
:mod:`replay._store.journal_log`; in S3 a write-once object), and the cassette file is rewritten
only when the journal is **folded** into it: when the cassette is saved (its ``with`` block,
its transport's close, the process's exit) and when a recording process next loads it.

An entry is ``{"version": 1, "key": ..., "request": {...}, "response": {...}}`` in the
cassette's own encoding, with ``"reset": true`` when it replaces the responses recorded
before for its key (mode ``all``) instead of adding to them. Entry ids sort in recording
order (nanoseconds, then a counter, then random bits unique to the writer).

Readers (:func:`view`) see the cassette with every unfolded entry applied in id order, so
``replay list/show/diff/verify/prune`` and a replaying process see what a killed process
recorded. A reader lists the entries, reads them, reads the cassette, and lists again. An
entry gone when read was removed by a fold, so the cassette it then reads holds it. An entry
read but gone by the second listing was folded by then, either into the cassette it read (a
fold that had finished) or into one written after that read: it cannot tell which, so it
reads again from the start, a bounded number of times.

Folding (:func:`fold`) is exactly-once without appends or locks being needed for
correctness: the cassette is written with the entries it absorbed named in it
(``folded_journal_entries``), then they are removed, then it is written again without the
names. A crash between the steps leaves names of entries that a reader or the next fold
skips, so nothing is folded twice, and nothing is removed before the cassette holding it
is written, so nothing is lost. Each write is conditional on the version read; in a store
with a lock (the local one) the whole fold runs under it, in one without, a conflict means
fold again from what is there now. An entry listed but gone when read is such a conflict
too: another fold absorbed it, maybe into a cassette written after the one this fold read,
which writing on would return as the cassette written without it. A fold merges whatever is
in the journal, whichever process wrote it: a journal left by a killed process is folded by
the next writer, and one being written by a live process loses nothing (its entries are
folded once, by whoever comes first).

Durability: an entry is handed to the operating system before the next request is decided
and is not fsynced (an fsync per call would cost more than many calls). It survives the
process being killed (SIGKILL, OOM, a notebook kernel restart); it may not survive a power
loss or an OS crash before the next fold. A fold fsyncs the cassette file and its directory.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import random
import secrets
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import orjson

from replay._core.errors import CassetteError
from replay._core.location import Location
from replay._core.model import Response
from replay._store import cassette_file
from replay._store.backend import Conflict, Store
from replay._store.cassette_file import Document, Loaded

ENTRY_VERSION = 1
ATTEMPTS = 20
"""Folds and reads retried when another writer changed the cassette meanwhile."""

Change = Callable[[Document], Document | None]
"""A rewrite made in the same fold (prune's): given the interactions, those to keep (the
same object: no change), or None to delete the cassette."""

_ids_lock = threading.Lock()
_last_time = 0
_counter = itertools.count()
_suffix = f"-{os.getpid()}-{secrets.token_hex(4)}"
"""The end of this process's ids, its pid and random bits unique to it: made once, not per id
(a forked child makes its own)."""


def new_entry_id() -> str:
    """Unique, and sorting after every id this process made before."""
    global _last_time
    with _ids_lock:
        _last_time = max(time.time_ns(), _last_time + 1)
        # zfill: the same digits as format specs (never negative), for half the time
        return f"{str(_last_time).zfill(20)}-{str(next(_counter)).zfill(8)}{_suffix}"


_written: dict[str, tuple[bytes, str, bytes, bytes, bool]] = {}
"""Entry id -> each entry this process wrote and has not folded: its bytes, its key, its request
and response as the file has them (:func:`~replay._store.cassette_file.file_form`) and whether
it resets. An entry read back as those very bytes is one :func:`add` encoded from an
interaction this process recorded: a fold writes its parts into the file as they are, rather
than parsing and checking it again and dumping it (most of a fold's time per entry). Any other
entry is checked.

Only bytes are kept (in a plain tuple, which the garbage collector stops tracking), not the
entry parsed: a recorded call's dicts and lists, alive until the fold, were most of what
recording gave the garbage collector to go through (twice the collections of keeping bytes)."""


def forget_writer() -> None:
    """In a forked child: ids of its own, not its parent's; the parent's entries checked."""
    global _suffix, _ids_lock
    _suffix = f"-{os.getpid()}-{secrets.token_hex(4)}"
    _ids_lock = threading.Lock()
    _written.clear()


def add(
    store: Store[Any],
    path: Location,
    key: str,
    request: dict[str, Any],
    response: dict[str, Any],
    reset: bool,
) -> str:
    """Write one recorded response as a journal entry; its id.

    Its request and response are written as the file has them (indented, in the file's order),
    so that they are serialized once: a fold puts those very bytes in the file.
    """
    request_part, response_part = cassette_file.file_form(request, response)
    entry_id = new_entry_id()
    if len(request_part) + len(response_part) <= cassette_file.LARGE_PART:
        entry = {
            "version": ENTRY_VERSION,
            "key": key,
            "request": orjson.Fragment(request_part),
            "response": orjson.Fragment(response_part),
        }
        if reset:
            entry["reset"] = True
        data = orjson.dumps(entry)
        store.add_entry(path, entry_id, data)
        _written[entry_id] = (data, key, request_part, response_part, reset)
        return entry_id
    # The same bytes in pieces, each written where it is: no copy of a large body joined in.
    head = b'{"version":%d,"key":%s,"request":' % (ENTRY_VERSION, orjson.dumps(key))
    tail = b',"reset":true}' if reset else b"}"
    pieces = (head, request_part, b',"response":', response_part, tail)
    store.add_entry(path, entry_id, pieces)
    _written[entry_id] = (_Digest.of(pieces), key, request_part, response_part, reset)
    return entry_id


class _Digest(bytes):
    """A large entry's SHA-256, kept in :data:`_written` instead of its bytes (a second copy of
    them until the fold)."""

    @classmethod
    def of(cls, pieces: Iterable[bytes | memoryview]) -> _Digest:
        digest = hashlib.sha256()
        for piece in pieces:
            digest.update(piece)
        return cls(digest.digest())


def _wrote(written: bytes, data: bytes | memoryview) -> bool:
    """Whether ``data`` is the entry this process wrote as ``written`` (its bytes or digest)."""
    if type(written) is _Digest:
        return _Digest.of((data,)) == written
    return written == data


def view(store: Store[Any], path: Location) -> Loaded:
    """The cassette as readers see it: the file with its unfolded journal applied."""
    return _retrying(path, "read it", lambda: _view_once(store, path))


def _view_once(store: Store[Any], path: Location) -> Loaded:
    listed = store.entry_ids(path)
    entries = {i: data for i in listed if (data := store.read_entry(path, i)) is not None}
    base = store.read(path)
    if not entries:
        return base
    still_there = set(store.entry_ids(path))
    if any(i not in still_there and i not in base.folded for i in entries):
        raise Conflict(str(path))  # folded meanwhile, maybe into a cassette newer than base
    unfolded = [i for i in entries if i not in base.folded]
    if not unfolded:
        return base
    interactions = dict(base.interactions)
    for entry_id in unfolded:
        _apply(store, path, interactions, entry_id, entries[entry_id], splice=False)
    return Loaded(interactions, base.signature, base.folded, tuple(unfolded))


def fold(store: Store[Any], path: Location, change: Change | None = None) -> Loaded:
    """Fold the journal into the cassette (and apply ``change``); the cassette as written."""

    def once() -> Loaded:
        with store.exclusive(path):
            return _fold_once(store, path, change)

    return _retrying(path, "save it", once)


def _retrying(path: Location, what: str, attempt: Callable[[], Loaded]) -> Loaded:
    """``attempt()`` again while it meets a :class:`Conflict`, a growing random pause between
    (to let the other writer finish), up to :data:`ATTEMPTS` times."""
    for number in range(ATTEMPTS):
        if number:
            time.sleep(random.uniform(0, 0.005 * number))
        try:
            return attempt()
        except Conflict:
            pass
    raise CassetteError(path, f"kept changing under {ATTEMPTS} attempts to {what}")


def _fold_once(store: Store[Any], path: Location, change: Change | None) -> Loaded:
    listed = store.entry_ids(path)
    base = store.read(path)
    interactions = dict(base.interactions)
    absorbed = False
    ready: set[str] = set()  # keys whose every response is one this process wrote
    spliced: set[str] = set()  # keys holding parts this process wrote, as the file has them
    for entry_id in listed:
        if entry_id in base.folded:
            continue
        data = store.read_entry(path, entry_id)
        if data is None:  # another fold took it: into a cassette newer than base, maybe
            raise Conflict(str(path))
        key, alone, ours = _apply(store, path, interactions, entry_id, data, splice=change is None)
        if ours and (alone or key in ready):
            ready.add(key)
        else:
            ready.discard(key)
        if ours and change is None:
            spliced.add(key)
        absorbed = True
    kept = interactions if change is None else change(interactions)
    changed = kept is not interactions
    # Written once or twice (with the names of the entries absorbed, then without): encoded once.
    contents = cassette_file.Contents(kept or {}, () if changed else ready, spliced)
    written = base
    if listed:
        if absorbed or changed:
            # Naming the entries absorbed: a crash before they are removed leaves them skipped.
            written = store.write(path, contents, listed, base.signature)
        store.remove_entries(path, listed)
        for entry_id in listed:
            _written.pop(entry_id, None)
    if kept is None:
        store.delete(path, written.signature)
        return Loaded({}, None)
    if written.folded or (changed and not listed):
        written = store.write(path, contents, (), written.signature)
    return written


def _apply(
    store: Store[Any],
    path: Location,
    interactions: Document,
    entry_id: str,
    data: bytes | memoryview,
    splice: bool,
) -> tuple[str, bool, bool]:
    """Add an entry's response to its key's (replacing them when it resets); its key, whether
    its response is now the key's only one, and whether it is one this process wrote.

    An entry is checked as a cassette's interaction is, before anything of it is used: one
    that is not valid is reported, never folded. One this process wrote, read back as it
    wrote it, was made valid, in the file's order (:data:`_written`): its parts go in as the
    file has them when ``splice`` (a fold's file), else parsed.
    """
    written = _written.get(entry_id)
    ours = written is not None and _wrote(written[0], data)
    if written is not None and ours and splice:
        _, key, request_part, response_part, reset = written
        request: Any = cassette_file.Spliced(request_part)
        response: Any = cassette_file.Spliced(response_part)
    else:
        entry = orjson.loads(data) if ours else _checked(store, path, entry_id, data)
        key, request, response = entry["key"], entry["request"], entry["response"]
        reset = bool(entry.get("reset"))
    current = interactions.get(key)
    responses = current.get("responses") if isinstance(current, dict) else None
    kept = [] if reset or not isinstance(responses, list) else responses
    interactions[key] = {"request": request, "responses": [*kept, response]}
    return key, not kept, ours


def _checked(
    store: Store[Any], path: Location, entry_id: str, data: bytes | memoryview
) -> dict[str, Any]:
    """The entry, if it is an interaction a recorder could have written: a cassette's valid
    interaction, whose response has a status HTTP has (100 to 599; a cassette edited by hand
    may hold another, which ``replay serve`` refuses to send, but no recorder writes one)."""
    try:
        entry = orjson.loads(data)
        if not isinstance(entry, dict):
            raise TypeError(f"a JSON {type(entry).__name__}, not an object")
        if entry.get("version") != ENTRY_VERSION:
            raise ValueError(f"unknown journal entry version {entry.get('version')!r:.20}")
        missing = [name for name in ("key", "request", "response") if name not in entry]
        if missing:
            raise ValueError(f"no {' or '.join(missing)} field")
        key, request, response = entry["key"], entry["request"], entry["response"]
        if not isinstance(key, str):
            raise TypeError("key is not a string")
        stored = {"request": request, "responses": [response]}
        (outcome,) = cassette_file.decode(path, key, stored).outcomes
        if isinstance(outcome, Response) and not 100 <= outcome.status <= 599:
            raise ValueError(f"status {outcome.status} is not an HTTP status (100 to 599)")
        cassette_file.check_storable(path, {"interactions": {key: stored}}, "it")
    except CassetteError as error:
        raise _not_an_interaction(store, path, entry_id, error.reason) from error
    except (TypeError, ValueError) as error:  # orjson's JSONDecodeError is a ValueError
        raise _not_an_interaction(store, path, entry_id, str(error)) from error
    checked: dict[str, Any] = entry
    return checked


def _not_an_interaction(
    store: Store[Any], path: Location, entry_id: str, reason: str
) -> CassetteError:
    """Nothing of the journal is folded while it holds the entry, and the entry stays: a
    recording is never dropped without a word."""
    return CassetteError(
        path,
        f"journal entry {entry_id} is not a recorded interaction ({reason}); it stays in"
        f" {store.entry_file(path, entry_id)}, and the journal is not folded while it is"
        " there: an entry torn by a power loss can be deleted, losing that one recording",
    )
