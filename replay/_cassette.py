"""The cassette: recorded interactions of one file, and the record/replay/miss decision.

A :class:`Cassette` does no HTTP. The adapters in :mod:`replay._adapters.httpx_transport` hand
it a :class:`~replay._core.model.Request` and get back what to do:
:class:`Replay` an outcome, :class:`Record` through the network and then
:meth:`Cassette.add` what came back, or a :class:`~replay._core.errors.CassetteMiss`.

Each recording is on disk the moment it is complete: :meth:`Cassette.add` writes it to the
cassette's journal (:mod:`replay._store.journal`), and :meth:`Cassette.save` (when the
cassette's ``with`` block, its transport or the process ends) folds the journal into the
cassette file, so recording N calls costs N small writes and one rewrite, not N rewrites.

A streamed response is a :class:`Recording` until it ends; it is added once, at the first
of: read to its end (or to its provider's final event), cut by a transport error, closed by
the caller, or its cassette saved by the same caller while it is still open (then as it
stands, marked incomplete). The caller is the thread, and the asyncio task if any, that sent
the request: a save never cuts a response another live caller is still reading, which is
added when it ends (:class:`_Caller`). :meth:`Cassette.fold` folds the journal and leaves
every open response to its end, for a recorder serving many callers at once (``replay
serve``, after each answer). A cassette with something unsaved is held strongly until it is
saved, at exit at the latest, where whatever is still open is added as it stands.
A child made by ``os.fork()`` saves only what it recorded itself.

The async adapters never touch the file system on their event loop: they await
:meth:`Cassette.aload` before their first decision (a worker thread reads the file; once it
is read, deciding needs no I/O and no thread), :meth:`Recording.afinish` and
:meth:`Cassette.aadd` to write to the journal, and :meth:`Cassette.asave` to fold it, each
running its sync twin on a worker thread. ``asave`` acts for the task that awaits it.
"""

from __future__ import annotations

import asyncio
import atexit
import math
import os
import sys
import threading
import warnings
import weakref
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit

import anyio.to_thread

from replay._core import eventstream, expiry, mcp
from replay._core import key as request_keys
from replay._core.errors import (
    CassetteError,
    CassetteMiss,
    ConfigError,
    DroppedRequestBlocked,
    ReplayError,
    UndecodableSecret,
    UnusedRecordings,
    UnusedResponse,
)
from replay._core.expiry import Expiry, OnExpired
from replay._core.hosts import IgnoredHosts
from replay._core.key import KeyRules
from replay._core.location import Location, S3Location, location
from replay._core.model import (
    GrpcCall,
    Interaction,
    McpSession,
    Outcome,
    Request,
    Response,
    TransportFailure,
    WebSocketSession,
)
from replay._core.modes import Action, Mode, action_for
from replay._core.normalize import Normalizer, ShownBody, ShownWhole, unchanged_answer
from replay._core.providers import Provider, detect
from replay._core.redact import RedactedBody, Redactor, keyed_stand_ins, keyed_url_stand_ins
from replay._core.rewrite import Rewriter
from replay._core.streams import decoded_request
from replay._core.unused import Unused, unused_choice
from replay._store import cassette_file as store
from replay._store import journal, usage
from replay._store.backend import Store, store_for

CASSETTE_MISSING = (
    "the cassette file does not exist; to record it, run this once where the API is reachable "
    "in mode 'once' (the default outside CI) or 'new_episodes', and commit the file"
)
"""Said by a miss on a cassette with no file, whatever the mode that missed."""


@dataclass(frozen=True, slots=True)
class Replay:
    outcome: Outcome

    @property
    def answer(self) -> Response | TransportFailure:
        """The outcome of an HTTP request: a cassette file never pairs one with a session
        or a gRPC answer (:mod:`replay._store.cassette_file` checks it on reading)."""
        if isinstance(self.outcome, WebSocketSession | GrpcCall):
            raise TypeError(f"a {type(self.outcome).__name__} cannot answer an HTTP request")
        return self.outcome

    @property
    def session(self) -> WebSocketSession:
        """The outcome of a WebSocket handshake, which the cassette file pairs only with one."""
        if not isinstance(self.outcome, WebSocketSession):
            raise TypeError("a WebSocket handshake is answered by a session")
        return self.outcome

    @property
    def call(self) -> GrpcCall:
        """The outcome of a gRPC call, which the cassette file pairs only with one."""
        if not isinstance(self.outcome, GrpcCall):
            raise TypeError("a gRPC call is answered by a gRPC answer")
        return self.outcome


@dataclass(frozen=True, slots=True)
class Record:
    key: str
    request: Request
    """The request as it will be stored: redacted and normalized."""
    scrub: Rewriter
    """Removes the secrets this request carried from its response."""
    sent: str | None = None
    """The stored request's exact digest, for replay's fast path (see Cassette.key_for)."""
    upstream: Request | None = None
    """What to send upstream in place of the caller's request, when that carries placeholders
    this session issued: the same request with their real ids."""
    parsed: Any = request_keys.NOT_JSON
    """The JSON value of the stored request's body, if its key parsed that very body."""
    kept: bool = True
    """False when ``before_record_request`` dropped the request: it goes upstream as the caller
    sent it, and nothing of it is stored (:meth:`Cassette.add` passes it over)."""


@dataclass(slots=True)
class _Change:
    """What this session recorded under one key, as its requests see it until the next fold."""

    request: Request
    outcomes: list[Outcome]
    replaced: list[Outcome] = field(default_factory=list)
    """In mode all, what the file held before: an unchanged response keeps its recording date."""
    sent: str | None = None


