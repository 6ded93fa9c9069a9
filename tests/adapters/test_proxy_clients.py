"""Clients of every kind record through ``replay serve``'s proxy, then replay with the fake gone.

Each test records a conversation through the proxy from the local fake LLM API
(``replay.tools.fakellm`` on 127.0.0.1), stops the fake, and replays it through a new proxy
in mode ``none``: the openai and anthropic Python SDKs, curl, an aiohttp client and the
official ``openai`` package for Node. What the client sees must be the same both times,
apart from the ids and times normalization replaces (``conftest.masked``), and no key may
reach the cassette. Then: the same conversation recorded through the proxy and through the
in-process transport gives byte-identical cassettes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import anthropic
import httpx2
import openai
import pytest
from conftest import StoppedServer, masked
from proxied import proxy, stored, without_times

import replay
from replay.tools.fakellm import FakeLLMServer

ServerGone = Callable[[], StoppedServer]
KEY = "fk-proxy-clients-5Jw8Rt2Yq6Nc0Vb3"
"""A key of no known shape and in no environment variable: only the rule that scrubs what a
request carried in its auth headers keeps it out of the cassette, as with the transport."""
WEATHER_TOOL: Any = [
    {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}
]


def user(text: str) -> Any:
    return [{"role": "user", "content": text}]


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch, llm_server: FakeLLMServer) -> FakeLLMServer:
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    llm_server.api_key = KEY
    return llm_server


@pytest.fixture
def cassettes(tmp_path: Path) -> Path:
    return tmp_path / "cassettes"


def assert_no_key(root: Path) -> None:
    for path in root.rglob("*"):
        if path.is_file():
            assert KEY.encode() not in path.read_bytes(), path
            assert KEY[:12].encode() not in path.read_bytes(), path


def record_then_replay(
    fake: FakeLLMServer,
    server_gone: ServerGone,
    cassettes: Path,
    conversation: Callable[[str, str], Any],
    prefix: str = "/",
) -> tuple[Any, Any]:
    """``conversation(base_url, key)`` recorded through a proxy to the fake, then replayed
    through another with the fake stopped; returns what it returned each time."""
    with proxy({prefix: fake.url}, cassettes) as recording:
        recorded = conversation(recording.served.base_url(prefix), KEY)
    assert recording.app.tally["recorded"] > 0
    gone = server_gone()
    with proxy({prefix: fake.url}, cassettes, mode="none") as replaying:
        replayed = conversation(replaying.served.base_url(prefix), "sk-dummy-for-replay")
    gone.assert_untouched()
    assert replaying.app.tally["replayed"] == recording.app.tally["recorded"]
    assert replaying.app.tally["missed"] == 0
    assert_no_key(cassettes)
    return recorded, replayed


# The openai and anthropic Python SDKs.


def openai_conversation(base_url: str, key: str) -> list[Any]:
    client = openai.OpenAI(base_url=base_url + "/v1", api_key=key, max_retries=0)
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
    response = client.responses.create(model="gpt-4o", input="a poem from the responses api")
    client.close()
    return [plain.model_dump(), chunks, tool.model_dump(), response.output_text]


def test_openai_sdk(fake: FakeLLMServer, server_gone: ServerGone, cassettes: Path) -> None:
    recorded, replayed = record_then_replay(fake, server_gone, cassettes, openai_conversation)
    assert masked(replayed) == masked(recorded)
    assert "".join(
        c["choices"][0]["delta"].get("content") or "" for c in replayed[1] if c["choices"]
    ) == ("Answer to: stream me a reply")
    assert len(stored(cassettes / "default.json")) == 4


def anthropic_conversation(base_url: str, key: str) -> list[Any]:
    client = anthropic.Anthropic(base_url=base_url, api_key=key, max_retries=0)
    message = client.messages.create(model="claude", max_tokens=50, messages=user("hi claude"))
    with client.messages.stream(
        model="claude", max_tokens=50, messages=user("tell me a poem, claude")
    ) as stream:
        events = [event.type for event in stream]
        final = stream.get_final_message()
    client.close()
    return [message.model_dump(), events, final.model_dump()]


def test_anthropic_sdk_under_a_prefix(
    fake: FakeLLMServer, server_gone: ServerGone, cassettes: Path
) -> None:
    recorded, replayed = record_then_replay(
        fake, server_gone, cassettes, anthropic_conversation, prefix="/anthropic"
    )
    assert masked(replayed) == masked(recorded)
    assert replayed[2]["content"][0]["text"] == "Answer to: tell me a poem, claude"
    # The prefix routes to the upstream and is gone from what is recorded.
    urls = {i["request"]["url"] for i in stored(cassettes / "default.json").values()}
    assert urls == {fake.url + "/v1/messages"}


# curl.


def curl(base_url: str, key: str, body: dict[str, Any], *headers: str) -> bytes:
    command = ["curl", "--silent", "--show-error", "--no-buffer", "--max-time", "30"]
    for header in (f"authorization: Bearer {key}", "content-type: application/json", *headers):
        command += ["--header", header]
    command += ["--data-binary", json.dumps(body), base_url + "/v1/chat/completions"]
    return subprocess.run(command, capture_output=True, check=True, timeout=60).stdout


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_curl(fake: FakeLLMServer, server_gone: ServerGone, cassettes: Path) -> None:
    big = "x" * 2000  # curl sends "Expect: 100-continue" above 1 KB; the proxy answers it

    def conversation(base_url: str, key: str) -> list[bytes]:
        named = "X-Replay-Cassette: shell/curl"
        return [
            curl(base_url, key, {"model": "m", "messages": user("hello curl")}, named),
            curl(base_url, key, {"model": "m", "messages": user("stream"), "stream": True}, named),
            curl(base_url, key, {"model": "m", "messages": user(big)}, named),
        ]

    recorded, replayed = record_then_replay(fake, server_gone, cassettes, conversation)
    # JSON bodies are stored parsed, so the same JSON comes back, not the same spacing.
    for index in (0, 2):
        assert masked(json.loads(replayed[index])) == masked(json.loads(recorded[index]))
    assert masked(replayed[1]) == masked(recorded[1])
    assert replayed[1].count(b"data: ") == len(b"Answer to: stream".split()) + 3
    assert replayed[1].endswith(b"data: [DONE]\n\n")
    assert len(stored(cassettes / "shell" / "curl.json")) == 3
    assert not (cassettes / "default.json").exists()


# aiohttp: it sees the HTTP chunks, so boundaries can be checked on the wire.


async def aiohttp_conversation(base_url: str, key: str) -> list[Any]:
    headers = {"authorization": f"Bearer {key}"}
    url = base_url + "/v1/chat/completions"
    async with aiohttp.ClientSession(headers=headers) as session:
        async with session.post(url, json={"model": "m", "messages": user("hi aiohttp")}) as plain:
            answer = await plain.json()
        body = {"model": "m", "messages": user("stream to aiohttp"), "stream": True}
        async with session.post(url, json=body) as streamed:
            chunks, pending = [], b""
            async for data, end_of_http_chunk in streamed.content.iter_chunks():
                pending += data
                if end_of_http_chunk and pending:  # the body's end may come as an empty one
                    chunks.append(pending)
                    pending = b""
    return [answer, chunks]


def test_aiohttp_client_sees_the_recorded_chunk_boundaries(
    fake: FakeLLMServer, server_gone: ServerGone, cassettes: Path
) -> None:
    def conversation(base_url: str, key: str) -> list[Any]:
        import asyncio

        return asyncio.run(aiohttp_conversation(base_url, key))

    recorded, replayed = record_then_replay(fake, server_gone, cassettes, conversation)
    assert masked(replayed) == masked(recorded)
    (stream,) = [
        i
        for i in stored(cassettes / "default.json").values()
        if i["request"]["body"]["json"].get("stream")
    ]
    in_cassette = [chunk["text"].encode() for chunk in stream["responses"][0]["chunks"]]
    assert replayed[1] == in_cassette  # one HTTP chunk per recorded chunk, in order
    assert len(in_cassette) > 5


# The official openai package for Node.

NODE_SCRIPT = """
const OpenAI = require("openai");
const client = new OpenAI({
  baseURL: process.env.OPENAI_BASE_URL,
  apiKey: process.env.OPENAI_API_KEY,
  maxRetries: 2,
  defaultHeaders: { "X-Replay-Cassette": "node/chat" },
});
const user = (text) => [{ role: "user", content: text }];
(async () => {
  const plain = await client.chat.completions.create({
    model: "gpt-4o", messages: user("hello from node"),
  });
  const stream = await client.chat.completions.create({
    model: "gpt-4o", messages: user("stream to node"), stream: true,
  });
  let text = "";
  let chunks = 0;
  for await (const chunk of stream) {
    chunks += 1;
    text += chunk.choices[0]?.delta?.content ?? "";
  }
  let miss = null;
  if (process.env.ASK_UNRECORDED) {
    try {
      await client.chat.completions.create({ model: "gpt-4o", messages: user("never recorded") });
    } catch (error) {
      miss = { status: error.status, type: error.error?.type, message: error.message };
    }
  }
  console.log(JSON.stringify({ plain: plain.choices[0].message, text, chunks, miss }));
})().catch((error) => { console.error(String(error)); process.exit(1); });
"""


@pytest.fixture(scope="module")
def openai_for_node(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A directory with the official ``openai`` npm package installed, and the script above."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are not installed: the Node client test needs them")
    directory = tmp_path_factory.mktemp("node-openai")
    installed = subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund", "--silent", "openai@6"],
        cwd=directory,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if installed.returncode != 0:
        pytest.skip(f"npm could not install the openai package: {installed.stderr[-500:]}")
    (directory / "chat.js").write_text(NODE_SCRIPT)
    yield directory


def run_node(directory: Path, base_url: str, key: str, **env: str) -> dict[str, Any]:
    done = subprocess.run(
        ["node", "chat.js"],
        cwd=directory,
        env={**os.environ, "OPENAI_BASE_URL": base_url, "OPENAI_API_KEY": key, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_openai_package_for_node(
    openai_for_node: Path, fake: FakeLLMServer, server_gone: ServerGone, cassettes: Path
) -> None:
    with proxy({"/": fake.url}, cassettes) as recording:
        recorded = run_node(openai_for_node, recording.served.base_url() + "/v1", KEY)
    gone = server_gone()
    with proxy({"/": fake.url}, cassettes, mode="none") as replaying:
        base_url = replaying.served.base_url() + "/v1"
        replayed = run_node(openai_for_node, base_url, "sk-dummy", ASK_UNRECORDED="1")
    gone.assert_untouched()
    assert replayed["plain"] == recorded["plain"]
    assert replayed["text"] == recorded["text"] == "Answer to: stream to node"
    assert replayed["chunks"] == recorded["chunks"]
    # A miss reaches the Node SDK as an error it does not retry (maxRetries 2 above).
    assert replayed["miss"]["status"] == 404
    assert replayed["miss"]["type"] == "replay_cassette_miss"
    assert "no recording for POST" in replayed["miss"]["message"]
    assert replaying.app.tally["missed"] == 1
    assert len(stored(cassettes / "node" / "chat.json")) == 2
    assert_no_key(cassettes)


# One record/replay path: the proxy and the transport write the same cassette.


def transport_conversation(url: str, path: Path) -> list[Any]:
    with replay.Cassette(path, mode="all") as cassette:
        http = httpx2.Client(transport=replay.ReplayTransport(cassette))
        client = openai.OpenAI(http_client=http, base_url=url + "/v1", api_key=KEY, max_retries=0)
        return _same_conversation(client)


def _same_conversation(client: openai.OpenAI) -> list[Any]:
    plain = client.chat.completions.create(model="gpt-4o", messages=user("hello"), logprobs=True)
    stream = client.chat.completions.create(
        model="gpt-4o", messages=user("stream me a reply"), stream=True
    )
    chunks = [chunk.model_dump() for chunk in stream]
    tool = client.chat.completions.create(
        model="gpt-4o", messages=user("weather in Paris"), tools=WEATHER_TOOL
    )
    return [plain.model_dump(), chunks, tool.model_dump()]


def test_proxy_and_transport_write_the_same_recordings(fake: FakeLLMServer, tmp_path: Path) -> None:
    """The same requests and answers; the proxy's are keyed by the route they came by (stored
    as x-replay-route), so their keys, and the placeholders derived from keys, differ."""
    by_transport = tmp_path / "transport" / "default.json"
    transport_conversation(fake.url, by_transport)
    by_proxy = tmp_path / "proxy" / "default.json"
    with proxy({"/": fake.url}, by_proxy.parent, mode="all") as served:
        client = openai.OpenAI(base_url=served.url + "/v1", api_key=KEY, max_retries=0)
        _same_conversation(client)

    def recordings(path: Path) -> list[Any]:
        found = []
        for interaction in without_times(path)["interactions"].values():
            request = interaction["request"]
            route = request["headers"].pop("x-replay-route", None)
            assert route == (f"/={fake.url}" if path == by_proxy else None)
            request.pop("sent", None)  # the digest of the request as stored
            answers = [
                (r["status"], masked(r.get("chunks") or r.get("body")))
                for r in interaction["responses"]
            ]
            found.append((masked(request), answers))
        return sorted(found, key=repr)

    assert recordings(by_proxy) == recordings(by_transport)
