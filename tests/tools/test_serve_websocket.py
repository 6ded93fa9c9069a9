"""WebSocket sessions through ``replay serve``: recorded from the loopback Realtime fake
(``tests/realtime_server.py``) by one server process, replayed by another with the fake
stopped, with the openai SDK's realtime client (sync and async) and the websockets client."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import httpx
import pytest
import websockets.sync.client
from conftest import TEST_API_KEY, port_refuses
from realtime_client import converse, retrieving
from realtime_server import RealtimeServer
from serving import Running
from websockets.exceptions import ConnectionClosedError, InvalidStatus

import replay
from replay._adapters.proxy import ReplayProxy, Route, Routes, Shelf
from replay._cassette import Cassette
from replay._core.location import location
from replay._core.modes import Mode
from replay.tools.serve import running

FLAVOURS = ["sync", "async"]
RAW = {"x-replay-cassette": "raw"}


@pytest.fixture
def realtime() -> Iterator[RealtimeServer]:
    with RealtimeServer(TEST_API_KEY) as server:
        yield server


def stop(serving: Running) -> tuple[str, str]:
    status, out, err = serving.stop()
    assert status == 0, err
    assert "Traceback" not in err
    return out, err


def offline(realtime: RealtimeServer) -> int:
    """Stop the fake, check its port refuses, and return how many handshakes it saw."""
    realtime.stop()
    assert port_refuses(realtime.http_url)
    return len(realtime.handshakes)


def without_ids(summary: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in summary.items() if name != "response_ids"}


class Served(NamedTuple):
    """A server's URL: a ``replay serve`` process's, or one :func:`running` in a thread."""

    url: str


def ws_url(serving: Running | Served) -> str:
    return serving.url.replace("http://", "ws://")


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_the_openai_realtime_client_records_through_serve_and_replays_in_a_new_server(
    realtime: RealtimeServer, tmp_path: Path, flavour: str
) -> None:
    headers = {"X-Replay-Cassette": f"realtime/{flavour}"}
    recording = Running("--upstream", f"/openai={realtime.http_url}", cwd=tmp_path)
    recorded = converse(flavour, recording.url + "/openai/v1", TEST_API_KEY, "Say hello", headers)
    out, err = stop(recording)
    assert recorded["text"] == "Answer to: Say hello" and recorded["audio"]
    assert "0 replayed, 1 recorded, 0 missed, 0 failed" in out
    assert "recorded  101 WebSocket ws://" in err
    assert realtime.handshakes[0]["authorization"] == f"Bearer {TEST_API_KEY}"  # forwarded
    assert "x-replay-cassette" not in realtime.handshakes[0]
    seen = offline(realtime)

    replaying = Running("--mode", "none", cwd=tmp_path)
    replayed = converse(flavour, replaying.url + "/openai/v1", "sk-dummy", "Say hello", headers)
    out, err = stop(replaying)
    assert "1 replayed, 0 recorded, 0 missed, 0 failed" in out
    assert without_ids(replayed) == without_ids(recorded)
    assert len(realtime.handshakes) == seen

    stored = (tmp_path / "cassettes" / "realtime" / f"{flavour}.json").read_bytes()
    assert TEST_API_KEY.encode() not in stored and b"Bearer" not in stored
    assert b'"websocket"' in stored and b'"x-replay-route": "/openai=' in stored


def test_through_serve_the_client_sees_while_recording_the_messages_replay_gives(
    realtime: RealtimeServer, tmp_path: Path
) -> None:
    """Placeholders and fixed times while recording, as on replay; the item the client
    fetches back by its placeholder reaches the server with the real id."""
    headers = {"X-Replay-Cassette": "retrieving"}
    recording = Running("--upstream", f"/openai={realtime.http_url}", cwd=tmp_path)
    url = recording.url + "/openai/v1"
    recorded = retrieving("async", url, TEST_API_KEY, "Say hello", headers)
    stop(recording)
    kinds = [event["type"] for event in recorded]
    assert "conversation.item.retrieved" in kinds and "error" not in kinds
    asked = [json.loads(m) for m in realtime.received if isinstance(m, str)]
    (real_item,) = [e["item_id"] for e in asked if e["type"] == "conversation.item.retrieve"]
    assert recorded[0]["item"]["id"] != real_item
    offline(realtime)

    replaying = Running("--mode", "none", cwd=tmp_path)
    url = replaying.url + "/openai/v1"
    replayed = retrieving("async", url, "sk-dummy", "Say hello", headers)
    stop(replaying)
    assert replayed == recorded


def record_with_websockets(serving: Running | Served, messages: list[str | bytes]) -> list[object]:
    """Send each message and read one answer to it, as the websockets client, at ``/echo``
    with the cassette ``raw``."""
    headers = {"Authorization": f"Bearer {TEST_API_KEY}", "X-Replay-Cassette": "raw"}
    heard: list[object] = []
    with websockets.sync.client.connect(
        ws_url(serving) + "/echo", additional_headers=headers
    ) as connection:
        for message in messages:
            connection.send(message)
            heard.append(connection.recv(timeout=10))
    return heard


def test_a_changed_message_closes_with_1008_naming_the_cassette_and_position(
    realtime: RealtimeServer, tmp_path: Path
) -> None:
    recording = Running("--upstream", realtime.http_url, cwd=tmp_path)
    recorded = record_with_websockets(recording, [b"\x00\x01audio\xff", "first", "second"])
    stop(recording)
    assert recorded == [b"\xffoidua\x01\x00", "echo: first", "echo: second"]  # binary stays so
    offline(realtime)

    replaying = Running("--mode", "none", cwd=tmp_path)
    assert record_with_websockets(replaying, [b"\x00\x01audio\xff", "first"]) == recorded[:2]
    with pytest.raises(ConnectionClosedError) as closed:
        record_with_websockets(replaying, [b"\x00\x01audio\xff", "first", "changed"])
    out, err = stop(replaying)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 1008
    assert closed.value.rcvd.reason == "replay: client message 3 not recorded in cassettes/raw.json"
    assert "1 missed" in out
    assert "client message 3 differs from the recorded one" in err and "cassettes/raw.json" in err


def test_an_unrecorded_handshake_is_a_404_miss_and_a_refused_one_is_the_upstreams_answer(
    realtime: RealtimeServer, tmp_path: Path
) -> None:
    recording = Running("--upstream", realtime.http_url, cwd=tmp_path)
    with pytest.raises(InvalidStatus) as refused:  # no key: the fake answers 401
        websockets.sync.client.connect(ws_url(recording) + "/v1/realtime").close()
    out, err = stop(recording)
    assert refused.value.response.status_code == 401
    assert refused.value.response.body == b"bad key\n"
    assert "0 recorded" in out and "1 failed" in out and "the upstream answered 401" in err
    offline(realtime)

    replaying = Running("--mode", "none", cwd=tmp_path)
    with pytest.raises(InvalidStatus) as missed:
        websockets.sync.client.connect(ws_url(replaying) + "/v1/realtime").close()
    stop(replaying)
    assert missed.value.response.status_code == 404
    error = json.loads(missed.value.response.body or b"")["error"]
    assert error["type"] == "replay_cassette_miss"
    assert error["request"]["url"] == "/v1/realtime (route /, replay only)"  # the path asked for


def test_an_http_get_and_a_websocket_at_one_path_are_different_recordings(
    realtime: RealtimeServer, tmp_path: Path
) -> None:
    """Routed requests key by path, not scheme: the handshake must not find a plain GET's
    answer (a refusal an older serve recorded), nor a GET the session."""
    recording = Running("--upstream", realtime.http_url, cwd=tmp_path)
    plain = httpx.get(recording.url + "/echo", headers={**RAW, "authorization": "Bearer x"})
    assert record_with_websockets(recording, ["hi"]) == ["echo: hi"]
    out, _ = stop(recording)
    assert "2 recorded" in out and plain.status_code == 401
    offline(realtime)
    replaying = Running("--mode", "none", cwd=tmp_path)
    assert record_with_websockets(replaying, ["hi"]) == ["echo: hi"]  # the other order
    again = httpx.get(replaying.url + "/echo", headers={**RAW, "authorization": "Bearer y"})
    out, _ = stop(replaying)
    assert again.status_code == 401 and "2 replayed" in out


def test_inside_a_use_cassette_block_the_proxys_upstream_connection_is_its_own(
    realtime: RealtimeServer, tmp_path: Path
) -> None:
    """The ``replay_server`` fixture runs the proxy in a thread while the test's cassette
    routes websockets: the proxy's upstream connection must not be taken by that cassette
    (recorded twice, or replayed from it), only by the proxy's."""
    shelf = Shelf(location(str(tmp_path / "served")), lambda path: Cassette(path, Mode.ONCE))
    proxy = ReplayProxy(Routes([Route("/", realtime.http_url)]), shelf)
    outer_cassette = replay.use_cassette(tmp_path / "outer.json", ignore_hosts=["localhost"])
    with outer_cassette as outer, running(proxy) as served:  # the client's own connection...
        client_url = served.url.replace("127.0.0.1", "localhost")  # ...is not the outer's
        heard = record_with_websockets(Served(client_url), ["hi"])
    assert heard == ["echo: hi"]
    assert outer.recorded == 0 and outer.replayed == 0
    assert shelf.cassettes[0].recorded == 1 and len(realtime.handshakes) == 1
