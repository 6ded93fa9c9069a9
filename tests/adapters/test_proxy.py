"""The proxy adapter on a real uvicorn server: routes, cassette names, misses, failures,
secrets, streams and many clients at once, against the local fake LLM API."""

from __future__ import annotations

import json
import logging
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from conftest import StoppedServer, masked
from proxied import proxy, stored

import replay
from replay._adapters.proxy import (
    MISS_STATUS,
    ReplayProxy,
    Route,
    Routes,
    Shelf,
    normalized_path,
    without_dot_segments,
)
from replay._core.errors import ConfigError
from replay.tools import serve
from replay.tools.fakellm import FakeLLMServer

KEY = "fk-proxy-7Tq2Wm9Zc4Xv1Nb8Lr5"
AUTH = {"authorization": f"Bearer {KEY}"}


def chat(prompt: str, stream: bool = False) -> dict[str, Any]:
    return {"model": "m", "messages": [{"role": "user", "content": prompt}], "stream": stream}


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch, llm_server: FakeLLMServer) -> FakeLLMServer:
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    llm_server.api_key = KEY
    return llm_server


def free_port_refusing() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


# Routes and names, pure.


def test_the_longest_prefix_takes_a_path_by_whole_segments() -> None:
    routes = Routes(
        [Route("/", "https://api.openai.com"), Route("/anthropic", "https://api.anthropic.com")]
    )
    assert routes.url_for("/anthropic/v1/messages", "") == "https://api.anthropic.com/v1/messages"
    assert routes.url_for("/anthropics/x", "a=1") == "https://api.openai.com/anthropics/x?a=1"
    assert routes.url_for("/v1/chat", "") == "https://api.openai.com/v1/chat"
    # Absolute-form and CONNECT targets do not start with a slash: no route takes them.
    assert routes.url_for("http://evil.example/", "") is None
    assert routes.url_for("evil.example:443", "") is None
    only = Routes([Route("/v1", "http://127.0.0.1:9/base")])
    assert only.url_for("/v1/models", "") == "http://127.0.0.1:9/base/models"
    assert only.url_for("/v2/models", "") is None


@pytest.mark.parametrize(
    ("prefix", "upstream"),
    [
        ("v1", "https://api.openai.com"),
        ("/v1/", "https://api.openai.com"),
        ("/", "ftp://api.openai.com"),
        ("/", "https://"),
        ("/", "https://api.openai.com/"),
        ("/", "https://api.openai.com?x=1"),
    ],
)
def test_a_bad_route_is_a_config_error(prefix: str, upstream: str) -> None:
    with pytest.raises(ConfigError, match="upstream"):
        Route(prefix, upstream)


def test_two_upstreams_for_one_prefix_or_none_at_all_are_refused() -> None:
    with pytest.raises(ConfigError, match="two upstreams"):
        Routes([Route("/", "https://a.example"), Route("/", "https://b.example")])
    with pytest.raises(ConfigError, match="at least one"):
        Routes([])


def test_cassette_names_stay_below_the_root(tmp_path: Path) -> None:
    shelf = Shelf(tmp_path, lambda path: replay.Cassette(path))
    assert shelf.path_for(None) == tmp_path / "default.json"
    assert shelf.path_for("suite/test_one") == tmp_path / "suite" / "test_one.json"
    assert shelf.path_for("suite/test_one.json") == tmp_path / "suite" / "test_one.json"
    assert shelf.path_for("Class.test[1]") == tmp_path / "Class.test[1].json"
    for bad in ("../x", "a/../b", "/etc/passwd", ".hidden", "a/.lock", "a//b", "", "a\\b", "a/"):
        with pytest.raises(ConfigError, match="X-Replay-Cassette"):
            shelf.path_for(bad)


# Deciding and answering.


