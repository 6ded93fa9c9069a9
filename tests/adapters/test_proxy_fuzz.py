"""A fuzz of ``replay serve``: generated raw HTTP on a socket to a running proxy, in replay-only
mode (a small recorded cassette, the upstream stopped) and recording (a loopback fake upstream).

Malformed request lines and headers, hostile Host headers, paths and ``X-Replay-Cassette``
names, bodies cut short against their Content-Length, malformed chunked bodies, and clients
dribbling bytes then hanging up. After each case: the proxy answered a status or closed the
connection within :data:`CASE_SECONDS`; a Host not naming it was refused (403), one naming it
was not; it still replays a well-formed request; nothing was written outside its cassette
directory; no body cut short reached a cassette or the upstream; nothing it logged carries a
traceback; and a password or key put in a target, a query or a Host is in no log line and
no answer. ``REPLAY_STRESS=1`` (the nox ``stress`` session)
runs 300 cases a mode instead of 20.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from conftest import StoppedServer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from proxied import proxy

from replay import Cassette
from replay._adapters.proxy import ReplayProxy, Shelf
from replay._core.modes import Mode
from replay.tools import serve
from replay.tools.fakellm import FakeLLMServer

STRESS = os.environ.get("REPLAY_STRESS") == "1"
EXAMPLES = 300 if STRESS else 20
CASE_SECONDS = 5.0
"""How long the proxy may take to answer or close once the client has sent all it will."""
PATIENCE = 0.3
"""How long a client whose request may be incomplete waits for an answer before half-closing."""
CUT = b"CUT-SHORT-"
"""In every body that is cut short or malformed: such a body must reach no cassette."""
SECRET = "PW-fuzz-8Hq3Lm5Rx"
"""A password or key some cases put in a URL's userinfo, its query or a Host header."""

KEY = "fk-fuzz-4Rb7Yw2Kq9Zt6Mp"
CHAT_PATH = "/v1/chat/completions"
HELLO = {"model": "m", "messages": [{"role": "user", "content": "hello"}]}


# What a case is, and how it is sent.


@dataclass(frozen=True)
class Case:
    data: bytes
    """Everything the client sends."""
    framed: bool
    """The request is whole and says ``connection: close``: the proxy must answer it. Else
    the client half-closes once the proxy is silent, and the proxy may answer or just close."""
    dribble: int = 0
    """Bytes per write, with a short sleep between writes (0: all at once)."""
    hang_up: bool = False
    """Close at once after sending, without reading."""
    foreign_host: bool | None = None
    """For a whole request with a hostile Host: whether it names another server than the
    proxy, which must then refuse it (403), and else must not."""

    def __repr__(self) -> str:  # a case may send 100 kB: its start and length are enough
        more = f" + {len(self.data) - 300} bytes" if len(self.data) > 300 else ""
        options = f"framed={self.framed}, dribble={self.dribble}, hang_up={self.hang_up}"
        options += f", foreign_host={self.foreign_host}"
        return f"Case({self.data[:300]!r}{more}, {options})"


