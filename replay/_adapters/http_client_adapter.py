"""The standard library's client: ``http.client`` and so ``urllib.request`` through a cassette.

Routed by ``use_cassette`` and the pytest marker for the block only, as urllib3 is
(``patch_targets``, wrapped by :mod:`replay._adapters.patch` on entry, put back on exit).

The seam is ``HTTPConnection.request`` and ``HTTPConnection.getresponse`` (``HTTPSConnection``
inherits both): ``request`` gets the request whole (method, target, headers and body; the
connection knows scheme, host and port), and ``urllib.request`` sends every request through
it. The request is decided there; ``getresponse`` then hands back the replayed answer, or
the upstream's teed into the cassette. Either is a real ``http.client.HTTPResponse``, parsed
from a head and body fed to it through a stand-in socket, so all of its reading methods work
(``read(amt)``, ``read1``, ``readinto``, lines, ``getheader``), and ``read1`` gives the body
piece by piece, each recorded chunk as it came. Nothing connects on replay.

Not routed: a request sent in pieces (``putrequest``, ``putheader``, ``endheaders``, ``send``),
and urllib3's connections (urllib3's own adapter routes them, a round trip higher). Their
connections are checked as any other (a replay-only block raises ``NetworkBlocked``).

Bodies: kept decoded in the cassette, so a recorded or replayed answer comes decoded and
without ``content-encoding`` or ``content-length``, its end the end of the connection, as the
urllib3 adapter hands it.
"""

from __future__ import annotations

import builtins
import functools
import http.client
import io
import socket as socket_module
import time
from collections.abc import Callable, Iterator
from typing import Any, cast

from replay._adapters.bodies import body_bytes, played, relayed
from replay._cassette import Cassette, Record, Recording, Replay
from replay._core import model
from replay._core.model import Response, TransportFailure, stored_headers
from replay._core.own_traffic import inside_cassette, through_cassette
from replay._core.streams import StreamRecorder
from replay._store import usage

_READ_SIZE = 2**16
_FAILURES = (OSError, http.client.HTTPException)
_FRAMING = frozenset({"content-length", "transfer-encoding", "connection"})
"""Headers of the answer not passed on: the body handed over ends with the connection
(``connection: close`` is added), and is decoded (``content-encoding`` goes too) where the
cassette could decode it."""


class _Pending:
    """What ``getresponse`` hands back for the request ``request`` decided."""

    def __init__(
        self, cassette: Cassette, method: str, url: str, decision: Record | Replay
    ) -> None:
        self.cassette = cassette
        self.method = method
        self.url = url
        self.decision = decision
        self.started = time.monotonic()
        self.recorded_at = usage.now()


_PENDING = "_replay_pending"
"""The attribute of a connection holding its :class:`_Pending` between the two calls."""


def _genuine(found: type[http.client.HTTPConnection]) -> type[http.client.HTTPConnection]:
    """http.client's own class, even while vcrpy has put its stand-in in the module (vcrpy's
    stubs keep the class they stand for as ``_baseclass``, and open one of it to send): a suite
    that runs vcrpy beside replay."""
    return cast(type[http.client.HTTPConnection], getattr(found, "_baseclass", found))


def _is_routed(connection: http.client.HTTPConnection) -> bool:
    """urllib3's connections (and botocore's, built on them) are urllib3's adapter's."""
    return not any(kind.__module__.startswith("urllib3") for kind in type(connection).__mro__)


def absolute(connection: http.client.HTTPConnection, target: str) -> str:
    if target.startswith(("http://", "https://")):  # sent to an HTTP proxy
        return target
    scheme = "https" if isinstance(connection, _genuine(http.client.HTTPSConnection)) else "http"
    host = getattr(connection, "_tunnel_host", None) or connection.host
    port = getattr(connection, "_tunnel_port", None) or connection.port
    shown = f"[{host}]" if ":" in host else host
    return f"{scheme}://{shown}:{port}{target}"


