"""The cassette: recorded interactions of one file, and the record/replay/miss decision.

A :class:`Cassette` does no HTTP. The adapters in :mod:`replay._adapters.httpx_transport` hand
it a :class:`~replay._core.model.Request` and get back what to do:
:class:`Replay` an outcome, :class:`Record` through the network and then
:meth:`Cassette.add` what came back, or a :class:`~replay._core.errors.CassetteMiss`.

Nothing is written until :meth:`Cassette.save` (called when the cassette's
``with`` block, its transport or the process ends), so recording N calls costs
one write, not N.
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import TracebackType
from typing import Any

from replay._core import key as request_keys
from replay._core.errors import CassetteError, CassetteMiss, ConfigError, ReplayError
from replay._core.hosts import IgnoredHosts
from replay._core.key import KeyRules
from replay._core.model import Interaction, Outcome, Request, Response, TransportFailure
from replay._core.modes import Action, Mode, action_for
from replay._core.normalize import Normalizer
from replay._core.providers import Provider, detect
from replay._core.redact import Redactor
from replay._core.rewrite import Rewriter
from replay._store import cassette_file as store
from replay._store import usage


@dataclass(frozen=True, slots=True)
class Replay:
    outcome: Outcome


@dataclass(frozen=True, slots=True)
class Record:
    key: str
    request: Request
    """The request as it will be stored: redacted and normalized."""
    scrub: Rewriter
    """Removes the secrets this request carried from its response."""


@dataclass(slots=True)
class _Change:
    """What this session recorded under one key, to merge with the file at save time."""

    request: Request
    outcomes: list[Outcome]
    from_file: int
    """How many of ``outcomes`` were read from the file."""
    reset: bool = False
    """Re-recorded in mode all: the file's responses for this key are dropped at save."""
    replaced: list[Outcome] = field(default_factory=list)
    """In mode all, what the file held before: an unchanged response keeps its recording date."""


