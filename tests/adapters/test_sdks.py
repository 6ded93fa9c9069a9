"""The real SDKs record through a real server on 127.0.0.1, then replay with it stopped.

Each test runs the same conversation twice: once recording against
``llm_server``, once replaying with the server gone. The SDK-level results must
be equal apart from the normalized ids and times (see ``conftest.masked``), and
the server must see no request while replaying.
"""

from __future__ import annotations

import importlib.metadata
import json
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import ai21
import anthropic
import groq
import httpx
import httpx2
import openai
import pytest
from ai21.models.chat import UserMessage
from conftest import StoppedServer, cassette_bytes, masked

import replay
from replay.tools.fakellm import FakeLLMServer

ServerGone = Callable[[], StoppedServer]


def built_on(sdk: str) -> ModuleType:
    """The HTTP library the installed release of ``sdk`` takes as its ``http_client``: httpx2
    from openai 3 and anthropic 1 on, httpx before (``nox -s compat`` runs those lines too)."""
    requires = importlib.metadata.requires(sdk) or []
    built = (line for line in requires if "extra ==" not in line)  # openai 2's httpx2 extra
    return httpx2 if any(line.startswith("httpx2") for line in built) else httpx


OPENAI_HTTP = built_on("openai")
ANTHROPIC_HTTP = built_on("anthropic")


def user(text: str) -> Any:
    return [{"role": "user", "content": text}]


WEATHER_TOOL: Any = [
    {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}
]


def openai_client(url: str, cassette: replay.Cassette, api_key: str) -> openai.OpenAI:
    http = OPENAI_HTTP.Client(transport=replay.ReplayTransport(cassette))
    return openai.OpenAI(http_client=http, base_url=url + "/v1", api_key=api_key, max_retries=0)


def openai_async_client(url: str, cassette: replay.Cassette, api_key: str) -> openai.AsyncOpenAI:
    http = OPENAI_HTTP.AsyncClient(transport=replay.AsyncReplayTransport(cassette))
    return openai.AsyncOpenAI(
        http_client=http, base_url=url + "/v1", api_key=api_key, max_retries=0
    )


def chat_conversation(client: openai.OpenAI) -> list[Any]:
    plain = client.chat.completions.create(model="gpt-4o", messages=user("hello"), logprobs=True)
    stream = client.chat.completions.create(
        model="gpt-4o",
        messages=user("stream me a reply"),
        stream=True,
        stream_options={"include_usage": True},
    )
    chunks = [chunk.model_dump() for chunk in stream]
    tool = client.chat.completions.create(
        model="gpt-4o", messages=user("weather in Paris"), tools=WEATHER_TOOL
    )
    return [plain.model_dump(), chunks, tool.model_dump()]


async def async_chat_conversation(client: openai.AsyncOpenAI) -> list[Any]:
    plain = await client.chat.completions.create(
        model="gpt-4o", messages=user("hello"), logprobs=True
    )
    stream = await client.chat.completions.create(
        model="gpt-4o",
        messages=user("stream me a reply"),
        stream=True,
        stream_options={"include_usage": True},
    )
    chunks = [chunk.model_dump() async for chunk in stream]
    tool = await client.chat.completions.create(
        model="gpt-4o", messages=user("weather in Paris"), tools=WEATHER_TOOL
    )
    return [plain.model_dump(), chunks, tool.model_dump()]


def assert_same_conversation(recorded: list[Any], replayed: list[Any]) -> None:
    assert masked(replayed) == masked(recorded)
    plain, chunks, tool = replayed
    assert plain["choices"][0]["message"]["content"] == "Answer to: hello"
    assert [token["token"] for token in plain["choices"][0]["logprobs"]["content"]] == [
        "Answer",
        " to:",
        " hello",
    ]
    assert "".join(c["choices"][0]["delta"]["content"] or "" for c in chunks if c["choices"]) == (
        "Answer to: stream me a reply"
    )
    assert chunks[-1]["usage"]["completion_tokens"] == 6
    assert all(chunk["usage"] is None for chunk in chunks[:-1])
    call = tool["choices"][0]["message"]["tool_calls"][0]
    assert json.loads(call["function"]["arguments"]) == {"query": "weather in Paris"}


