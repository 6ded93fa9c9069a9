"""AWS event streams (``application/vnd.amazon.eventstream``): Bedrock's streaming answers.

Each message is a binary frame: a prelude (total length, headers length, both u32, and a
CRC32 of those eight bytes), typed headers, the payload, and a CRC32 of all before it. A
recording keeps one frame per chunk, decoded (:func:`decode_frame`), so the cassette shows
its headers and JSON payload; redaction and normalization rewrite the payloads
(:func:`rewriting_payloads`), and the frames are encoded again with their lengths and
checksums recomputed: a rewritten id no longer breaks the client's parser.

InvokeModelWithResponseStream wraps each event of the model's own stream in a payload
``{"bytes": "<base64 of JSON>", ...}``. Where that is reversible the base64 is undone in the
payload's *view* (``{"bytes": {...the JSON...}, ...}``), so the ids and secrets inside are
seen too, and base64-encoded again when the frame is made.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import re
import struct
import uuid
import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace

import orjson

from replay._core.model import EVENTSTREAM_CONTENT_TYPE, Chunk, Response

_PRELUDE = struct.Struct(">II")
_PRELUDE_BYTES = 12
_MIN_FRAME = 16
"""Prelude and message CRC: a frame with neither headers nor payload."""
MAX_FRAME = 16 << 20
"""botocore refuses a payload above this; so do we, rather than wait for 4 GiB."""

HEADER_KINDS = ("bool", "byte", "short", "int", "long", "bytes", "string", "timestamp", "uuid")
"""The names the cassette gives header value types, beside the wire's type codes:
``bool`` is codes 0 (true) and 1 (false), then 2 byte ... 9 uuid."""
_INTEGERS = {"byte": (2, "b"), "short": (3, "h"), "int": (4, "i"), "long": (5, "q")}
_TIMESTAMP, _UUID, _BYTES, _STRING = 8, 9, 6, 7


@dataclass(frozen=True, slots=True)
class HeaderValue:
    """A typed header value: ``kind`` one of :data:`HEADER_KINDS`; ``value`` a bool, an int
    (byte, short, int, long, timestamp in milliseconds), bytes, or a str (string, uuid)."""

    kind: str
    value: bool | int | bytes | str


@dataclass(frozen=True, slots=True)
class Frame:
    headers: tuple[tuple[str, HeaderValue], ...]
    payload: bytes

    def header(self, name: str) -> str | None:
        for key, value in self.headers:
            if key == name and isinstance(value.value, str):
                return value.value
        return None


class FrameError(ValueError):
    """Bytes that are not one well-formed frame; the message says what is wrong."""


def is_eventstream(response: Response) -> bool:
    return (response.header("content-type") or "").startswith(EVENTSTREAM_CONTENT_TYPE)


def frame_length(data: bytes | memoryview) -> int | None:
    """The length of the frame ``data`` starts with, None until its prelude has arrived."""
    if len(data) < _PRELUDE_BYTES:
        return None
    total, headers_length = _PRELUDE.unpack_from(data)
    if zlib.crc32(data[:8]) != struct.unpack_from(">I", data, 8)[0]:
        raise FrameError("the prelude's CRC32 does not match")
    if not _MIN_FRAME + headers_length <= total <= MAX_FRAME:
        raise FrameError(f"a frame of {total} bytes with {headers_length} of headers")
    return int(total)


def decode_frame(data: bytes) -> Frame:
    """One whole frame, its lengths and both checksums checked."""
    total = frame_length(data)
    if total != len(data):
        raise FrameError(f"{len(data)} bytes are not one frame ({total} announced)")
    if zlib.crc32(data[:-4]) != struct.unpack_from(">I", data, total - 4)[0]:
        raise FrameError("the message's CRC32 does not match")
    headers_end = _PRELUDE_BYTES + _PRELUDE.unpack_from(data)[1]
    return Frame(_decode_headers(data[_PRELUDE_BYTES:headers_end]), data[headers_end:-4])


def _decode_headers(data: bytes) -> tuple[tuple[str, HeaderValue], ...]:
    headers: list[tuple[str, HeaderValue]] = []
    position = 0
    try:
        while position < len(data):
            name_length = data[position]
            name = data[position + 1 : position + 1 + name_length].decode("utf-8")
            position += 1 + name_length
            value, position = _decode_value(data, position)
            headers.append((name, value))
    except (IndexError, struct.error, UnicodeDecodeError) as error:
        raise FrameError(f"malformed headers: {error}") from error
    if position != len(data):
        raise FrameError("the headers run past their announced length")
    return tuple(headers)


def _decode_value(data: bytes, position: int) -> tuple[HeaderValue, int]:
    code = data[position]
    position += 1
    if code in (0, 1):
        return HeaderValue("bool", code == 0), position
    for kind, (kind_code, form) in _INTEGERS.items():
        if code == kind_code:
            return HeaderValue(kind, struct.unpack_from(">" + form, data, position)[0]), (
                position + struct.calcsize(form)
            )
    if code == _TIMESTAMP:
        return HeaderValue("timestamp", struct.unpack_from(">q", data, position)[0]), position + 8
    if code == _UUID:
        raw = data[position : position + 16]
        if len(raw) != 16:
            raise FrameError("a uuid header shorter than 16 bytes")
        return HeaderValue("uuid", str(uuid.UUID(bytes=raw))), position + 16
    if code in (_BYTES, _STRING):
        (length,) = struct.unpack_from(">H", data, position)
        raw = data[position + 2 : position + 2 + length]
        if len(raw) != length:
            raise FrameError("a header value runs past the headers")
        value = raw if code == _BYTES else raw.decode("utf-8")
        return HeaderValue("bytes" if code == _BYTES else "string", value), position + 2 + length
    raise FrameError(f"unknown header value type {code}")


def encode_frame(frame: Frame) -> bytes:
    """The frame's bytes, lengths and checksums computed."""
    try:
        headers = b"".join(_encode_header(name, value) for name, value in frame.headers)
    except struct.error as error:  # a name or value too long, a number out of its range
        raise FrameError(f"a header cannot be encoded: {error}") from error
    total = _MIN_FRAME + len(headers) + len(frame.payload)
    prelude = _PRELUDE.pack(total, len(headers))
    prelude += struct.pack(">I", zlib.crc32(prelude))
    message = prelude + headers + frame.payload
    return message + struct.pack(">I", zlib.crc32(message))


