"""A loopback server answering Bedrock's runtime routes as Bedrock does, for boto3.

- ``POST /model/{modelId}/converse`` returns Converse JSON (the reply echoes the last user
  text);
- ``POST /model/{modelId}/converse-stream`` streams the same reply as ConverseStream does:
  ``messageStart``, a ``contentBlockDelta`` per few characters, ``contentBlockStop``,
  ``messageStop`` and ``metadata`` (usage, metrics);
- ``POST /model/{modelId}/invoke-with-response-stream`` takes an Anthropic Messages body and
  streams Anthropic's events, each base64 JSON in a ``chunk`` event's ``bytes``, the last with
  Bedrock's ``amazon-bedrock-invocationMetrics``.

Streams are ``application/vnd.amazon.eventstream`` frames (built here as the AWS documentation
lays them out, not by replay's encoder), sent chunked in pieces that cut frames in two, as a
socket may deliver them. Every answer has a fresh ``x-amzn-RequestId``, and, as on Bedrock,
stream events are padded (``p``) to a random length and latencies vary from call to call.
Like AWS, the server refuses a request not signed with SigV4 for the access key it was given.
Each request's headers are kept in ``received``, so a test can look for the signature and
session token in a cassette, and each answer's body in ``sent``.
"""

from __future__ import annotations

import base64
import json
import random
import re
import string
import struct
import threading
import time
import uuid
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_ROUTE = re.compile(r"^/model/([^/]+)/(converse|converse-stream|invoke-with-response-stream)$")
EVENTSTREAM = "application/vnd.amazon.eventstream"
PIECE = 8
"""Characters of the answer per streamed text delta."""
SEND_SIZE = 57
"""Bytes per HTTP chunk of a stream: frames arrive cut in two, as from a socket."""


PADDING_ALPHABET = string.ascii_lowercase + string.ascii_uppercase + string.digits


def padding() -> str:
    """What Bedrock pads an event with, so that its size does not give its text away."""
    return PADDING_ALPHABET[: random.randint(1, len(PADDING_ALPHABET))]


def latency() -> int:
    return random.randint(5, 900)


def answer_to(text: str) -> str:
    return f"Answer to: {text}"


def _pieces(text: str) -> list[str]:
    return [text[i : i + PIECE] for i in range(0, len(text), PIECE)]


def _usage(prompt: str, answer: str) -> dict[str, int]:
    inputs, outputs = len(prompt.split()), len(answer.split())
    return {"inputTokens": inputs, "outputTokens": outputs, "totalTokens": inputs + outputs}


def _last_converse_text(body: dict[str, Any]) -> str:
    return str(body["messages"][-1]["content"][0]["text"])


def converse_reply(body: dict[str, Any]) -> dict[str, Any]:
    prompt = _last_converse_text(body)
    text = answer_to(prompt)
    return {
        "output": {"message": {"role": "assistant", "content": [{"text": text}]}},
        "stopReason": "end_turn",
        "usage": _usage(prompt, text),
        "metrics": {"latencyMs": latency()},
    }


def frame(kind: str, payload: dict[str, Any], message_type: str = "event") -> bytes:
    """An event frame (or with ``message_type="exception"`` an error ending the stream):
    prelude (lengths and their CRC32), string headers, JSON, CRC32."""
    kind_header = ":event-type" if message_type == "event" else ":exception-type"
    headers = b"".join(
        bytes([len(name)])
        + name.encode()
        + b"\x07"
        + struct.pack(">H", len(value))
        + value.encode()
        for name, value in (
            (kind_header, kind),
            (":content-type", "application/json"),
            (":message-type", message_type),
        )
    )
    data = json.dumps(payload, separators=(",", ":")).encode()
    prelude = struct.pack(">II", 16 + len(headers) + len(data), len(headers))
    prelude += struct.pack(">I", zlib.crc32(prelude))
    message = prelude + headers + data
    return message + struct.pack(">I", zlib.crc32(message))


def converse_stream_frames(body: dict[str, Any]) -> list[bytes]:
    prompt = _last_converse_text(body)
    answer = answer_to(prompt)
    return [
        frame("messageStart", {"role": "assistant", "p": padding()}),
        *(
            frame("contentBlockDelta", {"delta": {"text": piece}, "contentBlockIndex": 0})
            for piece in _pieces(answer)
        ),
        frame("contentBlockStop", {"contentBlockIndex": 0}),
        frame("messageStop", {"stopReason": "end_turn"}),
        frame(
            "metadata",
            {"usage": _usage(prompt, answer), "metrics": {"latencyMs": latency()}, "p": padding()},
        ),
    ]


def invoke_stream_frames(body: dict[str, Any]) -> list[bytes]:
    """Anthropic's Messages events as InvokeModelWithResponseStream wraps them."""
    content = body["messages"][-1]["content"]
    prompt = content if isinstance(content, str) else content[0]["text"]
    answer = answer_to(prompt)
    message_id = "msg_bdrk_" + uuid.uuid4().hex[:24]
    usage = _usage(prompt, answer)
    events: list[dict[str, Any]] = [
        {
            "type": "message_start",
            "message": {
                "id": message_id,
                "type": "message",
                "role": "assistant",
                "model": "claude-3-haiku-20240307",
                "content": [],
                "stop_reason": None,
                "usage": {"input_tokens": usage["inputTokens"], "output_tokens": 1},
            },
        },
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        *(
            {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": p}}
            for p in _pieces(answer)
        ),
        {"type": "content_block_stop", "index": 0},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "end_turn", "stop_sequence": None},
            "usage": {"output_tokens": usage["outputTokens"]},
        },
        {
            "type": "message_stop",
            "amazon-bedrock-invocationMetrics": {
                "inputTokenCount": usage["inputTokens"],
                "outputTokenCount": usage["outputTokens"],
                "invocationLatency": latency(),
                "firstByteLatency": latency(),
            },
        },
    ]
    return [
        frame(
            "chunk",
            {
                "bytes": base64.b64encode(
                    json.dumps(event, separators=(",", ":")).encode()
                ).decode(),
                "p": padding(),
            },
        )
        for event in events
    ]


class BedrockServer:
    def __init__(self, access_key: str) -> None:
        self.access_key = access_key
        self.received: list[dict[str, str]] = []
        self.sent: list[bytes] = []
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
                elif (route := _ROUTE.match(self.path)) is None:
                    self._answer(404, {"message": f"no route {self.path}"})
                elif route.group(2) == "converse":
                    self._answer(200, converse_reply(json.loads(body)))
                elif route.group(2) == "converse-stream":
                    self._stream(converse_stream_frames(json.loads(body)))
                else:
                    self._stream(invoke_stream_frames(json.loads(body)))

            def _answer(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                server.sent.append(data)
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("x-amzn-RequestId", str(uuid.uuid4()))
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _stream(self, frames: list[bytes]) -> None:
                self.send_response(200)
                self.send_header("content-type", EVENTSTREAM)
                self.send_header("x-amzn-RequestId", str(uuid.uuid4()))
                self.send_header("transfer-encoding", "chunked")
                self.end_headers()
                data = b"".join(frames)
                server.sent.append(data)
                for start in range(0, len(data), SEND_SIZE):
                    piece = data[start : start + SEND_SIZE]
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                    self.wfile.flush()
                    time.sleep(0.001)
                self.wfile.write(b"0\r\n\r\n")

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
