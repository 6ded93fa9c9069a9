"""Responses and clients the caller never closes, or closes too late, are recorded once.

Each case is what a real SDK does (named in each test), recorded through the loopback fake
LLM API and replayed with it stopped. Cases that turn on what happens at process exit run in
a child process that exits normally (its exit hooks run) without closing anything.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import httpx
import orjson
from conftest import TEST_API_KEY, StoppedServer, masked

from replay import Cassette, ReplayTransport, use_cassette
from replay._core.model import Response
from replay.tools.fakellm import FakeLLMServer

ServerGone = Callable[[], StoppedServer]


def outcomes(path: Path) -> list[list[bool]]:
    """Per interaction with the fake API, whether each recorded response is complete, as a
    new reader sees them. (huggingface-hub also asks huggingface.co for its agent registry,
    once a day: recorded as a connection error, and left out here.)"""
    return [
        [o.complete for o in i.outcomes if isinstance(o, Response)]
        for i in Cassette(path, "none").interactions
        if i.request.url.startswith("http://127.0.0.1")
    ]


def run(script: str, *args: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert "could not save" not in result.stderr, result.stderr


# openai: `for chunk in stream: break`. The SDK's Stream closes the response only when its
# generator is collected: after the block, or after the exit-time save.


def first_chunk(client: object) -> str:
    stream = client.chat.completions.create(  # type: ignore[attr-defined]
        model="gpt-4o-mini", messages=[{"role": "user", "content": "count to ten"}], stream=True
    )
    for chunk in stream:
        first_chunk.stream = stream  # type: ignore[attr-defined]  # kept open, as a caller may
        return str(chunk.choices[0].delta.role)
    raise AssertionError("no chunk")


def test_openai_stream_left_after_break_is_recorded_when_the_block_ends(
    llm_env: FakeLLMServer, cassette_path: Path, server_gone: ServerGone
) -> None:
    import openai

    def client() -> openai.OpenAI:
        return openai.OpenAI(base_url=llm_env.url + "/v1", api_key=TEST_API_KEY, max_retries=0)

    with use_cassette(cassette_path, "once"):
        recorded = first_chunk(client())
    assert outcomes(cassette_path) == [[False]]  # recorded as it stood: abandoned after a chunk
    del first_chunk.stream  # type: ignore[attr-defined]  # the SDK closes it now: not again
    assert outcomes(cassette_path) == [[False]]
    gone = server_gone()
    with use_cassette(cassette_path, "none"):
        assert first_chunk(client()) == recorded
    gone.assert_untouched()


OPENAI_AT_EXIT = """
import sys, httpx2, openai, replay
path, url, key = sys.argv[1:]
http = httpx2.Client(transport=replay.ReplayTransport(replay.Cassette(path)))
client = openai.OpenAI(http_client=http, base_url=url + "/v1", api_key=key, max_retries=0)
stream = client.chat.completions.create(
    model="gpt-4o-mini", messages=[{"role": "user", "content": "count to ten"}], stream=True)
for chunk in stream:
    break
# neither the stream nor the client is closed: the process just ends
"""


def test_openai_stream_left_after_break_is_recorded_at_exit(
    llm_env: FakeLLMServer, cassette_path: Path
) -> None:
    run(OPENAI_AT_EXIT, str(cassette_path), llm_env.url, TEST_API_KEY)
    assert outcomes(cassette_path) == [[False]]


# litellm reads an Anthropic stream up to its message_delta event and never closes the
# response (litellm's anthropic streaming handler, over httpx 0.28): its behaviour over raw
# httpx, here; the SDK matrix (test_sdk_matrix.py, route litellm-anthropic) runs litellm itself.

ANTHROPIC_BODY = orjson.dumps(
    {
        "model": "claude-sonnet-4-5",
        "max_tokens": 64,
        "stream": True,
        "messages": [{"role": "user", "content": "hello"}],
    }
)


def until_message_delta(lines: list[str]) -> list[str]:
    return lines[: next(i for i, line in enumerate(lines) if "message_delta" in line) + 2]


def anthropic_request(client: httpx.Client | httpx.AsyncClient, url: str) -> httpx.Request:
    return client.build_request(
        "POST",
        url + "/v1/messages",
        content=ANTHROPIC_BODY,
        headers={"x-api-key": TEST_API_KEY, "anthropic-version": "2023-06-01"},
    )


def read_like_litellm(client: httpx.Client, url: str) -> list[str]:
    response = client.send(anthropic_request(client, url), stream=True)
    read: list[str] = []
    for line in response.iter_lines():
        read.append(line)
        if line.startswith("data:") and "message_delta" in line:
            return read  # and the response is never closed
    raise AssertionError("no message_delta")


def test_anthropic_stream_read_to_message_delta_and_never_closed_sync(
    llm_env: FakeLLMServer, cassette_path: Path, server_gone: ServerGone
) -> None:
    with use_cassette(cassette_path, "once"):
        recorded = read_like_litellm(httpx.Client(), llm_env.url)
    assert len(outcomes(cassette_path)) == 1
    gone = server_gone()
    with use_cassette(cassette_path, "none"):
        assert masked(read_like_litellm(httpx.Client(), llm_env.url)) == masked(recorded)
    gone.assert_untouched()


LITELLM_ASYNC_AT_EXIT = """
import asyncio, sys, httpx, replay
path, url, key, body = sys.argv[1:]
transport = replay.AsyncReplayTransport(replay.Cassette(path))

