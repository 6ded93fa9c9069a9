"""use_cassette routes the default transports of httpx and httpx2, over real loopback HTTP."""

from __future__ import annotations

import asyncio
import http.client
import json
import socket
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import aiohttp
import httpx
import httpx2
import pytest
from realtime_server import RealtimeServer

import replay
from replay.tools.fakellm import FakeLLMServer

KEY = "sk-patch-test-0123456789abcdef"
BODY = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeLLMServer]:
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    with FakeLLMServer(api_key=KEY) as running:
        yield running


def headers() -> dict[str, str]:
    return {"authorization": f"Bearer {KEY}"}


@pytest.mark.parametrize("lib", [httpx, httpx2], ids=lambda lib: lib.__name__)
def test_clients_made_before_the_block_are_routed_too(
    tmp_path: Path, server: FakeLLMServer, lib: ModuleType
) -> None:
    path = tmp_path / "c.json"
    url = server.url + "/v1/chat/completions"
    with lib.Client() as client:
        with replay.use_cassette(path) as recording:
            recorded = client.post(url, json=BODY, headers=headers()).json()
        assert recording.recorded == 1 and path.exists()
        server.stop()
        with replay.use_cassette(path, mode="none") as replaying:
            replayed = client.post(url, json=BODY, headers=headers()).json()
        assert replaying.replayed == 1
        with pytest.raises(lib.ConnectError):  # outside the block: the real network again
            client.post(url, json=BODY, headers=headers())
    assert replayed["choices"] == recorded["choices"]
    assert len(server.requests) == 1


@pytest.mark.parametrize("lib", [httpx, httpx2], ids=lambda lib: lib.__name__)
async def test_async_clients_are_routed(
    tmp_path: Path, server: FakeLLMServer, lib: ModuleType
) -> None:
    path = tmp_path / "c.json"
    url = server.url + "/v1/chat/completions"
    with replay.use_cassette(path):
        async with lib.AsyncClient() as client:
            recorded = (await client.post(url, json=BODY, headers=headers())).json()
    server.stop()
    with replay.use_cassette(path, mode="none"):
        async with lib.AsyncClient() as client:
            replayed = (await client.post(url, json=BODY, headers=headers())).json()
    assert replayed["choices"] == recorded["choices"]


def test_the_innermost_block_is_in_force_and_the_originals_come_back(
    tmp_path: Path, server: FakeLLMServer
) -> None:
    original = httpx.Client._transport_for_url
    url = server.url + "/v1/chat/completions"
    with replay.use_cassette(tmp_path / "outer.json") as outer:
        with replay.use_cassette(tmp_path / "inner.json") as inner:
            httpx.post(url, json=BODY, headers=headers())
        assert (inner.recorded, outer.recorded) == (1, 0)
        httpx.post(url, json={"other": 1}, headers=headers())
        assert outer.recorded == 1
    assert httpx.Client._transport_for_url is original


def test_the_cassette_is_saved_when_the_block_fails(tmp_path: Path, server: FakeLLMServer) -> None:
    path = tmp_path / "c.json"
    with pytest.raises(RuntimeError), replay.use_cassette(path):
        httpx.post(server.url + "/v1/chat/completions", json=BODY, headers=headers())
        raise RuntimeError("the test failed after the call")
    assert len(replay.Cassette(path, mode="none").interactions) == 1


def test_transports_that_never_reach_the_network_are_left_alone(tmp_path: Path) -> None:
    mock = httpx.MockTransport(lambda request: httpx.Response(204))
    with (
        replay.use_cassette(tmp_path / "c.json", mode="none"),
        httpx.Client(transport=mock) as client,
    ):
        assert client.get("https://example.test/").status_code == 204


class Retrying(httpx2.BaseTransport):
    """A user's transport of its own that reaches the network: retries around the default."""

    def __init__(self) -> None:
        self.inner = httpx2.HTTPTransport()
        self.calls = 0

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        self.calls += 1
        return self.inner.handle_request(request)


