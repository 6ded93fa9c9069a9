"""The standard library's client: ``urllib.request`` and ``http.client`` (``HTTPConnection``)
record through a real loopback server and replay with it stopped, in this process and in a
new one, through ``use_cassette`` and the pytest marker."""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
import textwrap
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import StoppedServer
from echo_server import echo_server

import replay
from replay._adapters.http_client_adapter import absolute
from replay._core.errors import CassetteMiss, NetworkBlocked
from replay.tools.fakellm import FakeLLMServer

CHAT = {"model": "m", "messages": [{"role": "user", "content": "hello stdlib"}]}
STREAM = {**CHAT, "stream": True}


def urllib_chat(url: str, api_key: str) -> Any:
    request = urllib.request.Request(
        url + "/v1/chat/completions",
        data=json.dumps(CHAT).encode(),
        headers={"authorization": f"Bearer {api_key}", "content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return [answer.status, json.load(answer)]


def connection_to(url: str) -> http.client.HTTPConnection:
    host, port = url.removeprefix("http://").split(":")
    return http.client.HTTPConnection(host, int(port), timeout=10)


def http_client_stream(url: str, api_key: str) -> list[bytes]:
    """Each piece ``read1`` gave: one server-sent event each, as the server sent them."""
    connection = connection_to(url)
    headers = {"authorization": f"Bearer {api_key}", "content-type": "application/json"}
    connection.request("POST", "/v1/chat/completions", json.dumps(STREAM), headers)
    answer = connection.getresponse()
    pieces = list(iter(lambda: answer.read1(65536), b""))
    connection.close()
    return pieces


def test_recorded_with_urllib_and_http_client_replays_with_the_server_stopped(
    llm_server: FakeLLMServer,
    server_gone: Callable[[], StoppedServer],
    api_key: str,
    cassette_path: Path,
    tmp_path: Path,
) -> None:
    with replay.use_cassette(cassette_path) as recording:
        chatted = urllib_chat(llm_server.url, api_key)
        streamed = http_client_stream(llm_server.url, api_key)
    assert chatted[0] == 200
    assert chatted[1]["choices"][0]["message"]["content"] == "Answer to: hello stdlib"
    events = [piece for piece in streamed if piece.startswith(b"data: {")]
    assert len(events) == len(streamed) - 1 > 2  # an event a piece, then [DONE]
    assert recording.recorded == 2
    assert api_key not in cassette_path.read_text()
    stopped = server_gone()

    with replay.use_cassette(cassette_path, "none") as replaying:
        assert urllib_chat(llm_server.url, api_key) == chatted
        assert http_client_stream(llm_server.url, api_key) == streamed
    assert replaying.replayed == 2
    script = textwrap.dedent(
        f"""
        import json, sys
        sys.path[:0] = [{str(Path(__file__).parent)!r}, {str(Path(__file__).parents[1])!r}]
        import replay
        from test_http_client_adapter import http_client_stream, urllib_chat
        with replay.use_cassette({str(cassette_path)!r}, "none"):
            chatted = urllib_chat({llm_server.url!r}, {api_key!r})
            streamed = http_client_stream({llm_server.url!r}, {api_key!r})
        print(json.dumps([chatted, [piece.decode() for piece in streamed]]))
        """
    )
    new_process = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    assert json.loads(new_process.stdout) == [chatted, [piece.decode() for piece in streamed]]
    stopped.assert_untouched()


def test_reading_by_size_and_by_line_and_a_recorded_error_status(
    llm_server: FakeLLMServer, api_key: str, cassette_path: Path
) -> None:
    def ask() -> tuple[bytes, bytes, list[bytes], int, str]:
        connection = connection_to(llm_server.url)
        connection.request("POST", "/v1/chat/completions", json.dumps(STREAM).encode(), {
            "authorization": f"Bearer {api_key}", "content-type": "application/json",
        })  # fmt: skip
        answer = connection.getresponse()
        head, rest = answer.read(7), answer.readline()
        lines = list(answer)
        try:
            urllib_chat(llm_server.url, "wrong-key")
        except urllib.error.HTTPError as refused:
            return head, rest, lines, refused.code, refused.read().decode()
        raise AssertionError("not refused")

    with replay.use_cassette(cassette_path):
        recorded = ask()
    llm_server.stop()
    with replay.use_cassette(cassette_path, "none"):
        replayed = ask()
    assert replayed[:4] == recorded[:4]
    assert recorded[0] == b"data: {" and recorded[3] == 401
    assert replayed[4] == recorded[4].replace("wrong-key", "REDACTED")  # the key it carried


def test_a_miss_and_an_unrouted_connection_in_mode_none(
    llm_server: FakeLLMServer, api_key: str, cassette_path: Path
) -> None:
    with replay.use_cassette(cassette_path):
        urllib_chat(llm_server.url, api_key)
    with replay.use_cassette(cassette_path, "none"):
        with pytest.raises(CassetteMiss) as missed:
            connection_to(llm_server.url).request("GET", "/v1/models")
        assert "no recording for GET" in str(missed.value)
        connection = connection_to(llm_server.url)
        connection.putrequest("GET", "/v1/models")  # sent in pieces: not routed
        with pytest.raises(NetworkBlocked):
            connection.endheaders()
    assert len(llm_server.requests) == 1


def test_a_connection_dropped_without_an_answer_is_recorded_and_replayed(
    cassette_path: Path,
) -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        url = f"http://127.0.0.1:{listener.getsockname()[1]}"
        with replay.use_cassette(cassette_path):
            connection = connection_to(url)
            connection.request("GET", "/v1/models")
            accepted = listener.accept()[0]
            accepted.recv(65536)
            accepted.close()  # the API hangs up: no answer
            with pytest.raises(http.client.RemoteDisconnected):
                connection.getresponse()
    with replay.use_cassette(cassette_path, "none"):
        connection = connection_to(url)
        connection.request("GET", "/v1/models")
        with pytest.raises(http.client.RemoteDisconnected):
            connection.getresponse()


def test_an_encoded_answer_comes_decoded_and_urllib3_is_left_to_its_adapter(
    cassette_path: Path,
) -> None:
    import urllib3

    with echo_server() as url, replay.use_cassette(cassette_path) as recording:
        connection = connection_to(url)
        connection.request("POST", "/echo", b"payload", {"x-echo-encoding": "gzip"})
        answer = connection.getresponse()
        assert answer.getheader("content-encoding") is None
        assert json.loads(answer.read())["body"] == "payload"
        assert urllib3.PoolManager().request("GET", url + "/pooled").status == 200
    assert recording.recorded == 2  # each once: the pool's round trip not twice


def test_an_https_connections_url_names_its_scheme() -> None:
    assert absolute(http.client.HTTPSConnection("api.example", 8443), "/v1") == (
        "https://api.example:8443/v1"
    )
    assert absolute(http.client.HTTPConnection("::1", 80), "/v1") == "http://[::1]:80/v1"


MARKED = """
import json, os, urllib.request
import pytest

@pytest.mark.replay
def test_urllib(replay_cassette):
    request = urllib.request.Request(
        os.environ["FAKELLM_URL"] + "/v1/chat/completions",
        data=json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]}).encode(),
        headers={"authorization": "Bearer " + os.environ["FAKELLM_KEY"]},
    )
    with urllib.request.urlopen(request) as answer:
        assert json.load(answer)["choices"][0]["message"]["content"] == "Answer to: hi"
    assert replay_cassette.recorded + replay_cassette.replayed == 1
"""


def test_the_pytest_marker_routes_urllib(
    pytester: pytest.Pytester,
    llm_server: FakeLLMServer,
    api_key: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FAKELLM_URL", llm_server.url)
    monkeypatch.setenv("FAKELLM_KEY", api_key)
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    monkeypatch.delenv("CI", raising=False)
    pytester.makepyfile(test_marked=MARKED)
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
    llm_server.stop()
    replaying = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--replay-mode", "none")
    replaying.assert_outcomes(passed=1)
    assert len(list(pytester.path.rglob("cassettes/**/*.json"))) == 1