def assert_ids_are_placeholders(recorded: list[Any], replayed: list[Any], path: Path) -> None:
    """Recording handed the caller what replay hands out: the cassette's placeholders and
    fixed times, so a snapshot taken while recording holds on the first replay (issue 24)."""
    assert replayed == recorded
    stored = path.read_text()
    for answer in (replayed[0], replayed[2]):
        assert answer["id"].startswith("chatcmpl-") and answer["id"] in stored
        assert answer["created"] == 1000000000
    stream_ids = {chunk["id"] for chunk in replayed[1]}
    assert len(stream_ids) == 1 and stream_ids.pop() in stored
    assert {chunk["created"] for chunk in replayed[1]} == {1000000000}
    # The SDK closes the stream at `data: [DONE]`: read to its end, so stored as complete.
    assert '"complete": false' not in stored and '"complete": true' in stored


def test_openai_sync_records_and_replays_offline(
    llm_env: FakeLLMServer, cassette_path: Path, server_gone: ServerGone, api_key: str
) -> None:
    with replay.Cassette(cassette_path) as cassette:
        recorded = chat_conversation(openai_client(llm_env.url, cassette, api_key))
    assert cassette.recorded == 3 and len(llm_env.requests) == 3
    stopped = server_gone()

    with replay.Cassette(cassette_path) as cassette:
        replayed = chat_conversation(openai_client(llm_env.url, cassette, api_key))
    assert cassette.replayed == 3 and cassette.recorded == 0
    stopped.assert_untouched()
    assert_same_conversation(recorded, replayed)
    assert_ids_are_placeholders(recorded, replayed, cassette_path)


async def test_openai_async_records_and_replays_offline(
    llm_env: FakeLLMServer, cassette_path: Path, server_gone: ServerGone, api_key: str
) -> None:
    with replay.Cassette(cassette_path) as cassette:
        client = openai_async_client(llm_env.url, cassette, api_key)
        recorded = await async_chat_conversation(client)
    stopped = server_gone()

    with replay.Cassette(cassette_path) as cassette:
        client = openai_async_client(llm_env.url, cassette, api_key)
        replayed = await async_chat_conversation(client)
    assert cassette.replayed == 3
    stopped.assert_untouched()
    assert_same_conversation(recorded, replayed)
    assert_ids_are_placeholders(recorded, replayed, cassette_path)


async def test_use_cassette_routes_clients_made_before_the_block(
    llm_env: FakeLLMServer, cassette_path: Path, server_gone: ServerGone
) -> None:
    # Clients on the default transports, built before any cassette exists, key from the env.
    sync_client = openai.OpenAI(base_url=llm_env.url + "/v1", max_retries=0)
    async_client = openai.AsyncOpenAI(base_url=llm_env.url + "/v1", max_retries=0)

    with replay.use_cassette(cassette_path) as cassette:
        recorded = chat_conversation(sync_client)
        recorded_async = await async_chat_conversation(async_client)
    # The same requests twice: each key holds two responses, replayed in the order recorded.
    assert (cassette.recorded, cassette.replayed) == (6, 0)
    outside = sync_client.chat.completions.create(model="m", messages=user("not recorded"))
    assert outside.choices[0].message.content == "Answer to: not recorded"
    assert len(llm_env.requests) == 7
    stopped = server_gone()

    with replay.use_cassette(cassette_path, mode="none") as cassette:
        replayed = chat_conversation(sync_client)
        replayed_async = await async_chat_conversation(async_client)
    assert cassette.replayed == 6
    stopped.assert_untouched()
    assert_same_conversation(recorded, replayed)
    assert_same_conversation(recorded, replayed_async)
    assert masked(recorded_async) == masked(replayed_async)
    with pytest.raises(openai.APIConnectionError):
        sync_client.chat.completions.create(model="m", messages=user("hello"), logprobs=True)


# --- Anthropic (httpx2, httpx before 1.0) ------------------------------------------------


def anthropic_conversation(client: anthropic.Anthropic) -> list[Any]:
    args: Any = {"model": "claude-sonnet", "max_tokens": 64, "messages": user("hi claude")}
    plain = client.messages.create(**args)
    with client.messages.stream(**{**args, "messages": user("stream to me")}) as stream:
        text = list(stream.text_stream)
        final = stream.get_final_message()
    events = [event.model_dump() for event in client.messages.create(**args, stream=True)]
    return [plain.model_dump(), text, final.model_dump(), events]