def test_a_transport_of_its_own_that_reaches_the_network_is_routed(
    tmp_path: Path, server: FakeLLMServer
) -> None:
    path = tmp_path / "c.json"
    url = server.url + "/v1/chat/completions"
    transport = Retrying()
    with httpx2.Client(transport=transport) as client:
        with replay.use_cassette(path) as recording:
            recorded = client.post(url, json=BODY, headers=headers()).json()
        server.stop()
        with replay.use_cassette(path, mode="none") as replaying:
            replayed = client.post(url, json=BODY, headers=headers()).json()
    assert (recording.recorded, replaying.replayed, transport.calls) == (1, 1, 1)
    assert replayed["choices"] == recorded["choices"]


@pytest.mark.parametrize("lib", [httpx, httpx2], ids=lambda lib: lib.__name__)
def test_an_explicit_transport_in_a_block_records_each_request_once(
    tmp_path: Path, server: FakeLLMServer, lib: ModuleType
) -> None:
    url = server.url + "/v1/chat/completions"
    explicit = replay.Cassette(tmp_path / "explicit.json")
    with replay.use_cassette(tmp_path / "block.json") as block:
        with lib.Client(transport=replay.ReplayTransport(explicit)) as client:
            first = client.post(url, json=BODY, headers=headers()).json()
    assert (explicit.recorded, block.recorded, len(server.requests)) == (1, 0, 1)
    assert not (tmp_path / "block.json").exists()
    server.stop()
    with replay.Cassette(tmp_path / "explicit.json", mode="none") as replaying:
        with lib.Client(transport=replay.ReplayTransport(replaying)) as client:
            again = client.post(url, json=BODY, headers=headers()).json()
            # One response was stored, not a duplicate: the second identical call misses.
            with pytest.raises(replay.CassetteMiss):
                client.post(url, json=BODY, headers=headers())
    assert again["choices"] == first["choices"]


@pytest.mark.parametrize(
    "options",
    [{"ignore_localhost": True}, {"ignore_hosts": ["127.0.0.1"]}],
)
def test_ignored_hosts_go_to_the_network_and_never_into_the_cassette(
    tmp_path: Path, server: FakeLLMServer, options: dict[str, object]
) -> None:
    path = tmp_path / "c.json"
    url = server.url + "/v1/chat/completions"
    with replay.use_cassette(path, mode="none", **options) as cassette:
        answer = httpx.post(url, json=BODY, headers=headers()).json()
        with httpx2.Client(transport=replay.ReplayTransport(cassette)) as explicit:
            explicit.post(url, json=BODY, headers=headers())
    assert answer["choices"][0]["message"]["content"] == "Answer to: hi"
    assert (cassette.recorded, cassette.replayed, cassette.misses) == (0, 0, [])
    assert len(server.requests) == 2 and not path.exists()


def test_other_hosts_still_go_through_the_cassette(tmp_path: Path) -> None:
    with replay.use_cassette(tmp_path / "c.json", mode="none", ignore_hosts=["telemetry.test"]):
        with pytest.raises(replay.CassetteMiss):
            httpx.get("http://127.0.0.1:9/")


# Connections made outside the cassette while a block runs.


def _connect(url: str) -> None:
    """A client replay does not route: a socket of its own."""
    parts = httpx.URL(url)
    with socket.create_connection((parts.host, parts.port or 80), timeout=5):
        pass


def test_a_connection_outside_a_replay_only_cassette_is_blocked_naming_host_and_cassette(
    tmp_path: Path, server: FakeLLMServer
) -> None:
    path = tmp_path / "c.json"
    with replay.use_cassette(path, mode="none"):
        with pytest.raises(replay.NetworkBlocked) as blocked:
            _connect(server.url)
    assert (blocked.value.host, blocked.value.port) == ("127.0.0.1", httpx.URL(server.url).port)
    assert blocked.value.cassette == path
    assert str(path) in str(blocked.value) and "block_network=False" in str(blocked.value)
    _connect(server.url)  # after the block, the network as it was


