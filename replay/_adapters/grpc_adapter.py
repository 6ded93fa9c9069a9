"""grpcio's channels, sync and asyncio, through a cassette.

Imported only when grpcio is installed (the ``grpc`` extra), and routed only inside a
``use_cassette`` block or the pytest marker. The seams are the methods of grpcio's
multicallables, the objects a stub holds for each of its methods: ``__call__`` (and
``with_call`` and ``future`` where the call's answer is one message) of the four classes in
``grpc._channel`` that ``grpc.insecure_channel`` and ``grpc.secure_channel`` make, and
``__call__`` of the four in ``grpc.aio._channel``. A stub made before the block, over a
channel made before it, is routed too, as HTTP clients are. A sync channel's interceptors
(``grpc.intercept_channel``) run before the seam, so the metadata they add (an
``authorization``) is what the cassette sees, and redacts; an asyncio channel's interceptors
run after it: recording, they run as ever on the real call, and replaying they are not run.

A call is a :class:`~replay._core.model.Request` (see :mod:`replay._core.grpc_call`) that the
cassette keys and matches; what it recorded is a :class:`~replay._core.model.GrpcCall`.
Messages are converted at this edge: a protobuf message becomes its JSON view (its fields'
names as in the ``.proto``), kept only when the message parsed back from it is the same one,
and the bytes are made again from that view on replay, through the type the default
descriptor pool knows by its recorded name; any other message is kept as its bytes.
Recording, the caller gets each message as replay will give it (ids normalized).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from functools import partial
from types import ModuleType, TracebackType
from typing import Any

import grpc
import grpc._channel
import grpc.aio
import grpc.aio._channel
import orjson
from google.protobuf import descriptor_pool, json_format, message_factory
from google.protobuf.message import Message

from replay._cassette import Cassette, Record, Recording, Replay
from replay._core import grpc_call
from replay._core.errors import FrameMiss
from replay._core.model import Frame, GrpcCall, Headers, Request, TransportFailure
from replay._core.own_traffic import inside_cassette
from replay._core.websocket import Playback, wait_before
from replay._store import usage

Metadata = tuple[tuple[str, str | bytes], ...]


# Converting at the edge.


def metadata_headers(metadata: Any) -> Headers:
    """A call's metadata as headers: names lower-cased, a binary value one byte a character."""
    return tuple(
        (str(name).lower(), value.decode("latin-1") if isinstance(value, bytes) else str(value))
        for name, value in (metadata or ())
    )


def headers_metadata(headers: Headers) -> Metadata:
    """Headers as the metadata they were: a binary (``-bin``) value as bytes again."""
    return tuple(
        (name, value.encode("latin-1") if name.endswith("-bin") else value)
        for name, value in headers
    )


def message_view(message: Any, serializer: Callable[[Any], bytes] | None) -> tuple[bytes, bool]:
    """A message as a cassette keeps it: its JSON view (True) when it is a protobuf message
    the view gives back whole, else its bytes (False)."""
    if isinstance(message, Message):
        view = orjson.dumps(json_format.MessageToDict(message, preserving_proto_field_name=True))
        again = json_format.Parse(view, type(message)())
        if again.SerializeToString(deterministic=True) == message.SerializeToString(
            deterministic=True
        ):
            return view, True
        return message.SerializeToString(), False  # unknown fields, which the view drops
    if serializer is not None:
        return serializer(message), False
    if isinstance(message, bytes):
        return message, False
    raise TypeError(
        "replay records gRPC messages that are protobuf messages, bytes, or have a serializer;"
        f" not {type(message).__name__}"
    )


def type_name(message: Any) -> str | None:
    return message.DESCRIPTOR.full_name if isinstance(message, Message) else None


def message_of(
    data: bytes, text: bool, name: str | None, deserializer: Callable[[bytes], Any] | None
) -> Any:
    """The message a caller gets: the bytes, made again from the JSON view if it is one, as
    the channel's deserializer reads them."""
    if text:
        if name is None:
            raise ValueError("a gRPC message's JSON view has no response_type to encode it by")
        descriptor = descriptor_pool.Default().FindMessageTypeByName(name)
        message = json_format.Parse(data, message_factory.GetMessageClass(descriptor)())
        data = message.SerializeToString()
    return deserializer(data) if deserializer is not None else data


