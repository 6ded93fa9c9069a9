"""``use_cassette``: route every httpx, httpx2, aiohttp, urllib3, http.client (urllib.request)
and websockets client through a cassette.

Clients made before the block count too, and so do clients built on a
transport of their own. What is wrapped, for the duration of the block only
(nothing is patched at import time, and the originals are put back after it):

- httpx and httpx2: ``Client._transport_for_url`` and its ``AsyncClient`` twin,
  the one place each client picks the transport a request goes through (the
  default pool, a mounted one, or the ``transport=`` given). The transport
  picked is wrapped in a :class:`ReplayTransport` that records through it. The
  libraries have no public hook that can answer a request: event hooks only
  observe, and a transport is fixed when a client is made.
- aiohttp, once imported (before the block or inside it, :class:`_RouteOnImport`): see
  :mod:`replay._adapters.aiohttp_adapter`.
- urllib3 2.2.2 on, once imported, and so requests and botocore (boto3): see
  :mod:`replay._adapters.urllib3_adapter`.
- the standard library's ``http.client``, and so ``urllib.request``: see
  :mod:`replay._adapters.http_client_adapter`.
- websockets, once imported (WebSocket sessions, the OpenAI Realtime API): see
  :mod:`replay._adapters.websockets_adapter`.

The rule for transports of their own: one that reaches the network is routed
through the cassette (litellm's aiohttp-backed transport, a user's retrying
transport around the default one); one that never does is left alone:
``MockTransport``, ``ASGITransport`` and ``WSGITransport`` (the app answers in
process) and ours (the request already goes through a cassette).

One request, one cassette: a request that is already passing through a
cassette (an explicit ``ReplayTransport`` in a ``use_cassette`` block, whose
upstream is a default transport) goes on untouched; the innermost cassette,
the one closest to the client, records it.

Which cassette a request goes through: the one of the innermost block open in the context
(:mod:`contextvars`) of the code making it, so concurrent asyncio tasks, each in a block of its
own, record into and replay from their own cassettes (a task runs in a copy of the context it
was created in: a task created inside a block is in that block too). A thread started inside a
block (``threading.Thread.start``, wrapped while a block runs) runs in that block until the
block ends; threads start with an empty context otherwise. Code in no open block's context
(a thread an SDK started before the block, a pool's worker thread) goes through the innermost
block open in the process, the last one entered. Blocks nest: the innermost one is in force.

Nothing passes silently: while a block runs, a connection that no cassette makes (a client
replay does not route, or one with a socket of its own) raises
:class:`~replay._core.errors.NetworkBlocked` when the cassette in force replays only (mode
``none``; ``block_network=False`` lets it through), and warns once per host when it records,
since what goes over that connection is not recorded. Hosts in ``ignore_hosts`` are let
through, as they are meant to reach the network.
"""

from __future__ import annotations

import contextvars
import functools
import importlib
import importlib.abc
import importlib.machinery
import importlib.metadata
import inspect
import os
import sys
import threading
import warnings
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import anyio

from replay._adapters.httpx_transport import (
    LIBRARIES,
    AnyRequest,
    AnyResponse,
    AsyncReplayTransport,
    ReplayTransport,
)
from replay._adapters.network import addresses_of, check_connections, host_and_port
from replay._cassette import Cassette
from replay._core.errors import ConfigError, NetworkBlocked, UnroutedLibrary
from replay._core.modes import Mode
from replay._core.own_traffic import inside_cassette

_active: list[Cassette] = []
_originals: dict[tuple[type | ModuleType, str], Any] = {}
_restore_connect: list[Callable[[], None]] = []
_lock = threading.Lock()

IN_PROCESS_TRANSPORTS: tuple[type, ...] = (
    ReplayTransport,
    AsyncReplayTransport,
    *(
        getattr(lib, name)
        for lib in LIBRARIES
        for name in ("MockTransport", "ASGITransport", "WSGITransport")
        if hasattr(lib, name)
    ),
)
"""Transports that never reach the network, left alone by ``use_cassette``."""


@dataclass(eq=False, slots=True)
class _Block:
    """A ``use_cassette`` block as the code in its context sees it, and the block it is in."""

    cassette: Cassette
    outer: _Block | None
    open: bool = True