def test_a_miss_is_a_json_error_and_the_server_keeps_serving(
    fake: FakeLLMServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with proxy({"/": fake.url}, tmp_path) as recording:
        httpx.post(recording.url + "/v1/chat/completions", json=chat("hello"), headers=AUTH)
    caplog.set_level(logging.INFO, "replay.proxy")
    with proxy({"/": fake.url}, tmp_path, mode="none") as served, httpx.Client() as client:
        missed = client.post(served.url + "/v1/chat/completions", json=chat("goodbye"))
        again = client.post(served.url + "/v1/chat/completions", json=chat("hello"))
    assert missed.status_code == 404
    assert missed.headers["x-should-retry"] == "false"
    error = missed.json()["error"]
    assert error["type"] == "replay_cassette_miss"
    assert error["cassette"] == str(tmp_path / "default.json")
    shown = f"/v1/chat/completions (route / -> {fake.url})"  # the path asked for, its route
    assert error["request"] == {"method": "POST", "url": shown}
    assert error["reason"] == "mode 'none' never records"
    assert error["closest"]["differences"] == [
        {"field": "body.messages[0].content", "recorded": "hello", "requested": "goodbye"}
    ]
    assert "no recording for POST" in error["message"]
    assert again.status_code == 200
    assert again.json()["choices"][0]["message"]["content"] == "Answer to: hello"
    assert served.app.tally == {"missed": 1, "replayed": 1}
    assert "miss" in caplog.text and "body.messages[0].content" in caplog.text
    assert "replayed  200 POST" in caplog.text


def test_a_recording_replays_whatever_the_upstream_is(
    fake: FakeLLMServer, server_gone: Callable[[], StoppedServer], tmp_path: Path
) -> None:
    """Keyed by the path the client asked for, not by the upstream's address: a replay-only
    server with another upstream, or the same path split another way, replays it."""
    with proxy({"/": fake.url}, tmp_path) as recording:
        answer = httpx.post(recording.url + "/v1/chat/completions", json=chat("hi"), headers=AUTH)
    assert "x-replay-route" not in fake.requests[0].headers  # the cassette's, not the API's
    (interaction,) = stored(tmp_path / "default.json").values()
    assert interaction["request"]["headers"]["x-replay-route"] == f"/={fake.url}"
    gone = server_gone()
    elsewhere = f"http://127.0.0.1:{free_port_refusing()}"
    for upstreams in ({"/": elsewhere}, {"/v1": elsewhere + "/v1"}):
        with proxy(upstreams, tmp_path, mode="none", allow_playback_repeats=True) as served:
            replayed = httpx.post(served.url + "/v1/chat/completions", json=chat("hi"))
        assert replayed.status_code == 200, replayed.text
        assert masked(replayed.json()) == masked(answer.json())
    gone.assert_untouched()


def test_a_cassette_keyed_by_the_upstreams_address_still_replays_from_it(
    fake: FakeLLMServer, server_gone: Callable[[], StoppedServer], tmp_path: Path
) -> None:
    """As an older replay serve recorded: no route, keyed by the upstream's host and port."""
    with replay.Cassette(tmp_path / "default.json") as cassette:
        with httpx.Client(transport=replay.ReplayTransport(cassette), headers=AUTH) as client:
            answer = client.post(fake.url + "/v1/chat/completions", json=chat("old"))
    gone = server_gone()
    with proxy({"/": fake.url}, tmp_path, mode="none") as served:
        replayed = httpx.post(served.url + "/v1/chat/completions", json=chat("old"))
        missed = httpx.post(served.url + "/v1/chat/completions", json=chat("new"))
    gone.assert_untouched()
    assert replayed.status_code == 200, replayed.text
    assert masked(replayed.json()) == masked(answer.json())
    assert missed.json()["error"]["type"] == "replay_cassette_miss"


def test_cassettes_are_chosen_by_header(fake: FakeLLMServer, tmp_path: Path) -> None:
    with proxy({"/": fake.url}, tmp_path) as served, httpx.Client(headers=AUTH) as client:
        url = served.url + "/v1/chat/completions"
        client.post(url, json=chat("one"), headers={"X-Replay-Cassette": "suite/test_one"})
        client.post(url, json=chat("two"), headers={"X-Replay-Cassette": "suite/test_two.json"})
        client.post(url, json=chat("three"))
        bad = client.post(url, json=chat("four"), headers={"X-Replay-Cassette": "../four"})
    assert bad.status_code == 400
    assert bad.json()["error"]["type"] == "replay_bad_cassette_name"
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.json")) == [
        "default.json",
        "suite/test_one.json",
        "suite/test_two.json",
    ]
    # The header is the proxy's, not the request's: it is not stored.
    (interaction,) = stored(tmp_path / "suite" / "test_one.json").values()
    assert "x-replay-cassette" not in interaction["request"]["headers"]
    assert len(fake.requests) == 3
    assert "x-replay-cassette" not in fake.requests[0].headers


