"""WebSocket sessions recorded from a real loopback server and replayed with it stopped.

The openai SDK's realtime client (sync and async) talks to ``tests/realtime_server.py``, a
tiny Realtime API on 127.0.0.1, through ``use_cassette``; replay then runs with the server
stopped and its port refusing connections, in this process and in a new one.
"""

from __future__ import annotations

import asyncio
import base64
import inspect
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets.asyncio.client
import websockets.sync.client
import websockets.version
from click.testing import CliRunner
from conftest import TEST_API_KEY, cassette_bytes, port_refuses
from realtime_client import converse, retrieving
from realtime_server import RealtimeServer
from websockets.exceptions import ConnectionClosedOK

import replay
from replay._adapters.websockets_adapter import async_layout
from replay.tools.cli import main

TESTS = Path(__file__).parent.parent
FLAVOURS = ["sync", "async"]
OUTSIDE_A_WITH_BLOCK = (
    {"legacy": True}
    if "legacy" in inspect.signature(websockets.sync.client.connect).parameters
    else {}
)
"""What a sync connection used outside a ``with`` block asks for: websockets 17.1 deprecates
it unless ``legacy=True``, which earlier versions do not take."""


@pytest.fixture
def realtime(monkeypatch: pytest.MonkeyPatch) -> Iterator[RealtimeServer]:
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    with RealtimeServer(TEST_API_KEY) as server:
        yield server


def stopped(server: RealtimeServer) -> int:
    """Stop the server, check its port refuses, and return how many handshakes it saw."""
    server.stop()
    assert port_refuses(server.http_url)
    return len(server.handshakes)


def without_ids(summary: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in summary.items() if name != "response_ids"}


