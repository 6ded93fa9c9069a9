"""A save never cuts a response another caller is still reading.

Over a real loopback server whose stream holds its second half until the test lets it go:
one thread (or asyncio task) is in the middle of that stream when another closes its own
client on the same cassette, or ends a ``use_cassette`` block, which saves the cassette. The
stream must be recorded whole when it ends, and replay whole with the server stopped. What the
saving caller itself left open is still recorded as it stands (README, "Unclosed responses").
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

import replay
from replay._core.model import Response

FIRST = b'data: {"n": 1}\n\n'
REST = b'data: {"n": 2}\n\ndata: [DONE]\n\n'
WAIT = 10.0
"""Seconds any step may take before the test fails rather than hangs."""


class GatedServer:
    """``POST /slow`` streams ``FIRST`` at once and ``REST`` once :meth:`release` is called;
    ``POST /quick`` answers at once."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        gate = self.gate

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"  # the body ends when the connection closes

            def log_message(self, format: str, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("content-length") or 0))
                slow = self.path == "/slow"
                self.send_response(200)
                self.send_header("content-type", "text/event-stream" if slow else "text/plain")
                self.end_headers()
                if not slow:
                    self.wfile.write(b"quick")
                    return
                self.wfile.write(FIRST)
                self.wfile.flush()
                gate.wait(WAIT)
                self.wfile.write(REST)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> GatedServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.gate.set()
        self._server.shutdown()
        self._server.server_close()

    def release(self) -> None:
        self.gate.set()


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[GatedServer]:
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    with GatedServer() as running:
        yield running


def stored_slow(path: Path) -> list[tuple[bool, int]]:
    """(complete, number of chunks) of each response recorded for /slow."""
    return [
        (outcome.complete, len(outcome.chunks))
        for interaction in replay.Cassette(path, "none").interactions
        if interaction.request.url.endswith("/slow")
        for outcome in interaction.outcomes
        if isinstance(outcome, Response)
    ]


def replayed_slow(path: Path, url: str) -> bytes:
    with replay.Cassette(path, "none") as cassette:
        with httpx.Client(transport=replay.ReplayTransport(cassette)) as client:
            return client.post(url + "/slow").content


def run(target: object, name: str) -> threading.Thread:
    thread = threading.Thread(target=target, name=name)  # type: ignore[arg-type]
    thread.start()
    return thread


def test_closing_one_threads_client_does_not_cut_another_threads_stream(
    server: GatedServer, tmp_path: Path
) -> None:
    path = tmp_path / "c.json"
    cassette = replay.Cassette(path)
    reading = threading.Event()
    read: list[bytes] = []

    def slow_reader() -> None:
        with httpx.Client(transport=replay.ReplayTransport(cassette)) as client:
            with client.stream("POST", server.url + "/slow") as response:
                for chunk in response.iter_raw():
                    read.append(chunk)
                    reading.set()

    def quick_caller() -> None:
        with httpx.Client(transport=replay.ReplayTransport(cassette)) as client:
            assert client.post(server.url + "/quick").text == "quick"
        # The client is closed: the cassette was saved with the other stream still open.

    a = run(slow_reader, "a")
    assert reading.wait(WAIT)
    b = run(quick_caller, "b")
    b.join(WAIT)
    assert stored_slow(path) == []  # not cut: still being read
    server.release()
    a.join(WAIT)
    assert b"".join(read) == FIRST + REST
    assert stored_slow(path) == [(True, 2)]
    server.__exit__()
    assert replayed_slow(path, server.url) == FIRST + REST


def test_a_use_cassette_block_ending_leaves_another_threads_stream_to_its_end(
    server: GatedServer, tmp_path: Path
) -> None:
    path = tmp_path / "c.json"
    reading = threading.Event()
    read: list[bytes] = []

    def slow_reader() -> None:
        with httpx.Client() as client:  # routed by the block, made in this thread
            with client.stream("POST", server.url + "/slow") as response:
                for chunk in response.iter_raw():
                    read.append(chunk)
                    reading.set()

    with replay.use_cassette(path) as cassette:
        a = run(slow_reader, "a")
        assert reading.wait(WAIT)
        assert httpx.post(server.url + "/quick").text == "quick"
    assert json.loads(path.read_bytes())["interactions"]  # the block's own call is saved
    server.release()
    a.join(WAIT)
    assert b"".join(read) == FIRST + REST
    cassette.save()
    assert stored_slow(path) == [(True, 2)]
    server.__exit__()
    assert replayed_slow(path, server.url) == FIRST + REST


async def test_closing_one_tasks_client_does_not_cut_another_tasks_stream(
    server: GatedServer, tmp_path: Path
) -> None:
    path = tmp_path / "c.json"
    cassette = replay.Cassette(path)
    reading = asyncio.Event()
    read: list[bytes] = []

    async def slow_reader() -> None:
        async with httpx.AsyncClient(transport=replay.AsyncReplayTransport(cassette)) as client:
            async with client.stream("POST", server.url + "/slow") as response:
                async for chunk in response.aiter_raw():
                    read.append(chunk)
                    reading.set()

    async def quick_caller() -> None:
        async with httpx.AsyncClient(transport=replay.AsyncReplayTransport(cassette)) as client:
            assert (await client.post(server.url + "/quick")).text == "quick"

    a = asyncio.create_task(slow_reader())
    await asyncio.wait_for(reading.wait(), WAIT)
    await asyncio.create_task(quick_caller())
    assert stored_slow(path) == []
    server.release()
    await asyncio.wait_for(a, WAIT)
    assert b"".join(read) == FIRST + REST
    assert stored_slow(path) == [(True, 2)]


def test_a_stream_whose_thread_ended_unclosed_is_cut_by_the_next_save(
    server: GatedServer, tmp_path: Path
) -> None:
    """Nobody will read it further: a save by anyone records it as it stands."""
    path = tmp_path / "c.json"
    cassette = replay.Cassette(path)
    client = httpx.Client(transport=replay.ReplayTransport(cassette))
    opened: list[httpx.Response] = []

    def leave_open() -> None:
        response = client.send(client.build_request("POST", server.url + "/slow"), stream=True)
        next(response.iter_raw())
        opened.append(response)  # never closed

    run(leave_open, "a").join(WAIT)
    cassette.save()
    assert stored_slow(path) == [(False, 1)]
    server.release()
    opened[0].close()
    client.close()
    assert stored_slow(path) == [(False, 1)]
