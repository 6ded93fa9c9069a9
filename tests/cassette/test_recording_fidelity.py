"""What recording keeps and replay gives back, over real loopback HTTP: stream chunk
boundaries, transport exceptions, abandoned streams, pacing, sync/async agreement, misses.
"""

from __future__ import annotations

import json
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import httpx2
import openai
import pytest
from conftest import StoppedServer, masked
from echo_server import echo_server

import replay
from replay._cassette import Record
from replay._core.model import Request, TransportFailure
from replay._store import cassette_file
from replay.tools.fakellm import FakeLLMServer

ServerGone = Callable[[], StoppedServer]
CHAT = "/v1/chat/completions"


def chat(text: str, **extra: Any) -> dict[str, Any]:
    return {"model": "m", "messages": [{"role": "user", "content": text}], **extra}


def sync_client(library: ModuleType, cassette: replay.Cassette, server: FakeLLMServer) -> Any:
    auth = {"authorization": f"Bearer {server.api_key}"}
    transport = replay.ReplayTransport(cassette)
    return library.Client(transport=transport, base_url=server.url, headers=auth, timeout=5)


def async_client(library: ModuleType, cassette: replay.Cassette, server: FakeLLMServer) -> Any:
    auth = {"authorization": f"Bearer {server.api_key}"}
    transport = replay.AsyncReplayTransport(cassette)
    return library.AsyncClient(transport=transport, base_url=server.url, headers=auth, timeout=5)


# --- Stream chunk boundaries -------------------------------------------------------------


def read_three_ways(client: Any) -> list[list[Any]]:
    """The same stream read with iter_raw, iter_bytes and iter_lines (three responses)."""
    reads = []
    for reader in ("iter_raw", "iter_bytes", "iter_lines"):
        with client.stream("POST", CHAT, json=chat("tell me more", stream=True)) as response:
            reads.append(list(getattr(response, reader)()))
    return reads


async def aread_three_ways(client: Any) -> list[list[Any]]:
    reads = []
    for reader in ("aiter_raw", "aiter_bytes", "aiter_lines"):
        async with client.stream("POST", CHAT, json=chat("tell me more", stream=True)) as response:
            reads.append([piece async for piece in getattr(response, reader)()])
    return reads


def assert_same_boundaries(recorded: list[list[Any]], replayed: list[list[Any]]) -> None:
    for before, after in zip(recorded, replayed, strict=True):
        # Placeholders keep the real values' widths, so every piece keeps its length.
        assert [len(piece) for piece in after] == [len(piece) for piece in before]
        assert masked(after) == masked(before)
    raw, _, lines = replayed
    assert len(raw) > 5  # one chunk per event: the server flushed each token
    assert [line for line in lines if line][-1] == "data: [DONE]"


def test_sync_stream_boundaries(
    library: ModuleType, llm_env: FakeLLMServer, server_gone: ServerGone, cassette_path: Path
) -> None:
    with replay.Cassette(cassette_path) as cassette, sync_client(library, cassette, llm_env) as c:
        recorded = read_three_ways(c)
    stopped = server_gone()
    with (
        replay.Cassette(cassette_path, "none") as cassette,
        sync_client(library, cassette, llm_env) as c,
    ):
        replayed = read_three_ways(c)
    stopped.assert_untouched()
    assert_same_boundaries(recorded, replayed)


async def test_async_stream_boundaries(
    library: ModuleType, llm_env: FakeLLMServer, server_gone: ServerGone, cassette_path: Path
) -> None:
    with replay.Cassette(cassette_path) as cassette:
        async with async_client(library, cassette, llm_env) as client:
            recorded = await aread_three_ways(client)
    stopped = server_gone()
    with replay.Cassette(cassette_path, "none") as cassette:
        async with async_client(library, cassette, llm_env) as client:
            replayed = await aread_three_ways(client)
    stopped.assert_untouched()
    assert_same_boundaries(recorded, replayed)


