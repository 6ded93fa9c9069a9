"""Searching what replay wrote or printed for a secret, in every form it could take (raw,
percent-encoded in either case, hex, JSON-escaped, base64 and base64url at every alignment),
and a scripted server on 127.0.0.1 to carry secrets to the SDKs."""

from __future__ import annotations

import base64
import binascii
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import quote

from conftest import port_refuses


def forms(secret: str) -> Iterator[bytes]:
    """Every form a leaked secret could take on disk."""
    raw = secret.encode()
    yield raw
    yield quote(secret, safe="").encode()
    yield quote(secret, safe="").lower().encode()
    yield binascii.hexlify(raw)
    yield json.dumps(secret)[1:-1].replace("/", "\\/").encode()
    yield "".join(f"\\u{ord(c):04x}" for c in secret).encode()
    for pad in range(3):  # base64 at every alignment: the stable middle of each encoding
        encoded = base64.b64encode(b"\0" * pad + raw).decode()
        yield encoded[4 : len(encoded) - 4].encode()
        yield encoded[4 : len(encoded) - 4].replace("+", "-").replace("/", "_").encode()


def assert_never_in(output: bytes | str, *secrets: str) -> None:
    """No form of any of ``secrets`` in ``output`` (what a command printed, a file's bytes)."""
    data = output.encode() if isinstance(output, str) else output
    for secret in secrets:
        for form in forms(secret):
            assert form not in data, (secret, form)


def assert_never_written(directory: Path, *secrets: str) -> None:
    """No form of any of ``secrets`` in any file under ``directory``."""
    written = b"".join(path.read_bytes() for path in sorted(directory.rglob("*")) if path.is_file())
    assert_never_in(written, *secrets)


@dataclass
class Answer:
    body: bytes
    content_type: str = "application/json"
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)


Route = Callable[[str, dict[str, str], bytes], Answer]


@contextmanager
def scripted(route: Route) -> Iterator[str]:
    """A server on 127.0.0.1 answering each request with ``route(path, headers, body)``."""

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length)
            headers = {name.lower(): value for name, value in self.headers.items()}
            answer = route(self.path, headers, body)
            self.send_response(answer.status)
            self.send_header("content-type", answer.content_type)
            self.send_header("content-length", str(len(answer.body)))
            for name, value in answer.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(answer.body)

        do_GET = do_POST = do_PUT = _answer

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield url
    finally:
        server.shutdown()
        server.server_close()
        assert port_refuses(url)
