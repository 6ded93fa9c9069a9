"""What each S3 client library costs a new process: boto3's core (botocore) against obstore.

    python bench/s3_clients.py            # 9 rounds
    python bench/s3_clients.py --quick    # 3 rounds, to check the script itself

The figures behind replay/_store/s3.py's choice of client for a warm replay-only run's one
request (docs/performance.md, "s3:// with a warm read cache"). Each round starts one new Python
process per library, alternating, that imports it, makes its client and sends one
ListObjectsV2 of a directory of 100 objects, `/` as delimiter, to moto's S3 on loopback
(tests/s3_server.py); and one process that only starts, imports orjson and exits, for the
floor. Medians of the rounds, to ``bench/results/s3_clients.{json,md}``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import boto3
import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from s3_server import S3Server

RESULTS = Path(__file__).resolve().parent / "results"
TIMED = """
import time, orjson
started = time.perf_counter()
{imports}
imported = time.perf_counter()
{client}
made = time.perf_counter()
{listing}
listed = time.perf_counter()
print(orjson.dumps([imported - started, made - imported, listed - made]).decode())
"""
LIBRARIES = {
    "botocore (boto3's core)": TIMED.format(
        imports="import botocore.session",
        client='client = botocore.session.get_session().create_client("s3")',
        listing='client.list_objects_v2(Bucket="bench", Prefix="suite/", Delimiter="/")',
    ),
    "obstore": TIMED.format(
        imports="import obstore\nfrom obstore.store import S3Store",
        client='store = S3Store("bench", client_options={"allow_http": True})',
        listing='obstore.list_with_delimiter(store, "suite/")',
    ),
    "neither (the floor)": TIMED.format(imports="", client="", listing=""),
}


def one_process(code: str) -> list[float]:
    """Seconds to import, make the client, list, and the whole process."""
    started = time.perf_counter()
    printed = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True).stdout
    parts: list[float] = orjson.loads(printed)
    return [*parts, time.perf_counter() - started]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    rounds = 3 if parser.parse_args().quick else 9
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line per S3 request otherwise
    with S3Server() as server:
        os.environ.update(server.env())
        client = boto3.client("s3")
        client.create_bucket(Bucket="bench")
        for n in range(100):
            client.put_object(Bucket="bench", Key=f"suite/test_{n:03d}.json", Body=b"{}")
        runs: dict[str, list[list[float]]] = {name: [] for name in LIBRARIES}
        for _ in range(rounds):  # alternating, so a slower moment of the machine hits each
            for name, code in LIBRARIES.items():
                runs[name].append(one_process(code))
    results = [
        {
            "library": name,
            "rounds": rounds,
            **{
                part: round(statistics.median(run[i] for run in measured) * 1000, 1)
                for i, part in enumerate(("import_ms", "client_ms", "list_ms", "process_ms"))
            },
        }
        for name, measured in runs.items()
    ]
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "s3_clients.json").write_text(json.dumps(results, indent=2) + "\n")
    lines = [
        f"A new process per library, median ms of {rounds} rounds; one ListObjectsV2 of 100 "
        "objects from moto on loopback\n",
        "| library | import | make the client | one listing | the whole process |",
        "| --- | --- | --- | --- | --- |",
        *(
            f"| {r['library']} | {r['import_ms']} | {r['client_ms']} | {r['list_ms']} "
            f"| {r['process_ms']} |"
            for r in results
        ),
    ]
    table = "\n".join(lines) + "\n"
    (RESULTS / "s3_clients.md").write_text(table)
    print(table)


if __name__ == "__main__":
    main()
