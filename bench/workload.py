"""The benchmark workload: OpenAI-style chat calls, and the same recordings in each tool's format.

Every request is a chat completion body of realistic size, 1 to 4 KB: a system
prompt and a few turns of conversation before the last user message, all
different per request; every answer is a ~1.5 KB chat completion. Streams are
300 server-sent events. The three contenders replay exactly the same data:
this project from its JSON cassette, vcrpy from its YAML cassette, and the
floor from a dict keyed by a hash of the request body.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import orjson

from replay import Cassette
from replay._cassette import Record
from replay._core import model

URL = "http://bench.invalid/v1/chat/completions"
API_KEY = "sk-bench-0123456789abcdefghijklmnop"
REQUEST_HEADERS = {
    "authorization": f"Bearer {API_KEY}",
    "content-type": "application/json",
    "accept": "application/json",
}
RESPONSE_HEADERS = (("content-type", "application/json"), ("x-request-id", "req_0123456789abcdef"))
STREAM_HEADERS = (("content-type", "text/event-stream"),)
STREAM_CHUNKS = 300
Header = tuple[str, str]
_WORDS = tuple(
    [
        "model",
        "latency",
        "token",
        "stream",
        "cassette",
        "replay",
        "record",
        "prompt",
        "answer",
        "vector",
        "tensor",
        "gradient",
        "batch",
        "epoch",
        "layer",
        "weight",
        "bias",
        "cache",
        "queue",
        "socket",
        "buffer",
        "parser",
        "schema",
    ]
)


def prompt(index: int, length: int = 500) -> str:
    """``length`` characters of text, different for every index, the same on every run."""
    rng = random.Random(index)
    words = [f"#{index}", *(rng.choice(_WORDS) for _ in range(length // 4))]
    return " ".join(words)[:length]


def request_body(index: int, stream: bool = False) -> bytes:
    """A system prompt and one to three earlier turns before the last question: 1 to 4 KB.

    The last message starts with ``#index`` (the loopback server answers by it).
    """
    rng = random.Random(index)
    turns = rng.randint(1, 3)
    messages = [{"role": "system", "content": prompt(-index - 1, rng.randint(400, 900))}]
    for turn in range(turns):
        messages.append({"role": "user", "content": prompt(index * 7 + turn, rng.randint(80, 300))})
        messages.append(
            {"role": "assistant", "content": prompt(index * 7 + turn + 3, rng.randint(150, 550))}
        )
    messages.append({"role": "user", "content": prompt(index, rng.randint(100, 400))})
    return orjson.dumps(
        {
            "model": "gpt-4o-mini",
            "messages": messages,
            "temperature": 0.2,
            "max_tokens": 256,
            "stream": stream,
        }
    )


def response_body(index: int) -> bytes:
    rng = random.Random(-index - 1)
    content = " ".join(rng.choice(_WORDS) for _ in range(150))[:1000]
    return orjson.dumps(
        {
            "id": f"chatcmpl-{hashlib.sha256(str(index).encode()).hexdigest()[:29]}",
            "object": "chat.completion",
            "created": 1700000000 + index,
            "model": "gpt-4o-mini-2024-07-18",
            "system_fingerprint": "fp_0123456789",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content, "refusal": None},
                    "logprobs": None,
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 131, "completion_tokens": 210, "total_tokens": 341},
        }
    )


def stream_chunks(count: int = STREAM_CHUNKS) -> list[bytes]:
    """``count`` server-sent events of one streamed chat completion, the last one [DONE]."""
    events = [
        b"data: "
        + orjson.dumps(
            {
                "id": "chatcmpl-stream0123456789",
                "object": "chat.completion.chunk",
                "created": 1700000000,
                "model": "gpt-4o-mini",
                "choices": [{"index": 0, "delta": {"content": f" token{i}"}}],
            }
        )
        + b"\n\n"
        for i in range(count - 1)
    ]
    return [*events, b"data: [DONE]\n\n"]


def body_hash(body: bytes) -> str:
    return hashlib.blake2b(body, digest_size=16).hexdigest()


@dataclass(frozen=True)
class Call:
    body: bytes
    answer: bytes


def calls(n: int) -> list[Call]:
    return [Call(request_body(i), response_body(i)) for i in range(n)]


def _model_request(body: bytes) -> model.Request:
    return model.Request("POST", URL, tuple(REQUEST_HEADERS.items()), body)


def write_replay_cassette(path: Path, pairs: Iterable[tuple[bytes, model.Response]]) -> None:
    """Record through the cassette's own path (redaction, normalization, one atomic save)."""
    path.unlink(missing_ok=True)
    with Cassette(path, "new_episodes") as cassette:
        for body, response in pairs:
            decision = cassette.decide(_model_request(body))
            if not isinstance(decision, Record):
                raise RuntimeError(f"{path}: request recorded twice")
            cassette.add(decision, response)


def answer(call: Call) -> model.Response:
    return model.Response(200, RESPONSE_HEADERS, (model.Chunk(call.answer, 0.05),), "2024")


def stream_answer(chunks: list[bytes]) -> model.Response:
    timed = tuple(model.Chunk(data, 0.001 * i) for i, data in enumerate(chunks))
    return model.Response(200, STREAM_HEADERS, timed, "2024")


def write_vcr_cassette(
    path: Path, pairs: Iterable[tuple[bytes, bytes, tuple[Header, ...]]]
) -> None:
    """The same recordings as vcrpy itself saves them (its serializer, its YAML dumper)."""
    from vcr.request import Request as VcrRequest
    from vcr.serialize import serialize
    from vcr.serializers import yamlserializer

    requests, responses = [], []
    for body, answer_body, headers in pairs:
        requests.append(VcrRequest("POST", URL, body, REQUEST_HEADERS))
        responses.append(
            {
                "status": {"code": 200, "message": "OK"},
                "headers": {name: [value] for name, value in headers},
                "body": {"string": answer_body},
            }
        )
    data = serialize({"requests": requests, "responses": responses}, yamlserializer)
    path.write_text(data)


def write_cassetter_cassette(path: Path, calls: Iterable[Call]) -> None:
    """The same recordings as cassetter saves them (its own Rust writer), headers it keeps."""
    from cassetter._core import Cassette as CassetterCassette
    from cassetter._core import HttpInteraction, HttpRequest, HttpResponse, process_body

    cassette = CassetterCassette()
    kept = {name: [value] for name, value in REQUEST_HEADERS.items() if name != "authorization"}
    answer_headers = {name: [value] for name, value in RESPONSE_HEADERS}
    for call in calls:
        request = HttpRequest("POST", URL, kept, process_body(call.body, "application/json"))
        body = process_body(call.answer, "application/json")
        response = HttpResponse(200, answer_headers, body)
        cassette.add_interaction(HttpInteraction(request, response, "2024-01-01T00:00:00Z"))
    cassette.save(str(path))
