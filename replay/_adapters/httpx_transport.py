"""The httpx and httpx2 adapters: the only place that touches either library.

Both libraries share one transport API, so one pair of transports serves
both: the library is taken from the request that comes in, and the response
(or exception) handed back is of the same library. An httpx2 client and an
httpx client can share one :class:`ReplayTransport`.

The sync and async transports differ only in their I/O calls; the decision,
recording and replay are in :mod:`replay._cassette` and :mod:`replay._core.streams`. The
async ones read and write the cassette's files off the event loop, through the cassette's
async twins (``aload``, ``aadd``, ``asave``, ``Recording.afinish``).
"""

from __future__ import annotations

import functools
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from types import ModuleType
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import anyio
import httpx

from replay._adapters.failures import httpx_kind
from replay._cassette import Cassette, Record, Recording, Replay
from replay._core import model
from replay._core.model import Chunk, Response, TransportFailure, stored_headers
from replay._core.own_traffic import inside_cassette, through_cassette
from replay._core.streams import StreamRecorder, pacing
from replay._store import usage

try:
    import httpx2
except ImportError:  # httpx2 is supported whenever it is installed
    LIBRARIES: tuple[ModuleType, ...] = (httpx,)
else:
    LIBRARIES = (httpx, httpx2)

AnyRequest = Any
"""An ``httpx.Request`` or an ``httpx2.Request``."""
AnyResponse = Any


class SyncUpstream(Protocol):
    def handle_request(self, request: AnyRequest) -> AnyResponse: ...
    def close(self) -> None: ...


class AsyncUpstream(Protocol):
    async def handle_async_request(self, request: AnyRequest) -> AnyResponse: ...
    async def aclose(self) -> None: ...


Upstream = TypeVar("Upstream", SyncUpstream, AsyncUpstream)


def library_of(request: AnyRequest) -> ModuleType:
    return sys.modules[type(request).__module__.partition(".")[0]]


def to_model(request: AnyRequest) -> model.Request:
    return model.Request(
        method=request.method,
        url=str(request.url),
        # The raw pairs: multi_items() would detect the encoding again for every header.
        headers=model.headers_from_bytes(request.headers.raw),
        body=request.content,
    )


# Replaying.


_STREAM_BASES = tuple(
    base for lib in LIBRARIES for base in (lib.SyncByteStream, lib.AsyncByteStream)
)
_TRANSPORT_ERRORS = tuple(lib.TransportError for lib in LIBRARIES)
NEVER_CONNECTED = tuple(
    kind for lib in LIBRARIES for kind in (lib.ConnectError, lib.ConnectTimeout, lib.PoolTimeout)
)
"""Failures before any connection was made: no answer from the API, so never recorded (a run
with the API down would otherwise replay its outage for ever)."""


class ReplayedStream(*_STREAM_BASES):  # type: ignore[misc]
    """The recorded chunks, with their boundaries, to an httpx or httpx2 response."""

    def __init__(
        self, chunks: tuple[Chunk, ...], speed: float | None, failure: Exception | None = None
    ) -> None:
        self._chunks = chunks
        self._speed = speed
        self._failure = failure

    def __iter__(self) -> Iterator[bytes]:
        for wait, data in pacing(self._chunks, self._speed):
            if wait:
                time.sleep(wait)
            yield data
        if self._failure is not None:
            raise self._failure

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for wait, data in pacing(self._chunks, self._speed):
            if wait:
                await anyio.sleep(wait)
            yield data
        if self._failure is not None:
            raise self._failure

    def close(self) -> None:
        pass

    async def aclose(self) -> None:
        pass


def replayed(
    outcome: Response | TransportFailure, request: AnyRequest, speed: float | None
) -> AnyResponse:
    lib = library_of(request)
    if isinstance(outcome, TransportFailure):
        raise _exception(lib, outcome, request)
    cut = None if outcome.failure is None else _exception(lib, outcome.failure, request)
    response = _REPLAYED_RESPONSES[lib](
        outcome.status,
        headers=model.headers_to_bytes(outcome.headers),
        stream=ReplayedStream(outcome.chunks, speed, cut),
        request=request,
    )
    if speed is None and cut is None and outcome.header("content-encoding") is None:
        response.whole_body = outcome.body
    return response