def test_only_configured_upstreams_are_reached(fake: FakeLLMServer, tmp_path: Path) -> None:
    with proxy({"/v1": fake.url + "/v1"}, tmp_path) as served:
        elsewhere = httpx.post(served.url + "/openai/v1/chat/completions", json=chat("x"))
        host, port = served.url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port))) as raw:
            target = f"{fake.url}/v1/chat/completions"
            raw.sendall(
                f"GET {target} HTTP/1.1\r\nhost: {host}:{port}\r\nconnection: close\r\n\r\n"
                "".encode()
            )
            answer = b""
            while chunk := raw.recv(65536):
                answer += chunk
    assert elsewhere.status_code == 404
    assert elsewhere.json()["error"]["type"] == "replay_no_route"
    assert "/v1 -> " in elsewhere.json()["error"]["message"]
    assert answer.startswith(b"HTTP/1.1 404")
    assert fake.requests == []  # neither reached the upstream


def test_keys_stay_out_of_cassettes_and_logs(
    fake: FakeLLMServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "replay.proxy")
    wrong = "fk-wrong-key-3Hd8Pq1Zx6Mv"
    with proxy({"/": fake.url}, tmp_path) as served, httpx.Client() as client:
        url = served.url + "/v1/chat/completions"
        client.post(url, json=chat("hello"), headers=AUTH)
        client.post(url, json=chat("stream", stream=True), headers={"x-api-key": KEY})
        rejected = client.post(url, json=chat("hi"), headers={"authorization": f"Bearer {wrong}"})
        client.post(url + f"?key={KEY}", json=chat("by query"), headers=AUTH)
    assert wrong in rejected.text  # the fake echoes a rejected key, as real APIs do
    on_disk = b"".join(p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())
    for secret in (KEY, wrong):
        assert secret[:10].encode() not in on_disk
        assert secret[:10] not in caplog.text
    assert "?key=REDACTED" in caplog.text


def test_an_unreachable_upstream_is_a_bad_gateway_and_is_not_recorded(tmp_path: Path) -> None:
    upstream = f"http://127.0.0.1:{free_port_refusing()}"
    with proxy({"/": upstream}, tmp_path) as served:
        failed = httpx.post(served.url + "/v1/chat/completions", json=chat("x"), headers=AUTH)
    assert failed.status_code == 502
    assert failed.json()["error"]["type"] == "replay_upstream_error"
    assert failed.json()["error"]["message"].startswith("ConnectError")
    assert not (tmp_path / "default.json").exists()
    with proxy({"/": upstream}, tmp_path, mode="none") as served:
        replayed = httpx.post(served.url + "/v1/chat/completions", json=chat("x"))
    assert replayed.status_code == MISS_STATUS
    assert replayed.json()["error"]["type"] == "replay_cassette_miss"


# Streams.