def exchange(url: str, case: Case) -> bytes:
    """Send ``case`` on a socket of its own and read the answer to the end; a proxy that
    neither answers nor closes within :data:`CASE_SECONDS` fails the test.

    The client half-closes only once the proxy has been silent for :data:`PATIENCE`: sooner,
    uvicorn would take it as a hang-up before the request reached the proxy at all."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=CASE_SECONDS) as raw:
        try:
            if case.dribble:
                for start in range(0, min(len(case.data), case.dribble * 20), case.dribble):
                    raw.sendall(case.data[start : start + case.dribble])
                    time.sleep(0.005)
                raw.sendall(case.data[case.dribble * 20 :])
            else:
                raw.sendall(case.data)
            if case.hang_up:
                return b""
        except (BrokenPipeError, ConnectionResetError):
            pass  # the proxy refused the request before the client had sent all of it
        half_closed = case.framed  # a whole request is answered without
        raw.settimeout(CASE_SECONDS if half_closed else PATIENCE)
        answer = b""
        deadline = time.monotonic() + CASE_SECONDS
        while time.monotonic() < deadline:
            try:
                chunk = raw.recv(65536)
            except ConnectionResetError:
                return answer
            except TimeoutError:
                if half_closed:
                    break
                raw.shutdown(socket.SHUT_WR)
                half_closed = True
                raw.settimeout(CASE_SECONDS)
                continue
            if not chunk:
                return answer
            answer += chunk
    pytest.fail(f"no answer or close within {CASE_SECONDS} s: {case!r}\nread {answer[:300]!r}")


def check_answer(answer: bytes, case: Case) -> None:
    """Empty (closed), or a status after any 100 Continue: the proxy's own errors are 4xx/5xx
    JSON naming their kind; any other answer is the upstream's or the cassette's (or uvicorn's
    4xx for bad HTTP)."""
    assert SECRET.encode() not in answer, f"a secret sent was answered back: {case!r}"
    while answer.startswith(b"HTTP/1.1 100 "):
        answer = answer.partition(b"\r\n\r\n")[2]
    if not answer:
        assert not case.framed, f"a whole request went unanswered: {case!r}"
        return
    top, _, body = answer.partition(b"\r\n\r\n")
    status_line, *header_lines = top.split(b"\r\n")
    assert status_line.startswith(b"HTTP/1.1 "), answer[:300]
    status = int(status_line.split()[1])
    assert 200 <= status < 600, answer[:300]
    headers = dict(line.lower().split(b": ", 1) for line in header_lines)
    refused_host = headers.get(b"x-replay-error") == b"replay_host_not_allowed"
    if case.foreign_host is not None:
        assert refused_host == case.foreign_host, f"{case!r}\n{answer[:300]!r}"
        assert (status == 403) == case.foreign_host, f"{case!r}\n{answer[:300]!r}"
    if b"x-replay-error" in headers:
        assert status >= 400, answer[:300]
        if b"content-length" in headers and len(body) == int(headers[b"content-length"]):
            assert json.loads(body)["error"]["type"] == headers[b"x-replay-error"].decode()


# Generating cases.

SAFE = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=20)
"""Printable ASCII without spaces: cannot break the framing of a request."""
HOSTILE_BYTES = st.binary(max_size=40) | st.sampled_from(
    [b"a\r\nx-injected: 1", b"a\x00b", b"\r\n\r\n", b"na\xefve \xe2\x98\x83", b"\xff\xfe", b" "]
)


def segments() -> st.SearchStrategy[str]:
    return st.sampled_from(
        [".", "..", "%2e", "%2E%2e", ".%2e", "%2e.", "%2f", "%00", "%ff", "v1", "chat", "x" * 300]
    )


def hostile_paths() -> st.SearchStrategy[str]:
    many = st.lists(segments(), max_size=40).map(lambda parts: "/" + "/".join(parts))
    long = st.integers(1, 40_000).map(lambda size: "/" + "a" * size)
    deep = st.integers(1, 3_000).map(lambda count: "/a" * count)
    odd = st.sampled_from(["*", "//evil.example/x", "http://evil.example/", "evil:443", "?x", ""])
    secret = st.sampled_from(
        [
            f"http://bob:{SECRET}@evil.example/x",
            f"/v1/chat/completions?key={SECRET}",
            f"/v1/../../admin?api_key={SECRET}",
            f"/nowhere?key={SECRET}&x=1",
        ]
    )
    return many | long | deep | odd | secret | (SAFE.map(lambda text: "/" + text))


def cassette_names(outside: Path) -> st.SearchStrategy[str]:
    return (
        st.sampled_from(
            [
                "../escaped",
                "a/../../escaped",
                "%2e%2e/escaped",
                str(outside / "escaped"),
                "/etc/passwd",
                ".lock",
                "a/.hidden",
                "a\\..\\escaped",
                "x" * 300,
                "a/" * 2_000 + "b",
                "ok/name",
                "default",
                "default.json/inside",  # below a file
                "a.json/c",  # then "a" names a directory
                "a",
            ]
        )
        | SAFE
    )


def head(
    method: bytes,
    target: bytes,
    host: bytes,
    headers: list[tuple[bytes, bytes]],
    version: bytes,
    connection: bytes = b"close",
) -> bytes:
    lines = [
        method + b" " + target + b" " + version,
        b"host: " + host,
        b"connection: " + connection,
    ]
    lines += [name + b": " + value for name, value in headers]
    return b"\r\n".join(lines) + b"\r\n\r\n"


@st.composite
def cases(draw: st.DrawFn, port: int, outside: Path) -> Case:
    host = f"127.0.0.1:{port}".encode()
    body = json.dumps(HELLO).encode()
    whole = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    kind = draw(
        st.sampled_from(
            [
                "request line",
                "header",
                "host",
                "path",
                "cassette",
                "pipelined",
                "upgrade",
                "cut",
                "chunked",
                "slow",
            ]
        )
    )
    if kind == "request line":
        method = draw(
            st.sampled_from([b"GET", b"POST", b"get", b"G T", b"", b"\x00", b"\xff", b"X" * 9000])
            | st.binary(max_size=12)
        )
        version = draw(
            st.sampled_from([b"HTTP/1.1", b"HTTP/1.0", b"HTTP/2.0", b"HTTP/9.9", b"http/1.1", b""])
            | st.binary(max_size=10)
        )
        target = draw(st.sampled_from([CHAT_PATH.encode(), b"", b"\r\n", b"/a b"]))
        return Case(head(method, target, host, [], version), framed=False)
    if kind == "header":
        name = draw(HOSTILE_BYTES | st.sampled_from([b"x-big", b"", b"bad name", b"x\x00y"]))
        value = draw(HOSTILE_BYTES | st.integers(1, 100_000).map(lambda size: b"v" * size))
        headers = [(name, value)] * draw(st.integers(1, 3)) + whole
        data = head(b"POST", CHAT_PATH.encode(), host, headers, b"HTTP/1.1") + body
        return Case(data, framed=False)
    if kind == "host":
        ours = [f"127.0.0.1:{port}", f"[::1]:{port}", f"LOCALHOST:{port}", f"localhost:{port}"]
        foreign = [
            "evil.example",
            f"evil.example:{port}",
            "127.0.0.1",
            f"bob:{SECRET}@127.0.0.1:{port}",
            f"127.0.0.1:{port}/x",
            f"127.0.0.1:{port}?x",
            "[::1",
            "127.0.0.1:99999",
            "127.0.0.1:-1",
            f"127.0.0.1:{port + 1}",
            f"127.0.0.1.evil.example:{port}",
            "",
        ]
        hostile, named_elsewhere = draw(
            st.sampled_from([(host, False) for host in ours] + [(host, True) for host in foreign])
            | SAFE.map(lambda text: (text, True))
        )
        data = head(b"POST", CHAT_PATH.encode(), hostile.encode(), whole, b"HTTP/1.1") + body
        return Case(data, framed=True, foreign_host=named_elsewhere)
    if kind == "path":
        method = draw(st.sampled_from([b"GET", b"HEAD", b"DELETE", b"OPTIONS", b"CONNECT"]))
        target = draw(hostile_paths()).encode()
        return Case(head(method, target, host, [], b"HTTP/1.1"), framed=True)
    if kind == "cassette":
        named = cassette_names(outside).map(lambda name: (name.encode(), True))
        name, framed = draw(named | HOSTILE_BYTES.map(lambda name: (name, False)))
        headers = [(b"x-replay-cassette", name), *whole]
        data = head(b"POST", CHAT_PATH.encode(), host, headers, b"HTTP/1.1") + body
        return Case(data, framed=framed)
    if kind == "pipelined":  # a whole request, then hostile bytes on the same connection
        first = head(b"POST", CHAT_PATH.encode(), host, whole, b"HTTP/1.1", b"keep-alive")
        return Case(first + body + draw(HOSTILE_BYTES | st.binary(max_size=2_000)), framed=False)
    if kind == "upgrade":  # a WebSocket handshake, well-formed or not, then garbage frames
        key = draw(st.sampled_from([b"dGhlIHNhbXBsZSBub25jZQ==", b"", b"x"]) | HOSTILE_BYTES)
        version = draw(st.sampled_from([b"13", b"8", b"", b"99999999999"]))
        headers = [
            (b"upgrade", draw(st.sampled_from([b"websocket", b"WebSocket", b"h2c", b"\xff"]))),
            (b"sec-websocket-key", key),
            (b"sec-websocket-version", version),
        ]
        data = head(b"GET", b"/v1/realtime", host, headers, b"HTTP/1.1", b"Upgrade")
        return Case(data + draw(st.binary(max_size=200)), framed=False)
    marked = CUT + body
    if kind == "chunked":
        encoded = b"%x\r\n%s\r\n0\r\n\r\n" % (len(marked), marked)
        bad_size = st.sampled_from([b"zz", b"-1", b"g", b"f" * 30, b"5;\x00"])
        malformed = draw(
            st.integers(1, len(encoded) - 1).map(lambda end: encoded[:end])
            | bad_size.map(lambda size: size + encoded[encoded.index(b"\r\n") :])
        )
        headers = [(b"transfer-encoding", b"chunked")]
        if draw(st.booleans()):
            headers.append((b"content-length", str(len(marked)).encode()))
        data = head(b"POST", CHAT_PATH.encode(), host, headers, b"HTTP/1.1") + malformed
        return Case(data, framed=False)
    sent = draw(st.integers(0, len(marked) - 1))
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(marked))]
    if draw(st.booleans()):
        headers.append((b"expect", b"100-continue"))
    data = head(b"POST", CHAT_PATH.encode(), host, headers, b"HTTP/1.1") + marked[:sent]
    if kind == "cut":
        return Case(data, framed=False, hang_up=draw(st.booleans()))
    return Case(data, framed=False, dribble=draw(st.integers(1, 50)), hang_up=draw(st.booleans()))


# What is checked after each case.


class Tracebacks(logging.Handler):
    """Every record ``replay serve`` would print (the proxy's from INFO, others' from WARNING:
    see ``replay.tools.cli.serve``) that carries an exception or a traceback, or the secret
    some cases send, from any thread. Below that, libraries may log tracebacks (websockets
    does for a refused handshake)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.found: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno < logging.WARNING and not record.name.startswith("replay."):
            return
        text = record.getMessage()
        if record.exc_info or "Traceback" in text or SECRET in text:
            self.found.append(f"{record.name}: {text}\n{self.format(record)}")


