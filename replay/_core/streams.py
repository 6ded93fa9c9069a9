"""Response bodies as streams of chunks: what recording keeps and what replay gives back.

Recording tees: each chunk goes on to the caller the moment it arrives, so
time to first token is what it would be without replay, and is kept with its
arrival time. Bodies are kept decoded (gzip, deflate, brotli, zstd), so the
cassette is readable, redaction and normalization see the text, and the caller is
told so by the adapter dropping ``content-encoding``. brotli and zstd are decoded
with whichever module the HTTP library itself would use: an encoding no module here
can undo is one the client does not advertise either.

Replay gives back the same chunks with the same boundaries, instantly, or at
the recorded pace scaled by ``speed`` (2.0 is twice as fast).
"""

from __future__ import annotations

import contextlib
import importlib
import time
import zlib
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

from replay._core.eventstream import FrameFollower
from replay._core.model import (
    EVENTSTREAM_CONTENT_TYPE,
    Chunk,
    Headers,
    Request,
    Response,
    TransportFailure,
)


class _Decompressor(Protocol):
    def decompress(self, data: bytes) -> bytes: ...


class BodyDecoder:
    """Undo a ``content-encoding`` chunk by chunk.

    An encoding we cannot undo (``br`` without brotli installed, ``zstd`` without
    zstandard, a name we do not know) is left as it is: ``decodes`` is then False, and the
    body is kept encoded with its header, once a scan of its bytes found no secret the
    request carried (:meth:`replay._core.redact.Redactor.refuse_undecoded`).
    """

    def __init__(self, encoding: str | None) -> None:
        if not encoding:  # most bodies: nothing to parse
            self.decodes = True
            self._steps: list[_Decompressor] = []
            return
        names = [name.strip().lower() for name in reversed(encoding.split(","))]
        steps = [_decompressor(name) for name in names if name not in ("", "identity")]
        self.decodes = None not in steps
        self._steps = [step for step in steps if step is not None] if self.decodes else []

    @property
    def active(self) -> bool:
        return bool(self._steps)

    def decode(self, data: bytes) -> bytes:
        for step in self._steps:
            data = step.decompress(data)
        return data


class _Deflate:
    """Servers send "deflate" both zlib-wrapped and raw; look at the first bytes to tell."""

    def __init__(self) -> None:
        self._inner: _Decompressor | None = None

    def decompress(self, data: bytes) -> bytes:
        if self._inner is None:
            if not data:
                return b""
            wrapped = (
                len(data) >= 2 and (data[0] & 0x0F) == 8 and (data[0] << 8 | data[1]) % 31 == 0
            )
            self._inner = zlib.decompressobj(zlib.MAX_WBITS if wrapped else -zlib.MAX_WBITS)
        return self._inner.decompress(data)


class _Zstandard:
    """A zstd body may hold several frames one after another: each gets a fresh decoder."""

    def __init__(self, module: Any) -> None:
        self._module = module
        self._inner = module.ZstdDecompressor().decompressobj()

    def decompress(self, data: bytes) -> bytes:
        out = [self._inner.decompress(data)]
        while self._inner.eof and self._inner.unused_data:
            unused = self._inner.unused_data
            self._inner = self._module.ZstdDecompressor().decompressobj()
            out.append(self._inner.decompress(unused))
        return b"".join(out)


class _Brotli:
    def __init__(self, module: Any) -> None:
        self._inner = module.Decompressor()

    def decompress(self, data: bytes) -> bytes:
        return bytes(self._inner.process(data))


def _decompressor(name: str) -> _Decompressor | None:
    if name in ("gzip", "x-gzip"):
        return zlib.decompressobj(zlib.MAX_WBITS | 16)
    if name == "deflate":
        return _Deflate()
    if name == "br":
        for module_name in ("brotli", "brotlicffi"):  # whichever httpx found
            with contextlib.suppress(ImportError):
                return _Brotli(importlib.import_module(module_name))
    if name == "zstd":
        with contextlib.suppress(ImportError):  # what httpx and urllib3 decode zstd with
            return _Zstandard(importlib.import_module("zstandard"))
    return None


