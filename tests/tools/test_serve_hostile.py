"""``replay serve`` under hostile clients on 127.0.0.1: request heads held half-sent, bodies
larger than it takes. Quick by default (200 connections, a short timeout); ``REPLAY_STRESS=1``
(the nox ``stress`` session) runs the full scale: 1,100 half-sent heads held 15 s against a
``replay serve`` process limited to 1,024 open files."""

from __future__ import annotations

import logging
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from replay import Cassette
from replay._adapters.proxy import ReplayProxy, Shelf
from replay.tools import serve
from replay.tools.fakellm import FakeLLMServer

STRESS = os.environ.get("REPLAY_STRESS") == "1"
KEY = "fk-hostile-3Wd8Qn5Lz"
HALF_SENT = b"POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-le"


@pytest.fixture
def fake() -> Iterator[FakeLLMServer]:
    with FakeLLMServer(api_key=KEY) as server:
        yield server


@contextmanager
def half_open(port: int, count: int) -> Iterator[list[socket.socket]]:
    """``count`` connections, each having sent part of a request head and nothing more."""
    held = []
    try:
        for _ in range(count):
            connection = socket.create_connection(("127.0.0.1", port), timeout=10)
            connection.sendall(HALF_SENT)
            held.append(connection)
        yield held
    finally:
        for connection in held:
            connection.close()


def closed_by_server(connection: socket.socket) -> bool:
    connection.settimeout(0.05)
    try:
        answer = connection.recv(200)
    except TimeoutError:
        return False
    except OSError:  # reset
        return True
    return answer == b"" or answer.startswith((b"HTTP/1.1 408 ", b"HTTP/1.1 503 "))


def ask(url: str) -> httpx.Response:
    body = {"model": "m", "messages": [{"role": "user", "content": "hello"}]}
    return httpx.post(
        url + "/v1/chat/completions", json=body, headers={"authorization": f"Bearer {KEY}"}
    )


def test_half_sent_heads_are_closed_and_lock_nobody_out(
    fake: FakeLLMServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    shelf = Shelf(tmp_path, lambda path: Cassette(path, "once"))
    app = ReplayProxy(serve.routes_of({"/": fake.url}), shelf)
    with serve.running(app, header_timeout=0.5, max_half_open=50) as served:
        port = int(served.url.rsplit(":", 1)[1])
        with half_open(port, 200) as held:
            started = time.monotonic()
            answered = ask(served.url)
            took = time.monotonic() - started
            time.sleep(1.0)  # the header timeout, twice over
            closed = sum(closed_by_server(connection) for connection in held)
    assert answered.status_code == 200 and took < 2, took
    assert closed == 200
    faults = [
        r for r in caplog.records if r.levelno >= logging.WARNING and r.name != "replay.proxy"
    ]
    assert len(faults) == len({r.getMessage() for r in faults}) == 2, caplog.text
    assert "sent no request head in 0.5 s" in caplog.text
    assert "more than 50 waited for a request head" in caplog.text
    assert "Traceback" not in caplog.text


def _few_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))


@pytest.mark.skipif(not STRESS, reason="full scale: REPLAY_STRESS=1 (nox -s stress)")
def test_eleven_hundred_heads_held_15_s_against_1024_files(
    fake: FakeLLMServer, tmp_path: Path
) -> None:
    environment = {k: v for k, v in os.environ.items() if k not in ("REPLAY_MODE", "CI")}
    process = subprocess.Popen(
        [sys.executable, "-m", "replay", "serve", "--port", "0", "--upstream", fake.url],
        cwd=tmp_path,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_few_files,
    )
    assert process.stdout is not None and process.stderr is not None
    url = process.stdout.readline().split("listening on ")[1].split()[0]
    port = int(url.rsplit(":", 1)[1])
    waits = []
    with half_open(port, 1100):
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            started = time.monotonic()
            assert ask(url).status_code == 200
            waits.append(time.monotonic() - started)
            time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    out, err = process.stdout.read(), process.stderr.read()
    assert process.wait(timeout=30) == 0, err
    assert max(waits) < 2, waits
    assert "Traceback" not in err and len(err) < 10_000, err[:2000]
    assert "stopped after 0 replayed" in out
    counted = re.findall(r"replay serve: fault: (\d+) x closed (?:a|the longest waiting) conn", err)
    assert sum(map(int, counted)) >= 1100 - 256, err  # at most the cap still waited at the end


def test_a_body_beyond_the_limit_is_413_and_goes_nowhere(
    fake: FakeLLMServer, tmp_path: Path
) -> None:
    shelf = Shelf(tmp_path, lambda path: Cassette(path, "once"))
    app = ReplayProxy(serve.routes_of({"/": fake.url}), shelf, max_body=1000)
    headers = {"authorization": f"Bearer {KEY}", "content-type": "application/json"}
    big = b'{"model": "m", "x": "' + b"y" * 2000 + b'"}'
    with serve.running(app) as served:
        sized = httpx.post(served.url + "/v1/chat/completions", content=big, headers=headers)
        chunked = httpx.post(
            served.url + "/v1/chat/completions",
            content=iter([big[:600], big[600:]]),
            headers=headers,
        )
        within = ask(served.url)
    for refused in (sized, chunked):
        assert refused.status_code == 413, refused.text
        error = refused.json()["error"]
        assert error["type"] == "replay_body_too_large"
        assert "larger than 1,000 bytes (replay serve --max-body BYTES)" in error["message"]
    assert within.status_code == 200
    assert [request.path for request in fake.requests] == ["/v1/chat/completions"]


def test_the_default_body_limit_is_documented(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from replay.tools.cli import main

    shown = CliRunner().invoke(main, ["serve", "--help"], terminal_width=200).output
    assert "--max-body BYTES" in shown and "536870912" in shown
    assert "512 MiB" in (Path(__file__).parents[2] / "docs" / "serve.md").read_text()