_in_block: contextvars.ContextVar[_Block | None] = contextvars.ContextVar(
    "replay_block", default=None
)
"""The innermost block entered in this context. A copy of the context (a task's) may outlive
the block, hence its ``open`` flag."""


def _open_block() -> _Block | None:
    """The innermost block of this context that is still open."""
    block = _in_block.get()
    while block is not None and not block.open:
        block = block.outer
    return block


def active_cassette() -> Cassette | None:
    """The cassette in force for the code calling (see the module docstring), if any."""
    block = _in_block.get()
    while block is not None:
        if block.open:
            return block.cassette
        block = block.outer
    cassettes = _active
    return cassettes[-1] if cassettes else None


def _enter(cassette: Cassette) -> _Block:
    """Open a block of ``cassette`` in this context; the clients are routed already."""
    block = _Block(cassette, _open_block())
    _in_block.set(block)
    return block


def _leave(block: _Block) -> None:
    """Close ``block``: its context goes back to the block it is in. Left in another context
    than its own (an async fixture's teardown), it is only closed: no context sees it then."""
    block.open = False
    if _in_block.get() is block:
        _in_block.set(_open_block())


def _in_the_starters_block(original: Any) -> Any:
    """``Thread.start`` that runs a thread started inside a block in that block."""

    def start(self: threading.Thread) -> None:
        block = _open_block()
        if block is not None:
            run = self.run

            def run_in_block() -> None:
                _in_block.set(block)  # in the new thread's own context
                run()

            self.run = run_in_block  # type: ignore[method-assign]
        original(self)

    return start


class _Borrowed:
    """The transport a client picked, for a cassette to record through; the client closes it."""

    def __init__(self, transport: Any) -> None:
        self._transport = transport

    def handle_request(self, request: AnyRequest) -> AnyResponse:
        return self._transport.handle_request(request)

    async def handle_async_request(self, request: AnyRequest) -> AnyResponse:
        return await self._transport.handle_async_request(request)

    def close(self) -> None:
        """The client owns the transport and closes it."""

    async def aclose(self) -> None:
        """The client owns the transport and closes it."""


def _routing(replay_transport: type[ReplayTransport] | type[AsyncReplayTransport]) -> Any:
    def wrap(original: Any) -> Any:
        def _transport_for_url(self: Any, url: Any) -> Any:
            transport = original(self, url)
            cassette = active_cassette()
            if cassette is None or isinstance(transport, IN_PROCESS_TRANSPORTS):
                return transport
            return replay_transport(cassette, transport=_Borrowed(transport))

        return _transport_for_url

    return wrap


_ADAPTERS = {
    "aiohttp": "replay._adapters.aiohttp_adapter",
    "http.client": "replay._adapters.http_client_adapter",
    "grpc": "replay._adapters.grpc_adapter",
    "urllib3": "replay._adapters.urllib3_adapter",
    "websockets": "replay._adapters.websockets_adapter",
}
"""The libraries routed whenever installed, by module (a top-level package, or http.client),
and the adapter of each."""


Seam = tuple[type | ModuleType, str, Callable[[Any], Any]]
"""What is wrapped for a block: an attribute (``name`` on ``owner``) and what wraps it."""


def _targets() -> Iterator[Seam]:
    """The seams to wrap now: httpx's and httpx2's, and those of the other libraries already
    imported. A library imported later in the block is wrapped as its import ends
    (:class:`_RouteOnImport`): importing aiohttp, urllib3 and websockets up front, only to
    wrap them, cost every test process that uses none of them 0.2-0.3 s."""
    yield threading.Thread, "start", _in_the_starters_block
    for lib in LIBRARIES:
        yield from _checked(lib.__name__, functools.partial(_httpx_targets, lib))
    for library in _ADAPTERS:
        module = sys.modules.get(library)
        if module is None:
            continue
        if isinstance(getattr(module.__spec__, "loader", None), _WrapAfterLoading):
            # Still being imported on another thread, under an earlier block's hook: it wraps
            # itself once its import ends. Importing its adapter here would wait for that
            # import while holding _lock, which the import's own end waits for.
            continue
        yield from _adapter_targets(library)


