"""The replay hot path: a body read whole taken at once, no load awaited or date read per request.

Recorded through the echo server on 127.0.0.1, replayed with it stopped, through httpx and
httpx2, sync and async.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from echo_server import echo_server

import replay
from replay._adapters.httpx_transport import ReplayedStream
from replay._core.expiry import Expiry

BODY = b'{"answer": "whole"}'


@pytest.fixture(autouse=True)
def no_mode_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REPLAY_MODE", raising=False)


def recorded(library: ModuleType, path: Path) -> str:
    """A cassette of one POST answered ``BODY``; the URL it was recorded at."""
    with echo_server([BODY]) as base:
        url = f"{base}/v1/answer"
        cassette = replay.Cassette(path, "once")
        with library.Client(transport=replay.ReplayTransport(cassette)) as client:
            assert client.post(url, json={"q": 1}).content == BODY
    return url


def unread_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    """Iterating a replayed stream fails: a read that goes through it shows."""

    def refused(self: ReplayedStream) -> Any:
        raise AssertionError("the body was read chunk by chunk")

    monkeypatch.setattr(ReplayedStream, "__iter__", refused)
    monkeypatch.setattr(ReplayedStream, "__aiter__", refused)


def test_a_sync_read_takes_the_whole_body_and_closes(
    library: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = recorded(library, tmp_path / "c.json")
    unread_stream(monkeypatch)
    cassette = replay.Cassette(tmp_path / "c.json", "none")
    with library.Client(transport=replay.ReplayTransport(cassette)) as client:
        response = client.post(url, json={"q": 1})
        assert response.content == BODY
        assert response.json() == {"answer": "whole"}
        assert response.is_closed and response.is_stream_consumed
        assert response.num_bytes_downloaded == len(BODY)
        assert response.elapsed.total_seconds() >= 0  # set when a client's response closes
        with pytest.raises(library.StreamConsumed):
            list(response.iter_raw())  # read, as a network response read to its end


def test_an_async_read_takes_the_whole_body_and_closes(
    library: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = recorded(library, tmp_path / "c.json")
    unread_stream(monkeypatch)

    async def replayed() -> Any:
        cassette = replay.Cassette(tmp_path / "c.json", "none")
        transport = replay.AsyncReplayTransport(cassette)
        async with library.AsyncClient(transport=transport) as client:
            response = await client.post(url, json={"q": 1})
            assert response.is_closed and response.is_stream_consumed
            assert response.elapsed.total_seconds() >= 0
            return response

    response = asyncio.run(replayed())
    assert response.content == BODY
    assert response.num_bytes_downloaded == len(BODY)


def test_a_streamed_response_is_still_read_chunk_by_chunk(
    library: ModuleType, tmp_path: Path
) -> None:
    url = recorded(library, tmp_path / "c.json")

    async def raw() -> list[bytes]:
        cassette = replay.Cassette(tmp_path / "c.json", "none", allow_playback_repeats=True)
        transport = replay.AsyncReplayTransport(cassette)
        async with library.AsyncClient(transport=transport) as client:
            async with client.stream("POST", url, json={"q": 1}) as response:
                return [chunk async for chunk in response.aiter_raw()]

    assert asyncio.run(raw()) == [BODY]
    cassette = replay.Cassette(tmp_path / "c.json", "none")
    with library.Client(transport=replay.ReplayTransport(cassette)) as client:
        with client.stream("POST", url, json={"q": 1}) as response:
            assert list(response.iter_raw()) == [BODY]


def test_async_requests_await_the_load_only_until_it_is_done(
    library: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = recorded(library, tmp_path / "c.json")
    loads: list[replay.Cassette] = []
    load = replay.Cassette.aload

    async def counted(self: replay.Cassette) -> None:
        loads.append(self)
        await load(self)

    monkeypatch.setattr(replay.Cassette, "aload", counted)

    async def replayed() -> None:
        cassette = replay.Cassette(tmp_path / "c.json", "none", allow_playback_repeats=True)
        transport = replay.AsyncReplayTransport(cassette)
        async with library.AsyncClient(transport=transport) as client:
            for _ in range(3):
                assert (await client.post(url, json={"q": 1})).content == BODY

    asyncio.run(replayed())
    assert len(loads) == 1


def test_recordings_are_not_dated_on_replay_without_max_age(
    library: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = recorded(library, tmp_path / "c.json")

    def dated(*args: object) -> None:
        raise AssertionError("a recording's age was computed")

    monkeypatch.setattr(Expiry, "age", dated)
    cassette = replay.Cassette(tmp_path / "c.json", "none")
    with library.Client(transport=replay.ReplayTransport(cassette)) as client:
        assert client.post(url, json={"q": 1}).content == BODY
