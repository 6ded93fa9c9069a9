"""``unused``: a cassette closed with recorded responses nobody asked for warns or fails.

Recorded through real loopback servers (the echo server, the fake LLM API through the openai
SDK, the Realtime server over WebSocket), replayed with each server stopped.
"""

from __future__ import annotations

import asyncio
import json
import warnings
from collections.abc import Iterator
from pathlib import Path

import httpx
import openai
import pytest
import websockets.sync.client
from conftest import TEST_API_KEY, port_refuses
from echo_server import echo_server
from realtime_server import RealtimeServer

import replay
from replay.tools.fakellm import FakeLLMServer


@pytest.fixture(autouse=True)
def no_mode_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REPLAY_MODE", raising=False)


@pytest.fixture
def recorded(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A cassette of three requests, /a, /b and /c, recorded from the echo server; the block
    runs with the server stopped."""
    path = tmp_path / "c.json"
    with echo_server() as base:
        with replay.use_cassette(path), httpx.Client() as client:
            for name in "abc":
                client.post(f"{base}/{name}", json={"q": name})
    assert port_refuses(base)
    yield path, base


def ask(base: str, *names: str) -> None:
    with httpx.Client() as client:
        for name in names:
            assert client.post(f"{base}/{name}", json={"q": name}).json()["path"] == f"/{name}"


def test_fail_names_the_cassette_and_each_unused_request(recorded: tuple[Path, str]) -> None:
    path, base = recorded
    with pytest.raises(replay.UnusedRecordings) as raised:
        with replay.use_cassette(path, mode="none", unused="fail"):
            ask(base, "b")
    error = raised.value
    assert isinstance(error, replay.ReplayError)
    assert error.cassette == path
    assert [(r.method, r.url) for r in error.unused] == [
        ("POST", f"{base}/a"),
        ("POST", f"{base}/c"),
    ]
    assert str(error).splitlines()[:3] == [
        f"cassette {path}: 2 recorded responses were never used",
        f"  POST {base}/a",
        f"  POST {base}/c",
    ]


def test_every_response_used_closes_quietly_and_allow_is_the_default(
    recorded: tuple[Path, str],
) -> None:
    path, base = recorded
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with replay.use_cassette(path, mode="none", unused="fail"):
            ask(base, "c", "a", "b")
        with replay.use_cassette(path, mode="none", unused="warn"):
            ask(base, "c", "a", "b")
        with replay.use_cassette(path, mode="none") as cassette:  # allow: today's behaviour
            ask(base, "a")
    assert cassette.unused.value == "allow"
    assert len(cassette.unused_responses()) == 2


def test_warn_emits_one_warning_worded_as_the_error(recorded: tuple[Path, str]) -> None:
    path, base = recorded
    with pytest.warns(UserWarning) as caught:
        with replay.use_cassette(path, mode="none", unused="warn"):
            ask(base, "a")
    [warning] = [w for w in caught if "never used" in str(w.message)]
    assert str(warning.message).startswith(
        f"cassette {path}: 2 recorded responses were never used\n  POST {base}/b\n"
    )
    assert warning.filename == __file__  # pointed at the block, not into replay


def test_a_cassette_of_its_own_checks_on_closing(recorded: tuple[Path, str]) -> None:
    path, base = recorded
    with pytest.raises(replay.UnusedRecordings, match=r"POST .*/c"):
        with (
            replay.Cassette(path, "none", unused="fail") as cassette,
            httpx.Client(transport=replay.ReplayTransport(cassette)) as client,
        ):
            client.post(f"{base}/a", json={"q": "a"})
            client.post(f"{base}/b", json={"q": "b"})

    async def replayed_in_async_with() -> None:
        async with replay.Cassette(path, "none", unused="fail") as cassette:
            transport = replay.AsyncReplayTransport(cassette)
            async with httpx.AsyncClient(transport=transport) as client:
                await client.post(f"{base}/a", json={"q": "a"})

    with pytest.raises(replay.UnusedRecordings) as raised:
        asyncio.run(replayed_in_async_with())
    assert [r.url for r in raised.value.unused] == [f"{base}/b", f"{base}/c"]


def test_an_async_block_checks_too(recorded: tuple[Path, str]) -> None:
    path, base = recorded

    async def main() -> None:
        async with replay.use_cassette(path, mode="none", unused="fail"):
            async with httpx.AsyncClient() as client:
                await client.post(f"{base}/b", json={"q": "b"})

    with pytest.raises(replay.UnusedRecordings) as raised:
        asyncio.run(main())
    assert [r.url for r in raised.value.unused] == [f"{base}/a", f"{base}/c"]


def test_an_exception_leaving_the_block_is_not_masked(recorded: tuple[Path, str]) -> None:
    path, base = recorded
    with pytest.raises(KeyError, match="the test's own"):
        with replay.use_cassette(path, mode="none", unused="fail"):
            ask(base, "a")
            raise KeyError("the test's own")
    with pytest.raises(replay.CassetteMiss):  # a miss leaving the block stays the miss
        with replay.use_cassette(path, mode="none", unused="fail"):
            ask(base, "d")


def test_each_of_several_responses_to_one_request_counts(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    with echo_server([b'{"n": 1}', b'{"n": 2}', b'{"n": 3}']) as base:
        with replay.use_cassette(path), httpx.Client() as client:
            for _ in range(3):
                client.get(f"{base}/sampled")
    with pytest.raises(replay.UnusedRecordings) as raised:
        with replay.use_cassette(path, mode="none", unused="fail"), httpx.Client() as client:
            assert client.get(f"{base}/sampled").json() == {"n": 1}
    assert [str(r) for r in raised.value.unused] == [
        f"GET {base}/sampled (response 2 of 3)",
        f"GET {base}/sampled (response 3 of 3)",
    ]
    with replay.use_cassette(path, mode="none", unused="fail"), httpx.Client() as client:
        assert [client.get(f"{base}/sampled").json()["n"] for _ in range(3)] == [1, 2, 3]


def test_what_the_session_recorded_or_recorded_again_is_not_unused(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    with echo_server() as base:
        with replay.use_cassette(path, unused="fail"):  # records it all: nothing held before
            ask(base, "a", "b", "c")
        with pytest.raises(replay.UnusedRecordings) as raised:
            with replay.use_cassette(path, mode="all", unused="fail"):
                ask(base, "a", "b")  # recorded again: their old responses are replaced
        assert [r.url for r in raised.value.unused] == [f"{base}/c"]
        with replay.use_cassette(path, mode="new_episodes", unused="fail") as cassette:
            ask(base, "a", "b", "c", "d")  # d is recorded, the others replayed
        assert (cassette.replayed, cassette.recorded) == (3, 1)


def test_a_bad_value_is_a_config_error_naming_the_option(tmp_path: Path) -> None:
    with pytest.raises(replay.ConfigError) as raised:
        replay.use_cassette(tmp_path / "c.json", unused="strict")
    assert raised.value.option == "unused"
    assert str(raised.value) == "unused='strict': not a choice (one of allow, warn, fail)"
    with pytest.raises(replay.ConfigError, match="unused="):
        replay.Cassette(tmp_path / "c.json", unused=True)  # type: ignore[arg-type]


def test_a_stream_replayed_counts_as_used_read_to_its_end_or_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "c.json"
    monkeypatch.setenv("OPENAI_API_KEY", TEST_API_KEY)
    messages = [{"role": "user", "content": "tell me a story"}]

    def stream(client: openai.OpenAI, model: str, whole: bool) -> str:
        chunks = client.chat.completions.create(model=model, messages=messages, stream=True)
        with chunks:
            if not whole:  # its first chunk, then closed
                return next(iter(chunks)).model
            return "".join(chunk.choices[0].delta.content or "" for chunk in chunks)

    with FakeLLMServer(api_key=TEST_API_KEY, chunk_delay=0.002) as server:
        client = openai.OpenAI(base_url=server.url + "/v1", max_retries=0)
        with replay.use_cassette(path):
            for model in ("one", "two", "three"):
                assert stream(client, model, whole=True) == "Answer to: tell me a story"
    assert port_refuses(server.url)

    with pytest.raises(replay.UnusedRecordings) as raised:
        with replay.use_cassette(path, mode="none", unused="fail"):
            assert stream(client, "one", whole=True) == "Answer to: tell me a story"
            assert stream(client, "two", whole=False) == "two"
    assert [str(r) for r in raised.value.unused] == [f"POST {server.url}/v1/chat/completions"]
    with replay.use_cassette(path, mode="none", unused="fail"):  # each model's stream, once
        for model in ("three", "two", "one"):
            assert stream(client, model, whole=False) == model


@pytest.fixture
def realtime() -> Iterator[RealtimeServer]:
    with RealtimeServer(TEST_API_KEY) as server:
        yield server


def test_a_websocket_session_counts_as_used_once_replayed(
    realtime: RealtimeServer, tmp_path: Path
) -> None:
    """However far its client goes: the server's messages after the client's last one (the
    events of a response) are not waited for."""
    path = tmp_path / "c.json"
    headers = {"Authorization": f"Bearer {TEST_API_KEY}"}
    create = json.dumps({"type": "response.create"})

    def talk(url: str, read: int) -> list[str]:
        with websockets.sync.client.connect(url, additional_headers=headers) as connection:
            connection.send("hello")
            heard = [str(connection.recv())]
            connection.send(create)
            heard += [json.loads(connection.recv())["type"] for _ in range(read)]
            return heard

    with replay.use_cassette(path):
        whole = talk(realtime.ws_url + "/first", read=5)
        talk(realtime.ws_url + "/second", read=5)
    delta = "response.output_text.delta"
    assert whole == ["echo: hello", "response.created", delta, delta, "response.output_audio.delta",
                     "response.done"]  # fmt: skip
    realtime.stop()
    assert port_refuses(realtime.http_url)

    with replay.use_cassette(path, mode="none", unused="fail"):
        assert talk(realtime.ws_url + "/first", read=1) == whole[:2]  # the rest left unread
        talk(realtime.ws_url + "/second", read=0)
    with pytest.raises(replay.UnusedRecordings) as raised:
        with replay.use_cassette(path, mode="none", unused="fail"):
            talk(realtime.ws_url + "/first", read=5)
    assert [str(r) for r in raised.value.unused] == [f"GET {realtime.ws_url}/second"]
