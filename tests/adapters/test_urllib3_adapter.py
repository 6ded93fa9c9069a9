"""The urllib3 adapter: boto3 (Converse and both Bedrock streams), requests and urllib3 record
through real loopback servers and replay with them stopped, in this process and in a new one,
through ``use_cassette``."""

from __future__ import annotations

import gzip
import json
import os
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import requests
import urllib3
from bedrock_server import bedrock_server
from conftest import StoppedServer, masked
from echo_server import echo_server, silent_server
from urllib3.connectionpool import HTTPConnectionPool
from urllib3_clients import (
    CHAT,
    MODEL_ID,
    STREAM,
    bedrock,
    bedrock_converse,
    bedrock_converse_stream,
    bedrock_invoke_stream,
    converse_messages,
    requests_chat,
    urllib3_chat,
    urllib3_stream,
)

import replay
from replay._adapters.network import NetworkGuard
from replay._cassette import Record
from replay._core.model import Request, TransportFailure
from replay.tools.fakellm import FakeLLMServer

TESTS = Path(__file__).resolve().parent.parent
ACCESS_KEY = "AKIAZ7Q3EXAMPLE4KEY9"
SECRET_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY"
SESSION_TOKEN = "FwoGZXIvYXdzEJr//////////wEaDExampleSessionTokenValue0123456789"


