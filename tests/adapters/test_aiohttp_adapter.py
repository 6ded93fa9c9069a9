"""aiohttp through a cassette, over real loopback HTTP: JSON, streams, gzip, failures."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import httpx2
import pytest
from echo_server import echo_server, silent_server

import replay
from replay._cassette import Record
from replay._core.model import Request, TransportFailure
from replay.tools.fakellm import FakeLLMServer

KEY = "sk-aiohttp-test-0123456789abcdef"
HEADERS = {"authorization": f"Bearer {KEY}"}


def chat(prompt: str, **extra: Any) -> dict[str, Any]:
    return {"model": "m", "messages": [{"role": "user", "content": prompt}], **extra}


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeLLMServer]:
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    with FakeLLMServer(api_key=KEY, chunk_delay=0.005) as running:
        yield running


async def conversation(session: aiohttp.ClientSession, url: str) -> dict[str, Any]:
    """JSON, an SSE stream read chunk by chunk, and a gzip-compressed answer."""
    endpoint = url + "/v1/chat/completions"
    async with session.post(endpoint, json=chat("hello"), headers=HEADERS) as plain:
        answer = await plain.json()
    streamed = await session.post(
        endpoint, json=chat("stream a few words to me", stream=True), headers=HEADERS
    )
    chunks = [data async for data, _ in streamed.content.iter_chunks()]
    async with session.post(endpoint, json=chat("zip", model="gzip"), headers=HEADERS) as zipped:
        unzipped = await zipped.json()
        encoding = zipped.headers.get("content-encoding")
    return {"answer": answer, "chunks": chunks, "zipped": unzipped, "encoding": encoding}


async def test_json_streams_and_gzip_replay_with_the_server_gone(
    tmp_path: Path, server: FakeLLMServer
) -> None:
    path = tmp_path / "c.json"
    async with aiohttp.ClientSession() as session:
        with replay.use_cassette(path) as recording:
            recorded = await conversation(session, server.url)
    assert recording.recorded == 3 and len(server.requests) == 3
    assert recorded["encoding"] == "gzip"  # the caller saw the server's answer as sent
    server.stop()

    async with aiohttp.ClientSession() as session:
        with replay.use_cassette(path, mode="none") as replaying:
            replayed = await conversation(session, server.url)
    assert replaying.replayed == 3 and len(server.requests) == 3
    assert replayed["answer"]["choices"] == recorded["answer"]["choices"]
    # Chunk by chunk: the boundaries the network gave are the ones replay gives.
    # (ids are placeholders of the real ones' length, so sizes match byte for byte)
    assert [len(c) for c in replayed["chunks"]] == [len(c) for c in recorded["chunks"]]
    assert len(replayed["chunks"]) > 1
    text = b"".join(replayed["chunks"]).decode()
    assert text.rstrip().endswith("data: [DONE]") and '"content": " words"' in text
    assert replayed["zipped"]["model"] == "gzip"
    assert replayed["encoding"] is None  # stored decoded, so no longer announced as gzip
    assert b"\x1f\x8b" not in path.read_bytes()


async def test_a_connection_refused_is_raised_and_not_recorded(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    url = "http://127.0.0.1:9/v1/chat/completions"  # discard port: nothing listens
    async with aiohttp.ClientSession() as session:
        with replay.use_cassette(path) as recording:
            with pytest.raises(aiohttp.ClientConnectorError):
                await session.post(url, json=chat("hi"))
    assert recording.recorded == 0
    assert not path.exists()


async def test_a_failed_tls_handshake_is_raised_and_not_recorded(tmp_path: Path) -> None:
    """https:// to a server speaking plain HTTP: no request reached the API."""
    path = tmp_path / "c.json"
    with echo_server() as url:
        async with aiohttp.ClientSession() as session:
            with replay.use_cassette(path) as recording:
                with pytest.raises(aiohttp.ClientConnectorError):
                    await session.get(url.replace("http://", "https://") + "/v1/models")
    assert recording.recorded == 0 and not path.exists()


