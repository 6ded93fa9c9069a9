"""The ``websockets`` library's clients, sync and asyncio, through a cassette.

Imported only when websockets is installed (the ``websockets`` extra), and routed only
inside a ``use_cassette`` block or the pytest marker: for the block, two seams are wrapped,
and put back after it.

- Sync: the module function ``websockets.sync.client.connect``. Its callers import it when
  they connect (the openai SDK does, on each ``realtime.connect``).
- Asyncio: the coroutine method of the class ``websockets.asyncio.client.connect`` that
  ``await connect(...)`` and ``async with connect(...)`` run: ``connect`` from websockets 17.1
  on, ``__await_impl__`` before. Patching the class name in its module would not reach
  subclasses made when the module was imported (the openai SDK's ``_WebSocketConnect``); the
  method, inherited, reaches them all. Before 17, ``async with`` closes the connection that
  method leaves on ``self.connection``; 13.1 and 14 keep the caller's headers only among the
  handshake's arguments; 13.0 keeps no URI at all, and is not routed (see
  :func:`async_layout`).

The handshake (its URL and headers) is the request a cassette keys and matches. Recording,
the real connection is wrapped: every message both ways is noted with its side, type and
time, and the session is added to the cassette when the connection closes (either side), or
as it stands, incomplete, when the cassette is saved first. Replaying, no connection is
made: a stand-in connection gives the recorded server messages, each once the client has
sent the messages recorded before it, and checks each client message against the recording
(:class:`replay._core.websocket.Playback`).

The connection's ``send``, ``recv`` (``decode=`` and ``timeout=`` included), ``close``,
iteration and use as a context manager are supported; other attributes of a recording
connection are the real connection's. Fragmented messages (an iterable given to ``send``)
are not.

aiohttp's ``ws_connect`` is not routed (its connection is a ``ClientWebSocketResponse`` with an
API of its own, and no LLM SDK's WebSocket client is built on it): its handshake passes the
aiohttp adapter untouched, so in a replay-only block its connection raises ``NetworkBlocked``
and, recording, warns that nothing of it is recorded.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from types import ModuleType, TracebackType
from typing import Any

import websockets.asyncio.client
import websockets.sync.client
import websockets.version
from websockets.datastructures import Headers as WebSocketHeaders
from websockets.exceptions import ConnectionClosed, ConnectionClosedOK
from websockets.frames import Close, CloseCode

from replay._adapters.websocket_session import SessionRecorder, SessionReplay, frame_data
from replay._cassette import Cassette, Replay
from replay._core.errors import UnroutedLibrary
from replay._core.model import Frame, Request, WebSocketSession
from replay._core.own_traffic import inside_cassette, through_cassette

Message = str | bytes
"""What ``send`` takes and ``recv`` gives: text as str, binary as bytes."""


def handshake(uri: str, additional_headers: Any, subprotocols: Any = None) -> Request:
    """The handshake as a request: ``GET`` to the WebSocket URL, with the caller's headers and
    the subprotocols it offers (``sec-websocket-protocol``), since a browser-style client sends
    its key as one (``openai-insecure-api-key.sk-...``): redaction must see it to scrub the
    server's echoes of it."""
    headers = [
        (name.lower(), value)
        for name, value in WebSocketHeaders(additional_headers or {}).raw_items()
    ]
    if subprotocols:
        headers.append(("sec-websocket-protocol", ", ".join(subprotocols)))
    return Request("GET", uri, tuple(headers), b"")


def offered_subprotocols(connect: websockets.asyncio.client.connect) -> Any:
    """The subprotocols an async ``connect`` offers: it keeps them only in the closure of its
    connection factory. None where a version of websockets keeps them otherwise."""
    factory: Any = getattr(connect, "factory", None)
    code = getattr(factory, "__code__", None)
    if code is None or "subprotocols" not in code.co_freevars:
        return None
    return factory.__closure__[code.co_freevars.index("subprotocols")].cell_contents


def delivered(data: bytes, text: bool, decode: bool | None) -> Message:
    """As ``recv(decode=...)`` gives a message: text as str, binary as bytes, unless asked."""
    if decode if decode is not None else text:
        return data.decode("utf-8")
    return data


def as_sent(message: Any, data: bytes) -> Message:
    """``data`` as the type of the caller's ``message``: ``send`` picks text or binary by it."""
    return data.decode("utf-8") if isinstance(message, str) else data


def closed() -> ConnectionClosedOK:
    """What ``recv`` raises once the recorded server messages are all given."""
    normal = Close(CloseCode.NORMAL_CLOSURE, "")
    return ConnectionClosedOK(normal, normal, True)