async def main():
    client = httpx.AsyncClient(transport=transport)  # an explicit transport, never closed
    request = client.build_request("POST", url + "/v1/messages", content=body.encode(),
                                   headers={"x-api-key": key, "anthropic-version": "2023-06-01"})
    response = await client.send(request, stream=True)
    async for line in response.aiter_lines():
        if line.startswith("data:") and "message_delta" in line:
            print(line)
            return response

response = asyncio.run(main())
"""


def test_anthropic_stream_read_to_message_delta_and_never_closed_async_at_exit(
    llm_env: FakeLLMServer, cassette_path: Path, server_gone: ServerGone
) -> None:
    run(
        LITELLM_ASYNC_AT_EXIT,
        str(cassette_path),
        llm_env.url,
        TEST_API_KEY,
        ANTHROPIC_BODY.decode(),
    )
    assert len(outcomes(cassette_path)) == 1
    gone = server_gone()
    with use_cassette(cassette_path, "none"):
        replayed = read_like_litellm(httpx.Client(), llm_env.url)
    assert "message_delta" in replayed[-1]
    gone.assert_untouched()


# A stream read to its provider's final event is complete and recorded then, whether or not
# it is ever closed; a later close does not add it again.


def test_a_stream_read_to_its_final_event_is_recorded_complete_before_it_is_closed(
    llm_env: FakeLLMServer, cassette_path: Path
) -> None:
    cassette = Cassette(cassette_path, "once")
    client = httpx.Client(transport=ReplayTransport(cassette))
    response = client.send(anthropic_request(client, llm_env.url), stream=True)
    lines = list(response.iter_lines())
    assert "message_stop" in lines[-2]
    assert cassette.recorded == 1  # before close, before any save
    response.close()
    client.close()
    assert outcomes(cassette_path) == [[True]]


def test_a_stream_open_when_saved_is_recorded_as_it_stands_and_a_later_close_adds_nothing(
    llm_env: FakeLLMServer, cassette_path: Path
) -> None:
    client = httpx.Client()
    with use_cassette(cassette_path, "once") as cassette:
        response = client.send(anthropic_request(client, llm_env.url), stream=True)
        chunks = response.iter_bytes()
        next(chunks)
    assert outcomes(cassette_path) == [[False]]
    assert b"".join(chunks)  # the caller reads on, then closes
    response.close()
    cassette.save()
    assert outcomes(cassette_path) == [[False]]


# huggingface-hub's AsyncInferenceClient closes a streamed response only when the client is
# closed (its exit stack), here after the use_cassette block has saved.


async def hf_chat(url: str) -> str:
    from huggingface_hub import AsyncInferenceClient

    client = AsyncInferenceClient(base_url=url + "/v1", api_key=TEST_API_KEY)
    stream = await client.chat_completion(
        messages=[{"role": "user", "content": "stream me a reply"}],
        model="gpt-4o-mini",
        stream=True,
    )
    text = "".join([chunk.choices[0].delta.content or "" async for chunk in stream])
    hf_chat.client = client  # type: ignore[attr-defined]  # closed by the caller, later
    return text


async def test_huggingface_hub_async_stream_closed_after_the_block(
    llm_env: FakeLLMServer, cassette_path: Path, server_gone: ServerGone
) -> None:
    with use_cassette(cassette_path, "once"):
        recorded = await hf_chat(llm_env.url)
    assert outcomes(cassette_path) == [[True]]
    await hf_chat.client.close()  # type: ignore[attr-defined]
    assert outcomes(cassette_path) == [[True]]
    gone = server_gone()
    with use_cassette(cassette_path, "none"):
        assert await hf_chat(llm_env.url) == recorded
    await hf_chat.client.close()  # type: ignore[attr-defined]
    gone.assert_untouched()


DROPPED_CLIENT = """
import gc, sys, httpx, replay
path, url, key = sys.argv[1:]