async def test_a_stored_connect_error_replays_as_aiohttps_own_error(tmp_path: Path) -> None:
    """A cassette recorded before connection failures were left out, by httpx: its
    ConnectError replays as aiohttp's ClientConnectorError, with the OS error's text."""
    path = tmp_path / "c.json"
    url = "http://127.0.0.1:9/v1/chat/completions"
    request = Request(
        "POST", url, (("content-type", "application/json"),), json.dumps(chat("hi")).encode()
    )
    with replay.Cassette(path) as cassette:
        decision = cassette.decide(request)
        assert isinstance(decision, Record)
        refused = "All connection attempts failed [Connection refused]"
        cassette.add(decision, TransportFailure("ConnectError", refused, "t"))
    async with aiohttp.ClientSession() as session:
        with replay.use_cassette(path, mode="none") as replaying:
            with pytest.raises(aiohttp.ClientConnectorError) as replayed:
                await session.post(url, json=chat("hi"))
    assert replaying.replayed == 1
    assert replayed.value.os_error.strerror == "Connection refused"


async def test_a_recording_through_aiohttp_replays_for_httpx2_and_back(
    tmp_path: Path, server: FakeLLMServer
) -> None:
    path = tmp_path / "c.json"
    endpoint = server.url + "/v1/chat/completions"
    async with aiohttp.ClientSession() as session:
        with replay.use_cassette(path):
            async with session.post(endpoint, json=chat("shared"), headers=HEADERS) as sent:
                recorded = await sent.json()
    server.stop()
    with replay.use_cassette(path, mode="none", allow_playback_repeats=True) as replaying:
        async with httpx2.AsyncClient() as client:
            sent_again = await client.post(endpoint, json=chat("shared"), headers=HEADERS)
            through_httpx2 = sent_again.json()
        async with aiohttp.ClientSession() as session:
            async with session.post(endpoint, json=chat("shared"), headers=HEADERS) as again:
                through_aiohttp = await again.json()
    assert replaying.replayed == 2
    assert through_httpx2["choices"] == through_aiohttp["choices"] == recorded["choices"]


async def test_sessions_are_routed_inside_the_block_only(
    tmp_path: Path, server: FakeLLMServer
) -> None:
    path = tmp_path / "c.json"
    endpoint = server.url + "/v1/chat/completions"
    async with aiohttp.ClientSession() as session:
        with replay.use_cassette(path) as recording:
            await (await session.post(endpoint, json=chat("inside"), headers=HEADERS)).read()
        await (await session.post(endpoint, json=chat("after it"), headers=HEADERS)).read()
    assert recording.recorded == 1 and len(server.requests) == 2
    # The prompts, not a bare word: a placeholder id may spell one ("chatcmpl-Zoutnr3...").
    stored = path.read_text()
    assert "Answer to: inside" in stored and "after it" not in stored


async def test_an_explicit_middleware_records_once_inside_a_block(
    tmp_path: Path, server: FakeLLMServer
) -> None:
    endpoint = server.url + "/v1/chat/completions"
    explicit = replay.Cassette(tmp_path / "explicit.json")
    async with aiohttp.ClientSession(middlewares=[replay.ReplayMiddleware(explicit)]) as session:
        with replay.use_cassette(tmp_path / "block.json") as block:
            await (await session.post(endpoint, json=chat("once"), headers=HEADERS)).read()
    explicit.save()
    assert (explicit.recorded, block.recorded) == (1, 0)
    assert not (tmp_path / "block.json").exists()


async def test_ignored_hosts_go_to_the_network_and_never_into_the_cassette(
    tmp_path: Path, server: FakeLLMServer
) -> None:
    path = tmp_path / "c.json"
    endpoint = server.url + "/v1/chat/completions"
    async with aiohttp.ClientSession() as session:
        with replay.use_cassette(path, mode="none", ignore_localhost=True) as cassette:
            async with session.post(endpoint, json=chat("local"), headers=HEADERS) as sent:
                assert (await sent.json())["choices"][0]["message"]["content"] == (
                    "Answer to: local"
                )
    assert (cassette.recorded, cassette.replayed, cassette.misses) == (0, 0, [])
    assert len(server.requests) == 1 and not path.exists()


# Recording a stream: once, at the first of its end, its final event, or its cassette's save.


def responses(path: Path) -> list[Any]:
    """The responses the cassette file holds, its journal applied, as another process sees."""
    return [o for i in replay.Cassette(path, "none").interactions for o in i.outcomes]


