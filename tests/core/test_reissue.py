"""Recorded requests made ready to send again: models in bodies and URL paths, settings,
hosts, keys, and conversations ordered by the ids they send back."""

from __future__ import annotations

import orjson
import pytest

from replay._core import reissue
from replay._core.model import Chunk, Interaction, Request, Response

JSON = (("content-type", "application/json"),)


def post(url: str, body: object, headers: tuple[tuple[str, str], ...] = JSON) -> Request:
    return Request("POST", url, headers, orjson.dumps(body))


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        # Gemini (google-genai), AI21 J2 (ai21 SDK), Bedrock runtime: the model in the path.
        (
            "https://generativelanguage.googleapis.com/v1beta/models/gemini-1.5-pro:generateContent",
            "https://generativelanguage.googleapis.com/v1beta/models/new-model:generateContent",
        ),
        (
            "https://api.ai21.com/studio/v1/j2-mid/complete",
            "https://api.ai21.com/studio/v1/new-model/complete",
        ),
        (
            "https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-v2/invoke",
            "https://bedrock-runtime.us-east-1.amazonaws.com/model/new-model/invoke",
        ),
        (
            "https://api.ai21.com/studio/v1/chat/completions",
            "https://api.ai21.com/studio/v1/chat/completions",
        ),
    ],
)
def test_with_model_changes_the_model_named_in_the_path(url: str, expected: str) -> None:
    changed = reissue.with_model(post(url, {"prompt": "hi"}), "new-model")
    assert changed.url == expected
    assert orjson.loads(changed.body) == {"prompt": "hi"}


def test_with_model_changes_the_body_field_and_keeps_an_untouched_body_byte_for_byte() -> None:
    request = post("https://api.openai.com/v1/chat/completions", {"model": "a", "messages": []})
    assert orjson.loads(reissue.with_model(request, "b").body) == {"model": "b", "messages": []}
    raw = Request("POST", "https://x.test/v1/files", (), b'  {"purpose": 1}')
    assert reissue.with_model(raw, "b") == raw
    assert reissue.model_requested(post("https://api.ai21.com/studio/v1/j2-ultra/complete", {}))
    assert reissue.model_requested(raw) is None


def test_settings_parse_as_json_else_as_text_and_make_missing_objects() -> None:
    assert reissue.parse_setting("temperature=0") == ("temperature", 0)
    assert reissue.parse_setting('stop=["x"]') == ("stop", ["x"])
    assert reissue.parse_setting("user=alice") == ("user", "alice")
    assert reissue.parse_setting('user="42"') == ("user", "42")
    with pytest.raises(ValueError, match="PATH=VALUE"):
        reissue.parse_setting("temperature")
    with pytest.raises(ValueError, match="not a JSON path"):
        reissue.parse_setting("a..b=1")
    request = post("https://x.test/v1/chat", {"messages": [{"role": "user"}, {"role": "x"}]})
    changed = reissue.with_setting(request, "messages[*].name", "n")
    changed = reissue.with_setting(changed, "metadata.run.id", 7)
    assert orjson.loads(changed.body) == {
        "messages": [{"role": "user", "name": "n"}, {"role": "x", "name": "n"}],
        "metadata": {"run": {"id": 7}},
    }


def test_upstream_and_credentials() -> None:
    stored = Request(
        "POST",
        "https://api.openai.com/v1/chat/completions?key=REDACTED&x=1",
        (
            ("authorization", "REDACTED"),
            ("x-api-key", "REDACTED"),
            ("cookie", "REDACTED"),
            ("host", "api.openai.com"),
            ("content-length", "2"),
            ("user-agent", "sdk"),
        ),
        b"{}",
    )
    assert reissue.needs_credential(stored)
    moved = reissue.with_upstream(stored, "http://127.0.0.1:9000/gateway/")
    assert moved.url == "http://127.0.0.1:9000/gateway/v1/chat/completions?key=REDACTED&x=1"
    ready = reissue.with_credential(moved, "sk-real")
    assert ready.headers == (
        ("authorization", "Bearer sk-real"),
        ("x-api-key", "sk-real"),
        ("user-agent", "sdk"),
    )
    assert ready.url.endswith("?key=sk-real&x=1")
    assert not reissue.needs_credential(Request("GET", "http://localhost:11434/api/tags", (), b""))


def answer(body: object, at: str) -> Response:
    return Response(200, JSON, (Chunk(orjson.dumps(body), 0.0),), at)


def test_conversations_follow_the_ids_sent_back_whatever_the_recorded_dates() -> None:
    url = "https://api.openai.com/v1/responses"
    first = Interaction(
        "k1",
        post(url, {"input": "a"}),
        [answer({"id": "resp_Ab12Cd34Ef56", "object": "response"}, "2024-01-01T00:00:05Z")],
    )
    second = Interaction(
        "k0",
        post(url, {"input": "b", "previous_response_id": "resp_Ab12Cd34Ef56"}),
        [
            answer(
                {"id": "resp_Zz98Yy76Xx54", "previous_response_id": "resp_Ab12Cd34Ef56"},
                "2024-01-01T00:00:05Z",
            )
        ],
    )
    alone = Interaction(
        "k2",
        post(url, {"input": "c"}),
        [answer({"id": "resp_Qq11Ww22Ee33"}, "2024-01-01T00:00:01Z")],
    )
    chains = reissue.conversations([second, alone, first])
    assert [[i.key for i in chain] for chain in chains] == [["k2"], ["k1", "k0"]]
    pairs = reissue.issued_pairs(
        first, orjson.dumps({"id": "resp_Real0000001x", "object": "response"})
    )
    assert pairs == {b"resp_Ab12Cd34Ef56": b"resp_Real0000001x"}
    sent = reissue.translated(second.request, pairs)
    assert orjson.loads(sent.body)["previous_response_id"] == "resp_Real0000001x"
