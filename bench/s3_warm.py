"""Replay-only runs over s3:// against the same runs over local files, the read cache warm.

    python bench/s3_warm.py            # 300 interactions in each shape, 9 rounds
    python bench/s3_warm.py --quick    # small counts, to check the script itself

The S3 API is moto's server on loopback (tests/s3_server.py), serving one request at a time.
Two shapes: one cassette of 300 interactions, and a directory of 100 cassettes of 3. Each
round is a new Python process per store that replays every interaction through new
:class:`replay.Cassette` objects in mode ``none``, as a CI run would: over s3:// it imports
obstore, makes its client (boto3's where the environment does not decide alone: see
replay/_store/s3.py), lists the directory once and, the cache being warm, reads each cassette
from the cache with no request of its own. Three figures, medians over the rounds:

- the replay itself once the process has its S3 client;
- what a process pays once to have that client (importing obstore, making the client);
- the whole process, interpreter start and exit included (the target: at most 1.2x local).

Results go to ``bench/results/s3_warm.{json,md}``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import boto3
import httpx
import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from s3_server import S3Server

import replay
from replay.tools.fakellm import DEFAULT_API_KEY, FakeLLMServer

RESULTS = Path(__file__).resolve().parent / "results"
HEADERS = {"authorization": f"Bearer {DEFAULT_API_KEY}"}

ONE_RUN = """
import sys, time
import httpx, orjson, replay
from replay._core.location import S3Location, location
from replay._store.backend import store_for
where, url, plan, key = sys.argv[1:]
before_client = time.perf_counter()
if isinstance(location(where), S3Location):  # the lister's client made: once a process
    store_for(location(where)).lister(location(where))
replaying = time.perf_counter()
headers = {"authorization": f"Bearer {key}"}
for name, asked in orjson.loads(open(plan, "rb").read()).items():
    cassette = replay.Cassette(f"{where}/{name}", "none")
    with httpx.Client(transport=replay.ReplayTransport(cassette)) as client:
        for body in asked:
            client.post(url, content=body, headers=headers).raise_for_status()
done = time.perf_counter()
print(orjson.dumps([replaying - before_client, done - replaying]).decode())
"""
SHAPES = {"one cassette": (1, 300), "a directory of cassettes": (100, 3)}
"""Cassettes in the directory, interactions in each."""
QUICK_SHAPES = {"one cassette": (1, 30), "a directory of cassettes": (10, 3)}


def plan(cassettes: int, interactions: int) -> dict[str, list[str]]:
    """Each cassette's name and the request bodies asked through it."""
    return {
        f"test_{c:03d}.json": [
            orjson.dumps(
                {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": f"q{c}.{n}"}]}
            ).decode()
            for n in range(interactions)
        ]
        for c in range(cassettes)
    }


def record(where: str, url: str, asked: dict[str, list[str]]) -> None:
    for name, bodies in asked.items():
        with (
            replay.Cassette(f"{where}/{name}", "new_episodes") as cassette,
            httpx.Client(transport=replay.ReplayTransport(cassette)) as client,
        ):
            for body in bodies:
                client.post(url, content=body, headers=HEADERS).raise_for_status()


def one_run(where: str, url: str, asked: Path) -> tuple[float, float, float]:
    """A new process replaying the plan in ``asked``: seconds to have an S3 client, to replay,
    in all."""
    started = time.perf_counter()
    printed = subprocess.run(
        [sys.executable, "-c", ONE_RUN, where, url, str(asked), DEFAULT_API_KEY],
        check=True,
        capture_output=True,
    ).stdout
    whole = time.perf_counter() - started
    client, replaying = orjson.loads(printed)
    return client, replaying, whole


def measure(workdir: Path, shape: str, size: tuple[int, int], rounds: int) -> dict[str, Any]:
    """The medians of ``rounds`` runs of one shape, local and s3://, alternating."""
    asked = plan(*size)
    plan_file = workdir / f"{len(asked)}.json"
    plan_file.write_bytes(orjson.dumps(asked))
    local, remote = str(workdir / f"{len(asked)}"), f"s3://bench/{len(asked)}"
    with FakeLLMServer(api_key=DEFAULT_API_KEY) as fake:
        url = fake.url + "/v1/chat/completions"
        for where in (local, remote):
            record(where, url, asked)
        one_run(remote, url, plan_file)  # the cache warmed by a first replay-only run
        runs: dict[str, list[tuple[float, float, float]]] = {local: [], remote: []}
        for _ in range(rounds):  # alternating, so a slower moment of the machine hits both
            for where in (local, remote):
                runs[where].append(one_run(where, url, plan_file))

    def median_ms(where: str, part: int) -> float:
        return round(statistics.median(run[part] for run in runs[where]) * 1000, 2)

    return {
        "shape": shape,
        "cassettes": size[0],
        "interactions": size[0] * size[1],
        "rounds": rounds,
        "local_replay_ms": median_ms(local, 1),
        "s3_replay_ms": median_ms(remote, 1),
        "replay_ratio": round(median_ms(remote, 1) / median_ms(local, 1), 3),
        "s3_client_ms": median_ms(remote, 0),
        "local_process_ms": median_ms(local, 2),
        "s3_process_ms": median_ms(remote, 2),
        "process_ratio": round(median_ms(remote, 2) / median_ms(local, 2), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    quick = parser.parse_args().quick
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line per S3 request otherwise
    shapes, rounds = (QUICK_SHAPES, 3) if quick else (SHAPES, 9)
    with tempfile.TemporaryDirectory() as workdir, S3Server() as server:
        os.environ.update(server.env())
        os.environ["XDG_CACHE_HOME"] = str(Path(workdir) / "cache")
        os.environ.pop("REPLAY_MODE", None)
        boto3.client("s3").create_bucket(Bucket="bench")
        results = [measure(Path(workdir), shape, size, rounds) for shape, size in shapes.items()]
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "s3_warm.json").write_text(json.dumps(results, indent=2) + "\n")
    lines = [
        "Replay-only runs, warm cache, a new process each, median ms of "
        f"{rounds} rounds; s3:// is moto on loopback\n",
        "| run | | local files | s3:// | s3:// vs local |",
        "| --- | --- | --- | --- | --- |",
    ]
    for r in results:
        run = f"{r['shape']}: {r['cassettes']} x {r['interactions'] // r['cassettes']}"
        lines += [
            f"| {run} | the replay, the S3 client made | {r['local_replay_ms']} "
            f"| {r['s3_replay_ms']} | {r['replay_ratio']:.2f}x |",
            f"| | the S3 client made, once a process | | {r['s3_client_ms']} | |",
            f"| | the whole process | {r['local_process_ms']} | {r['s3_process_ms']} "
            f"| {r['process_ratio']:.2f}x |",
        ]
    table = "\n".join(lines) + "\n"
    (RESULTS / "s3_warm.md").write_text(table)
    print(table)


if __name__ == "__main__":
    main()