async def test_a_stream_is_recorded_before_the_caller_has_its_final_event(
    tmp_path: Path, server: FakeLLMServer
) -> None:
    """An SDK may stop reading at [DONE] and never close: the server holding the body open
    after it must not keep the recording from disk until the next request."""
    server.end_delay = 30.0
    path = tmp_path / "c.json"
    cassette = replay.Cassette(path)
    async with aiohttp.ClientSession(middlewares=[replay.ReplayMiddleware(cassette)]) as session:
        body = chat("stop at the final event", stream=True)
        response = await session.post(
            server.url + "/v1/chat/completions", json=body, headers=HEADERS
        )
        received = b""
        async for data, _ in response.content.iter_chunks():
            received += data
            if received.endswith(b"data: [DONE]\n\n"):
                break
        assert cassette.recorded == 1  # with no await since the final event was handed over
        (recorded,) = responses(path)
        # (ids are placeholders of the real ones' length)
        assert recorded.complete and len(b"".join(c.data for c in recorded.chunks)) == len(received)
        response.close()
    cassette.save()
    assert cassette.recorded == 1 and len(responses(path)) == 1


async def test_a_stream_still_open_when_its_cassette_is_saved_is_recorded_as_it_stands(
    tmp_path: Path, server: FakeLLMServer
) -> None:
    server.chunk_delay = 0.1
    path = tmp_path / "c.json"
    cassette = replay.Cassette(path)
    async with aiohttp.ClientSession(middlewares=[replay.ReplayMiddleware(cassette)]) as session:
        body = chat("one two three four five six seven", stream=True)
        async with session.post(
            server.url + "/v1/chat/completions", json=body, headers=HEADERS
        ) as response:
            first = await response.content.readany()
            cassette.save()  # the block ends, or the process exits, with the stream open
            (recorded,) = responses(path)
            assert not recorded.complete and len(recorded.chunks[0].data) == len(first)
            rest = await response.read()
    assert rest.endswith(b"data: [DONE]\n\n")
    cassette.save()  # the end of the body adds nothing more: it was recorded once
    assert cassette.recorded == 1 and responses(path) == [recorded]


async def test_a_stream_read_to_its_final_event_is_in_the_file_when_the_block_ends(
    tmp_path: Path, server: FakeLLMServer
) -> None:
    # litellm's async Anthropic stream: read up to message_stop, then the block ends at once,
    # before the body task has seen the end of the body.
    path = tmp_path / "c.json"
    body = {"model": "claude", "max_tokens": 64, "stream": True, "messages": chat("hi")["messages"]}
    headers = {"x-api-key": KEY, "anthropic-version": "2023-06-01"}
    async with aiohttp.ClientSession() as session:
        with replay.Cassette(path) as cassette:
            middleware = replay.ReplayMiddleware(cassette)
            response = await session.post(
                server.url + "/v1/messages", json=body, headers=headers, middlewares=[middleware]
            )
            async for line in response.content:
                if b"message_stop" in line:
                    break
        stored = path.read_text()  # the file, not the journal beside it
        response.close()
    assert '"complete": true' in stored and "message_stop" in stored


# Recording looks like replay (issue 24): placeholders and fixed times while recording too.


async def chat_and_stream(session: aiohttp.ClientSession, url: str) -> dict[str, Any]:
    endpoint = url + "/v1/chat/completions"
    async with session.post(endpoint, json=chat("hello"), headers=HEADERS) as plain:
        answer = await plain.json()
        info_url = str(plain.request_info.url)
    body = chat("stream a few words to me", stream=True)
    async with session.post(endpoint, json=body, headers=HEADERS) as streamed:
        chunks = [data async for data, _ in streamed.content.iter_chunks()]
    return {"answer": answer, "chunks": chunks, "info_url": info_url}


def stream_events(chunks: list[bytes]) -> list[Any]:
    lines = b"".join(chunks).splitlines()
    return [json.loads(line[len(b"data: ") :]) for line in lines if line.startswith(b"data: {")]


