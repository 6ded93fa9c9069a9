"""The urllib3 adapter: requests, botocore (boto3) and urllib3 itself through a cassette.

Used when urllib3 2.2.2 or later is installed (the ``urllib3`` extra), and routed by
``use_cassette`` and the pytest marker for the block only: ``patch_targets`` names what
:mod:`replay._adapters.patch` wraps on entry and puts back on exit.

The seam is ``HTTPConnectionPool._make_request``: one round trip on a connection of the
pool, below urllib3's retries and redirects and above the socket.

- ``HTTPConnectionPool.urlopen`` is public but sits above retries, ``Retry-After`` and
  same-host redirects: it would record the end of a retry loop as the answer to its first
  attempt, and it calls itself for each retry. Under ``_make_request`` those stay urllib3's,
  run on the replayed answers as on the real ones (a recorded 503 then 200 replays through
  the same ``Retry``).
- ``http.client.HTTPConnection`` (which urllib3's connections subclass, and which is all that
  ``urllib.request`` has) sees a request in pieces (``putrequest``, ``putheader``, ``send``
  called per piece of a body, urllib3's chunked framing already applied) and must hand back a
  response parsed from wire bytes through a fake socket. ``_make_request`` gets the request
  whole (the pool knows scheme, host and port; method, path, headers and body are its
  arguments) and returns a ``urllib3.HTTPResponse``, which can be built on any file-like body.
  Nothing connects before it: the connection it is given opens its socket inside it.

``_make_request`` is private; its keyword signature has been the same since urllib3 2.0, and
the adapter builds and reads responses with ``read1`` (2.2) and ``version_string`` (2.2.2):
the version the extra asks for (an earlier one is left unrouted, with a warning).
``urllib.request`` and bare ``http.client`` are routed by
:mod:`replay._adapters.http_client_adapter`, which leaves urllib3's connections to this one.

Bodies: the cassette keeps them decoded, so the caller gets a recorded or replayed body
already decoded and without ``content-encoding`` (``decode_content`` then has nothing to do),
as the httpx transport hands it. ``stream()`` gives each recorded chunk as it came (a server's
HTTP chunk, an SSE event), ``read(amt)`` and ``read1(amt)`` what urllib3's own do on a socket.
"""

from __future__ import annotations

import builtins
import functools
import http.client
import importlib.metadata
import time
from collections.abc import Callable, Generator, Iterator, Mapping
from typing import IO, Any, cast

import urllib3
from urllib3 import exceptions
from urllib3.connectionpool import HTTPConnectionPool

from replay._adapters.bodies import body_bytes, played, relayed
from replay._adapters.failures import urllib3_kind
from replay._cassette import Cassette, Record, Recording, Replay
from replay._core import model
from replay._core.errors import UnroutedLibrary
from replay._core.model import Response, TransportFailure, stored_headers
from replay._core.own_traffic import inside_cassette, through_cassette
from replay._core.streams import StreamRecorder
from replay._store import usage

_VERSION = importlib.metadata.version("urllib3")
if tuple(int(part) for part in _VERSION.split(".")[:3] if part.isdigit()) < (2, 2, 2):
    raise UnroutedLibrary(
        "urllib3",
        _VERSION,
        "replay routes urllib3 2.2.2 on: _make_request took other arguments in 1.x, and "
        "responses had no read1 before 2.2 nor version_string before 2.2.2",
    )

_READ_SIZE = 2**16
_FAILURES = (exceptions.HTTPError, OSError, http.client.HTTPException)
"""What a round trip raises when the network fails: urllib3's own errors, socket errors, and
http.client's (``RemoteDisconnected``), which ``urlopen`` turns into its retries' errors."""
NEVER_CONNECTED = (
    exceptions.NewConnectionError,
    exceptions.ConnectTimeoutError,
    # Raised by _make_request only while it connects (_validate_conn): a TLS handshake that
    # failed, a proxy that could not be reached. Errors reading the answer come unwrapped,
    # and so does a connection reset during the handshake (a bare OSError): that one is
    # recorded as a failure, where httpx and aiohttp would see a connection never made.
    exceptions.SSLError,
    exceptions.ProxyError,
)
"""Failures before any connection was made (refused, DNS, connect timeout, TLS, a proxy's): no
answer from the API, so never recorded; the call raises as it would without replay."""


def to_model(
    pool: HTTPConnectionPool, method: str, url: str, headers: Mapping[Any, Any] | None, body: bytes
) -> model.Request:
    return model.Request(method, absolute(pool, url), _headers(headers), body)


