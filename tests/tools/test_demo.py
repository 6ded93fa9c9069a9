"""The README's first command: the demo records from a fake API, stops it, replays offline."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from replay.tools import demo


def test_the_demo_records_then_replays_the_same_answers_offline(tmp_path: Path) -> None:
    environment = {k: v for k, v in os.environ.items() if k not in ("REPLAY_MODE", "CI")}
    environment["TMPDIR"] = str(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "replay.tools.demo"],
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("replayed: the same") == 3, done.stdout
    assert "DIFFERENT" not in done.stdout
    assert "API key in the cassette file: no" in done.stdout
    (cassette,) = tmp_path.glob("replay-demo-*/demo.json")
    assert b'"chunks"' in cassette.read_bytes()  # the stream, with its boundaries
    assert demo.API_KEY.encode() not in cassette.read_bytes()
