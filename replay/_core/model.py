"""Plain data: the requests and responses replay records, free of any HTTP library.

The adapters in :mod:`replay._adapters.httpx_transport` convert httpx and httpx2 objects to
these at the edge; everything between (keys, redaction, normalization, the
cassette) works on these alone.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from dataclasses import dataclass, field

Headers = tuple[tuple[str, str], ...]
"""Header pairs in arrival order, names lower-cased."""

EVENTSTREAM_CONTENT_TYPE = "application/vnd.amazon.eventstream"
"""AWS's binary event stream (Bedrock): one frame per chunk (:mod:`replay._core.eventstream`)."""
STREAM_CONTENT_TYPES = (
    "text/event-stream",
    "application/x-ndjson",
    "application/jsonl",
    EVENTSTREAM_CONTENT_TYPE,
)
NOT_STORED_HEADERS = frozenset(
    {"content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive"}
)
"""Hop-by-hop headers, and those describing the encoded body: bodies are stored decoded."""


def stored_headers(headers: Headers, body_decoded: bool) -> Headers:
    """What a cassette keeps of response headers; a body left encoded keeps its encoding."""
    dropped = NOT_STORED_HEADERS if body_decoded else NOT_STORED_HEADERS - {"content-encoding"}
    return tuple((name, value) for name, value in headers if name not in dropped)


def headers_from_bytes(raw: Iterable[tuple[bytes, bytes]]) -> Headers:
    """Header pairs as a cassette keeps them: each byte of a value one character (Latin-1),
    so a value in UTF-8, Latin-1 or any other bytes comes back exactly as it was sent, and
    every value can be written to a cassette (UTF-8 JSON, which no undecodable byte is)."""
    # A list made whole, then the tuple: a generator is resumed once per header.
    return tuple([(name.decode("latin-1").lower(), value.decode("latin-1")) for name, value in raw])


def headers_to_bytes(headers: Iterable[tuple[str, str]]) -> list[tuple[bytes, bytes]]:
    """The bytes :func:`headers_from_bytes` read. A value with a character beyond Latin-1 was
    not read so (written by hand, or by aiohttp before it kept bytes): it is sent as UTF-8."""
    headers = tuple(headers)  # read twice below if one is not Latin-1
    try:  # every value read so, in one pass with no call per header (replay's every request)
        return [(name.encode("latin-1"), value.encode("latin-1")) for name, value in headers]
    except UnicodeEncodeError:
        return [(_header_bytes(name), _header_bytes(value)) for name, value in headers]


def _header_bytes(text: str) -> bytes:
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape")


def merged_headers(headers: Headers) -> dict[str, str]:
    """Each header name once, in name order, its values joined by ``, `` in the order they came
    (a stable sort): as a cassette stores them, and as a stored response's headers compare."""
    merged: dict[str, str] = {}
    for name, value in sorted(headers, key=_NAME):
        merged[name] = f"{merged[name]}, {value}" if name in merged else value
    return merged


_NAME = operator.itemgetter(0)


def header_value(headers: Headers, name: str) -> str | None:
    for key, value in headers:
        if key == name:
            return value
    return None


class _Headed:
    """:meth:`header` for the messages below. The loop of :func:`header_value` written out
    rather than called: a recorded request's headers are looked up about ten times on its way
    to the cassette (its content type and encoding), one Python call fewer each."""

    __slots__ = ()
    headers: Headers

    def header(self, name: str) -> str | None:
        for key, value in self.headers:
            if key == name:
                return value
        return None


@dataclass(frozen=True, slots=True)
class Request(_Headed):
    method: str
    url: str
    headers: Headers
    body: bytes


@dataclass(frozen=True, slots=True)
class Chunk:
    """A piece of a response body as it arrived, ``at`` seconds after the request was sent."""

    data: bytes
    at: float


