"""The aiohttp adapter: ``aiohttp.ClientSession`` requests through a cassette.

Imported only when aiohttp is installed (the ``aiohttp`` extra). It is a
client middleware, aiohttp's public extension point for requests (3.12 and
later): :class:`ReplayMiddleware` sees the request as it will be sent, after
the session's own middlewares (authentication, retries) and before the
connection, and answers it from the cassette or records what the network
answers. Redirects, cookies and ``raise_for_status`` stay aiohttp's, around it.

``use_cassette`` and the pytest marker need it on sessions made before the
block too, whose middlewares are fixed when they are made: for the block only,
``ClientSession._request`` (what ``get``, ``post``, ``request`` and the rest
call) is wrapped to add the middleware to each request's chain, as a
per-request ``middlewares=`` would. aiohttp has no public way to build a
response without a connection; a replayed one is a ``ClientResponse`` filled
in as ``start()`` fills it from a connection (status, headers, a
``StreamReader`` body), as aioresponses and vcrpy do.

Bodies: aiohttp's parser undoes one ``content-encoding`` it knows (``gzip``, ``deflate``,
``br``, ``zstd``) when ``auto_decompress`` is on (the default), and leaves anything else
encoded: several codings (``gzip, br``), or every body of a session made with
``auto_decompress=False``. What it left is decoded here as the httpx transports decode it,
so the cassette keeps every body decoded, where redaction sees it, and the caller gets it as
replay will give it: decoded, without ``content-encoding``. A coding no module here undoes
is kept encoded with its header, refused if its bytes carry a secret (as in the cassette).
Replay feeds each recorded chunk as one HTTP chunk of the body: ``iter_chunks()``
gives back the recorded boundaries, and a reader keeping up gets one chunk per
read, at the recorded pace when the cassette has a ``replay_speed``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import re
import time
from collections.abc import AsyncIterator, Callable, Iterator
from http import HTTPStatus
from typing import Any

import aiohttp
from aiohttp import ClientRequest, ClientResponse
from multidict import CIMultiDict, CIMultiDictProxy
from yarl import URL

from replay._adapters.failures import aiohttp_kind
from replay._cassette import Cassette, Record, Replay
from replay._core import model
from replay._core.model import TransportFailure, stored_headers
from replay._core.own_traffic import inside_cassette, through_cassette
from replay._core.streams import StreamRecorder, pacing
from replay._store import usage

Handler = Callable[[ClientRequest], Any]

_STREAM_LIMIT = 2**16
_PARSER_DECODES = frozenset({"gzip", "deflate", "br", "zstd"})
"""The ``content-encoding`` values aiohttp's parser undoes (one coding alone, any case); zstd
from aiohttp 3.13, the extra's floor, on which 3.12 would hand the body over still encoded."""
NEVER_CONNECTED = (aiohttp.ClientConnectorError, aiohttp.ConnectionTimeoutError)
"""Failures before any connection was made (refused, DNS, TLS, a proxy's): never recorded."""
_RESPONSE_TAKES_STREAM_WRITER = "stream_writer" in inspect.signature(ClientResponse).parameters