def test_a_stream_passes_through_while_it_is_recorded(fake: FakeLLMServer, tmp_path: Path) -> None:
    fake.chunk_delay = 0.15
    with proxy({"/": fake.url}, tmp_path) as served, httpx.Client(headers=AUTH) as client:
        started = time.monotonic()
        body = chat("one two three four five six", stream=True)
        with client.stream("POST", served.url + "/v1/chat/completions", json=body) as response:
            arrivals = [time.monotonic() - started for _ in response.iter_raw()]
    # 11 events 0.15 s apart: the first reached the client long before the last was sent.
    assert arrivals[0] < arrivals[-1] - 1.0
    assert len(arrivals) >= 8


def test_a_client_hanging_up_mid_stream_is_recorded_as_abandoned(
    fake: FakeLLMServer, tmp_path: Path
) -> None:
    fake.chunk_delay = 0.1
    with proxy({"/": fake.url}, tmp_path) as served, httpx.Client(headers=AUTH) as client:
        body = chat("one two three four five six seven", stream=True)
        with client.stream("POST", served.url + "/v1/chat/completions", json=body) as response:
            next(response.iter_raw())
        deadline = time.monotonic() + 10
        while not served.app.tally["recorded"] and time.monotonic() < deadline:
            time.sleep(0.02)
    (interaction,) = stored(tmp_path / "default.json").values()
    response = interaction["responses"][0]
    assert response["complete"] is False
    assert 1 <= len(response["chunks"]) < 10


def test_another_clients_answer_does_not_cut_a_stream_still_open(
    fake: FakeLLMServer, tmp_path: Path
) -> None:
    """Each answer folds the journal, but a stream another client is still reading stays open:
    it is recorded whole when it ends, not as it stood when someone else's answer was saved."""
    fake.chunk_delay = 0.05
    body = chat("one two three four five six", stream=True)
    with proxy({"/": fake.url}, tmp_path) as served, httpx.Client(headers=AUTH) as client:
        url = served.url + "/v1/chat/completions"
        with client.stream("POST", url, json=body) as streaming:
            events = streaming.iter_raw()
            received = [next(events)]
            assert client.post(url, json=chat("meanwhile")).status_code == 200
            received += events
    interactions = stored(tmp_path / "default.json").values()
    (streamed,) = [i for i in interactions if "chunks" in i["responses"][0]]
    (response,) = streamed["responses"]
    assert response["complete"] is True
    assert b"".join(received).endswith(b"data: [DONE]\n\n")
    assert response["chunks"][-1]["text"] == "data: [DONE]\n\n"


def test_replay_keeps_the_recorded_pace_when_asked(fake: FakeLLMServer, tmp_path: Path) -> None:
    fake.chunk_delay = 0.08
    body = chat("one two three four five six", stream=True)
    with proxy({"/": fake.url}, tmp_path) as served:
        httpx.post(served.url + "/v1/chat/completions", json=body, headers=AUTH)
    (interaction,) = stored(tmp_path / "default.json").values()
    recorded_span = interaction["responses"][0]["chunks"][-1]["at"]
    assert recorded_span > 0.5
    for speed in (1.0, 4.0):
        with proxy({"/": fake.url}, tmp_path, mode="none", replay_speed=speed) as served:
            started = time.monotonic()
            httpx.post(served.url + "/v1/chat/completions", json=body)
            assert time.monotonic() - started >= recorded_span / speed * 0.9


# Many clients, and other cassettes in the same process.


async def _ask_all(url: str, count: int, key: str) -> list[str]:
    limits = httpx.Limits(max_connections=count)
    async with httpx.AsyncClient(limits=limits, timeout=60, headers={"x-api-key": key}) as client:

        async def ask(index: int) -> str:
            body = chat(f"load {index} alpha beta", stream=index % 2 == 0)
            response = await client.post(url + "/v1/chat/completions", json=body)
            response.raise_for_status()
            if body["stream"]:
                events = [json.loads(line[6:]) for line in response.text.split("\n\n")[:-2]]
                return "".join(e["choices"][0]["delta"].get("content") or "" for e in events)
            return str(response.json()["choices"][0]["message"]["content"])

        with anyio.fail_after(120):
            return await _gather([ask(index) for index in range(count)])