@contextmanager
def tracebacks_logged() -> Iterator[Tracebacks]:
    handler = Tracebacks()
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def tree(top: Path) -> set[str]:
    return {path.relative_to(top).as_posix() for path in top.rglob("*")}


@dataclass
class Watched:
    """The proxy's directory, what lies beside it, and what it must never hold."""

    top: Path
    root: Path
    before: set[str]

    def check(self, fake: FakeLLMServer) -> None:
        beside = {name for name in tree(self.top) if not name.startswith("cassettes")}
        assert beside == self.before, "written outside the cassette directory"
        for path in self.root.rglob("*"):
            assert not path.is_symlink() and path.resolve().is_relative_to(self.root.resolve())
            if path.is_file():
                assert CUT not in path.read_bytes(), f"a body cut short reached {path}"
        assert not any(CUT in request.body for request in fake.requests)


def watched(tmp_path: Path) -> Watched:
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "keep.txt").write_text("untouched")
    root = tmp_path / "cassettes"
    return Watched(tmp_path, root, {n for n in tree(tmp_path) if not n.startswith("cassettes")})


def still_replays(url: str) -> None:
    answer = httpx.post(
        url + CHAT_PATH, json=HELLO, headers={"authorization": f"Bearer {KEY}"}, timeout=10
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["choices"][0]["message"]["content"] == "Answer to: hello"


def fuzz(url: str, watch: Watched, fake: FakeLLMServer) -> None:
    port = int(url.rsplit(":", 1)[1])

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(cases(port, watch.top / "outside"))
    def one(case: Case) -> None:
        with tracebacks_logged() as logged:
            check_answer(exchange(url, case), case)
            still_replays(url)
        assert logged.found == [], "\n".join(logged.found)
        watch.check(fake)

    one()


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch, llm_server: FakeLLMServer) -> FakeLLMServer:
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    llm_server.api_key = KEY
    return llm_server


