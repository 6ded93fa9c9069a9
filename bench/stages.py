"""What a replayed and a recorded request cost, stage by stage, in instructions.

    python bench/stages.py            # the table, in bench/results/stages.md (~5 min)
    python bench/stages.py --quick    # fewer requests, to check the script itself

Timings on a shared machine move by tens of percent; instruction counts do
not. Each stage runs in its own process under ``valgrind --tool=callgrind``,
once with K requests and once with none, and the difference divided by K is
what one request costs: imports, the cassette's load and one warm-up request
cancel out. Stages are cumulative (each includes the ones above it), so each
row's increment is the cost of that step alone. ``PYTHONHASHSEED`` is fixed, so
a rerun gives the same counts to within a fraction of a percent.

The workload is bench/workload.py's: 1 to 4 KB chat requests, distinct, each
asked once, through httpx2, sync. The floor answers from a dict by a hash of
the body (``MockTransport``); "record" sends through our transport in mode
``once`` to that same ``MockTransport``, which stands in for the network, so
the recorded call's cost is ours alone (the journal's system calls are not
counted: they take about 40 µs of kernel time per call).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx2
import orjson
import workload as w

from replay import AsyncReplayTransport, Cassette, ReplayTransport
from replay._adapters.httpx_transport import replayed, to_model
from replay._cassette import Record
from replay._core.model import Chunk, Response, TransportFailure

HERE = Path(__file__).parent
RESULTS = HERE / "results"
CASSETTE_SIZE = 1_001

STAGES: dict[str, str] = {
    "to_model": "the httpx2 request converted to replay's own Request",
    "key_for": "its key, by the exact digest of its bytes (SHA-256 of the body)",
    "decide": "the stored response decoded, and the replay decided",
    "replayed": "an httpx2 Response made of it, and read",
    "floor": "the floor's own work: a dict look-up by a hash of the body, a Response, read",
    "record_decide": "recording: the httpx2 request converted, keyed, redacted, normalized",
    "record_add": "recording: the answer shown to the caller as it will replay, then stored",
    "client_floor": "a whole client.post() through MockTransport (the floor)",
    "client_replay": "a whole client.post() through ReplayTransport, replaying",
    "client_record": "a whole client.post() through ReplayTransport, recording",
    "async_floor": "a whole await client.post() through MockTransport (the async floor)",
    "async_replay": "a whole await client.post() through AsyncReplayTransport, replaying",
}


class Workload:
    """The requests, their answers, and a cassette of them, read back from ``directory``."""

    def __init__(self, directory: Path) -> None:
        pairs = orjson.loads((directory / "calls.json").read_bytes())
        self.bodies = [body.encode() for body, _ in pairs]
        self.answers = {_hash(body.encode()): answer.encode() for body, answer in pairs}
        self.cassette = directory / "cassette.json"

    @staticmethod
    def write(directory: Path) -> None:
        calls = w.calls(CASSETTE_SIZE)
        w.write_replay_cassette(directory / "cassette.json", ((c.body, w.answer(c)) for c in calls))
        pairs = [[c.body.decode(), c.answer.decode()] for c in calls]
        (directory / "calls.json").write_bytes(orjson.dumps(pairs))

    def floor(self, request: httpx2.Request) -> httpx2.Response:
        answer = self.answers[_hash(request.content)]
        return httpx2.Response(200, headers=list(w.RESPONSE_HEADERS), content=answer)

    def request(self, body: bytes) -> httpx2.Request:
        return httpx2.Request("POST", w.URL, content=body, headers=w.REQUEST_HEADERS)


def _hash(body: bytes) -> bytes:
    return hashlib.blake2b(body, digest_size=16).digest()


def run_stage(stage: str, count: int, directory: Path) -> None:
    """The measured process: one warm-up request, then ``count`` more through ``stage``."""
    work = Workload(directory)
    warm, bodies = work.bodies[0], work.bodies[1 : count + 1]
    # Made whatever the count, so that only the measured steps differ between the two runs.
    requests = [work.request(body) for body in work.bodies]
    if stage.startswith("async_"):
        asyncio.run(_async_calls(stage, work, [warm, *bodies]))
        return
    if stage.startswith("client_"):
        with httpx2.Client(transport=_client_transport(stage, work, directory)) as client:
            for body in [warm, *bodies]:
                client.post(w.URL, content=body, headers=w.REQUEST_HEADERS).read()
        return
    if stage == "floor":
        for request in requests[: count + 1]:
            work.floor(request).read()
        return
    if stage.startswith("record_"):
        _record(stage, work, directory, requests[: count + 1])
        return
    cassette = Cassette(work.cassette, "none")
    cassette.decide(to_model(requests[0]))
    for request in requests[1 : count + 1]:
        model = to_model(request)
        if stage == "key_for":
            cassette.key_for(model)
        elif stage in ("decide", "replayed"):
            decision = cassette.decide(model)  # its key first, as key_for above
            if stage == "replayed":
                replayed(decision.outcome, request, None).read()


def _record(stage: str, work: Workload, directory: Path, requests: list[httpx2.Request]) -> None:
    """What recording does inside the transport, with no HTTP client around it: decide, then
    (``record_add``) the answer through the caller's view (:class:`ShownBody`) and into the
    journal, as the transport's stream does it; the journal is not folded."""
    recording = Path(tempfile.mkdtemp(dir=directory)) / "recording.json"
    cassette = Cassette(recording, "once")
    for request in requests:
        decision = cassette.decide(to_model(request))
        if stage != "record_add" or not isinstance(decision, Record):
            continue
        answer = work.answers[_hash(request.content)]

        def outcome(complete: bool, cut: TransportFailure | None, body: bytes = answer) -> Response:
            return Response(200, w.RESPONSE_HEADERS, (Chunk(body, 0.05),), "2024", complete, cut)

        being_read = cassette.recording(decision, outcome, "application/json")
        being_read.shown.feed(answer)
        being_read.shown.rest()
        being_read.finish(complete=True)
    # Ended with no fold of the journal into the file (client_record counts one, at the
    # client's close): these stages count the request path alone.
    os._exit(0)


