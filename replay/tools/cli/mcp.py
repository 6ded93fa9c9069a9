"""``replay mcp``: the command; the relay and the replay are :mod:`replay.tools.mcp_stdio`."""

from __future__ import annotations

from pathlib import Path

import click

from replay._core.modes import Mode
from replay.tools import mcp_stdio
from replay.tools.cli.output import _COLOR
from replay.tools.config import checked, merged, nearest_pyproject, pyproject_options, settings


@click.command("mcp", context_settings={"ignore_unknown_options": True})
@_COLOR
@click.argument("cassette", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--mode",
    type=click.Choice([mode.value for mode in Mode]),
    help="Record mode (default: mode in [tool.replay], else once, none when CI is set; "
    "REPLAY_MODE in the environment overrides it).",
)
@click.option(
    "--name",
    default=mcp_stdio.DEFAULT_NAME,
    show_default=True,
    help="The session's name in the cassette: one per server, for several in one cassette.",
)
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
def mcp_command(cassette: Path, mode: str | None, name: str, command: tuple[str, ...]) -> None:
    """Stand in for an MCP server on stdio: record its session, or replay it with no server.

    A client runs this in place of the server's command. Recording (mode once with no
    cassette yet, new_episodes, all), it starts COMMAND and relays every message both ways;
    replaying, it starts nothing and answers from CASSETTE. A client message with no recording
    gets a JSON-RPC error, and the command exits 1 at the end. The cassette's options come
    from [tool.replay] of the nearest pyproject.toml, as for replay serve.

    \b
    Example (an MCP client's server command):
      replay mcp tests/cassettes/weather.json -- python weather_server.py
    """
    given = checked("the command line", {"mode": mode} if mode else {})
    options = merged([given, pyproject_options(nearest_pyproject(Path.cwd()))])
    chosen = settings(options, None)  # REPLAY_MODE, then --mode, [tool.replay], the default
    status = mcp_stdio.run(cassette, chosen.mode, command, name, chosen.cassette_options())
    if status:
        raise click.exceptions.Exit(status)