def _replayed_response(lib: ModuleType) -> type[Any]:
    class ReplayedResponse(lib.Response):  # type: ignore[misc,name-defined]
        """A replayed response whose whole body is at hand: reading it (``read``, ``aread``, what
        a client does for a request sent without ``stream=True``) takes those bytes at once and
        closes the response, as reading a network response to its end does; the chain of
        generators under ``aread`` (about 45k instructions) is skipped. Iterating it
        (``iter_raw`` and the others) goes through :class:`ReplayedStream`, chunk by chunk."""

        whole_body: bytes | None = None
        is_stream_consumed: bool
        _num_bytes_downloaded: int
        _content: bytes

        def read(self) -> bytes:
            if self._take_whole_body():
                self.close()
            return super().read()  # type: ignore[no-any-return]

        async def aread(self) -> bytes:
            if self._take_whole_body():
                await self.aclose()
            return await super().aread()  # type: ignore[no-any-return]

        def _take_whole_body(self) -> bool:
            """Take the whole body as read, unless it is not at hand or reading began."""
            body = self.whole_body
            if body is None or self.is_stream_consumed or self.is_closed:
                return False
            if hasattr(self, "_content"):
                return False
            self._content = body
            self.is_stream_consumed = True
            self._num_bytes_downloaded = len(body)
            return True

    return ReplayedResponse


_REPLAYED_RESPONSES = {lib: _replayed_response(lib) for lib in LIBRARIES}


def _exception(lib: ModuleType, failure: TransportFailure, request: AnyRequest) -> Exception:
    kind = getattr(lib, httpx_kind(failure.kind), None)
    if not (isinstance(kind, type) and issubclass(kind, lib.TransportError)):
        kind = lib.TransportError  # a name this library does not have, or not a transport error
    error: Exception = kind(failure.message, request=request)
    return error


# Recording.


class RecordingStream(*_STREAM_BASES):  # type: ignore[misc]
    """Hands each upstream chunk to the caller as it arrives, as it will be replayed
    (:class:`replay._core.normalize.ShownBody`), and keeps it for the cassette.

    The interaction is added as soon as it is complete: the body read to its end, or to the
    event that ends the provider's stream (SDKs stop reading there and may never close the
    response), or cut short by a transport exception (a read timeout mid-stream). One the
    caller closes half-way is added marked incomplete; one never closed is added as it
    stands when its cassette is saved (see :class:`replay._cassette.Recording`).
    """

    def __init__(self, upstream: Any, recorder: StreamRecorder, recording: Recording) -> None:
        self._upstream = upstream
        self._recorder = recorder
        self._recording = recording

    def __iter__(self) -> Iterator[bytes]:
        upstream = iter(self._upstream)
        _BEING_READ.add(upstream)
        try:
            for raw in upstream:
                data = self._recorder.feed(raw)
                if data:
                    if self._recorder.at_final_event:  # the caller may stop reading there
                        self._recording.finish(True)
                    if shown := self._recording.shown.feed(data):
                        yield shown
        except _TRANSPORT_ERRORS as error:
            self._recording.finish(False, failure(error, usage.now()))
            raise
        except GeneratorExit:  # dropped unread, or closed by the caller half-way
            _close_elsewhere(upstream)
            raise
        finally:
            _BEING_READ.discard(upstream)
        rest = self._recording.shown.rest()  # the body's end: the rest of its last line
        self._recording.finish(True)
        if rest:
            yield rest

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for raw in self._upstream:
                data = self._recorder.feed(raw)
                if data:
                    if self._recorder.at_final_event:
                        await self._recording.afinish(True)
                    if shown := self._recording.shown.feed(data):
                        yield shown
        except _TRANSPORT_ERRORS as error:
            await self._recording.afinish(False, failure(error, usage.now()))
            raise
        rest = self._recording.shown.rest()  # the body's end: the rest of its last line
        await self._recording.afinish(True)
        if rest:
            yield rest

    def close(self) -> None:
        try:
            self._upstream.close()
        finally:
            self._recording.finish(False)

    async def aclose(self) -> None:
        try:
            await self._upstream.aclose()
        finally:
            await self._recording.afinish(False)


