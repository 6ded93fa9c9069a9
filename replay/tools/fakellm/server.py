"""The fake's HTTP server (threads on 127.0.0.1) and the environment that points the SDKs
at it (see :mod:`replay.tools.fakellm`)."""

from __future__ import annotations

import contextlib
import gzip
import json
import secrets
import socket
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

from replay.tools.fakellm.routes import (
    _ERROR_KINDS,
    ReceivedRequest,
    _dispatch,
    _error,
    _rand,
    _Reply,
    _volatile_headers,
)

DEFAULT_API_KEY = "sk-fakellm-0123456789abcdef"
DEFAULT_PORT = 8400
"""The port ``replay fake-server`` listens on unless told: fixed, as recordings name it."""


# --- HTTP plumbing --------------------------------------------------------------------


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    # socketserver's default backlog of 5 resets connections when tests open many at once.
    request_queue_size = 128

    def __init__(self, fake: FakeLLMServer, address: tuple[str, int]) -> None:
        self.fake = fake
        self.connections: set[socket.socket] = set()
        self.connections_lock = threading.Lock()
        super().__init__(address, _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        # Clients hanging up mid-answer is routine; anything else is a bug worth seeing.
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)

    def close_connections(self) -> None:
        """Hang up kept-alive connections, which would otherwise outlive ``stop()``."""
        with self.connections_lock:
            for conn in self.connections:
                with contextlib.suppress(OSError):
                    conn.shutdown(socket.SHUT_RDWR)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _HTTPServer

    def setup(self) -> None:
        super().setup()
        with self.server.connections_lock:
            self.server.connections.add(self.connection)

    def finish(self) -> None:
        with self.server.connections_lock:
            self.server.connections.discard(self.connection)
        super().finish()

    def log_message(self, format: str, *args: Any) -> None:
        pass  # tests want a quiet server

    def _serve(self) -> None:
        headers = {key.lower(): value for key, value in self.headers.items()}
        request = ReceivedRequest(self.command, self.path, headers, self._read_body())
        fake = self.server.fake
        fake.record(request)
        reply = _dispatch(fake, request)
        try:
            self._send(reply, fake)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _serve

    def _read_body(self) -> bytes:
        if "chunked" not in self.headers.get("transfer-encoding", "").lower():
            return self.rfile.read(int(self.headers.get("content-length") or 0))
        parts = []
        while size := int(self.rfile.readline().split(b";")[0], 16):
            parts.append(self.rfile.read(size))
            self.rfile.readline()
        while self.rfile.readline() not in (b"\r\n", b"\n", b""):
            pass  # trailers
        return b"".join(parts)

    def _send(self, reply: _Reply, fake: FakeLLMServer) -> None:
        self.send_response(reply.status)
        headers = {**_volatile_headers(), **fake.account_headers}
        if reply.events is None:
            payload = json.dumps(reply.body).encode()
            if reply.compress:
                payload = gzip.compress(payload)
                headers["content-encoding"] = "gzip"
            headers |= {"content-type": "application/json", "content-length": str(len(payload))}
        else:
            headers |= {
                "content-type": "text/event-stream; charset=utf-8",
                "cache-control": "no-cache",
                "transfer-encoding": "chunked",
            }
        headers |= reply.headers  # last, so that a stream can name its own content type
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        if reply.events is None:
            self.wfile.write(payload)
            return
        for index, frame in enumerate(reply.events):
            if index and fake.chunk_delay:
                time.sleep(fake.chunk_delay)
            self.wfile.write(b"%x\r\n%s\r\n" % (len(frame), frame))
            self.wfile.flush()
        if fake.end_delay:
            fake.stopping.wait(fake.end_delay)  # an Event: stop() is not held up
        self.wfile.write(b"0\r\n\r\n")