def _httpx_targets(lib: ModuleType) -> list[Seam]:
    return [
        (lib.Client, "_transport_for_url", _routing(ReplayTransport)),
        (lib.AsyncClient, "_transport_for_url", _routing(AsyncReplayTransport)),
    ]


def _adapter_targets(library: str) -> list[Seam]:
    def seams() -> list[Seam]:
        adapter = importlib.import_module(_ADAPTERS[library])
        return list(adapter.patch_targets(active_cassette))

    return _checked(library, seams)


_unrouted: set[str] = set()
"""The libraries warned of as unrouted in this process (:func:`_checked`)."""


def _checked(library: str, seams: Callable[[], list[Seam]]) -> list[Seam]:
    """The seams of ``library``, all of them or none: a routed library never breaks a block,
    nor the tests in it that do not use it. A version whose internals replay does not know
    (its adapter cannot be imported, or a seam is not where replay wraps it) is left unrouted,
    with one warning a process naming it, its version and the consequence
    (:class:`UnroutedLibrary`); the other libraries are routed as ever."""
    try:
        found = seams()
        missing = [
            f"{owner.__name__}.{name}" for owner, name, _ in found if name not in vars(owner)
        ]
        if missing:
            raise UnroutedLibrary(library, _version(library), f"no {', '.join(missing)}")
    except UnroutedLibrary as error:
        _warn_unrouted(error)
        return []
    except (ImportError, AttributeError) as error:  # its adapter's imports of the library
        _warn_unrouted(UnroutedLibrary(library, _version(library), str(error)))
        return []
    return found


def _warn_unrouted(error: UnroutedLibrary) -> None:
    if error.library not in _unrouted:
        _unrouted.add(error.library)
        warnings.warn(error, stacklevel=2)


def _version(library: str) -> str:
    try:
        return importlib.metadata.version(library)
    except importlib.metadata.PackageNotFoundError:
        return str(getattr(sys.modules.get(library), "__version__", "of unknown version"))


def _wrap(targets: Iterable[Seam]) -> None:
    for owner, name, wrap in targets:
        if (owner, name) not in _originals:
            original = owner.__dict__[name]
            _originals[owner, name] = original
            setattr(owner, name, wrap(original))


class _RouteOnImport(importlib.abc.MetaPathFinder):
    """On ``sys.meta_path`` while a block runs: wraps a routed library imported inside the
    block once its import has run, as if it had been imported before the block."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in _ADAPTERS:
            return None
        finders = sys.meta_path[sys.meta_path.index(self) + 1 :]
        for finder in finders:
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _WrapAfterLoading(spec.loader, fullname)
                return spec
        return None


class _WrapAfterLoading(importlib.abc.Loader):
    """A library's own loader, then its seams wrapped if a block still runs."""

    def __init__(self, loader: importlib.abc.Loader, library: str) -> None:
        self._loader = loader
        self._library = library

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        spec = module.__spec__
        assert spec is not None, "the import system sets it before running the module"
        module.__loader__ = spec.loader = self._loader  # as if imported plainly
        with _lock:
            if _active:
                _wrap(_adapter_targets(self._library))


_route_on_import = _RouteOnImport()


@dataclass
class _Outside:
    """What a cassette's block knows of connections made outside it."""

    allowed: frozenset[str] | None = None  # its ignored hosts' addresses, resolved when needed
    warned: set[str] = field(default_factory=set)


_outside: weakref.WeakKeyDictionary[Cassette, _Outside] = weakref.WeakKeyDictionary()


def _check_outside_cassettes(address: object) -> None:
    """Called before every socket connection while a block runs (see the module docstring)."""
    target = host_and_port(address)
    cassette = active_cassette()
    if target is None or cassette is None or inside_cassette():
        return
    host, port = target
    outside = _outside.setdefault(cassette, _Outside())
    if outside.allowed is None:
        outside.allowed = addresses_of(cassette.ignored_hosts.names)
    if host in outside.allowed:
        return
    if cassette.mode is Mode.NONE:
        if cassette.block_network:
            raise NetworkBlocked(host, port, cassette.path)
    elif host not in outside.warned:
        outside.warned.add(host)
        warnings.warn(
            f"connection to {host} made outside cassette {cassette.path}: its calls are not "
            "recorded (a client replay does not route, or a socket of its own)",
            stacklevel=3,
        )


