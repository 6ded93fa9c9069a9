"""Many writers, one cassette: 8 processes, 16 threads, 100 asyncio tasks, each recording its own
requests through a loopback server. Nothing is lost, nothing doubled, and replay finds it all."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import orjson

from replay import AsyncReplayTransport, Cassette, ReplayTransport
from replay.tools.fakellm import DEFAULT_API_KEY, FakeLLMServer

HEADERS = {"authorization": f"Bearer {DEFAULT_API_KEY}"}


def body(writer: str, index: int) -> bytes:
    return orjson.dumps(
        {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": f"{writer} #{index}"}]}
    )


def assert_replays_all(path: Path, url: str, bodies: list[bytes]) -> None:
    cassette = Cassette(path, "none")
    assert len(cassette.interactions) == len(bodies)
    assert all(len(interaction.outcomes) == 1 for interaction in cassette.interactions)
    with httpx.Client(transport=ReplayTransport(cassette)) as client:
        for sent in bodies:
            answer = client.post(url, content=sent, headers=HEADERS).json()
            asked = orjson.loads(sent)["messages"][0]["content"]
            assert answer["choices"][0]["message"]["content"] == f"Answer to: {asked}"


PROCESS = """
import sys, httpx, orjson
from replay import Cassette
from replay import ReplayTransport
path, url, writer, key = sys.argv[1:]
with httpx.Client(transport=ReplayTransport(Cassette(path, "new_episodes"))) as client:
    for index in range(10):
        content = orjson.dumps({"model": "gpt-4o-mini",
                                "messages": [{"role": "user", "content": f"{writer} #{index}"}]})
        client.post(url, content=content, headers={"authorization": f"Bearer {key}"})
"""


def test_eight_processes_record_into_one_cassette(tmp_path: Path) -> None:
    path = tmp_path / "processes.json"
    with FakeLLMServer() as server:
        url = server.url + "/v1/chat/completions"
        children = [
            subprocess.Popen(
                [sys.executable, "-c", PROCESS, str(path), url, f"process {n}", DEFAULT_API_KEY]
            )
            for n in range(8)
        ]
        assert [child.wait(timeout=120) for child in children] == [0] * 8
        assert len(server.requests) == 80
    bodies = [body(f"process {n}", i) for n in range(8) for i in range(10)]
    assert_replays_all(path, url, bodies)


def test_sixteen_threads_share_one_cassette(tmp_path: Path) -> None:
    path = tmp_path / "threads.json"
    cassette = Cassette(path, "new_episodes")
    with FakeLLMServer() as server:
        url = server.url + "/v1/chat/completions"
        with httpx.Client(transport=ReplayTransport(cassette)) as client:

            def record(thread: int) -> None:
                for index in range(8):
                    client.post(url, content=body(f"thread {thread}", index), headers=HEADERS)

            threads = [threading.Thread(target=record, args=(n,)) for n in range(16)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
    bodies = [body(f"thread {n}", i) for n in range(16) for i in range(8)]
    assert_replays_all(path, url, bodies)


def test_a_hundred_asyncio_tasks_share_one_cassette(tmp_path: Path) -> None:
    path = tmp_path / "tasks.json"
    with FakeLLMServer() as server:
        url = server.url + "/v1/chat/completions"

        async def main() -> None:
            # at most 10 connections: the fake server's listen backlog is small; the 100 tasks
            # still interleave their decide/record/add on the one cassette
            upstream = httpx.AsyncHTTPTransport(limits=httpx.Limits(max_connections=10))
            transport = AsyncReplayTransport(Cassette(path, "new_episodes"), upstream)
            async with httpx.AsyncClient(transport=transport) as client:
                await asyncio.gather(
                    *(
                        client.post(url, content=body("task", n), headers=HEADERS)
                        for n in range(100)
                    )
                )

        asyncio.run(main())
    assert_replays_all(path, url, [body("task", n) for n in range(100)])
