"""Benchmarks: this project against vcrpy and the floor, in one process run, alternating.

    python bench/run.py             # everything, ~10 minutes on 2 cores
    python bench/run.py --quick     # small counts, to check the script itself
    python bench/run.py --profile   # cProfile of this project's replay hot path

The floor is ``MockTransport`` (httpx's, httpx2's) whose handler looks the
answer up in a dict by a hash of the request body: nothing replays faster
through a client of that library. The peers are vcrpy and cassetter, each
with body matching on. Each figure runs the contenders in turn, round after round, and
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
import random
import resource
import shutil
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
import httpx2
import orjson
import workload as w
from loopback import LoopbackServer

from replay import AsyncReplayTransport, Cassette, ReplayTransport

HERE = Path(__file__).parent
RESULTS = HERE / "results"
VCR_MATCH_ON = ("method", "scheme", "host", "port", "path", "query", "body")
CASSETTER_MATCH_ON = ["method", "uri", "body"]


@dataclass(frozen=True)
class Scale:
    sizes: tuple[int, ...]
    rounds: int
    round_seconds: float
    """How long one contender's batch should take in one round; sets the batch size."""
    max_batch: int
    """At most this many requests per contender and round (distinct, when N allows)."""
    peer_max_batch: int
    """vcrpy's and cassetter's batches: a linear search each, too slow for more."""
    cold_n: int
    cold_runs: int
    record_n: int
    record_rounds: int
    vcr_record_ns: tuple[int, ...]
    stream_rounds: int
    ttfb_runs: int
    sdk_rounds: int


FULL = Scale((1, 1_000, 10_000), 7, 0.2, 2_000, 5, 5_000, 3, 1_000, 5, (250,), 30, 15, 7)
QUICK = Scale((1, 100), 2, 0.03, 200, 2, 500, 1, 100, 1, (25,), 5, 3, 2)


@dataclass
class Figure:
    name: str
    unit: str
    rows: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


# The contenders.

LIBRARIES = {"httpx": httpx, "httpx2": httpx2}
MODES = [(library, kind) for library in LIBRARIES for kind in ("sync", "async")]
"""Each (library, sync or async) pair is timed on its own, against its own floor."""
Runner = Callable[[list[Any]], None]


def floor_handler(calls: list[w.Call], library: Any = httpx) -> Callable[[Any], Any]:
    """The floor: the answer looked up in a dict by a hash of the body, nothing else."""
    answers = {w.body_hash(call.body): call.answer for call in calls}
    headers = list(w.RESPONSE_HEADERS)

    def handle(request: Any) -> Any:
        return library.Response(200, headers=headers, content=answers[w.body_hash(request.content)])

    return handle


def vcr_cassette(path: Path | str) -> AbstractContextManager[Any]:
    """vcrpy at its fastest: libyaml, replay only; ``body`` in match_on, as LLM calls need."""
    import vcr

    config = vcr.VCR(record_mode="none", match_on=VCR_MATCH_ON)
    return config.use_cassette(str(path), allow_playback_repeats=True)  # type: ignore[no-any-return]


def cassetter_cassette(path: Path | str, library: str) -> AbstractContextManager[Any]:
    """cassetter replaying, body matching on (``method``, ``uri``, ``body``), as LLM calls need."""
    import cassetter

    return cassetter.use_cassette(  # type: ignore[no-any-return]
        str(path), record_mode="none", match_on=CASSETTER_MATCH_ON, intercept=[library]
    )


def post(client: Any, body: bytes) -> None:
    response = client.post(w.URL, content=body, headers=w.REQUEST_HEADERS)
    if response.status_code != 200 or not response.content:
        raise RuntimeError(f"bad answer {response.status_code}")


async def apost(client: Any, body: bytes) -> None:
    response = await client.post(w.URL, content=body, headers=w.REQUEST_HEADERS)
    if response.status_code != 200 or not response.content:
        raise RuntimeError(f"bad answer {response.status_code}")


Clock = Callable[[], float]


def per_request(run: Runner, bodies: list[Any], clock: Clock = time.process_time) -> float:
    """Seconds per request, by default CPU seconds: in-process replay never waits, so on an
    idle machine this is its wall time, and other processes on a shared one do not inflate
    it. A request answered by another process is timed by the wall clock."""
    started = clock()
    run(bodies)
    return (clock() - started) / len(bodies)