@pytest.mark.parametrize(
    "options", [{"block_network": False}, {"ignore_hosts": ["localhost"]}], ids=str
)
def test_a_replay_only_cassette_lets_through_what_it_is_told_to(
    tmp_path: Path, server: FakeLLMServer, options: dict[str, object]
) -> None:
    with replay.use_cassette(tmp_path / "c.json", mode="none", **options):
        _connect(server.url)  # localhost resolves to the server's 127.0.0.1


def test_a_connection_outside_a_recording_cassette_warns_once_per_host(
    tmp_path: Path, server: FakeLLMServer
) -> None:
    path = tmp_path / "c.json"
    with replay.use_cassette(path):
        with pytest.warns(UserWarning, match=r"connection to 127\.0\.0\.1 made outside cassette"):
            _connect(server.url)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            _connect(server.url)  # the same host again: said once is enough
            # Calls through the cassette are recorded, so they do not warn.
            with httpx.Client() as client:
                client.post(server.url + "/v1/chat/completions", json=BODY, headers=headers())


# Clients replay does not route: http.client sent in pieces, aiohttp's WebSockets.


def _http_client_in_pieces(url: str) -> object:
    """A request written piece by piece (``putrequest``, ``putheader``, ``endheaders``), not
    through ``request``, which the http.client adapter routes."""
    parts = httpx.URL(url)
    connection = http.client.HTTPConnection(parts.host, parts.port, timeout=5)
    body = json.dumps(BODY).encode()
    try:
        connection.putrequest("POST", "/v1/chat/completions")
        for name, value in {**headers(), "content-type": "application/json"}.items():
            connection.putheader(name, value)
        connection.putheader("content-length", str(len(body)))
        connection.endheaders(body)
        return connection.getresponse().status
    finally:
        connection.close()


def _aiohttp_websocket(url: str) -> object:
    async def talk() -> object:
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(url, headers=headers()) as connection:
                await connection.send_str("hello")
                return (await connection.receive()).data

    return asyncio.run(talk())


UNROUTED = {
    "http.client in pieces": _http_client_in_pieces,
    "aiohttp ws_connect": _aiohttp_websocket,
}


@pytest.fixture
def realtime(monkeypatch: pytest.MonkeyPatch) -> Iterator[RealtimeServer]:
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    with RealtimeServer(KEY) as running:
        yield running


@pytest.fixture
def unrouted_url(server: FakeLLMServer, realtime: RealtimeServer, client: str) -> str:
    """Where the client goes: the fake LLM API over HTTP, the Realtime fake for WebSockets."""
    return realtime.ws_url if client == "aiohttp ws_connect" else server.url


@pytest.mark.parametrize("client", UNROUTED)
def test_a_client_replay_does_not_route_raises_network_blocked_in_mode_none(
    tmp_path: Path,
    server: FakeLLMServer,
    realtime: RealtimeServer,
    client: str,
    unrouted_url: str,
) -> None:
    """Never a silent trip to the network: the client's own error handling (aiohttp's
    ClientConnectorError) does not swallow the block either."""
    path = tmp_path / "c.json"
    with replay.use_cassette(path, mode="none"):
        with pytest.raises(replay.NetworkBlocked) as blocked:
            UNROUTED[client](unrouted_url)
    assert (blocked.value.host, blocked.value.cassette) == ("127.0.0.1", path)
    assert server.requests == [] and realtime.handshakes == []
    # After the block, the network as it was.
    assert UNROUTED[client](unrouted_url) in (200, "echo: hello")


