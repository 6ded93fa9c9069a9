"""The usage record: which recorded interactions a test run replayed or recorded.

``replay prune`` removes what the last complete run did not use, so every run
notes what it used. Noting is free per request: each :class:`~replay._cassette.Cassette`
hands its live ``used_keys`` set to :func:`track` once, when it is made, and
the sets are read once, when the process exits. Then, per directory of
cassettes, this process's keys are merged under a file lock into that directory's
record, so the pytest-xdist workers of one run (or any processes sharing a run id)
add up to one run::

    {"version": 1, "runs": {"<run id>": {
        "started": "2024-05-01T10:00:00Z", "ended": "2024-05-01T10:02:13Z",
        "complete": true, "incomplete": [], "processes": 4,
        "cassettes": {"test_chat.json": ["<request key>", ...]}}}}

A run is one value of ``REPLAY_RUN_ID``: taken from the environment, else
made up when this module is first imported and put in the environment, so
that processes started afterwards join the same run. pytest-xdist workers get
their controller's, which imports replay through the pytest plugin before
starting them. (xdist's own ``PYTEST_XDIST_TESTRUNUID`` is not used: a pytest
run started from inside a worker inherits it, yet is a run of its own.)

A run is complete when each of its processes ended normally: a process ended
by an uncaught exception (Ctrl-C included), or told so through
:func:`mark_incomplete` (the pytest plugin does for interrupted sessions and
test selections), marks its run incomplete.
Only the most recent :data:`KEPT_RUNS` runs are kept.

The records are run-time bookkeeping, not something to commit or review, so they live
outside the project: in the state directory (:func:`state_directory`), one file per cassette
directory, named by a hash of its absolute path (see :func:`record_path`).
"""

from __future__ import annotations

import atexit
import hashlib
import os
import sys
import threading
import uuid
from collections.abc import Callable, Iterable, Mapping, MutableMapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

import orjson

from replay._core.errors import CassetteError
from replay._store import cassette_file as store

STATE_DIRECTORY_VARIABLE = "REPLAY_STATE_DIR"
RUN_ID_VARIABLE = "REPLAY_RUN_ID"
FORMAT_VERSION = 1
KEPT_RUNS = 5


TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
"""How replay writes a time (recording times, run starts and ends): UTC, to the second."""


def timestamp(when: datetime) -> str:
    """``when`` in :data:`TIME_FORMAT`; a time without a zone is taken as UTC."""
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).strftime(TIME_FORMAT)


def now() -> str:
    """:func:`timestamp` of now. Recording takes one per call and its text changes once a
    second: the last second's text is kept and given again while the clock is in it (its
    fields compared, a tenth of the cost of making the text), and a new one is made by
    ``isoformat`` (the same characters as ``strftime``, a year of four digits as any year now
    has, for two thirds of its instructions). One tuple, replaced whole: threads need no
    lock."""
    global _this_second
    current = datetime.now(UTC)
    second = (
        current.second,
        current.minute,
        current.hour,
        current.day,
        current.month,
        current.year,
    )
    kept, text = _this_second
    if second != kept:
        text = current.isoformat(timespec="seconds")[:19] + "Z"
        _this_second = (second, text)
    return text


_this_second: tuple[tuple[int, ...], str] = ((), "")
"""The second :func:`now` last made a text for (its fields, seconds first), and that text."""


def parse_time(text: str) -> datetime:
    """An ISO 8601 time with its zone; ValueError naming what is wrong otherwise."""
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text!r:.40} is not an ISO 8601 date") from None
    if when.tzinfo is None:
        raise ValueError(f"{text!r:.40} has no time zone")
    return when


def run_id(environ: MutableMapping[str, str] = os.environ) -> str:
    """This process's run id, shared with the processes it starts from now on."""
    found = environ.get(RUN_ID_VARIABLE)
    if not found:
        found = uuid.uuid4().hex
    environ[RUN_ID_VARIABLE] = found
    return found