# --- Transport exceptions ----------------------------------------------------------------


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_a_connection_never_made_is_not_recorded(
    library: ModuleType, llm_server: FakeLLMServer, cassette_path: Path
) -> None:
    """A first run with the API down raises as it would without replay and stores nothing,
    so the next run, with the API up, records the real answer instead of replaying an outage."""
    refused = f"http://127.0.0.1:{closed_port()}{CHAT}"
    with replay.Cassette(cassette_path) as cassette:
        client = library.Client(transport=replay.ReplayTransport(cassette))
        with pytest.raises(library.ConnectError):
            client.post(refused, json=chat("hi"))
    assert cassette.recorded == 0
    assert not cassette_path.exists()
    with replay.Cassette(cassette_path) as cassette:
        with sync_client(library, cassette, llm_server) as client:
            assert client.post(CHAT, json=chat("hi")).status_code == 200
    (entry,) = json.loads(cassette_path.read_bytes())["interactions"].values()
    assert [r["status"] for r in entry["responses"]] == [200]


def test_a_failed_tls_handshake_is_not_recorded(library: ModuleType, cassette_path: Path) -> None:
    """https:// to a server speaking plain HTTP: no request reached the API."""
    with echo_server() as url, replay.Cassette(cassette_path) as cassette:
        client = library.Client(transport=replay.ReplayTransport(cassette))
        with pytest.raises(library.ConnectError):
            client.get(url.replace("http://", "https://") + "/v1/models")
    assert cassette.recorded == 0 and not cassette_path.exists()


def test_a_stored_connect_error_still_replays_as_the_clients_library_error(
    cassette_path: Path,
) -> None:
    """Cassettes recorded before connection failures were left out keep replaying them."""
    url = "http://127.0.0.1:9/v1/models"
    with replay.Cassette(cassette_path) as cassette:
        decision = cassette.decide(Request("GET", url, (), b""))
        assert isinstance(decision, Record)
        cassette.add(decision, TransportFailure("ConnectError", "[Errno 111] refused", "t"))
    for library in (httpx, httpx2):
        with replay.Cassette(cassette_path, "none") as cassette:
            client = library.Client(transport=replay.ReplayTransport(cassette))
            with pytest.raises(library.ConnectError, match="refused") as replayed:
                client.get(url)
        assert replayed.value.request.url == url


async def test_read_timeout_is_recorded_and_raised_again(
    library: ModuleType, llm_env: FakeLLMServer, server_gone: ServerGone, cassette_path: Path
) -> None:
    body = chat("take your time", model="slow")

    async def call() -> None:
        with replay.Cassette(cassette_path) as cassette:
            async with async_client(library, cassette, llm_env) as client:
                await client.post(CHAT, json=body, timeout=0.2)

    with pytest.raises(library.ReadTimeout):
        await call()
    stopped = server_gone()
    with pytest.raises(library.ReadTimeout):
        await call()
    stopped.assert_untouched()
    (entry,) = json.loads(cassette_path.read_bytes())["interactions"].values()
    assert [r["error"]["type"] for r in entry["responses"]] == ["ReadTimeout"]


async def test_timeout_mid_stream_is_raised_again_after_the_same_chunks(
    library: ModuleType, llm_env: FakeLLMServer, server_gone: ServerGone, cassette_path: Path
) -> None:
    llm_env.chunk_delay = 1.0  # the first event comes at once, the second too late
    timeout = library.Timeout(5.0, read=0.2)

    async def read(mode: str) -> tuple[list[bytes], Exception]:
        pieces: list[bytes] = []
        with replay.Cassette(cassette_path, mode) as cassette:
            async with async_client(library, cassette, llm_env) as client:
                body = chat("hi", stream=True)
                with pytest.raises(library.ReadTimeout) as raised:
                    async with client.stream("POST", CHAT, json=body, timeout=timeout) as r:
                        async for piece in r.aiter_raw():
                            pieces.append(piece)
        return pieces, raised.value

    recorded, recorded_error = await read("once")
    stopped = server_gone()
    replayed, replayed_error = await read("none")
    stopped.assert_untouched()
    assert len(recorded) == 1 and masked(replayed) == masked(recorded)
    assert str(replayed_error) == str(recorded_error)
    (entry,) = json.loads(cassette_path.read_bytes())["interactions"].values()
    (stored,) = entry["responses"]
    assert stored["complete"] is False and stored["stream_error"]["type"] == "ReadTimeout"