async def test_while_recording_the_caller_sees_what_replay_gives(
    tmp_path: Path, server: FakeLLMServer
) -> None:
    path = tmp_path / "c.json"
    async with aiohttp.ClientSession() as session:
        with replay.use_cassette(path) as recording:
            recorded = await chat_and_stream(session, server.url)
    assert recording.recorded == 2
    server.stop()
    async with aiohttp.ClientSession() as session:
        with replay.use_cassette(path, mode="none") as replaying:
            replayed = await chat_and_stream(session, server.url)
    assert replaying.replayed == 2
    assert replayed == recorded  # the stream's chunks byte for byte, boundaries included
    stored = path.read_text()
    assert recorded["answer"]["id"] in stored and recorded["answer"]["created"] == 1000000000
    events = stream_events(recorded["chunks"])
    assert {event["created"] for event in events} == {1000000000}
    assert len({event["id"] for event in events}) == 1 and events[0]["id"] in stored


def responses_call(**extra: Any) -> dict[str, Any]:
    return {"model": "gpt-4o", "input": "a question", **extra}


async def responses_chain(session: aiohttp.ClientSession, url: str) -> list[Any]:
    """A Responses call, one chained to it by ``previous_response_id``, and a fetch by id."""
    endpoint = url + "/v1/responses"
    async with session.post(endpoint, json=responses_call(), headers=HEADERS) as sent:
        first = await sent.json()
    chained = responses_call(previous_response_id=first["id"])
    async with session.post(endpoint, json=chained, headers=HEADERS) as sent:
        assert sent.status == 200, await sent.text()
        second = await sent.json()
    async with session.get(f"{endpoint}/{second['id']}", headers=HEADERS) as sent:
        assert sent.status == 200, await sent.text()
        fetched = await sent.json()
        # The URL the caller asked for, as on replay, though the real id went upstream.
        assert str(sent.url) == str(sent.request_info.url) == f"{endpoint}/{second['id']}"
    return [first, second, fetched]


async def test_a_chained_request_reaches_the_server_with_the_real_id_and_replays(
    tmp_path: Path, server: FakeLLMServer
) -> None:
    path = tmp_path / "c.json"
    async with aiohttp.ClientSession() as session:
        with replay.use_cassette(path) as recording:
            recorded = await responses_chain(session, server.url)
    assert recording.recorded == 3
    first, second, fetched = recorded
    # The server rejects ids it never issued: it got the real ones, the caller placeholders.
    real_first = server.requests[1].json()["previous_response_id"]
    real_second = server.requests[2].path.rsplit("/", 1)[-1]
    stored = path.read_text()
    for real, shown in ((real_first, first["id"]), (real_second, second["id"])):
        assert real != shown and len(real) == len(shown)
        assert real not in stored and shown in stored
    assert second["previous_response_id"] == first["id"] and fetched["id"] == second["id"]
    server.stop()
    async with aiohttp.ClientSession() as session:
        with replay.use_cassette(path, mode="none") as replaying:
            replayed = await responses_chain(session, server.url)
    assert replaying.replayed == 3 and replayed == recorded


async def test_without_normalizing_the_caller_and_the_cassette_keep_the_real_values(
    tmp_path: Path, server: FakeLLMServer
) -> None:
    path = tmp_path / "c.json"
    async with aiohttp.ClientSession() as session:
        with replay.use_cassette(path, normalize=False):
            recorded = await chat_and_stream(session, server.url)
    server.stop()
    async with aiohttp.ClientSession() as session:
        with replay.use_cassette(path, mode="none", normalize=False):
            replayed = await chat_and_stream(session, server.url)
    assert replayed == recorded
    events = stream_events(recorded["chunks"])
    assert 1000000000 not in {recorded["answer"]["created"], *(e["created"] for e in events)}