def test_anthropic_plain_and_streams_replay_offline(
    llm_env: FakeLLMServer, cassette_path: Path, server_gone: ServerGone, api_key: str
) -> None:
    def client(cassette: replay.Cassette) -> anthropic.Anthropic:
        http = ANTHROPIC_HTTP.Client(transport=replay.ReplayTransport(cassette))
        return anthropic.Anthropic(
            http_client=http, base_url=llm_env.url, api_key=api_key, max_retries=0
        )

    with replay.Cassette(cassette_path) as cassette:
        recorded = anthropic_conversation(client(cassette))
    stopped = server_gone()
    with replay.Cassette(cassette_path, mode="none") as cassette:
        replayed = anthropic_conversation(client(cassette))
    stopped.assert_untouched()

    assert replayed == recorded  # ids and times: recording showed the placeholders replay does
    plain, text, final, events = replayed
    assert plain["content"][0]["text"] == "Answer to: hi claude"
    assert "".join(text) == "Answer to: stream to me" and len(text) == 5
    assert final["stop_reason"] == "end_turn" and final["usage"]["output_tokens"] == 5
    kinds = [e["type"] for e in events]
    assert kinds[:3] == ["message_start", "content_block_start", "content_block_delta"]
    assert kinds[-2:] == ["message_delta", "message_stop"]
    assert final["id"].startswith("msg_") and final["id"] in cassette_path.read_text()
    assert '"complete": false' not in cassette_path.read_text()  # closed at message_stop


# --- httpx-based SDKs: groq and ai21 ---------------------------------------------------


async def test_groq_sync_and_async_replay_offline(
    llm_env: FakeLLMServer, cassette_path: Path, server_gone: ServerGone, api_key: str
) -> None:
    async def conversation(cassette: replay.Cassette) -> list[Any]:
        sync = groq.Groq(
            http_client=httpx.Client(transport=replay.ReplayTransport(cassette)),
            base_url=llm_env.url,
            api_key=api_key,
            max_retries=0,
        )
        concurrent = groq.AsyncGroq(
            http_client=httpx.AsyncClient(transport=replay.AsyncReplayTransport(cassette)),
            base_url=llm_env.url,
            api_key=api_key,
            max_retries=0,
        )
        plain = sync.chat.completions.create(model="llama-3", messages=user("hi groq"))
        stream = sync.chat.completions.create(model="llama-3", messages=user("hi"), stream=True)
        chunks = [chunk.model_dump() for chunk in stream]
        async_plain = await concurrent.chat.completions.create(
            model="llama-3", messages=user("hi async groq")
        )
        async_stream = await concurrent.chat.completions.create(
            model="llama-3", messages=user("stream groq"), stream=True
        )
        async_chunks = [chunk.model_dump() async for chunk in async_stream]
        return [plain.model_dump(), chunks, async_plain.model_dump(), async_chunks]

    with replay.Cassette(cassette_path) as cassette:
        recorded = await conversation(cassette)
    stopped = server_gone()
    with replay.Cassette(cassette_path, mode="none") as cassette:
        replayed = await conversation(cassette)
    stopped.assert_untouched()

    assert masked(replayed) == masked(recorded)
    assert replayed[0]["choices"][0]["message"]["content"] == "Answer to: hi groq"
    assert replayed[2]["choices"][0]["message"]["content"] == "Answer to: hi async groq"
    streamed = "".join(c["choices"][0]["delta"]["content"] or "" for c in replayed[3])
    assert streamed == "Answer to: stream groq"
    assert "/openai/v1/chat/completions" in cassette_path.read_text()


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # raised inside the ai21 SDK
async def test_ai21_sync_and_async_through_use_cassette(
    llm_env: FakeLLMServer, cassette_path: Path, server_gone: ServerGone
) -> None:
    host = llm_env.url + "/studio/v1"

    async def conversation() -> list[Any]:
        messages: Any = [UserMessage(content="hi jamba")]
        sync = ai21.AI21Client(api_host=host, num_retries=0)
        concurrent = ai21.AsyncAI21Client(api_host=host, num_retries=0)
        plain = sync.chat.completions.create(model="jamba-mini", messages=messages)
        stream = sync.chat.completions.create(model="jamba-mini", messages=messages, stream=True)
        chunks = [chunk.model_dump() for chunk in stream]
        async_plain = await concurrent.chat.completions.create(
            model="jamba-large", messages=messages
        )
        return [plain.model_dump(), chunks, async_plain.model_dump()]

    with replay.use_cassette(cassette_path):
        recorded = await conversation()
    stopped = server_gone()
    with replay.use_cassette(cassette_path, mode="none") as cassette:
        replayed = await conversation()
    assert cassette.replayed == 3
    stopped.assert_untouched()

    assert masked(replayed) == masked(recorded)
    plain, chunks, async_plain = replayed
    assert plain["choices"][0]["message"]["content"] == "Answer to: hi jamba"
    assert "".join(c["choices"][0]["delta"]["content"] or "" for c in chunks) == (
        "Answer to: hi jamba"
    )
    assert async_plain["model"] == "jamba-large"
    # AI21 ids are UUIDs: the placeholder is a UUID too, the one recording showed.
    assert len(plain["id"]) == 36 and plain["id"].count("-") == 4
    assert plain["id"] == recorded[0]["id"] in cassette_path.read_text()


