"""A routed library in a version whose internals replay does not know is left unrouted, with
one warning naming it, its version and the consequence; the other libraries are routed as
ever, and no test that does not use it breaks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import httpx
import pytest
import websockets.asyncio.client
import websockets.sync.client
import websockets.version
from conftest import TEST_API_KEY
from realtime_server import RealtimeServer

import replay
from replay._adapters import patch
from replay._adapters.websockets_adapter import async_layout
from replay.tools.fakellm import FakeLLMServer

KEY = "sk-unrouted-test-0123456789abcdef"
BODY = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeLLMServer]:
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    with FakeLLMServer(api_key=KEY) as running:
        yield running


@pytest.fixture
def fresh_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """As in a process that has warned of no library yet: the warning comes once a process."""
    monkeypatch.setattr(patch, "_unrouted", set())


def unrouted_warnings(caught: list[warnings.WarningMessage]) -> list[replay.UnroutedLibrary]:
    return [w.message for w in caught if isinstance(w.message, replay.UnroutedLibrary)]


def chat(url: str) -> object:
    answer = httpx.post(
        url + "/v1/chat/completions", json=BODY, headers={"authorization": f"Bearer {KEY}"}
    )
    return answer.json()["choices"]


@pytest.mark.usefixtures("fresh_process")
def test_a_websockets_without_the_method_replay_wraps_is_unrouted_and_httpx_replays(
    tmp_path: Path, server: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As a release of websockets that moved the asyncio client's method would be (16.x did,
    and every test of a suite errored at setup): websockets, both its clients, is left as it
    is, its connections in a replay-only block are blocked as any unrouted client's, and
    httpx records and replays beside it."""
    method = async_layout(websockets.version.version).method
    monkeypatch.delattr(websockets.asyncio.client.connect, method)
    sync_connect = websockets.sync.client.connect
    path = tmp_path / "c.json"
    with pytest.warns(replay.UnroutedLibrary) as caught:
        with replay.use_cassette(path) as recording:
            recorded = chat(server.url)
    assert recording.recorded == 1
    [warning] = unrouted_warnings(caught.list)
    assert (warning.library, warning.version) == ("websockets", websockets.version.version)
    assert f"connect.{method}" in warning.reason
    assert "NetworkBlocked" in str(warning) and f"websockets {warning.version}" in str(warning)
    server.stop()

    with RealtimeServer(TEST_API_KEY) as realtime:
        with warnings.catch_warnings(record=True) as again:
            warnings.simplefilter("always")
            with replay.use_cassette(path, mode="none") as replaying:
                assert chat(server.url) == recorded
                assert websockets.sync.client.connect is sync_connect  # all of it, or none
                with pytest.raises(replay.NetworkBlocked):
                    websockets.sync.client.connect(realtime.ws_url)
        assert realtime.handshakes == []
    assert replaying.replayed == 1
    assert unrouted_warnings(again) == []  # once a process


@pytest.mark.usefixtures("fresh_process")
def test_a_library_whose_adapter_cannot_import_its_internals_is_unrouted_naming_why(
    tmp_path: Path, server: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A release that dropped a module or name the adapter imports: one warning with the
    import's own error, and the block runs."""
    library = ModuleType("fakeclient")
    library.__version__ = "9.1"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fakeclient", library)
    monkeypatch.setitem(patch._ADAPTERS, "fakeclient", "fakeclient.internals_it_dropped")
    with pytest.warns(replay.UnroutedLibrary) as caught:
        with replay.use_cassette(tmp_path / "c.json") as cassette:
            chat(server.url)
    assert cassette.recorded == 1
    [warning] = unrouted_warnings(caught.list)
    assert (warning.library, warning.version) == ("fakeclient", "9.1")
    assert "fakeclient.internals_it_dropped" in warning.reason


def test_websockets_13_0_keeps_no_uri_and_is_not_routed() -> None:
    with pytest.raises(replay.UnroutedLibrary, match=r"websockets 13\.0 .*keeps no URI"):
        async_layout("13.0")
    assert async_layout("16.1.1").method == "__await_impl__"
    assert async_layout("17.1").method == "connect"
    assert async_layout("18.0rc1").method == "connect"  # a later one: as the latest, checked


EVERY_LIBRARY_IN_A_BLOCK = """
import json, sys, warnings
import httpx, httpx2, aiohttp, urllib3, websockets.asyncio.client, websockets.sync.client
import replay

path, unrouted_url = sys.argv[1:]
unrouted_ws_url = unrouted_url.replace("http", "ws")
blocked = {}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with replay.use_cassette(path, mode="none"):
        for name, connect in {
            "urllib3": lambda: urllib3.PoolManager(retries=False).request("GET", unrouted_url),
            "websockets": lambda: websockets.sync.client.connect(unrouted_ws_url),
        }.items():
            try:
                connect()
            except replay.NetworkBlocked:
                blocked[name] = True
            except Exception as error:
                blocked[name] = repr(error)
print(json.dumps({
    "unrouted": {
        str(w.message.library): str(w.message)
        for w in caught if isinstance(w.message, replay.UnroutedLibrary)
    },
    "blocked": blocked,
}))
"""


def test_every_library_installed_is_routed_or_warned_of_once(tmp_path: Path) -> None:
    """In this environment's versions, in a new process with every routed library imported:
    the libraries warned of as unrouted are exactly those ``REPLAY_EXPECT_UNROUTED`` names
    (none, unless a version set of ``nox -s compat`` installs one replay does not route,
    urllib3 1.26), and a connection of theirs in a replay-only block is blocked, never a
    trip to the network nor another error."""
    expected = set(filter(None, os.environ.get("REPLAY_EXPECT_UNROUTED", "").split(",")))
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            EVERY_LIBRARY_IN_A_BLOCK,
            str(tmp_path / "c.json"),
            "http://127.0.0.1:9/",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    outcome = json.loads(result.stdout)
    assert set(outcome["unrouted"]) == expected, outcome["unrouted"]
    for library in expected:
        assert outcome["blocked"][library] is True, outcome["blocked"]
