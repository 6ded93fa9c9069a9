"""The fake's Cohere v2 and Ollama routes answer in shapes the real cohere and ollama SDKs
parse, sync and async, plain and streamed."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import cohere
import ollama
import pytest

from replay.tools.fakellm import FakeLLMServer, tokens

KEY = "sk-test-abc123def456ghi789"
USER: Any = [{"role": "user", "content": "hello there"}]
ANSWER = "Answer to: hello there"
# The cohere SDK reads pydantic's deprecated __fields__ while parsing its answers.
cohere_parses = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeLLMServer]:
    # The ollama SDK would send this key if set; the Ollama route must do without one.
    monkeypatch.delenv("OLLAMA_API_KEY", raising=False)
    with FakeLLMServer(api_key=KEY, chunk_delay=0.001) as running:
        yield running


def _cohere_text(events: list[cohere.V2ChatStreamResponse]) -> list[str]:
    """The text of each content-delta event, in order."""
    return [
        event.delta.message.content.text or ""
        for event in events
        if isinstance(event, cohere.ContentDeltaV2ChatStreamResponse)
        and event.delta
        and event.delta.message
        and event.delta.message.content
    ]


def _cohere_reply_text(reply: Any) -> str:
    return "".join(item.text for item in reply.message.content or [] if item.type == "text")


# --- Cohere v2 chat ----------------------------------------------------------------------


@cohere_parses
def test_cohere_chat(server: FakeLLMServer) -> None:
    client = cohere.ClientV2(api_key=KEY, base_url=server.url)
    first = client.chat(model="command-a", messages=USER)
    second = client.chat(model="command-a", messages=USER)
    assert _cohere_reply_text(first) == ANSWER
    assert first.finish_reason == "COMPLETE"
    assert first.usage is not None and first.usage.tokens is not None
    assert first.usage.tokens.output_tokens == len(tokens(ANSWER))
    assert first.id != second.id  # fresh per call, like a real generation id
    assert server.requests[-1].path == "/v2/chat"


@cohere_parses
def test_cohere_chat_stream(server: FakeLLMServer) -> None:
    client = cohere.ClientV2(api_key=KEY, base_url=server.url)
    events = list(client.chat_stream(model="command-a", messages=USER))
    assert [event.type for event in events] == [
        "message-start",
        "content-start",
        *["content-delta"] * len(tokens(ANSWER)),
        "content-end",
        "message-end",
    ]
    assert _cohere_text(events) == tokens(ANSWER)
    end = events[-1]
    assert isinstance(end, cohere.MessageEndV2ChatStreamResponse) and end.delta
    assert end.delta.finish_reason == "COMPLETE"


@cohere_parses
async def test_cohere_async_chat_and_stream(server: FakeLLMServer) -> None:
    client = cohere.AsyncClientV2(api_key=KEY, base_url=server.url)
    reply = await client.chat(model="command-a", messages=USER)
    assert _cohere_reply_text(reply) == ANSWER
    events = [event async for event in client.chat_stream(model="command-a", messages=USER)]
    assert _cohere_text(events) == tokens(ANSWER)


@cohere_parses
def test_cohere_long_prompt_in_v2_stops_at_max_tokens(server: FakeLLMServer) -> None:
    server.model_version = "v2"
    client = cohere.ClientV2(api_key=KEY, base_url=server.url)
    long: Any = [{"role": "user", "content": "a long one"}]
    reply = client.chat(model="command-a", messages=long)
    assert reply.finish_reason == "MAX_TOKENS"


def test_cohere_wrong_key_raises_unauthorized_with_cohere_error_body(
    server: FakeLLMServer,
) -> None:
    client = cohere.ClientV2(api_key="co-wrong-key", base_url=server.url)
    with pytest.raises(cohere.UnauthorizedError) as raised:
        client.chat(model="command-a", messages=USER)
    assert raised.value.status_code == 401
    assert raised.value.body == {"message": "Incorrect API key provided: co-wrong-key."}


# --- Ollama chat -------------------------------------------------------------------------


def test_ollama_chat_needs_no_key(server: FakeLLMServer) -> None:
    reply = ollama.Client(host=server.url).chat(model="llama3.2", messages=USER, stream=False)
    assert reply.message.role == "assistant" and reply.message.content == ANSWER
    assert reply.done is True and reply.done_reason == "stop"
    assert reply.eval_count == len(tokens(ANSWER)) and reply.prompt_eval_count == 2
    assert reply.total_duration and reply.eval_duration and reply.load_duration
    assert reply.created_at is not None
    assert datetime.fromisoformat(reply.created_at).utcoffset() == timedelta(0)
    assert "authorization" not in server.requests[-1].headers


def test_ollama_chat_stream(server: FakeLLMServer) -> None:
    parts = list(ollama.Client(host=server.url).chat(model="llama3.2", messages=USER, stream=True))
    *pieces, final = parts
    assert [part.message.content for part in pieces] == tokens(ANSWER)
    assert not any(part.done for part in pieces)
    assert final.done is True and final.done_reason == "stop" and final.message.content == ""
    assert final.eval_count == len(pieces)
    assert all(part.model == "llama3.2" for part in parts)


async def test_ollama_async_chat_plain_and_streamed(server: FakeLLMServer) -> None:
    client = ollama.AsyncClient(host=server.url)
    reply = await client.chat(model="llama3.2", messages=USER, stream=False)
    assert reply.message.content == ANSWER
    stream = await client.chat(model="llama3.2", messages=USER, stream=True)
    contents = [part.message.content async for part in stream]
    assert contents == [*tokens(ANSWER), ""]


def test_ollama_errors_take_ollama_shape(server: FakeLLMServer) -> None:
    client = ollama.Client(host=server.url)
    with pytest.raises(ollama.ResponseError) as raised:
        client.chat(model="error-429", messages=USER)
    assert raised.value.status_code == 429
    assert raised.value.error == "You are sending requests too quickly."