class _Messages:
    """``for message in connection``: what ``recv`` gives, until the connection closes."""

    def recv(self, timeout: float | None = None, decode: bool | None = None) -> Message:
        raise NotImplementedError

    def __iter__(self) -> Iterator[Message]:
        try:
            while True:
                yield self.recv()
        except ConnectionClosedOK:
            return


class _AsyncMessages:
    """``async for message in connection``: the asyncio twin of :class:`_Messages`."""

    async def recv(self, decode: bool | None = None) -> Message:
        raise NotImplementedError

    async def __aiter__(self) -> AsyncIterator[Message]:
        try:
            while True:
                yield await self.recv()
        except ConnectionClosedOK:
            return


class RecordingConnection(_Messages):
    """A real sync connection whose messages are recorded; the rest is the connection's."""

    def __init__(self, connection: Any, recorder: SessionRecorder) -> None:
        self._connection = connection
        self._recorder = recorder

    def __getattr__(self, name: str) -> Any:
        return getattr(self._connection, name)

    def send(self, message: Any, text: bool | None = None) -> None:
        upstream = as_sent(message, self._recorder.sent(*frame_data(message, text)))
        if text is None:
            self._connection.send(upstream)
        else:
            self._connection.send(upstream, text=text)

    def recv(self, timeout: float | None = None, decode: bool | None = None) -> Message:
        try:
            message: Message = self._connection.recv(timeout)
        except ConnectionClosed:
            self._recorder.finish()
            raise
        return delivered(*self._recorder.received(message), decode)

    def close(self, code: int = CloseCode.NORMAL_CLOSURE, reason: str = "") -> None:
        try:
            self._connection.close(code, reason)
        finally:
            self._recorder.finish()

    def __enter__(self) -> RecordingConnection:
        self._connection.__enter__()
        return self

    def __exit__(self, *exc_info: Any) -> None:
        try:
            self._connection.__exit__(*exc_info)
        finally:
            self._recorder.finish()


class AsyncRecordingConnection(_AsyncMessages):
    """A real asyncio connection whose messages are recorded; the rest is the connection's."""

    def __init__(self, connection: Any, recorder: SessionRecorder) -> None:
        self._connection = connection
        self._recorder = recorder

    def __getattr__(self, name: str) -> Any:
        return getattr(self._connection, name)

    async def send(self, message: Any, text: bool | None = None) -> None:
        upstream = as_sent(message, self._recorder.sent(*frame_data(message, text)))
        if text is None:
            await self._connection.send(upstream)
        else:
            await self._connection.send(upstream, text=text)

    async def recv(self, decode: bool | None = None) -> Message:
        try:
            message: Message = await self._connection.recv()
        except ConnectionClosed:
            await self._recorder.afinish()
            raise
        return delivered(*self._recorder.received(message), decode)

    async def close(self, code: int = CloseCode.NORMAL_CLOSURE, reason: str = "") -> None:
        try:
            await self._connection.close(code, reason)
        finally:
            await self._recorder.afinish()

    async def __aenter__(self) -> AsyncRecordingConnection:
        await self._connection.__aenter__()
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            await self._connection.__aexit__(kind, error, tb)
        finally:
            await self._recorder.afinish()


class _Replayed:
    """What the sync and asyncio stand-ins share: the session replayed, and whether closed."""

    def __init__(self, cassette: Cassette, url: str, session: WebSocketSession) -> None:
        self._replay = SessionReplay(cassette, url, session)
        self._closed = False
        self.close_code: int | None = None
        self.close_reason: str | None = None

    def _check(self, message: Any, text: bool | None) -> None:
        if self._closed:
            raise closed()
        self._replay.check(*frame_data(message, text))

    def _next(self) -> Frame | None:
        """The next server message if it is due; raises as a closed connection at the end."""
        if self._closed or self._replay.ended:
            raise closed()
        return self._replay.next_due()

    def _wait_before(self, frame: Frame) -> float:
        return self._replay.wait_before(frame)

    def _close(self, code: int, reason: str) -> None:
        self._closed = True
        self.close_code, self.close_reason = code, reason