def test_an_sdk_sees_a_connection_error_each_time_the_api_is_down(cassette_path: Path) -> None:
    def attempt() -> openai.APIConnectionError:
        with replay.Cassette(cassette_path) as cassette:
            http = httpx2.Client(transport=replay.ReplayTransport(cassette))
            client = openai.OpenAI(
                http_client=http,
                base_url=f"http://127.0.0.1:{port}/v1",
                api_key="fk-down",
                max_retries=0,
            )
            with pytest.raises(openai.APIConnectionError) as raised:
                client.chat.completions.create(model="m", messages=[])
        return raised.value

    port = closed_port()
    for raised in (attempt(), attempt()):  # the second tries the network again
        assert type(raised.__cause__) is httpx2.ConnectError
    assert not cassette_path.exists()


# --- Abandoned streams -------------------------------------------------------------------


def test_abandoned_stream_is_saved_incomplete_and_replayed_as_far(
    library: ModuleType, llm_env: FakeLLMServer, server_gone: ServerGone, cassette_path: Path
) -> None:
    def read(cassette: replay.Cassette, limit: int | None) -> list[bytes]:
        with sync_client(library, cassette, llm_env) as client:
            with client.stream("POST", CHAT, json=chat("a long story", stream=True)) as response:
                pieces = []
                for piece in response.iter_raw():
                    pieces.append(piece)
                    if len(pieces) == limit:
                        break
                return pieces

    with replay.Cassette(cassette_path) as cassette:
        recorded = read(cassette, limit=3)
    (entry,) = json.loads(cassette_path.read_bytes())["interactions"].values()
    (stored,) = entry["responses"]
    assert stored["complete"] is False and len(stored["chunks"]) == 3
    stopped = server_gone()

    with replay.Cassette(cassette_path, "none") as cassette:
        replayed = read(cassette, limit=None)  # reads on to the end: the recording's end
    stopped.assert_untouched()
    assert masked(replayed) == masked(recorded)
    assert b"[DONE]" not in b"".join(replayed)


def test_abandoned_sdk_stream_replays_what_was_read(
    llm_env: FakeLLMServer, server_gone: ServerGone, cassette_path: Path
) -> None:
    def read(cassette: replay.Cassette, limit: int | None) -> list[Any]:
        http = httpx2.Client(transport=replay.ReplayTransport(cassette))
        client = openai.OpenAI(
            http_client=http, base_url=llm_env.url + "/v1", api_key=llm_env.api_key
        )
        stream = client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "one two three four"}], stream=True
        )
        chunks = []
        with stream:
            for chunk in stream:
                chunks.append(chunk.model_dump())
                if len(chunks) == limit:
                    break
        return chunks

    with replay.Cassette(cassette_path) as cassette:
        recorded = read(cassette, limit=3)
    stopped = server_gone()
    with replay.Cassette(cassette_path, "none") as cassette:
        replayed = read(cassette, limit=None)
    stopped.assert_untouched()
    assert masked(replayed) == masked(recorded)
    assert [c["choices"][0]["delta"]["content"] for c in replayed] == ["", "Answer", " to:"]


# --- Pacing ------------------------------------------------------------------------------


def test_replay_speed_follows_the_recorded_pace(
    llm_env: FakeLLMServer, server_gone: ServerGone, cassette_path: Path
) -> None:
    llm_env.chunk_delay = 0.03  # a stream of ~8 events spread over ~0.2 s

    def read(speed: float | None) -> tuple[float, list[bytes]]:
        with replay.Cassette(cassette_path, replay_speed=speed) as cassette:
            with sync_client(httpx, cassette, llm_env) as client:
                started = time.monotonic()
                with client.stream("POST", CHAT, json=chat("pace me", stream=True)) as response:
                    pieces = list(response.iter_raw())
                return time.monotonic() - started, pieces

    _, recorded = read(None)
    (entry,) = json.loads(cassette_path.read_bytes())["interactions"].values()
    span = entry["responses"][0]["chunks"][-1]["at"]
    assert span >= 0.15
    stopped = server_gone()

    paced, paced_pieces = read(1.0)
    instant, instant_pieces = read(None)
    stopped.assert_untouched()
    assert paced >= 0.5 * span
    assert instant < paced / 2
    assert masked(paced_pieces) == masked(instant_pieces) == masked(recorded)


