"""A writer killed with SIGKILL at any point while saving leaves a whole cassette, never a torn one.

A child process records one new interaction and saves, again and again, into
a cassette big enough that each save takes a while; it is killed at a random
moment. The file must then be exactly one of the versions the child saved:
the interactions 0..k-1 for some k, each complete. 20 kills in a normal run,
100 with ``REPLAY_STRESS=1``.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from replay import Cassette

KILLS = 100 if os.environ.get("REPLAY_STRESS") == "1" else 20
PADDING = "x" * 4_000
"""Each answer's size: a few hundred interactions make each save take milliseconds."""

WRITER = """
import sys
from replay import Cassette
from replay._core.model import Chunk, Request, Response

path, start = sys.argv[1], int(sys.argv[2])
print("ready", flush=True)
for index in range(start, start + 100_000):
    cassette = Cassette(path, "new_episodes")
    request = Request("POST", "http://api.test/v1/chat", (), b'{"n": %d}' % index)
    decision = cassette.decide(request)
    body = b'{"n": %d, "pad": "%s"}' % (index, sys.argv[3].encode())
    cassette.add(decision, Response(200, (("content-type", "application/json"),),
                                    (Chunk(body, 0.0),), "2024-01-01T00:00:00Z"))
    cassette.save()
"""


def numbers(path: Path) -> list[int]:
    """The request numbers the cassette holds; raises if the file is not a whole cassette."""
    found = sorted(
        int(interaction.request.body.decode().split(":")[1].strip(" }"))
        for interaction in Cassette(path, "none").interactions
    )
    for interaction in Cassette(path, "none").interactions:
        assert len(interaction.outcomes) == 1
    return found


def test_sigkill_while_saving_leaves_a_previous_or_new_version(tmp_path: Path) -> None:
    path = tmp_path / "crash.json"
    rng = random.Random(5)
    saved = 0
    # KILLS kills at least; more while too few landed after a save, as on a loaded machine,
    # where the child saves more slowly than the random delays expect.
    for kill in range(KILLS * 4):
        if kill >= KILLS and saved > KILLS:
            break
        child = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), str(saved), PADDING],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.01, 0.12))
        child.send_signal(signal.SIGKILL)
        child.wait()
        if not path.exists():
            continue  # killed before its first save finished: the previous version is "none"
        held = numbers(path)
        assert held == list(range(len(held))), "a torn or merged-out-of-order version"
        assert len(held) >= saved, "a save lost interactions of an earlier version"
        saved = len(held)
    assert saved > KILLS, "the writer was never killed after saving: the test proved nothing"
    leftovers = [
        p.name for p in tmp_path.iterdir() if p.name not in ("crash.json", ".crash.json.lock")
    ]
    assert all(name.startswith(".crash.json.") for name in leftovers)
