"""The fake's Cohere v2 route answers in shapes the real cohere SDK parses, sync and async,
plain and streamed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import cohere
import pytest

from replay.tools.fakellm import FakeLLMServer, tokens

KEY = "sk-test-abc123def456ghi789"
USER: Any = [{"role": "user", "content": "hello there"}]
ANSWER = "Answer to: hello there"
# The cohere SDK reads pydantic's deprecated __fields__ while parsing its answers.
cohere_parses = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
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
