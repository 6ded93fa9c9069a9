"""``replay sync``: cassettes merged from one place into another."""

from __future__ import annotations

import click

from replay._core.errors import CassetteError
from replay._core.location import Location
from replay.tools import inventory, sync
from replay.tools.cli.output import _JSON, _existing, _output, progress
from replay.tools.config import LOCATION
from replay.tools.wording import counted

# replay sync (the merging is in replay.tools.sync)


@click.command("sync")
@click.argument("source", callback=_existing, type=LOCATION)
@click.argument("destination", type=LOCATION)
@_JSON
def sync_command(source: Location, destination: Location, as_json: bool) -> None:
    """Copy the cassettes under SOURCE to DESTINATION, local or s3://BUCKET/PREFIX.

    Each is merged into the cassette of the same relative name (DESTINATION itself when
    SOURCE is one cassette): SOURCE's interactions are added, and replace DESTINATION's
    responses for the same request. Nothing in DESTINATION is removed. Exit status 2 when a
    cassette could not be read or written.

    \b
    Examples:
      replay sync cassettes s3://team-cassettes/llm-suite
      replay sync s3://team-cassettes/llm-suite cassettes
    """
    output = _output(as_json)
    synced: list[sync.Synced] = []
    found = inventory.find([source])
    with progress(found, "Syncing") as items:
        for item in items:
            try:
                cassette = inventory.read(item)
                if cassette is not None:
                    target = sync.target_of(cassette, item.named, destination)
                    synced.append(sync.merge_into(target, cassette))
            except CassetteError as error:
                output.passed_over(str(error))
    if as_json:
        output.document({"synced": [s.to_json() for s in synced], "unreadable": output.unreadable})
    else:
        for done in synced:
            output.line(f"{'copied' if done.changed else 'unchanged'}  {done.target}")
        written = sum(done.changed for done in synced)
        output.line(f"{counted(len(synced), 'cassette')} synced, {written} written")
    if output.unreadable:
        raise click.exceptions.Exit(2)