async def test_a_request_sent_again_by_an_outer_middleware_still_carries_the_placeholder(
    tmp_path: Path, server: FakeLLMServer
) -> None:
    """A retrying middleware around ours sends the same request object again: the real id
    swapped in for the first send must not stay in it."""
    seen_after_a_send: list[tuple[str, bytes]] = []

    async def sent_twice(
        request: aiohttp.ClientRequest, handler: aiohttp.ClientHandlerType
    ) -> aiohttp.ClientResponse:
        await (await handler(request)).read()
        body = await request.body.as_bytes() if request.body else b""
        seen_after_a_send.append((request.url.path, body))
        return await handler(request)

    path = tmp_path / "c.json"
    endpoint = server.url + "/v1/responses"
    with replay.Cassette(path) as cassette:
        ours = replay.ReplayMiddleware(cassette)
        retried = [sent_twice, ours]
        async with aiohttp.ClientSession(middlewares=[ours]) as session:
            async with session.post(endpoint, json=responses_call(), headers=HEADERS) as sent:
                shown = (await sent.json())["id"]
            chained = responses_call(previous_response_id=shown)  # the placeholder in the body
            async with session.post(
                endpoint, json=chained, headers=HEADERS, middlewares=retried
            ) as sent:
                assert sent.status == 200, await sent.text()
            # and in the URL
            async with session.get(f"{endpoint}/{shown}", headers=HEADERS, middlewares=retried):
                pass
    real = server.requests[1].json()["previous_response_id"]
    assert [r.json()["previous_response_id"] for r in server.requests[1:3]] == [real, real]
    assert [r.path for r in server.requests[3:]] == [f"/v1/responses/{real}"] * 2
    assert cassette.recorded == 5 and real != shown and real not in path.read_text()
    (_, chained_body), (fetched_path, _) = seen_after_a_send
    assert json.loads(chained_body)["previous_response_id"] == shown
    assert fetched_path == f"/v1/responses/{shown}"


@pytest.mark.parametrize(
    ("encoding", "auto_decompress"),
    [("gzip, br", True), ("deflate, gzip", True), ("gzip", False), ("br", False)],
)
async def test_a_body_aiohttp_leaves_encoded_is_stored_decoded_and_redacted(
    tmp_path: Path, encoding: str, auto_decompress: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """aiohttp's parser undoes one coding it knows, and nothing when ``auto_decompress`` is
    off: such a body was stored as base64 of its compressed bytes, an echoed key inside,
    beyond redaction and ``replay scan`` (issue 23). It is decoded as httpx's are, and the
    caller gets it decoded while recording, as replay gives it."""
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    path = tmp_path / "c.json"
    headers = {**HEADERS, "x-echo-encoding": encoding}

    async def call(mode: str) -> tuple[dict[str, Any], str | None]:
        async with aiohttp.ClientSession(auto_decompress=auto_decompress) as session:
            with replay.use_cassette(path, mode):
                async with session.post(url + "/v1/echo", headers=headers, json={}) as answer:
                    return await answer.json(), answer.headers.get("content-encoding")

    with echo_server() as url:
        (recorded, recorded_encoding) = await call("once")
    assert recorded["headers"]["authorization"] == f"Bearer {KEY}"  # the server echoed it
    assert recorded_encoding is None  # decoded, as replay gives it
    (interaction,) = json.loads(path.read_bytes())["interactions"].values()
    (stored,) = interaction["responses"]
    assert stored["body"]["json"]["headers"]["authorization"] == "REDACTED"
    assert "content-encoding" not in stored["headers"]
    assert KEY.encode() not in path.read_bytes()
    replayed, replayed_encoding = await call("none")
    assert replayed_encoding is None
    assert replayed["headers"]["authorization"] == "REDACTED"
    assert replayed["body"] == recorded["body"]


async def test_a_body_in_an_encoding_no_module_undoes_is_refused_when_it_carries_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    path = tmp_path / "c.json"
    headers = {**HEADERS, "x-echo-encoding": "compress"}
    with echo_server() as url:
        async with aiohttp.ClientSession() as session:
            with pytest.raises(replay.ReplayError) as refused:
                with replay.use_cassette(path):
                    async with session.post(url + "/v1/echo", headers=headers) as answer:
                        await answer.read()
    assert "compress" in str(refused.value) and "/v1/echo" in str(refused.value)
    assert KEY not in str(refused.value)
    assert not path.exists() or KEY.encode() not in path.read_bytes()


async def test_a_read_timeout_after_connecting_is_recorded_and_raised_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The API's behaviour once connected, unlike a connection refused: recorded."""
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    path = tmp_path / "c.json"
    timeout = aiohttp.ClientTimeout(sock_read=0.2)
    with silent_server() as url:
        for mode in ("once", "none"):
            async with aiohttp.ClientSession(timeout=timeout) as session:
                with replay.use_cassette(path, mode):
                    with pytest.raises(aiohttp.SocketTimeoutError):
                        await session.get(url + "/v1/slow")
    (entry,) = json.loads(path.read_bytes())["interactions"].values()
    assert [r["error"]["type"] for r in entry["responses"]] == ["SocketTimeoutError"]