_BEING_READ: set[Iterator[bytes]] = set()
"""The upstream iterators of sync streams being read, kept reachable from here so that the
cyclic garbage collector never finalizes one itself: see :func:`_close_elsewhere`."""


def _close_elsewhere(upstream: Iterator[bytes]) -> None:
    """Close the upstream of a stream that was dropped, on a thread of its own.

    The cyclic garbage collector finalizes a dropped stream at whatever allocation it runs at,
    which can be inside httpcore's connection pool on this very thread, holding the pool's
    lock; closing the upstream takes that lock again and would wait forever
    (encode/httpcore#990: litellm's sync Anthropic stream hung the SDK matrix so). Another
    thread waits for the lock only until this one lets go of it.
    """
    close = getattr(upstream, "close", None)
    if close is None:
        return
    if sys.is_finalizing():  # a thread started now would never run, and start() would wait
        close()
        return
    threading.Thread(target=close, name="replay-close-dropped-stream", daemon=True).start()


def teed(
    cassette: Cassette,
    record: Record,
    request: AnyRequest,
    response: AnyResponse,
    started: float,
    recorded_at: str,
) -> AnyResponse:
    """The upstream response, its body decoded and recorded on the way to the caller."""
    lib = library_of(request)
    headers = model.headers_from_bytes(response.headers.raw)
    content_type = _header(headers, "content-type", response)
    recorder = StreamRecorder(_header(headers, "content-encoding", response), started, content_type)
    kept = stored_headers(headers, recorder.decodes)
    hidden = _HIDDEN_DECODED if recorder.decodes else _HIDDEN
    outcome = functools.partial(recorder.response, response.status_code, kept, recorded_at)
    recording = cassette.recording(record, outcome, content_type)
    stream = RecordingStream(response.stream, recorder, recording)
    return lib.Response(
        response.status_code,
        headers=model.headers_to_bytes(
            [(name, value) for name, value in headers if name not in hidden]
        ),
        stream=stream,
        request=request,
        extensions=response.extensions,
    )


def _header(headers: model.Headers, name: str, response: AnyResponse) -> str | None:
    """``response.headers.get(name)``, read from ``headers``, its pairs as Latin-1: a name
    that comes once with an ASCII value (the rule) is that value in whichever encoding httpx
    reads its headers, and no look-up of httpx's (which works out that encoding from every
    header, about 1.5 µs) is needed. A repeated name (httpx joins the values with a comma) or
    another value is httpx's to read."""
    values = [value for key, value in headers if key == name]
    if not values:
        return None
    if len(values) == 1 and values[0].isascii():
        return values[0]
    value: str | None = response.headers.get(name)
    return value


_HIDDEN = frozenset({"content-length"})
_HIDDEN_DECODED = frozenset({"content-length", "content-encoding"})
"""Headers the caller's response leaves out: its body is the decoded one, of another length."""


def upstream_request(request: AnyRequest, record: Record) -> AnyRequest:
    """The request to send upstream: the caller's, or one with the real ids of placeholders."""
    real = record.upstream
    if real is None:
        return request
    headers = [
        (name, value) for name, value in request.headers.raw if name.lower() != b"content-length"
    ]
    return library_of(request).Request(
        real.method, real.url, headers=headers, content=real.body, extensions=request.extensions
    )


def failure(error: Exception, recorded_at: str) -> TransportFailure:
    return TransportFailure(type(error).__name__, str(error), recorded_at)


# The transports.


def bypasses(cassette: Cassette, request: AnyRequest) -> bool:
    """Sent on untouched: a host the cassette ignores, or a request already in a cassette."""
    if inside_cassette():
        return True
    return bool(cassette.ignored_hosts) and cassette.ignores(str(request.url))  # str() costs


if TYPE_CHECKING:  # the type checker sees httpx2 installed, as the test environment has it
    import httpx2

    # The two bases take different Request classes; the subclasses take either.
    class _Transport(httpx.BaseTransport, httpx2.BaseTransport): ...  # type: ignore[misc]

    class _AsyncTransport(httpx.AsyncBaseTransport, httpx2.AsyncBaseTransport): ...  # type: ignore[misc]
