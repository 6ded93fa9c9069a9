"""A minimal loopback LLM server for the recording benchmarks.

It answers every POST with the workload's ~1.5 KB chat completion (chosen by
the prompt's index), or, for ``"stream": true``, with server-sent events
spaced ``chunk_delay`` apart. Each answer goes out in one write with
TCP_NODELAY, so the figures measure the client side, not Nagle's algorithm.
"""

from __future__ import annotations

import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

import orjson
import workload as w


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def setup(self) -> None:
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the benchmark prints its own results."""

    def do_POST(self) -> None:
        request = orjson.loads(self.rfile.read(int(self.headers["content-length"])))
        self.server.answered += 1
        if request.get("stream"):
            self._stream()
            return
        index = int(request["messages"][-1]["content"].split()[0].lstrip("#"))
        body = w.response_body(index)
        head = (
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
            f"x-request-id: req_{time.monotonic_ns():x}\r\ncontent-length: {len(body)}\r\n\r\n"
        )
        self.wfile.write(head.encode() + body)

    def _stream(self) -> None:
        head = (
            b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n"
        )
        self.wfile.write(head + b"\r\n")
        for event in w.stream_chunks(self.server.stream_chunks):
            time.sleep(self.server.chunk_delay)
            self.wfile.write(b"%x\r\n%s\r\n" % (len(event), event))
        self.wfile.write(b"0\r\n\r\n")


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, chunk_delay: float, stream_chunks: int) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.chunk_delay = chunk_delay
        self.stream_chunks = stream_chunks
        self.answered = 0


class LoopbackServer:
    def __init__(self, chunk_delay: float = 0.0, stream_chunks: int = 10) -> None:
        self._server = _Server(chunk_delay, stream_chunks)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        host, port = self._server.server_address[:2]
        self.url = f"http://{host!s}:{port}/v1/chat/completions"

    @property
    def answered(self) -> int:
        return self._server.answered

    def __enter__(self) -> LoopbackServer:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._server.shutdown()
        self._server.server_close()