class Cassette:
    """The recordings of one cassette file.

    ``ignore`` names JSON paths of request bodies and query parameters that do
    not count when matching (``"model"`` to diff two model versions);
    ``match_headers`` names headers that do. ``secrets``, ``secret_headers``,
    ``secret_params`` (query, form and multipart parameters) and ``secret_fields`` (names
    that are secrets wherever a name is: JSON and XML fields, headers, parameters, text)
    add to what :mod:`replay._core.redact` scrubs. ``replay_speed`` replays streams at the
    recorded pace times that factor (``None``: instantly). Requests to
    ``ignore_hosts`` (and to this machine with ``ignore_localhost``) bypass the
    cassette: see :mod:`replay._core.hosts`. In mode ``none``, inside ``use_cassette`` or
    the pytest marker, a connection that bypasses the cassette otherwise raises
    :class:`NetworkBlocked` unless ``block_network`` is False (see
    :mod:`replay._adapters.patch`). ``max_age`` and ``on_expired``: what to do with a
    recording older than that (:mod:`replay._core.expiry`). ``unused``: what closing the
    cassette does about recorded responses no request asked for (:mod:`replay._core.unused`).

    ``match_on`` (vcrpy's matcher names: ``["method", "uri"]``) matches a request to the
    recorded responses whose requests agree on those fields, each played once, in recorded
    order, as vcrpy does; the cassette remembers it in what it records, and a cassette that
    remembers one is matched by it unless ``match_on`` is given. Otherwise a request matches
    by its whole key (:mod:`replay._core.key`). ``normalize=False`` stores ids and times as
    they came (``replay import-vcr`` keeps converted recordings so); secrets are redacted
    all the same.

    ``before_record_request`` and ``before_record_response`` are vcrpy's hooks over this
    project's :class:`~replay._core.model.Request` and :class:`~replay._core.model.Response`
    (:mod:`replay.tools.vcr` gives them vcrpy's shapes): the first sees each request before
    it is matched or stored and returns what is matched and stored in its place, or None to
    drop it, and a dropped request is sent on unrecorded (in mode ``none`` it raises
    :class:`~replay._core.errors.DroppedRequestBlocked` unless ``block_network`` is False);
    the second sees each response about to be stored, and returns what is stored, or None to
    store nothing. Redaction and normalization run after them, on what they return, with the
    secrets the request carried as sent: a hook can add to redaction, never undo it. They run
    on what is recorded, not on what is read back from the file (which holds their results).
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | S3Location,
        mode: Mode | str = Mode.ONCE,
        *,
        ignore: Iterable[str] = (),
        match_headers: Iterable[str] = (),
        secrets: Iterable[str] = (),
        secret_headers: Iterable[str] = (),
        secret_params: Iterable[str] = (),
        secret_fields: Iterable[str] = (),
        replay_speed: float | None = None,
        allow_playback_repeats: bool = False,
        providers: Iterable[Provider] = (),
        ignore_hosts: Iterable[str] = (),
        ignore_localhost: bool = False,
        block_network: bool = True,
        match_on: Iterable[str] | None = None,
        normalize: bool = True,
        max_age: float | timedelta | str | None = None,
        on_expired: OnExpired | str = OnExpired.WARN,
        unused: Unused | str = Unused.ALLOW,
        before_record_request: Callable[[Request], Request | None] | None = None,
        before_record_response: Callable[[Response], Response | None] | None = None,
        extra_cassettes: Iterable[str | os.PathLike[str] | S3Location] = (),
    ) -> None:
        self.path = location(path)
        self.extra_cassettes = tuple(location(extra) for extra in extra_cassettes)
        """Files read beside ``path`` and never written (pytest-recording's several cassettes
        on one marker): their recordings replay after those of ``path`` under the same key."""
        self.before_record_request = before_record_request
        self.before_record_response = before_record_response
        self.mode = Mode.resolve(mode)
        self.rules = KeyRules(tuple(ignore), tuple(match_headers))
        self._match_on_given = match_on is not None
        self.match_rules = replace(
            self.rules, match_on=None if match_on is None else tuple(match_on)
        )
        """How requests find their recordings: :attr:`rules`, or narrowed by ``match_on``."""
        self.normalize = normalize
        self.redactor = Redactor(
            secrets, secret_headers, secret_params, secret_fields=secret_fields
        )
        if replay_speed is not None and not replay_speed > 0:
            raise ConfigError("replay_speed", replay_speed, "must be a positive factor, or None")
        self.replay_speed = replay_speed
        self.allow_playback_repeats = allow_playback_repeats
        self.providers = tuple(providers)
        self.ignored_hosts = IgnoredHosts(ignore_hosts, ignore_localhost)
        self.block_network = block_network
        self.expiry = Expiry(
            expiry.max_age("max_age", max_age), expiry.on_expired("on_expired", on_expired)
        )
        self.unused = unused_choice("unused", unused)
        self._expires = self.expiry.max_age is not None
        """Whether a recording can expire: only then is its date read on replay."""
        self._expired: set[str] = set()
        """Keys whose recording expired and is being recorded again (``rerecord``)."""
        self.replayed = 0
        self.recorded = 0
        self.used_keys: set[str] = set()
        if isinstance(self.path, Path):  # the usage record is a local file (replay prune's)
            usage.track(self.path, self.used_keys)  # read once at exit
        self.misses: list[CassetteMiss] = []
        self._normalizer = Normalizer()
        self._lock = threading.RLock()
        self._loaded: store.Loaded | None = None
        self._first_read: store.Loaded | None = None
        """The file as first read: what :meth:`unused_responses` looks through."""
        self._file_existed = False
        self._decoded: dict[str, Interaction] = {}
        self._decoded_outcomes: dict[str, list[Outcome]] = {}
        self._changes: dict[str, _Change] = {}
        self._rerecorded: set[str] = set()
        """Keys whose recording this session replaced (mode all): an entry resetting it written."""
        self._played: dict[str, int] = {}
        self._store: Store[Any] = store_for(self.path)
        self._recordings: set[Recording] = set()
        """Responses still being read: added when they end, or as they stand at save."""
        self._journaled = 0
        """Interactions this process wrote to the journal since it last folded it."""
        self._rekeyed: dict[str, tuple[str, ...]] | None = None
        self._merged: dict[str, list[tuple[str, int]]] = {}
        """Key -> (stored key, index) of each response merged under it by today's rules."""
        self._replays: Counter[tuple[str, int]] = Counter()
        """How often each recorded response, by (stored key, index), was replayed."""
        self._warned_merges: set[str] = set()
        self._exact_keys: dict[str, str] = {}
        self._exact_keys_of: store.Loaded | None = None
        self._found_exactly: set[str] = set()
        """Stored keys a request found by its exact digest in ``_exact_keys_of``: each keys as
        it did when recorded (see :meth:`_rekeyed_index`)."""
        self._matched: dict[str, list[tuple[str, int]]] | None = None
        self._next_order = 0
        self._extras: list[store.Loaded] = []
        self._name_fits = False
        """Whether the file's name was found fit to record into (:meth:`_check_name`)."""
        _cassettes.add(self)

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
        """Save, then :meth:`check_unused` (unless the block raised)."""
        self.save()
        self.check_unused(error)

    async def __aenter__(self) -> Cassette:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.asave()
        self.check_unused(error)

    def check_unused(self, error: BaseException | None = None) -> None:
        """What closing the cassette does about the responses no request asked for, by
        :attr:`unused`: nothing, a warning, or :class:`UnusedRecordings`; nothing when
        ``error``, an exception leaving the cassette's block, would be masked by it."""
        if self.unused is Unused.ALLOW or error is not None:
            return
        found = self.unused_responses()
        if not found:
            return
        problem = UnusedRecordings(self.path, found)
        if self.unused is Unused.FAIL:
            raise problem
        warnings.warn(str(problem), stacklevel=3)

    def unused_responses(self) -> list[UnusedResponse]:
        """Each response the file held when it was read that no request replayed, by URL, but
        for the requests recorded again meanwhile (mode ``all``, an expired
        recording): their old responses are replaced."""
        with self._lock:
            held = self._first_read.interactions if self._first_read is not None else {}
            replaced = self._rerecorded | self._expired
            replays = self._replays
            found: list[UnusedResponse] = []
            for key in held.keys() - replaced:
                entry = held[key]
                recorded = len(store.decode_outcomes(self.path, key, entry))
                unplayed = [n for n in range(recorded) if not replays.get((key, n))]
                if unplayed:
                    request = store.decode_request(self.path, key, entry)
                    found.extend(
                        UnusedResponse(request.method, request.url, n + 1, recorded)
                        for n in unplayed
                    )
        return sorted(found, key=lambda r: (r.url, r.method, r.position))

    # Reading.

    @property
    def loaded(self) -> bool:
        """Whether the file has been read: deciding then needs no I/O."""
        return self._loaded is not None

    def load(self) -> None:
        """Read the file now (and fold a journal a killed process left, when this session may
        record), rather than on the first request."""
        with self._lock:
            self._base()

    async def aload(self) -> None:
        """:meth:`load` on a worker thread, the first time only: then it costs an await."""
        if self._loaded is None:
            await anyio.to_thread.run_sync(self.load)

    def _base(self) -> store.Loaded:
        if self._loaded is None:
            settled = self._store.settled(self.path) if self._replays_only() else None
            loaded = settled if settled is not None else journal.view(self._store, self.path)
            extras = [store_for(extra).read(extra) for extra in self.extra_cassettes]
            self._file_existed = any(read.signature is not None for read in (loaded, *extras))
            if loaded.journal and self._may_record():
                loaded = journal.fold(self._store, self.path)  # left by a killed process
            self._extras = extras
            self._loaded = self._first_read = self._with_extras(loaded)
            if not self._match_on_given:
                remembered = _remembered_match_on(self.path, loaded.interactions)
                self.match_rules = replace(self.rules, match_on=remembered)
        return self._loaded

    def _with_extras(self, loaded: store.Loaded) -> store.Loaded:
        """``loaded`` with the recordings of :attr:`extra_cassettes` after its own, key by key."""
        if not self._extras:
            return loaded
        merged = dict(loaded.interactions)
        for extra in self._extras:
            for key, entry in extra.interactions.items():
                kept = merged.get(key)
                if kept is None:
                    merged[key] = entry
                else:
                    merged[key] = {**kept, "responses": [*kept["responses"], *entry["responses"]]}
        return replace(loaded, entries=merged)

    def _replays_only(self) -> bool:
        """Whether this cassette records nothing if it exists (mode ``none``; ``once`` unless
        expired recordings are recorded again): then it may be read as the run first saw it
        (:meth:`Store.settled`), and a cassette changed since is seen by the next run."""
        if self.mode is Mode.ONCE:
            return self.expiry.on_expired is not OnExpired.RERECORD
        return self.mode is Mode.NONE

    def _may_record(self) -> bool:
        if self.mode is Mode.ONCE:
            return not self._file_existed
        return self.mode is not Mode.NONE

    def _outcomes(self, key: str) -> list[Outcome]:
        """The responses recorded for ``key``; the replay path decodes nothing else."""
        change = self._changes.get(key)
        if change is not None:
            return change.outcomes
        outcomes = self._decoded_outcomes.get(key)  # merged ones too (_rekeyed_outcomes)
        if outcomes is None:
            loaded = self._base()
            outcomes = loaded.outcomes.get(key)
            if outcomes is None:
                entry = loaded.interactions.get(key)
                if entry is None:
                    return []
                outcomes = store.decode_outcomes(self.path, key, entry)
                loaded.outcomes[key] = outcomes  # another thread's equal decode may be replaced
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

    def keyed_message(self, data: bytes) -> bytes:
        """A WebSocket client message as replay compares it: secrets scrubbed, known real ids
        replaced, as :meth:`keyed_form` does to a request body."""
        return self._normalizer.ids_in(keyed_stand_ins(self.redactor.body(data)))

    def upstream_message(self, data: bytes) -> bytes:
        """A WebSocket client message as sent upstream while recording: each placeholder the
        caller was shown put back to its real id, as :meth:`decide` does to a request."""
        return self._normalizer.real_ids_in(data) if self.normalize else data

    def keyed_form(self, request: Request, redacted: RedactedBody | None = None) -> Request:
        """The request as its key sees it: secrets scrubbed and known real ids replaced;
        ``redacted``, if given, is its body redacted already (:meth:`Redactor.redacted_body`)."""
        redactor, normalizer = self.redactor, self._normalizer
        headers = request.headers
        if self.rules.match_headers:
            headers = redactor.headers(headers, redactor.known)
        body = (
            redactor.body(request.body, request.header("content-type"))
            if redacted is None
            else redacted.known
        )
        return Request(
            request.method,
            normalizer.ids_in_url(keyed_url_stand_ins(redactor.url(request.url))),
            headers,
            normalizer.ids_in(keyed_stand_ins(body)),
        )

    def key_of(self, request: Request) -> str:
        return request_keys.request_key(self.keyed_form(request), self.rules)

    def key_for(self, request: Request) -> str:
        """The key of ``request``: :meth:`key_of`, or the same key by the fast path.

        Fast path: a recording stores ``sent``, the :func:`~replay._core.key.exact_digest` of
        its request as stored (redacted, normalized), when that stored request keys to the
        recording's own key. A request with those very bytes and the same rules therefore has
        that key: it is found in an index of the file's digests (built on the first lookup,
        not at load) with no redaction, URL parsing, JSON canonicalization or key hashing. Any
        other request (one carrying a secret, JSON in another order, a cassette recorded
        before digests) takes :meth:`key_of`. Both give the same key; a property test proves
        it (tests/cassette/test_exact_path.py).
        """
        return self._keyed(request)[0]

    def _keyed(self, request: Request) -> tuple[str, RedactedBody | None, str, bytes, Any]:
        """:meth:`key_for`'s key; the request's body as redacted for it when the fast path
        did not find it (a request to record is then stored with no second redaction of it);
        the request's exact digest (the stored one's too, when storing changes nothing a
        digest reads: see :meth:`_stored_digest`); and the body as keyed with its JSON value
        as the key parsed it (``NOT_JSON`` if none, or found by the fast path)."""
        with self._lock:
            loaded = self._base()
            if self._exact_keys_of is not loaded:
                self._exact_keys = dict(_digests(loaded.interactions))
                self._exact_keys_of = loaded
                self._found_exactly = set()
            exact_keys, found = self._exact_keys, self._found_exactly
        digest = request_keys.exact_digest(request, self.rules)
        key = exact_keys.get(digest)
        if key is not None:
            found.add(key)  # the set of these digests, though a fold has replaced them since
            return key, None, digest, b"", request_keys.NOT_JSON
        redacted = self.redactor.redacted_body(request.body, request.header("content-type"))
        form = self.keyed_form(request, redacted)
        keyed, parsed = request_keys.keyed_json(form, self.rules)
        return keyed, redacted, digest, form.body, parsed

    # Deciding.

    def ignores(self, url: str) -> bool:
        """Whether a request to ``url`` bypasses this cassette (``ignore_hosts``)."""
        return self.ignored_hosts.ignores(url)

    def _hooked(self, request: Request) -> Request | None:
        """``request`` as ``before_record_request`` returns it (None: dropped)."""
        hook = self.before_record_request
        return request if hook is None else hook(request)

    def holds(self, request: Request) -> bool:
        """Whether a response to ``request`` is recorded (played already or not)."""
        hooked = self._hooked(request)
        if hooked is None:
            return False
        key = self.key_for(decoded_request(hooked))
        with self._lock:
            return bool(self._outcomes(key))

    def decide(self, request: Request) -> Replay | Record:
        """Replay, or record; raises :class:`CassetteMiss` where the mode forbids recording."""
        asked = request
        if self.before_record_request is not None:
            hooked = self.before_record_request(request)
            if hooked is None:
                return self._dropped(request)
            request = hooked
        request = decoded_request(request)
        key, redacted, digest, keyed_body, parsed = self._keyed(request)  # which loads the cassette
        with self._lock:
            if self.match_rules.match_on is None:
                counted, sources = key, None
                outcomes = self._outcomes(key)
                played = self._played.get(key, 0)
                if played >= len(outcomes) and self.mode is not Mode.ALL:
                    outcomes = self._rekeyed_outcomes(key) or outcomes
            else:
                counted = request_keys.request_key(self.keyed_form(request), self.match_rules)
                sources = self._matched_index().get(counted, [])
                outcomes = [self._outcomes(stored)[index] for stored, index in sources]
                played = self._played.get(counted, 0)
            action, reason = action_for(
                self.mode,
                recorded=len(outcomes),
                played=played,
                file_existed=self._file_existed,
                # Asked only once a request's recordings are used up: not on the hot path.
                repeat=self.allow_playback_repeats
                or (0 < len(outcomes) <= played and mcp.replays_again(request)),
            )
            if action is Action.MISS:
                miss = self._miss(request, reason, used_up=bool(outcomes))
                self.misses.append(miss)
                raise miss
            if (
                action is Action.REPLAY
                and self._expires
                and self._records_expired(key, request, outcomes[min(played, len(outcomes) - 1)])
            ):
                action = Action.RECORD
            if action is Action.RECORD and not self._name_fits:
                self._check_name()
            self._played[counted] = played + 1
            if action is Action.REPLAY:
                self.replayed += 1
                chosen = min(played, len(outcomes) - 1)
                source = sources[chosen] if sources else self._source(key, chosen)
                self.used_keys.add(source[0])
                # Not ``+= 1``: a Counter's first count of a key goes through its Python
                # ``__missing__``, and at N >= 1,000 nearly every replay is a first.
                self._replays[source] = self._replays.get(source, 0) + 1
                return Replay(outcomes[chosen])
            self.used_keys.add(key)
        if asked is request or self.before_record_request is None:
            scrub = self.redactor.with_secrets_of(request, redacted)
        else:  # what the caller sent is scrubbed, whatever the hook took out of it
            scrub = self.redactor.with_secrets_of(decoded_request(asked))
        stored = self.redactor.request(request, scrub, redacted)
        if self.normalize:
            stored = self._normalizer.request(stored)
        self._refuse_undecoded("request", request, request.body, scrub, stored.url)
        sent = self._stored_digest(stored, request, key, digest)
        upstream = self._normalizer.upstream(asked) if self.normalize else None
        # parsed, it would not be the stored body's value; a large one is not stored parsed
        if stored.body != keyed_body or len(stored.body) > request_keys.LARGE_BODY:
            parsed = request_keys.NOT_JSON
        return Record(key, stored, scrub, sent, upstream, parsed)

    def _dropped(self, request: Request) -> Record:
        """A request ``before_record_request`` dropped: sent on unrecorded, as vcrpy sends it,
        but blocked where the cassette replays only, as a connection no cassette makes is."""
        if self.mode is Mode.NONE and self.block_network:
            target = urlsplit(request.url)
            raise DroppedRequestBlocked(target.hostname or "", target.port, self.path)
        return Record("", request, self.redactor.known, kept=False)

    def _check_name(self) -> None:
        """Before a request is sent to be recorded, not after, when its answer would be lost:
        a local file's name the file system cannot take with its journal beside it."""
        if isinstance(self.path, Path):
            problem = store.name_problem(self.path)
            if problem is not None:
                raise CassetteError(self.path, problem)
        self._name_fits = True

    def _records_expired(self, key: str, request: Request, outcome: Outcome) -> bool:
        """Whether to record ``request`` again because ``outcome``, its recording, is older
        than ``max_age``: ``rerecord``. ``warn`` warns and replays it; ``fail`` (and
        ``rerecord`` in mode none) raise a miss."""
        age = self.expiry.age(outcome.recorded_at, datetime.now(UTC))
        if age is None:
            return False
        said = f"recorded {expiry.describe(age)} ago ({outcome.recorded_at}), beyond max_age"
        if self.expiry.on_expired is OnExpired.WARN:
            url = self.redactor.url(request.url)
            warnings.warn(
                f"cassette {self.path}: {request.method} {url} was {said}; replayed all the same "
                "(on_expired='warn')",
                stacklevel=4,
            )
            return False
        if self.expiry.on_expired is OnExpired.FAIL or self.mode is Mode.NONE:
            miss = self._miss(request, f"its recording is expired: {said}", used_up=True)
            self.misses.append(miss)
            raise miss
        self._expired.add(key)
        return True

    def _stored_digest(
        self, stored: Request, request: Request, key: str, digest: str
    ) -> str | None:
        """The exact digest of the request as stored, if it has the key of the request as
        sent (only then may the digest lead to that key), else None. Where storing changed
        nothing a key or a digest reads (the usual case: no secret or known id in the URL or
        body, no ``match_headers``), it has that key by construction, and ``digest``, the sent
        request's, is its digest: the same method, URL, content type and body bytes."""
        unchanged = (
            stored.url == request.url
            and stored.body == request.body
            and stored.header("content-type") == request.header("content-type")
        )
        if unchanged and not self.rules.match_headers and stored.method == request.method:
            return digest
        if self.key_of(stored) != key:
            return None
        return request_keys.exact_digest(stored, self.rules)

    def _rekeyed_outcomes(self, key: str) -> list[Outcome] | None:
        """The responses stored under other keys whose requests have ``key`` under today's rules.

        Keys are hashes made with the ``ignore`` and ``match_headers`` rules in force when each
        request was recorded; those may have changed since. So when a request finds nothing
        under its key, every stored request is keyed again under the current rules (once per
        cassette file, never on the replay path of a request that finds its key; those known to
        key as recorded are passed over: :meth:`_rekeyed_index`). Interactions
        that the current rules make one are replayed in recorded order, with a warning; but
        those stored under ``key`` itself come first, whenever the index was built: they are
        the ones :meth:`decide` replayed (and counted in ``played``) before merging.
        """
        stored = self._rekeyed_index().get(key)
        if stored is None or key in self._merged:
            return None
        if len(stored) > 1 and key not in self._warned_merges:
            self._warned_merges.add(key)
            warnings.warn(
                f"cassette {self.path}: the recorded requests {', '.join(stored)} are one "
                f"request under the current rules ({self.rules.describe()}); their responses "
                "are replayed in recorded order (those under its own key first)",
                stacklevel=4,
            )
        sources = [
            (source, index)
            for source in (key, *(stored_key for stored_key in stored if stored_key != key))
            for index in range(len(self._outcomes(source)))
        ]
        outcomes = [self._outcomes(source)[index] for source, index in sources]
        self._decoded_outcomes[key] = outcomes
        self._merged[key] = sources
        self.used_keys.update(stored)
        return outcomes

    def _source(self, key: str, index: int) -> tuple[str, int]:
        """(stored key, index) of the ``index``-th response that ``key`` finds."""
        merged = self._merged.get(key)
        return merged[index] if merged else (key, index)

    def _sources(self, key: str, count: int) -> list[tuple[str, int]]:
        """(stored key, index) of each of the ``count`` responses that ``key`` finds."""
        return [self._source(key, index) for index in range(count)]

    def answers_for(self, request: Request) -> list[tuple[Outcome, int]]:
        """Each response recorded for ``request``, found as :meth:`decide` finds them, with
        how often it was replayed; none is taken. Raises :class:`CassetteMiss` for none (and
        for a request ``before_record_request`` drops)."""
        hooked = self._hooked(request)
        if hooked is None:
            raise CassetteMiss(self.path, request.method, request.url, "is dropped by the hook")
        request = decoded_request(hooked)
        key = self.key_for(request)
        with self._lock:
            if self.match_rules.match_on is None:
                outcomes = self._outcomes(key)
                sources = self._sources(key, len(outcomes))
            else:
                counted = request_keys.request_key(self.keyed_form(request), self.match_rules)
                sources = self._matched_index().get(counted, [])
                outcomes = [self._outcomes(stored)[index] for stored, index in sources]
            if not outcomes:
                raise self._miss(request, "has no recorded response", used_up=False)
            return [
                (outcome, self._replays[source])
                for outcome, source in zip(outcomes, sources, strict=True)
            ]

    def _rekeyed_index(self) -> dict[str, tuple[str, ...]]:
        """Current key -> the stored keys of its requests, where they are not just itself.

        An entry whose request is known to key as it did when recorded is not keyed again: one
        a request found by its exact digest, or whose stored digest (``sent``) is its request's
        under today's rules. Equal digests mean the rules and the bytes a key reads are those of
        the recording, whose stored request had its entry's key under them (``sent`` is stored
        only then: :meth:`_stored_digest`; a stored request is redacted and normalized already,
        so keying it as stored or through :meth:`keyed_form` is one). So only the other entries
        are keyed again, from their requests alone, and responses are decoded only for the
        entries a group gathers. A property test proves this index the one keying every entry
        gives (tests/cassette/test_rekeyed_index.py). An entry malformed elsewhere than in its
        request is thus reported when a request asks for it, as any other is, not here.
        """
        if self._rekeyed is None:
            entries = self._base().interactions
            as_recorded = self._found_exactly if self._exact_keys_of is self._loaded else set()
            groups: dict[str, list[str]] = {}
            for stored_key, entry in entries.items():
                if stored_key in as_recorded and stored_key not in self._changes:
                    continue
                groups.setdefault(self._current_key(stored_key, entry), []).append(stored_key)
            self._rekeyed = {}
            for current, members in groups.items():
                if members == [current]:
                    continue
                if current in as_recorded and current in entries and current not in self._changes:
                    members.append(current)  # passed over above: it keys as stored
                ranked: list[tuple[str, str]] = []
                for stored_key in members:
                    recorded_at = self._first_recorded_at(stored_key)
                    if recorded_at is not None:
                        ranked.append((recorded_at, stored_key))
                group = tuple(stored_key for _, stored_key in sorted(ranked))
                if group and group != (current,):
                    self._rekeyed[current] = group
        return self._rekeyed

    def _first_recorded_at(self, key: str) -> str | None:
        """When the first response under ``key`` was recorded (None: there is none), from what
        is decoded already or else from the file's entry, decoding none: a rule change that
        gathers every entry anew would otherwise hold every interaction decoded."""
        known = self._changes.get(key) or self._decoded.get(key)
        if known is not None:
            return known.outcomes[0].recorded_at if known.outcomes else None
        entry = self._base().interactions.get(key)
        return None if entry is None else store.first_recorded_at(self.path, key, entry)

    def _current_key(self, stored_key: str, entry: Any) -> str:
        """The key of the request stored under ``stored_key`` by today's rules."""
        change = self._changes.get(stored_key)
        if change is not None:
            return request_keys.request_key(change.request, self.rules)
        request = store.decode_request(self.path, stored_key, entry)
        sent = entry["request"].get("sent")
        if isinstance(sent, str) and request_keys.exact_digest(request, self.rules) == sent:
            return stored_key
        return request_keys.request_key(request, self.rules)

    def _matched_index(self) -> dict[str, list[tuple[str, int]]]:
        """Match key (by ``match_on``) -> (stored key, response index) of each recorded
        response, in recorded order: by the ``order`` recorded with it (converted and
        ``match_on`` cassettes), else by recording time; this session's recordings last."""
        if self._matched is None:
            self._matched = {}
            for order, interaction, index in self._in_recorded_order():
                group = request_keys.request_key(interaction.request, self.match_rules)
                self._matched.setdefault(group, []).append((interaction.key, index))
                if order != math.inf:
                    self._next_order = max(self._next_order, int(order) + 1)
        return self._matched

    def _in_recorded_order(self) -> list[tuple[float, Interaction, int]]:
        """(order, interaction, response index) of every recorded response, in recorded order."""
        entries = self._base().interactions
        ranked: list[tuple[tuple[float, str, str, int], Interaction]] = []
        for stored_key in entries.keys() | self._changes.keys():
            interaction = self._interaction(stored_key)
            if interaction is None:
                continue
            orders = _recorded_orders(self.path, stored_key, entries.get(stored_key))
            for index, outcome in enumerate(interaction.outcomes):
                order = orders[index] if index < len(orders) else math.inf
                ranked.append(((order, outcome.recorded_at, stored_key, index), interaction))
        ranked.sort(key=lambda item: item[0])
        return [(rank[0], interaction, rank[3]) for rank, interaction in ranked]

    def in_recorded_order(self) -> list[tuple[Request, Outcome, int]]:
        """Each recorded response with its request and how often it was replayed, in the
        order they were recorded (for a cassette that kept no ``order``: by recording time,
        then key)."""
        with self._lock:
            return [
                (i.request, i.outcomes[n], self._replays[i.key, n])
                for _, i, n in self._in_recorded_order()
            ]

    @property
    def file_existed(self) -> bool:
        """Whether the cassette file was there when it was read (it is read now if not yet)."""
        with self._lock:
            self._base()
            return self._file_existed

    def _miss(self, request: Request, reason: str, used_up: bool) -> CassetteMiss:
        asked = self.redactor.request(request, self.redactor.known)
        # A request whose recordings are used up is its own closest match: the reason says it.
        closest = None
        if not used_up:
            keys, sketches = self._answered()
            entries = self._base().interactions

            def whole(index: int) -> Request:
                key = keys[index]
                return (
                    sketches[index]
                    if key is None
                    else store.decode_request(self.path, key, entries[key])
                )

            def body(index: int) -> bytes:
                key = keys[index]
                return (
                    sketches[index].body
                    if key is None
                    else store.request_body(self.path, key, entries[key])
                )

            closest = request_keys.closest(asked, sketches, self.match_rules, whole, body)
        if closest is None:
            if not self._file_existed:
                reason = f"{reason}; {CASSETTE_MISSING}"
            return CassetteMiss(self.path, request.method, request_keys.shown_target(asked), reason)
        return CassetteMiss(
            self.path,
            request.method,
            request_keys.shown_target(asked),
            reason,
            closest_url=f"{closest.method} {request_keys.shown_target(closest)}",
            differences=request_keys.differences(closest, asked, self.match_rules),
        )

    def _answered(self) -> tuple[list[str | None], list[Request]]:
        """The request of each interaction holding a response, by key, with the key it is
        stored under in the file when it is decoded there without its headers and body (None
        when it is whole): neither its responses nor its headers are decoded for a miss, which
        ranks every recording, and its body only as it is ranked (the ``body`` of
        :func:`~replay._core.key.closest`)."""
        entries = self._base().interactions
        keys: list[str | None] = []
        requests = []
        for key in sorted(entries.keys() | self._changes.keys()):
            known = self._changes.get(key) or self._decoded.get(key)
            if known is not None:
                if known.outcomes:
                    keys.append(None)
                    requests.append(known.request)
                continue
            entry = entries[key]
            if isinstance(entry, dict) and entry.get("responses"):
                keys.append(key)
                requests.append(
                    store.decode_request(self.path, key, entry, headers=False, body=False)
                )
        return keys, requests

    # Recording.

    def _refuse_undecoded(
        self, part: str, carrier: Request | Response, body: bytes, scrub: Rewriter, url: str
    ) -> None:
        """A body left in its ``content-encoding`` (one no module here decodes) is out of
        redaction's sight: it is recorded only when a scan of its bytes finds no secret."""
        encoding = carrier.header("content-encoding")
        if encoding is not None and self.redactor.holds_secret(body, scrub):
            method = carrier.method if isinstance(carrier, Request) else "response to"
            raise UndecodableSecret(method, url, part, encoding)

    def add(
        self,
        record: Record,
        outcome: Outcome,
        seed: str | None = None,
        shown: ShownWhole | None = None,
    ) -> None:
        """Store what the network answered to ``record``, redacted and normalized; ``seed``
        is the one its caller's view was normalized with (:meth:`recording`), and ``shown``
        that view of the whole body, when it was made in one piece."""
        if not record.kept:
            return
        if isinstance(outcome, Response) and self.before_record_response is not None:
            hooked = self.before_record_response(outcome)
            if hooked is None:
                return
            outcome = hooked
        framed = False  # an AWS event stream: its rewrites go frame by frame
        if isinstance(outcome, Response):
            self._refuse_undecoded(
                "response", outcome, outcome.body, record.scrub, record.request.url
            )
            # An answer that is no event stream (most) goes straight to each rewrite, with no
            # frame layer, lambda or partial made around it.
            framed = eventstream.is_eventstream(outcome)
            if framed:
                outcome = eventstream.one_frame_per_chunk(outcome)
                scrub = record.scrub
                outcome = eventstream.rewriting_payloads(
                    outcome, lambda view: self.redactor.response(view, scrub)
                )
            else:
                outcome = self.redactor.response(outcome, record.scrub)
        elif isinstance(outcome, WebSocketSession):
            outcome = self.redactor.session(outcome, record.scrub)
        elif isinstance(outcome, GrpcCall):
            outcome = self.redactor.grpc_call(outcome, record.scrub)
        else:
            outcome = replace(outcome, message=self.redactor.text(outcome.message, record.scrub))
        with self._lock:
            change = self._change_for(record)
            reset = self._resets(record.key)
            if reset and change.replaced and isinstance(outcome, TransportFailure):
                return  # mode all with the API failing (timeouts): keep what was recorded before
            index = len(change.outcomes)
            seed = seed or f"{record.key}/{index}"
            if isinstance(outcome, Response) and self.normalize:
                outcome = (
                    eventstream.rewriting_payloads(
                        outcome, partial(self._normalized, record, seed, shown)
                    )
                    if framed
                    else self._normalized(record, seed, shown, outcome)
                )
            elif isinstance(outcome, WebSocketSession) and self.normalize:
                provider = detect(record.request.url, b"", self.providers)
                outcome = self._normalizer.session(outcome, provider, seed)
            elif isinstance(outcome, GrpcCall) and self.normalize:
                provider = detect(record.request.url, b"", self.providers)
                outcome = self._normalizer.grpc_call(outcome, provider, seed)
            if index < len(change.replaced) and self._unchanged(
                change.replaced[index], outcome, record
            ):
                outcome = change.replaced[index]
            request = store.encode_request(
                change.request,
                record.parsed if change.request is record.request else request_keys.NOT_JSON,
            )
            if change.sent is not None:
                request["sent"] = change.sent
            encoded = store.encode_outcome(outcome)
            if self.match_rules.match_on is not None:
                self._matched_index()  # knows the next order
                request[MATCH_ON_FIELD] = list(self.match_rules.match_on)
                encoded[ORDER_FIELD] = self._next_order
                self._next_order += 1
                self._matched = None
            journal.add(self._store, self.path, record.key, request, encoded, reset)
            if reset:
                self._rerecorded.add(record.key)
            change.outcomes.append(outcome)
            self.recorded += 1
            self._journaled += 1
            _unsaved.add(self)

    async def aadd(self, record: Record, outcome: Outcome) -> None:
        """:meth:`add` on a worker thread: it writes to the journal."""
        await anyio.to_thread.run_sync(self.add, record, outcome)

    def _unchanged(self, stored: Outcome, new: Outcome, record: Record) -> bool:
        """Whether ``new``, re-recorded, says what ``stored`` said: the stored one is then
        kept, its date and bytes with it. Normalized, a response differing only in a time's
        decimals or a duration counts as unchanged (:func:`unchanged_answer`)."""
        if _same(stored, new):
            return True
        if not (self.normalize and isinstance(stored, Response) and isinstance(new, Response)):
            return False
        provider = detect(record.request.url, new.body, self.providers)
        return unchanged_answer(stored, new, provider)

    def _normalized(
        self, record: Record, seed: str, shown: ShownWhole | None, response: Response
    ) -> Response:
        if shown is not None and shown.given == response.body:
            return self._normalizer.response(response, shown.provider, seed, shown)
        provider = detect(record.request.url, response.body, self.providers)
        return self._normalizer.response(response, provider, seed)

    def recording(
        self,
        record: Record,
        outcome: Callable[[bool, TransportFailure | None], Response | WebSocketSession | GrpcCall],
        content_type: str | None = None,
    ) -> Recording:
        """A response to ``record`` being read: ``outcome(complete, cut)`` builds what is
        added, when :meth:`Recording.finish` is called or this cassette is saved. Its body,
        of ``content_type``, goes to the caller through :attr:`Recording.shown`."""
        with self._lock:
            seed = self._next_seed(record.key)
            normalizer = self._normalizer if self.normalize and record.kept else None
            shown = ShownBody(normalizer, record.request.url, content_type, self.providers, seed)
            recording = Recording(self, record, outcome, seed, shown)
            self._recordings.add(recording)
            _unsaved.add(self)
        return recording

    def _next_seed(self, key: str) -> str:
        """The seed of the next response recorded for ``key``: its place among them, those
        still being read counted."""
        change = self._changes.get(key)
        if change is not None:
            recorded = len(change.outcomes)
        else:
            recorded = 0 if self._resets(key) else len(self._outcomes(key))
        if self._recordings:  # most often none: the last call's response was read to its end
            recorded += sum(recording.key == key for recording in self._recordings)
        return f"{key}/{recorded}"

    def _change_for(self, record: Record) -> _Change:
        change = self._changes.get(record.key)
        if change is not None:
            return change
        existing = self._interaction(record.key)
        outcomes = list(existing.outcomes) if existing else []
        if self._resets(record.key):
            # An expired recording is replaced whatever the new one says: it must be dated now.
            replaced = [] if record.key in self._expired else outcomes
            change = _Change(record.request, [], replaced=replaced, sent=record.sent)
        else:
            change = _Change(record.request, outcomes, sent=record.sent)
        self._changes[record.key] = change
        return change

    def _resets(self, key: str) -> bool:
        """Whether the next response recorded for ``key`` replaces those in the file: in mode
        all or when they expired, until one that does is written (the changes may be folded
        meanwhile, this not)."""
        resets = self.mode is Mode.ALL or key in self._expired
        return resets and key not in self._rerecorded

    # Writing.

    @property
    def dirty(self) -> bool:
        """Whether anything recorded is in the journal, not yet folded into the cassette file.

        Responses still open are not: they are added when they end, or by :meth:`save`."""
        return bool(self._journaled)

    def save(self, *, every_caller: bool = False) -> None:
        """Add this caller's responses still open as they stand, and fold the journal into the
        file.

        A response another thread or asyncio task opened and is still reading is left to be
        added when it ends (the journal has it then; a later save or exit folds it): closing
        one client must not cut another's answer. One whose caller has ended is added now, as
        nobody will read it further. ``every_caller`` adds them all as they stand: at exit, and
        when a server stops.
        """
        self._save_for(_Caller.current(), every_caller)

    async def asave(self, *, every_caller: bool = False) -> None:
        """:meth:`save` on a worker thread, for the task awaiting it: the responses this task
        left open are added as they stand, as a save on the loop would add them."""
        caller = _Caller.current()  # on the loop: the worker thread is nobody's caller
        await anyio.to_thread.run_sync(self._save_for, caller, every_caller)

    def _save_for(self, caller: _Caller, every_caller: bool) -> None:
        with self._lock:
            for recording in list(self._recordings):
                if not (every_caller or recording.caller == caller or recording.caller.ended):
                    continue
                try:
                    recording.finish(complete=False)
                except UndecodableSecret as refused:  # said, and the others still saved
                    warnings.warn(str(refused), stacklevel=3)
            self.fold()

    def fold(self) -> None:
        """Fold the journal into the cassette file, leaving the responses still open alone.

        For a recorder that goes on serving other callers (``replay serve`` after each
        answer): a stream another caller is reading is recorded when it ends, not cut here.
        """
        with self._lock:
            if self._journaled:
                self._loaded = self._with_extras(journal.fold(self._store, self.path))
                self._journaled = 0
                self._changes.clear()
                self._decoded.clear()
                self._decoded_outcomes.clear()
                self._rekeyed = None
                self._matched = None
                self._merged.clear()
            if not self._recordings:
                _unsaved.discard(self)

    def _forget_the_parents_work(self) -> None:
        """In a child made by ``os.fork()``: the parent adds and saves what it recorded."""
        self._lock = threading.RLock()  # a parent thread may have held it at the fork
        self._recordings.clear()
        self._journaled = 0


