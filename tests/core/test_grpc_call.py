"""The pure parts of gRPC calls: the URL a call is keyed by, and what ``show`` reads of it."""

from __future__ import annotations

import pytest

from replay._core.answers import answer_of
from replay._core.grpc_call import call_url
from replay._core.key import KeyRules, request_key
from replay._core.model import Frame, GrpcCall, Request


@pytest.mark.parametrize(
    ("target", "url"),
    [
        ("api.x.ai", "grpc://api.x.ai:443/xai_api.Chat/GetCompletion"),
        ("api.x.ai:443", "grpc://api.x.ai:443/xai_api.Chat/GetCompletion"),
        ("dns:///api.x.ai:443", "grpc://api.x.ai:443/xai_api.Chat/GetCompletion"),
        ("dns://8.8.8.8/api.x.ai", "grpc://api.x.ai:443/xai_api.Chat/GetCompletion"),
        ("127.0.0.1:50051", "grpc://127.0.0.1:50051/xai_api.Chat/GetCompletion"),
        ("ipv4:127.0.0.1:50051", "grpc://127.0.0.1:50051/xai_api.Chat/GetCompletion"),
        ("[::1]:50051", "grpc://[::1]:50051/xai_api.Chat/GetCompletion"),
        ("[::1]", "grpc://[::1]:443/xai_api.Chat/GetCompletion"),
        ("unix:/tmp/grpc.sock", "grpc://localhost:443/xai_api.Chat/GetCompletion"),
    ],
)
def test_a_call_is_keyed_by_its_target_and_method_path(target: str, url: str) -> None:
    assert call_url(target, "/xai_api.Chat/GetCompletion") == url


def test_the_json_view_keys_whatever_the_field_order() -> None:
    url = call_url("api.x.ai", "/xai_api.Chat/GetCompletion")
    one = Request("POST", url, (), b'{"model":"grok-4","n":1}')
    other = Request("POST", url, (), b'{"n":1,"model":"grok-4"}')
    rules = KeyRules()
    assert request_key(one, rules) == request_key(other, rules)
    assert request_key(one, KeyRules(ignore=("n",))) == request_key(
        Request("POST", url, (), b'{"model":"grok-4","n":2}'), KeyRules(ignore=("n",))
    )


def test_show_reads_xais_answers_and_a_status_as_the_error() -> None:
    whole = b'{"outputs":[{"finish_reason":"REASON_STOP","message":{"content":"Hi"}}],'
    whole += b'"model":"grok-4","usage":{"prompt_tokens":5,"completion_tokens":1}}'
    answer = answer_of(
        GrpcCall((Frame(whole, 0.0, False, True),), (), (), "OK", "", "", "x.Response")
    )
    assert (answer.status, answer.text, answer.finish_reason, answer.model) == (
        200,
        "Hi",
        "REASON_STOP",
        "grok-4",
    )
    assert (answer.usage.prompt_tokens, answer.usage.completion_tokens) == (5, 1)
    chunks = tuple(
        Frame(b'{"outputs":[{"delta":{"content":"%s"}}]}' % word, 0.0, False, True)
        for word in (b"Hel", b"lo")
    )
    streamed = answer_of(GrpcCall(chunks, (), (), "OK", "", "", "x.Chunk"))
    assert (streamed.text, streamed.streamed) == ("Hello", True)
    failed = answer_of(GrpcCall((), (), (), "UNAUTHENTICATED", "bad key", ""))
    assert (failed.status, failed.error) == (401, "UNAUTHENTICATED: bad key")
