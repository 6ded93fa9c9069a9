"""Each task its own cassette: concurrent asyncio tasks, each in a ``use_cassette`` block of its
own, record into and replay from their own cassettes; a thread started inside a block uses that
block's cassette; code in no block's context goes through the innermost block open.

Recorded through the echo server on 127.0.0.1, replayed with it stopped.
"""

from __future__ import annotations

import asyncio
import json
import queue
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import aiohttp
import httpx
import pytest
from conftest import port_refuses
from echo_server import echo_server

import replay

AGENTS = ("planner", "coder", "critic")


@pytest.fixture(autouse=True)
def no_mode_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REPLAY_MODE", raising=False)


def paths_in(path: Path) -> list[str]:
    """The paths of the requests recorded in the cassette at ``path``, sorted."""
    interactions = json.loads(path.read_text())["interactions"].values()
    return sorted(httpx.URL(entry["request"]["url"]).path for entry in interactions)


async def agents(base: str, tmp_path: Path, mode: str) -> dict[str, list[str]]:
    """The agents at once (``asyncio.gather``), each in its own block, all inside their blocks
    before any asks, and taking turns between calls; each through one client made before the
    blocks, an aiohttp session of its own, and a thread of ``asyncio.to_thread``."""
    inside = asyncio.Barrier(len(AGENTS))

    def sync_call(url: str) -> str:
        with httpx.Client() as client:
            return str(client.get(url).json()["path"])

    async with httpx.AsyncClient() as shared:

        async def agent(name: str) -> list[str]:
            path = tmp_path / f"{name}.json"
            async with replay.use_cassette(path, mode=mode, unused="fail"):
                await inside.wait()
                heard = []
                for step in range(3):
                    reply = await shared.post(f"{base}/{name}/{step}", json={"step": step})
                    heard.append(reply.json()["path"])
                    await asyncio.sleep(0)
                async with aiohttp.ClientSession() as session:
                    async with session.get(f"{base}/{name}/aiohttp") as response:
                        heard.append((await response.json())["path"])
                heard.append(await asyncio.to_thread(sync_call, f"{base}/{name}/thread"))
            return heard

        heard = await asyncio.gather(*(agent(name) for name in AGENTS))
    return dict(zip(AGENTS, heard, strict=True))


def expected(name: str) -> list[str]:
    return [f"/{name}/0", f"/{name}/1", f"/{name}/2", f"/{name}/aiohttp", f"/{name}/thread"]


def test_concurrent_tasks_record_into_and_replay_from_their_own_cassettes(
    tmp_path: Path,
) -> None:
    with echo_server() as base:
        recorded = asyncio.run(agents(base, tmp_path, "once"))
    assert recorded == {name: expected(name) for name in AGENTS}
    for name in AGENTS:
        assert paths_in(tmp_path / f"{name}.json") == sorted(expected(name))
    assert port_refuses(base)

    # Mode none: a request routed to another agent's cassette would miss there, and one left
    # unasked in its own would fail the block (unused="fail").
    replayed = asyncio.run(agents(base, tmp_path, "none"))
    assert replayed == recorded


def ask(url: str) -> str:
    with httpx.Client() as client:
        return str(client.get(url).json()["path"])


@pytest.fixture
def base() -> Iterator[str]:
    with echo_server() as url:
        yield url


def in_thread(work: Callable[[], object]) -> None:
    thread = threading.Thread(target=work)
    thread.start()
    thread.join()


def test_a_thread_started_inside_a_block_uses_that_block(base: str, tmp_path: Path) -> None:
    """Even while a block entered later on another thread is the innermost one open."""
    other_open, done = threading.Event(), threading.Event()

    def other() -> None:
        with replay.use_cassette(tmp_path / "other.json"):
            other_open.set()
            done.wait(10)
            ask(f"{base}/other")

    other_thread = threading.Thread(target=other)
    with replay.use_cassette(tmp_path / "mine.json"):
        other_thread.start()
        assert other_open.wait(10)
        in_thread(lambda: ask(f"{base}/mine/thread"))

        class Worker(threading.Thread):  # a subclass with its own run
            def run(self) -> None:
                ask(f"{base}/mine/subclass")

        worker = Worker()
        worker.start()
        worker.join()
        ask(f"{base}/mine/main")
        done.set()
        other_thread.join()
    assert paths_in(tmp_path / "mine.json") == ["/mine/main", "/mine/subclass", "/mine/thread"]
    assert paths_in(tmp_path / "other.json") == ["/other"]


