"""Benchmarks: this project against vcrpy and the floor, in one process run, alternating.

    python bench/run.py             # everything, ~10 minutes on 2 cores
    python bench/run.py --quick     # small counts, to check the script itself
    python bench/run.py --profile   # cProfile of this project's replay hot path

The floor is ``httpx.MockTransport`` whose handler looks the answer up in a
dict by a hash of the request body: nothing replays faster through an httpx
client. Each figure runs the contenders in turn, round after round, and
reports the median of the rounds and its ratio to the floor (or to the same
calls without recording). Results go to ``bench/results/latest.{json,md}``
with a description of the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import platform
import pstats
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import httpx
import orjson
import workload as w
from loopback import LoopbackServer

from replay import AsyncReplayTransport, Cassette, ReplayTransport

HERE = Path(__file__).parent
RESULTS = HERE / "results"
VCR_MATCH_ON = ("method", "scheme", "host", "port", "path", "query", "body")


@dataclass(frozen=True)
class Scale:
    sizes: tuple[int, ...]
    rounds: int
    round_seconds: float
    """How long one contender's batch should take in one round; sets the batch size."""
    vcr_max_batch: int
    cold_n: int
    cold_runs: int
    record_n: int
    record_rounds: int
    vcr_record_ns: tuple[int, ...]
    stream_rounds: int
    ttfb_runs: int


FULL = Scale((1, 100, 1_000, 10_000), 5, 0.25, 3, 5_000, 3, 1_000, 3, (250, 500), 30, 15)
QUICK = Scale((1, 100), 3, 0.05, 2, 500, 1, 100, 1, (50,), 5, 3)


@dataclass
class Figure:
    name: str
    unit: str
    rows: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


# The contenders' clients.


def floor_handler(n: int) -> Callable[[httpx.Request], httpx.Response]:
    answers = {w.body_hash(call.body): call.answer for call in w.calls(n)}
    headers = list(w.RESPONSE_HEADERS)

    def handle(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers=headers, content=answers[w.body_hash(request.content)])

    return handle


def vcr_cassette(path: Path | str) -> AbstractContextManager[Any]:
    """vcrpy at its fastest: libyaml, replay only; ``body`` in match_on, as LLM calls need."""
    import vcr

    config = vcr.VCR(record_mode="none", match_on=VCR_MATCH_ON)
    return config.use_cassette(str(path), allow_playback_repeats=True)  # type: ignore[no-any-return]


def post(client: httpx.Client, body: bytes) -> None:
    response = client.post(w.URL, content=body, headers=w.REQUEST_HEADERS)
    if response.status_code != 200 or not response.content:
        raise RuntimeError(f"bad answer {response.status_code}")


async def apost(client: httpx.AsyncClient, body: bytes) -> None:
    response = await client.post(w.URL, content=body, headers=w.REQUEST_HEADERS)
    if response.status_code != 200 or not response.content:
        raise RuntimeError(f"bad answer {response.status_code}")


def per_request(run: Callable[[list[bytes]], None], bodies: list[bytes]) -> float:
    started = time.perf_counter()
    run(bodies)
    return (time.perf_counter() - started) / len(bodies)


def batch_size(run: Callable[[list[bytes]], None], bodies: list[bytes], scale: Scale) -> int:
    """How many requests fill ``scale.round_seconds``, from one timed request."""
    one = per_request(run, bodies[:1])
    return max(1, min(len(bodies), int(scale.round_seconds / max(one, 1e-7))))