def as_typed(data: bytes, like: Any) -> Any:
    """A JSON view parsed as a message of ``like``'s type."""
    return json_format.Parse(data, type(like)())


def _status(code: str) -> grpc.StatusCode:
    return grpc.StatusCode[code]


# Recording.


class CallRecorder:
    """The messages, metadata and status of one real call, added to the cassette when it ends
    (or as it stands, incomplete, when the cassette is saved first)."""

    def __init__(
        self,
        cassette: Cassette,
        record: Record,
        serializer: Callable[[Any], bytes] | None,
        deserializer: Callable[[bytes], Any] | None,
    ) -> None:
        self._cassette = cassette
        self._serializer = serializer
        self._deserializer = deserializer
        self._started = time.monotonic()
        self._recorded_at = usage.now()
        self._messages: list[Frame] = []
        self._response_type: str | None = None
        self._initial: Headers = ()
        self._trailing: Headers = ()
        self._code = grpc_call.OK
        self._details = ""
        self._lock = threading.Lock()
        self.recording: Recording = cassette.recording(record, self._call)

    def _note(self, data: bytes, text: bool, from_client: bool) -> None:
        at = round(time.monotonic() - self._started, 4)
        with self._lock:
            self._messages.append(Frame(data, at, from_client, text))

    def sent(self, message: Any) -> Any:
        """The caller sends ``message`` (a client stream's): noted, and returned as it goes
        upstream, with the real ids of the placeholders it was shown."""
        data, text = message_view(message, self._serializer)
        self._note(data, text, from_client=True)
        if text:
            upstream = self._cassette.upstream_message(data)
            if upstream != data:
                return as_typed(upstream, message)
        return message

    def received(self, message: Any) -> Any:
        """The server sent ``message``: noted, and returned as replay will give it."""
        data, text = message_view(message, None)
        self._response_type = type_name(message)
        self._note(data, text, from_client=False)
        if not text:
            return message
        shown = self.recording.shown.message(data)
        if shown == data:
            return message
        return message_of(shown, True, self._response_type, self._deserializer)

    def ended(self, call: Any) -> None:
        """The call ended, ``call`` (a ``grpc.Call``, or an error that is one) telling how."""
        self._status_of(call)
        self.recording.finish(complete=True)

    async def aended(self, call: Any) -> None:
        """:meth:`ended` for an asyncio call: its status is awaited, the journal written off
        the event loop."""
        code = await call.code()
        self._code = code.name if code is not None else grpc_call.OK
        self._details = (await call.details()) or ""
        self._initial = metadata_headers(await call.initial_metadata())
        self._trailing = metadata_headers(await call.trailing_metadata())
        await self.recording.afinish(complete=True)

    def _status_of(self, call: Any) -> None:
        code = call.code() if hasattr(call, "code") else grpc.StatusCode.UNKNOWN
        self._code = code.name if code is not None else grpc_call.OK
        self._details = (call.details() if hasattr(call, "details") else str(call)) or ""
        if hasattr(call, "initial_metadata"):
            self._initial = metadata_headers(call.initial_metadata())
            self._trailing = metadata_headers(call.trailing_metadata())

    def _call(self, complete: bool, cut: TransportFailure | None) -> GrpcCall:
        with self._lock:
            return GrpcCall(
                tuple(self._messages),
                self._initial,
                self._trailing,
                self._code,
                self._details,
                self._recorded_at,
                self._response_type,
                complete,
            )


class RecordingStream:
    """A real sync call's stream of answers, each recorded as it is read; the rest (its
    metadata, status, ``cancel``) is the real call's."""

    def __init__(self, stream: Any, recorder: CallRecorder) -> None:
        self._stream = stream
        self._recorder = recorder

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)

    def __iter__(self) -> RecordingStream:
        return self

    def __next__(self) -> Any:
        try:
            message = next(self._stream)
        except StopIteration:
            self._recorder.ended(self._stream)
            raise
        except grpc.RpcError as error:
            self._recorder.ended(error)
            raise
        return self._recorder.received(message)

    def cancel(self) -> bool:
        cancelled: bool = self._stream.cancel()
        self._recorder.recording.finish(complete=False)
        return cancelled