def decoded_request(request: Request) -> Request:
    """The request with its body decoded, when it was sent with a ``content-encoding`` that
    can be undone: keys, redaction and the cassette then see the content, not its compressed
    bytes (gzip stamps a time in them: the same content would key differently every run)."""
    encoding = request.header("content-encoding")
    if encoding is None:
        return request
    decoder = BodyDecoder(encoding)
    if not decoder.decodes:
        return request
    try:
        body = decoder.decode(request.body)
    except Exception:  # each decoder has its own error: not what it says it is, kept as sent
        return request
    headers = tuple(
        (name, value)
        for name, value in request.headers
        if name not in ("content-encoding", "content-length")
    )
    return Request(request.method, request.url, headers, body)


class StreamRecorder:
    """Keeps each decoded chunk with the time it arrived, counted from the request."""

    def __init__(
        self, encoding: str | None, started: float, content_type: str | None = None
    ) -> None:
        self._decoder = BodyDecoder(encoding)
        self.decodes = self._decoder.decodes
        self._started = started
        self.chunks: list[Chunk] = []
        self._tail = b""
        # An AWS event stream's final event is a binary frame, found by following the frames.
        self._frames = (
            FrameFollower() if (content_type or "").startswith(EVENTSTREAM_CONTENT_TYPE) else None
        )

    def feed(self, raw: bytes) -> bytes:
        data = self._decoder.decode(raw) if self._decoder.active else raw
        if data:
            self.chunks.append(Chunk(data, round(time.monotonic() - self._started, 6)))
            self._tail = (self._tail + data)[-_TAIL_BYTES:]
            if self._frames is not None:
                self._frames.feed(data)
        return data

    def response(
        self,
        status: int,
        headers: Headers,
        recorded_at: str,
        complete: bool,
        cut: TransportFailure | None,
    ) -> Response:
        """What came so far, as recorded: ``complete`` when read to its end, or when it ends
        with its provider's final event and was not ``cut`` (by a transport error)."""
        chunks = tuple(self.chunks)
        final = self._frames.at_final_frame if self._frames is not None else reached_the_end(chunks)
        ended = complete or (cut is None and final)
        return Response(status, headers, chunks, recorded_at, ended, cut)

    @property
    def at_final_event(self) -> bool:
        """Whether what came so far ends with a whole event that ends the stream.

        Whole: followed by the blank line that closes a server-sent event, or for an AWS
        event stream a whole frame (:func:`~replay._core.eventstream.ends_the_stream`), so
        that replaying up to here gives the SDK an event it can parse.
        """
        if self._frames is not None:
            return self._frames.at_final_frame
        tail = self._tail
        return tail.endswith(_EVENT_ENDS) and _last_event(tail).startswith(_FINAL_EVENTS)


_FINAL_EVENTS = (b"data: [DONE]", b"event: message_stop", b"event: response.completed")
_EVENT_ENDS = (b"\n\n", b"\r\n\r\n", b"\r\r")
_TAIL_BYTES = 4096
"""Enough for the last event of any stream we know: they are short."""


def reached_the_end(chunks: Sequence[Chunk]) -> bool:
    """Whether a stream's last event is one that ends it.

    SDKs stop reading at ``data: [DONE]`` (or Anthropic's ``message_stop``) and close the
    response before the empty chunk that ends the body: such a stream is whole, not
    abandoned.
    """
    if not chunks:
        return False
    tail = b""
    for chunk in reversed(chunks):  # the last event may come in many small chunks
        tail = chunk.data + tail
        if len(tail) >= _TAIL_BYTES:
            break
    return _last_event(tail).startswith(_FINAL_EVENTS)


def _last_event(tail: bytes) -> bytes:
    return tail.rstrip().replace(b"\r\n", b"\n").rsplit(b"\n\n", 1)[-1].lstrip()


def pacing(chunks: tuple[Chunk, ...], speed: float | None) -> Iterator[tuple[float, bytes]]:
    """Each chunk with how long to wait before giving it: 0 unless a speed is set."""
    if not speed:
        for chunk in chunks:
            yield 0.0, chunk.data
        return
    start = time.monotonic()
    for chunk in chunks:
        yield max(0.0, start + chunk.at / speed - time.monotonic()), chunk.data
