"""An MCP session over Streamable HTTP (the ``mcp`` SDK's client, on httpx2) recorded through
``use_cassette`` from a real MCPServer on 127.0.0.1, and replayed in a new process with the
server stopped."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from serving import Running

TESTS = Path(__file__).parent.parent
EXPECTED = {
    "tools": ["account", "add", "fail", "forecast", "tick", "weather"],
    "added": ["3"],
    "weather": {"city": "Paris", "celsius": 21.5},
    "failed": [True, "Error executing tool fail"],
    "readme": ["Ask for the weather in any city."],
}


class McpHttpServer:
    def __init__(self, port: int = 0) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(TESTS / "mcp_server.py"), "http", str(port)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert self.process.stdout is not None
        self.url = self.process.stdout.readline().strip()
        assert self.url.startswith("http://127.0.0.1:"), self.url
        self.port = int(self.url.split(":")[2].split("/")[0])

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


@pytest.fixture
def mcp_server() -> Iterator[McpHttpServer]:
    server = McpHttpServer()
    try:
        yield server
    finally:
        server.stop()


def client(url: str, cassette: Path | None, mode: str) -> dict[str, Any]:
    """A new client process: through ``use_cassette(cassette)``, or with none straight to
    ``url``."""
    return client_run(mode, "http", url, *([str(cassette)] if cassette else []))


def client_run(mode: str, *arguments: str) -> dict[str, Any]:
    """tests/mcp_client.py run with ``arguments`` in a new process in ``mode``: what it
    printed."""
    environment = {**os.environ, "REPLAY_MODE": mode}
    ran = subprocess.run(
        [sys.executable, str(TESTS / "mcp_client.py"), *arguments],
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    result: dict[str, Any] = json.loads(ran.stdout.splitlines()[-1])
    return result


def interactions(cassette: Path) -> list[dict[str, Any]]:
    return list(orjson.loads(cassette.read_bytes())["interactions"].values())


def test_a_streamable_http_session_records_and_replays_with_the_server_gone(
    tmp_path: Path, mcp_server: McpHttpServer
) -> None:
    cassette = tmp_path / "mcp.json"
    assert client(mcp_server.url, cassette, "once") == EXPECTED
    url = mcp_server.url
    mcp_server.stop()

    assert client(url, cassette, "none") == EXPECTED

    recorded = interactions(cassette)
    methods = sorted(
        (entry["request"]["method"], entry["request"].get("body", {}).get("json", {}).get("method"))
        for entry in recorded
    )
    assert methods == [
        ("DELETE", None),
        ("GET", None),  # the server's own SSE stream
        ("POST", "initialize"),
        ("POST", "notifications/initialized"),
        ("POST", "resources/read"),
        ("POST", "tools/call"),
        ("POST", "tools/call"),
        ("POST", "tools/call"),
        ("POST", "tools/list"),
    ]
    # The session id the server minted is one placeholder, in the answer that gave it and in
    # every request that sent it back, and in no other form.
    given = {
        response["headers"]["mcp-session-id"]
        for entry in recorded
        for response in entry["responses"]
    }
    sent = {
        entry["request"]["headers"]["mcp-session-id"]
        for entry in recorded
        if "mcp-session-id" in entry["request"]["headers"]
    }
    assert len(given) == 1 and sent == given


def test_re_recording_an_unchanged_session_leaves_the_cassette_byte_identical(
    tmp_path: Path,
) -> None:
    cassette = tmp_path / "mcp.json"
    recordings = []
    port = 0
    for mode in ("once", "all", "all"):
        server = McpHttpServer(port)  # a new server each time (a new session id), one URL
        port = server.port
        try:
            assert client(server.url, cassette, mode) == EXPECTED
        finally:
            server.stop()
        recordings.append(cassette.read_bytes())
    assert recordings[0] == recordings[1] == recordings[2]


def test_a_reopened_event_stream_replays_as_recorded_and_each_call_in_recorded_order(
    tmp_path: Path, mcp_server: McpHttpServer
) -> None:
    """Two sessions in one cassette, each outlasting the SDK's reconnection delay: replayed,
    each session's GET stream ends at once and is opened again, more often than it was
    recorded; the same tools/call in the second session still gets the second answer."""
    cassette = tmp_path / "sessions.json"
    recorded = client_run("once", "sessions", mcp_server.url, str(cassette))
    assert recorded == {"ticks": ["1", "2", "3", "4"], "misses": []}
    gets = [e for e in interactions(cassette) if e["request"]["method"] == "GET"]
    assert len(gets) == 1 and len(gets[0]["responses"]) == 2  # one stream a session
    url = mcp_server.url
    mcp_server.stop()

    replayed = client_run("none", "sessions", url, str(cassette))
    assert replayed == {"ticks": ["1", "2", "3", "4"], "misses": []}


MARKED = """
import os

import anyio
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


@pytest.mark.replay
def test_weather():
    async def session():
        async with streamable_http_client(os.environ["MCP_URL"]) as (read, write):
            async with ClientSession(read, write) as client:
                await client.initialize()
                weather = await client.call_tool("weather", {"city": "Paris"})
                return weather.structured_content

    assert anyio.run(session) == {"city": "Paris", "celsius": 21.5}
"""


def test_the_pytest_marker_records_and_replays_a_session(
    pytester: pytest.Pytester, mcp_server: McpHttpServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(test_weather=MARKED)
    monkeypatch.setenv("MCP_URL", mcp_server.url)
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
    mcp_server.stop()
    replaying = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--replay-mode", "none")
    replaying.assert_outcomes(passed=1)
    (cassette,) = pytester.path.glob("**/test_weather.json")
    assert any(entry["request"]["method"] == "DELETE" for entry in interactions(cassette))


def test_replay_serve_records_and_replays_a_session(
    tmp_path: Path, mcp_server: McpHttpServer
) -> None:
    upstream = mcp_server.url.removesuffix("/mcp")
    recording = Running("--upstream", upstream, "--cassettes", "cassettes", cwd=tmp_path)
    try:
        assert client(f"{recording.url}/mcp", None, "once") == EXPECTED
    finally:
        recording.stop()
    mcp_server.stop()
    replaying = Running("--mode", "none", "--cassettes", "cassettes", cwd=tmp_path)
    try:
        assert client(f"{replaying.url}/mcp", None, "none") == EXPECTED
    finally:
        status, out, _ = replaying.stop()
    assert status == 0 and ", 0 missed, 0 failed" in out