class _ReadToTheEnd:
    """``async for message in call``: what ``read`` gives, until ``grpc.aio.EOF``."""

    async def read(self) -> Any:
        raise NotImplementedError

    def __aiter__(self) -> AsyncIterator[Any]:
        return self._messages()

    async def _messages(self) -> AsyncIterator[Any]:
        while True:
            message = await self.read()
            if message is grpc.aio.EOF:
                return
            yield message


class AsyncRecordingCall(_ReadToTheEnd):
    """A real asyncio call whose answers are recorded as they come; the rest is the call's.
    One cancelled is added when its cassette is saved, as it stands: ``cancel`` is no
    coroutine, and the journal is never written on the event loop."""

    def __init__(self, call: Any, recorder: CallRecorder) -> None:
        self._call = call
        self._recorder = recorder

    def __getattr__(self, name: str) -> Any:
        return getattr(self._call, name)

    def __await__(self) -> Any:
        return self._answer().__await__()

    async def _answer(self) -> Any:
        try:
            message = await self._call
        except grpc.aio.AioRpcError as error:
            await self._recorder.aended(ErrorCall(error))
            raise
        shown = self._recorder.received(message)
        await self._recorder.aended(self._call)
        return shown

    async def read(self) -> Any:
        try:
            message = await self._call.read()
        except grpc.aio.AioRpcError as error:
            await self._recorder.aended(ErrorCall(error))
            raise
        if message is grpc.aio.EOF:
            await self._recorder.aended(self._call)
            return message
        return self._recorder.received(message)

    async def write(self, request: Any) -> None:
        await self._call.write(self._recorder.sent(request))


class ErrorCall:
    """An ``AioRpcError`` with the awaitable status methods of the call it ended."""

    def __init__(self, error: grpc.aio.AioRpcError) -> None:
        self._error = error

    async def code(self) -> grpc.StatusCode:
        return self._error.code()

    async def details(self) -> str | None:
        details: str | None = self._error.details()
        return details

    async def initial_metadata(self) -> Any:
        return self._error.initial_metadata()

    async def trailing_metadata(self) -> Any:
        return self._error.trailing_metadata()


# Replaying.


class ReplayedCall(grpc.Call):
    """A recorded call's metadata and status, as a finished sync call gives them."""

    def __init__(self, call: GrpcCall) -> None:
        self._recorded = call

    def initial_metadata(self) -> Metadata:
        return headers_metadata(self._recorded.initial_metadata)

    def trailing_metadata(self) -> Metadata:
        return headers_metadata(self._recorded.trailing_metadata)

    def code(self) -> grpc.StatusCode:
        return _status(self._recorded.code)

    def details(self) -> str:
        return self._recorded.details

    def is_active(self) -> bool:
        return False

    def time_remaining(self) -> float | None:
        return None

    def cancel(self) -> bool:
        return False

    def add_callback(self, callback: Callable[[], None]) -> bool:
        return False


class ReplayedRpcError(grpc.RpcError, ReplayedCall):
    """A recorded error status, raised again: a ``grpc.RpcError`` that is also the call."""

    def __init__(self, call: GrpcCall) -> None:
        ReplayedCall.__init__(self, call)
        grpc.RpcError.__init__(self, call.code, call.details)

    def __str__(self) -> str:
        return (
            f"<replayed RPC that terminated with: status = {self.code()}, "
            f'details = "{self.details()}">'
        )


class DoneFuture(grpc.Future, ReplayedCall):
    """What ``future()`` gives of a unary-answer call through a cassette: done at once, as a
    replay is, and a recording once its answer came."""

    def __init__(self, call: GrpcCall, answer: Callable[[], Any]) -> None:
        super().__init__(call)
        try:
            self._result, self._error = answer(), None
        except grpc.RpcError as error:
            self._result, self._error = None, error

    def result(self, timeout: float | None = None) -> Any:
        if self._error is not None:
            raise self._error
        return self._result

    def exception(self, timeout: float | None = None) -> grpc.RpcError | None:
        return self._error

    def traceback(self, timeout: float | None = None) -> TracebackType | None:
        return None if self._error is None else self._error.__traceback__

    def add_done_callback(self, fn: Callable[[grpc.Future], None]) -> None:
        fn(self)

    def done(self) -> bool:
        return True

    def running(self) -> bool:
        return False

    def cancelled(self) -> bool:
        return False

    def cancel(self) -> bool:
        return False