def sample(n: int, count: int) -> list[bytes]:
    """``count`` request bodies spread evenly over the cassette (vcrpy searches in order)."""
    step = max(1, n // count)
    return [w.request_body(i) for i in range(0, n, step)][:count]


def sync_runner(client: httpx.Client) -> Callable[[list[bytes]], None]:
    def run(bodies: list[bytes]) -> None:
        for body in bodies:
            post(client, body)

    return run


def async_runner(
    client: httpx.AsyncClient, loop: asyncio.AbstractEventLoop
) -> Callable[[list[bytes]], None]:
    async def requests(bodies: list[bytes]) -> None:
        for body in bodies:
            await apost(client, body)

    def run(bodies: list[bytes]) -> None:
        loop.run_until_complete(requests(bodies))

    return run


# Figure 1: replay per request.


def replay_per_request(scale: Scale, workdir: Path) -> Figure:
    figure = Figure("replay per request", "µs")
    loop = asyncio.new_event_loop()
    for n in scale.sizes:
        ours_path, vcr_path = workdir / f"replay-{n}.json", workdir / f"vcr-{n}.yaml"
        calls = w.calls(n)
        w.write_replay_cassette(ours_path, ((c.body, w.answer(c)) for c in calls))
        w.write_vcr_cassette(vcr_path, ((c.body, c.answer, w.RESPONSE_HEADERS) for c in calls))
        del calls
        handler = floor_handler(n)
        cassette = Cassette(ours_path, "none", allow_playback_repeats=True)
        clients = {
            "floor": (
                httpx.Client(transport=httpx.MockTransport(handler)),
                httpx.AsyncClient(transport=httpx.MockTransport(handler)),
            ),
            "replay": (
                httpx.Client(transport=ReplayTransport(cassette)),
                httpx.AsyncClient(transport=AsyncReplayTransport(cassette)),
            ),
        }
        bodies = sample(n, 2000)
        with vcr_cassette(vcr_path):
            vcr_clients = (httpx.Client(), httpx.AsyncClient())
            vcr_runs = (sync_runner(vcr_clients[0]), async_runner(vcr_clients[1], loop))
            vcr_batch = min(scale.vcr_max_batch, batch_size(vcr_runs[0], bodies, scale))
        timings: dict[tuple[str, str], list[float]] = {}
        for round_index in range(scale.rounds):
            for flavour in (0, 1):
                kind = ("sync", "async")[flavour]
                for name, pair in _rotated(list(clients.items()), round_index):
                    client = pair[flavour]
                    run = (
                        sync_runner(client) if flavour == 0 else async_runner(client, loop)  # type: ignore[arg-type]
                    )
                    size = batch_size(run, bodies, scale)
                    timings.setdefault((name, kind), []).append(per_request(run, bodies[:size]))
            vcr_bodies = bodies[round_index % len(bodies) :][:vcr_batch] or bodies[:vcr_batch]
            with vcr_cassette(vcr_path):
                for flavour, kind in enumerate(("sync", "async")):
                    timings.setdefault(("vcrpy", kind), []).append(
                        per_request(vcr_runs[flavour], vcr_bodies)
                    )
        for kind in ("sync", "async"):
            floor = statistics.median(timings["floor", kind])
            for name in ("floor", "replay", "vcrpy"):
                median = statistics.median(timings[name, kind])
                figure.rows.append(
                    {
                        "n": n,
                        "mode": kind,
                        "contender": name,
                        "median": median * 1e6,
                        "ratio": median / floor,
                        "rounds": len(timings[name, kind]),
                    }
                )
        for client, aclient in [*clients.values(), vcr_clients]:
            client.close()
            loop.run_until_complete(aclient.aclose())
        ours_path.unlink()
        vcr_path.unlink()
        print(f"  replay per request, N={n}: done", flush=True)
    loop.close()
    figure.notes.append(
        f"vcrpy is timed on at most {scale.vcr_max_batch} requests per round (spread over the "
        "cassette), since each costs a linear search with body matching; its cassette load is "
        "outside the timing, as for the others."
    )
    return figure


def _rotated(items: list[Any], by: int) -> list[Any]:
    by %= len(items)
    return items[by:] + items[:by]


# Figure 2: cold load and first request, each in a fresh process.


def cold_child(contender: str, path: str) -> None:
    """Run in a fresh process: load ``path`` and answer its first request; print the cost."""
    body = w.request_body(0)
    context: AbstractContextManager[Any] = nullcontext()
    if contender == "vcrpy":
        context = vcr_cassette(path)  # vcrpy reads the file when the block is entered
    elif contender == "replay":
        context = httpx.Client(transport=ReplayTransport(Cassette(path, "none")))
    rss, peak = _resident_mb(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    with context as opened:
        if contender == "orjson":
            kept = orjson.loads(Path(path).read_bytes())["interactions"]
        else:
            kept = opened if contender == "replay" else httpx.Client()
            post(kept, body)
        elapsed = time.perf_counter() - started
        grown = _resident_mb() - rss
        peak_grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak) / 1024
    print(json.dumps({"seconds": elapsed, "rss_mb": grown, "peak_mb": peak_grown}))


def _resident_mb() -> float:
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def cold_load(scale: Scale, workdir: Path) -> Figure:
    figure = Figure(f"cold load + first request, N = {scale.cold_n}", "s")
    n = scale.cold_n
    ours_path, vcr_path = workdir / "cold.json", workdir / "cold.yaml"
    calls = w.calls(n)
    w.write_replay_cassette(ours_path, ((c.body, w.answer(c)) for c in calls))
    w.write_vcr_cassette(vcr_path, ((c.body, c.answer, w.RESPONSE_HEADERS) for c in calls))
    paths = {"orjson": ours_path, "replay": ours_path, "vcrpy": vcr_path}
    results: dict[str, list[dict[str, float]]] = {name: [] for name in paths}
    for round_index in range(scale.cold_runs):
        for name, path in _rotated(list(paths.items()), round_index):
            out = subprocess.run(
                [sys.executable, __file__, "--cold", name, str(path)],
                check=True,
                capture_output=True,
                text=True,
            )
            results[name].append(json.loads(out.stdout))
    base = {k: statistics.median(r[k] for r in results["orjson"]) for k in ("seconds", "rss_mb")}
    for name, runs in results.items():
        seconds = statistics.median(r["seconds"] for r in runs)
        rss = statistics.median(r["rss_mb"] for r in runs)
        figure.rows.append(
            {
                "contender": "orjson.loads of the file" if name == "orjson" else name,
                "median": seconds,
                "ratio": seconds / base["seconds"],
                "rss_mb": rss,
                "rss_ratio": rss / base["rss_mb"] if base["rss_mb"] > 0 else None,
                "peak_mb": statistics.median(r["peak_mb"] for r in runs),
                "size_mb": paths[name].stat().st_size / 1e6,
                "rounds": len(runs),
            }
        )
    figure.notes.append(
        "Each run is a fresh process; imports and client creation are outside the timing. "
        "rss_mb is the growth of the resident set while the loaded data is held, peak_mb that of "
        "its peak (ru_maxrss; 0 when the run stayed under the peak of the imports)."
    )
    return figure


# Figure 3: recording through a loopback server.


def record_calls(scale: Scale, workdir: Path) -> Figure:
    figure = Figure("recording N calls through a loopback server", "s")
    bodies = [w.request_body(i) for i in range(scale.record_n)]
    with LoopbackServer() as server:
        url = server.url

        def plain(count: int) -> float:
            with httpx.Client() as client:
                return _posts(client, url, bodies[:count])

        def recording(count: int) -> float:
            path = workdir / f"record-{count}.json"
            path.unlink(missing_ok=True)
            cassette = Cassette(path, "once")
            upstream = httpx.HTTPTransport()  # made outside the timing, as the plain client's is
            with httpx.Client(transport=ReplayTransport(cassette, upstream)) as client:
                elapsed = _posts(client, url, bodies[:count])
                started = time.perf_counter()
            elapsed += time.perf_counter() - started  # the save, at close
            if len(Cassette(path, "none").interactions) != count:
                raise RuntimeError("recording lost interactions")
            return elapsed

        counts = sorted({scale.record_n // 4, scale.record_n})
        timings: dict[tuple[str, int], list[float]] = {}
        for round_index in range(scale.record_rounds):
            for count in counts:
                pairs = [("without recording", plain), ("replay", recording)]
                for name, run in _rotated(pairs, round_index):
                    timings.setdefault((name, count), []).append(run(count))
        for count in scale.vcr_record_ns:
            timings["vcrpy", count] = [_vcr_record(url, bodies[:count], workdir)]
        server_requests = server.answered
    for count in counts:
        base = statistics.median(timings["without recording", count])
        for name in ("without recording", "replay"):
            median = statistics.median(timings[name, count])
            figure.rows.append(
                {
                    "n": count,
                    "contender": name,
                    "median": median,
                    "per_call_ms": median / count * 1e3,
                    "ratio": median / base,
                    "rounds": len(timings[name, count]),
                }
            )
    vcr_points = [(count, timings["vcrpy", count][0]) for count in scale.vcr_record_ns]
    for count, seconds in vcr_points:
        figure.rows.append(
            {
                "n": count,
                "contender": "vcrpy",
                "median": seconds,
                "per_call_ms": seconds / count * 1e3,
                "ratio": None,
                "rounds": 1,
            }
        )
    if len(vcr_points) >= 2:
        (n1, t1), (n2, t2) = vcr_points[-2:]
        # t = a*n + b*n^2 through the two measured points
        b = (t2 / n2 - t1 / n1) / (n2 - n1)
        a = t1 / n1 - b * n1
        n = scale.record_n
        figure.rows.append(
            {
                "n": n,
                "contender": "vcrpy (extrapolated)",
                "median": a * n + b * n * n,
                "per_call_ms": (a + b * n) * 1e3,
                "ratio": None,
                "rounds": 0,
            }
        )
        figure.notes.append(
            f"vcrpy was measured once at N = {n1} and {n2} only; its N = {n} figure is "
            "extrapolated with a*N + b*N^2 through those two points (it searches every "
            "recorded request, body included, before recording each new one)."
        )
    figure.notes.append(
        f"bench/loopback.py answered {server_requests} requests with the workload's answers. "
        "The recording time includes the save."
    )
    return figure


def _posts(client: httpx.Client, url: str, bodies: list[bytes]) -> float:
    started = time.perf_counter()
    for body in bodies:
        response = client.post(url, content=body, headers=w.REQUEST_HEADERS)
        if response.status_code != 200:
            raise RuntimeError(f"server answered {response.status_code}")
    return time.perf_counter() - started


def _vcr_record(url: str, bodies: list[bytes], workdir: Path) -> float:
    import vcr

    path = workdir / f"vcr-record-{len(bodies)}.yaml"
    path.unlink(missing_ok=True)
    recorder = vcr.VCR(record_mode="new_episodes", match_on=VCR_MATCH_ON)
    started = time.perf_counter()
    with recorder.use_cassette(str(path)), httpx.Client() as client:
        _posts(client, url, bodies)
    return time.perf_counter() - started


# Figure 4: streamed replay.


def streamed_replay(scale: Scale, workdir: Path) -> Figure:
    figure = Figure(f"streamed replay, {w.STREAM_CHUNKS} chunks", "µs")
    chunks = w.stream_chunks()
    body = w.request_body(0, stream=True)
    ours_path, vcr_path = workdir / "stream.json", workdir / "stream.yaml"
    w.write_replay_cassette(ours_path, [(body, w.stream_answer(chunks))])
    w.write_vcr_cassette(vcr_path, [(body, b"".join(chunks), w.STREAM_HEADERS)])
    floor_headers = list(w.STREAM_HEADERS)

    def floor(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers=floor_headers, content=iter(chunks))

    contenders = {
        "floor": httpx.Client(transport=httpx.MockTransport(floor)),
        "replay": httpx.Client(
            transport=ReplayTransport(Cassette(ours_path, "none", allow_playback_repeats=True))
        ),
    }
    delivered: dict[str, int] = {}
    timings: dict[str, list[float]] = {}
    for round_index in range(scale.stream_rounds):
        for name, client in _rotated(list(contenders.items()), round_index):
            seconds, delivered[name] = _stream(client, body)
            timings.setdefault(name, []).append(seconds)
        with vcr_cassette(vcr_path), httpx.Client() as client:
            seconds, delivered["vcrpy"] = _stream(client, body)
            timings.setdefault("vcrpy", []).append(seconds)
    base = statistics.median(timings["floor"])
    for name in ("floor", "replay", "vcrpy"):
        median = statistics.median(timings[name])
        figure.rows.append(
            {
                "contender": name,
                "median": median * 1e6,
                "ratio": median / base,
                "chunks_delivered": delivered[name],
                "rounds": len(timings[name]),
            }
        )
    for client in contenders.values():
        client.close()
    return figure


def _stream(client: httpx.Client, body: bytes) -> tuple[float, int]:
    started = time.perf_counter()
    with client.stream("POST", w.URL, content=body, headers=w.REQUEST_HEADERS) as response:
        count = sum(1 for _ in response.iter_raw())
    return time.perf_counter() - started, count


# Figure 5: time to first chunk while recording a stream.


def first_chunk(scale: Scale, workdir: Path) -> Figure:
    figure = Figure("time to first chunk while recording a stream", "ms")
    import vcr

    timings: dict[str, list[float]] = {}
    with LoopbackServer(chunk_delay=0.01) as server:
        url = server.url
        recorder = vcr.VCR(record_mode="all", match_on=VCR_MATCH_ON)
        plain, vcr_client = httpx.Client(), httpx.Client()
        cassette = Cassette(workdir / "ttfb.json", "all")
        ours = httpx.Client(transport=ReplayTransport(cassette, httpx.HTTPTransport()))
        contenders: dict[str, Callable[[], AbstractContextManager[httpx.Client]]] = {
            "without recording": lambda: nullcontext(plain),
            "replay": lambda: nullcontext(ours),
            "vcrpy": lambda: _vcr_client(recorder, workdir / "ttfb.yaml", vcr_client),
        }
        for index in range(-1, scale.ttfb_runs):  # the first round opens the connections
            body = w.request_body(100_000 + index, stream=True)
            for name, make in _rotated(list(contenders.items()), index):
                with make() as client:
                    seconds = _first_chunk(client, url, body)
                if index >= 0:
                    timings.setdefault(name, []).append(seconds)
        for client in (plain, vcr_client, ours):
            client.close()
    base = statistics.median(timings["without recording"])
    for name, runs in timings.items():
        median = statistics.median(runs)
        figure.rows.append(
            {"contender": name, "median": median * 1e3, "ratio": median / base, "rounds": len(runs)}
        )
    figure.notes.append(
        "bench/loopback.py streams 10 events, one every 10 ms, over a kept-alive connection; "
        "vcrpy reads the whole stream before handing the response over."
    )
    return figure


@contextmanager
def _vcr_client(recorder: Any, path: Path, client: httpx.Client) -> Iterator[httpx.Client]:
    with recorder.use_cassette(str(path)):
        yield client


def _first_chunk(client: httpx.Client, url: str, body: bytes) -> float:
    started = time.perf_counter()
    with client.stream("POST", url, content=body, headers=w.REQUEST_HEADERS) as response:
        chunks = response.iter_raw()
        next(chunks)
        elapsed = time.perf_counter() - started
        for _ in chunks:
            pass
    return elapsed


# Figure 6: replay through `replay serve`, next to the transport.


@contextmanager
def _serving(command: list[str]) -> Iterator[str]:
    """A server process that prints its URL on its first line; stopped at the block's end."""
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        yield "http://" + first.split("http://", 1)[1].split()[0]
    finally:
        process.terminate()
        process.wait(timeout=30)


def proxy_replay(scale: Scale, workdir: Path) -> Figure:
    figure = Figure("replay per request through replay serve, sync, N = 100", "µs")
    n = 100
    root = workdir / "served"
    root.mkdir()
    calls = w.calls(n)
    w.write_replay_cassette(root / "default.json", ((c.body, w.answer(c)) for c in calls))
    bodies = [c.body for c in calls]
    cassette = Cassette(root / "default.json", "none", allow_playback_repeats=True)
    serve = [sys.executable, "-m", "replay", "serve", "--port", "0", "--mode", "none", "-q",
             "--allow-playback-repeats", "--upstream", "http://bench.invalid",
             "--cassettes", str(root)]  # fmt: skip
    floor = [sys.executable, str(HERE / "asgi_floor.py"), str(n)]
    timings: dict[str, list[float]] = {}
    with _serving(serve) as proxy_url, _serving(floor) as floor_url:
        paths = {"replay serve": proxy_url, "uvicorn floor": floor_url}
        clients = {name: httpx.Client(base_url=url) for name, url in paths.items()}
        clients["transport (in-process)"] = httpx.Client(
            base_url="http://bench.invalid", transport=ReplayTransport(cassette)
        )

        def runner(client: httpx.Client) -> Callable[[list[bytes]], None]:
            def run(batch: list[bytes]) -> None:
                for body in batch:
                    answer = client.post(
                        "/v1/chat/completions", content=body, headers=w.REQUEST_HEADERS
                    )
                    if answer.status_code != 200:
                        raise RuntimeError(f"bad answer {answer.status_code}: {answer.text[:200]}")

            return run

        runs = {name: runner(client) for name, client in clients.items()}
        for run in runs.values():
            run(bodies[:20])  # connections open, cassettes loaded
        for round_index in range(scale.rounds):
            for name, run in _rotated(list(runs.items()), round_index):
                size = batch_size(run, bodies, scale)
                timings.setdefault(name, []).append(per_request(run, (bodies * 50)[:size]))
        for client in clients.values():
            client.close()
    transport = statistics.median(timings["transport (in-process)"])
    floor_median = statistics.median(timings["uvicorn floor"])
    for name, runs_ in timings.items():
        median = statistics.median(runs_)
        figure.rows.append(
            {
                "contender": name,
                "median": median * 1e6,
                "ratio_to_transport": median / transport,
                "over_uvicorn_floor": (median - floor_median) * 1e6,
                "rounds": len(runs_),
            }
        )
    figure.notes.append(
        "One httpx client with a kept-alive connection, requests one after another. 'replay "
        "serve' is the command in a process of its own, replaying from a 100-call cassette; "
        "'uvicorn floor' is bench/asgi_floor.py, a bare ASGI app on the same uvicorn settings "
        "answering from a dict: the cost of HTTP over loopback and uvicorn themselves. "
        "over_uvicorn_floor (µs) is what the proxy adds to that: the request converted, the "
        "transport's decision and the answer streamed back."
    )
    return figure


def proxy_first_chunk(scale: Scale, workdir: Path) -> Figure:
    figure = Figure("time to first chunk while recording through replay serve", "ms")
    timings: dict[str, list[float]] = {}
    with LoopbackServer(chunk_delay=0.01) as server:
        upstream, _, path = server.url.partition("/v1/")
        serve = [sys.executable, "-m", "replay", "serve", "--port", "0", "--mode", "all", "-q",
                 "--upstream", upstream, "--cassettes", str(workdir / "ttfb-served")]  # fmt: skip
        with _serving(serve) as proxy_url, httpx.Client() as direct, httpx.Client() as proxied:
            urls = {
                "direct": (direct, server.url),
                "replay serve": (proxied, f"{proxy_url}/v1/{path}"),
            }
            for index in range(-1, scale.ttfb_runs):  # the first round opens the connections
                body = w.request_body(200_000 + index, stream=True)
                for name, (client, url) in _rotated(list(urls.items()), index):
                    seconds = _first_chunk(client, url, body)
                    if index >= 0:
                        timings.setdefault(name, []).append(seconds)
    base = statistics.median(timings["direct"])
    for name, runs in timings.items():
        median = statistics.median(runs)
        figure.rows.append(
            {"contender": name, "median": median * 1e3, "ratio": median / base, "rounds": len(runs)}
        )
    figure.notes.append(
        "bench/loopback.py streams 10 events, one every 10 ms; 'replay serve' records each "
        "stream (mode all) from it in a process of its own, the client reading through it."
    )
    return figure


# Machine, results, report.


def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.partition(":")[2].strip()
                break
    except OSError:
        pass
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    import yaml

    versions = {
        name: metadata.version(name) for name in ("httpx", "httpx2", "vcrpy", "PyYAML", "orjson")
    }
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_gb": round(memory, 1),
        "system": platform.platform(),
        "python": platform.python_version(),
        "libyaml": bool(yaml.__with_libyaml__),
        **versions,
    }


def markdown(figures: list[Figure], host: dict[str, Any], seconds: float) -> str:
    described = ", ".join(f"{key} {value}" for key, value in host.items())
    when = time.strftime("%Y-%m-%d %H:%M")
    lines = ["# Benchmark results", "", f"Run of {when}, {seconds:.0f} s in all. {described}."]
    for figure in figures:
        lines += ["", f"## {figure.name} ({figure.unit}, median)", ""]
        keys = [k for k in figure.rows[0] if k != "rounds"] + ["rounds"]
        lines.append("| " + " | ".join(keys) + " |")
        lines.append("|" + "---|" * len(keys))
        for row in figure.rows:
            lines.append("| " + " | ".join(_cell(row.get(k)) for k in keys) + " |")
        lines += ["", *(f"- {note}" for note in figure.notes)]
    return "\n".join(lines) + "\n"


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3g}" if value < 100 else f"{value:,.0f}"
    return str(value)


def profile(workdir: Path) -> None:
    """Where replay spends a request: cProfile of 5,000 replays from a 1,000-call cassette."""
    path = workdir / "profile.json"
    calls = w.calls(1_000)
    w.write_replay_cassette(path, ((c.body, w.answer(c)) for c in calls))
    client = httpx.Client(
        transport=ReplayTransport(Cassette(path, "none", allow_playback_repeats=True))
    )
    bodies = [c.body for c in calls] * 5
    run = sync_runner(client)
    run(bodies[:10])
    profiler = cProfile.Profile()
    profiler.runcall(run, bodies)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small counts, to check the script")
    parser.add_argument("--profile", action="store_true", help="profile the replay hot path")
    parser.add_argument("--cold", nargs=2, metavar=("CONTENDER", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cold:
        cold_child(*args.cold)
        return
    with tempfile.TemporaryDirectory(prefix="replay-bench-") as temporary:
        workdir = Path(temporary)
        if args.profile:
            profile(workdir)
            return
        scale = QUICK if args.quick else FULL
        started = time.perf_counter()
        figures = []
        measures = (
            replay_per_request,
            cold_load,
            record_calls,
            streamed_replay,
            first_chunk,
            proxy_replay,
            proxy_first_chunk,
        )
        for measure in measures:
            print(f"{measure.__name__} ...", flush=True)
            figures.append(measure(scale, workdir))
        seconds = time.perf_counter() - started
    host = machine()
    name = "quick" if args.quick else "latest"
    RESULTS.mkdir(exist_ok=True)
    report = markdown(figures, host, seconds)
    (RESULTS / f"{name}.md").write_text(report)
    document = {
        "machine": host,
        "seconds": seconds,
        "figures": [figure.__dict__ for figure in figures],
    }
    (RESULTS / f"{name}.json").write_text(json.dumps(document, indent=2) + "\n")
    print(report)


if __name__ == "__main__":
    main()