@dataclass(frozen=True)
class Run:
    """One run as recorded in one directory."""

    id: str
    started: str
    ended: str
    complete: bool
    incomplete: tuple[str, ...]
    """Why the run is not complete, one reason per process that said so."""
    processes: int
    cassettes: Mapping[str, frozenset[str]]
    """Cassette file name (in this directory) -> the keys used."""

    def to_json(self) -> dict[str, Any]:
        return {
            "started": self.started,
            "ended": self.ended,
            "complete": self.complete,
            "incomplete": list(self.incomplete),
            "processes": self.processes,
            "cassettes": {name: sorted(keys) for name, keys in sorted(self.cassettes.items())},
        }

    def merged(self, other: Run) -> Run:
        names = self.cassettes.keys() | other.cassettes.keys()
        return Run(
            self.id,
            min(self.started, other.started),
            max(self.ended, other.ended),
            self.complete and other.complete,
            (*self.incomplete, *other.incomplete),
            self.processes + other.processes,
            {
                name: self.cassettes.get(name, frozenset()) | other.cassettes.get(name, frozenset())
                for name in names
            },
        )


class UsageLog:
    """What one process used, held as references to the cassettes' own key sets."""

    def __init__(self, run: str, started: str) -> None:
        self.run = run
        self.started = started
        self._tracked: list[tuple[Path, set[str]]] = []
        self._incomplete: list[str] = []
        self._lock = threading.Lock()

    def track(self, path: Path, keys: set[str]) -> None:
        """Note ``keys`` (a live set, read at write time) as the keys used from ``path``."""
        with self._lock:
            self._tracked.append((_absolute(path), keys))

    def mark_incomplete(self, reason: str) -> None:
        with self._lock:
            self._incomplete.append(reason)

    @property
    def incomplete(self) -> tuple[str, ...]:
        with self._lock:
            return tuple(self._incomplete)

    def runs_by_directory(self) -> dict[Path, Run]:
        """This process's part of the run, per directory that had a key used."""
        with self._lock:
            tracked = [(path, set(keys)) for path, keys in self._tracked]
            incomplete = tuple(self._incomplete)
        used: dict[Path, dict[str, set[str]]] = {}
        for path, keys in tracked:
            if keys:
                used.setdefault(path.parent, {}).setdefault(path.name, set()).update(keys)
        ended = now()
        return {
            directory: Run(
                self.run,
                self.started,
                ended,
                not incomplete,
                incomplete,
                1,
                {name: frozenset(keys) for name, keys in cassettes.items()},
            )
            for directory, cassettes in used.items()
        }

    def write(self) -> list[Path]:
        """Merge this process's usage into each directory's record; the records written."""
        written = []
        for directory, run in self.runs_by_directory().items():
            if directory.is_dir():  # a test's temporary directory may be gone by exit
                written.append(merge(directory, run))
        return written


def state_directory() -> Path:
    """Where usage records live: ``$REPLAY_STATE_DIR``, else ``$XDG_STATE_HOME/replay``, else
    ``~/.local/state/replay`` (the XDG place for what a program keeps between runs)."""
    chosen = os.environ.get(STATE_DIRECTORY_VARIABLE)
    if chosen:
        return Path(chosen)
    state_home = os.environ.get("XDG_STATE_HOME") or os.path.expanduser("~/.local/state")
    return Path(state_home) / "replay"