class _Replaying:
    """A recorded call played back to one caller: client messages checked as the cassette
    keys them (a miss is kept in ``cassette.misses``), server messages taken in order, paced
    at the cassette's replay speed."""

    def __init__(
        self,
        cassette: Cassette,
        url: str,
        call: GrpcCall,
        serializer: Callable[[Any], bytes] | None,
        deserializer: Callable[[bytes], Any] | None,
    ) -> None:
        self.cassette = cassette
        self.recorded = call
        self._playback: Playback = grpc_call.playback(call, cassette.path, url, cassette.rules)
        self._serializer = serializer
        self._deserializer = deserializer
        self._started = time.monotonic()

    def check(self, message: Any) -> None:
        data, text = message_view(message, self._serializer)
        if text:
            data = self.cassette.keyed_message(data)
        try:
            self._playback.received(data, text)
        except FrameMiss as miss:
            self.cassette.misses.append(miss)
            raise

    def ready(self) -> Frame | None:
        return self._playback.take() if self._playback.ready() is not None else None

    @property
    def ended(self) -> bool:
        return self._playback.ended

    def pause(self, frame: Frame) -> float:
        return wait_before(frame, time.monotonic() - self._started, self.cassette.replay_speed)

    def message(self, frame: Frame) -> Any:
        return message_of(frame.data, frame.text, self.recorded.response_type, self._deserializer)

    def failed(self) -> bool:
        return self.recorded.code != grpc_call.OK

    def answer(self) -> Frame | None:
        """The one server message of a unary-answer call, once the client's stream (if any)
        was checked whole; None when the recorded status is an error. A client that sent fewer
        messages than recorded is a :class:`FrameMiss`, kept in ``cassette.misses``."""
        frame = self.ready()
        if self.failed():
            return None
        if frame is None:
            miss = self._playback.unsent()
            self.cassette.misses.append(miss)
            raise miss
        return frame


class ReplayedStream(ReplayedCall):
    """A recorded stream of answers played back to a sync caller: each server message once
    the client's request iterator (if it streams) gave those recorded before it; the status
    raised as a ``grpc.RpcError`` after the last one, if it is an error."""

    def __init__(self, replaying: _Replaying, requests: Iterator[Any] | None) -> None:
        super().__init__(replaying.recorded)
        self._replaying = replaying
        self._requests = requests
        self._cancelled = False

    def __iter__(self) -> ReplayedStream:
        return self

    def __next__(self) -> Any:
        replaying = self._replaying
        if self._cancelled:
            raise _cancelled(replaying.recorded)
        frame = replaying.ready()
        while frame is None and not replaying.ended:
            request = next(self._requests, _END) if self._requests is not None else _END
            if request is _END:  # the client is done: nothing more is due
                break
            replaying.check(request)
            frame = replaying.ready()
        if frame is None:
            if replaying.failed():
                raise ReplayedRpcError(replaying.recorded)
            raise StopIteration
        time.sleep(replaying.pause(frame))
        return replaying.message(frame)

    def cancel(self) -> bool:
        self._cancelled = True
        return True

    def is_active(self) -> bool:
        return not (self._cancelled or self._replaying.ended)


_END = object()


def _cancelled(call: GrpcCall) -> ReplayedRpcError:
    cancelled = GrpcCall(
        (),
        call.initial_metadata,
        (),
        "CANCELLED",
        "Locally cancelled by application!",
        call.recorded_at,
    )
    return ReplayedRpcError(cancelled)


def unary_answer(replaying: _Replaying, requests: Iterable[Any] | None) -> Any:
    """The one answer of a recorded unary-answer call, once the client's stream (if any) was
    checked whole; the recorded error status raised instead, if it is one."""
    for request in requests if requests is not None else ():
        replaying.check(request)
    frame = replaying.answer()
    if frame is None:
        raise ReplayedRpcError(replaying.recorded)
    time.sleep(replaying.pause(frame))
    return replaying.message(frame)