def _route(cassette: Cassette) -> None:
    """Make ``cassette`` the one in force, wrapping the clients' seams if none was."""
    with _lock:
        if not _active:
            _wrap(list(_targets()))  # every warning first: nothing half wrapped
            sys.meta_path.insert(0, _route_on_import)
            _restore_connect.append(check_connections(_check_outside_cassettes))
        _active.append(cassette)


def _unroute(cassette: Cassette) -> None:
    """End ``cassette``'s block, putting the seams back after the last one."""
    with _lock:
        _active.remove(cassette)
        if not _active:
            for (owner, name), original in _originals.items():
                setattr(owner, name, original)
            _originals.clear()
            sys.meta_path.remove(_route_on_import)
            _restore_connect.pop()()


@contextmanager
def intercept(cassette: Cassette) -> Iterator[Cassette]:
    """Route the httpx, httpx2, aiohttp and urllib3 clients through ``cassette`` inside the
    block, and check every other connection made meanwhile."""
    _route(cassette)
    block = _enter(cassette)
    try:
        yield cassette
    finally:
        _leave(block)
        _unroute(cassette)


class CassetteBlock:
    """What :func:`use_cassette` returns: a ``with`` block, or an ``async with`` block that
    never blocks its event loop on the cassette file. Leaving it saves the cassette, then
    checks it for unused recordings (:meth:`Cassette.check_unused`) unless an exception is
    leaving it."""

    def __init__(self, cassette: Cassette) -> None:
        self.cassette = cassette
        self._block: _Block | None = None

    def __enter__(self) -> Cassette:
        _route(self.cassette)
        self._block = _enter(self.cassette)
        return self.cassette

    def __exit__(self, kind: object, error: BaseException | None, tb: object) -> None:
        try:
            self._unrouted()
        finally:
            self.cassette.save()
        self.cassette.check_unused(error)

    async def __aenter__(self) -> Cassette:
        """The file is read, and the clients routed, on a worker thread: the first block
        imports the adapters of the libraries already imported, which reads files too. The
        block is entered on the loop, in the context of the task entering it."""
        await anyio.to_thread.run_sync(self._loaded_and_routed)
        self._block = _enter(self.cassette)
        return self.cassette

    def _loaded_and_routed(self) -> None:
        self.cassette.load()
        _route(self.cassette)

    async def __aexit__(self, kind: object, error: BaseException | None, tb: object) -> None:
        """The cassette is saved on a worker thread, as :meth:`Cassette.asave` does."""
        try:
            self._unrouted()
        finally:
            await self.cassette.asave()
        self.cassette.check_unused(error)

    def _unrouted(self) -> None:
        assert self._block is not None, "a block is left after it was entered"
        _leave(self._block)
        _unroute(self.cassette)


def use_cassette(
    path: str | os.PathLike[str], mode: Mode | str = Mode.ONCE, **options: Any
) -> CassetteBlock:
    """Record and replay every httpx, httpx2, aiohttp and urllib3 (requests, boto3) call inside
    the block through one cassette: ``with use_cassette(...) as cassette:``, or in async code
    ``async with use_cassette(...) as cassette:``, which reads and saves the file off the
    event loop.

    Takes the same options as :class:`~replay._cassette.Cassette` (``ignore_hosts``,
    ``ignore_localhost`` among them). The cassette is saved when the block ends, also
    when it ends with an exception: what was recorded is real. A name among ``options`` that
    is not such an option is a ConfigError naming it, as a misspelt option in the marker is.
    """
    unknown = sorted(options.keys() - _CASSETTE_OPTIONS)
    if unknown:
        known = ", ".join(sorted(_CASSETTE_OPTIONS))
        raise ConfigError(unknown[0], options[unknown[0]], f"unknown option (known: {known})")
    return CassetteBlock(Cassette(path, mode, **options))


_CASSETTE_OPTIONS = frozenset(inspect.signature(Cassette).parameters) - {"path", "mode"}
"""The keyword options :func:`use_cassette` passes on to :class:`Cassette`."""


def network_method(owner: type, name: str) -> Any:
    """``owner.name`` as its library defines it, also while a block has it wrapped: the way to
    the network for an adapter that records through a cassette of its own (the proxy)."""
    with _lock:
        return _originals.get((owner, name), owner.__dict__[name])