class Recording:
    """A response being read by the caller: added to its cassette once, whatever comes first."""

    def __init__(
        self,
        cassette: Cassette,
        record: Record,
        outcome: Callable[[bool, TransportFailure | None], Response | WebSocketSession | GrpcCall],
        seed: str,
        shown: ShownBody,
    ) -> None:
        self._cassette = cassette
        self._record = record
        self._outcome = outcome
        self._seed = seed
        self.key = record.key
        self.shown = shown
        """The body as the caller gets it: as it will be replayed, unless not normalized."""
        self.caller = _Caller.current()

    def finish(self, complete: bool, cut: TransportFailure | None = None) -> None:
        """Add the response: ``complete`` when read to its end, ``cut`` by a transport error.

        Only the first call adds it; one after the cassette was saved, or in a forked child
        for its parent's response, does nothing.
        """
        cassette = self._cassette
        with cassette._lock:
            if self not in cassette._recordings:
                return
            cassette._recordings.discard(self)
            outcome = self._outcome(complete, cut)
            cassette.add(self._record, outcome, self._seed, self.shown.whole)

    async def afinish(self, complete: bool, cut: TransportFailure | None = None) -> None:
        """:meth:`finish` on a worker thread, as it writes to the journal; none is needed
        once the response was added (a stream closed after it was read to its end)."""
        if self in self._cassette._recordings:
            await anyio.to_thread.run_sync(self.finish, complete, cut)