else:
    # One transport object is a transport of either library, so either client takes it.
    _Transport = type("_Transport", tuple(lib.BaseTransport for lib in LIBRARIES), {})
    _AsyncTransport = type(
        "_AsyncTransport", tuple(lib.AsyncBaseTransport for lib in LIBRARIES), {}
    )


class _Upstreams(Generic[Upstream]):
    """The real transports to record through: the one given, else the request's library's own,
    made on first use (a replay-only run opens no connection pool)."""

    def __init__(self, given: Upstream | None, default: str) -> None:
        self._given: Upstream | None = given
        self._default = default
        self._made: dict[ModuleType, Upstream] = {}

    def get(self, lib: ModuleType) -> Upstream:
        if self._given is not None:
            return self._given
        made = self._made.get(lib)
        if made is None:
            made = self._made[lib] = getattr(lib, self._default)()
        return made

    async def aget(self, lib: ModuleType) -> Upstream:
        """:meth:`get`, a transport made on a worker thread: making one reads the CA
        certificates (and httpx2 its package metadata), blocking I/O."""
        if self._given is None and lib not in self._made:
            await anyio.to_thread.run_sync(self.get, lib)
        return self.get(lib)

    def opened(self) -> list[Upstream]:
        return [self._given] if self._given is not None else list(self._made.values())


class ReplayTransport(_Transport):
    """Replays from ``cassette``; records through ``transport`` (default: the request's library's
    own ``HTTPTransport``) where the cassette's mode allows."""

    def __init__(self, cassette: Cassette, transport: SyncUpstream | None = None) -> None:
        self.cassette = cassette
        self._upstreams = _Upstreams(transport, "HTTPTransport")

    def handle_request(self, request: AnyRequest) -> AnyResponse:
        if bypasses(self.cassette, request):
            return self._upstreams.get(library_of(request)).handle_request(request)
        request.read()
        decision = self.cassette.decide(to_model(request))
        if isinstance(decision, Replay):
            return replayed(decision.answer, request, self.cassette.replay_speed)
        lib = library_of(request)
        started, recorded_at = time.monotonic(), usage.now()
        try:
            with through_cassette():  # allowed by --block-network: this records
                response = self._upstreams.get(lib).handle_request(
                    upstream_request(request, decision)
                )
        except lib.TransportError as error:
            if not isinstance(error, NEVER_CONNECTED):
                self.cassette.add(decision, failure(error, recorded_at))
            raise
        return teed(self.cassette, decision, request, response, started, recorded_at)

    def close(self) -> None:
        try:
            for upstream in self._upstreams.opened():
                upstream.close()
        finally:
            self.cassette.save()


class AsyncReplayTransport(_AsyncTransport):
    """The async twin of :class:`ReplayTransport`."""

    def __init__(self, cassette: Cassette, transport: AsyncUpstream | None = None) -> None:
        self.cassette = cassette
        self._upstreams = _Upstreams(transport, "AsyncHTTPTransport")

    async def handle_async_request(self, request: AnyRequest) -> AnyResponse:
        if bypasses(self.cassette, request):
            upstream = await self._upstreams.aget(library_of(request))
            return await upstream.handle_async_request(request)
        await request.aread()
        if not self.cassette.loaded:  # awaiting it on every request costs more than this check
            await self.cassette.aload()
        decision = self.cassette.decide(to_model(request))
        if isinstance(decision, Replay):
            return replayed(decision.answer, request, self.cassette.replay_speed)
        lib = library_of(request)
        started, recorded_at = time.monotonic(), usage.now()
        try:
            upstream = await self._upstreams.aget(lib)
            with through_cassette():
                response = await upstream.handle_async_request(upstream_request(request, decision))
        except lib.TransportError as error:
            if not isinstance(error, NEVER_CONNECTED):
                await self.cassette.aadd(decision, failure(error, recorded_at))
            raise
        return teed(self.cassette, decision, request, response, started, recorded_at)

    async def aclose(self) -> None:
        try:
            for upstream in self._upstreams.opened():
                await upstream.aclose()
        finally:
            await self.cassette.asave()