def _headers(headers: Any) -> model.Headers:
    pairs = headers.items() if hasattr(headers, "items") else (headers or ())
    return tuple((_text(name).lower(), _text(value)) for name, value in pairs)


def _text(value: str | bytes | int) -> str:
    return value.decode("latin-1") if isinstance(value, bytes) else str(value)


# The answer handed back.


class _Pieces(io.RawIOBase):
    """A raw stream over an iterator of pieces, each read no further than the piece at hand,
    as a socket reads; ``on_close`` runs if it is closed before its end."""

    def __init__(self, pieces: Iterator[bytes], on_close: Callable[[], None]) -> None:
        super().__init__()
        self._pieces = pieces
        self._on_close = on_close
        self._held = memoryview(b"")
        self._ended = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self._held:
            piece = next(self._pieces, None)
            if piece is None:
                self._ended = True
                return 0
            self._held = memoryview(piece)
        size = min(len(buffer), len(self._held))
        buffer[:size] = self._held[:size]
        self._held = self._held[size:]
        return size

    def close(self) -> None:
        if not self.closed and not self._ended:
            self._ended = True
            self._on_close()
        super().close()


class _Socket:
    """All that ``HTTPResponse`` asks of a socket: a file to read the answer from."""

    def __init__(self, raw: _Pieces) -> None:
        self._raw = raw

    def makefile(self, mode: str, *args: Any, **kwargs: Any) -> io.BufferedReader:
        return io.BufferedReader(self._raw)


def _head(status: int, reason: str, headers: model.Headers, hidden: frozenset[str]) -> bytes:
    lines = [f"HTTP/1.1 {status} {reason}".encode("latin-1", "replace")]
    for name, value in headers:
        if name.lower() not in hidden:
            lines.append(f"{name}: ".encode("latin-1") + _header_value(value))
    lines.append(b"connection: close")
    return b"\r\n".join(lines) + b"\r\n\r\n"


def _header_value(value: str) -> bytes:
    try:
        return value.encode("latin-1")
    except UnicodeEncodeError:  # a value stored beyond Latin-1 goes as UTF-8
        return value.encode("utf-8")


def _response(
    method: str,
    url: str,
    status: int,
    headers: model.Headers,
    body: Iterator[bytes],
    on_close: Callable[[], None],
    reason: str | None = None,
    hidden: frozenset[str] = _FRAMING,
) -> http.client.HTTPResponse:
    shown = reason if reason is not None else http.client.responses.get(status, "")

    def pieces() -> Iterator[bytes]:
        yield _head(status, shown, headers, hidden)
        yield from body

    socket = cast("socket_module.socket", _Socket(_Pieces(pieces(), on_close)))  # enough for it
    response = http.client.HTTPResponse(socket, method=method)
    response.begin()
    response.url = url  # as urllib.request sets it
    return response


# Replaying.


def replayed(pending: _Pending, outcome: Response | TransportFailure) -> http.client.HTTPResponse:
    if isinstance(outcome, TransportFailure):
        raise exception(outcome)
    cut = None if outcome.failure is None else exception(outcome.failure)
    body = played(outcome.chunks, pending.cassette.replay_speed, cut)
    return _response(
        pending.method, pending.url, outcome.status, outcome.headers, body, lambda: None
    )


def exception(failure: TransportFailure) -> Exception:
    """The standard library's exception for a recorded failure, whichever library recorded
    it: http.client's own (``RemoteDisconnected``...) or an ``OSError`` of its kind
    (``TimeoutError``, ``ConnectionResetError``); else ``OSError``."""
    found = getattr(http.client, failure.kind, None) or getattr(builtins, failure.kind, None)
    if isinstance(found, type) and issubclass(found, OSError | http.client.HTTPException):
        return found(failure.message)
    return OSError(failure.message)


def failure(error: BaseException, recorded_at: str) -> TransportFailure:
    return TransportFailure(type(error).__name__, str(error), recorded_at)