class ReplayedConnection(_Replayed, _Messages):
    """A sync connection that never connects: the recorded session, played back."""

    def __init__(self, cassette: Cassette, url: str, session: WebSocketSession) -> None:
        super().__init__(cassette, url, session)
        self._condition = threading.Condition()

    def send(self, message: Any, text: bool | None = None) -> None:
        with self._condition:
            self._check(message, text)
            self._condition.notify_all()

    def recv(self, timeout: float | None = None, decode: bool | None = None) -> Message:
        with self._condition:
            frame = self._next()
            while frame is None:
                if not self._condition.wait(timeout):
                    raise TimeoutError("timed out while waiting for a message")
                frame = self._next()
        time.sleep(self._wait_before(frame))
        return delivered(frame.data, frame.text, decode)

    def close(self, code: int = CloseCode.NORMAL_CLOSURE, reason: str = "") -> None:
        with self._condition:
            self._close(code, reason)
            self._condition.notify_all()

    def __enter__(self) -> ReplayedConnection:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class AsyncReplayedConnection(_Replayed, _AsyncMessages):
    """An asyncio connection that never connects: the recorded session, played back."""

    def __init__(self, cassette: Cassette, url: str, session: WebSocketSession) -> None:
        super().__init__(cassette, url, session)
        self._condition = asyncio.Condition()

    async def send(self, message: Any, text: bool | None = None) -> None:
        async with self._condition:
            self._check(message, text)
            self._condition.notify_all()

    async def recv(self, decode: bool | None = None) -> Message:
        async with self._condition:
            frame = self._next()
            while frame is None:
                await self._condition.wait()
                frame = self._next()
        await asyncio.sleep(self._wait_before(frame))
        return delivered(frame.data, frame.text, decode)

    async def close(self, code: int = CloseCode.NORMAL_CLOSURE, reason: str = "") -> None:
        async with self._condition:
            self._close(code, reason)
            self._condition.notify_all()

    async def __aenter__(self) -> AsyncReplayedConnection:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()


def patch_targets(
    active: Callable[[], Cassette | None],
) -> Iterator[tuple[type | ModuleType, str, Callable[[Any], Any]]]:
    """What ``use_cassette`` wraps for the block: see the module docstring."""

    def wrap_sync(original: Any) -> Any:
        def connect(uri: str, *args: Any, **kwargs: Any) -> Any:
            cassette = active()
            if cassette is None or inside_cassette() or cassette.ignores(uri):
                return original(uri, *args, **kwargs)
            request = handshake(uri, kwargs.get("additional_headers"), kwargs.get("subprotocols"))
            decision = cassette.decide(request)
            if isinstance(decision, Replay):
                return ReplayedConnection(cassette, uri, decision.session)
            with through_cassette():  # this connection records
                connection = original(uri, *args, **kwargs)
            return RecordingConnection(connection, SessionRecorder(cassette, decision))

        return connect

    layout = async_layout(websockets.version.version)

    def wrap_async(original: Any) -> Any:
        async def connect(self: websockets.asyncio.client.connect) -> Any:
            cassette = active()
            if cassette is None or inside_cassette() or cassette.ignores(self.uri):
                return await original(self)
            await cassette.aload()  # read off the loop, once
            request = handshake(self.uri, layout.headers(self), offered_subprotocols(self))
            decision = cassette.decide(request)
            connection: AsyncReplayedConnection | AsyncRecordingConnection
            if isinstance(decision, Replay):
                connection = AsyncReplayedConnection(cassette, self.uri, decision.session)
            else:
                with through_cassette():  # this connection records
                    real = await original(self)
                connection = AsyncRecordingConnection(real, SessionRecorder(cassette, decision))
            if layout.keeps_connection:
                self.connection = connection  # type: ignore[assignment]
            return connection

        return connect

    yield websockets.sync.client, "connect", wrap_sync
    yield websockets.asyncio.client.connect, layout.method, wrap_async


@dataclass(frozen=True)
class AsyncLayout:
    """Where a version of websockets keeps what the asyncio seam reads and sets."""

    method: str
    """The coroutine method ``await connect(...)`` runs."""
    keeps_connection: bool
    """Whether that method leaves the connection on ``self.connection``, which ``async with``
    closes when its block ends."""
    headers_in_arguments: bool
    """Whether the caller's headers are kept only as ``handshake_args[0]``, not as
    ``additional_headers``."""

    def headers(self, connect: websockets.asyncio.client.connect) -> Any:
        if self.headers_in_arguments:
            return connect.handshake_args[0]  # type: ignore[attr-defined]
        return connect.additional_headers


def async_layout(version: str) -> AsyncLayout:
    """The layout of websockets ``version``'s asyncio client, from the versions replay is
    tested against (13.1 to 17); a later version is taken to be laid out as the latest, and
    ``use_cassette`` checks that its method is there. 13.0 keeps no URI on the object: an
    :class:`UnroutedLibrary`."""
    release = tuple(int(part) for part in version.split(".")[:2] if part.isdigit())
    if release < (13, 1):
        raise UnroutedLibrary("websockets", version, "its asyncio client keeps no URI")
    return AsyncLayout(
        method="connect" if release >= (17, 1) else "__await_impl__",
        keeps_connection=release < (17, 0),
        headers_in_arguments=release < (15, 0),
    )