@dataclass(frozen=True, slots=True)
class Response(_Headed):
    status: int
    headers: Headers
    chunks: tuple[Chunk, ...]
    recorded_at: str
    complete: bool = True
    """False when the caller abandoned the stream before its end; replay stops there too."""
    failure: TransportFailure | None = None
    """The transport exception that cut the body short (a read timeout mid-stream), raised
    again on replay after the last chunk."""

    @property
    def body(self) -> bytes:
        chunks = self.chunks
        if len(chunks) == 1:  # a whole body: no join, no copy (replay asks it on every request)
            return chunks[0].data
        return b"".join([chunk.data for chunk in chunks])

    @property
    def streamed(self) -> bool:
        """Whether chunk boundaries matter: server-sent events, line-delimited JSON, AWS
        event streams."""
        content_type = self.header("content-type") or ""
        return content_type.startswith(STREAM_CONTENT_TYPES)


@dataclass(frozen=True, slots=True)
class TransportFailure:
    """A recorded transport exception (a timeout, a connection cut), re-raised on replay.

    A failure to connect is never one: no answer came from the API (see the adapters)."""

    kind: str
    """The exception's class name, looked up in the client's library on replay."""
    message: str
    recorded_at: str


@dataclass(frozen=True, slots=True)
class Frame:
    """A WebSocket message as it crossed the connection, ``at`` seconds after the handshake."""

    data: bytes
    at: float
    from_client: bool
    text: bool
    """A text frame (UTF-8), else binary."""


@dataclass(frozen=True, slots=True)
class WebSocketSession:
    """A WebSocket connection's messages in both directions, in the order they crossed it.

    The outcome of a handshake request (method ``GET``, a ``ws://`` or ``wss://`` URL), so a
    session is keyed, recorded and replayed in order as an HTTP response is.
    """

    frames: tuple[Frame, ...]
    recorded_at: str
    complete: bool = True
    """False when the cassette was saved with the connection still open."""


@dataclass(frozen=True, slots=True)
class McpSession(WebSocketSession):
    """An MCP server's session over stdio (``replay mcp``): its JSON-RPC messages both ways,
    one text frame each, in the order they crossed the pipes, ``at`` seconds after the server
    started. Redacted, normalized and stored as a WebSocket session is; replayed by
    :mod:`replay._core.mcp`, matched on method and params rather than by place."""


@dataclass(frozen=True, slots=True)
class GrpcCall:
    """A gRPC call's answer: the server's messages in order, its metadata and its status.

    The outcome of a request to a ``grpc://`` URL (the channel's target, then
    the method path), whose headers are the call's metadata and whose body is its request
    message (empty when the client streams). Each message is a :class:`Frame`: ``text`` when
    it is the message's JSON view (its type known to the default descriptor pool), else its
    serialized bytes; a client-streaming call keeps the client's messages too, ``from_client``,
    so a replay gives each server message once the client sent those recorded before it.
    """

    messages: tuple[Frame, ...]
    initial_metadata: Headers
    trailing_metadata: Headers
    code: str
    """The status code's name: ``OK``, ``NOT_FOUND``, ``UNAVAILABLE``..."""
    details: str
    recorded_at: str
    response_type: str | None = None
    """The full name of the server messages' type, by which their JSON view is encoded again."""
    complete: bool = True
    """False when the caller stopped reading a stream before its end; replay stops there too."""


Outcome = Response | TransportFailure | WebSocketSession | GrpcCall

WEBSOCKET_SCHEMES = ("ws://", "wss://")
GRPC_SCHEME = "grpc://"
MCP_STDIO_SCHEME = "stdio://"
"""The scheme of an MCP stdio session's request: ``stdio://NAME``, ``mcp`` unless named."""


def is_mcp_stdio(url: str) -> bool:
    """Whether ``url`` is an MCP stdio session's: its outcomes are :class:`McpSession`."""
    return url.startswith(MCP_STDIO_SCHEME)


def is_websocket(url: str) -> bool:
    """Whether ``url`` is a WebSocket handshake's: its outcomes are sessions, and only its."""
    return url[:6].lower().startswith(WEBSOCKET_SCHEMES)


def is_grpc(url: str) -> bool:
    """Whether ``url`` is a gRPC call's: its outcomes are :class:`GrpcCall`, and only its."""
    return url[:7].lower() == GRPC_SCHEME


@dataclass(slots=True)
class Interaction:
    """One request and every outcome recorded for it, played back in order."""

    key: str
    request: Request
    outcomes: list[Outcome] = field(default_factory=list)
