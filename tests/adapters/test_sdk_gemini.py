"""google-genai, the route that needs the aiohttp adapter: its async client uses aiohttp
directly when aiohttp is installed and no httpx client is given.

Each variant (sync, async, streamed, async-streamed) is recorded through the fake
Gemini API, attached three ways, then replayed with the server stopped and every
connection blocked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
from conftest import TEST_API_KEY, StoppedServer
from google import genai
from google.genai import types

import replay
from replay._adapters.network import NetworkGuard
from replay.tools.fakellm import FakeLLMServer, tokens

Attach = Callable[[str, Path, str], AbstractContextManager[genai.Client]]


@contextmanager
def explicit_transport(url: str, path: Path, mode: str) -> Iterator[genai.Client]:
    with replay.Cassette(path, mode) as cassette:
        options = types.HttpOptions(
            base_url=url,
            httpx_client=httpx2.Client(transport=replay.ReplayTransport(cassette)),
            httpx_async_client=httpx2.AsyncClient(transport=replay.AsyncReplayTransport(cassette)),
        )
        yield genai.Client(api_key=TEST_API_KEY, http_options=options)


@contextmanager
def made_inside_the_block(url: str, path: Path, mode: str) -> Iterator[genai.Client]:
    with replay.use_cassette(path, mode):
        options = types.HttpOptions(base_url=url)
        yield genai.Client(api_key=TEST_API_KEY, http_options=options)


@contextmanager
def made_before_the_block(url: str, path: Path, mode: str) -> Iterator[genai.Client]:
    client = genai.Client(api_key=TEST_API_KEY, http_options=types.HttpOptions(base_url=url))
    with replay.use_cassette(path, mode):
        yield client


ATTACHMENTS = {
    "explicit": explicit_transport,
    "inside": made_inside_the_block,
    "before": made_before_the_block,
}


async def variant(client: genai.Client, kind: str) -> Any:
    prompt = f"tell me about {kind} calls"
    if kind == "sync":
        return client.models.generate_content(model="gemini-2.5-flash", contents=prompt).text
    if kind == "stream":
        stream = client.models.generate_content_stream(model="gemini-2.5-flash", contents=prompt)
        return [chunk.text for chunk in stream]
    if kind == "async":
        reply = await client.aio.models.generate_content(model="gemini-2.5-flash", contents=prompt)
        return reply.text
    chunks = await client.aio.models.generate_content_stream(
        model="gemini-2.5-flash", contents=prompt
    )
    return [chunk.text async for chunk in chunks]


@pytest.mark.parametrize("kind", ["sync", "async", "stream", "async_stream"])
@pytest.mark.parametrize("attach", ATTACHMENTS)
async def test_gemini_records_and_replays_offline(
    llm_env: FakeLLMServer,
    cassette_path: Path,
    server_gone: Callable[[], StoppedServer],
    attach: str,
    kind: str,
) -> None:
    attached = ATTACHMENTS[attach]
    with attached(llm_env.url, cassette_path, "once") as client:
        recorded = await variant(client, kind)
    assert len(llm_env.requests) == 1
    stopped = server_gone()
    with NetworkGuard() as guard, attached(llm_env.url, cassette_path, "none") as client:
        replayed = await variant(client, kind)
    assert guard.blocked == []
    stopped.assert_untouched()
    assert replayed == recorded
    expected = f"Answer to: tell me about {kind} calls"
    assert ("".join(replayed) if isinstance(replayed, list) else replayed) == expected
    if isinstance(replayed, list):
        assert replayed == tokens(expected)  # one event per token, boundaries kept