def test_replay_only_proxy_survives_hostile_clients(
    fake: FakeLLMServer, server_gone: Callable[[], StoppedServer], tmp_path: Path
) -> None:
    watch = watched(tmp_path)
    with proxy({"/": fake.url}, watch.root) as recording:
        still_replays(recording.url)
    watch.before = {n for n in tree(tmp_path) if not n.startswith("cassettes")}
    gone = server_gone()
    shelf = Shelf(watch.root, lambda path: Cassette(path, "none", allow_playback_repeats=True))
    app = ReplayProxy(serve.served_routes(serve.routes_of({"/": fake.url}), Mode.NONE), shelf)
    with serve.running(app) as served:
        fuzz(served.url, watch, fake)
    gone.assert_untouched()
    watch.check(fake)


def test_recording_proxy_survives_hostile_clients(fake: FakeLLMServer, tmp_path: Path) -> None:
    watch = watched(tmp_path)
    with proxy(
        {"/": fake.url}, watch.root, mode="new_episodes", allow_playback_repeats=True
    ) as served:
        fuzz(served.url, watch, fake)
    watch.check(fake)
    for path in watch.root.rglob("*.json"):
        if path.is_file():  # a name such as "a.json/c" makes a directory of that name
            json.loads(path.read_bytes())  # every cassette saved whole