class Cassette:
    """The recordings of one cassette file.

    ``ignore`` names JSON paths of request bodies and query parameters that do
    not count when matching (``"model"`` to diff two model versions);
    ``match_headers`` names headers that do. ``secrets`` and ``secret_headers``
    add to what :mod:`replay._core.redact` scrubs. ``replay_speed`` replays streams at
    the recorded pace times that factor (``None``: instantly). Requests to
    ``ignore_hosts`` (and to this machine with ``ignore_localhost``) bypass the
    cassette: see :mod:`replay._core.hosts`.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        mode: Mode | str = Mode.ONCE,
        *,
        ignore: Iterable[str] = (),
        match_headers: Iterable[str] = (),
        secrets: Iterable[str] = (),
        secret_headers: Iterable[str] = (),
        replay_speed: float | None = None,
        allow_playback_repeats: bool = False,
        providers: Iterable[Provider] = (),
        ignore_hosts: Iterable[str] = (),
        ignore_localhost: bool = False,
    ) -> None:
        self.path = Path(os.fspath(path))
        self.mode = Mode.resolve(mode)
        self.rules = KeyRules(tuple(ignore), tuple(match_headers))
        self.redactor = Redactor(secrets, secret_headers)
        if replay_speed is not None and not replay_speed > 0:
            raise ConfigError("replay_speed", replay_speed, "must be a positive factor, or None")
        self.replay_speed = replay_speed
        self.allow_playback_repeats = allow_playback_repeats
        self.providers = tuple(providers)
        self.ignored_hosts = IgnoredHosts(ignore_hosts, ignore_localhost)
        self.replayed = 0
        self.recorded = 0
        self.used_keys: set[str] = set()
        usage.track(self.path, self.used_keys)  # read once at exit, for replay prune
        self.misses: list[CassetteMiss] = []
        self._normalizer = Normalizer()
        self._lock = threading.RLock()
        self._loaded: store.Loaded | None = None
        self._file_existed = False
        self._decoded: dict[str, Interaction] = {}
        self._decoded_outcomes: dict[str, list[Outcome]] = {}
        self._changes: dict[str, _Change] = {}
        self._rerecorded: set[str] = set()
        self._played: dict[str, int] = {}
        _open_cassettes.add(self)

    def __repr__(self) -> str:
        return f"Cassette({str(self.path)!r}, mode={self.mode.value!r})"

    def __enter__(self) -> Cassette:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.save()

    # Reading.

    def _base(self) -> store.Loaded:
        if self._loaded is None:
            self._loaded = store.load(self.path)
            self._file_existed = self._loaded.signature is not None
        return self._loaded

    def _outcomes(self, key: str) -> list[Outcome]:
        """The responses recorded for ``key``; the replay path decodes nothing else."""
        change = self._changes.get(key)
        if change is not None:
            return change.outcomes
        outcomes = self._decoded_outcomes.get(key)
        if outcomes is None:
            entry = self._base().interactions.get(key)
            if entry is None:
                return []
            outcomes = self._decoded_outcomes[key] = store.decode_outcomes(self.path, key, entry)
        return outcomes

    def _interaction(self, key: str) -> Interaction | None:
        change = self._changes.get(key)
        if change is not None:
            return Interaction(key, change.request, change.outcomes)
        interaction = self._decoded.get(key)
        if interaction is None:
            entry = self._base().interactions.get(key)
            if entry is None:
                return None
            interaction = store.decode(self.path, key, entry)
            self._decoded[key] = interaction
        return interaction

    @property
    def interactions(self) -> list[Interaction]:
        """Every interaction, recorded earlier or in this session, by key."""
        with self._lock:
            keys = sorted(self._base().interactions.keys() | self._changes.keys())
            return [i for i in map(self._interaction, keys) if i is not None]

    def keyed_form(self, request: Request) -> Request:
        """The request as its key sees it: secrets scrubbed and known real ids replaced."""
        redactor, normalizer = self.redactor, self._normalizer
        headers = request.headers
        if self.rules.match_headers:
            headers = redactor.headers(headers, redactor.known)
        return Request(
            request.method,
            normalizer.ids_in_url(redactor.url(request.url)),
            headers,
            normalizer.ids_in(redactor.body(request.body, request.header("content-type"))),
        )

    def key_of(self, request: Request) -> str:
        return request_keys.request_key(self.keyed_form(request), self.rules)

    # Deciding.

    def ignores(self, url: str) -> bool:
        """Whether a request to ``url`` bypasses this cassette (``ignore_hosts``)."""
        return self.ignored_hosts.ignores(url)

    def decide(self, request: Request) -> Replay | Record:
        """Replay, or record; raises :class:`CassetteMiss` where the mode forbids recording."""
        key = self.key_of(request)
        with self._lock:
            self._base()
            outcomes = self._outcomes(key)
            played = self._played.get(key, 0)
            action, reason = action_for(
                self.mode,
                recorded=len(outcomes),
                played=played,
                file_existed=self._file_existed,
                repeat=self.allow_playback_repeats,
            )
            if action is Action.MISS:
                miss = self._miss(request, reason, used_up=bool(outcomes))
                self.misses.append(miss)
                raise miss
            self._played[key] = played + 1
            self.used_keys.add(key)
            if action is Action.REPLAY:
                self.replayed += 1
                return Replay(outcomes[min(played, len(outcomes) - 1)])
        scrub = self.redactor.with_secrets_of(request)
        stored = self._normalizer.request(self.redactor.request(request, scrub))
        return Record(key, stored, scrub)

    def _miss(self, request: Request, reason: str, used_up: bool) -> CassetteMiss:
        asked = self.redactor.request(request, self.redactor.known)
        # A request whose recordings are used up is its own closest match: the reason says it.
        candidates = [] if used_up else [i for i in self.interactions if i.outcomes]
        if not candidates:
            return CassetteMiss(self.path, request.method, asked.url, reason)

        def distance(interaction: Interaction) -> tuple[int, int]:
            found = request_keys.differences(interaction.request, asked, self.rules)
            structural = sum(d.field in ("method", "host", "path") for d in found)
            return structural, len(found)

        closest = min(candidates, key=distance)
        return CassetteMiss(
            self.path,
            request.method,
            asked.url,
            reason,
            closest_url=f"{closest.request.method} {closest.request.url}",
            differences=request_keys.differences(closest.request, asked, self.rules),
        )

    # Recording.

    def add(self, record: Record, outcome: Outcome) -> None:
        """Store what the network answered to ``record``, redacted and normalized."""
        if isinstance(outcome, Response):
            outcome = self.redactor.response(outcome, record.scrub)
        else:
            outcome = replace(outcome, message=self.redactor.text(outcome.message, record.scrub))
        with self._lock:
            change = self._change_for(record)
            unreachable = isinstance(outcome, TransportFailure) and not change.outcomes
            if change.reset and change.replaced and unreachable:
                return  # mode all with the API unreachable: keep what was recorded before
            index = len(change.outcomes)
            if isinstance(outcome, Response):
                provider = detect(record.request.url, outcome.body, self.providers)
                outcome = self._normalizer.response(outcome, provider, f"{record.key}/{index}")
            if index < len(change.replaced) and _same(change.replaced[index], outcome):
                outcome = change.replaced[index]
            change.outcomes.append(outcome)
            self.recorded += 1

    def _change_for(self, record: Record) -> _Change:
        change = self._changes.get(record.key)
        if change is not None:
            return change
        existing = self._interaction(record.key)
        outcomes = list(existing.outcomes) if existing else []
        if self.mode is Mode.ALL and record.key not in self._rerecorded:
            self._rerecorded.add(record.key)
            change = _Change(record.request, [], 0, reset=True, replaced=outcomes)
        else:
            change = _Change(record.request, outcomes, len(outcomes))
        self._changes[record.key] = change
        return change

    # Writing.

    @property
    def dirty(self) -> bool:
        return bool(self._changes)

    def save(self) -> None:
        """Merge this session's recordings into the file, atomically and under its lock."""
        with self._lock:
            if not self._changes:
                return
            with store.lock(self.path):
                on_disk = store.load(self.path)
                merged = dict(on_disk.interactions)
                for key, change in self._changes.items():
                    if change.reset and not change.outcomes:
                        continue  # only failures came back: the file keeps its recording
                    new = [store.encode_outcome(o) for o in change.outcomes[change.from_file :]]
                    kept = [] if change.reset else _responses(merged.get(key))
                    entry = store.encode(Interaction(key, change.request, []))
                    entry["responses"] = [*kept, *new]
                    merged[key] = entry
                self._loaded = store.save(self.path, merged)
            self._changes.clear()
            self._decoded.clear()
            self._decoded_outcomes.clear()


def _responses(entry: object) -> list[object]:
    responses = entry.get("responses") if isinstance(entry, dict) else None
    return responses if isinstance(responses, list) else []


def _same(old: Outcome, new: Outcome) -> bool:
    """Equal as the file stores them, but for when they were recorded and where the network
    cut the stream: a JSON body read back from the file is no longer the server's bytes."""
    return _as_stored(old) == _as_stored(new)


def _as_stored(outcome: Outcome) -> dict[str, Any]:
    entry = store.encode_outcome(outcome)
    del entry["recorded_at"]
    if isinstance(outcome, Response) and "chunks" in entry:
        entry["chunks"] = outcome.body
    return entry


_open_cassettes: weakref.WeakSet[Cassette] = weakref.WeakSet()


@atexit.register
def _save_at_exit() -> None:
    """A client that was never closed still gets its recordings written."""
    for cassette in list(_open_cassettes):
        try:
            cassette.save()
        except ReplayError as error:
            print(f"replay: could not save {cassette.path}: {error}", file=sys.stderr)


__all__ = ["Cassette", "CassetteError", "Record", "Replay"]
