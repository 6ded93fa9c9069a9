"""The httpx and httpx2 adapters, with MockTransport standing in for the network.

Recording through real loopback HTTP and the real SDKs is in test_sdks.py;
here the adapters' conversions are checked: response classes, chunk
boundaries, decoding, failures, and sync/async agreement.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import httpx2
import pytest

import replay
from replay._adapters.httpx_transport import library_of

LIBRARIES = [httpx, httpx2]
URL = "https://api.test/v1/chat/completions"
EVENTS = [b'data: {"id":"chatcmpl-Ab12Cd34Ef56","n":%d}\n\n' % n for n in range(5)] + [
    b"data: [DONE]\n\n"
]


@pytest.fixture(autouse=True)
def no_mode_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REPLAY_MODE", raising=False)


def network(lib: ModuleType, calls: list[str]) -> Any:
    """A stand-in server: a JSON answer, a stream in five events, a gzip body, a refusal."""

    def handle(request: Any) -> Any:
        calls.append(request.url.path)
        if request.url.path == "/stream":
            return lib.Response(
                200, headers={"content-type": "text/event-stream"}, stream=SplitStream(lib)
            )
        if request.url.path == "/gzip":
            body = gzip.compress(b'{"zipped": true}')
            return lib.Response(
                200,
                headers={"content-encoding": "gzip", "content-type": "application/json"},
                content=body,
            )
        if request.url.path == "/timeout":
            raise lib.ReadTimeout("timed out", request=request)
        return lib.Response(200, json={"echo": request.content.decode()})

    return lib.MockTransport(handle)


def SplitStream(lib: ModuleType) -> Any:
    class Events(lib.SyncByteStream, lib.AsyncByteStream):  # type: ignore[name-defined, misc]
        def __iter__(self) -> Any:
            yield from EVENTS

        async def __aiter__(self) -> Any:
            for event in EVENTS:
                yield event

    return Events()


def exercise(client: Any) -> dict[str, Any]:
    with client.stream("POST", "https://api.test/stream", json={"stream": True}) as streamed:
        chunks = list(streamed.iter_raw())
    return {
        "json": client.post(URL, json={"q": 1}).json(),
        "chunks": chunks,
        "gzip": client.get("https://api.test/gzip").json(),
    }


async def exercise_async(client: Any) -> dict[str, Any]:
    async with client.stream("POST", "https://api.test/stream", json={"stream": True}) as streamed:
        chunks = [chunk async for chunk in streamed.aiter_raw()]
    return {
        "json": (await client.post(URL, json={"q": 1})).json(),
        "chunks": chunks,
        "gzip": (await client.get("https://api.test/gzip")).json(),
    }


@pytest.mark.parametrize("lib", LIBRARIES, ids=lambda lib: lib.__name__)
def test_sync_record_then_replay(tmp_path: Path, lib: ModuleType) -> None:
    path, calls = tmp_path / "c.json", []
    with lib.Client(
        transport=replay.ReplayTransport(replay.Cassette(path), network(lib, calls))
    ) as client:
        recorded = exercise(client)
    assert recorded["gzip"] == {"zipped": True}
    # Each event whole as it came, its id a placeholder of its shape, not the real id.
    assert [len(c) for c in recorded["chunks"]] == [len(c) for c in EVENTS]
    assert not any(b"chatcmpl-Ab12Cd34Ef56" in chunk for chunk in recorded["chunks"])
    calls.clear()
    with lib.Client(
        transport=replay.ReplayTransport(replay.Cassette(path, mode="none"), network(lib, calls))
    ) as client:
        replayed = exercise(client)
    assert calls == []
    assert replayed == recorded  # recording showed what replay shows


@pytest.mark.parametrize("lib", LIBRARIES, ids=lambda lib: lib.__name__)
async def test_sync_and_async_write_the_same_cassette(tmp_path: Path, lib: ModuleType) -> None:
    sync_path, async_path = tmp_path / "sync.json", tmp_path / "async.json"
    with lib.Client(
        transport=replay.ReplayTransport(replay.Cassette(sync_path), network(lib, []))
    ) as client:
        exercise(client)
    transport = replay.AsyncReplayTransport(replay.Cassette(async_path), network(lib, []))
    async with lib.AsyncClient(transport=transport) as aclient:
        await exercise_async(aclient)
    assert _without_times(sync_path.read_bytes()) == _without_times(async_path.read_bytes())
    async with lib.AsyncClient(
        transport=replay.AsyncReplayTransport(replay.Cassette(sync_path, mode="none"))
    ) as aclient:
        replayed = await exercise_async(aclient)
    assert len(replayed["chunks"]) == len(EVENTS) and replayed["gzip"] == {"zipped": True}


def _without_times(data: bytes) -> bytes:
    return re.sub(rb'"(at|recorded_at)": [^,\n]+', b"", data)


def test_one_transport_serves_both_libraries(tmp_path: Path) -> None:
    transport = replay.ReplayTransport(replay.Cassette(tmp_path / "c.json"), network(httpx, []))
    with httpx.Client(transport=transport) as old:
        assert old.post(URL, json={"q": 1}).json() == {"echo": '{"q":1}'}
    transport = replay.ReplayTransport(replay.Cassette(tmp_path / "c.json", mode="none"))
    with httpx2.Client(transport=transport) as new:
        response = new.post(URL, json={"q": 1})
    assert isinstance(response, httpx2.Response) and response.json() == {"echo": '{"q":1}'}


@pytest.mark.parametrize("lib", LIBRARIES, ids=lambda lib: lib.__name__)
def test_transport_failures_replay_as_the_clients_exception(
    tmp_path: Path, lib: ModuleType
) -> None:
    path = tmp_path / "c.json"
    with lib.Client(
        transport=replay.ReplayTransport(replay.Cassette(path), network(lib, []))
    ) as client:
        with pytest.raises(lib.ReadTimeout):
            client.get("https://api.test/timeout")
    with lib.Client(transport=replay.ReplayTransport(replay.Cassette(path, mode="none"))) as client:
        with pytest.raises(lib.ReadTimeout, match="timed out"):
            client.get("https://api.test/timeout")


@pytest.mark.parametrize("lib", LIBRARIES, ids=lambda lib: lib.__name__)
def test_an_abandoned_stream_is_saved_incomplete_and_replays_as_far(
    tmp_path: Path, lib: ModuleType
) -> None:
    path = tmp_path / "c.json"
    with lib.Client(
        transport=replay.ReplayTransport(replay.Cassette(path), network(lib, []))
    ) as client:
        with client.stream("POST", "https://api.test/stream") as streamed:
            first_two = [chunk for _, chunk in zip(range(2), streamed.iter_raw(), strict=False)]
    assert b'"complete": false' in path.read_bytes()
    with lib.Client(transport=replay.ReplayTransport(replay.Cassette(path, mode="none"))) as client:
        with client.stream("POST", "https://api.test/stream") as streamed:
            assert len(list(streamed.iter_raw())) == len(first_two) == 2


def test_a_miss_never_reaches_the_network(tmp_path: Path) -> None:
    calls: list[str] = []
    transport = replay.ReplayTransport(
        replay.Cassette(tmp_path / "c.json", mode="none"), network(httpx, calls)
    )
    with httpx.Client(transport=transport) as client, pytest.raises(replay.CassetteMiss):
        client.get("https://api.test/anything")
    assert calls == []


def test_library_of_requests() -> None:
    assert library_of(httpx.Request("GET", "https://a.test")) is httpx
    assert library_of(httpx2.Request("GET", "https://a.test")) is httpx2


def test_a_body_in_an_encoding_we_cannot_undo_is_kept_encoded_with_its_header(
    tmp_path: Path,
) -> None:
    # "compress" (LZW), which no module here decodes: httpx hands it over as it came, and so
    # does replay, once a scan of its bytes found no secret (tests/cassette/test_real_traffic.py).
    encoded = b"\x1f\x9d\x90compressed bytes"
    headers = {"content-encoding": "compress", "content-type": "application/octet-stream"}
    network = httpx.MockTransport(
        lambda request: httpx.Response(200, headers=headers, content=encoded)
    )
    path = tmp_path / "c.json"
    with httpx.Client(transport=replay.ReplayTransport(replay.Cassette(path), network)) as client:
        recorded = client.get("https://api.test/lzw")
        assert recorded.headers["content-encoding"] == "compress"
    with httpx.Client(
        transport=replay.ReplayTransport(replay.Cassette(path, mode="none"))
    ) as client:
        replayed = client.get("https://api.test/lzw")
    assert replayed.headers["content-encoding"] == "compress"
    assert b'"content-encoding": "compress"' in path.read_bytes()
    assert replayed.read() == recorded.read()
