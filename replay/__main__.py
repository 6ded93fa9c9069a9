"""``python -m replay``: the same command line as the ``replay`` script."""

from __future__ import annotations

from replay.tools.cli import main

main(prog_name="replay")