def absolute(pool: HTTPConnectionPool, url: str) -> str:
    """The request's URL: ``url`` is a path, or already absolute when sent to an HTTP proxy."""
    if url.startswith(("http://", "https://")):
        return url
    host = f"[{pool.host}]" if ":" in (pool.host or "") else pool.host
    return f"{pool.scheme}://{host}:{pool.port}{url}"


def _headers(headers: Mapping[Any, Any] | None) -> model.Headers:
    """Header pairs as the cassette keeps them: a bytes value (botocore sends some) as Latin-1."""
    pairs = headers.items() if headers is not None else ()
    return tuple((_text(name).lower(), _text(value)) for name, value in pairs)


def _text(value: str | bytes) -> str:
    return value.decode("latin-1") if isinstance(value, bytes) else str(value)


class _Pieces:
    """A file-like body over an iterator of pieces, read as a socket reads: never waiting for
    more than the piece at hand. Its pieces are what :class:`PiecesResponse` streams."""

    def __init__(self, pieces: Iterator[bytes], on_close: Callable[[], None]) -> None:
        self._pieces = pieces
        self._on_close = on_close
        self._held = b""
        self.closed = False

    def next_piece(self, amt: int | None) -> bytes:
        """The rest of the piece at hand, or the next one, up to ``amt``; b"" at the end."""
        if not self._held and not self.closed:
            self._held = next(self._pieces, b"")
            if not self._held:
                self.closed = True
        piece, self._held = (
            (self._held, b"") if amt is None else (self._held[:amt], self._held[amt:])
        )
        return piece

    def read(self, amt: int | None = None) -> bytes:
        if amt is not None:
            return self.next_piece(amt)
        return b"".join(iter(functools.partial(self.next_piece, None), b""))

    read1 = read

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._on_close()


class PiecesResponse(urllib3.HTTPResponse):
    """A ``urllib3.HTTPResponse`` on :class:`_Pieces`: ``stream()`` yields piece by piece, as
    urllib3 yields a chunked body HTTP chunk by HTTP chunk."""

    def __init__(self, body: _Pieces, **kwargs: Any) -> None:
        super().__init__(body=cast("IO[bytes]", body), **kwargs)  # file-like enough for it
        self.chunked = True

    def supports_chunked_reads(self) -> bool:
        return True

    def read_chunked(
        self, amt: int | None = None, decode_content: bool | None = None
    ) -> Generator[bytes]:
        body = self._fp
        if not isinstance(body, _Pieces):  # already read whole (preload_content)
            return
        with self._error_catcher():
            for piece in iter(functools.partial(body.next_piece, amt or None), b""):
                self._fp_bytes_read += len(piece)
                yield piece
        self.release_conn()


def _response(pool: HTTPConnectionPool, pieces: _Pieces, **kwargs: Any) -> PiecesResponse:
    return PiecesResponse(pieces, pool=pool, **kwargs)


# Replaying.


def replayed(
    pool: HTTPConnectionPool,
    conn: Any,
    url: str,
    outcome: Response | TransportFailure,
    options: dict[str, Any],
) -> PiecesResponse:
    if isinstance(outcome, TransportFailure):
        raise exception(outcome, pool, conn, url)
    speed = options.pop("speed")
    cut = None if outcome.failure is None else exception(outcome.failure, pool, conn, url)
    return _response(
        pool,
        _Pieces(played(outcome.chunks, speed, cut), lambda: None),
        headers=list(outcome.headers),
        status=outcome.status,
        reason=_reason(outcome.status),
        version=11,
        version_string="HTTP/1.1",
        **options,
    )


def _reason(status: int) -> str:
    return http.client.responses.get(status, "")


def exception(
    failure: TransportFailure, pool: HTTPConnectionPool, conn: Any, url: str
) -> Exception:
    """urllib3's own exception for a recorded failure, whichever library recorded it: the one
    ``urlopen`` handles as it would the real one (retries, ``MaxRetryError``)."""
    kind = urllib3_kind(failure.kind)
    message = failure.message
    if kind in ("NewConnectionError", "NameResolutionError"):
        return exceptions.NewConnectionError(conn, message)
    if kind == "ConnectTimeoutError":
        return exceptions.ConnectTimeoutError(message)
    if kind == "ReadTimeoutError":
        # Its message starts with the pool it was raised for, which this one says again.
        return exceptions.ReadTimeoutError(pool, url, message.removeprefix(f"{pool}: "))
    if kind == "SSLError":
        return exceptions.SSLError(message)
    found = getattr(http.client, kind, None) or getattr(builtins, kind, None)
    if isinstance(found, type) and issubclass(found, OSError | http.client.HTTPException):
        return found(message)
    return exceptions.ProtocolError(message)