def record_path(directory: Path) -> Path:
    """The usage record of the cassettes in ``directory``: the directory's name, for people
    looking, and a hash of its absolute path, so that two projects' ``tests/cassettes`` differ."""
    absolute = os.path.abspath(directory)
    digest = hashlib.sha256(absolute.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return state_directory() / "usage" / f"{Path(absolute).name or 'root'}-{digest}.json"


def read(directory: Path) -> dict[str, Run] | None:
    """The runs recorded in ``directory`` by id; None when it has no usage record."""
    path = record_path(directory)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise CassetteError(path, f"cannot read the usage record: {error.strerror}") from error
    try:
        document = orjson.loads(data)
        if document.get("version") != FORMAT_VERSION:
            raise ValueError(f"unknown usage record version {document.get('version')!r}")
        return {run: _decode(run, entry) for run, entry in document["runs"].items()}
    except (orjson.JSONDecodeError, AttributeError, KeyError, TypeError, ValueError) as error:
        raise CassetteError(path, f"is not a usage record: {error}") from error


def _decode(run: str, entry: dict[str, Any]) -> Run:
    cassettes = entry["cassettes"]
    if not isinstance(cassettes, dict):
        raise TypeError("cassettes is not an object")
    return Run(
        run,
        _time(run, entry, "started"),
        _time(run, entry, "ended"),
        entry["complete"] is True,
        tuple(str(reason) for reason in entry.get("incomplete", ())),
        int(entry.get("processes", 1)),
        {str(name): frozenset(map(str, keys)) for name, keys in cassettes.items()},
    )


def _time(run: str, entry: dict[str, Any], name: str) -> str:
    """Checked, and rewritten in one zone and format, so that runs compare as text."""
    value = entry[name]
    if not isinstance(value, str):
        raise TypeError(f"run {run}: {name} {value!r:.40} is not a date")
    try:
        return timestamp(parse_time(value))
    except (ValueError, OverflowError) as error:  # Overflow: a zone pushing year 1 out of range
        raise ValueError(f"run {run}: {name} {error}") from None


def last_complete_run(runs: Mapping[str, Run]) -> Run | None:
    complete = [run for run in runs.values() if run.complete]
    return max(complete, key=lambda run: run.ended) if complete else None


def merge(directory: Path, run: Run) -> Path:
    """Add ``run`` to the directory's record under its lock, atomically."""
    path = record_path(directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    with store.lock(path):
        try:
            runs = read(directory) or {}
        except CassetteError as error:
            # The record is derived data: an unreadable one is replaced, and said so.
            print(f"replay: replacing {error}", file=sys.stderr)
            runs = {}
        previous = runs.get(run.id)
        runs[run.id] = previous.merged(run) if previous else run
        kept = sorted(runs.values(), key=lambda r: r.ended, reverse=True)[:KEPT_RUNS]
        document = {"version": FORMAT_VERSION, "runs": {r.id: r.to_json() for r in kept}}
        store.write_atomically(path, orjson.dumps(document, option=orjson.OPT_INDENT_2))
    return path


def unused(run: Run, cassette: str, keys: Iterable[str]) -> list[str]:
    """The keys of ``cassette`` that ``run`` did not use."""
    used = run.cassettes.get(cassette, frozenset())
    return [key for key in keys if key not in used]


# This process's log.

_log = UsageLog(run_id(), now())
_hook_installed = False


def _unlock_in_forked_child() -> None:
    """A thread of the parent may have held the log's lock at the fork: it would stay held."""
    _log._lock = threading.Lock()


os.register_at_fork(after_in_child=_unlock_in_forked_child)


def _absolute(path: Path) -> Path:
    """``path`` made absolute; one that is already asks nothing of the operating system (a
    cassette may be made on an event loop, where even ``getcwd`` counts as blocking)."""
    return Path(os.path.normpath(path) if path.is_absolute() else os.path.abspath(path))


def track(path: Path, keys: set[str]) -> None:
    """Called by each cassette as it is made: costs nothing per request."""
    _install_exception_hook()
    _log.track(path, keys)


def mark_incomplete(reason: str) -> None:
    """Mark this run incomplete: ``replay prune`` will not go by it."""
    _log.mark_incomplete(reason)


def incomplete() -> tuple[str, ...]:
    """Why this process's part of the run is incomplete; empty while it is not."""
    return _log.incomplete


def _install_exception_hook() -> None:
    """An uncaught exception (Ctrl-C too) means the run did not end normally."""
    global _hook_installed
    if _hook_installed:
        return
    _hook_installed = True
    previous: Callable[..., Any] = sys.excepthook

    def note_uncaught(
        kind: type[BaseException], error: BaseException, tb: TracebackType | None
    ) -> None:
        _log.mark_incomplete(f"process {os.getpid()} ended by {kind.__name__}")
        previous(kind, error, tb)

    sys.excepthook = note_uncaught


@atexit.register
def _write_at_exit() -> None:
    try:
        _log.write()
    except (OSError, CassetteError, TimeoutError) as error:
        print(f"replay: could not write the usage record: {error}", file=sys.stderr)