def batch_size(
    run: Runner, probe: Any, available: int, scale: Scale, clock: Clock = time.process_time
) -> int:
    """How many requests fill ``scale.round_seconds``, from one timed request."""
    one = per_request(run, [probe], clock)
    return max(1, min(available, int(scale.round_seconds / max(one, 1e-7))))


def sync_runner(client: Any) -> Runner:
    def run(bodies: list[bytes]) -> None:
        for body in bodies:
            post(client, body)

    return run


def async_runner(client: Any, loop: asyncio.AbstractEventLoop) -> Runner:
    async def requests(bodies: list[bytes]) -> None:
        for body in bodies:
            await apost(client, body)

    def run(bodies: list[bytes]) -> None:
        loop.run_until_complete(requests(bodies))

    return run


@contextmanager
def client_runner(
    library: str, kind: str, loop: asyncio.AbstractEventLoop, **options: Any
) -> Iterator[Runner]:
    """A fresh client of ``library`` and a runner posting through it, closed afterwards."""
    lib = LIBRARIES[library]
    if kind == "sync":
        with lib.Client(**options) as client:
            yield sync_runner(client)
        return
    client = lib.AsyncClient(**options)
    try:
        yield async_runner(client, loop)
    finally:
        loop.run_until_complete(client.aclose())