def record(server: RealtimeServer, path: Path, flavour: str, prompt: str) -> dict[str, Any]:
    with replay.use_cassette(path) as cassette:
        said = converse(flavour, server.http_url + "/v1", TEST_API_KEY, prompt)
    assert cassette.recorded == 1
    return said


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_the_openai_realtime_client_replays_offline_in_this_process_and_a_new_one(
    realtime: RealtimeServer, cassette_path: Path, flavour: str
) -> None:
    recorded = record(realtime, cassette_path, flavour, "Say hello")
    assert recorded["text"] == "Answer to: Say hello" and recorded["audio"]
    seen = stopped(realtime)

    with replay.use_cassette(cassette_path, mode="none") as cassette:
        replayed = converse(flavour, realtime.http_url + "/v1", "sk-dummy", "Say hello")
    assert cassette.replayed == 1
    assert without_ids(replayed) == without_ids(recorded)
    assert replayed["response_ids"][0].startswith("resp_")
    assert replayed["response_ids"] == recorded["response_ids"]  # the placeholder, shown then

    run = subprocess.run(
        [
            sys.executable,
            str(TESTS / "realtime_client.py"),
            str(cassette_path),
            realtime.http_url + "/v1",
            flavour,
            "Say hello",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {"said": replayed, "blocked": []}
    assert len(realtime.handshakes) == seen and port_refuses(realtime.http_url)

    stored = cassette_bytes(cassette_path)
    assert TEST_API_KEY.encode() not in stored and b"Bearer" not in stored
    assert b'"authorization": "REDACTED"' in stored


def test_audio_is_kept_as_the_server_sent_it_and_counted_in_replay_list(
    realtime: RealtimeServer, cassette_path: Path
) -> None:
    recorded = record(realtime, cassette_path, "sync", "Say hello")
    sent = base64.b64encode(b"Answer to: Say hello"[::-1] + bytes(range(256))).decode()
    assert recorded["audio"] == [sent]  # not taken for an id, nor shortened
    assert sent.encode() in cassette_bytes(cassette_path)

    listed = CliRunner().invoke(main, ["list", "--json", str(cassette_path)])
    assert listed.exit_code == 0, listed.output
    (row,) = json.loads(listed.stdout)["cassettes"]
    assert (row["audio_messages"], row["audio_bytes"]) == (1, len(base64.b64decode(sent)))
    table = CliRunner(env={"COLUMNS": "200"}).invoke(main, ["list", str(cassette_path)])
    header, cassette_row, _total = table.stdout.splitlines()[:3]
    assert header.split()[-1] == "audio" and cassette_row.endswith("1 (276 B)")


def issued_item_ids(server: RealtimeServer) -> list[str]:
    """The ids of items the server's ``conversation.item.retrieve`` messages asked for."""
    asked = [json.loads(m) for m in server.received if isinstance(m, str) and m.startswith("{")]
    return [event["item_id"] for event in asked if event["type"] == "conversation.item.retrieve"]


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_while_recording_the_client_sees_the_messages_replay_gives_and_ids_go_back_real(
    realtime: RealtimeServer, cassette_path: Path, flavour: str
) -> None:
    """A snapshot of the events taken while recording holds on replay: placeholders for the
    server's ids and fixed times. The item fetched back by the id the client was shown
    reaches the server with its real id, which the server knows (no ``error`` event)."""
    with replay.use_cassette(cassette_path) as recording:
        recorded = retrieving(flavour, realtime.http_url + "/v1", TEST_API_KEY, "Say hello")
    assert recording.recorded == 1
    kinds = [event["type"] for event in recorded]
    assert "conversation.item.retrieved" in kinds and "error" not in kinds
    shown_item = recorded[0]["item"]["id"]
    (real_item,) = issued_item_ids(realtime)
    assert shown_item != real_item and len(shown_item) == len(real_item)
    stored = cassette_bytes(cassette_path)
    assert real_item.encode() not in stored and shown_item.encode() in stored
    stopped(realtime)

    with replay.use_cassette(cassette_path, mode="none") as replaying:
        replayed = retrieving(flavour, realtime.http_url + "/v1", "sk-dummy", "Say hello")
    assert replaying.replayed == 1 and replayed == recorded


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_without_normalizing_a_session_shows_and_stores_the_real_ids(
    realtime: RealtimeServer, cassette_path: Path, flavour: str
) -> None:
    with replay.use_cassette(cassette_path, normalize=False):
        recorded = retrieving(flavour, realtime.http_url + "/v1", TEST_API_KEY, "Say hello")
    assert [recorded[0]["item"]["id"]] == issued_item_ids(realtime)
    assert "error" not in [event["type"] for event in recorded]
    stopped(realtime)
    with replay.use_cassette(cassette_path, mode="none", normalize=False):
        replayed = retrieving(flavour, realtime.http_url + "/v1", "sk-dummy", "Say hello")
    assert replayed == recorded


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_a_changed_client_message_is_a_miss_naming_its_place_and_field(
    realtime: RealtimeServer, cassette_path: Path, flavour: str
) -> None:
    record(realtime, cassette_path, flavour, "Say hello")
    stopped(realtime)
    with replay.use_cassette(cassette_path, mode="none") as cassette:
        with pytest.raises(replay.FrameMiss) as raised:
            converse(flavour, realtime.http_url + "/v1", "sk-dummy", "Say goodbye")
    miss = raised.value
    assert miss.position == 2 and miss.cassette == cassette_path
    assert [(d.field, d.recorded, d.requested) for d in miss.differences] == [
        ("frame.item.content[0].text", "Say hello", "Say goodbye")
    ]
    assert cassette.misses == [miss]


def test_recording_an_unchanged_conversation_again_leaves_the_cassette_byte_for_byte(
    realtime: RealtimeServer, cassette_path: Path
) -> None:
    """Fresh random ids every run, and other times for each message: the same bytes."""
    record(realtime, cassette_path, "sync", "Say hello")
    first = cassette_path.read_bytes()
    time.sleep(1.1)  # a later recorded_at, were the old recording not kept
    with replay.use_cassette(cassette_path, mode="all") as cassette:
        converse("sync", realtime.http_url + "/v1", TEST_API_KEY, "Say hello")
    assert cassette.recorded == 1 and len(realtime.handshakes) == 2
    assert cassette_path.read_bytes() == first


def test_the_websockets_client_replays_text_binary_and_iteration(
    realtime: RealtimeServer, cassette_path: Path
) -> None:
    """Binary messages stay binary, text stays text (``recv()``, ``decode=`` both ways), a
    secret the handshake carried is scrubbed from the messages, and iteration ends at the
    recorded close."""
    headers = {"Authorization": f"Bearer {TEST_API_KEY}"}

    def talk(url: str) -> list[object]:
        with websockets.sync.client.connect(url, additional_headers=headers) as connection:
            connection.send(b"\x00\x01audio\xff")
            connection.send(f"token {TEST_API_KEY}")
            heard: list[object] = [connection.recv(), connection.recv(decode=False)]
            connection.send("last")
            heard.append(connection.recv(decode=True))
            return heard

    with replay.use_cassette(cassette_path):
        recorded = talk(realtime.ws_url)
    assert recorded == [b"\xffoidua\x01\x00", f"echo: token {TEST_API_KEY}".encode(), "echo: last"]
    stopped(realtime)
    stored = cassette_bytes(cassette_path)
    assert TEST_API_KEY.encode() not in stored

    with replay.use_cassette(cassette_path, mode="none"):
        replayed = talk(realtime.ws_url)
    assert replayed == [b"\xffoidua\x01\x00", b"echo: token sk-REDACTED", "echo: last"]

    async def iterate() -> list[object]:
        async with websockets.asyncio.client.connect(
            realtime.ws_url, additional_headers=headers
        ) as connection:
            await connection.send(b"\x00\x01audio\xff")
            await connection.send(f"token {TEST_API_KEY}")
            await connection.send("last")
            return [message async for message in connection]

    with replay.use_cassette(cassette_path, mode="none"):
        assert asyncio.run(iterate()) == [
            b"\xffoidua\x01\x00",
            "echo: token sk-REDACTED",
            "echo: last",
        ]


def test_the_asyncio_client_records_in_async_with_and_replays_on_await(
    realtime: RealtimeServer, cassette_path: Path
) -> None:
    """Both ways of opening an asyncio connection, in every websockets version replay routes:
    ``async with`` closes it through the recording (the session is stored complete), and the
    secret the handshake's headers carried is scrubbed from the messages."""
    headers = {"Authorization": f"Bearer {TEST_API_KEY}"}

    async def in_async_with() -> list[object]:
        async with websockets.asyncio.client.connect(
            realtime.ws_url, additional_headers=headers
        ) as connection:
            await connection.send(f"token {TEST_API_KEY}")
            return [await connection.recv()]

    async def on_await() -> list[object]:
        connection = await websockets.asyncio.client.connect(
            realtime.ws_url, additional_headers=headers
        )
        await connection.send(f"token {TEST_API_KEY}")
        heard = [await connection.recv()]
        await connection.close()
        return heard

    with replay.use_cassette(cassette_path) as cassette:
        assert asyncio.run(in_async_with()) == [f"echo: token {TEST_API_KEY}"]
    assert cassette.recorded == 1
    stopped(realtime)
    stored = cassette_path.read_bytes()
    assert b'"complete": true' in stored and TEST_API_KEY.encode() not in stored

    for opening in (on_await, in_async_with):
        with replay.use_cassette(cassette_path, mode="none"):
            assert asyncio.run(opening()) == ["echo: token sk-REDACTED"]


def test_replay_speed_paces_the_server_messages_as_recorded(cassette_path: Path) -> None:
    with RealtimeServer(TEST_API_KEY, delta_delay=0.3) as server:
        recorded = record(server, cassette_path, "sync", "Say hello at length")
    assert len(recorded["text"]) > 16  # three deltas, 0.3 s apart

    def timed(**options: Any) -> float:
        started = time.monotonic()
        with replay.use_cassette(cassette_path, mode="none", **options):
            assert converse("sync", server.http_url + "/v1", "sk-dummy", "Say hello at length")
        return time.monotonic() - started

    assert timed(replay_speed=1.0) >= 0.85
    assert timed() < 0.6


def test_only_the_block_is_routed_and_nothing_is_patched_outside_it(
    realtime: RealtimeServer, cassette_path: Path
) -> None:
    method = async_layout(websockets.version.version).method
    sync_connect = websockets.sync.client.connect
    async_connect = vars(websockets.asyncio.client.connect)[method]
    with replay.use_cassette(cassette_path):
        assert websockets.sync.client.connect is not sync_connect
        assert vars(websockets.asyncio.client.connect)[method] is not async_connect
    assert websockets.sync.client.connect is sync_connect
    assert vars(websockets.asyncio.client.connect)[method] is async_connect
    headers = {"Authorization": f"Bearer {TEST_API_KEY}"}
    with websockets.sync.client.connect(realtime.ws_url, additional_headers=headers) as connection:
        connection.send("outside")
        assert connection.recv() == "echo: outside"
    assert not cassette_path.exists()


def test_a_connection_still_open_when_the_block_ends_is_saved_as_it_stands(
    realtime: RealtimeServer, cassette_path: Path
) -> None:
    headers = {"Authorization": f"Bearer {TEST_API_KEY}"}
    with replay.use_cassette(cassette_path):
        connection = websockets.sync.client.connect(
            realtime.ws_url, additional_headers=headers, **OUTSIDE_A_WITH_BLOCK
        )
        connection.send("one")
        assert connection.recv() == "echo: one"
    connection.send("two")  # after the save: not recorded
    assert connection.recv() == "echo: two"
    connection.close()
    stopped(realtime)
    assert b'"complete": false' in cassette_path.read_bytes()
    stored = cassette_path.read_bytes()
    assert b'"one"' in stored and b'"two"' not in stored  # the messages, not runs of letters

    with replay.use_cassette(cassette_path, mode="none"):
        with websockets.sync.client.connect(realtime.ws_url) as replayed:
            replayed.send("one")
            assert replayed.recv() == "echo: one"
            with pytest.raises(ConnectionClosedOK):
                replayed.recv()