def failure(error: BaseException, recorded_at: str) -> TransportFailure:
    # A failure to connect names the connection object by its address in memory: left out,
    # or the same failure would be recorded differently every run.
    message = error._message if isinstance(error, exceptions.NewConnectionError) else str(error)
    return TransportFailure(type(error).__name__, message, recorded_at)


# Recording.


def _recorded(upstream: Any, recorder: StreamRecorder, recording: Recording) -> Iterator[bytes]:
    """Each upstream piece to the caller as it arrives, kept for the cassette: added at its
    end, its provider's final event, a transport error, or the caller closing it half-way."""
    return relayed(
        functools.partial(upstream.read1, _READ_SIZE, decode_content=False),
        upstream.release_conn,
        recorder,
        recording,
        _FAILURES,
        lambda error: failure(error, usage.now()),
    )


def teed(
    cassette: Cassette,
    record: Record,
    pool: HTTPConnectionPool,
    upstream: Any,
    started: float,
    recorded_at: str,
    options: dict[str, Any],
) -> PiecesResponse:
    headers = tuple((name.lower(), value) for name, value in upstream.headers.items())
    recorder = StreamRecorder(
        upstream.headers.get("content-encoding"), started, upstream.headers.get("content-type")
    )
    kept = stored_headers(headers, recorder.decodes)
    hidden = {"content-length", "content-encoding"} if recorder.decodes else {"content-length"}
    outcome = functools.partial(recorder.response, upstream.status, kept, recorded_at)
    recording = cassette.recording(record, outcome, upstream.headers.get("content-type"))

    def closed_half_way() -> None:
        try:
            upstream.close()
        finally:
            recording.finish(False)

    options.pop("speed")
    options["connection"] = None  # the upstream response holds it, and releases it at the end
    return _response(
        pool,
        _Pieces(_recorded(upstream, recorder, recording), closed_half_way),
        headers=[(name, value) for name, value in headers if name not in hidden],
        status=upstream.status,
        reason=upstream.reason,
        version=upstream.version,
        version_string=upstream.version_string,
        **options,
    )


def upstream_target(
    pool: HTTPConnectionPool, url: str, body: bytes, record: Record
) -> tuple[str, bytes]:
    """The URL and body to send upstream: the caller's, or with the real ids of placeholders."""
    real = record.upstream
    if real is None:
        return url, body
    return real.url[len(absolute(pool, url)) - len(url) :], real.body


# use_cassette.


def patch_targets(
    active: Callable[[], Cassette | None],
) -> Iterator[tuple[type, str, Callable[[Any], Any]]]:
    """What ``use_cassette`` wraps for the block: see the module docstring."""

    def wrap(original: Any) -> Any:
        def _make_request(
            self: HTTPConnectionPool,
            conn: Any,
            method: str,
            url: str,
            body: Any = None,
            headers: Mapping[str, str] | None = None,
            retries: Any = None,
            *args: Any,
            **kwargs: Any,
        ) -> Any:
            cassette = active()
            if cassette is None or inside_cassette() or cassette.ignores(absolute(self, url)):
                return original(self, conn, method, url, body, headers, retries, *args, **kwargs)
            sent = body_bytes(body)
            decision = cassette.decide(to_model(self, method, url, headers, sent))
            options = {
                "preload_content": kwargs.get("preload_content", True),
                "decode_content": kwargs.get("decode_content", True),
                "connection": kwargs.get("response_conn"),
                "retries": retries,
                "request_method": method,
                "request_url": url,
                "speed": cassette.replay_speed,
            }
            if isinstance(decision, Replay):
                return replayed(self, conn, url, decision.answer, options)
            started, recorded_at = time.monotonic(), usage.now()
            kwargs.update(preload_content=False, decode_content=False)
            target, sent = upstream_target(self, url, sent, decision)
            try:
                with through_cassette():  # allowed by --block-network: this records
                    upstream = original(
                        self, conn, method, target, sent, headers, retries, *args, **kwargs
                    )
            except NEVER_CONNECTED:
                raise
            except _FAILURES as error:
                cassette.add(decision, failure(error, recorded_at))
                raise
            return teed(cassette, decision, self, upstream, started, recorded_at, options)

        return _make_request

    yield HTTPConnectionPool, "_make_request", wrap