# --- Sync and async agree ----------------------------------------------------------------


def comparable(path: Path) -> dict[str, Any]:
    """The cassette's entries without what differs from run to run: times and cut points."""
    interactions = json.loads(path.read_bytes())["interactions"]
    for entry in interactions.values():
        for response in entry["responses"]:
            del response["recorded_at"]
            if "chunks" in response:
                response["chunks"] = "".join(chunk["text"] for chunk in response["chunks"])
    return dict(interactions)


async def test_sync_and_async_transports_record_the_same_entries(
    library: ModuleType, llm_env: FakeLLMServer, tmp_path: Path
) -> None:
    bodies = [chat("plain"), chat("streamed", stream=True), chat("plain", temperature=1.5)]
    sync_path, async_path = tmp_path / "sync.json", tmp_path / "async.json"

    with replay.Cassette(sync_path) as cassette, sync_client(library, cassette, llm_env) as c:
        for body in bodies:
            c.post(CHAT, json=body).read()
    with replay.Cassette(async_path) as cassette:
        async with async_client(library, cassette, llm_env) as client:
            for body in bodies:
                await (await client.post(CHAT, json=body)).aread()

    assert len(llm_env.requests) == 2 * len(bodies)
    sync_entries = comparable(sync_path)
    assert len(sync_entries) == len(bodies)
    assert sync_entries == comparable(async_path)


# --- Misses ------------------------------------------------------------------------------


def test_miss_on_a_missing_cassette_in_mode_none(
    library: ModuleType, llm_env: FakeLLMServer, cassette_path: Path
) -> None:
    with (
        replay.Cassette(cassette_path, "none") as cassette,
        sync_client(library, cassette, llm_env) as c,
    ):
        with pytest.raises(replay.CassetteMiss) as missed:
            c.post(CHAT, json=chat("hello"))
    miss = missed.value
    assert miss.cassette == cassette_path and miss.method == "POST"
    assert miss.url == llm_env.url + CHAT
    assert str(cassette_path) in str(miss) and f"POST {llm_env.url}{CHAT}" in str(miss)
    assert "mode 'none' never records" in str(miss)
    assert llm_env.requests == [] and not cassette_path.exists()


def test_miss_names_the_closest_request_and_the_json_paths_that_differ(
    llm_env: FakeLLMServer, cassette_path: Path
) -> None:
    with replay.Cassette(cassette_path) as cassette, sync_client(httpx2, cassette, llm_env) as c:
        c.post(CHAT, json=chat("hello", temperature=0.2))
        c.post("/v1/responses", json={"model": "m", "input": "other"})
    seen = len(llm_env.requests)

    with (
        replay.Cassette(cassette_path, "none") as cassette,
        sync_client(httpx2, cassette, llm_env) as c,
    ):
        with pytest.raises(replay.CassetteMiss) as missed:
            c.post(CHAT, json=chat("hello!", temperature=0.7))
    miss = missed.value
    assert miss.closest_url == f"POST {llm_env.url}{CHAT}"
    found = {d.field: (d.recorded, d.requested) for d in miss.differences}
    assert found == {
        "body.messages[0].content": ("hello", "hello!"),
        "body.temperature": (0.2, 0.7),
    }
    assert "body.messages[0].content" in str(miss) and "'hello!'" in str(miss)
    assert len(llm_env.requests) == seen  # a miss never falls through to the network