@dataclass(frozen=True, slots=True)
class _Caller:
    """Who reads a response: the thread that sent its request, and the asyncio task in it."""

    thread: threading.Thread
    task: asyncio.Task[Any] | None

    @classmethod
    def current(cls) -> _Caller:
        try:
            task = asyncio.current_task()
        except RuntimeError:  # no event loop running in this thread
            task = None
        return cls(threading.current_thread(), task)

    @property
    def ended(self) -> bool:
        return not self.thread.is_alive() or (self.task is not None and self.task.done())


MATCH_ON_FIELD = "match_on"
"""In a stored request: the ``match_on`` its cassette was matched by when it was recorded."""
ORDER_FIELD = "order"
"""In a stored response of a ``match_on`` cassette: its place in the order of recording."""


def _remembered_match_on(path: Location, interactions: dict[str, Any]) -> tuple[str, ...] | None:
    """The ``match_on`` the cassette's recordings were made with, if they name one."""
    for key, entry in interactions.items():
        request = entry.get("request") if isinstance(entry, dict) else None
        remembered = request.get(MATCH_ON_FIELD) if isinstance(request, dict) else None
        if remembered is None:
            continue
        if not (isinstance(remembered, list) and all(isinstance(n, str) for n in remembered)):
            raise CassetteError(path, f"interaction {key}: {MATCH_ON_FIELD} is not a list of names")
        try:
            return request_keys.match_fields(remembered)
        except ConfigError as error:
            raise CassetteError(path, f"interaction {key}: {error}") from None
    return None