# Recording.


def teed(
    pending: _Pending, record: Record, upstream: http.client.HTTPResponse
) -> http.client.HTTPResponse:
    """The upstream's answer to the caller as it arrives, kept for the cassette."""
    headers = tuple((name.lower(), value) for name, value in upstream.getheaders())
    content_type = upstream.getheader("content-type")
    recorder = StreamRecorder(upstream.getheader("content-encoding"), pending.started, content_type)
    kept = stored_headers(headers, recorder.decodes)
    outcome = functools.partial(recorder.response, upstream.status, kept, pending.recorded_at)
    recording = pending.cassette.recording(record, outcome, content_type)

    def closed_half_way() -> None:
        try:
            upstream.close()
        finally:
            recording.finish(False)

    return _response(
        pending.method,
        pending.url,
        upstream.status,
        headers,
        _recorded(upstream, recorder, recording),
        closed_half_way,
        upstream.reason,
        _FRAMING | {"content-encoding"} if recorder.decodes else _FRAMING,
    )


def _recorded(
    upstream: http.client.HTTPResponse, recorder: StreamRecorder, recording: Recording
) -> Iterator[bytes]:
    return relayed(
        functools.partial(upstream.read1, _READ_SIZE),
        upstream.close,
        recorder,
        recording,
        _FAILURES,
        lambda error: failure(error, usage.now()),
    )


def _upstream_target(
    record: Record, pending: _Pending, target: str, body: bytes
) -> tuple[str, bytes]:
    """The target and body to send: the caller's, or with the real ids of placeholders."""
    real = record.upstream
    if real is None:
        return target, body
    return real.url[len(pending.url) - len(target) :], real.body


# use_cassette.


def patch_targets(
    active: Callable[[], Cassette | None],
) -> Iterator[tuple[type, str, Callable[[Any], Any]]]:
    """What ``use_cassette`` wraps for the block: see the module docstring."""

    def wrap_request(original: Any) -> Any:
        def request(
            self: http.client.HTTPConnection,
            method: str,
            url: str,
            body: Any = None,
            headers: Any = None,
            **kwargs: Any,
        ) -> None:
            cassette = active()
            headers = {} if headers is None else headers
            target = absolute(self, url)
            if (
                cassette is None
                or inside_cassette()
                or not _is_routed(self)
                or cassette.ignores(target)
            ):
                return original(self, method, url, body, headers, **kwargs)  # type: ignore[no-any-return]
            sent = body_bytes(body)
            decision = cassette.decide(model.Request(method, target, _headers(headers), sent))
            pending = _Pending(cassette, method, target, decision)
            setattr(self, _PENDING, pending)
            if isinstance(decision, Replay):
                return None
            url, sent = _upstream_target(decision, pending, url, sent)
            try:
                with through_cassette():  # allowed by --block-network: this records
                    original(self, method, url, sent, headers, **kwargs)
            except _FAILURES as error:
                delattr(self, _PENDING)
                if self.sock is not None:  # connected: the API's answer, a failure
                    cassette.add(decision, failure(error, pending.recorded_at))
                raise
            return None

        return request

    def wrap_getresponse(original: Any) -> Any:
        def getresponse(self: http.client.HTTPConnection) -> http.client.HTTPResponse:
            pending: _Pending | None = self.__dict__.pop(_PENDING, None)
            if pending is None:
                return original(self)  # type: ignore[no-any-return]
            decision = pending.decision
            if isinstance(decision, Replay):
                return replayed(pending, decision.answer)
            try:
                with through_cassette():
                    upstream = original(self)
            except _FAILURES as error:
                pending.cassette.add(decision, failure(error, pending.recorded_at))
                raise
            return teed(pending, decision, upstream)

        return getresponse

    connection = _genuine(http.client.HTTPConnection)
    yield connection, "request", wrap_request
    yield connection, "getresponse", wrap_getresponse