async def _gather(calls: list[Any]) -> list[str]:
    results: list[str] = [""] * len(calls)

    async def run(index: int, call: Any) -> None:
        results[index] = await call

    async with anyio.create_task_group() as group:
        for index, call in enumerate(calls):
            group.start_soon(run, index, call)
    return results


def test_a_hundred_clients_at_once_lose_nothing(
    fake: FakeLLMServer, tmp_path: Path, server_gone: Any
) -> None:
    count = 100
    expected = [f"Answer to: load {index} alpha beta" for index in range(count)]
    path = tmp_path / "default.json"
    with proxy({"/": fake.url}, tmp_path) as served:
        # Meanwhile the in-process transport records into the same file: the two merge.
        with replay.Cassette(path, mode="new_episodes") as beside:
            transport = httpx.Client(transport=replay.ReplayTransport(beside), headers=AUTH)
            transport.post(fake.url + "/v1/chat/completions", json=chat("from the transport"))
            assert anyio.run(_ask_all, served.url, count, KEY) == expected
    assert served.app.tally["recorded"] == count
    assert len(stored(path)) == count + 1
    gone = server_gone()
    with proxy({"/": fake.url}, tmp_path, mode="none") as served:
        assert anyio.run(_ask_all, served.url, count, "sk-dummy") == expected
    assert served.app.tally == {"replayed": count}
    gone.assert_untouched()


def test_an_active_use_cassette_does_not_capture_the_proxy(
    fake: FakeLLMServer, tmp_path: Path
) -> None:
    other = tmp_path / "other" / "test.json"
    # The client's connection to the proxy is one no cassette routes (a raw socket), which
    # the replay-only block would block but for block_network=False.
    with replay.use_cassette(other, mode="none", block_network=False) as outer:
        with proxy({"/": fake.url}, tmp_path / "served") as served:
            port = served.url.rsplit(":", 1)[1]
            body = json.dumps(chat("hello")).encode()
            head = (
                f"POST /v1/chat/completions HTTP/1.1\nhost: 127.0.0.1:{port}\n"
                f"authorization: {AUTH['authorization']}\ncontent-type: application/json\n"
                f"content-length: {len(body)}\nconnection: close\n"
            )
            answer = raw_exchange(served.url, head, body)
            assert answer.startswith(b"HTTP/1.1 200 ") and b"Answer to: hello" in answer
    assert outer.misses == [] and not other.exists()
    assert len(stored(tmp_path / "served" / "default.json")) == 1


# Hostile clients and cassettes: refused with a JSON error, never a dropped connection.