def _encode_header(name: str, header: HeaderValue) -> bytes:
    encoded_name = name.encode("utf-8")
    out = struct.pack(">B", len(encoded_name)) + encoded_name
    kind, value = header.kind, header.value
    if kind == "bool":
        return out + (b"\x00" if value else b"\x01")
    if kind in _INTEGERS:
        code, form = _INTEGERS[kind]
        return out + struct.pack(">B" + form, code, value)
    if kind == "timestamp":
        return out + struct.pack(">Bq", _TIMESTAMP, value)
    if kind == "uuid":
        return out + struct.pack(">B", _UUID) + uuid.UUID(str(value)).bytes
    if kind == "string" and isinstance(value, str):
        raw = value.encode("utf-8")
        return out + struct.pack(">BH", _STRING, len(raw)) + raw
    if kind == "bytes" and isinstance(value, bytes):
        return out + struct.pack(">BH", _BYTES, len(value)) + value
    raise FrameError(f"a header {name!r} of kind {kind!r} with the value {value!r:.40}")


def one_frame_per_chunk(response: Response) -> Response:
    """The response with its chunks regrouped into whole frames, each at the time its last
    byte arrived; bytes that make no whole frame (a stream cut mid-frame, or not an event
    stream after all) stay as one last chunk, as they came."""
    if not is_eventstream(response):
        return response
    frames: list[Chunk] = []
    pending = b""
    for chunk in response.chunks:
        pending += chunk.data
        try:
            while (length := frame_length(pending)) is not None and len(pending) >= length:
                frames.append(Chunk(pending[:length], chunk.at))
                pending = pending[length:]
        except FrameError:
            break
    if pending:
        frames.append(Chunk(pending, response.chunks[-1].at))
    return replace(response, chunks=tuple(frames))


_INVOCATION_METRICS = "amazon-bedrock-invocationMetrics"


def ends_the_stream(frame: Frame) -> bool:
    """Whether Bedrock sends nothing after ``frame``: ConverseStream's ``metadata`` (after
    ``messageStop``: a stream stopped there lacks its usage), an invoke stream's ``chunk``
    whose model event carries Bedrock's ``amazon-bedrock-invocationMetrics`` (its last, for
    every model), or an exception, which ends any event stream."""
    if frame.header(":message-type") in ("exception", "error"):
        return True
    event = frame.header(":event-type")
    if event == "metadata":
        return True
    if event != "chunk":
        return False
    try:
        payload = orjson.loads(frame.payload)
        inner = orjson.loads(base64.b64decode(payload["bytes"], validate=True))
    except (binascii.Error, orjson.JSONDecodeError, KeyError, TypeError, ValueError):
        return False
    return isinstance(inner, dict) and _INVOCATION_METRICS in inner


class FrameFollower:
    """An event stream followed as it arrives, in pieces cut anywhere: whether what came so
    far is whole frames, the last of them one that :func:`ends_the_stream`."""

    def __init__(self) -> None:
        self._pending = b""
        self._last_ends = False
        self._broken = False

    def feed(self, data: bytes) -> None:
        if self._broken:
            return
        self._pending += data
        try:
            while (length := frame_length(self._pending)) is not None and len(
                self._pending
            ) >= length:
                self._last_ends = ends_the_stream(decode_frame(self._pending[:length]))
                self._pending = self._pending[length:]
        except FrameError:  # not an event stream after all: it never ends with a final frame
            self._broken = True

    @property
    def at_final_frame(self) -> bool:
        return self._last_ends and not self._pending and not self._broken