def _recorded_orders(path: Location, key: str, entry: Any) -> list[float]:
    """The ``order`` of each stored response of an entry (infinity where there is none)."""
    responses = entry.get("responses") if isinstance(entry, dict) else None
    orders: list[float] = []
    for response in responses if isinstance(responses, list) else ():
        order = response.get(ORDER_FIELD, math.inf) if isinstance(response, dict) else math.inf
        if isinstance(order, bool) or not isinstance(order, int | float):
            raise CassetteError(path, f"interaction {key}: {ORDER_FIELD} {order!r} is not a number")
        orders.append(order)
    return orders


def _digests(interactions: dict[str, Any]) -> Iterable[tuple[str, str]]:
    """(exact digest, key) of every entry that has one; entries without are left to key_of."""
    for key, entry in interactions.items():
        request = entry.get("request") if isinstance(entry, dict) else None
        sent = request.get("sent") if isinstance(request, dict) else None
        if isinstance(sent, str):
            yield sent, key


def _same(old: Outcome, new: Outcome) -> bool:
    """Equal as the file stores them, but for when they were recorded, where the network
    cut the stream, whether the caller read a stream to its end (a stream the server keeps
    open, an MCP server's, ends or is let go of as the client's shutdown races the server's)
    and when each WebSocket message crossed: a JSON body read back from the file is no longer
    the server's bytes."""
    return _as_stored(old) == _as_stored(new)


