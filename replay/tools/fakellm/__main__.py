"""``python -m replay.tools.fakellm``: ``replay fake-server`` on its own."""

from __future__ import annotations

import sys

from replay.tools.cli.fake_server import fake_server_command

fake_server_command.main(sys.argv[1:], prog_name="python -m replay.tools.fakellm")
