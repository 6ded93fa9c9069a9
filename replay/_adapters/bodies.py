"""The bodies of the standard library's client and urllib3: a request body whole, whatever
form the library takes it in, a replayed body played, and a recorded one relayed piece by
piece."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

from replay._cassette import Recording
from replay._core.model import Chunk, TransportFailure
from replay._core.streams import StreamRecorder, pacing


def played(
    chunks: tuple[Chunk, ...], speed: float | None, cut: Exception | None
) -> Iterator[bytes]:
    """A replayed body's chunks, at the recorded pace when ``speed`` is set, then the recorded
    failure that cut it short, if one did."""
    for wait, data in pacing(chunks, speed):
        if wait:
            time.sleep(wait)
        yield data
    if cut is not None:
        raise cut


def relayed(
    read: Callable[[], bytes],
    finished: Callable[[], object],
    recorder: StreamRecorder,
    recording: Recording,
    failures: tuple[type[BaseException], ...],
    failed: Callable[[BaseException], TransportFailure],
) -> Iterator[bytes]:
    """Each upstream piece (``read()`` until it gives nothing) to the caller as it arrives,
    kept for the cassette: added at its end, its provider's final event, a transport error
    (one of ``failures``, recorded as ``failed`` makes it), or the caller closing it half-way;
    ``finished`` gives the connection back once the body is read whole."""
    try:
        while raw := read():
            if data := recorder.feed(raw):
                if recorder.at_final_event:
                    recording.finish(True)
                if shown := recording.shown.feed(data):
                    yield shown
    except failures as error:
        recording.finish(False, failed(error))
        raise
    rest = recording.shown.rest()
    recording.finish(True)
    finished()
    if rest:
        yield rest


def body_bytes(body: Any) -> bytes:
    """The whole body, whatever urllib3 and http.client accept: bytes, text, a file or an
    iterable of pieces.

    Read once here, and the bytes sent on: ``urlopen`` rewinds a file before a retry."""
    if body is None:
        return b""
    if isinstance(body, bytes | bytearray | memoryview):
        return bytes(body)
    if isinstance(body, str):
        return body.encode()  # as urllib3 sends text; these bytes are what is sent
    if hasattr(body, "read"):
        return _as_bytes(body.read())
    return b"".join(_as_bytes(piece) for piece in body)


def _as_bytes(piece: str | bytes) -> bytes:
    return piece.encode() if isinstance(piece, str) else bytes(piece)