class ReplayMiddleware:
    """An aiohttp client middleware replaying from ``cassette``, recording where its mode allows.

    ``aiohttp.ClientSession(middlewares=[ReplayMiddleware(cassette)])``. Give
    ``auto_decompress=False`` when the session is made with it, so that the
    cassette knows the body it records is still encoded.
    """

    def __init__(self, cassette: Cassette, *, auto_decompress: bool = True) -> None:
        self.cassette = cassette
        self.auto_decompress = auto_decompress

    async def __call__(self, request: ClientRequest, handler: Handler) -> ClientResponse:
        url = str(request.url)
        if inside_cassette() or self.cassette.ignores(url) or "Upgrade" in request.headers:
            response: ClientResponse = await handler(request)  # not ours: untouched
            return response
        asked = await to_model(request)
        await self.cassette.aload()  # read off the loop, once
        decision = self.cassette.decide(asked)
        if isinstance(decision, Replay):
            return replayed(decision.answer, request, self.cassette.replay_speed)
        started, recorded_at = time.monotonic(), usage.now()
        try:
            async with sent_with_real_ids(request, asked, decision):
                with through_cassette():  # allowed by --block-network: this records
                    response = await handler(request)
        except aiohttp.ClientError as error:
            if not isinstance(error, NEVER_CONNECTED):
                await self.cassette.aadd(decision, failure(error, recorded_at))
            raise
        return self._teed(decision, response, started, recorded_at)

    def _teed(
        self, record: Record, response: ClientResponse, started: float, recorded_at: str
    ) -> ClientResponse:
        """The response, its body read by a task that keeps each chunk and passes it on.

        Recorded as the httpx transport's ``RecordingStream`` records, through a
        :class:`~replay._cassette.Recording`: once, at the first of the body's end, its final
        event (before the caller has it: an SDK may stop reading there and never close, as
        litellm's async Anthropic stream does), a transport error, the caller closing it, or the
        cassette saved while it is open. The caller reads the body as it will be replayed
        (:attr:`~replay._cassette.Recording.shown`), each line as soon as it has arrived.
        """
        # The bytes as Latin-1, one character each, as the httpx transports keep them: aiohttp's
        # own strings hold undecodable bytes as lone surrogates, which no cassette can store.
        headers = model.headers_from_bytes(response.raw_headers)
        content_type = response.headers.get("content-type")
        left_encoded = self._left_encoded(response.headers.get("content-encoding"))
        recorder = StreamRecorder(left_encoded, started, content_type)
        kept = stored_headers(headers, recorder.decodes)
        if left_encoded is not None and recorder.decodes:
            _drop_encoding_headers(response)  # the caller is given the body decoded
        outcome = functools.partial(recorder.response, response.status, kept, recorded_at)
        recording = self.cassette.recording(record, outcome, content_type)
        upstream, mirror = response.content, _reader(asyncio.get_running_loop())

        async def pump() -> None:
            try:
                async for raw in upstream.iter_any():
                    if data := recorder.feed(raw):
                        if recorder.at_final_event:
                            await recording.afinish(True)
                        if shown := recording.shown.feed(data):
                            _feed(mirror, shown)
                rest = recording.shown.rest()  # the body's end: the rest of its last line
                await recording.afinish(True)
                if rest:
                    _feed(mirror, rest)
            except Exception as error:
                try:  # recorded before the caller hears of it, as the httpx transports do
                    if isinstance(error, aiohttp.ClientError) and not response.closed:
                        cut = failure(error, usage.now())
                        await recording.afinish(False, cut)  # else abandoned
                finally:  # the caller's read must end too, not wait for ever
                    mirror.set_exception(error)
            else:
                mirror.feed_eof()
            finally:
                await recording.afinish(False)  # closed by the caller, or the task cancelled

        _keep_running(asyncio.ensure_future(pump()))
        response.content = mirror
        return response

    def _left_encoded(self, encoding: str | None) -> str | None:
        """The ``content-encoding`` of the body as aiohttp hands it over: None when its parser
        undid it (or there was none)."""
        if encoding is None:
            return None
        if self.auto_decompress and encoding.isascii() and encoding.lower() in _PARSER_DECODES:
            return None
        return encoding


def _drop_encoding_headers(response: ClientResponse) -> None:
    """The response's headers without those describing an encoded body, decoded here."""
    dropped = {"content-encoding", "content-length"}
    _set_headers(
        response,
        tuple(
            (name, value)
            for name, value in response.raw_headers
            if name.decode("latin-1").lower() not in dropped
        ),
    )


def _set_headers(response: ClientResponse, raw_headers: tuple[tuple[bytes, bytes], ...]) -> None:
    """What ClientResponse.start() sets from a connection's header bytes, as its parser
    decodes them."""
    response._raw_headers = raw_headers
    response._headers = CIMultiDictProxy(
        CIMultiDict(
            (name.decode("utf-8", "surrogateescape"), value.decode("utf-8", "surrogateescape"))
            for name, value in raw_headers
        )
    )
    for name in ("headers", "raw_headers"):  # read once, then cached by aiohttp
        response._cache.pop(name, None)


async def to_model(request: ClientRequest) -> model.Request:
    """The request as the core sees it; a body that can be read once is read and put back."""
    payload = request.body
    body = b"" if not payload else await payload.as_bytes()
    if payload and not isinstance(payload, aiohttp.payload.BytesPayload):
        await request.update_body(body)
    return model.Request(
        method=request.method,
        url=str(request.url),
        headers=tuple((name.lower(), value) for name, value in request.headers.items()),
        body=body,
    )


@contextlib.asynccontextmanager
async def sent_with_real_ids(
    request: ClientRequest, asked: model.Request, record: Record
) -> AsyncIterator[None]:
    """Within the block, ``request`` carries the real ids of the placeholders it was given.

    aiohttp sends the request object the middleware holds; a new ``ClientRequest`` would need
    the session's connection settings (TLS, proxy, timer) again. So its URL and body are
    swapped for the send and put back after, for a middleware around this one that sends it
    again (retries), and the response keeps the request as the caller made it, as on replay.
    """
    real = record.upstream
    if real is None:
        yield
        return
    url, info = request.url, request.request_info
    request.url = URL(real.url, encoded=True)
    if real.body != asked.body:
        await request.update_body(real.body)
    try:
        yield
    finally:
        request.url = url
        if real.body != asked.body:
            await request.update_body(asked.body)
    if request.response is not None:
        request.response._request_info = info  # as replay gives it: the URL the caller asked


# Replaying.


class _Feed:
    """The protocol side of a replayed body: there is no connection to pause or resume."""

    connected = True
    _reading_paused = False  # aiohttp 3.13.0's reader reads it after each read

    def pause_reading(self) -> None:
        pass

    def resume_reading(self, resume_parser: bool = True) -> None:
        pass


