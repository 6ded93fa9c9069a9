"""``use_cassette``: route every httpx and httpx2 client through a cassette, sync and async.

Clients made before the block count too: the default transports' request
methods (``HTTPTransport.handle_request`` and
``AsyncHTTPTransport.handle_async_request`` of each library) are wrapped for
the duration of the block, and put back after it. Nothing is patched at
import time. Clients built on a custom transport (``MockTransport``, a test's
``ASGITransport``) are left alone.

Blocks nest: the innermost cassette is the one in force.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from replay._adapters.httpx_transport import (
    LIBRARIES,
    AnyRequest,
    AnyResponse,
    AsyncReplayTransport,
    ReplayTransport,
)
from replay._cassette import Cassette
from replay._core.modes import Mode

_active: list[Cassette] = []
_originals: dict[tuple[type, str], Any] = {}
_lock = threading.Lock()


class _Unpatched:
    """A default transport with its own, unwrapped request method: the way to the network."""

    def __init__(self, transport: Any, method: Any) -> None:
        self._transport = transport
        self._method = method

    def handle_request(self, request: AnyRequest) -> AnyResponse:
        return self._method(self._transport, request)

    async def handle_async_request(self, request: AnyRequest) -> AnyResponse:
        return await self._method(self._transport, request)

    def close(self) -> None:
        """The client owns the real transport and closes it."""

    async def aclose(self) -> None:
        """The client owns the real transport and closes it."""


def _sync_wrapper(original: Any) -> Any:
    def handle_request(self: Any, request: AnyRequest) -> AnyResponse:
        transport = ReplayTransport(_active[-1], transport=_Unpatched(self, original))
        return transport.handle_request(request)

    return handle_request


def _async_wrapper(original: Any) -> Any:
    async def handle_async_request(self: Any, request: AnyRequest) -> AnyResponse:
        transport = AsyncReplayTransport(_active[-1], transport=_Unpatched(self, original))
        return await transport.handle_async_request(request)

    return handle_async_request


def _targets() -> Iterator[tuple[type, str, Any]]:
    for lib in LIBRARIES:
        yield lib.HTTPTransport, "handle_request", _sync_wrapper
        yield lib.AsyncHTTPTransport, "handle_async_request", _async_wrapper


@contextmanager
def intercept(cassette: Cassette) -> Iterator[Cassette]:
    """Route the default transports of httpx and httpx2 through ``cassette`` inside the block."""
    with _lock:
        if not _active:
            for owner, name, wrap in _targets():
                original = owner.__dict__[name]
                _originals[owner, name] = original
                setattr(owner, name, wrap(original))
        _active.append(cassette)
    try:
        yield cassette
    finally:
        with _lock:
            _active.remove(cassette)
            if not _active:
                for (owner, name), original in _originals.items():
                    setattr(owner, name, original)
                _originals.clear()


@contextmanager
def use_cassette(
    path: str | os.PathLike[str], mode: Mode | str = Mode.ONCE, **options: Any
) -> Iterator[Cassette]:
    """Record and replay every httpx and httpx2 call inside the block through one cassette.

    Takes the same options as :class:`~replay._cassette.Cassette`. The cassette
    is saved when the block ends, also when it ends with an exception: what
    was recorded is real.
    """
    cassette = Cassette(path, mode, **options)
    try:
        with intercept(cassette):
            yield cassette
    finally:
        cassette.save()


def network_method(owner: type, name: str) -> Any:
    """``owner.name`` as its library defines it, also while a block has it wrapped: the way to
    the network for an adapter that records through a cassette of its own (the proxy)."""
    with _lock:
        return _originals.get((owner, name), owner.__dict__[name])