class AsyncReplayedCall(
    _ReadToTheEnd,
    grpc.aio.UnaryUnaryCall,
    grpc.aio.UnaryStreamCall,
    grpc.aio.StreamUnaryCall,
    grpc.aio.StreamStreamCall,
):
    """A recorded call played back to an asyncio caller: awaited for its one answer, or read
    (``async for``, ``read()``) for a stream of them; its status as the call's. A client
    stream is its request iterator, or the messages given to ``write``."""

    def __init__(self, replaying: _Replaying, requests: Any) -> None:
        self._replaying = replaying
        self._requests = requests
        self._cancelled = False
        self._callbacks: list[Callable[[Any], None]] = []

    def __await__(self) -> Any:
        return self._answer().__await__()

    async def _answer(self) -> Any:
        await self._checked_requests()
        frame = self._replaying.answer()
        if frame is None:
            raise self._error()
        await asyncio.sleep(self._replaying.pause(frame))
        return self._replaying.message(frame)

    async def _checked_requests(self) -> None:
        requests, self._requests = self._requests, None
        if requests is None:
            return
        if hasattr(requests, "__aiter__"):
            async for request in requests:
                self._replaying.check(request)
        else:
            for request in requests:
                self._replaying.check(request)

    async def read(self) -> Any:
        replaying = self._replaying
        if self._cancelled:
            raise asyncio.CancelledError()
        frame = replaying.ready()
        while frame is None and not replaying.ended:
            request = await self._next_request()
            if request is _END:
                break
            replaying.check(request)
            frame = replaying.ready()
        if frame is None:
            if replaying.failed():
                raise self._error()
            return grpc.aio.EOF
        await asyncio.sleep(replaying.pause(frame))
        return replaying.message(frame)

    async def _next_request(self) -> Any:
        requests = self._requests
        if requests is None:
            return _END
        if hasattr(requests, "__anext__"):
            try:
                return await requests.__anext__()
            except StopAsyncIteration:
                return _END
        if hasattr(requests, "__aiter__"):
            self._requests = requests.__aiter__()
            return await self._next_request()
        if not hasattr(requests, "__next__"):
            self._requests = iter(requests)
        return next(self._requests, _END)

    async def write(self, request: Any) -> None:
        self._replaying.check(request)

    async def done_writing(self) -> None:
        return None

    def _error(self) -> grpc.aio.AioRpcError:
        recorded = self._replaying.recorded
        return grpc.aio.AioRpcError(
            _status(recorded.code),
            grpc.aio.Metadata(*headers_metadata(recorded.initial_metadata)),
            grpc.aio.Metadata(*headers_metadata(recorded.trailing_metadata)),
            recorded.details,
        )

    async def initial_metadata(self) -> grpc.aio.Metadata:
        return grpc.aio.Metadata(*headers_metadata(self._replaying.recorded.initial_metadata))

    async def trailing_metadata(self) -> grpc.aio.Metadata:
        return grpc.aio.Metadata(*headers_metadata(self._replaying.recorded.trailing_metadata))

    async def code(self) -> grpc.StatusCode:
        return _status(self._replaying.recorded.code)

    async def details(self) -> str:
        return self._replaying.recorded.details

    async def wait_for_connection(self) -> None:
        return None

    def cancelled(self) -> bool:
        return self._cancelled

    def done(self) -> bool:
        return True

    def time_remaining(self) -> float | None:
        return None

    def cancel(self) -> bool:
        self._cancelled = True
        return True

    def add_done_callback(self, callback: Callable[[Any], None]) -> None:
        callback(self)


# Routing.


def _call_of(multicallable: Any, target: bytes, message: Any, metadata: Any) -> tuple[str, Request]:
    """The URL and request of a call; ``message`` None when the client streams."""
    url = grpc_call.call_url(target.decode(), multicallable._method.decode())
    body = b"" if message is None else message_view(message, multicallable._request_serializer)[0]
    return url, Request("POST", url, metadata_headers(metadata), body)


def _upstream(record: Record, message: Any) -> Any:
    """The request message sent upstream: with the real ids of the placeholders it carries."""
    upstream = record.upstream
    if upstream is None or upstream.body == record.request.body or not isinstance(message, Message):
        return message
    return as_typed(upstream.body, message)