def test_replay_mode_variable_overrides_the_mode(
    llm_env: FakeLLMServer, cassette_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REPLAY_MODE", "none")
    with (
        replay.Cassette(cassette_path, "once") as cassette,
        sync_client(httpx, cassette, llm_env) as c,
    ):
        assert cassette.mode is replay.Mode.NONE
        with pytest.raises(replay.CassetteMiss):
            c.post(CHAT, json=chat("hello"))
    assert llm_env.requests == [] and not cassette_path.exists()

    monkeypatch.setenv("REPLAY_MODE", "all")
    for _ in range(2):  # the second run re-records although mode "none" was asked for
        with (
            replay.Cassette(cassette_path, "none") as cassette,
            sync_client(httpx, cassette, llm_env) as c,
        ):
            assert c.post(CHAT, json=chat("hello")).json()["choices"][0]["message"]["content"] == (
                "Answer to: hello"
            )
    assert len(llm_env.requests) == 2

    monkeypatch.setenv("REPLAY_MODE", "sometimes")
    with pytest.raises(replay.ConfigError, match="REPLAY_MODE"):
        replay.Cassette(cassette_path)


def test_sdk_surfaces_the_miss_itself_and_does_not_retry(
    llm_env: FakeLLMServer, cassette_path: Path
) -> None:
    with replay.Cassette(cassette_path, "none") as cassette:
        http = httpx2.Client(transport=replay.ReplayTransport(cassette))
        client = openai.OpenAI(http_client=http, base_url=llm_env.url + "/v1")  # retries on
        with pytest.raises(replay.CassetteMiss, match="no recording for POST"):
            client.chat.completions.create(model="m", messages=[])
    assert len(cassette.misses) == 1 and llm_env.requests == []


def test_a_name_too_long_to_record_into_is_refused_before_the_call_is_sent(
    tmp_path: Path, llm_server: FakeLLMServer
) -> None:
    """The API was called, then the journal could not be made ("File name too long"): the
    answer paid for was lost."""
    too_long = tmp_path / f"{'a' * (cassette_file.MAX_NAME_BYTES - len('.json') + 1)}.json"
    fits = tmp_path / f"{'a' * (cassette_file.MAX_NAME_BYTES - len('.json'))}.json"
    with sync_client(httpx, replay.Cassette(too_long, mode="new_episodes"), llm_server) as client:
        with pytest.raises(replay.CassetteError, match="its name is 238 bytes") as raised:
            client.post(CHAT, json=chat("lost"))
    assert "nothing is recorded; name it shorter" in str(raised.value)
    assert llm_server.requests == [] and not any(tmp_path.iterdir())
    with sync_client(httpx, replay.Cassette(fits, mode="new_episodes"), llm_server) as client:
        assert client.post(CHAT, json=chat("kept")).is_success
    assert fits.exists() and len(llm_server.requests) == 1


def test_every_field_a_recording_writes_is_in_the_format_documentation(
    tmp_path: Path, llm_server: FakeLLMServer
) -> None:
    """The request's "sent" was written into every cassette and described nowhere."""
    path = tmp_path / "c.json"
    with sync_client(httpx, replay.Cassette(path), llm_server) as client:
        client.post(CHAT, json=chat("plain"))
        with client.stream("POST", CHAT, json=chat("streamed", stream=True)) as streamed:
            streamed.read()
    document = json.loads(path.read_bytes())
    written = {"request": set(), "response": set()}
    for interaction in document["interactions"].values():
        written["request"] |= set(interaction["request"])
        for response in interaction["responses"]:
            written["response"] |= set(response)
    assert "sent" in written["request"] and "chunks" in written["response"]
    documented = (Path(__file__).parents[2] / "docs" / "format.md").read_text()
    missing = [f for part in written.values() for f in sorted(part) if f'"{f}"' not in documented]
    assert missing == []


def test_the_readmes_gitignore_leaves_only_the_cassettes_to_commit(
    tmp_path: Path, llm_server: FakeLLMServer
) -> None:
    """The lock files beside every cassette were not in the README's advice."""
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    block = readme[
        readme.index("# .gitignore\n") : readme.index("```", readme.index("# .gitignore"))
    ]
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text(block)
    saved, recording = tmp_path / "saved.json", tmp_path / "sub" / "recording.json"
    with sync_client(httpx, replay.Cassette(saved), llm_server) as client:
        client.post(CHAT, json=chat("saved"))
    unsaved = sync_client(httpx, replay.Cassette(recording), llm_server)
    unsaved.post(CHAT, json=chat("journalled"))  # not saved yet: only in its journal
    beside = tmp_path / f".saved.json.{'0' * 12}.tmp"  # a save's copy, caught mid-write
    beside.write_bytes(b"{}")
    assert (tmp_path / ".saved.json.lock").exists()
    assert (tmp_path / "sub" / ".recording.json.journal").is_dir()
    status = subprocess.run(
        ["git", "-C", str(tmp_path), "status", "--porcelain", "--untracked-files=all"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert sorted(line[3:] for line in status.splitlines()) == [".gitignore", "saved.json"]
    unsaved.close()
