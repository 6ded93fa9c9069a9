"""A test run in its own process: asks the chat prompts given through a cassette, then exits.

    python tests/replay_run.py CASSETTE URL MODE [--interrupt] PROMPT...

Its usage record is written at exit, as a real test run's is; ``--interrupt``
ends it by an uncaught KeyboardInterrupt instead, as Ctrl-C would.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from recorded import record_chat

parser = argparse.ArgumentParser()
parser.add_argument("cassette", type=Path)
parser.add_argument("url")
parser.add_argument("mode")
parser.add_argument("--interrupt", action="store_true")
parser.add_argument("prompts", nargs="+")
arguments = parser.parse_args()
answers = record_chat(
    arguments.url, arguments.cassette, "model-1", arguments.prompts, arguments.mode
)
print("\n".join(answers))
if arguments.interrupt:
    raise KeyboardInterrupt
