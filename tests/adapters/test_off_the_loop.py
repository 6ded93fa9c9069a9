"""Async clients never block their event loop on cassette files: blockbuster proves it.

blockbuster raises :class:`BlockingError` for a blocking call (a file read or write, a rename,
a directory listing, ``time.sleep``) made on a thread running an event loop. Each test records
through a real loopback server and replays with it stopped, JSON and a stream, closing the
client or ending the cassette's ``async with`` inside the detector: loading the cassette,
writing each recording to the journal and folding it on save all happen on a worker thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import aiohttp
import orjson
import pytest
import websockets.asyncio.client
from blockbuster import BlockingError, blockbuster_ctx
from conftest import TEST_API_KEY, StoppedServer, port_refuses
from realtime_server import RealtimeServer

import replay
from replay._adapters.patch import intercept
from replay.tools.fakellm import FakeLLMServer

HEADERS = {"authorization": f"Bearer {TEST_API_KEY}"}


def chat(prompt: str, **extra: Any) -> dict[str, Any]:
    return {"model": "m", "messages": [{"role": "user", "content": prompt}], **extra}


async def httpx_conversation(client: Any, url: str) -> tuple[Any, list[bytes]]:
    """A JSON answer, then a stream read chunk by chunk."""
    endpoint = url + "/v1/chat/completions"
    answer = (await client.post(endpoint, json=chat("hello"), headers=HEADERS)).json()
    streamed = chat("stream a few words to me", stream=True)
    async with client.stream("POST", endpoint, json=streamed, headers=HEADERS) as response:
        chunks = [chunk async for chunk in response.aiter_raw()]
    return answer["choices"], chunks


def stored(path: Path) -> dict[str, Any]:
    interactions: dict[str, Any] = orjson.loads(path.read_bytes())["interactions"]
    return interactions


def completes(path: Path) -> list[bool]:
    return sorted(r["complete"] for i in stored(path).values() for r in i["responses"])


async def test_httpx_records_streams_closes_and_replays_without_blocking_the_loop(
    library: ModuleType,
    llm_env: FakeLLMServer,
    server_gone: Callable[[], StoppedServer],
    cassette_path: Path,
) -> None:
    with blockbuster_ctx():
        recording = replay.Cassette(cassette_path)
        client = library.AsyncClient(transport=replay.AsyncReplayTransport(recording))
        recorded = await httpx_conversation(client, llm_env.url)
        await client.aclose()
    assert recording.recorded == 2 and len(stored(cassette_path)) == 2
    server = server_gone()

    with blockbuster_ctx():
        replaying = replay.Cassette(cassette_path, mode="none")
        client = library.AsyncClient(transport=replay.AsyncReplayTransport(replaying))
        replayed = await httpx_conversation(client, llm_env.url)
        await client.aclose()
    assert replaying.replayed == 2
    assert replayed[0] == recorded[0]
    assert [len(c) for c in replayed[1]] == [len(c) for c in recorded[1]] and len(replayed[1]) > 1
    server.assert_untouched()


async def test_use_cassette_as_an_async_block_reads_and_saves_off_the_loop(
    library: ModuleType,
    llm_env: FakeLLMServer,
    server_gone: Callable[[], StoppedServer],
    cassette_path: Path,
) -> None:
    """The client made before the block and left open after it: the block's end is what
    saves the recording."""
    client = library.AsyncClient()
    with blockbuster_ctx():
        async with replay.use_cassette(cassette_path) as recording:
            recorded = await httpx_conversation(client, llm_env.url)
    assert recording.recorded == 2 and len(stored(cassette_path)) == 2
    server = server_gone()

    with blockbuster_ctx():
        async with replay.use_cassette(cassette_path, mode="none") as replaying:
            assert replaying.loaded  # read before the block, on a worker thread
            replayed = await httpx_conversation(client, llm_env.url)
    await client.aclose()
    assert replaying.replayed == 2 and replayed[0] == recorded[0]
    server.assert_untouched()


async def test_a_plain_with_block_of_use_cassette_saves_on_the_loop(
    library: ModuleType, llm_env: FakeLLMServer, cassette_path: Path
) -> None:
    """Why async code wants ``async with``: the detector sees the plain block's save."""
    async with library.AsyncClient() as client:
        with blockbuster_ctx(), pytest.raises(BlockingError):
            with replay.use_cassette(cassette_path):
                await httpx_conversation(client, llm_env.url)


