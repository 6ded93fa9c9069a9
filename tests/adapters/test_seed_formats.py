"""The provider formats of the seeds (../shared/seeds) that no SDK test covers, through raw
httpx and httpx2 clients: recorded from the real server on 127.0.0.1, replayed with it stopped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from conftest import StoppedServer, masked

import replay
from replay.tools.fakellm import FakeLLMServer

Exchange = Callable[[Any], Any]
"""What a test does with an httpx or httpx2 client; its result is compared across runs."""

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def record_then_replay(
    library: ModuleType,
    server: FakeLLMServer,
    server_gone: Callable[[], StoppedServer],
    path: Path,
    exchange: Exchange,
    headers: dict[str, str] | None = None,
) -> tuple[Any, Any]:
    """``exchange`` once recording through ``server``, once replaying with it stopped."""
    auth = headers if headers is not None else {"authorization": f"Bearer {server.api_key}"}

    def run(mode: str) -> Any:
        with replay.Cassette(path, mode=mode) as cassette:
            transport = replay.ReplayTransport(cassette)
            with library.Client(transport=transport, base_url=server.url, headers=auth) as client:
                return exchange(client)

    recorded = run("once")
    stopped = server_gone()
    replayed = run("none")
    stopped.assert_untouched()
    return recorded, replayed


def stored_responses(path: Path) -> list[dict[str, Any]]:
    interactions = json.loads(path.read_bytes())["interactions"].values()
    return [response for entry in interactions for response in entry["responses"]]


def test_lighton_paradigm(
    library: ModuleType, llm_env: FakeLLMServer, server_gone: Any, cassette_path: Path
) -> None:
    body = {"text": "Il était une fois", "model": "lyra-fr", "n_tokens": 20}

    def exchange(client: Any) -> Any:
        return client.post("/lighton/api/v1/generate", json=body).json()

    recorded, replayed = record_then_replay(
        library,
        llm_env,
        server_gone,
        cassette_path,
        exchange,
        headers={"x-api-key": llm_env.api_key},
    )
    assert UUID.fullmatch(replayed["request_id"])
    assert replayed["request_id"] == recorded["request_id"]  # recording looks like replay
    assert {k: v for k, v in replayed.items() if k != "request_id"} == {
        k: v for k, v in recorded.items() if k != "request_id"
    }
    output = replayed["outputs"][0][0]
    assert output["completions"][0]["output_text"] == "Answer to: Il était une fois"
    assert output["execution_metadata"]["cost"]["cost_type"] == "lyra-fr@default"
    stored = cassette_path.read_text(encoding="utf-8")
    assert replayed["request_id"] in stored and "Il était une fois" in stored
    assert '"x-api-key": "REDACTED"' in stored


def test_ai21_j2_complete(
    library: ModuleType, llm_env: FakeLLMServer, server_gone: Any, cassette_path: Path
) -> None:
    body = {"prompt": "These are a few of my favorite", "numResults": 2, "maxTokens": 30}

    def exchange(client: Any) -> Any:
        return client.post("/studio/v1/j2-mid/complete", json=body).json()

    recorded, replayed = record_then_replay(library, llm_env, server_gone, cassette_path, exchange)
    assert UUID.fullmatch(replayed["id"]) and replayed["id"] == recorded["id"]
    assert replayed["prompt"] == recorded["prompt"]
    assert replayed["prompt"]["tokens"][0]["generatedToken"]["token"] == "These"
    assert replayed["completions"] == recorded["completions"]
    assert replayed["completions"][0]["finishReason"] == {"reason": "endoftext"}


def test_openai_chat_with_logprobs(
    library: ModuleType, llm_env: FakeLLMServer, server_gone: Any, cassette_path: Path
) -> None:
    body = {
        "model": "gpt-3.5-turbo-16k-0613",
        "messages": [{"role": "user", "content": "How are you today?"}],
        "logprobs": True,
    }

    def exchange(client: Any) -> Any:
        return client.post("/v1/chat/completions", json=body).json()

    recorded, replayed = record_then_replay(library, llm_env, server_gone, cassette_path, exchange)
    assert masked(replayed) == masked(recorded)
    assert replayed["choices"][0]["logprobs"] == recorded["choices"][0]["logprobs"]
    assert [t["logprob"] for t in replayed["choices"][0]["logprobs"]["content"]] == [
        -0.7,
        -0.4,
        -0.4,
        -0.4,
        -0.4,
        -0.7,
    ]
    assert replayed["created"] == 1000000000 == recorded["created"]
    assert replayed["model"] == "gpt-3.5-turbo-16k-0613"
    fingerprint = replayed["system_fingerprint"]
    assert re.fullmatch(r"fp_[0-9a-f]{10}", fingerprint)
    assert fingerprint == recorded["system_fingerprint"]


def test_openai_compatible_stream_with_usage_last_and_done(
    library: ModuleType, llm_env: FakeLLMServer, server_gone: Any, cassette_path: Path
) -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "count to three"}]}

    def exchange(client: Any) -> Any:
        with client.stream("POST", "/v1/chat/completions", json={**body, "stream": True}) as r:
            return [r.headers["content-type"], list(r.iter_raw())]

    recorded, replayed = record_then_replay(library, llm_env, server_gone, cassette_path, exchange)
    content_type, chunks = replayed
    assert content_type.startswith("text/event-stream")
    assert [len(chunk) for chunk in chunks] == [len(chunk) for chunk in recorded[1]]
    assert masked(chunks) == masked(recorded[1])
    events = [line.removeprefix(b"data: ") for line in b"".join(chunks).split(b"\n\n") if line]
    assert events[-1] == b"[DONE]"
    parsed = [json.loads(event) for event in events[:-1]]
    assert [p["usage"] is None for p in parsed] == [True] * (len(parsed) - 1) + [False]
    assert parsed[-1]["usage"]["completion_tokens"] == 5
    assert len({p["id"] for p in parsed}) == 1
    text = "".join(p["choices"][0]["delta"].get("content") or "" for p in parsed)
    assert text == "Answer to: count to three"


ERROR_CODES = (401, 403, 422, 429, 500, 503)


def test_error_codes_and_retry_after(
    library: ModuleType, llm_env: FakeLLMServer, server_gone: Any, cassette_path: Path
) -> None:
    def exchange(client: Any) -> Any:
        answers = []
        for code in ERROR_CODES:
            body = {"model": f"error-{code}", "messages": [{"role": "user", "content": "hi"}]}
            response = client.post("/v1/chat/completions", json=body)
            answers.append(
                (response.status_code, response.headers.get("retry-after"), response.json())
            )
        return answers

    recorded, replayed = record_then_replay(library, llm_env, server_gone, cassette_path, exchange)
    assert replayed == recorded
    assert [status for status, _, _ in replayed] == list(ERROR_CODES)
    retry_after = {status: value for status, value, _ in replayed}
    assert retry_after == {401: None, 403: None, 422: None, 429: "1", 500: None, 503: "1"}
    messages = {status: body["error"]["message"] for status, _, body in replayed}
    assert messages[429] == "You are sending requests too quickly."
    assert messages[503] == "The engine is currently overloaded, please try again later."
    assert sorted(r["status"] for r in stored_responses(cassette_path)) == list(ERROR_CODES)


def test_workflowai_feedback_token_duration_and_cost(
    library: ModuleType, llm_env: FakeLLMServer, server_gone: Any, cassette_path: Path
) -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "rate this answer"}]}

    def exchange(client: Any) -> Any:
        return client.post("/workflowai/v1/chat/completions", json=body).json()

    recorded, replayed = record_then_replay(library, llm_env, server_gone, cassette_path, exchange)
    real, fake = recorded["choices"][0], replayed["choices"][0]
    # A token by its name: the caller gets it while recording, the disk and the replay never.
    assert real["feedback_token"].startswith("fb_") and fake["feedback_token"] == "REDACTED"
    assert real["feedback_token"] not in cassette_path.read_text()
    assert fake["duration_seconds"] == 1.0  # one fixed number, whatever the width of the real one
    assert fake["cost_usd"] == real["cost_usd"]
    assert fake["message"] == real["message"]
    assert masked(replayed) == masked(recorded)


def test_gzip_response_is_stored_decoded(
    library: ModuleType, llm_env: FakeLLMServer, server_gone: Any, cassette_path: Path
) -> None:
    body = {"model": "gzip", "messages": [{"role": "user", "content": "compress me"}]}

    def exchange(client: Any) -> Any:
        headers = {"accept-encoding": "gzip"}
        with client.stream("POST", "/v1/chat/completions", json=body, headers=headers) as r:
            raw = b"".join(r.iter_raw())
            return [r.headers.get("content-encoding"), json.loads(raw)]

    recorded, replayed = record_then_replay(library, llm_env, server_gone, cassette_path, exchange)
    assert "gzip" in llm_env.requests[0].headers["accept-encoding"]  # so the server gzipped
    # The caller is handed the decoded body both times, without a content-encoding to undo.
    assert recorded[0] is None and replayed[0] is None
    assert masked(replayed[1]) == masked(recorded[1])
    assert replayed[1]["choices"][0]["message"]["content"] == "Answer to: compress me"
    (stored,) = stored_responses(cassette_path)
    assert stored["body"]["json"]["choices"][0]["message"]["content"] == "Answer to: compress me"
    assert "content-encoding" not in stored["headers"]


SEED_CALLS = {
    "lighton": ("/lighton/api/v1/generate", {"text": "Il était une fois", "model": "lyra-fr"}),
    "ai21": ("/studio/v1/j2-mid/complete", {"prompt": "These are a few", "numResults": 2}),
    "openai logprobs": (
        "/v1/chat/completions",
        {"model": "m", "messages": [{"role": "user", "content": "hi"}], "logprobs": True},
    ),
    "openai stream": (
        "/v1/chat/completions",
        {"model": "m", "messages": [{"role": "user", "content": "count"}], "stream": True},
    ),
    "workflowai": (
        "/workflowai/v1/chat/completions",
        {"model": "m", "messages": [{"role": "user", "content": "rate this answer"}]},
    ),
}


@pytest.mark.parametrize("seed", SEED_CALLS)
def test_recording_a_seed_format_again_gives_the_same_bytes(
    library: ModuleType, llm_env: FakeLLMServer, cassette_path: Path, seed: str
) -> None:
    """The fake answers with fresh ids, times and durations of random widths each call (and in
    ``json.dumps`` spacing, so bodies are kept byte for byte): a cassette re-recorded from it
    must not change, or every recording of these APIs churns (issue 23)."""
    path, body = SEED_CALLS[seed]
    headers = {"authorization": f"Bearer {llm_env.api_key}", "x-api-key": llm_env.api_key}

    def record(mode: str) -> bytes:
        with replay.Cassette(cassette_path, mode=mode) as cassette:
            transport = replay.ReplayTransport(cassette)
            with library.Client(transport=transport, base_url=llm_env.url, headers=headers) as c:
                c.post(path, json=body).read()
        return cassette_path.read_bytes()

    once = record("once")
    for _ in range(5):
        assert record("all") == once
