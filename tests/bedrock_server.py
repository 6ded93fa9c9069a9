"""A loopback server answering Bedrock's Converse route as Bedrock does, for boto3.

``POST /model/{modelId}/converse`` returns Converse JSON (the reply echoes the last user
text), with a fresh ``x-amzn-RequestId`` per call. Like AWS, it refuses a request not
signed with SigV4 for the access key it was given. Each request's headers are kept in
``received``, so a test can look for the signature and session token in a cassette.
"""

from __future__ import annotations

import json
import re
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_CONVERSE = re.compile(r"^/model/([^/]+)/converse$")


def converse_reply(body: dict[str, Any]) -> dict[str, Any]:
    last = body["messages"][-1]["content"][0]["text"]
    text = f"You said: {last}"
    return {
        "output": {"message": {"role": "assistant", "content": [{"text": text}]}},
        "stopReason": "end_turn",
        "usage": {
            "inputTokens": len(last.split()),
            "outputTokens": len(text.split()),
            "totalTokens": len(last.split()) + len(text.split()),
        },
        "metrics": {"latencyMs": 17},
    }


class BedrockServer:
    def __init__(self, access_key: str) -> None:
        self.access_key = access_key
        self.received: list[dict[str, str]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                server.received.append({k.lower(): v for k, v in self.headers.items()})
                authorization = self.headers.get("authorization", "")
                if not authorization.startswith(
                    f"AWS4-HMAC-SHA256 Credential={server.access_key}/"
                ):
                    self._answer(403, {"message": "The security token included is invalid."})
                elif _CONVERSE.match(self.path) is None:
                    self._answer(404, {"message": f"no route {self.path}"})
                else:
                    self._answer(200, converse_reply(json.loads(body)))

            def _answer(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("x-amzn-RequestId", str(uuid.uuid4()))
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        host, port = self._httpd.server_address[:2]
        self.url = f"http://{host!s}:{port}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()


@contextmanager
def bedrock_server(access_key: str) -> Iterator[BedrockServer]:
    server = BedrockServer(access_key)
    server._thread.start()
    try:
        yield server
    finally:
        server.stop()
