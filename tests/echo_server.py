"""A loopback server that behaves like the real ones our fake does not imitate.

It answers every request with what it received, as JSON (method, path, headers, the body
as text), the way APIs echo a request in their error bodies. Request headers steer it:

- ``x-echo-encoding: zstd`` (or ``gzip``, ``deflate``, ``br``, ``gzip, br``, or a name it
  does not know, sent as is): the response body is encoded so, with its
  ``content-encoding``;
- ``x-echo-header: NAME: VALUE`` (percent-encoded UTF-8 or Latin-1 bytes): a raw header
  line added to the response, bytes as given (``x-note: caf%C3%A9``);
- ``x-echo-body``: the response body, percent-encoded, instead of the echo;
- ``x-echo-content-type``: the response's content type (JSON by default).

``echo_server(scripted)`` answers the bodies in ``scripted`` first, one per request: the same
request answered differently each time, as a real API does.

Request bodies sent with a ``content-encoding`` are decoded before they are echoed, as a
server would.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import socket
import threading
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote_to_bytes

import brotli
import zstandard


def encode(body: bytes, encoding: str) -> bytes:
    for name in (part.strip() for part in encoding.split(",")):
        if name == "gzip":
            body = gzip.compress(body)
        elif name == "deflate":
            body = zlib.compress(body)
        elif name == "br":
            body = brotli.compress(body)
        elif name == "zstd":
            body = zstandard.ZstdCompressor().compress(body)
        elif name not in ("", "identity"):
            body = b"\x1f\x9d" + body  # a "compress" header before plain bytes: not LZW
    return body


def decode(body: bytes, encoding: str) -> bytes:
    for name in reversed([part.strip() for part in encoding.split(",")]):
        if name == "gzip":
            body = gzip.decompress(body)
        elif name == "deflate":
            body = zlib.decompress(body)
        elif name == "br":
            body = brotli.decompress(body)
        elif name == "zstd":
            body = zstandard.ZstdDecompressor().decompress(body)
    return body


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        pass

    def _answer(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length)
        body = decode(body, self.headers.get("content-encoding", ""))
        echoed = {
            "method": self.command,
            "path": self.path,
            "headers": {name.lower(): value for name, value in self.headers.items()},
            "body": body.decode("latin-1"),
        }
        given = self.headers.get("x-echo-body")
        assert isinstance(self.server, _EchoServer)
        scripted = self.server.scripted
        if scripted:
            answer = scripted.pop(0)
        elif given is not None:
            answer = unquote_to_bytes(given)
        else:
            answer = json.dumps(echoed).encode()
        encoding = self.headers.get("x-echo-encoding", "")
        answer = encode(answer, encoding)
        lines = [
            b"HTTP/1.1 200 OK",
            b"content-type: "
            + self.headers.get("x-echo-content-type", "application/json").encode(),
            b"content-length: " + str(len(answer)).encode(),
        ]
        if encoding:
            lines.append(b"content-encoding: " + encoding.encode())
        for raw in self.headers.get_all("x-echo-header") or []:
            lines.append(unquote_to_bytes(raw))
        self.wfile.write(b"\r\n".join(lines) + b"\r\n\r\n" + answer)

    do_GET = do_POST = do_PUT = _answer


class _EchoServer(ThreadingHTTPServer):
    daemon_threads = True
    scripted: list[bytes]

    def handle_error(self, request: object, client_address: object) -> None:
        """Silent: clients that hang up are the point of some tests (a TLS handshake sent to
        this plain HTTP server is reset), and each would print a traceback."""


@contextmanager
def echo_server(scripted: list[bytes] | None = None) -> Iterator[str]:
    """The server's base URL while the block runs.

    ``scripted``: the bodies of the next responses, one per request in turn, instead of the
    echo, for answers that differ between calls the way a real API's do while the requests,
    headers included, stay the same; the test may append to it while the server runs.
    """
    server = _EchoServer(("127.0.0.1", 0), _Handler)
    server.scripted = [] if scripted is None else scripted
    # shutdown() waits for serve_forever's next poll: half a second at the default interval,
    # paid by every example of the property tests that start a server each.
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
    )
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def silent_server() -> Iterator[str]:
    """The base URL of a server that accepts connections and never answers: a read timeout,
    an API's behaviour once connected (recorded), unlike a connection refused (never)."""
    listener = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []

    def accept() -> None:
        with contextlib.suppress(OSError):  # the listener closed: the block ended
            while True:
                accepted.append(listener.accept()[0])

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        listener.close()
        for connection in accepted:
            connection.close()
