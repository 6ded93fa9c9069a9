"""A replay-only run over s3:// against the same run over local files, the read cache warm.

    python bench/s3_warm.py            # 300 interactions, 9 rounds
    python bench/s3_warm.py --quick    # small counts, to check the script itself

The S3 API is moto's server on loopback (tests/s3_server.py), serving one request at a time.
Each round replays every interaction from a new :class:`replay.Cassette` in mode ``none``
with a new S3 client, as a new process would: a warm cache means the cassette is revalidated
(a conditional GET answered 304) and its journal listed, not downloaded. The figure is the
median wall time of the s3:// rounds over that of the local rounds (target: at most 1.2x).
Results go to ``bench/results/s3_warm.{json,md}``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import boto3
import httpx
import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from s3_server import S3Server

import replay
from replay._store import s3
from replay.tools.fakellm import DEFAULT_API_KEY, FakeLLMServer

RESULTS = Path(__file__).resolve().parent / "results"
HEADERS = {"authorization": f"Bearer {DEFAULT_API_KEY}"}


def bodies(count: int) -> list[bytes]:
    return [
        orjson.dumps(
            {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": f"question {n}"}]}
        )
        for n in range(count)
    ]


def run(where: str, url: str, asked: list[bytes], mode: str) -> float:
    """Seconds to ask everything through a new cassette (a new S3 client too)."""
    s3.STORE.forget_client()
    started = time.perf_counter()
    cassette = replay.Cassette(where, mode)
    with httpx.Client(transport=replay.ReplayTransport(cassette)) as client:
        for body in asked:
            client.post(url, content=body, headers=HEADERS).raise_for_status()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    quick = parser.parse_args().quick
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line per S3 request otherwise
    count, rounds = (30, 3) if quick else (300, 9)
    asked = bodies(count)
    with tempfile.TemporaryDirectory() as workdir, S3Server() as server:
        os.environ.update(server.env())
        os.environ["XDG_CACHE_HOME"] = str(Path(workdir) / "cache")
        os.environ.pop("REPLAY_MODE", None)
        boto3.client("s3").create_bucket(Bucket="bench")
        local, remote = str(Path(workdir) / "chat.json"), "s3://bench/chat.json"
        with FakeLLMServer(api_key=DEFAULT_API_KEY) as fake:
            url = fake.url + "/v1/chat/completions"
            for where in (local, remote):
                run(where, url, asked, "new_episodes")
        run(remote, url, asked, "none")  # the cache warmed by a first replay-only run
        times: dict[str, list[float]] = {local: [], remote: []}
        for _ in range(rounds):  # alternating, so a slower moment of the machine hits both
            for where in (local, remote):
                times[where].append(run(where, url, asked, "none"))
    local_s, remote_s = statistics.median(times[local]), statistics.median(times[remote])
    result = {
        "interactions": count,
        "rounds": rounds,
        "local_ms": round(local_s * 1000, 2),
        "s3_ms": round(remote_s * 1000, 2),
        "ratio": round(remote_s / local_s, 3),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "s3_warm.json").write_text(json.dumps(result, indent=2) + "\n")
    table = (
        "| replay-only run, warm cache | interactions | median ms | vs local |\n"
        "| --- | --- | --- | --- |\n"
        f"| local file | {count} | {result['local_ms']} | 1.00x |\n"
        f"| s3:// (moto on loopback) | {count} | {result['s3_ms']} | {result['ratio']:.2f}x |\n"
    )
    (RESULTS / "s3_warm.md").write_text(table)
    print(table)


if __name__ == "__main__":
    main()