@pytest.mark.parametrize("client", UNROUTED)
def test_a_client_replay_does_not_route_warns_while_recording_and_stores_nothing(
    tmp_path: Path, client: str, unrouted_url: str
) -> None:
    path = tmp_path / "c.json"
    with replay.use_cassette(path) as cassette:
        with pytest.warns(UserWarning, match=r"127\.0\.0\.1 made outside cassette .*not recorded"):
            assert UNROUTED[client](unrouted_url) in (200, "echo: hello")
    assert cassette.recorded == 0 and not path.exists()


IMPORTED_IN_THE_BLOCK = """
import json, sys
import replay

path, url, key, mode = sys.argv[1:]
with replay.use_cassette(path, mode=mode) as cassette:
    imported_by_the_block = [m for m in ("aiohttp", "urllib3", "websockets") if m in sys.modules]
    import urllib3

    answer = urllib3.request(
        "POST", url, json={"model": "m", "messages": []}, headers={"authorization": key}
    )
print(json.dumps({
    "imported_by_the_block": imported_by_the_block,
    "status": answer.status,
    "recorded": cassette.recorded,
    "replayed": cassette.replayed,
}))
"""


def test_a_library_first_imported_inside_the_block_is_routed(
    tmp_path: Path, server: FakeLLMServer
) -> None:
    """A block imports no library only to wrap it (aiohttp, urllib3 and websockets cost a
    test process 0.2-0.3 s); one imported inside the block is routed all the same."""
    path, url = tmp_path / "c.json", server.url + "/v1/chat/completions"

    def run(mode: str) -> dict[str, object]:
        command = [sys.executable, "-c", IMPORTED_IN_THE_BLOCK, str(path), url, f"Bearer {KEY}"]
        done = subprocess.run([*command, mode], capture_output=True, text=True, check=True)
        return json.loads(done.stdout)  # type: ignore[no-any-return]

    recording = run("once")
    server.stop()
    replaying = run("none")  # unrouted, the stopped server would be a NetworkBlocked
    assert recording == {"imported_by_the_block": [], "status": 200, "recorded": 1, "replayed": 0}
    assert replaying == {"imported_by_the_block": [], "status": 200, "recorded": 0, "replayed": 1}


IMPORTED_WHILE_THE_NEXT_BLOCK_STARTS = """
import importlib.abc, sys, threading
import replay
from replay import CassetteMiss, NetworkBlocked

started, release = threading.Event(), threading.Event()


class SlowImport(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    '''urllib3's import, held in the middle until released.'''

    def find_spec(self, name, path, target=None):
        if name != "urllib3":
            return None
        for finder in sys.meta_path[sys.meta_path.index(self) + 1 :]:
            if (spec := finder.find_spec(name, path, target)) is not None:
                self.real, spec.loader = spec.loader, self
                return spec

    def create_module(self, spec):
        return self.real.create_module(spec)

    def exec_module(self, module):
        started.set()
        release.wait()
        self.real.exec_module(module)


path = sys.argv[1]
importer = threading.Thread(target=lambda: __import__("urllib3"))
with replay.use_cassette(path, mode="none"):
    sys.meta_path.insert(1, SlowImport())  # after replay's hook, which asks the finders after it
    importer.start()
    started.wait()
threading.Timer(0.5, release.set).start()  # the import ends while the next block starts
with replay.use_cassette(path, mode="none"):
    importer.join()
    import urllib3

    try:
        urllib3.request("GET", "http://127.0.0.1:9/v1/models", retries=False)
    except (CassetteMiss, NetworkBlocked) as error:
        print(type(error).__name__)
"""


def test_a_library_whose_import_ends_as_the_next_block_starts_is_routed(tmp_path: Path) -> None:
    """A block starting while another thread imports urllib3 under an earlier block's hook
    leaves that import to wrap it as it ends: importing the adapter there, under the block's
    lock, waited for the import, whose end waited for the lock (a deadlock)."""
    command = [sys.executable, "-c", IMPORTED_WHILE_THE_NEXT_BLOCK_STARTS, str(tmp_path / "c.json")]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, "CassetteMiss\n"), done.stderr  # not unrouted