def _as_stored(outcome: Outcome) -> dict[str, Any]:
    entry = store.encode_outcome(outcome)
    del entry["recorded_at"]
    if isinstance(outcome, Response) and "chunks" in entry:
        entry["chunks"] = outcome.body
        entry.pop("complete", None)
    if isinstance(outcome, WebSocketSession):
        for frame in entry["mcp" if isinstance(outcome, McpSession) else "websocket"]:
            del frame["at"]
    if isinstance(outcome, GrpcCall):
        for message in entry["grpc"]["messages"]:
            del message["at"]
    return entry


_cassettes: weakref.WeakSet[Cassette] = weakref.WeakSet()
_unsaved: set[Cassette] = set()
"""Cassettes with responses open or recordings not folded: held strongly until saved."""


@atexit.register
def _save_at_exit() -> None:
    """A client that was never closed, a response never closed: still written."""
    for cassette in list(_unsaved):
        try:
            cassette.save(every_caller=True)
        except ReplayError as error:
            print(f"replay: could not save {cassette.path}: {error}", file=sys.stderr)


def _in_forked_child() -> None:
    _unsaved.clear()
    journal.forget_writer()
    for cassette in list(_cassettes):
        cassette._forget_the_parents_work()


os.register_at_fork(after_in_child=_in_forked_child)


__all__ = ["Cassette", "CassetteError", "Record", "Recording", "Replay"]