async def _async_calls(stage: str, work: Workload, bodies: list[bytes]) -> None:
    if stage == "async_floor":
        transport: Any = httpx2.MockTransport(work.floor)
    else:
        transport = AsyncReplayTransport(Cassette(work.cassette, "none"))
    async with httpx2.AsyncClient(transport=transport) as client:
        for body in bodies:
            response = await client.post(w.URL, content=body, headers=w.REQUEST_HEADERS)
            await response.aread()


def _client_transport(stage: str, work: Workload, directory: Path) -> Any:
    network = httpx2.MockTransport(work.floor)
    if stage == "client_floor":
        return network
    if stage == "client_replay":
        return ReplayTransport(Cassette(work.cassette, "none"))
    recording = Path(tempfile.mkdtemp(dir=directory)) / "recording.json"
    return ReplayTransport(Cassette(recording, "once"), network)


def instructions(stage: str, count: int, directory: Path) -> int:
    """Instructions callgrind counts for a process running ``stage`` over ``count`` requests."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--run",
        stage,
        str(count),
        str(directory),
    ]
    environment = {**os.environ, "PYTHONHASHSEED": "0"}
    result = subprocess.run(command, capture_output=True, text=True, env=environment, check=False)
    for line in result.stderr.splitlines():
        if "Collected :" in line:
            return int(line.rsplit(":", 1)[1])
    raise RuntimeError(f"callgrind gave no count for {stage}:\n{result.stderr[-2000:]}")


def per_request(stage: str, count: int, directory: Path) -> float:
    return (instructions(stage, count, directory) - instructions(stage, 0, directory)) / count


def markdown(costs: dict[str, float], count: int) -> str:
    steps = ["to_model", "key_for", "decide", "replayed"]
    lines = [
        "# Instructions per request, stage by stage",
        "",
        f"callgrind, {count} distinct 1-4 KB chat requests, httpx2, sync; bench/stages.py.",
        "",
        "valgrind hides the CPU's SHA extensions, so key_for's SHA-256 counts about twice the",
        "floor's blake2b here (91k against 46k instructions for 3 KB), where on a CPU with",
        "them it is the faster of the two (2.0 against 2.8 µs on the machine of the bench).",
        "",
        "## A replayed request, inside the transport",
        "",
        "| step | k instructions | what |",
        "|---|---|---|",
    ]
    previous = 0.0
    for step in steps:
        lines.append(f"| {step} | {(costs[step] - previous) / 1e3:.0f} | {STAGES[step]} |")
        previous = costs[step]
    lines += [
        f"| all of replay's work | {costs['replayed'] / 1e3:.0f} | |",
        f"| the floor's work | {costs['floor'] / 1e3:.0f} | {STAGES['floor']} |",
        "",
        "## A recorded request, inside the transport",
        "",
        "| step | k instructions | what |",
        "|---|---|---|",
        f"| record_decide | {costs['record_decide'] / 1e3:.0f} | {STAGES['record_decide']} |",
        f"| record_add | {(costs['record_add'] - costs['record_decide']) / 1e3:.0f} | "
        f"{STAGES['record_add']} |",
        f"| all of recording's work but the HTTP client's | {costs['record_add'] / 1e3:.0f} | |",
        "",
        "## A whole call",
        "",
        "| call | k instructions | ratio to the floor |",
        "|---|---|---|",
    ]
    floor = costs["client_floor"]
    for stage in ("client_floor", "client_replay", "client_record"):
        lines.append(f"| {STAGES[stage]} | {costs[stage] / 1e3:.0f} | {costs[stage] / floor:.3f} |")
    floor = costs["async_floor"]
    for stage in ("async_floor", "async_replay"):
        lines.append(f"| {STAGES[stage]} | {costs[stage] / 1e3:.0f} | {costs[stage] / floor:.3f} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 requests a stage, not 100")
    parser.add_argument("--run", nargs=3, metavar=("STAGE", "COUNT", "DIR"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        stage, count, directory = args.run
        run_stage(stage, int(count), Path(directory))
        return
    if shutil.which("valgrind") is None:
        sys.exit("bench/stages.py needs valgrind (Debian: apt-get install valgrind)")
    count = 10 if args.quick else 100
    with tempfile.TemporaryDirectory(prefix="replay-stages-") as temporary:
        directory = Path(temporary)
        Workload.write(directory)
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            futures = {stage: pool.submit(per_request, stage, count, directory) for stage in STAGES}
            costs = {stage: future.result() for stage, future in futures.items()}
    report = markdown(costs, count)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / ("stages-quick.md" if args.quick else "stages.md")).write_text(report)
    print(report)


if __name__ == "__main__":
    main()