# --- Ids that chain from one call to the next ------------------------------------------


def responses_chain(client: openai.OpenAI) -> list[Any]:
    first = client.responses.create(model="gpt-4o", input="first question")
    second = client.responses.create(
        model="gpt-4o", input="follow-up", previous_response_id=first.id
    )
    with client.responses.stream(
        model="gpt-4o", input="streamed follow-up", previous_response_id=second.id
    ) as stream:
        third = stream.get_final_response()
    fetched = client.responses.retrieve(third.id)
    upload = client.files.create(file=("notes.txt", b"some notes"), purpose="user_data")
    fetched_file = client.files.retrieve(upload.id)
    return [r.model_dump() for r in (first, second, third, fetched, upload, fetched_file)]


def test_responses_chain_by_previous_response_id(
    llm_env: FakeLLMServer, cassette_path: Path, server_gone: ServerGone, api_key: str
) -> None:
    with replay.Cassette(cassette_path) as cassette:
        recorded = responses_chain(openai_client(llm_env.url, cassette, api_key))
    # The caller saw placeholders and sent them back; the server (which rejects unknown ids)
    # got the real ones, and none of those reached the file.
    first, second, third, fetched, upload, fetched_file = recorded
    assert second["previous_response_id"] == first["id"]
    assert third["previous_response_id"] == second["id"]
    assert fetched["id"] == third["id"] and fetched_file["id"] == upload["id"]
    sent = llm_env.requests
    real_ids = [
        sent[1].json()["previous_response_id"],
        sent[2].json()["previous_response_id"],
        sent[3].path.rsplit("/", 1)[-1],
        sent[5].path.rsplit("/", 1)[-1],
    ]
    shown_ids = [first["id"], second["id"], third["id"], upload["id"]]
    stored = cassette_path.read_text()
    for real, shown in zip(real_ids, shown_ids, strict=True):
        assert real != shown and len(real) == len(shown)
        assert real not in stored and shown in stored
    assert all(request.json().get("previous_response_id") != first["id"] for request in sent[1:3])
    stopped = server_gone()

    with replay.Cassette(cassette_path, mode="none") as cassette:
        replayed = responses_chain(openai_client(llm_env.url, cassette, api_key))
    stopped.assert_untouched()
    assert replayed == recorded
    assert third["output"][0]["content"][0]["text"] == "Answer to: streamed follow-up"
    assert upload["id"].startswith("file-")


# --- The cassette file ------------------------------------------------------------------


def test_rerecording_an_unchanged_conversation_leaves_the_file_identical(
    llm_env: FakeLLMServer, cassette_path: Path, api_key: str
) -> None:
    def conversation(mode: str) -> list[Any]:
        with replay.Cassette(cassette_path, mode=mode) as cassette:
            client = openai_client(llm_env.url, cassette, api_key)
            return [*chat_conversation(client), *responses_chain(client)]

    first = conversation("once")
    before = cassette_path.read_bytes()
    second = conversation("all")
    assert len(llm_env.requests) == 2 * 9
    # The server's ids changed; what the caller saw and the file did not.
    assert first == second
    assert cassette_path.read_bytes() == before