def _metadata_argument(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The ``metadata`` of a sync multicallable's call: its third parameter."""
    return kwargs["metadata"] if "metadata" in kwargs else (args[1] if len(args) > 1 else None)


def _sync_routing(
    active: Callable[[], Cassette | None],
    originals: dict[str, Any],
    streams_requests: bool,
    answer: str,
) -> Callable[[Any], Any]:
    """The wrapper of one method of a sync multicallable: ``answer`` says what it gives, one
    message (``call``), one with the call (``with_call``), a future or a stream."""

    def wrap(original: Any) -> Any:
        def routed(self: Any, first: Any, *args: Any, **kwargs: Any) -> Any:
            cassette = active()
            if cassette is None or inside_cassette():
                return original(self, first, *args, **kwargs)
            metadata = _metadata_argument(args, kwargs)
            url, request = _call_of(
                self, self._target, None if streams_requests else first, metadata
            )
            if cassette.ignores(url):
                return original(self, first, *args, **kwargs)
            decision = cassette.decide(request)
            if isinstance(decision, Replay):
                return _replayed(
                    cassette, url, self, decision.call, first, streams_requests, answer
                )
            recorder = CallRecorder(
                cassette, decision, self._request_serializer, self._response_deserializer
            )
            sent = (
                (recorder.sent(message) for message in first)
                if streams_requests
                else _upstream(decision, first)
            )
            if answer == "stream":
                return RecordingStream(original(self, sent, *args, **kwargs), recorder)
            with_call = originals["with_call"]
            try:
                message, call = with_call(self, sent, *args, **kwargs)
            except grpc.RpcError as error:
                recorder.ended(error)
                if answer == "future":
                    return DoneFuture(finished_call(error), partial(_raise, error))
                raise
            shown = recorder.received(message)
            recorder.ended(call)
            if answer == "with_call":
                return shown, call
            if answer == "future":
                return DoneFuture(finished_call(call), lambda: shown)
            return shown

        return routed

    return wrap


def _raise(error: BaseException) -> Any:
    raise error


def finished_call(call: Any) -> GrpcCall:
    """A finished real call's status and metadata (an error's too: it is the call), for the
    future that gives its answer."""
    code = call.code()
    return GrpcCall(
        (),
        metadata_headers(call.initial_metadata()),
        metadata_headers(call.trailing_metadata()),
        code.name,
        call.details() or "",
        "",
    )


def _replayed(
    cassette: Cassette,
    url: str,
    multicallable: Any,
    call: GrpcCall,
    first: Any,
    streams_requests: bool,
    answer: str,
) -> Any:
    replaying = _Replaying(
        cassette,
        url,
        call,
        multicallable._request_serializer,
        multicallable._response_deserializer,
    )
    requests = iter(first) if streams_requests else None
    if answer == "stream":
        return ReplayedStream(replaying, requests)
    if answer == "future":
        return DoneFuture(call, lambda: unary_answer(replaying, requests))
    message = unary_answer(replaying, requests)
    return (message, ReplayedCall(call)) if answer == "with_call" else message


def _async_routing(
    active: Callable[[], Cassette | None], streams_requests: bool
) -> Callable[[Any], Any]:
    """The wrapper of ``__call__`` of an asyncio multicallable."""

    def wrap(original: Any) -> Any:
        def routed(self: Any, first: Any = None, **kwargs: Any) -> Any:
            cassette = active()
            if cassette is None or inside_cassette():
                return original(self, first, **kwargs)
            url, request = _call_of(
                self,
                self._channel.target,
                None if streams_requests else first,
                kwargs.get("metadata"),
            )
            if cassette.ignores(url):
                return original(self, first, **kwargs)

            def start() -> Any:
                decision = cassette.decide(request)
                serializer, deserializer = self._request_serializer, self._response_deserializer
                if isinstance(decision, Replay):
                    replaying = _Replaying(cassette, url, decision.call, serializer, deserializer)
                    return AsyncReplayedCall(replaying, first if streams_requests else None)
                recorder = CallRecorder(cassette, decision, serializer, deserializer)
                if not streams_requests:
                    sent = _upstream(decision, first)
                else:  # a request iterator, or None: the caller writes its messages
                    sent = None if first is None else _sent_async(first, recorder)
                return AsyncRecordingCall(original(self, sent, **kwargs), recorder)

            return AsyncRoutedCall(cassette, start)

        return routed

    return wrap


class AsyncRoutedCall(
    grpc.aio.UnaryUnaryCall,
    grpc.aio.UnaryStreamCall,
    grpc.aio.StreamUnaryCall,
    grpc.aio.StreamStreamCall,
):
    """An asyncio call through a cassette, decided (replayed, or started for real and
    recorded) when it is first awaited, read or written to: the cassette file is read off the
    event loop first, as the async adapters always do. Then each method is the started call's.
    """

    def __init__(self, cassette: Cassette, start: Callable[[], Any]) -> None:
        self._cassette = cassette
        self._start = start
        self._call: Any = None
        self._cancelled = False
        self._callbacks: list[Callable[[Any], None]] = []

    async def _started(self) -> Any:
        if self._call is None:
            if self._cancelled:
                raise asyncio.CancelledError()
            await self._cassette.aload()
            if self._call is None:
                self._call = self._start()
                for callback in self._callbacks:
                    self._call.add_done_callback(callback)
        return self._call

    def __await__(self) -> Any:
        return self._answer().__await__()

    async def _answer(self) -> Any:
        return await (await self._started())

    def __aiter__(self) -> AsyncIterator[Any]:
        return self._messages()

    async def _messages(self) -> AsyncIterator[Any]:
        async for message in await self._started():
            yield message

    async def read(self) -> Any:
        return await (await self._started()).read()

    async def write(self, request: Any) -> None:
        await (await self._started()).write(request)

    async def done_writing(self) -> None:
        await (await self._started()).done_writing()

    async def initial_metadata(self) -> Any:
        return await (await self._started()).initial_metadata()

    async def trailing_metadata(self) -> Any:
        return await (await self._started()).trailing_metadata()

    async def code(self) -> grpc.StatusCode:
        return await (await self._started()).code()

    async def details(self) -> str:
        details: str = await (await self._started()).details()
        return details

    async def wait_for_connection(self) -> None:
        await (await self._started()).wait_for_connection()

    def cancelled(self) -> bool:
        return self._cancelled if self._call is None else bool(self._call.cancelled())

    def done(self) -> bool:
        return self._cancelled if self._call is None else bool(self._call.done())

    def time_remaining(self) -> float | None:
        return None if self._call is None else self._call.time_remaining()

    def cancel(self) -> bool:
        if self._call is None:
            self._cancelled = True
            return True
        return bool(self._call.cancel())

    def add_done_callback(self, callback: Callable[[Any], None]) -> None:
        if self._call is None:
            self._callbacks.append(callback)
        else:
            self._call.add_done_callback(callback)


async def _sent_async(requests: Any, recorder: CallRecorder) -> AsyncIterator[Any]:
    """A client stream, sync or async, each message noted as it goes upstream."""
    if hasattr(requests, "__aiter__"):
        async for request in requests:
            yield recorder.sent(request)
    else:
        for request in requests:
            yield recorder.sent(request)


_SYNC = grpc._channel
_ASYNC = grpc.aio._channel


def patch_targets(
    active: Callable[[], Cassette | None],
) -> Iterator[tuple[type | ModuleType, str, Callable[[Any], Any]]]:
    """What ``use_cassette`` wraps for the block: see the module docstring."""
    for unary, streams_requests in (
        (_SYNC._UnaryUnaryMultiCallable, False),
        (_SYNC._StreamUnaryMultiCallable, True),
    ):
        originals = {"with_call": unary.__dict__["with_call"]}
        for name, answer in (
            ("__call__", "call"),
            ("with_call", "with_call"),
            ("future", "future"),
        ):
            yield unary, name, _sync_routing(active, originals, streams_requests, answer)
    for stream, streams_requests in (
        (_SYNC._UnaryStreamMultiCallable, False),
        (_SYNC._SingleThreadedUnaryStreamMultiCallable, False),
        (_SYNC._StreamStreamMultiCallable, True),
    ):
        yield stream, "__call__", _sync_routing(active, {}, streams_requests, "stream")
    for multicallable, streams_requests in (
        (_ASYNC.UnaryUnaryMultiCallable, False),
        (_ASYNC.UnaryStreamMultiCallable, False),
        (_ASYNC.StreamUnaryMultiCallable, True),
        (_ASYNC.StreamStreamMultiCallable, True),
    ):
        yield multicallable, "__call__", _async_routing(active, streams_requests)