class _Sent:
    """What a response asks of the request's writer when the request was sent already."""

    output_size = 0


def _reader(loop: asyncio.AbstractEventLoop) -> aiohttp.StreamReader:
    return aiohttp.StreamReader(_Feed(), _STREAM_LIMIT, loop=loop)  # type: ignore[arg-type]


def _feed(reader: aiohttp.StreamReader, data: bytes) -> None:
    """One chunk of the body, its boundary kept as aiohttp keeps an HTTP chunk's."""
    reader.begin_http_chunk_receiving()
    reader.feed_data(data)
    reader.end_http_chunk_receiving()


_running: set[asyncio.Future[None]] = set()


def _keep_running(task: asyncio.Future[None]) -> None:
    """Hold a body task until it ends (the loop keeps only weak references to tasks)."""
    _running.add(task)
    task.add_done_callback(_running.discard)


def replayed(
    outcome: model.Response | TransportFailure, request: ClientRequest, speed: float | None
) -> ClientResponse:
    if isinstance(outcome, TransportFailure):
        raise exception(outcome, request)
    loop = asyncio.get_running_loop()
    extra: dict[str, Any] = {"stream_writer": _Sent()} if _RESPONSE_TAKES_STREAM_WRITER else {}
    response = request.response_class(
        request.method,
        request.original_url,
        writer=None,
        continue100=None,
        timer=None,  # type: ignore[arg-type]
        request_info=request.request_info,
        traces=[],
        loop=loop,
        session=None,  # type: ignore[arg-type]
        **extra,
    )
    # What ClientResponse.start() sets from a connection.
    response.version = aiohttp.HttpVersion11
    response.status = outcome.status
    response.reason = _reason(outcome.status)
    _set_headers(response, tuple(model.headers_to_bytes(outcome.headers)))
    if cookies := response.headers.getall("set-cookie", ()):
        response._raw_cookie_headers = tuple(cookies)
    body = _reader(loop)
    response.content = body
    response._closed = False
    body.on_eof(response._response_eof)
    cut = None if outcome.failure is None else exception(outcome.failure, request)
    _keep_running(asyncio.ensure_future(_play(body, outcome, speed, cut)))
    return response


async def _play(
    body: aiohttp.StreamReader, outcome: model.Response, speed: float | None, cut: Exception | None
) -> None:
    """Feed the recorded chunks, yielding between them so that a reader takes one at a time."""
    for wait, data in pacing(outcome.chunks, speed):
        await asyncio.sleep(wait)
        _feed(body, data)
    if cut is None:
        body.feed_eof()
        return
    while body.total_bytes and not body.is_eof() and body._size:  # let the reader drain first
        await asyncio.sleep(0)
    body.set_exception(cut)


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


_BRACKETED = re.compile(r"\[(.*)\]\s*$")


def exception(failure: TransportFailure, request: ClientRequest) -> Exception:
    """aiohttp's own exception for a recorded failure, whichever library recorded it."""
    kind = getattr(aiohttp, aiohttp_kind(failure.kind), None)
    if not (isinstance(kind, type) and issubclass(kind, aiohttp.ClientError)):
        return aiohttp.ClientConnectionError(failure.message)
    if issubclass(kind, aiohttp.ClientConnectorError):
        # Its message is built from the host and the OS error: keep the OS error's text.
        inner = _BRACKETED.search(failure.message)
        reason = OSError(0, inner.group(1) if inner else failure.message)
        try:
            return kind(request.connection_key, reason)
        except TypeError:  # a subclass wanting more (certificate errors)
            return aiohttp.ClientConnectorError(request.connection_key, reason)
    try:
        error: Exception = kind(failure.message)
    except TypeError:
        error = aiohttp.ClientConnectionError(failure.message)
    return error


def failure(error: Exception, recorded_at: str) -> TransportFailure:
    return TransportFailure(type(error).__name__, str(error), recorded_at)


# use_cassette.


def patch_targets(
    active: Callable[[], Cassette | None],
) -> Iterator[tuple[type, str, Callable[[Any], Any]]]:
    """What ``use_cassette`` wraps for the block: see the module docstring."""

    def wrap(original: Any) -> Any:
        async def _request(self: aiohttp.ClientSession, *args: Any, **kwargs: Any) -> Any:
            cassette = active()
            if cassette is not None:
                chain = kwargs.get("middlewares")
                if chain is None:
                    chain = self._middlewares
                decompress = kwargs.get("auto_decompress")
                if decompress is None:
                    decompress = self.auto_decompress
                ours = ReplayMiddleware(cassette, auto_decompress=decompress)
                kwargs["middlewares"] = (*chain, ours)
            return await original(self, *args, **kwargs)

        return _request

    yield aiohttp.ClientSession, "_request", wrap
