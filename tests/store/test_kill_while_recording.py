"""A recording process SIGKILLed after k completed calls loses none of them.

A child records through a loopback fake LLM API (sync, async, or streams, killed in the middle
of the next stream), says after each call that it returned, and is killed after the k-th with
nothing saved: no ``with`` block ended, no transport closed, no exit hook ran. This process
then replays those k calls in mode ``none`` with the server stopped. Each kind runs for
k = 0..5 and a random k; ``REPLAY_STRESS=1`` (``nox -s stress``) kills 100 times.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import orjson
import pytest

from replay import Cassette, CassetteMiss, ReplayTransport
from replay._core.model import Request
from replay._store import cassette_file
from replay._store.backend import LOCAL
from replay.tools.fakellm import DEFAULT_API_KEY, FakeLLMServer

STRESS = os.environ.get("REPLAY_STRESS") == "1"
HEADERS = {"authorization": f"Bearer {DEFAULT_API_KEY}"}

CHILD = """
import asyncio, sys, time, httpx, orjson
from replay import AsyncReplayTransport, Cassette, ReplayTransport

path, url, key, kind, calls = sys.argv[1:]
headers = {"authorization": f"Bearer {key}"}

def body(index):
    return orjson.dumps({"model": "gpt-4o-mini", "stream": kind == "stream",
                         "messages": [{"role": "user", "content": f"call {index}"}]})

def said(line):
    print(line, flush=True)

cassette = Cassette(path, "new_episodes")
if kind == "async":
    async def main():
        client = httpx.AsyncClient(transport=AsyncReplayTransport(cassette))
        for index in range(int(calls)):
            await client.post(url, content=body(index), headers=headers)
            said(index)
        said("done")
        await asyncio.sleep(600)
    asyncio.run(main())
client = httpx.Client(transport=ReplayTransport(cassette))
for index in range(int(calls)):
    if kind == "stream":
        with client.stream("POST", url, content=body(index), headers=headers) as response:
            for _ in response.iter_bytes():
                pass
    else:
        client.post(url, content=body(index), headers=headers)
    said(index)
if kind == "stream":  # killed in the middle of the next one
    with client.stream("POST", url, content=body(int(calls)), headers=headers) as response:
        next(response.iter_bytes())
        said("done")
        time.sleep(600)
said("done")
time.sleep(600)
"""


def body(index: int, stream: bool) -> bytes:
    return orjson.dumps(
        {
            "model": "gpt-4o-mini",
            "stream": stream,
            "messages": [{"role": "user", "content": f"call {index}"}],
        }
    )


def record_and_kill(path: Path | str, url: str, kind: str, calls: int) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path), url, DEFAULT_API_KEY, kind, str(calls)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    lines = [child.stdout.readline().strip() for _ in range(calls + 1)]
    assert lines == [*map(str, range(calls)), "done"], lines
    child.send_signal(signal.SIGKILL)
    child.wait()


def assert_replays(path: Path | str, url: str, kind: str, calls: int) -> None:
    cassette = Cassette(path, "none")
    stream = kind == "stream"
    with httpx.Client(transport=ReplayTransport(cassette)) as client:
        for index in range(calls):
            response = client.post(url, content=body(index, stream), headers=HEADERS)
            assert text_of(response, stream) == f"Answer to: call {index}"
        with pytest.raises(CassetteMiss):  # the call cut by the kill was never completed
            client.post(url, content=body(calls, stream), headers=HEADERS)
    assert [len(i.outcomes) for i in cassette.interactions] == [1] * calls
    assert all(i.outcomes[0].complete for i in cassette.interactions)


def text_of(response: httpx.Response, stream: bool) -> str:
    if not stream:
        return str(response.json()["choices"][0]["message"]["content"])
    events = [line[6:] for line in response.text.splitlines() if line.startswith("data: {")]
    deltas = [orjson.loads(event)["choices"] for event in events]
    return "".join(c[0]["delta"].get("content") or "" for c in deltas if c)


def counts() -> list[tuple[str, int]]:
    rng = random.Random(15)
    if STRESS:
        return [(("sync", "async", "stream")[n % 3], rng.randint(0, 12)) for n in range(100)]
    return [(kind, k) for kind in ("sync", "async", "stream") for k in (0, 1, 2, 3, 5)] + [
        ("sync", rng.randint(6, 12))
    ]


def test_sigkill_after_k_completed_calls_loses_none(tmp_path: Path) -> None:
    for number, (kind, calls) in enumerate(counts()):
        path = tmp_path / f"killed-{number}.json"
        with FakeLLMServer(api_key=DEFAULT_API_KEY, chunk_delay=0.001) as server:
            url = server.url + "/v1/chat/completions"
            record_and_kill(path, url, kind, calls)
        assert not path.exists()  # nothing was saved: all of it is in the journal
        assert_replays(path, url, kind, calls)


WRITER = """
import sys, httpx, orjson
from replay import Cassette, ReplayTransport
path, url, key, writer, calls = sys.argv[1:]
with httpx.Client(transport=ReplayTransport(Cassette(path, "new_episodes"))) as client:
    for index in range(int(calls)):
        content = orjson.dumps({"model": "gpt-4o-mini",
                                "messages": [{"role": "user", "content": f"{writer} {index}"}]})
        client.post(url, content=content, headers={"authorization": f"Bearer {key}"})
"""


def test_a_killed_journal_is_folded_once_by_the_next_writer_while_another_records(
    tmp_path: Path,
) -> None:
    path = tmp_path / "shared.json"
    with FakeLLMServer(api_key=DEFAULT_API_KEY) as server:
        url = server.url + "/v1/chat/completions"
        record_and_kill(path, url, "sync", 6)
        live = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), url, DEFAULT_API_KEY, "live", "40"]
        )
        folds = 0
        stop = threading.Event()

        def fold_while_it_records() -> None:
            nonlocal folds
            while not stop.is_set():
                # a recording process's load folds what it finds (a killed one's, the live one's)
                Cassette(path, "new_episodes").decide(Request("POST", url, (), b"{}"))
                folds += 1
                time.sleep(0.01)

        folder = threading.Thread(target=fold_while_it_records)
        folder.start()
        assert live.wait(timeout=120) == 0
        stop.set()
        folder.join()
    assert folds > 1 and not LOCAL.entry_ids(path)
    stored = cassette_file.load(path).interactions
    prompts = sorted(
        orjson.loads(cassette_file.decode_body(entry["request"]["body"]))["messages"][0]["content"]
        for entry in stored.values()
    )
    expected = sorted([f"call {i}" for i in range(6)] + [f"live {i}" for i in range(40)])
    assert prompts == expected
    assert all(len(entry["responses"]) == 1 for entry in stored.values())
