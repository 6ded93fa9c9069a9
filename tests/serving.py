"""``replay serve`` as users run it: a process of its own, started with ``--port 0``."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path


class Running:
    """A ``replay serve`` process; ``url`` is read from its first line."""

    def __init__(self, *arguments: str, cwd: Path, env: dict[str, str] | None = None) -> None:
        environment = {k: v for k, v in os.environ.items() if k not in ("REPLAY_MODE", "CI")}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "replay", "serve", "--port", "0", *arguments],
            cwd=cwd,
            env={**environment, **(env or {})},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        self.first_line = self.process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)", self.first_line)
        assert found, (self.first_line, self.process.stderr and self.process.stderr.read())
        self.url = found.group(0)
        self.port = int(found.group(1))

    def stop(self, how: signal.Signals = signal.SIGINT) -> tuple[int, str, str]:
        self.process.send_signal(how)
        # Read through the text streams: readline() above may hold later lines in its buffer,
        # which communicate(), reading the pipes underneath, would miss. The log is small.
        assert self.process.stdout is not None and self.process.stderr is not None
        out, err = self.process.stdout.read(), self.process.stderr.read()
        return self.process.wait(timeout=30), self.first_line + out, err