def test_clients_holding_requests_open_do_not_stall_the_others(
    fake: FakeLLMServer, server_gone: Callable[[], StoppedServer], tmp_path: Path
) -> None:
    """Twenty clients stopped mid-headers or mid-body, all at once, then hanging up: a
    well-formed request is answered meanwhile, and none of the cut bodies is recorded."""
    watch = watched(tmp_path)
    with proxy({"/": fake.url}, watch.root) as recording:
        still_replays(recording.url)
    watch.before = {n for n in tree(tmp_path) if not n.startswith("cassettes")}
    gone = server_gone()
    with (
        tracebacks_logged() as logged,
        proxy({"/": fake.url}, watch.root, mode="none", allow_playback_repeats=True) as served,
    ):
        port = int(served.url.rsplit(":", 1)[1])
        marked = CUT + json.dumps(HELLO).encode()
        headers = [(b"content-length", b"%d" % len(marked))]
        whole_head = head(
            b"POST", CHAT_PATH.encode(), f"127.0.0.1:{port}".encode(), headers, b"HTTP/1.1"
        )
        partial = [whole_head[: len(whole_head) // 2]] * 10 + [whole_head + marked[:20]] * 10
        held = [
            socket.create_connection(("127.0.0.1", port), timeout=CASE_SECONDS) for _ in partial
        ]
        try:
            for raw, data in zip(held, partial, strict=True):
                raw.sendall(data)
            time.sleep(0.2)  # the proxy has read what they sent and waits for the rest
            started = time.monotonic()
            still_replays(served.url)
            assert time.monotonic() - started < 2
        finally:
            for raw in held:
                raw.close()
        deadline = time.monotonic() + CASE_SECONDS
        while served.app.tally["failed"] < 10 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert served.app.tally == {"replayed": 1, "failed": 10}
    assert logged.found == [], "\n".join(logged.found)
    gone.assert_untouched()
    watch.check(fake)


def test_a_stop_cutting_a_body_still_coming_logs_no_traceback(
    fake: FakeLLMServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Stopped while a client is still sending a body: once the grace period is over the
    request is cancelled, which uvicorn logged as "Exception in ASGI application" with a
    traceback; the stop says it cut requests in one line, and nothing is recorded."""
    monkeypatch.setattr(serve, "GRACE_SECONDS", 0.2)
    watch = watched(tmp_path)
    marked = CUT + json.dumps(HELLO).encode()
    with tracebacks_logged() as logged:
        with proxy({"/": fake.url}, watch.root) as served:
            port = int(served.url.rsplit(":", 1)[1])
            headers = [(b"content-length", b"%d" % len(marked))]
            host = f"127.0.0.1:{port}".encode()
            started = head(b"POST", CHAT_PATH.encode(), host, headers, b"HTTP/1.1") + marked[:9]
            held = socket.create_connection(("127.0.0.1", port), timeout=CASE_SECONDS)
            held.sendall(started)
            time.sleep(0.2)  # the proxy is waiting for the rest of the body
        held.close()
    assert logged.found == [], "\n".join(logged.found)
    assert "Cancel 1 running task(s), timeout graceful shutdown exceeded" in caplog.text
    assert served.app.tally == {}
    watch.check(fake)
    assert fake.requests == [] and not watch.root.exists()