def round_order(n: int, round_index: int, count: int) -> list[int]:
    """Which recordings a round asks for: distinct, picked at random from the whole cassette
    (the same for every contender of the round), each asked once, as a test suite does."""
    rng = random.Random(n * 1_000 + round_index)
    if n < count:
        picked = rng.sample(range(n), n)
        return (picked * (count // n + 1))[:count]  # a small cassette: its few, again
    return rng.sample(range(n), count)


# Figure 1: replay per request.


def replay_per_request(scale: Scale, workdir: Path) -> Figure:
    figure = Figure("replay per request", "µs")
    loop = asyncio.new_event_loop()
    for n in scale.sizes:
        paths = {
            "replay": workdir / f"replay-{n}.json",
            "vcrpy": workdir / f"vcr-{n}.yaml",
            "cassetter": workdir / f"cassetter-{n}.toml",
        }
        calls = w.calls(n)
        w.write_replay_cassette(paths["replay"], ((c.body, w.answer(c)) for c in calls))
        w.write_vcr_cassette(
            paths["vcrpy"], ((c.body, c.answer, w.RESPONSE_HEADERS) for c in calls)
        )
        w.write_cassetter_cassette(paths["cassetter"], calls)
        bodies = [c.body for c in calls]
        handlers = {name: floor_handler(calls, lib) for name, lib in LIBRARIES.items()}
        del calls

        timings: dict[tuple[str, str, str], list[float]] = {}
        for round_index in range(scale.rounds):
            order = round_order(n, round_index, scale.max_batch + 2)
            round_bodies = [bodies[i] for i in order]
            warm, probe, timed = round_bodies[0], round_bodies[1], round_bodies[2:]
            for library, kind in MODES:
                peers = ["cassetter", "vcrpy"]
                for name in _rotated(["ours", *peers], round_index):
                    if name == "ours":
                        spent = _floor_and_replay(
                            library, kind, loop, paths, handlers, round_bodies, scale
                        )
                        for contender, seconds in spent.items():
                            timings.setdefault((library, kind, contender), []).append(seconds)
                        continue
                    with _session(name, library, kind, loop, paths, handlers) as run:
                        run([warm])  # loads the cassette, opens what is opened once
                        size = batch_size(run, probe, len(timed), scale)
                        size = min(size, scale.peer_max_batch)
                        if name == "vcrpy" and n >= 10_000:
                            size = 1  # seconds per request: one keeps the bench near 15 min
                        seconds = per_request(run, timed[:size])
                    timings.setdefault((library, kind, name), []).append(seconds)
        for library, kind in MODES:
            floors = timings[library, kind, "floor"]
            for name in ("floor", "replay", AGAIN, "cassetter", "vcrpy"):
                runs = timings.get((library, kind, name))
                if runs is None:
                    continue
                ratios = [run / floor for run, floor in zip(runs, floors, strict=True)]
                figure.rows.append(
                    {
                        "n": n,
                        "library": library,
                        "mode": kind,
                        "contender": name,
                        "median": statistics.median(runs) * 1e6,
                        "ratio": statistics.median(ratios),
                        "spread": _spread(ratios),
                        "rounds": len(runs),
                    }
                )
        for path in paths.values():
            path.unlink()
        print(f"  replay per request, N={n}: done", flush=True)
    loop.close()
    figure.notes += [
        "Every round asks each contender for the same recordings, picked at random from the "
        "whole cassette, each once until all were asked (N = 1 and N = 1,000 have fewer "
        "recordings than a round asks for: then again, in the same order); each contender "
        "starts the round afresh (for replay a new Cassette on a new version of the file, so "
        "nothing parsed or decoded carries over; the file reloaded for the peers), and one "
        "warm-up request, outside the timing, loads it. The floor and both replays are open at "
        f"once and take turns of {SLICE} requests, so that the machine's drift during a round "
        "weighs on all alike; the peers, which patch the library while their cassette is "
        "open, run on their own. ratio is the median of the rounds' ratios to the floor of "
        "the same round; spread is their range. Times are the process's CPU time "
        "(time.process_time): the same as wall time for this work on an idle machine, and not "
        "inflated by other processes on a shared one.",
        f"{AGAIN} is a second Cassette on the same version of the file, open beside replay's, "
        "asking each turn's recordings after replay did: each recording's first replay in a "
        "process decodes it from the parsed file, and this row is what the same requests cost "
        "once that is done (tests sharing a cassette file, or asking a recording again).",
        f"vcrpy and cassetter are timed on at most {scale.peer_max_batch} requests per round, "
        "since each of their requests searches the recordings with body matching.",
        "cassetter replays from its TOML format: its default YAML refuses a cassette of "
        "10,000 of these interactions ('budget breached: Nodes'). vcrpy patches httpx2's "
        "transports as it does httpx's (since vcrpy 8.2.0).",
    ]
    return figure


SLICE = 50
"""Requests per slice when the floor and replay take turns within a round."""


AGAIN = "replay, again"
"""Replay asked for recordings that another cassette on the same file replayed before it."""


def _floor_and_replay(
    library: str,
    kind: str,
    loop: asyncio.AbstractEventLoop,
    paths: dict[str, Path],
    handlers: dict[str, Callable[[Any], Any]],
    round_bodies: list[bytes],
    scale: Scale,
) -> dict[str, float]:
    """Seconds per request of the floor, of replay, and of replay again in one round, timed
    in turns of :data:`SLICE` requests (the floor first or last, alternating), all open at
    once: a machine that speeds up or slows down during the round (frequency, another process,
    the host of a virtual machine) weighs on all alike, where timing one whole batch after the
    other put the whole drift on one side. Each asks the round's recordings in the same order,
    each recording once, as the peers' batch does. Replay again is a second cassette on the
    same version of the file, asking each slice after replay did: its recordings are decoded
    already, as the next test's are when tests share a cassette file."""
    warm, probe, timed = round_bodies[0], round_bodies[1], round_bodies[2:]
    with (
        _session("floor", library, kind, loop, paths, handlers) as floor,
        _session("replay", library, kind, loop, paths, handlers) as ours,
        _session(AGAIN, library, kind, loop, paths, handlers) as again,
    ):
        floor([warm])
        ours([warm])  # loads the cassette, opens what is opened once
        again([warm])  # the same version of the file: parsed once, shared
        size = batch_size(ours, probe, len(timed), scale)
        spent = {"floor": 0.0, "replay": 0.0, AGAIN: 0.0}
        for start in range(0, size, SLICE):
            part = timed[start : min(start + SLICE, size)]
            turns = [("replay", ours), (AGAIN, again)]  # again after replay: decoded by then
            turns.insert(0 if start // SLICE % 2 == 0 else 2, ("floor", floor))
            for name, run in turns:
                spent[name] += per_request(run, part) * len(part)
    return {name: seconds / size for name, seconds in spent.items()}


def _session(
    contender: str,
    library: str,
    kind: str,
    loop: asyncio.AbstractEventLoop,
    paths: dict[str, Path],
    handlers: dict[str, Callable[[Any], Any]],
) -> AbstractContextManager[Runner]:
    """The contender set up afresh for one round (outside the timing)."""
    if contender == "floor":
        transport = LIBRARIES[library].MockTransport(handlers[library])
        return client_runner(library, kind, loop, transport=transport)
    if contender in ("replay", AGAIN):
        if contender == "replay":
            # A new file version (mtime) each session: replay keeps a parsed file and the
            # responses decoded from it for every cassette of the process, which would otherwise
            # carry over from the last round; so each timed request is its recording's first
            # replay in the process, as a test's own cassette is. AGAIN opens that same version.
            stamp = time.time_ns()
            os.utime(paths["replay"], ns=(stamp, stamp))
        cassette = Cassette(paths["replay"], "none", allow_playback_repeats=True)
        transport = (ReplayTransport if kind == "sync" else AsyncReplayTransport)(cassette)
        return client_runner(library, kind, loop, transport=transport)
    return _patched_session(contender, paths[contender], library, kind, loop)


@contextmanager
def _patched_session(
    contender: str, path: Path, library: str, kind: str, loop: asyncio.AbstractEventLoop
) -> Iterator[Runner]:
    """vcrpy or cassetter: they patch the library's transports while their cassette is open."""
    patching = vcr_cassette(path) if contender == "vcrpy" else cassetter_cassette(path, library)
    with patching, client_runner(library, kind, loop) as run:
        yield run


def _spread(ratios: list[float]) -> str:
    return f"{min(ratios):.2f} to {max(ratios):.2f}"


def _rotated(items: list[Any], by: int) -> list[Any]:
    by %= len(items)
    return items[by:] + items[:by]


# Figure 2: a chat call through the openai SDK.


def sdk_chat(scale: Scale, workdir: Path) -> Figure:
    """What a user's test suite feels: ``chat.completions.create`` replayed, against the same
    call over a MockTransport answering the same bytes from a dict."""
    import openai

    n = 1_000 if scale is FULL else 100
    figure = Figure(f"openai SDK chat call, sync, httpx2, N = {n}", "µs")
    conversations = [orjson.loads(w.request_body(i))["messages"] for i in range(n)]
    answers: dict[str, bytes] = {}

    def first_answer(request: httpx2.Request) -> httpx2.Response:
        """Learns the bytes the SDK sends for each conversation (the last message says which)."""
        index = int(orjson.loads(request.content)["messages"][-1]["content"].split()[0][1:])
        answers[w.body_hash(request.content)] = w.response_body(index)
        return httpx2.Response(
            200, headers=list(w.RESPONSE_HEADERS), content=answers[w.body_hash(request.content)]
        )

    def sdk(transport: Any) -> Runner:
        client = openai.OpenAI(
            api_key=w.API_KEY,
            base_url=w.URL.removesuffix("/chat/completions"),
            max_retries=0,
            http_client=httpx2.Client(transport=transport),
        )

        def run(indexes: list[int]) -> None:
            for index in indexes:
                completion = client.chat.completions.create(
                    model="gpt-4o-mini",
                    messages=conversations[index],
                    temperature=0.2,
                    max_tokens=256,
                )
                if not completion.choices[0].message.content:
                    raise RuntimeError("empty answer")

        return run

    sdk(httpx2.MockTransport(first_answer))(list(range(n)))
    floor = floor_from(answers)
    path = workdir / "sdk.json"
    path.unlink(missing_ok=True)
    recording = Cassette(path, "once")
    sdk(ReplayTransport(recording, httpx2.MockTransport(floor)))(list(range(n)))
    recording.save()

    timings: dict[str, list[float]] = {}
    for round_index in range(scale.sdk_rounds):
        order = round_order(n, round_index, n)
        warm, probe, timed = order[0], order[1], order[2:]
        sessions = {
            "floor": lambda: sdk(httpx2.MockTransport(floor)),
            "replay": lambda: sdk(ReplayTransport(Cassette(path, "none"))),
        }
        for name in _rotated(list(sessions), round_index):
            run = sessions[name]()
            run([warm])
            size = batch_size(run, probe, len(timed), scale)
            timings.setdefault(name, []).append(per_request(run, timed[:size]))
    for name, runs in timings.items():
        ratios = [run / floor for run, floor in zip(runs, timings["floor"], strict=True)]
        figure.rows.append(
            {
                "contender": name,
                "median": statistics.median(runs) * 1e6,
                "ratio": statistics.median(ratios),
                "spread": _spread(ratios),
                "rounds": len(runs),
            }
        )
    figure.notes.append(
        f"openai {metadata.version('openai')}; the cassette was recorded through the SDK (its "
        "own request bytes); each round asks for distinct conversations at random, each once, "
        "from a fresh Cassette in mode none. CPU time, as above."
    )
    return figure


def floor_from(answers: dict[str, bytes]) -> Callable[[httpx2.Request], httpx2.Response]:
    headers = list(w.RESPONSE_HEADERS)

    def handle(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, headers=headers, content=answers[w.body_hash(request.content)])

    return handle


# Figure 3: cold load and first request, each in a fresh process.


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


# Figure 4: recording through a loopback server.


def record_calls(scale: Scale, workdir: Path) -> Figure:
    figure = Figure("recording N calls through a loopback server", "s")
    bodies = [w.request_body(i) for i in range(scale.record_n)]
    counts = sorted({scale.record_n // 4, scale.record_n})
    timings: dict[tuple[str, int], list[float]] = {}
    with LoopbackServer() as server:
        url = server.url
        for peer in ("cassetter", "vcrpy"):  # untimed: imports and first patching
            _peer_record(peer, url, bodies[:5], workdir)
        for round_index in range(scale.record_rounds):
            for count in counts:
                plain, recording = _plain_and_recording(url, bodies[:count], workdir, round_index)
                timings.setdefault(("without recording", count), []).append(plain)
                timings.setdefault(("replay", count), []).append(recording)
                peers = ["cassetter", *(["vcrpy"] if count in scale.vcr_record_ns else [])]
                for peer in _rotated(peers, round_index):
                    seconds = _peer_record(peer, url, bodies[:count], workdir)
                    timings.setdefault((peer, count), []).append(seconds)
        server_requests = server.answered
    for count in counts:
        bases = timings["without recording", count]
        for name in ("without recording", "replay", "cassetter", "vcrpy"):
            runs = timings.get((name, count))
            if runs is None:
                continue
            ratios = [run / base for run, base in zip(runs, bases, strict=True)]
            added = [(run - base) / count * 1e3 for run, base in zip(runs, bases, strict=True)]
            median = statistics.median(runs)
            figure.rows.append(
                {
                    "n": count,
                    "contender": name,
                    "median": median,
                    "per_call_ms": median / count * 1e3,
                    "added_ms_per_call": statistics.median(added),
                    "ratio": statistics.median(ratios),
                    "spread": _spread(ratios),
                    "rounds": len(runs),
                }
            )
    figure.notes.append(
        f"bench/loopback.py answered {server_requests} requests with the workload's answers. "
        "The recording time includes the save. The plain client and replay's recording one are "
        f"open at once and take turns of {RECORD_SLICE} calls, so that the machine's drift "
        "weighs on both alike; vcrpy (record mode new_episodes, match_on with the body) and "
        "cassetter (record mode all, match_on method, uri, body) patch httpx while their "
        "cassette is open, so each records the same calls on its own, right after, into a new "
        "cassette. added_ms_per_call is (the tool's time - the same round's plain time) / N; "
        "ratio is the median of the rounds' ratios to that plain time, spread their range. "
        f"vcrpy is measured at N = {', '.join(map(str, scale.vcr_record_ns))} only: it "
        "searches every recorded request, body included, before recording each new one, so "
        "its time per call grows with N."
    )
    return figure


RECORD_SLICE = 25
"""Calls per turn when the plain client and the recording one take turns."""


def _plain_and_recording(
    url: str, bodies: list[bytes], workdir: Path, round_index: int
) -> tuple[float, float]:
    """Seconds for ``bodies`` posted by a plain client and by one recording them into a new
    cassette, the save at close included: both open at once, taking turns of
    :data:`RECORD_SLICE` calls (who goes first alternating with the round and the turn), so
    that the machine's drift weighs on both alike."""
    path = workdir / f"record-{len(bodies)}.json"
    path.unlink(missing_ok=True)
    cassette = Cassette(path, "once")
    upstream = httpx.HTTPTransport()  # made outside the timing, as the plain client's is
    spent = {"plain": 0.0, "recording": 0.0}
    with (
        httpx.Client() as plain,
        httpx.Client(transport=ReplayTransport(cassette, upstream)) as ours,
    ):
        for start in range(0, len(bodies), RECORD_SLICE):
            part = bodies[start : start + RECORD_SLICE]
            turns = [("plain", plain), ("recording", ours)]
            for name, client in (
                turns if (start // RECORD_SLICE + round_index) % 2 == 0 else reversed(turns)
            ):
                spent[name] += _posts(client, url, part)
        started = time.perf_counter()
    spent["recording"] += (
        time.perf_counter() - started
    )  # the save, at close (the plain client's close is not timed)
    if len(Cassette(path, "none").interactions) != len(bodies):
        raise RuntimeError("recording lost interactions")
    return spent["plain"], spent["recording"]


def _posts(client: httpx.Client, url: str, bodies: list[bytes]) -> float:
    started = time.perf_counter()
    for body in bodies:
        response = client.post(url, content=body, headers=w.REQUEST_HEADERS)
        if response.status_code != 200:
            raise RuntimeError(f"server answered {response.status_code}")
    return time.perf_counter() - started


def _peer_record(peer: str, url: str, bodies: list[bytes], workdir: Path) -> float:
    """Seconds for ``bodies`` recorded by vcrpy or cassetter into a new cassette, the save at
    the cassette's close included."""
    path = workdir / f"{peer}-record-{len(bodies)}.yaml"
    path.unlink(missing_ok=True)
    started = time.perf_counter()
    with _peer_recorder(peer, path), httpx.Client() as client:
        _posts(client, url, bodies)
    return time.perf_counter() - started


def _peer_recorder(peer: str, path: Path) -> AbstractContextManager[Any]:
    """vcrpy or cassetter recording every request into ``path``, body matching on."""
    if peer == "vcrpy":
        import vcr

        recorder = vcr.VCR(record_mode="new_episodes", match_on=VCR_MATCH_ON)
        return recorder.use_cassette(str(path))  # type: ignore[no-any-return]
    import cassetter

    return cassetter.use_cassette(  # type: ignore[no-any-return]
        str(path), record_mode="all", match_on=CASSETTER_MATCH_ON, intercept=["httpx"]
    )


# Figure 5: streamed replay.


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
    """CPU seconds, as replay per request: every contender streams in this process, unpaced."""
    started = time.process_time()
    with client.stream("POST", w.URL, content=body, headers=w.REQUEST_HEADERS) as response:
        count = sum(1 for _ in response.iter_raw())
    return time.process_time() - started, count


# Figure 6: time to first chunk while recording a stream.


def first_chunk(scale: Scale, workdir: Path) -> Figure:
    figure = Figure("time to first chunk while recording a stream", "ms")
    timings: dict[str, list[float]] = {}
    with LoopbackServer(chunk_delay=0.01) as server:
        url = server.url
        plain, peer_client = httpx.Client(), httpx.Client()
        cassette = Cassette(workdir / "ttfb.json", "all")
        ours = httpx.Client(transport=ReplayTransport(cassette, httpx.HTTPTransport()))
        contenders: dict[str, Callable[[], AbstractContextManager[httpx.Client]]] = {
            "without recording": lambda: nullcontext(plain),
            "replay": lambda: nullcontext(ours),
            "vcrpy": lambda: _patched_client("vcrpy", workdir / "ttfb.yaml", peer_client),
            "cassetter": lambda: _patched_client(
                "cassetter", workdir / "ttfb-cassetter.yaml", peer_client
            ),
        }
        for index in range(-1, scale.ttfb_runs):  # the first round opens the connections
            body = w.request_body(100_000 + index, stream=True)
            for name, make in _rotated(list(contenders.items()), index):
                with make() as client:
                    seconds = _first_chunk(client, url, body)
                if index >= 0:
                    timings.setdefault(name, []).append(seconds)
        for client in (plain, peer_client, ours):
            client.close()
    base = statistics.median(timings["without recording"])
    for name, runs in timings.items():
        median = statistics.median(runs)
        figure.rows.append(
            {"contender": name, "median": median * 1e3, "ratio": median / base, "rounds": len(runs)}
        )
    figure.notes.append(
        "bench/loopback.py streams 10 events, one every 10 ms, over a kept-alive connection; "
        "vcrpy reads the whole stream before handing the response over; vcrpy and cassetter "
        "record each stream into a new cassette."
    )
    return figure


@contextmanager
def _patched_client(peer: str, path: Path, client: httpx.Client) -> Iterator[httpx.Client]:
    """``client`` while vcrpy or cassetter records into ``path``."""
    path.unlink(missing_ok=True)
    with _peer_recorder(peer, path):
        yield client


def _first_chunk(client: httpx.Client, url: str, body: bytes) -> float:
    started = time.perf_counter()
    with client.stream("POST", url, content=body, headers=w.REQUEST_HEADERS) as response:
        # iter_bytes, not iter_raw: cassetter hands over a response it has read whole, whose
        # raw stream is consumed; the decoding it adds is the same for every contender.
        chunks = response.iter_bytes()
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
                size = batch_size(run, bodies[0], len(bodies), scale, time.perf_counter)
                batch = (bodies * 50)[:size]
                timings.setdefault(name, []).append(per_request(run, batch, time.perf_counter))
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


def _chat_interaction(key: str, prompt: str, text: str, tokens: int, model: str) -> Any:
    from replay._core.model import Chunk, Interaction, Request, Response

    body = {"model": model, "messages": [{"role": "user", "content": prompt}]}
    answer = {
        "id": "chatcmpl-" + key[:12],
        "object": "chat.completion",
        "model": model,
        "choices": [
            {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}
        ],
        "usage": {"prompt_tokens": 20, "completion_tokens": tokens, "total_tokens": 20 + tokens},
    }
    headers = (("content-type", "application/json"),)
    request = Request("POST", "https://api.openai.com/v1/chat/completions", (), orjson.dumps(body))
    response = Response(200, headers, (Chunk(orjson.dumps(answer), 0.4),), "2026-01-01T00:00:00Z")
    return Interaction(key, request, [response])


def _upgrade_pairs(scale: Scale) -> list[Any]:
    """1,000 pairs (100 quick) of answers of 50 to 400 words, a third of them changed."""
    from replay._core.key import KeyRules
    from replay.tools import diff

    rng = random.Random(7)
    words = "the model answers every prompt with a sentence or more of plain words".split()  # noqa: SIM905
    pairs_n = 1_000 if scale is FULL else 100
    old, new = [], []
    for index in range(pairs_n):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(50, 400)))
        changed = text.replace("plain", "clear") if index % 3 == 0 else text
        key = f"{index:064x}"
        prompt = f"prompt number {index}"
        old.append(_chat_interaction(key, prompt, text, len(text) // 4, "model-1"))
        new.append(_chat_interaction(key, prompt, changed, len(changed) // 4, "model-2"))
    return diff.pair_trees({"": old}, {"": new}, KeyRules(ignore=("model",)))


def _upgrade_page(pairs: list[Any]) -> str:
    from replay.tools import diff, report

    models = {side: diff.models(pairs, side) for side in ("old", "new")}
    return report.render(pairs, old="old/", new="new/", models=models)


def report_page(scale: Scale, workdir: Path) -> Figure:
    """``replay report`` of 1,000 pairs: answers of 50 to 400 words, a third of them changed."""
    del workdir
    pairs = _upgrade_pairs(scale)
    seconds, walls, size = [], [], 0
    for _ in range(scale.rounds):
        started, wall = time.process_time(), time.perf_counter()
        page = _upgrade_page(pairs)
        seconds.append(time.process_time() - started)
        walls.append(time.perf_counter() - wall)
        size = len(page.encode())
    row = {
        "pairs": len(pairs),
        "render_s": statistics.median(seconds),
        "wall_s": statistics.median(walls),
        "page_mb": size / 2**20,
        "rounds": scale.rounds,
    }
    return Figure(
        "replay report: one page for a model upgrade",
        "CPU seconds and MiB",
        [row],
        [
            "targets: under 2 s and under 5 MB for 1,000 pairs (issue 29)",
            "render_s is CPU time (time.process_time), as for the other in-process figures: "
            "rendering never waits, and the wall clock (wall_s) on a shared machine counts "
            "other processes' time too",
        ],
    )


def report_in_browser(scale: Scale, workdir: Path) -> Figure:
    """The same page opened in Debian's Chromium (Playwright, the test extra): load to the
    second frame painted, then filtering by a kind and sorting by a column, each to its frame."""
    figure = Figure("replay report: the 1,000-pair page in Chromium", "wall seconds")
    chromium = shutil.which("chromium")
    if chromium is None:
        figure.notes.append("not measured: no Chromium installed (apt-get install chromium)")
        return figure
    from playwright.sync_api import sync_playwright

    path = workdir / "report.html"
    path.write_text(_upgrade_page(_upgrade_pairs(scale)), encoding="utf-8")
    painted = "new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
    times: dict[str, list[float]] = {"open_s": [], "filter_s": [], "sort_s": []}
    with sync_playwright() as driver:
        browser = driver.chromium.launch(
            executable_path=chromium, args=["--no-sandbox", "--disable-dev-shm-usage"]
        )
        steps: list[tuple[str, Callable[[Any], Any]]] = [
            ("open_s", lambda page: page.goto(path.as_uri(), wait_until="load")),
            ("filter_s", lambda page: page.select_option("#filter", "text")),
            ("sort_s", lambda page: page.locator("button[data-sort=tokens]").click()),
        ]
        for _ in range(scale.rounds):
            page = browser.new_page()
            for name, step in steps:
                started = time.perf_counter()
                step(page)
                page.evaluate(painted)
                times[name].append(time.perf_counter() - started)
            page.close()
        browser.close()
    figure.rows.append(
        {name: statistics.median(values) for name, values in times.items()}
        | {"rounds": scale.rounds}
    )
    figure.notes.append(
        "wall clock: the browser is other processes; on a shared machine it counts their "
        "waiting for a core too"
    )
    return figure


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
        name: _version(name)
        for name in ("httpx", "httpx2", "vcrpy", "cassetter", "openai", "PyYAML", "orjson")
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


def _version(name: str) -> str:
    """The installed version, or "not installed" (bench/real_suites.py runs in a suite's own
    environment, which may lack the SDKs the bench's figures use)."""
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def markdown(figures: list[Figure], host: dict[str, Any], seconds: float) -> str:
    described = ", ".join(f"{key} {value}" for key, value in host.items())
    when = time.strftime("%Y-%m-%d %H:%M")
    lines = ["# Benchmark results", "", f"Run of {when}, {seconds:.0f} s in all. {described}."]
    for figure in figures:
        lines += ["", f"## {figure.name} ({figure.unit}, median)", ""]
        if not figure.rows:  # not measured here (no Chromium for the browser's figure)
            lines += [*(f"- {note}" for note in figure.notes or ["not measured in this run"])]
            continue
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
    """Where replay spends a request: cProfile of 1,000 replays from a 10,000-call cassette,
    distinct requests picked at random, each once, from a fresh Cassette."""
    path = workdir / "profile.json"
    calls = w.calls(10_000)
    w.write_replay_cassette(path, ((c.body, w.answer(c)) for c in calls))
    client = httpx2.Client(transport=ReplayTransport(Cassette(path, "none")))
    bodies = [calls[i].body for i in round_order(len(calls), 0, 1_001)]
    run = sync_runner(client)
    run(bodies[:1])
    profiler = cProfile.Profile()
    profiler.runcall(run, bodies[1:])
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(25)
    stats.sort_stats("cumulative").print_stats("replay/", 25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small counts, to check the script")
    parser.add_argument("--profile", action="store_true", help="profile the replay hot path")
    parser.add_argument("--only", metavar="FIGURE", help="run one figure (a function's name)")
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
        measures = [replay_per_request, sdk_chat, cold_load, record_calls, streamed_replay]
        measures += [first_chunk, proxy_replay, proxy_first_chunk, report_page, report_in_browser]
        if args.only:
            measures = [m for m in measures if m.__name__ == args.only]
            if not measures:
                parser.error(f"no figure named {args.only}")
        for measure in measures:
            print(f"{measure.__name__} ...", flush=True)
            figures.append(measure(scale, workdir))
        seconds = time.perf_counter() - started
    host = machine()
    name = "quick" if args.quick else args.only or "latest"
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