class FakeLLMServer:
    """A threaded local HTTP server faking several LLM providers; see the module docstring."""

    def __init__(
        self,
        api_key: str = DEFAULT_API_KEY,
        model_version: str = "v1",
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        chunk_delay: float = 0.0,
        slow_delay: float = 3.0,
        end_delay: float = 0.0,
        model_versions: dict[str, str] | None = None,
        aliases: dict[str, str] | None = None,
    ) -> None:
        self.api_key = api_key
        self.model_version = model_version
        self.model_versions = dict(model_versions or {})
        self.aliases = dict(aliases or {})
        self._failures: list[tuple[int, str]] = []
        self.chunk_delay = chunk_delay
        self.slow_delay = slow_delay
        self.end_delay = end_delay
        self.requests: list[ReceivedRequest] = []
        self.stopping = threading.Event()
        self._address = (host, port)
        self._lock = threading.Lock()
        self._issued: dict[str, dict[str, Any]] = {}
        self.account_headers = {
            "openai-organization": f"user-{secrets.token_hex(12)}",
            "openai-project": f"proj_{_rand(24)}",
            "anthropic-organization-id": str(uuid.uuid4()),
        }
        self._last_timestamp = 0
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._url = ""

    @property
    def url(self) -> str:
        """``http://host:port``; still the last address after ``stop()``."""
        if not self._url:
            raise RuntimeError("FakeLLMServer is not started")
        return self._url

    def start(self) -> FakeLLMServer:
        if self._httpd is not None:
            return self
        self.stopping.clear()
        self._httpd = _HTTPServer(self, self._address)
        host, port = self._httpd.server_address[:2]
        self._url = f"http://{host!s}:{port}"
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="fakellm",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        httpd, self._httpd = self._httpd, None
        if httpd is None:
            return
        self.stopping.set()
        httpd.shutdown()
        httpd.server_close()
        httpd.close_connections()
        if self._thread is not None:
            self._thread.join()

    def __enter__(self) -> FakeLLMServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def record(self, request: ReceivedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def timestamp(self) -> int:
        """Unix seconds, but strictly increasing so that no two answers share one."""
        with self._lock:
            self._last_timestamp = max(int(time.time()), self._last_timestamp + 1)
            return self._last_timestamp

    def remember(self, issued: dict[str, Any]) -> dict[str, Any]:
        """Keep an issued object so that later requests may refer to its id."""
        with self._lock:
            self._issued[issued["id"]] = issued
        return issued

    def recall(self, issued_id: str) -> dict[str, Any] | None:
        with self._lock:
            return self._issued.get(issued_id)

    def answering_model(self, body: dict[str, Any], params: dict[str, str]) -> str:
        """The model that answers: the one requested (in the body or the URL path), or what
        its alias resolves to."""
        requested = str(body.get("model") or params.get("model") or "fake-model")
        return self.aliases.get(requested, requested)

    def fail_next(self, count: int = 1, status: int = 429, retry_after: str = "1") -> None:
        """The next ``count`` requests answer ``status`` with this ``retry-after`` header."""
        with self._lock:
            self._failures.extend([(status, retry_after)] * count)

    def take_failure(self) -> _Reply | None:
        with self._lock:
            if not self._failures:
                return None
            status, retry_after = self._failures.pop(0)
        message, kind, code = _ERROR_KINDS.get(status, ("Simulated error.", "server_error", None))
        reply = _error(status, message, kind, code)
        reply.headers["retry-after"] = retry_after
        return reply


def environment(server: FakeLLMServer) -> dict[str, str]:
    """The variables that point the SDKs at ``server``, with its key (the SDKs read these)."""
    url = server.url
    return {
        "OPENAI_BASE_URL": f"{url}/v1",
        "OPENAI_API_KEY": server.api_key,
        "ANTHROPIC_BASE_URL": url,
        "ANTHROPIC_API_KEY": server.api_key,
        "GROQ_BASE_URL": url,  # the groq SDK adds /openai/v1
        "GROQ_API_KEY": server.api_key,
        "AI21_API_HOST": f"{url}/studio/v1",
        "AI21_API_KEY": server.api_key,
        # cohere reads CO_API_URL once, when it is imported (a default argument), so it must
        # be set before the program starts; it adds /v2/chat itself.
        "CO_API_URL": url,
        "CO_API_KEY": server.api_key,
        "OLLAMA_HOST": url,  # a local Ollama takes no key, nor does the fake's /api/chat
    }
