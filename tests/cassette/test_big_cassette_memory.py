"""A big cassette's memory, as a process sees it (its peak resident set, ``VmHWM``): a miss and
a rule change cost next to nothing beyond loading the file, and a file in another layout than
replay's (compact) loads into what replay's own layout takes, not several copies of it.

Each is measured in a fresh process, as growth of the peak over the peak before, so the test
suite's own memory is not in it. The bounds are fractions of what is measured, far from both
what is found (a few percent) and what it was (a miss held every recorded body once more, a
rule change every interaction decoded, a compact file its bytes and the parser's whole image).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from replay import Cassette
from replay._core.model import Chunk, Request, Response
from replay._store import cassette_file as store

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/status").exists(), reason="peak memory is read from /proc/self/status"
)

URL = "https://api.example.test/v1/chat/completions"
HEADERS = (("content-type", "application/json"),)
COUNT = 3_000
"""About 16 MiB of cassette: enough that it dominates the process's growth."""


def request(number: int) -> Request:
    """A chat request of a few turns, each its own words (the shape that parses largest)."""
    turns = [
        {"role": "user" if turn % 2 else "assistant", "content": f"turn {turn} of {number} " * 30}
        for turn in range(6)
    ]
    body = {"model": "gpt-4o-mini", "messages": turns, "temperature": 0.2}
    return Request("POST", URL, HEADERS, orjson.dumps(body))


def cassette_file(path: Path) -> Path:
    keyed = Cassette(path)
    entries = {}
    for number in range(COUNT):
        asked = request(number)
        answer = orjson.dumps({"choices": [{"message": {"content": f"answer {number} " * 40}}]})
        response = Response(200, HEADERS, (Chunk(answer, 0.0),), "2024-05-01T00:00:00Z")
        entries[keyed.key_of(asked)] = {
            "request": store.encode_request(asked),
            "responses": [store.encode_outcome(response)],
        }
    path.write_bytes(store.dump(entries))
    return path


CHILD = """
import json, sys
from replay import Cassette, CassetteMiss
from replay._cassette import Replay
from tests.cassette.test_big_cassette_memory import request, COUNT

def peak():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024

path, scenario = sys.argv[1:]
ignore = ["temperature"] if scenario == "rule change" else []
cassette = Cassette(path, "none", ignore=ignore)
before = peak()
cassette.load()
loaded = peak()
if scenario == "miss":
    try:
        cassette.decide(request(COUNT + 1))
        raise SystemExit("no miss")
    except CassetteMiss as miss:
        assert miss.closest_url, miss
elif scenario == "rule change":  # found only by keying the recordings again
    assert isinstance(cassette.decide(request(7)), Replay)
print(json.dumps({"load": loaded - before, "then": peak() - loaded}))
"""


def grown(path: Path, scenario: str) -> dict[str, int]:
    """Bytes the peak resident set grew by in a fresh process: loading, then the scenario."""
    root = Path(__file__).parents[2]
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(path), scenario],
        capture_output=True,
        text=True,
        check=False,
        cwd=root,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    found: dict[str, int] = json.loads(done.stdout)
    return found


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return cassette_file(tmp_path_factory.mktemp("big") / "big.json")


@pytest.mark.parametrize("scenario", ["miss", "rule change"])
def test_a_miss_or_a_rule_change_holds_little_beyond_the_loaded_file(
    big: Path, scenario: str
) -> None:
    size = big.stat().st_size
    found = grown(big, scenario)
    assert found["load"] > size / 2  # the measure sees the parsed file
    assert found["then"] < size / 4, f"{scenario}: {found['then'] / size:.2f}x the file"


def test_a_compact_file_loads_into_what_replays_own_layout_takes(big: Path, tmp_path: Path) -> None:
    compact = tmp_path / "compact.json"
    compact.write_bytes(orjson.dumps(orjson.loads(big.read_bytes())))
    assert compact.stat().st_size < big.stat().st_size * 0.9  # another layout indeed
    as_written = grown(big, "load")["load"]
    assert grown(compact, "load")["load"] < as_written * 1.3