async def test_a_stream_left_open_is_cut_by_its_own_tasks_close_saving_off_the_loop(
    library: ModuleType, llm_env: FakeLLMServer, cassette_path: Path
) -> None:
    """The save runs on a worker thread, yet cuts the response this task left open (it acts
    for the task that closes its client) and leaves another task's stream, read through
    another client of the same cassette, to its end."""
    endpoint = llm_env.url + "/v1/chat/completions"
    cassette = replay.Cassette(cassette_path)
    other_started, other_may_finish = asyncio.Event(), asyncio.Event()

    async def another_task_reads_to_the_end() -> int:
        try:
            transport = replay.AsyncReplayTransport(cassette)
            async with library.AsyncClient(transport=transport) as other:
                words = chat("another stream of words", stream=True)
                async with other.stream("POST", endpoint, json=words, headers=HEADERS) as answer:
                    other_started.set()
                    await other_may_finish.wait()
                    return len([chunk async for chunk in answer.aiter_raw()])
        finally:
            other_started.set()  # also when it failed: its error is then raised below

    with blockbuster_ctx():
        other = asyncio.ensure_future(another_task_reads_to_the_end())
        await other_started.wait()
        if other.done():
            other.result()
        client = library.AsyncClient(transport=replay.AsyncReplayTransport(cassette))
        words = chat("stream a few words to me", stream=True)
        own = await client.send(
            client.build_request("POST", endpoint, json=words, headers=HEADERS), stream=True
        )
        reading = own.aiter_raw()  # held: a dropped iterator would be closed when collected
        await reading.__anext__()  # one chunk read, and the response left open
        await client.aclose()
    assert completes(cassette_path) == [False]  # this task's stream cut, the other's open
    await reading.aclose()
    with blockbuster_ctx():
        other_may_finish.set()
        assert await other > 1  # its client's close saved it, complete
    assert completes(cassette_path) == [False, True]


async def aiohttp_conversation(session: aiohttp.ClientSession, url: str) -> tuple[Any, list[bytes]]:
    endpoint = url + "/v1/chat/completions"
    async with session.post(endpoint, json=chat("hello"), headers=HEADERS) as plain:
        answer = await plain.json()
    streamed = chat("stream a few words to me", stream=True)
    async with session.post(endpoint, json=streamed, headers=HEADERS) as response:
        chunks = [data async for data, _ in response.content.iter_chunks()]
    return answer["choices"], chunks


async def test_aiohttp_records_streams_saves_and_replays_without_blocking_the_loop(
    llm_env: FakeLLMServer, server_gone: Callable[[], StoppedServer], cassette_path: Path
) -> None:
    llm_env.chunk_delay = 0.01  # the detector slows the reader: chunks must not pile up
    with blockbuster_ctx():
        async with replay.Cassette(cassette_path) as recording:
            middleware = replay.ReplayMiddleware(recording)
            async with aiohttp.ClientSession(middlewares=[middleware]) as session:
                recorded = await aiohttp_conversation(session, llm_env.url)
    assert recording.recorded == 2 and len(stored(cassette_path)) == 2
    server = server_gone()

    with blockbuster_ctx():
        async with replay.Cassette(cassette_path, mode="none") as replaying:
            middleware = replay.ReplayMiddleware(replaying)
            async with aiohttp.ClientSession(middlewares=[middleware]) as session:
                replayed = await aiohttp_conversation(session, llm_env.url)
    assert replaying.replayed == 2 and replayed[0] == recorded[0]
    assert [len(c) for c in replayed[1]] == [len(c) for c in recorded[1]] and len(replayed[1]) > 1
    server.assert_untouched()


async def test_websockets_asyncio_records_and_replays_without_blocking_the_loop(
    monkeypatch: pytest.MonkeyPatch, cassette_path: Path
) -> None:
    monkeypatch.delenv("REPLAY_MODE", raising=False)

    async def talk(url: str) -> list[object]:
        async with websockets.asyncio.client.connect(url, additional_headers=HEADERS) as ws:
            await ws.send("first")
            await ws.send("last")
            return [await ws.recv(), await ws.recv()]

    with RealtimeServer(TEST_API_KEY) as server:
        async with replay.Cassette(cassette_path) as recording:
            with intercept(recording), blockbuster_ctx():
                recorded = await talk(server.ws_url)
        server.stop()
    assert port_refuses(server.http_url) and recording.recorded == 1
    async with replay.Cassette(cassette_path, mode="none") as replaying:
        with intercept(replaying), blockbuster_ctx():
            assert await talk(server.ws_url) == recorded
    assert replaying.replayed == 1


async def test_the_detector_sees_a_blocking_cassette_read_on_the_loop(cassette_path: Path) -> None:
    """The tests above would catch a regression: a cassette loaded on the loop is reported."""
    cassette_path.parent.mkdir()
    cassette_path.write_bytes(b'{"version": 1, "interactions": {}}')
    with blockbuster_ctx(), pytest.raises(BlockingError):
        replay.Cassette(cassette_path).load()