def test_recorded_with_boto3_requests_and_urllib3_replays_in_a_new_process(
    llm_server: FakeLLMServer,
    server_gone: Callable[[], StoppedServer],
    api_key: str,
    cassette_path: Path,
    tmp_path: Path,
) -> None:
    with bedrock_server(ACCESS_KEY) as bedrock, replay.use_cassette(cassette_path):
        recorded = {
            "bedrock": bedrock_converse(bedrock.url, ACCESS_KEY, SECRET_KEY, SESSION_TOKEN),
            "converse_stream": bedrock_converse_stream(
                bedrock.url, ACCESS_KEY, SECRET_KEY, SESSION_TOKEN
            ),
            "invoke_stream": bedrock_invoke_stream(
                bedrock.url, ACCESS_KEY, SECRET_KEY, SESSION_TOKEN
            ),
            "requests": requests_chat(llm_server.url, api_key),
            "urllib3": urllib3_chat(llm_server.url, api_key),
            "stream": urllib3_stream(llm_server.url, api_key),
        }
    assert recorded["bedrock"]["output"]["message"]["content"] == [
        {"text": "Answer to: hello bedrock"}
    ]
    converse_stream = recorded["converse_stream"]
    assert converse_stream["kinds"][0] == "messageStart"
    assert converse_stream["kinds"][-2:] == ["messageStop", "metadata"]
    assert "".join(converse_stream["text"]) == "Answer to: stream it"
    assert converse_stream["stop"] == ["end_turn"] and converse_stream["usage"][0]["inputTokens"]
    invoked = recorded["invoke_stream"]
    assert [event["type"] for event in invoked][-2:] == ["message_delta", "message_stop"]
    assert "amazon-bedrock-invocationMetrics" in invoked[-1]
    assert len(recorded["stream"]) > 3  # one piece per event, as the server sent them
    assert all(piece.startswith("data: ") for piece in recorded["stream"])
    stopped = server_gone()

    signed = bedrock.received[0]
    signatures = [
        re.search(r"Signature=([0-9a-f]{64})", request["authorization"])
        for request in bedrock.received
    ]
    signed_with = [found.group(1) for found in signatures if found is not None]
    assert len(signed_with) == 3
    on_disk = cassette_path.read_bytes()
    for secret in (SECRET_KEY, SESSION_TOKEN, ACCESS_KEY, api_key, *signed_with):
        assert secret.encode() not in on_disk
    stored = json.loads(on_disk)["interactions"].values()
    streams = [r for entry in stored for r in entry["responses"] if "chunks" in r]
    assert len(streams) == 3 and all(stream["complete"] for stream in streams)
    for volatile in ("x-amz-date", "amz-sdk-invocation-id", "amz-sdk-request"):
        assert signed[volatile].encode() not in on_disk
        assert volatile.encode() not in on_disk

    results_path = tmp_path / "results.json"
    environment = {k: v for k, v in os.environ.items() if k != "REPLAY_MODE"}
    done = subprocess.run(
        [
            sys.executable,
            str(TESTS / "urllib3_replay.py"),
            str(cassette_path),
            bedrock.url,
            llm_server.url,
            str(results_path),
        ],
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    replayed = json.loads(results_path.read_text())
    assert replayed.pop("blocked") == []
    for name, value in recorded.items():
        assert replayed[name]["error"] is None, replayed[name]["error"]
        assert masked(replayed[name]["value"]) == masked(value), name
    stopped.assert_untouched()
    assert len(bedrock.received) == 3


def test_a_requests_recording_replays_with_httpx(
    llm_server: FakeLLMServer,
    server_gone: Callable[[], StoppedServer],
    api_key: str,
    cassette_path: Path,
) -> None:
    with replay.use_cassette(cassette_path):
        recorded = requests_chat(llm_server.url, api_key)
    stopped = server_gone()
    with replay.use_cassette(cassette_path, "none"):
        answer = httpx.post(f"{llm_server.url}/v1/chat/completions", json=CHAT)
    # Recording showed the placeholders and fixed times that replay shows (issue 24).
    assert [answer.status_code, answer.json()] == recorded
    stopped.assert_untouched()


def test_a_stream_replays_chunk_by_chunk_and_by_amount(
    llm_server: FakeLLMServer,
    server_gone: Callable[[], StoppedServer],
    api_key: str,
    cassette_path: Path,
) -> None:
    with replay.use_cassette(cassette_path):
        recorded = urllib3_stream(llm_server.url, api_key)
    stopped = server_gone()
    with replay.use_cassette(cassette_path, "none", allow_playback_repeats=True):
        replayed = urllib3_stream(llm_server.url, api_key)
        whole = "".join(replayed).encode()
        answer = urllib3.PoolManager().request(
            "POST",
            f"{llm_server.url}/v1/chat/completions",
            body=json.dumps(STREAM),
            headers={"content-type": "application/json"},
            preload_content=False,
        )
        first = answer.read(10)
        rest = answer.read()
    assert replayed == recorded  # the same pieces, boundaries, placeholders and times
    assert len(first) == 10
    assert first + rest == whole
    stopped.assert_untouched()


@pytest.mark.parametrize("decode_content", [True, False])
def test_a_compressed_body_is_stored_and_handed_back_decoded(
    cassette_path: Path, decode_content: bool
) -> None:
    with echo_server() as url:
        with replay.use_cassette(cassette_path):
            recorded = urllib3.PoolManager().request(
                "POST",
                f"{url}/echo",
                body=b'{"q": 1}',
                headers={"x-echo-encoding": "gzip"},
                decode_content=decode_content,
            )
    stored = json.loads(cassette_path.read_bytes())
    (interaction,) = stored["interactions"].values()
    assert "content-encoding" not in interaction["responses"][0]["headers"]
    with replay.use_cassette(cassette_path, "none"):
        replayed = urllib3.PoolManager().request(
            "POST", f"{url}/echo", body=b'{"q": 1}', decode_content=decode_content
        )
    for answer in (recorded, replayed):
        assert "content-encoding" not in answer.headers
        assert json.loads(answer.data)["method"] == "POST"
    assert replayed.data == recorded.data
    assert gzip.compress(b"") not in replayed.data


def test_an_unrecorded_request_is_a_miss_naming_it(
    llm_server: FakeLLMServer, api_key: str, cassette_path: Path
) -> None:
    with replay.use_cassette(cassette_path):
        requests_chat(llm_server.url, api_key)
    seen = len(llm_server.requests)
    url = f"{llm_server.url}/v1/models"
    with replay.use_cassette(cassette_path, "none"):
        with pytest.raises(replay.CassetteMiss, match=re.escape(f"GET {url}")):
            requests.get(url)
        with pytest.raises(replay.CassetteMiss, match=str(cassette_path)):
            urllib3.PoolManager().request("GET", url)
    assert len(llm_server.requests) == seen


def test_a_refused_connection_raises_and_is_not_recorded(cassette_path: Path) -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{unused.getsockname()[1]}/v1/models"
    with replay.use_cassette(cassette_path) as cassette:
        with pytest.raises(urllib3.exceptions.NewConnectionError):
            urllib3.PoolManager().request("GET", url, retries=False)
    assert cassette.recorded == 0 and not cassette_path.exists()


def test_a_failed_tls_handshake_raises_and_is_not_recorded(cassette_path: Path) -> None:
    """https:// to a server speaking plain HTTP: the handshake fails, no request was sent."""
    with echo_server() as url, replay.use_cassette(cassette_path) as cassette:
        https = url.replace("http://", "https://") + "/v1/models"
        with pytest.raises(urllib3.exceptions.SSLError):
            urllib3.PoolManager().request("GET", https, retries=False)
        with pytest.raises(requests.exceptions.SSLError):
            requests.get(https)
    assert cassette.recorded == 0 and not cassette_path.exists()


def test_a_stored_connect_error_replays_as_each_librarys_own_error(cassette_path: Path) -> None:
    """A cassette recorded before connection failures were left out keeps replaying them, in
    whichever library asks."""
    url = "http://127.0.0.1:9/v1/models"
    with replay.Cassette(cassette_path) as cassette:
        decision = cassette.decide(Request("GET", url, (), b""))
        assert isinstance(decision, Record)
        cassette.add(decision, TransportFailure("NewConnectionError", "[Errno 111] refused", "t"))
    with replay.use_cassette(cassette_path, "none", allow_playback_repeats=True):
        with pytest.raises(urllib3.exceptions.NewConnectionError, match="refused"):
            urllib3.PoolManager().request("GET", url, retries=False)
        with pytest.raises(requests.ConnectionError):
            requests.get(url)
        with pytest.raises(httpx.ConnectError):
            httpx.get(url)


def test_urllib3_is_routed_inside_the_block_only(
    llm_server: FakeLLMServer, api_key: str, cassette_path: Path
) -> None:
    original = HTTPConnectionPool.__dict__["_make_request"]
    requests_chat(llm_server.url, api_key)
    with replay.use_cassette(cassette_path) as cassette:
        assert HTTPConnectionPool.__dict__["_make_request"] is not original
        requests_chat(llm_server.url, api_key)
    assert HTTPConnectionPool.__dict__["_make_request"] is original
    requests_chat(llm_server.url, api_key)
    assert cassette.recorded == 1
    assert len(llm_server.requests) == 3


def test_an_ignored_host_goes_to_the_network_unrecorded(
    llm_server: FakeLLMServer, api_key: str, cassette_path: Path
) -> None:
    with replay.use_cassette(cassette_path, "none", ignore_hosts=["127.0.0.1"]) as cassette:
        status, _ = requests_chat(llm_server.url, api_key)
    assert status == 200
    assert cassette.recorded == 0
    assert len(llm_server.requests) == 1


def bedrock_event_kind(event: dict[str, Any]) -> str:
    """A Converse stream event's kind, or the type of the model event an invoke chunk holds."""
    if "chunk" in event:
        return str(json.loads(event["chunk"]["bytes"])["type"])
    return next(iter(event))


@pytest.mark.parametrize(
    ("call", "last_event"),
    [("converse_stream", "metadata"), ("invoke_model_with_response_stream", "message_stop")],
)
def test_a_bedrock_stream_read_to_its_final_event_is_recorded_whole_at_once(
    cassette_path: Path, call: str, last_event: str
) -> None:
    """A caller that stops at the last event, never reading the end of the body nor closing
    it (the cassette outlives the response), still records the stream whole, and at once."""
    arguments: dict[str, Any] = {"modelId": MODEL_ID}
    if call == "converse_stream":
        arguments["messages"] = converse_messages("stop at the end")
    else:
        arguments["body"] = json.dumps({"messages": [{"role": "user", "content": "stop"}]})
    events = "stream" if call == "converse_stream" else "body"

    def kinds_read(url: str, access_key: str) -> list[str]:
        answer = getattr(bedrock(url, access_key, SECRET_KEY), call)(**arguments)
        kinds = []
        for event in answer[events]:
            kinds.append(bedrock_event_kind(event))
            if kinds[-1] == last_event:
                break  # the body's end is never read, the response never closed
        return kinds

    with bedrock_server(ACCESS_KEY) as server, replay.use_cassette(cassette_path) as cassette:
        recorded = kinds_read(server.url, ACCESS_KEY)
        assert cassette.recorded == 1  # written at the final event, before the block ends
    (interaction,) = json.loads(cassette_path.read_bytes())["interactions"].values()
    (response,) = interaction["responses"]
    assert response["complete"] is True
    with NetworkGuard() as guard, replay.use_cassette(cassette_path, "none"):
        assert kinds_read(server.url, "AKIADUMMYREPLAY00000") == recorded
    assert guard.blocked == []


def test_bedrock_recorded_again_leaves_the_cassette_as_it_was(cassette_path: Path) -> None:
    """Bedrock pads each stream event with a run of letters of random length and reports a new
    latency on every call: neither churns a cassette recorded again with the same answers."""
    recorded = []
    with bedrock_server(ACCESS_KEY) as server:
        for _ in range(2):
            with replay.use_cassette(cassette_path, "all"):
                bedrock_converse(server.url, ACCESS_KEY, SECRET_KEY, SESSION_TOKEN)
                bedrock_converse_stream(server.url, ACCESS_KEY, SECRET_KEY, SESSION_TOKEN)
                bedrock_invoke_stream(server.url, ACCESS_KEY, SECRET_KEY, SESSION_TOKEN)
            recorded.append(cassette_path.read_bytes())
    assert len(server.sent) == 6
    assert all(
        first != again for first, again in zip(server.sent[:3], server.sent[3:], strict=True)
    )
    assert recorded[0] == recorded[1]


class HangingUp:
    """A loopback server that reads a request and closes the connection: the answer cut off
    after ``sent`` (nothing, or the head and part of a body)."""

    def __init__(self, sent: bytes) -> None:
        self.sent = sent
        self.accepted = 0
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self._listener.accept()
            except OSError:
                return  # stopped
            with connection:
                self.accepted += 1
                connection.recv(65536)
                connection.sendall(self.sent)

    def __enter__(self) -> HangingUp:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._listener.shutdown(socket.SHUT_RDWR)  # wakes the accept: close alone does not
        self._listener.close()
        self._thread.join(5)


def test_a_server_hanging_up_is_recorded_and_replays_as_each_librarys_error(
    cassette_path: Path,
) -> None:
    with HangingUp(b"") as server, replay.use_cassette(cassette_path) as cassette:
        with pytest.raises(urllib3.exceptions.ProtocolError, match="closed connection"):
            urllib3.PoolManager().request("GET", server.url + "/v1/models", retries=False)
    assert cassette.recorded == 1 and server.accepted == 1
    (interaction,) = json.loads(cassette_path.read_bytes())["interactions"].values()
    assert interaction["responses"][0]["error"]["type"] == "RemoteDisconnected"

    with replay.use_cassette(cassette_path, "none", allow_playback_repeats=True):
        with pytest.raises(urllib3.exceptions.ProtocolError, match="closed connection"):
            urllib3.PoolManager().request("GET", server.url + "/v1/models", retries=False)
        with pytest.raises(requests.ConnectionError, match="closed connection"):
            requests.get(server.url + "/v1/models")
        with pytest.raises(httpx.RemoteProtocolError):
            httpx.get(server.url + "/v1/models")
    assert server.accepted == 1


def test_a_stream_cut_off_replays_its_chunks_then_the_same_error(cassette_path: Path) -> None:
    head = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: 400\r\n\r\n"
    with HangingUp(head + b'data: {"n": 1}\n\n') as server:
        url = server.url + "/v1/stream"

        def read() -> tuple[list[bytes], str]:
            answer = urllib3.PoolManager().request("GET", url, preload_content=False)
            pieces: list[bytes] = []
            with pytest.raises(urllib3.exceptions.ProtocolError) as cut:
                pieces.extend(answer.stream(1024))
            return pieces, str(cut.value)

        with replay.use_cassette(cassette_path) as cassette:
            recorded = read()
        assert cassette.recorded == 1
    with replay.use_cassette(cassette_path, "none"):
        replayed = read()
    assert recorded[0] == [b'data: {"n": 1}\n\n']
    assert "IncompleteRead" in recorded[1]
    assert replayed == recorded and server.accepted == 1


def test_a_read_timeout_after_connecting_is_recorded_and_raised_again(cassette_path: Path) -> None:
    """The API's behaviour once connected, unlike a connection refused: recorded."""
    timeout = urllib3.Timeout(connect=5, read=0.2)
    with silent_server() as url:
        with replay.use_cassette(cassette_path):
            with pytest.raises(urllib3.exceptions.ReadTimeoutError):
                urllib3.PoolManager().request(
                    "GET", url + "/v1/slow", timeout=timeout, retries=False
                )
    with replay.use_cassette(cassette_path, "none", allow_playback_repeats=True):
        with pytest.raises(urllib3.exceptions.ReadTimeoutError, match="Read timed out"):
            urllib3.PoolManager().request("GET", url + "/v1/slow", timeout=timeout, retries=False)
        with pytest.raises(requests.ReadTimeout):
            requests.get(url + "/v1/slow", timeout=(5, 0.2))
    (entry,) = json.loads(cassette_path.read_bytes())["interactions"].values()
    assert [r["error"]["type"] for r in entry["responses"]] == ["ReadTimeoutError"]