def test_no_secret_reaches_the_cassette(
    llm_env: FakeLLMServer,
    cassette_path: Path,
    api_key: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A secret of another service that the code under test happens to send and get echoed.
    other_secret = "tok-Zx81kQ0pWm3nB6vY"
    monkeypatch.setenv("BILLING_SERVICE_TOKEN", other_secret)
    wrong_key = "sk-wrong-4fJ8sL2qN7dK1xZ9"
    with replay.Cassette(cassette_path) as cassette:
        client = openai_client(llm_env.url, cassette, api_key)
        answer = client.chat.completions.create(
            model="gpt-4o", messages=user(f"my token is {other_secret}")
        )
        streamed = client.chat.completions.create(
            model="gpt-4o", messages=user(f"stream {other_secret}"), stream=True
        )
        deltas = "".join(c.choices[0].delta.content or "" for c in streamed)
        raw = httpx.Client(transport=replay.ReplayTransport(cassette), base_url=llm_env.url)
        in_query = raw.post(
            "/v1/chat/completions",
            params={"key": api_key, "trace": "1"},
            headers={"api-key": api_key},
            json={"model": "m", "messages": user("hello")},
        )
        stranger = openai_client(llm_env.url, cassette, wrong_key)
        with pytest.raises(openai.AuthenticationError) as rejected:
            stranger.chat.completions.create(model="gpt-4o", messages=user("let me in"))
    # While recording the caller sees everything as sent; only the file is scrubbed.
    assert other_secret in (answer.choices[0].message.content or "")
    assert other_secret in deltas
    assert wrong_key in str(rejected.value)
    assert in_query.status_code == 200

    data = cassette_bytes(cassette_path)
    for secret in (api_key, wrong_key, other_secret):
        assert secret.encode() not in data
    assert b"REDACTED" in data
    with replay.Cassette(cassette_path, mode="none") as cassette:
        client = openai_client(llm_env.url, cassette, api_key)
        replayed = client.chat.completions.create(
            model="gpt-4o", messages=user(f"my token is {other_secret}")
        )
        raw = httpx.Client(transport=replay.ReplayTransport(cassette), base_url=llm_env.url)
        again = raw.post(
            "/v1/chat/completions",
            params={"key": api_key, "trace": "1"},
            json={"model": "m", "messages": user("hello")},
        )
    assert replayed.choices[0].message.content == "Answer to: my token is REDACTED"
    assert again.json()["choices"][0]["message"]["content"] == "Answer to: hello"
    assert "?key=REDACTED&trace=1" in cassette_path.read_text()


# --- Recording shows what replay will (issue 24) ----------------------------------------


def test_a_streamed_chunk_reaches_the_caller_at_once_already_normalized(
    cassette_path: Path, api_key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    # The server waits 3 s between events: the first must not wait for the second.
    with FakeLLMServer(api_key=api_key, chunk_delay=3.0) as server:
        with replay.Cassette(cassette_path) as cassette:
            client = openai_client(server.url, cassette, api_key)
            started = time.monotonic()
            stream = client.chat.completions.create(
                model="gpt-4o", messages=user("stream me a reply"), stream=True
            )
            first = next(iter(stream))
            waited = time.monotonic() - started
            stream.close()
    assert waited < 1.5
    assert first.created == 1000000000 and first.id in cassette_path.read_text()


def test_without_normalizing_the_caller_gets_the_real_values(
    llm_env: FakeLLMServer, cassette_path: Path, server_gone: ServerGone, api_key: str
) -> None:
    with replay.Cassette(cassette_path, normalize=False) as cassette:
        recorded = chat_conversation(openai_client(llm_env.url, cassette, api_key))
    stopped = server_gone()
    with replay.Cassette(cassette_path, normalize=False, mode="none") as cassette:
        replayed = chat_conversation(openai_client(llm_env.url, cassette, api_key))
    stopped.assert_untouched()
    assert replayed == recorded
    assert recorded[0]["created"] != 1000000000 and recorded[0]["id"] in cassette_path.read_text()
