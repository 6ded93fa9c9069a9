"""gRPC calls in the cassette file: written readable, read back exactly, and a malformed one a
CassetteError naming the interaction."""

from __future__ import annotations

from typing import Any

import pytest

from replay import CassetteError
from replay._core.model import Frame, GrpcCall, Interaction, Request
from replay._store import cassette_file as store

CALL_REQUEST = Request(
    "POST", "grpc://api.x.ai:443/xai_api.Chat/GetCompletion", (), b'{"model":"grok-4"}'
)
ANSWER = GrpcCall(
    messages=(
        Frame(b'{"id":"a","outputs":[]}', 0.01, from_client=False, text=True),
        Frame(b"\x0a\x01b", 0.02, from_client=False, text=False),
        Frame(b'{"text":"x"}', 0.005, from_client=True, text=True),
    ),
    initial_metadata=(("x-request-id", "r1"), ("x-trace-bin", "\x00\xff")),
    trailing_metadata=(("x-reason", "gone"), ("x-reason", "again")),
    code="NOT_FOUND",
    details="no such thing",
    recorded_at="2026-12-02T00:00:00Z",
    response_type="xai_api.GetChatCompletionResponse",
    complete=False,
)


def test_a_call_is_written_readable_and_read_back_as_it_was() -> None:
    entry = store.encode(Interaction("k", CALL_REQUEST, [ANSWER]))
    (answer,) = entry["responses"]
    assert answer["complete"] is False
    grpc = answer["grpc"]
    assert (grpc["code"], grpc["details"]) == ("NOT_FOUND", "no such thing")
    assert grpc["response_type"] == "xai_api.GetChatCompletionResponse"
    assert grpc["initial_metadata"] == [["x-request-id", "r1"], ["x-trace-bin", "AP8="]]
    assert grpc["trailing_metadata"] == [["x-reason", "gone"], ["x-reason", "again"]]
    assert grpc["messages"] == [
        {"at": 0.01, "from": "server", "json": {"id": "a", "outputs": []}},
        {"at": 0.02, "from": "server", "base64": "CgFi"},
        {"at": 0.005, "from": "client", "json": {"text": "x"}},
    ]
    document = store.dump({"k": entry})
    (decoded,) = store.decode("c.json", "k", store.parse("c.json", document)["k"]).outcomes
    assert decoded == ANSWER


def _entry(url: str = CALL_REQUEST.url, **grpc: Any) -> dict[str, Any]:
    answer = {"code": "OK", "messages": [], **grpc}
    return {
        "request": {"method": "POST", "url": url},
        "responses": [{"grpc": answer, "recorded_at": ""}],
    }


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        (_entry("https://api.x.ai/v1/chat"), "a request that is no gRPC call"),
        (_entry(code=7), "expected a string"),
        (_entry(messages=[{"from": "both", "json": {}}]), "from client or server"),
        (_entry(messages=[{"from": "server"}]), "neither json nor base64"),
        (_entry(initial_metadata=[["x-bin", "not base64!"]]), "k is malformed"),
        (_entry(initial_metadata={"a": "b"}), "expected a list"),
    ],
)
def test_a_malformed_call_is_an_error_naming_the_interaction(
    entry: dict[str, Any], said: str
) -> None:
    with pytest.raises(CassetteError, match="interaction k is malformed") as raised:
        store.decode_outcomes("c.json", "k", entry)
    assert said in str(raised.value)


def test_an_http_answer_to_a_grpc_call_is_an_error() -> None:
    entry = {
        "request": {"method": "POST", "url": CALL_REQUEST.url},
        "responses": [{"status": 200, "recorded_at": ""}],
    }
    with pytest.raises(CassetteError, match="has an answer that is not a gRPC one"):
        store.decode_outcomes("c.json", "k", entry)