_BYTES_FIELD = re.compile(rb'"bytes":"([A-Za-z0-9+/=]*)"')


def payload_view(payload: bytes) -> bytes | None:
    """An InvokeModelWithResponseStream payload with its base64 ``bytes`` undone, when the
    payload is compact JSON holding it once and the base64 encodes that JSON exactly; else
    None (the payload is its own view)."""
    found = list(_BYTES_FIELD.finditer(payload))
    if len(found) != 1:
        return None
    try:
        inner = base64.b64decode(found[0].group(1), validate=True)
        outer = orjson.loads(payload)
        decoded = orjson.loads(inner)
    except (binascii.Error, orjson.JSONDecodeError):
        return None
    if not isinstance(outer, dict) or orjson.dumps(outer) != payload:
        return None
    if orjson.dumps(decoded) != inner:
        return None
    return payload[: found[0].start(1) - 1] + inner + payload[found[0].end(1) + 1 :]


def payload_of_view(view: bytes) -> bytes:
    """The payload a view came from, base64 again: the inverse of :func:`payload_view`."""
    outer = orjson.loads(view)
    if not isinstance(outer, dict) or "bytes" not in outer:
        raise FrameError("a decoded payload without its bytes field")
    encoded = base64.b64encode(orjson.dumps(outer["bytes"])).decode()
    return orjson.dumps({**outer, "bytes": encoded})


def rewriting_frame(data: bytes, rewrite: Callable[[bytes], bytes]) -> bytes:
    """One whole frame with ``rewrite`` applied to its payload's view and framed again; bytes
    that are no frame are rewritten as they are."""
    try:
        frame = decode_frame(data)
    except FrameError:
        return rewrite(data)
    view = payload_view(frame.payload)
    payload = rewrite(frame.payload if view is None else view)
    if view is not None:
        with contextlib.suppress(ValueError):  # a rewrite that broke the JSON stays visible
            payload = payload_of_view(payload)
    return encode_frame(Frame(frame.headers, payload))


class FrameCutter:
    """An event stream arriving in pieces cut anywhere, given back as whole frames; once the
    bytes turn out to be no event stream, given back as they come."""

    def __init__(self) -> None:
        self._pending = b""
        self._broken = False

    def feed(self, data: bytes) -> list[bytes]:
        """The frames ``data`` completes, in order; or ``[data]`` once broken."""
        if self._broken:
            return [data]
        self._pending += data
        frames = []
        try:
            while (length := frame_length(self._pending)) is not None and len(
                self._pending
            ) >= length:
                frames.append(self._pending[:length])
                self._pending = self._pending[length:]
        except FrameError:
            self._broken = True
            frames.append(self._pending)
            self._pending = b""
        return frames

    def rest(self) -> bytes:
        """What arrived after the last whole frame: a stream cut mid-frame."""
        rest, self._pending = self._pending, b""
        return rest


@dataclass(frozen=True, slots=True)
class _Shape:
    """What a chunk was, besides its payload's view: a frame's headers and whether its
    payload's ``bytes`` were decoded; None for bytes that are no frame."""

    headers: tuple[tuple[str, HeaderValue], ...]
    decoded_bytes: bool


def rewriting_payloads(response: Response, rewrite: Callable[[Response], Response]) -> Response:
    """``rewrite`` (redaction, normalization) applied to an event stream's payloads.

    ``rewrite`` gets the response with one chunk per frame holding its payload's view, and
    its result is framed again; a chunk that is no frame (a stream cut mid-frame) is
    rewritten as the bytes it is. Any
    other response is given to ``rewrite`` as it is.
    """
    if not is_eventstream(response):
        return rewrite(response)
    shapes: list[_Shape | None] = []
    views: list[Chunk] = []
    for chunk in response.chunks:
        try:
            frame = decode_frame(chunk.data)
        except FrameError:  # a frame cut short: still redacted, as bytes
            shapes.append(None)
            views.append(chunk)
            continue
        view = payload_view(frame.payload)
        shapes.append(_Shape(frame.headers, view is not None))
        views.append(Chunk(frame.payload if view is None else view, chunk.at))
    rewritten = rewrite(replace(response, chunks=tuple(views)))
    chunks: list[Chunk] = []
    for shape, rewritten_view in zip(shapes, rewritten.chunks, strict=True):
        if shape is None:
            chunks.append(rewritten_view)
            continue
        payload = rewritten_view.data
        if shape.decoded_bytes:
            with contextlib.suppress(ValueError):  # a rewrite that broke the JSON stays visible
                payload = payload_of_view(payload)
        chunks.append(Chunk(encode_frame(Frame(shape.headers, payload)), rewritten_view.at))
    return replace(rewritten, chunks=tuple(chunks))