def test_a_thread_started_before_any_block_goes_through_the_innermost_one_open(
    base: str, tmp_path: Path
) -> None:
    """As a connection pool's thread that an SDK started at import does."""
    jobs: queue.Queue[str | None] = queue.Queue()
    answers: queue.Queue[str] = queue.Queue()

    def serve_jobs() -> None:
        while (url := jobs.get()) is not None:
            answers.put(ask(url))

    def through_worker(path: str) -> str:
        jobs.put(f"{base}{path}")
        return answers.get(timeout=10)

    worker = threading.Thread(target=serve_jobs)
    worker.start()
    try:
        with replay.use_cassette(tmp_path / "outer.json"):
            assert through_worker("/outer/1") == "/outer/1"
            with replay.use_cassette(tmp_path / "inner.json"):
                assert through_worker("/inner") == "/inner"
            assert through_worker("/outer/2") == "/outer/2"
    finally:
        jobs.put(None)
        worker.join()
    assert paths_in(tmp_path / "outer.json") == ["/outer/1", "/outer/2"]
    assert paths_in(tmp_path / "inner.json") == ["/inner"]


def test_a_thread_started_in_a_block_that_ended_goes_through_the_one_open_now(
    base: str, tmp_path: Path
) -> None:
    jobs: queue.Queue[str | None] = queue.Queue()
    answers: queue.Queue[str] = queue.Queue()

    def serve_jobs() -> None:
        while (url := jobs.get()) is not None:
            answers.put(ask(url))

    worker = threading.Thread(target=serve_jobs)
    try:
        with replay.use_cassette(tmp_path / "first.json"):
            worker.start()  # a pool's thread, started by the first block's first call
            jobs.put(f"{base}/first")
            assert answers.get(timeout=10) == "/first"
        with replay.use_cassette(tmp_path / "second.json"):
            jobs.put(f"{base}/second")
            assert answers.get(timeout=10) == "/second"
    finally:
        jobs.put(None)
        worker.join()
    assert paths_in(tmp_path / "first.json") == ["/first"]
    assert paths_in(tmp_path / "second.json") == ["/second"]


MARKED_TEST = """
import asyncio
import os

import httpx
import pytest
import replay

URL = os.environ["ECHO_URL"]


@pytest.mark.replay(unused="fail")
async def test_agents_beside_the_test():
    inside = asyncio.Barrier(3)
    async with httpx.AsyncClient() as client:

        async def agent(name):
            async with replay.use_cassette(f"agents/{name}.json", unused="fail"):
                await inside.wait()
                await client.get(f"{URL}/{name}")
                await inside.wait()

        async def the_test_itself():
            await inside.wait()  # both agents' blocks are open: the innermost is one of them
            await client.get(f"{URL}/test")
            await inside.wait()

        await asyncio.gather(agent("a"), agent("b"), the_test_itself())
"""


def test_under_the_marker_the_test_keeps_its_cassette_beside_agents_with_their_own(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    pytester.makepyfile(test_marked=MARKED_TEST)
    pytester.makefile(".toml", pyproject='[tool.pytest.ini_options]\nasyncio_mode = "auto"\n')
    with echo_server() as base:
        monkeypatch.setenv("ECHO_URL", base)
        pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
    assert port_refuses(base)
    marked = pytester.path / "cassettes" / "test_marked" / "test_agents_beside_the_test.json"
    assert paths_in(marked) == ["/test"]
    assert [paths_in(pytester.path / "agents" / f"{n}.json") for n in "ab"] == [["/a"], ["/b"]]
    replayed = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--replay-mode", "none")
    replayed.assert_outcomes(passed=1)