def raw_exchange(url: str, head: str, body: bytes = b"", close_early: bool = False) -> bytes:
    """Send ``head`` (and ``body``) on a socket of its own and read the answer to the end;
    with ``close_early``, hang up at once instead."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as raw:
        raw.sendall(head.replace("\n", "\r\n").encode() + b"\r\n" + body)
        if close_early:
            return b""
        answer = b""
        while chunk := raw.recv(65536):
            answer += chunk
    return answer


def answered_json(answer: bytes) -> tuple[int, dict[str, Any]]:
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


def test_a_body_cut_short_is_neither_forwarded_nor_recorded(
    fake: FakeLLMServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "replay.proxy")
    with proxy({"/": fake.url}, tmp_path) as served:
        port = served.url.rsplit(":", 1)[1]
        head = (
            f"POST /v1/chat/completions HTTP/1.1\nhost: 127.0.0.1:{port}\n"
            "content-type: application/json\ncontent-length: 100\n"
        )
        raw_exchange(served.url, head, b'{"model": "m",', close_early=True)
        deadline = time.monotonic() + 10
        while not served.app.tally["failed"] and time.monotonic() < deadline:
            time.sleep(0.02)
    assert served.app.tally == {"failed": 1}
    assert fake.requests == []
    assert not (tmp_path / "default.json").exists()
    assert "hung up before sending the whole body" in caplog.text


def recorded_cassette(fake: FakeLLMServer, root: Path) -> Path:
    with proxy({"/": fake.url}, root) as recording:
        httpx.post(recording.url + "/v1/chat/completions", json=chat("hello"), headers=AUTH)
    return root / "default.json"


@pytest.mark.parametrize(
    ("status", "header", "problem"),
    [
        (200, ("x-evil", "a\r\nset-cookie: stolen=1"), "line break"),
        (200, ("bad name:", "x"), "not an HTTP token"),
        (200, ("x-naïve", "x"), "not an HTTP token"),
        (200, ("x-nul", "a\u0000b"), "control character"),
        (100, None, "status 100"),
        (999, None, "status 999"),
        (204, None, "status 204 has no body"),
        (304, None, "status 304 has no body"),
    ],
    ids=["crlf", "bad-name", "non-ascii-name", "nul", "100", "999", "204-body", "304-body"],
)
def test_an_unsendable_recording_is_a_cassette_error_naming_it(
    fake: FakeLLMServer,
    server_gone: Callable[[], StoppedServer],
    tmp_path: Path,
    status: int,
    header: tuple[str, str] | None,
    problem: str,
) -> None:
    path = recorded_cassette(fake, tmp_path)
    document = json.loads(path.read_bytes())
    ((key, interaction),) = document["interactions"].items()
    response = interaction["responses"][0]
    response["status"] = status
    if header is not None:
        response["headers"][header[0]] = header[1]
    path.write_bytes(json.dumps(document).encode())
    gone = server_gone()
    with proxy({"/": fake.url}, tmp_path, mode="none") as served, httpx.Client() as client:
        url = served.url + "/v1/chat/completions"
        failed = client.post(url, json=chat("hello"))
        missed = client.post(url, json=chat("still serving"))
    gone.assert_untouched()
    assert failed.status_code == 500, failed.text
    error = failed.json()["error"]
    assert error["type"] == "replay_cassette_error"
    assert error["cassette"] == str(path)
    assert error["interaction"] == key
    assert problem in error["message"] and str(path) in error["message"]
    assert missed.json()["error"]["type"] == "replay_cassette_miss"


def test_a_header_value_beyond_latin1_replays_as_utf8(
    fake: FakeLLMServer, server_gone: Callable[[], StoppedServer], tmp_path: Path
) -> None:
    """Not refused: the model sends such a value (written by hand) as UTF-8, and HTTP allows
    those bytes."""
    path = recorded_cassette(fake, tmp_path)
    document = json.loads(path.read_bytes())
    for interaction in document["interactions"].values():
        interaction["responses"][0]["headers"]["x-name"] = "naïve ☃"
    path.write_bytes(json.dumps(document).encode())
    server_gone()
    with proxy({"/": fake.url}, tmp_path, mode="none") as served:
        replayed = httpx.post(served.url + "/v1/chat/completions", json=chat("hello"))
    assert replayed.status_code == 200, replayed.text
    assert (b"x-name", "naïve ☃".encode()) in replayed.headers.raw


def test_credentials_in_a_target_stay_out_of_logs_and_answers(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "replay.proxy")
    password = "PW-Secret-9z8y7x"
    upstream = f"http://127.0.0.1:{free_port_refusing()}"
    with proxy({"/": upstream}, tmp_path) as served:
        port = served.url.rsplit(":", 1)[1]
        absolute = raw_exchange(
            served.url,
            f"GET http://bob:{password}@evil.example/x HTTP/1.1\nhost: 127.0.0.1:{port}\n"
            "connection: close\n",
        )
        failed = httpx.post(served.url + f"/v1/chat/completions?key={KEY}", json=chat("x"))
    status, body = answered_json(absolute)
    assert status == 404 and body["error"]["type"] == "replay_no_route"
    assert body["error"]["request"] == "GET http://REDACTED@evil.example/x"
    assert failed.status_code == 502
    assert failed.json()["error"]["url"] == f"{upstream}/v1/chat/completions?key=REDACTED"
    for text in (absolute.decode(), failed.text, caplog.text):
        assert password not in text and KEY not in text
    assert "?key=REDACTED" in caplog.text


@pytest.mark.parametrize(
    ("host", "allowed"),
    [
        ("127.0.0.1:{port}", True),
        ("localhost:{port}", True),
        ("LOCALHOST:{port}", True),
        ("[::1]:{port}", True),
        ("replay-proxy", True),  # configured: any port
        ("replay-proxy:8787", True),
        ("evil.example:{port}", False),  # DNS rebinding: the page's own name
        ("evil.example", False),
        ("127.0.0.1", False),  # port 80, not this server's
        ("127.0.0.1:1", False),
        ("bob:PW-host-7Kq2@127.0.0.1:{port}", False),  # and the password never shown
    ],
)
def test_only_this_servers_own_names_are_served(
    fake: FakeLLMServer,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    host: str,
    allowed: bool,
) -> None:
    caplog.set_level(logging.INFO, "replay.proxy")
    shelf = Shelf(tmp_path, lambda path: replay.Cassette(path))
    app = ReplayProxy(serve.routes_of({"/": fake.url}), shelf, allowed_hosts=["Replay-Proxy"])
    with serve.running(app) as served:
        port = served.url.rsplit(":", 1)[1]
        head = f"POST /v1/chat/completions HTTP/1.1\nhost: {host.format(port=port)}\n"
        payload = json.dumps(chat("hi")).encode()
        answer = raw_exchange(
            served.url,
            head + f"content-length: {len(payload)}\nconnection: close\n"
            f"authorization: Bearer {KEY}\n",
            payload,
        )
    if allowed:
        assert answer.startswith(b"HTTP/1.1 200"), answer
        assert len(fake.requests) == 1
    else:
        status, body = answered_json(answer)
        assert status == 403
        assert body["error"]["type"] == "replay_host_not_allowed"
        assert "--allow-host" in body["error"]["message"]
        assert fake.requests == [] and not (tmp_path / "default.json").exists()
    assert "PW-host-7Kq2" not in answer.decode() + caplog.text


@pytest.mark.parametrize(
    "path",
    [
        "/p/../../admin",
        "/p/../admin",
        "/p/v1/../../admin",
        "/p/%2e%2e/admin",
        "/p/%2E%2E/%2e%2e/admin",
        "/p/.%2e/admin",
        "/p/..%2f..%2fadmin",  # an encoded slash, which some upstreams decode
        "/p/v1/..%2F..%2F..%2Fadmin",
        "/p/..\\..\\admin",  # a backslash, a separator on Windows servers
        "/p/..%5c..%5cadmin",
        "/p/..;/..;/admin",  # a path parameter, which Java servers drop
        "/p/..;x=1/admin",
        "/p/%2e%2e%3b/admin",
    ],
)
def test_a_path_leaving_its_routes_prefix_is_refused(
    fake: FakeLLMServer, tmp_path: Path, path: str
) -> None:
    with proxy({"/p": fake.url + "/api"}, tmp_path) as served:
        port = served.url.rsplit(":", 1)[1]
        answer = raw_exchange(
            served.url,
            f"GET {path}?key={KEY} HTTP/1.1\nhost: 127.0.0.1:{port}\nconnection: close\n",
        )
    status, body = answered_json(answer)
    assert status == 400, body
    assert body["error"]["type"] == "replay_bad_path"
    assert "'..' leaves the route /p" in body["error"]["message"]
    assert KEY not in answer.decode()
    assert fake.requests == []


def test_a_normalized_path_within_the_route_is_forwarded_as_sent(
    fake: FakeLLMServer, tmp_path: Path
) -> None:
    """An encoded slash or a path parameter that climbs nowhere reaches the upstream as the
    client sent it (an id such as a Bedrock ARN holds %2F); one that normalization gives to
    another route is refused."""
    with proxy({"/p": fake.url, "/": fake.url}, tmp_path) as served:
        port = served.url.rsplit(":", 1)[1]
        head = f"host: 127.0.0.1:{port}\nconnection: close\nauthorization: Bearer {KEY}\n"
        kept = raw_exchange(served.url, f"GET /p/v1/models/a%2Fb;v=1 HTTP/1.1\n{head}")
        moved = raw_exchange(served.url, f"GET /p%2Fv1/models HTTP/1.1\n{head}")
    assert kept.startswith(b"HTTP/1.1 404"), kept  # the fake's own answer: no such model
    assert [request.path for request in fake.requests] == ["/v1/models/a%2Fb;v=1"]
    status, body = answered_json(moved)
    assert status == 400 and body["error"]["type"] == "replay_bad_path"
    assert "it goes to the route /p, not /" in body["error"]["message"]


def test_normalized_path() -> None:
    assert normalized_path("/p/..%2f..%2fadmin") == "/p/../../admin"
    assert normalized_path("/p/..\\..\\admin") == "/p/../../admin"
    assert normalized_path("/p/..;/..;x=1/admin") == "/p/../../admin"
    assert normalized_path("/p/v1/models") == "/p/v1/models"


def test_dot_segments_within_the_route_are_resolved(fake: FakeLLMServer, tmp_path: Path) -> None:
    with proxy({"/p": fake.url}, tmp_path) as served:
        port = served.url.rsplit(":", 1)[1]
        answer = raw_exchange(
            served.url,
            f"GET /p/v1/x/%2e%2e/./models HTTP/1.1\nhost: 127.0.0.1:{port}\nconnection: close\n"
            f"authorization: Bearer {KEY}\n",
        )
    assert answer.startswith(b"HTTP/1.1 "), answer
    assert [request.path for request in fake.requests] == ["/v1/models"]


def test_without_dot_segments() -> None:
    assert without_dot_segments("") == ""
    assert without_dot_segments("/") == "/"
    assert without_dot_segments("/a/./b/../c") == "/a/c"
    assert without_dot_segments("/a/b/..") == "/a/"
    assert without_dot_segments("/a/%2E") == "/a/"
    assert without_dot_segments("/a%2e%2e/b") == "/a%2e%2e/b"  # not a dot segment
    assert without_dot_segments("/..") is None
    assert without_dot_segments("/a/../..") is None


@pytest.mark.parametrize(
    "name", ["a/" * 2000 + "b", "x" * 300, "/".join(["d"] * 33)], ids=["deep", "long", "33-parts"]
)
def test_an_overlong_cassette_name_is_refused_naming_the_header(
    fake: FakeLLMServer, tmp_path: Path, name: str
) -> None:
    with proxy({"/": fake.url}, tmp_path) as served:
        refused = httpx.post(
            served.url + "/v1/chat/completions",
            json=chat("x"),
            headers={**AUTH, "X-Replay-Cassette": name},
        )
        within = httpx.post(
            served.url + "/v1/chat/completions",
            json=chat("x"),
            headers={**AUTH, "X-Replay-Cassette": "/".join(["d"] * 32)},
        )
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["type"] == "replay_bad_cassette_name"
    assert "X-Replay-Cassette" in error["message"] and len(error["message"]) < 500
    assert within.status_code == 200
    assert len(fake.requests) == 1
    assert [p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.json")] == [
        "/".join(["d"] * 32) + ".json"
    ]