def ask(text):
    # a helper that builds a client with an explicit transport and never closes it
    client = httpx.Client(transport=replay.ReplayTransport(replay.Cassette(path)))
    return client.post(url + "/v1/chat/completions", headers={"authorization": "Bearer " + key},
                       json={"model": "gpt-4o-mini",
                             "messages": [{"role": "user", "content": text}]}).json()

ask("first")
gc.collect()
ask("second")
gc.collect()
"""


def test_a_client_dropped_without_close_keeps_what_it_recorded(
    llm_env: FakeLLMServer, cassette_path: Path
) -> None:
    run(DROPPED_CLIENT, str(cassette_path), llm_env.url, TEST_API_KEY)
    assert outcomes(cassette_path) == [[True], [True]]


# A forked child (multiprocessing's fork start method, a forking test runner, a pre-fork
# server) inherits unsaved recordings and an open stream; it saves only its own.

FORK = """
import os, sys, httpx, replay
path, url, key = sys.argv[1:]
headers = {"authorization": "Bearer " + key}
cassette = replay.Cassette(path, "new_episodes")
client = httpx.Client(transport=replay.ReplayTransport(cassette))

def ask(text, stream=False):
    return client.build_request("POST", url + "/v1/chat/completions", headers=headers,
                                json={"model": "gpt-4o-mini", "stream": stream,
                                      "messages": [{"role": "user", "content": text}]})

client.send(ask("parent 1"))
client.send(ask("parent 2"))
open_stream = client.send(ask("parent stream", stream=True), stream=True)
chunks = open_stream.iter_bytes()
next(chunks)
child = os.fork()
if child == 0:
    client.send(ask("child"))
    sys.exit(0)  # a normal exit: the exit hooks run, and save
_, status = os.waitpid(child, 0)
assert os.waitstatus_to_exitcode(status) == 0
for _ in chunks:
    pass
open_stream.close()
client.send(ask("parent 3"))
"""


def test_a_forked_child_saves_only_what_it_recorded(
    llm_env: FakeLLMServer, cassette_path: Path
) -> None:
    run(FORK, str(cassette_path), llm_env.url, TEST_API_KEY)
    recorded = {
        orjson.loads(i.request.body)["messages"][0]["content"]: [
            o.complete  # type: ignore[union-attr]
            for o in i.outcomes
        ]
        for i in Cassette(cassette_path, "none").interactions
    }
    assert recorded == {
        "parent 1": [True],
        "parent 2": [True],
        "parent stream": [True],
        "child": [True],
        "parent 3": [True],
    }
    assert len(llm_env.requests) == 5  # each call went out once: none replayed from the parent


# litellm's sync Anthropic route drops its line iterator mid-stream. When that iterator sits in
# a reference cycle, the cyclic garbage collector finalizes it at whatever allocation it runs
# at: possibly inside httpcore's connection pool on the same thread, under the pool's lock,
# which closing the upstream stream takes again (encode/httpcore#990). Here the collection is
# forced while the lock is held, as the collector did in a real run of the SDK matrix.
DROPPED_IN_A_CYCLE = """
import gc, sys
import httpx
from replay import Cassette, ReplayTransport

upstream = httpx.HTTPTransport()
cassette = Cassette(sys.argv[1], "once")
client = httpx.Client(transport=ReplayTransport(cassette, upstream))
messages = [{"role": "user", "content": "count to ten"}]
request = client.build_request(
    "POST",
    sys.argv[2] + "/v1/chat/completions",
    headers={"authorization": "Bearer " + sys.argv[3]},
    json={"model": "gpt-4o-mini", "stream": True, "messages": messages},
)
lines = client.send(request, stream=True).iter_lines()
next(lines)
cycle = [lines]
cycle.append(cycle)
del lines, cycle
gc.disable()
with upstream._pool._optional_thread_lock:
    gc.collect()
print("collected")
"""


def test_a_stream_dropped_in_a_cycle_is_collected_without_deadlock_inside_the_pool(
    llm_env: FakeLLMServer, cassette_path: Path
) -> None:
    result = subprocess.run(
        [sys.executable, "-c", DROPPED_IN_A_CYCLE, str(cassette_path), llm_env.url, TEST_API_KEY],
        capture_output=True,
        text=True,
        timeout=30,  # a deadlock shows as this timeout
    )
    assert (result.returncode, result.stdout.strip()) == (0, "collected"), result.stderr
    assert outcomes(cassette_path) == [[False]]  # what was read, marked incomplete
